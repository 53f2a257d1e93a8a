"""Build the shipped vocabulary (``profiles/data/vocabulary.tsv``) from the openly licensed lists in a folder laid out
like ``shared/corpus/vocab``, and the project's own curated table and rules. Deterministic: the same files give the
same bytes.

The skills, strongest first:
1. The curated table (``profiles/data/curated_skills.tsv``), the GitHub topics and GitHub Linguist's languages, read
   and decided as ``seed_skills --vocab`` reads them (``profiles.vocabulary.read_vocabulary``): every one is kept.
2. Stack Overflow's most used tags (``stackoverflow_tags.tsv``, tag and question count), filtered into technologies:
   - a tag below ``MIN_QUESTIONS`` is left out, unless ``rules/keep.txt`` names it;
   - a tag that an earlier skill already knows, as written or in an equivalent form (a version: ``python-3.x``,
     ``angular-2+``, ``vuejs2``; a ".js" suffix: ``reactjs``; ``core.labels.label_variants``), is an alias of it;
   - a tag of ``rules/generic.txt`` (programming and English words: arrays, string, forms, testing, ...) is left out;
   - a tag that is a common English word, or made only of such words and generic ones ("for-loop",
     "error-handling"), is left out unless ``rules/keep.txt`` names it (Spring, Express, Swift are words too);
   - every other tag is a technology: a skill of its own, named by ``names.display_name``.
   A vendor's product ("amazon-sagemaker", "apache-kafka") is also known without the vendor ("sagemaker"), where the
   rest is no tag, no common word and no other skill's label.
3. Which labels need a technical context when read from free text (``names.needs_context``).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from core.labels import label_key, label_variants
from devtools.vocabulary import names
from devtools.vocabulary.rules import COMMON_WORD_RANK, Rules
from profiles.shipped_vocabulary import COLUMNS, ShippedSkill
from profiles.vocabulary import CURATED_LABELS, CURATED_SKILLS, read_vocabulary, seeded_vocabulary, skill_slug

MIN_QUESTIONS = 500
COMPOUND_WORD_RANK = 60_000
VENDOR_PREFIXES = ("amazon", "aws", "azure", "google", "apache", "microsoft", "ms", "ibm", "oracle", "adobe", "bing")
# A version glued to a name the vocabulary knows: "vuejs2", "log4j2", "rx-java2", "opencart2.x" (two digits at most,
# and a stem of three characters at least, so that "d3", "s3", "es6" and "k8s" keep their own meaning).
_GLUED_VERSION_RE = re.compile(r"(?P<stem>[a-z][a-z0-9.+#-]*[a-z])\d{1,2}(?:\.\d+)*(?:\.x)?")

# A label written with or without separators names one technology ("json-ld" and "jsonld"), when enough is left.
_SEPARATORS_RE = re.compile(r"[-_]")  # not ".": Json.NET is not Jsonnet
MIN_SQUASHED_CHARS = 6

HEADER = """\
# The vocabulary that ships with TalentDB, built by `python manage.py build_vocabulary` (devtools/vocabulary): do not
# edit by hand; add a skill or an alias to profiles/data/curated_skills.tsv, or change the build's rules, and rebuild.
# Derived from GitHub's featured topics (defly/github-topics-json, MIT), GitHub Linguist's languages
# (linguist-languages, MIT) and Stack Exchange data (Stack Overflow's tags, by Stack Overflow users, CC BY-SA 4.0):
# this table is licensed CC BY-SA 4.0, as the Stack Exchange data it is derived from; see profiles/data/licences/.
# Columns: slug, display name, kind, aliases and the labels that need a technical context (comma-separated label
# keys), and the lists the skill comes from.
"""


@dataclass(slots=True)
class _Skill:
    slug: str
    name: str
    kind: str
    sources: set[str] = field(default_factory=set)


@dataclass(slots=True)
class _Vocabulary:
    skills: dict[str, _Skill] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # label key -> slug, each label once, first claim wins
    squashed: dict[str, str] = field(default_factory=dict)  # a label without separators -> slug

    def add_label(self, label: str, slug: str) -> None:
        if label and "," not in label and "\t" not in label:
            self.labels.setdefault(label, slug)
            if len(squashed := _squash(label)) >= MIN_SQUASHED_CHARS:
                self.squashed.setdefault(squashed, slug)

    def known(self, key: str) -> str | None:
        """The skill of ``key`` as written, or of its first equivalent form that the vocabulary knows."""
        for form in label_variants(key):
            if (slug := self.labels.get(form)) is not None:
                return slug
        if (glued := _GLUED_VERSION_RE.fullmatch(key)) and len(glued["stem"]) >= 3:
            return self.known(glued["stem"])
        if len(squashed := _squash(key)) >= MIN_SQUASHED_CHARS:
            return self.squashed.get(squashed)  # "batch-file" is Linguist's Batchfile, "system-verilog" SystemVerilog
        return None


def _squash(label: str) -> str:
    return _SEPARATORS_RE.sub("", label)


def read_tags(path: Path) -> list[tuple[str, int]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [(row["tag"], int(row["questions"])) for row in csv.DictReader(handle, delimiter="\t")]


def _public_vocabulary(corpus: Path) -> _Vocabulary:
    """The curated table, the GitHub topics and the Linguist languages, decided as ``seed_skills --vocab`` does."""
    vocab = _Vocabulary()
    for slug, (name, kind) in CURATED_SKILLS.items():
        vocab.skills[slug] = _Skill(slug, name, kind, {"curated"})
    public = read_vocabulary(corpus)
    for slug, name, kind in public.skills:
        source = "github-topics" if kind == "topic" else "linguist"
        skill = vocab.skills.setdefault(slug, _Skill(slug, name, kind))
        skill.sources.add(source)
        if kind == "language" and skill.kind != "language" and slug not in CURATED_SKILLS:
            skill.kind = "language"  # as seeding a language over a topic of the same slug does
    for label, slug in seeded_vocabulary(public).slugs.items():
        vocab.add_label(label, slug)
    for slug in vocab.skills:
        vocab.add_label(slug, slug)
    return vocab


def _is_word(part: str, vocab: _Vocabulary, rules: Rules, rank: int = COMMON_WORD_RANK) -> bool:
    """Whether one part of a tag is a plain word rather than a name: a number, a generic word, or an English word
    (among the ``rank`` most frequent) that is no skill the vocabulary knows."""
    if part.isdigit() or part in rules.generic:
        return True
    return rules.is_common_word(part, rank) and part not in vocab.labels and part not in rules.keep


def _is_technology(tag: str, vocab: _Vocabulary, rules: Rules) -> bool:
    if tag in rules.keep:
        return True
    if tag in rules.generic:
        return False
    parts = tag.split("-")
    if len(parts) == 1:
        return not _is_word(tag, vocab, rules)
    # A compound's longer words may be rarer and still be words ("cosine-similarity", "adjacency-matrix"); its short
    # parts are mostly acronyms ("amazon-rds", "ibm-mq") and a vendor is a name.
    return not all(
        part not in VENDOR_PREFIXES
        and _is_word(part, vocab, rules, COMMON_WORD_RANK if len(part) <= 3 else COMPOUND_WORD_RANK)
        for part in parts
    )


def _add_tags(vocab: _Vocabulary, tags: list[tuple[str, int]], rules: Rules) -> None:
    every_tag = {label_key(tag) for tag, _ in tags}
    for tag, questions in tags:
        key = label_key(tag)
        if not key or (questions < MIN_QUESTIONS and key not in rules.keep):
            continue
        if (slug := vocab.known(key)) is not None:
            vocab.add_label(key, slug)
            vocab.skills[slug].sources.add("stackoverflow")
            continue
        if not _is_technology(key, vocab, rules):
            continue
        slug = skill_slug(key)
        if slug in vocab.skills:  # "asp.net" and "aspnet": one skill
            vocab.add_label(key, slug)
            continue
        name = names.display_name(key, vocab.skills, vocab.labels, rules)
        vocab.skills[slug] = _Skill(slug, name, "skill", {"stackoverflow"})
        for label in (key, slug, label_key(name)):
            vocab.add_label(label, slug)
        vendor, _, rest = key.partition("-")
        if (
            vendor in VENDOR_PREFIXES
            and rest
            and rest not in every_tag
            and rest not in vocab.labels
            and not any(_is_word(part, vocab, rules) for part in rest.split("-"))
        ):
            vocab.add_label(rest, slug)


def build(corpus: Path, rules: Rules | None = None) -> list[ShippedSkill]:
    """The shipped vocabulary's rows, sorted by slug, from the lists in ``corpus``."""
    rules = rules or Rules.read()
    vocab = _public_vocabulary(corpus)
    _add_tags(vocab, read_tags(corpus / "stackoverflow_tags.tsv"), rules)
    aliases: dict[str, list[str]] = {slug: [] for slug in vocab.skills}
    for label, slug in vocab.labels.items():
        if label != slug:
            aliases[slug].append(label)
    rows = []
    for slug in sorted(vocab.skills):
        skill = vocab.skills[slug]
        labels = sorted(aliases[slug])
        rows.append(
            ShippedSkill(
                slug=slug,
                name=skill.name,
                kind=skill.kind,
                aliases=tuple(labels),
                needs_context=tuple(label for label in [slug, *labels] if names.needs_context(label, rules)),
                sources=tuple(sorted(skill.sources)),
            )
        )
    return rows


def render(rows: list[ShippedSkill]) -> str:
    """The table's text: its header notes, its column names, a line per skill (tab-separated, "\\n" line ends)."""
    lines = [HEADER.rstrip("\n"), "\t".join(COLUMNS)]
    for row in rows:
        cells = (row.slug, row.name, row.kind, *(",".join(c) for c in (row.aliases, row.needs_context, row.sources)))
        if any("\t" in cell or "\n" in cell for cell in cells):
            raise ValueError(f"{row.slug}: a tab or a line end in a cell")
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"


def curated_agrees(rows: list[ShippedSkill]) -> list[str]:
    """The curated labels that the table leads elsewhere (none when it was built from the current curated table)."""
    table = {label: row.slug for row in rows for label in (row.slug, *row.aliases)}
    return sorted(label for label, slug in CURATED_LABELS.items() if table.get(label, slug) != slug)
