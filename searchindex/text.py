"""Full-text relevance for the index process: BM25 over the candidates' search vectors, in a tantivy index.

The documents are PostgreSQL's own: each candidate's ``search_vector`` (``profiles.search.columns``), read lexeme by
lexeme, so the words are stemmed, split and dropped exactly as ``to_tsvector('english')`` does, and a query matches the
same candidates as ``search_vector @@ websearch_to_tsquery('english', q)``. A document has

- ``text``: every lexeme at its position in the vector (a gap where a stop word stood), which decides who matches,
  phrases included;
- ``crowded``: the lexemes PostgreSQL stands at the vector's last position beside another (a very long profile's
  words past position 16,383), which match alone but form no phrase, as in PostgreSQL, where they stand at one place;
- ``a``, ``b``, ``c``, ``d``: the lexemes of each weight of the vector (name; headline, title, company and the jobs;
  summary and skills; repositories and contributions), which score the words, each field with its boost
  (``FIELD_BOOSTS``, the ratios of ``ts_rank``'s default weights);
- ``pairs``: each two lexemes standing together, the second at most ``PAIR_REACH`` positions after the first (at most
  two words between them, stop words counted), as one token (a shingle), which scores the words standing together.

A query arrives as the text of a tsquery (PostgreSQL parses the user's words: ``searchindex.tsquery`` reads it).
Its score: for each word the query asks for, the best of the four fields' BM25 scores plus ``TIE_BREAKER`` times the
others (a ``dis_max``), and for each two words next to each other in the query, ``PAIR_BOOST`` times the BM25 score of
their pair. Matching itself scores nothing. A query that asks for no word (``-java``) ranks its matches by id, highest
first.

The words standing together are scored by their pairs rather than by a phrase query with a slop: a phrase query reads
the positions of every document holding all the words (a common word's query spent half its time there), where a pair
is one more term whose postings list only the documents in which the words stand together.

Kept fresh from the outbox as the columns are (``searchindex.freshness`` describes the protocol; the text index keeps
its own place in it), and rebuilt with them.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import itertools
import multiprocessing
import re
import signal
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import tantivy

from searchindex.freshness import Freshness, advance, read_changes, snapshot
from searchindex.tsquery import Node, positive_words, unescape

FIELD_BOOSTS = {"a": 10.0, "b": 4.0, "c": 2.0, "d": 1.0}  # ts_rank's {1.0, 0.4, 0.2, 0.1}, times ten
TIE_BREAKER = 0.3
PAIR_BOOST = 2.0
PAIR_REACH = 3

_PAIR_JOIN = "\x01"  # between a pair's two lexemes: a control character, never in a lexeme nor whitespace to a split

_FILLER = "~"  # one position where to_tsvector dropped a stop word; never a lexeme (the parser skips symbols)
_TOKENIZER = "lexemes"
_BATCH = 2_000
_FLAGS = 16  # nodes per search of ``matching_each``: a sum of distinct powers of two below 2**16 is exact in a float32
# ``matching_each`` lists every match of a node that matches at most this many candidates per id asked about, and
# searches among the ids for the others: finding an id costs a lookup of its term in each segment's dictionary, some
# forty times what listing a match costs (docs/benchmarks.md, "Ranking index").
LISTED_PER_ID = 20
_PR_SET_PDEATHSIG = 1  # prctl's option: the signal a process gets when its parent dies
_WRITER_HEAP = 32_000_000  # the arena of the writer that applies changes, held while the process lives
# The arena of a build's writer: a segment is written each time it fills, so a larger one leaves fewer, larger segments,
# and a search looks each word up and sets up its scorers once per segment. A build runs in a process of its own that
# exits once it is written (``build_apart``), and the arena is taken only as it fills.
_BUILD_HEAP = 1_000_000_000

# A candidate without a vector is left out: ``NULL @@ query`` matches nobody, not even ``-word``. The vector's text is
# read apart in Python (``vector_fields``): unnesting it in SQL took PostgreSQL some twenty times as long.
_VECTORS_SQL = "SELECT c.id, c.search_vector::text FROM profiles_candidate c WHERE c.search_vector IS NOT NULL {where}"


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True, fast=True)
    builder.add_unsigned_field("seq", fast=True)  # the id again: tantivy orders only by an unsigned fast field
    builder.add_text_field("text", tokenizer_name=_TOKENIZER, index_option="position")
    builder.add_text_field("crowded", tokenizer_name=_TOKENIZER, index_option="basic")
    for name in (*FIELD_BOOSTS, "pairs"):
        builder.add_text_field(name, tokenizer_name=_TOKENIZER, index_option="freq")
    return builder.build()


def pair(first: str, second: str) -> str:
    """The ``pairs`` token of ``first`` followed closely by ``second``."""
    return f"{first}{_PAIR_JOIN}{second}"


_LEXEME_RE = re.compile(r"'((?:[^'\\]|\\.|'')*)':?([0-9A-D,]*)")


def vector_fields(vector: str) -> tuple[str, str, str, str, str, str, str]:
    """The text of a tsvector (``'engin':3B,9C 'head':1B``) as the index's fields: the lexemes of weight A, B, C and D
    (once per position), all of them in position order with a ``_FILLER`` per empty position, the lexemes sharing a
    position with another (PostgreSQL keeps positions above 16,383 as 16,383), which have no place of their own, and
    the pairs of lexemes in place at most ``PAIR_REACH`` positions apart."""
    by_weight: dict[str, list[str]] = {"A": [], "B": [], "C": [], "D": []}
    placed: dict[int, str] = {}
    crowded: list[str] = []
    for lexeme, positions in _LEXEME_RE.findall(vector):
        if not positions:
            continue
        if "'" in lexeme or "\\" in lexeme:
            lexeme = unescape(lexeme)
        for position in positions.split(","):
            weight = position[-1]
            if weight > "9":
                at = int(position[:-1])
            else:
                weight, at = "D", int(position)
            by_weight[weight].append(lexeme)
            if at in placed:
                crowded.append(lexeme)
            else:
                placed[at] = lexeme
    slots: list[str] = []
    if placed:
        low = min(placed)
        slots = [_FILLER] * (max(placed) - low + 1)
        for at, lexeme in placed.items():
            slots[at - low] = lexeme
    pairs = [
        first + _PAIR_JOIN + second  # ``pair``, without a call per pair
        for reach in range(1, PAIR_REACH + 1)
        for first, second in zip(slots, slots[reach:], strict=False)
        if first != _FILLER and second != _FILLER
    ]
    return (*(" ".join(words) for words in by_weight.values()), " ".join(slots), " ".join(crowded), " ".join(pairs))


class TextIndex:
    """The BM25 index of every candidate's search vector. ``search`` and ``matching`` read a searcher (a snapshot):
    they need no lock while ``apply`` writes. In memory, or in files (``build_apart``)."""

    def __init__(self, path: str | None = None, *, heap: int = _WRITER_HEAP):
        self.schema = _schema()
        self.directory: tempfile.TemporaryDirectory | None = None  # the files' directory, removed with the index
        self.index = tantivy.Index(self.schema, path=path)
        analyzer = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
        self.index.register_tokenizer(_TOKENIZER, analyzer.filter(tantivy.Filter.custom_stopword([_FILLER])).build())
        self.writer = self.index.writer(heap, 1)
        self.write_lock = threading.Lock()
        self.searcher = self.index.searcher()
        self.freshness: Freshness | None = None
        self.built_at: dt.datetime | None = None
        # The lexemes any document holds in ``crowded`` (few: only very long profiles have any), which a match of the
        # word looks for there too. Only grows between builds: a lexeme no longer crowded costs a clause, not a match.
        self.crowded: set[str] = set()

    def __len__(self) -> int:
        return self.searcher.num_docs

    # --- Writing

    @classmethod
    def build(cls, connection, *, path: str | None = None) -> TextIndex:
        """Every candidate's document, from one REPEATABLE READ snapshot of ``connection`` (psycopg; one already in a
        transaction, as a test's, reads that transaction's); in memory, or written to the directory ``path``."""
        text = cls(path, heap=_BUILD_HEAP)
        with snapshot(connection), connection.transaction():
            with connection.cursor() as cursor:
                cursor.execute("SELECT now(), pg_snapshot_xmin(pg_current_snapshot())::text::int8")
                [built_at, xmin] = cursor.fetchone()
            with connection.cursor(name="searchindex_text_build") as cursor:
                cursor.itersize = _BATCH
                cursor.execute(_VECTORS_SQL.format(where=""))
                for pk, vector in cursor:
                    text.writer.add_document(text._document(pk, vector))
        text._commit()
        text.freshness = Freshness(xmin=xmin, fresh_at=built_at)
        text.built_at = built_at
        return text

    @classmethod
    def build_apart(cls, dsn: str, *, parent: Path | None = None) -> TextIndex:
        """``build`` in a process of its own, into a temporary directory (in ``parent``, else the system's) that
        this process then opens and removes with the index. Reading a million vectors apart is Python's work: in the
        index process it would hold the interpreter's lock for minutes, and every ranking request, whose numpy calls
        let go of it and take it again many times, would wait for it."""
        directory = tempfile.TemporaryDirectory(prefix="talentdb-text-", dir=parent)
        context = multiprocessing.get_context("spawn")  # a fork would copy this process's threads and index
        receiving, sending = context.Pipe(duplex=False)
        # Daemonic: terminated when this process exits (its stop, or SIGTERM, which searchindex_serve makes an exit).
        child = context.Process(
            target=_build_files, args=(dsn, directory.name, sending), name="searchindex-text-build", daemon=True
        )
        try:
            child.start()
            sending.close()  # the child holds the only writing end: its death ends the wait below
            try:
                outcome = receiving.recv()
            except EOFError:
                outcome = RuntimeError(f"the text index's build process ended ({child.exitcode}) without an index")
            child.join()
            if isinstance(outcome, BaseException):
                raise outcome
        except BaseException:
            if child.is_alive():
                child.kill()
                child.join()
            directory.cleanup()
            raise
        freshness, crowded = outcome
        text = cls(directory.name)  # the child has exited: its writer's lock on the files is released
        text.directory, text.freshness = directory, freshness
        text.built_at, text.crowded = freshness.fresh_at, crowded
        return text

    def _document(self, pk: int, vector: str) -> tantivy.Document:
        a, b, c, d, text, crowded, pairs = vector_fields(vector)
        document = tantivy.Document()
        document.add_integer("id", pk)
        document.add_unsigned("seq", pk)
        fields = (("text", text), ("crowded", crowded), ("a", a), ("b", b), ("c", c), ("d", d), ("pairs", pairs))
        for name, value in fields:
            document.add_text(name, value)
        self.crowded.update(crowded.split())
        return document

    def _commit(self) -> None:
        self.writer.commit()
        self.index.reload()
        self.searcher = self.index.searcher()

    def apply(self, connection, candidate_ids: Iterable[int]) -> None:
        """Read these candidates' vectors again and replace their documents; a candidate gone loses its document."""
        ids = sorted(set(candidate_ids))
        if not ids:
            return
        with connection.cursor() as cursor:
            cursor.execute(_VECTORS_SQL.format(where="AND c.id = ANY(%s::int8[])"), [ids])
            rows = cursor.fetchall()
        with self.write_lock:
            for pk in ids:
                self.writer.delete_documents("id", pk)
            for pk, vector in rows:
                self.writer.add_document(self._document(pk, vector))
            self._commit()

    def poll(self, connection) -> int:
        """Apply the candidates' changes written since the last poll (the protocol of ``searchindex.freshness``);
        returns how many candidates were read again."""
        changes = read_changes(self.freshness, connection)  # its repositories' rows change no candidate's text
        for start in range(0, len(changes.candidates), _BATCH):
            self.apply(connection, changes.candidates[start : start + _BATCH])
        advance(self.freshness, changes)
        return len(changes.candidates)

    # --- Reading

    def _term(self, lexeme: str) -> tantivy.Query:
        """Who holds ``lexeme``: in its place, or among the crowded lexemes when any document has it there."""
        placed = tantivy.Query.term_query(self.schema, "text", lexeme)
        if lexeme not in self.crowded:
            return placed
        crowded = tantivy.Query.term_query(self.schema, "crowded", lexeme)
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, placed), (tantivy.Occur.Should, crowded)])

    def _match(self, node: Node) -> tantivy.Query:
        """Who matches ``node``, on the positional field (and ``crowded`` for a word alone)."""
        if node.kind == "term":
            return self._term(node.lexeme)
        if node.kind == "phrase":
            if len({offset for offset, _ in node.words}) == 1 and len({w for _, w in node.words}) == 1:
                return self._term(node.words[0][1])
            return tantivy.Query.phrase_query(self.schema, "text", list(node.words))
        if node.kind == "not":
            return self._excluding([node.children[0]], [])
        if node.kind == "or":
            return tantivy.Query.boolean_query([(tantivy.Occur.Should, self._match(c)) for c in node.children])
        kept = [child for child in node.children if child.kind != "not"]
        return self._excluding([child.children[0] for child in node.children if child.kind == "not"], kept)

    def _excluding(self, excluded: list[Node], kept: list[Node]) -> tantivy.Query:
        clauses = [(tantivy.Occur.Must, self._match(child)) for child in kept] or [
            (tantivy.Occur.Must, tantivy.Query.all_query())
        ]
        clauses += [(tantivy.Occur.MustNot, self._match(child)) for child in excluded]
        return tantivy.Query.boolean_query(clauses)

    def _scored(self, node: Node) -> tuple[tantivy.Query, bool]:
        """The query that finds ``node``'s matches with their BM25 scores; False when it asks for no word."""
        words = positive_words(node)
        if not words:
            return self._match(node), False
        # Words only, all required (the usual query): each word's weight fields hold it wherever it stands, crowded or
        # in place, so requiring its scoring clause finds the same candidates, without a search of its own.
        words_only = node.kind == "term" or (node.kind == "and" and all(c.kind == "term" for c in node.children))
        occur = tantivy.Occur.Must if words_only else tantivy.Occur.Should
        clauses = [] if words_only else [(tantivy.Occur.Must, tantivy.Query.const_score_query(self._match(node), 0.0))]
        for word in words:
            fields = [
                tantivy.Query.boost_query(tantivy.Query.term_query(self.schema, name, word), boost)
                for name, boost in FIELD_BOOSTS.items()
            ]
            clauses.append((occur, tantivy.Query.disjunction_max_query(fields, TIE_BREAKER)))
        for first, second in itertools.pairwise(words):
            together = tantivy.Query.term_query(self.schema, "pairs", pair(first, second))
            clauses.append((tantivy.Occur.Should, tantivy.Query.boost_query(together, PAIR_BOOST)))
        return tantivy.Query.boolean_query(clauses), True

    def _ids(self, searcher, hits) -> list[tuple[float, int]]:
        return [(score, searcher.doc(address)["id"][0]) for score, address in hits]

    def search(
        self, node: Node | None, *, limit: int, offset: int = 0, after: tuple[float, int] | None = None
    ) -> list[tuple[float, int]]:
        """(score, id) of the matches of ``node``, most relevant first, ties by id (highest first): ``limit`` of them
        after ``offset`` more, all after the match ``after`` when given."""
        if node is None:
            return []
        searcher = self.searcher
        query, scored = self._scored(node)
        wanted = offset + limit
        if not scored:  # every score is 0: the order is the ids'
            if after is not None:
                below = tantivy.Query.range_query(self.schema, "id", tantivy.FieldType.Integer, -(2**62), after[1] - 1)
                query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (tantivy.Occur.Must, below)])
            found = searcher.search(query, wanted, count=False, order_by_field="seq").hits
            return [(0.0, pk) for _, pk in self._ids(searcher, found)][offset:wanted]
        fetch = max(64, 2 * wanted)
        while True:
            hits = self._ids(searcher, searcher.search(query, fetch, count=False).hits)
            complete = len(hits) < fetch
            if not complete:
                # The last score's ties may go on past the fetched hits: only the ones above it are in order.
                hits = [hit for hit in hits if hit[0] > hits[-1][0]]
            hits.sort(key=lambda hit: (-hit[0], -hit[1]))
            if after is not None:
                hits = [hit for hit in hits if hit[0] < after[0] or (hit[0] == after[0] and hit[1] < after[1])]
            if complete or len(hits) >= wanted:
                return hits[offset:wanted]
            fetch *= 4

    def matching_each(self, nodes: list[Node | None], ids: list[int]) -> list[list[int]]:
        """For each of ``nodes``, which of ``ids`` match it. A node few candidates match (most of a job's keywords)
        has its matches listed whole, their ids read from the ``seq`` fast field, and kept if asked about. The others
        are searched for among the ids together: finding the ids is most of such a search's work, so each node is a
        constant score of its own bit, and a hit's score (their sum, exact in a float up to _FLAGS bits) says which it
        matched."""
        found: list[list[int]] = [[] for _ in nodes]
        if not ids:
            return found
        searcher = self.searcher
        asked = np.asarray(ids, dtype=np.int64)
        searched = []
        for place, node in enumerate(nodes):
            if node is None:
                continue
            query = self._match(node)
            most = self._most_matching(searcher, node)
            if most is None or most > LISTED_PER_ID * len(ids):
                searched.append((place, query))
            elif most:
                hits = searcher.search(query, most, count=False, order_by_field="seq").hits
                matches = np.fromiter((pk for pk, _ in hits), dtype=np.int64, count=len(hits))
                found[place] = np.intersect1d(matches, asked).tolist()
        if not searched:
            return found
        among = tantivy.Query.const_score_query(tantivy.Query.term_set_query(self.schema, "id", ids), 0.0)
        for start in range(0, len(searched), _FLAGS):
            group = searched[start : start + _FLAGS]
            # Only the ids matching one of them are hits: each hit's stored id is read from the documents' store.
            any_of = tantivy.Query.boolean_query(
                [
                    (tantivy.Occur.Should, tantivy.Query.const_score_query(query, float(1 << bit)))
                    for bit, (_, query) in enumerate(group)
                ]
            )
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, among), (tantivy.Occur.Must, any_of)])
            hits = searcher.search(query, len(ids), count=False).hits
            for flags, pk in self._ids(searcher, hits):
                for bit, (place, _) in enumerate(group):
                    if int(flags) >> bit & 1:
                        found[place].append(pk)
        return found

    def _most_matching(self, searcher, node: Node) -> int | None:
        """At least as many as the candidates ``node`` matches, from its words' document frequencies (read from the
        terms' dictionary; a deleted document counts until its segment merges); None when they bound nothing (a
        negation)."""

        def frequency(lexeme: str) -> int:
            crowded = searcher.doc_freq("crowded", lexeme) if lexeme in self.crowded else 0
            return searcher.doc_freq("text", lexeme) + crowded

        if node.kind == "term":
            return frequency(node.lexeme)
        if node.kind == "phrase":  # every word of it, in place
            return min(frequency(lexeme) for _, lexeme in node.words)
        if node.kind == "and":  # each required child bounds it
            bounds = [self._most_matching(searcher, child) for child in node.children if child.kind != "not"]
            known = [bound for bound in bounds if bound is not None]
            return min(known) if known else None
        if node.kind == "or":
            bounds = [self._most_matching(searcher, child) for child in node.children]
            return None if None in bounds else sum(bounds)
        return None

    def status(self) -> dict:
        return {"documents": len(self), "fresh_at": self.freshness.fresh_at.isoformat()}


def _build_files(dsn: str, path: str, sending) -> None:
    """``TextIndex.build_apart``'s child: the index written to ``path``; sends its freshness and crowded lexemes,
    or the error that stopped it."""
    _end_with_parent()
    try:
        import psycopg

        with psycopg.connect(dsn) as connection:
            text = TextIndex.build(connection, path=path)
        text.writer.wait_merging_threads()  # fewer segments to search; the files are whole when the child exits
        sending.send((text.freshness, text.crowded))
    except Exception as exc:  # sent as text: a driver's exception need not survive pickling
        sending.send(RuntimeError(f"the text index's build failed: {exc!r}"))


def _end_with_parent() -> None:
    """Have the kernel end this process when its parent dies (Linux), however it dies: an orphaned build would hold
    its snapshot, a connection and a core for minutes."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the daemonic flag still ends it when the parent exits cleanly
        return
