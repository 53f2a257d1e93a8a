"""Splitting a line of GitHub topics glued into one word ("pythondata-sciencedeep-learning") into topics."""

from __future__ import annotations

import functools
import itertools
import math
import re
import sys
from array import array
from pathlib import Path
from typing import NamedTuple

import marisa_trie
import wordsegment

from core.text import clean_text

__all__ = ["split_topics", "word_count"]

# Costs of the topic segmentation. Tuned on glued runs of real GitHub topic names (the featured topics and their
# aliases, some left out of the vocabulary) and on the synthetic profiles; both reference lines must come out right.
UNKNOWN_SEGMENT_COST = 4  # A: paid once per unknown segment; a known word of A+1 letters or fewer between two
# unknown runs is swallowed by them, so A stays small
UNKNOWN_CHAR_COST = 1  # B: paid per character of an unknown segment
KNOWN_SEGMENT_COST = 1
# One- to three-letter known words ("c", "go", "boo", "lib" are all Linguist names) cost their length or more, so
# carving them off the edge of an unknown word never pays ("bootloader" is not "boo" + "tloader") and a run of them
# does not beat an unknown word ("jvm" is not "j" + "v" + "m"); between two known words they still split.
SHORT_KNOWN_COSTS = {1: 4, 2: 3, 3: 3}
# Unknown stubs of one to three characters pay extra, so a known word is not carved off an unknown one when that
# leaves a stub ("awesome-lists" is not "awesome-list" + "s"). Longer stubs are not protected: with "unity" known and
# "community" unknown, "community" glued alone reads as "comm" + "unity" (the hyphen rule saves "community-driven").
SHORT_UNKNOWN_PENALTY = {1: 20, 2: 3, 3: 1}
_LONG_UNKNOWN = max(SHORT_UNKNOWN_PENALTY) + 1
DIGIT_START_PENALTY = 6  # an unknown topic starting with a digit ("laravel" + "54") is unlikely
_MAX_KNOWN_LEN = 64
MAX_TOKEN_LENGTH = 2000
_TOPIC_SPLIT_RE = re.compile(r"[\s,;|]+")


def _known_cost(length: int) -> int:
    return SHORT_KNOWN_COSTS.get(length, KNOWN_SEGMENT_COST)


def _unknown_cost(length: int) -> int:
    return UNKNOWN_SEGMENT_COST + UNKNOWN_CHAR_COST * length + SHORT_UNKNOWN_PENALTY.get(length, 0)


@functools.lru_cache(maxsize=16)
def _reversed_trie(vocabulary: frozenset[str]) -> dict:
    """The vocabulary's words spelled backwards as nested dicts ("" marks a word's start), to find every known
    word ending at a position by walking back from it."""
    root: dict = {}
    for word in vocabulary:
        if not isinstance(word, str) or not word or len(word) > _MAX_KNOWN_LEN:
            continue
        node = root
        for ch in reversed(word):
            node = node.setdefault(ch, {})
        node[""] = True
    return root


# The segmentation packs each (cost, number of segments) pair into one integer, cost * _PACKED + segments: integers
# compare and add faster than tuples, in the same order (a token has fewer than _PACKED segments).
_PACKED = 1 << 12
assert MAX_TOKEN_LENGTH < _PACKED
_UNREACHED = 1 << 62  # no segmentation of the prefix yet: above every reachable packed cost
# Packed costs of one more segment: a long unknown one opened (then growing by _PACKED_CHAR a character), a short
# unknown one of each length below _LONG_UNKNOWN, a known word of each length; the digit-start penalty.
_PACKED_CHAR = UNKNOWN_CHAR_COST * _PACKED
_PACKED_LONG_UNKNOWN = (UNKNOWN_SEGMENT_COST + UNKNOWN_CHAR_COST * _LONG_UNKNOWN) * _PACKED + 1
_PACKED_SHORT_UNKNOWN = tuple((length, _unknown_cost(length) * _PACKED + 1) for length in range(1, _LONG_UNKNOWN))
_PACKED_KNOWN = tuple(_known_cost(length) * _PACKED + 1 for length in range(_MAX_KNOWN_LEN + 1))
_PACKED_DIGIT_START = DIGIT_START_PENALTY * _PACKED


def _segment(token: str, vocabulary: frozenset[str], extra: frozenset[str] = frozenset()) -> list[str]:
    """Minimum-cost segmentation of one glued token into known words and unknown runs (see split_topics).

    Costs are (cost, number of segments) pairs, so among equally cheap readings the one with fewer topics wins.
    ``vocabulary`` is walked through a trie built once per vocabulary; the few ``extra`` words are matched directly.
    """
    s = token.strip("-")
    n = len(s)
    if n == 0:
        return []
    if n > MAX_TOKEN_LENGTH:
        return [s]  # not a line of topics; do not spend time on it
    low = s.lower()
    trie = _reversed_trie(vocabulary)
    # Unknown topics rarely start with a digit once glued to a previous one ("laravel" + "54"): a penalty.
    lead = [0] + [_PACKED_DIGIT_START if ch.isdigit() else 0 for ch in s[1:]]
    # A topic boundary may fall between s[i-1] and s[i]: not next to '-', not inside a run of digits.
    cut = [True]
    cut += [a != "-" and b != "-" and not (a.isdigit() and b.isdigit()) for a, b in itertools.pairwise(s)]
    cut.append(True)
    # best[i]: the cheapest segmentation of s[:i], its last segment s[start[i]:i], known or not. A candidate built on
    # an unreached prefix costs _UNREACHED or more, so it never beats best[i] (at most _UNREACHED): no test needed.
    best = [_UNREACHED] * (n + 1)
    start = [0] * (n + 1)
    known = [False] * (n + 1)
    # Unknown segments of _LONG_UNKNOWN letters or more have linear cost: keep the cheapest one still open at i.
    long_open = [_UNREACHED] * (n + 1)
    long_start = [0] * (n + 1)
    best[0] = 0
    # Where each ``extra`` word occurs, by the position it ends at: (start, packed cost), in the order of ``extra``.
    extra_ending: dict[int, list[tuple[int, int]]] = {}
    for word in extra:
        if word and word in low:
            cost = _known_cost(len(word)) * _PACKED + 1
            j = low.find(word)
            while j >= 0:
                extra_ending.setdefault(j + len(word), []).append((j, cost))
                j = low.find(word, j + 1)

    for i in range(1, n + 1):
        j = i - _LONG_UNKNOWN
        extended = long_open[i - 1] + _PACKED_CHAR
        if (
            j >= 0
            and cut[j]
            and best[j] < _UNREACHED
            and (fresh := best[j] + _PACKED_LONG_UNKNOWN + lead[j]) <= extended
        ):
            long_open[i], long_start[i] = fresh, j
        else:
            long_open[i], long_start[i] = extended, long_start[i - 1]
        if not cut[i]:
            continue
        best_i = best[i]
        if long_open[i] < best_i:
            best_i, start[i] = long_open[i], long_start[i]
        for length, cost in _PACKED_SHORT_UNKNOWN:
            j = i - length
            if j < 0:
                break
            if cut[j] and (cand := best[j] + cost + lead[j]) < best_i:
                best_i, start[i] = cand, j
        known_at = -1  # the start of the last segment when it is a known word
        node = trie
        j = i
        while j > 0:
            node = node.get(low[j - 1])
            if node is None:
                break
            j -= 1
            if "" in node and cut[j] and (cand := best[j] + _PACKED_KNOWN[i - j]) < best_i:
                best_i, known_at = cand, j
        for j, cost in extra_ending.get(i, ()):
            if cut[j] and (cand := best[j] + cost) < best_i:
                best_i, known_at = cand, j
        if known_at >= 0:
            start[i], known[i] = known_at, True
        best[i] = best_i
    if best[n] >= _UNREACHED:
        return [s]
    segments: list[tuple[str, bool]] = []
    i = n
    while i > 0:
        j = start[i]
        segments.append((s[j:i], known[i]))
        i = j
    segments.reverse()
    segments = _known_words_put_back(segments)
    merged: list[tuple[str, bool]] = []
    for seg, is_known in segments:
        if merged and not is_known and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + seg, False)  # adjacent unknown runs are one topic
        else:
            merged.append((seg, is_known))
    out: list[str] = []
    for seg, is_known in merged:
        out.extend([seg] if is_known else _split_into_words(seg))
    return out


# --- English words: the unknown runs the vocabulary cannot split ------------------------------------------------------
# wordsegment ships the unigram counts of Google's web corpus (333,000 words) and a Viterbi segmenter over them. Only
# the unigrams are used: they keep a compound the web writes glued ("realtime", "gamedev") whole, where the bigrams
# would split it too. The counts are read from core/data/, generated from the pinned wordsegment by
# `manage.py build_word_table` (tests/core/test_word_table.py checks that they match it): the words as a marisa trie,
# mapped rather than loaded, and their counts in the trie's key order. So a worker neither parses wordsegment's file
# nor holds it as a dictionary of 333,000 strings, and its processes share the trie's pages.
MIN_WORD_COUNT = 100_000  # a piece counts as a real word from this many occurrences: "observability" (110,000)
# passes; fragments such as "chaine" (82,000) and "kube" (56,000) do not
MIN_WORD_LENGTH = 3  # "ml", "um", "ql" and "hi" are no topics of their own
# Three-letter pieces are mostly abbreviations ("esl" + "int" is not "eslint", "dev" + "ops" not "devops"): they
# count only when they are among the web's common words ("web", "map", "log": 100 million occurrences or more).
MIN_SHORT_WORD_COUNT = 100_000_000
MAX_SEGMENTED_LENGTH = 80  # a longer unknown run is no line of glued words

WORD_TABLE_DIR = Path(__file__).resolve().parent / "data"
WORD_TRIE_FILE = "unigrams.marisa"
WORD_COUNTS_FILE = "unigram_counts.bin"  # float64, little-endian, indexed by the trie's key ids
_TOTAL = wordsegment.Segmenter.TOTAL
_LIMIT = wordsegment.Segmenter.LIMIT  # the longest word the segmenter tries (and the longest in its table)
# wordsegment's score of a word it does not know, by length (Segmenter.score's expression, so the same float).
_UNKNOWN_SCORES = (0.0, *(math.log10(10.0 / (_TOTAL * 10**length)) for length in range(1, _LIMIT + 1)))


class _WordTable(NamedTuple):
    trie: marisa_trie.Trie  # word -> key id
    counts: array  # key id -> the word's count


def build_word_table(folder: Path) -> None:
    """Write wordsegment's unigram counts into ``folder`` as the two files ``_word_table`` reads."""
    unigrams = wordsegment.Segmenter.parse(wordsegment.Segmenter.UNIGRAMS_FILENAME)
    trie = marisa_trie.Trie(unigrams)
    counts = array("d", bytes(8 * len(trie)))
    for word, count in unigrams.items():
        counts[trie.key_id(word)] = count
    if sys.byteorder != "little":
        counts.byteswap()
    folder.mkdir(parents=True, exist_ok=True)
    trie.save(str(folder / WORD_TRIE_FILE))
    (folder / WORD_COUNTS_FILE).write_bytes(counts.tobytes())


@functools.cache
def _word_table() -> _WordTable:
    trie = marisa_trie.Trie().mmap(str(WORD_TABLE_DIR / WORD_TRIE_FILE))
    counts = array("d")
    counts.frombytes((WORD_TABLE_DIR / WORD_COUNTS_FILE).read_bytes())
    if sys.byteorder != "little":
        counts.byteswap()
    return _WordTable(trie, counts)


def word_count(word: str) -> float:
    """How often ``word`` (lower-case) occurs in wordsegment's web counts; 0 for a word it does not list."""
    table = _word_table()
    key_id = table.trie.get(word)
    return 0.0 if key_id is None else table.counts[key_id]


def _segment_words(text: str) -> list[str]:
    """wordsegment's ``Segmenter.segment`` over its unigram counts alone, for a text of up to 250 characters (one of
    its chunks): the same scores, added in the same order, the same tie-break (the greater list of words, as its
    ``max`` over (score, words) pairs), so the same words. Bottom-up over the suffixes, with the known words at each
    position read from the trie in one walk, where its memoised recursion tried every pair of words."""
    s = wordsegment.Segmenter.clean(text)
    n = len(s)
    trie, counts = _word_table()
    score = [0.0] * (n + 1)  # score[i], words[i]: the best segmentation of s[i:]
    words: list[list[str]] = [[] for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        known = {
            len(w): math.log10(counts[key_id] / _TOTAL) for w, key_id in trie.iter_prefixes_with_ids(s[i : i + _LIMIT])
        }
        best_score, best_words = 0.0, None
        for length in range(1, min(_LIMIT, n - i) + 1):
            j = i + length
            candidate = known.get(length, _UNKNOWN_SCORES[length]) + score[j]
            if best_words is None or candidate > best_score:
                best_score, best_words = candidate, [s[i:j], *words[j]]
            elif candidate == best_score and (tied := [s[i:j], *words[j]]) > best_words:
                best_words = tied
        score[i], words[i] = best_score, best_words
    return words[0]


def _is_word(text: str) -> bool:
    """An English word of three letters or more that the web writes often enough not to be a fragment or an
    abbreviation."""
    if len(text) < MIN_WORD_LENGTH or not text.isascii() or not text.isalpha():
        return False
    count = word_count(text.lower())
    return count >= (MIN_SHORT_WORD_COUNT if len(text) == MIN_WORD_LENGTH else MIN_WORD_COUNT)


@functools.lru_cache(maxsize=10_000)
def _is_one_word(text: str) -> bool:
    """A real word that the segmenter also reads as one word ("engineering"; not "machinelearning")."""
    return _is_word(text) and _segment_words(text.lower()) == [text.lower()]


def _split_into_words(run: str) -> list[str]:
    """An unknown run cut into English words ("servicemesh" -> "service", "mesh"), only where every piece is a real
    word; else the run whole ("kubeflow", "blockchainethereum", "graphql" stay). A hyphen binds its neighbours into
    one topic ("servicemeshdata-engineering" -> "service", "mesh", "data-engineering")."""
    if len(run) > MAX_SEGMENTED_LENGTH or not any(len(part) >= 2 * MIN_WORD_LENGTH for part in run.split("-")):
        return [run]
    if "-" not in run and not _real_words_spell(run):
        return [run]  # no reading of it is all real words, so the segmenter's cannot be either: spare its search
    topics: list[str] = []
    glue = False  # the next word continues the last topic (a hyphen came before it)
    split_any = False
    for part in run.split("-"):
        if not part:
            return [run]
        words = [part] if _is_word(part) else _words_of(part)
        if words is None:
            return [run]
        words = list(words)
        split_any = split_any or len(words) > 1
        if glue:
            topics[-1] += "-" + words[0]
            words = words[1:]
        topics.extend(words)
        glue = True
    return topics if split_any else [run]


@functools.lru_cache(maxsize=10_000)
def _real_words_spell(part: str) -> bool:
    """Whether ``part`` can be cut into two or more real words (``_is_word``), each at most as long as the longest
    word the segmenter tries: a check of table lookups, cheaper than the segmenter's search, which most unknown runs
    (project names) fail."""
    longest = _LIMIT
    n = len(part)
    reachable = [True] + [False] * n  # reachable[i]: part[:i] is real words
    for i in range(MIN_WORD_LENGTH, n + 1):
        reachable[i] = any(
            reachable[j] and _is_word(part[j:i]) for j in range(max(0, i - longest), i - MIN_WORD_LENGTH + 1)
        )
    return reachable[n] and not _is_word(part)


@functools.lru_cache(maxsize=10_000)
def _words_of(part: str) -> tuple[str, ...] | None:
    """``part`` cut into real words, in its own letters and case; [part] when the segmenter keeps it whole; None
    when a piece is not a real word."""
    pieces = _segment_words(part.lower())
    if len(pieces) == 1:
        return (part,)
    if not all(_is_word(piece) for piece in pieces):
        return None
    words, start = [], 0
    for piece in pieces:
        words.append(part[start : start + len(piece)])
        start += len(piece)
    return tuple(words) if start == len(part) else None


def _known_words_put_back(segments: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """A known word carved off the edge of an unknown run goes back when together they spell one English word:
    "data-enginee" + "ring" is "data-engineering", "comm" + "unity" is "community" ("ring" and "unity" are
    Linguist languages). The costs alone cannot tell; the word list can."""
    out = list(segments)
    i = 0
    while i < len(out) - 1:
        (left, left_known), (right, right_known) = out[i], out[i + 1]
        if left_known == right_known:
            i += 1
            continue
        # An unknown run, then a known word: the run's last word and the known one; else the other way round.
        word = left.rsplit("-", 1)[-1] + right if not left_known else left + right.split("-", 1)[0]
        if _is_one_word(word):
            out[i : i + 2] = [(left + right, False)]
            i = max(0, i - 1)
        else:
            i += 1
    return out


@functools.lru_cache(maxsize=50_000)
def _segment_cached(token: str, vocabulary: frozenset[str], extra: frozenset[str]) -> tuple[str, ...]:
    """Repositories recur across profiles: their topic lines are split once per worker process."""
    return tuple(_segment(token, vocabulary, extra))


@functools.lru_cache(maxsize=16)
def _extra_words(extra: frozenset[str], vocabulary: frozenset[str]) -> frozenset[str]:
    """The ``extra`` words the vocabulary lacks: once per document (its own words), not once per line of topics."""
    return frozenset(word for word in extra if word and word not in vocabulary)


@functools.lru_cache(maxsize=16)
def _by_length(words: frozenset[str]) -> dict[int, frozenset[str]]:
    groups: dict[int, set[str]] = {}
    for word in words:
        groups.setdefault(len(word), set()).add(word)
    return {length: frozenset(group) for length, group in groups.items()}


# Up to this many words per character of a line, each word is looked for in the line; past it, the line's pieces are
# looked up instead (``_words_in``), which a document of many words and long lines needs.
_WORDS_PER_CHARACTER = 4


def _words_in(low: str, words: frozenset[str]) -> frozenset[str]:
    """The ``words`` that occur in ``low``: each word looked for, or each piece of ``low`` as long as some word looked
    up, whichever is fewer, so that a document of many words and long lines costs no more than its lines' length
    times the number of word lengths: looking for every word in every line made it grow with the two multiplied."""
    n = len(low)
    if len(words) <= _WORDS_PER_CHARACTER * n:
        return frozenset(word for word in words if word in low)
    by_length = _by_length(words)
    if len(words) <= sum(n - length + 1 for length in by_length if length <= n):
        return frozenset(word for word in words if word in low)
    return frozenset(
        piece
        for length, group in by_length.items()
        for start in range(n - length + 1)
        if (piece := low[start : start + length]) in group
    )


def split_topics(raw: str, vocabulary: frozenset[str], extra: frozenset[str] = frozenset()) -> list[str]:
    """Split a line of GitHub topics glued into one word ("pythondata-sciencedeep-learning") into topics.

    Dynamic programming over the cut points: a segment found in ``vocabulary`` (label keys) costs 1, an unknown
    segment costs ``A + B*len`` (A=4, B=1), so a run of unknown text between known words stays one topic; very
    short known words cost more and very short unknown stubs pay a penalty, so short known words are not carved out
    of longer unknown ones. No segment starts or ends with '-' and no cut falls inside a run of digits. Whitespace or
    commas, when present, are hard boundaries. Duplicates are dropped, order kept. Two unknown topics glued together
    cannot be told apart and come out as one.

    ``extra`` holds a few more known words (a document's own labels): kept apart from ``vocabulary`` so the large,
    shared vocabulary's index is built once, not once per document.
    """
    if not isinstance(raw, str):
        return []
    if not isinstance(vocabulary, frozenset):
        vocabulary = frozenset(vocabulary)
    out: list[str] = []
    seen: set[str] = set()
    words = _extra_words(frozenset(extra), vocabulary)
    for token in _TOPIC_SPLIT_RE.split(clean_text(raw)):
        relevant = _words_in(token.lower(), words)
        for topic in _segment_cached(token, vocabulary, relevant):
            if topic and topic not in seen:
                seen.add(topic)
                out.append(topic)
    return out
