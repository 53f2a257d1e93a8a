"""The Prog.AI parser: the text of an export in, a ProfileDocument out."""

from __future__ import annotations

from collections.abc import Callable

from core.labels import MAX_LABEL_CHARS, label_key
from core.text import clean_text
from core.topics import split_topics
from ingestion.documents import (
    ContributionEntry,
    LanguageEntry,
    Location,
    ParseError,
    PositionEntry,
    ProfileDocument,
    SkillEntry,
)
from ingestion.parsers.decoding import normalise_text
from ingestion.parsers.locations import location_from_text
from ingestion.parsers.progai.contributions import RawContribution, parse_contribution, repository_words, stats_line
from ingestion.parsers.progai.education import parse_education
from ingestion.parsers.progai.head import looks_like_location, split_badges, split_headline
from ingestion.parsers.progai.languages import parse_spoken_language_entries, parse_spoken_languages
from ingestion.parsers.progai.layout import (
    CONTRIB_SUMMARY_RE,
    SUMMARY_HEADER_RE,
    YEARS_CODING_RE,
    YEARS_EMPLOYED_RE,
    Warnings,
    drop_advertisement,
    is_emoji_only,
    is_repository,
    is_structural,
    match_date_range,
    match_section,
    plausible_name,
    shortened,
    years_in,
)
from ingestion.parsers.progai.skills import natural_label, split_score
from ingestion.parsers.progai.words import COMMON_LABELS, DIGIT_LABELS

NOT_A_PROFILE = "This is not a profile: no name on the first line."


def _split_sections(lines: list[str], warnings: Warnings):
    """Split the lines after the summary into the profile facts and the three counted sections."""
    head: list[str] = []
    sections: dict[str, list[str]] = {"skills": [], "languages": [], "contributions": []}
    declared: dict[str, int | None] = {"skills": None, "languages": None, "contributions": None}
    current: str | None = None
    for idx, line in enumerate(lines):
        section = match_section(line)
        if section:
            kind, count, rest = section
            if declared[kind] is not None and count is not None:
                warnings.add(f"The '{line}' heading appears twice; the second count is used.")
            if count is not None or declared[kind] is None:
                declared[kind] = count
            current = kind
            if rest:
                sections[kind].append(rest)
            continue
        if current in ("skills", "languages") and is_repository(line):
            nxt = lines[idx + 1] if idx + 1 < len(lines) else ""
            if match_date_range(nxt):
                warnings.add("The 'Github contributions' heading is missing; contributions were read anyway.")
                current = "contributions"
        if current is None:
            head.append(line)
        else:
            sections[current].append(line)
    return head, sections, declared


def _group_contributions(lines: list[str], warnings: Warnings) -> list[RawContribution]:
    entries: list[RawContribution] = []
    current: RawContribution | None = None
    for idx, line in enumerate(lines):
        if is_repository(line):
            nxt = lines[idx + 1] if idx + 1 < len(lines) else ""
            if current is None or current.complete or match_date_range(nxt):
                current = RawContribution(repository=line)
                entries.append(current)
                continue
        if current is None:
            warnings.add(f"Line '{shortened(line)}' before the first repository was ignored.")
            continue
        current.lines.append(line)
        if ":" in line and (stats_line(line) is not None or CONTRIB_SUMMARY_RE.match(line)):
            current.complete = True
    return entries


def _parse_score_lines(lines: list[str], what: str, known: Callable[[str], bool], warnings: Warnings):
    entries: list[SkillEntry] = []
    for line in lines:
        if len(line) > MAX_LABEL_CHARS:
            warnings.add(f"{what} line '{shortened(line, 40)}' is longer than {MAX_LABEL_CHARS:,} characters; skipped.")
            continue
        if match_date_range(line):
            warnings.add(f"{what} line '{shortened(line)}' looks like a date; skipped.")
            continue
        result = split_score(line, known)
        if isinstance(result, str):
            warnings.add(result if what == "Skill" else result.replace("Skill line", f"{what} line", 1))
            continue
        label, score = result
        entries.append(SkillEntry(label=clean_text(label), score=score))
    return entries


def _read_head(lines: list[str], doc: ProfileDocument, warnings: Warnings) -> list[str]:
    """Read the headline and location (the lines between the name and "Summary") into ``doc``; return the summary
    section's lines. The lines read are removed from ``lines``."""
    i = 0
    pre: list[str] = []
    while i < len(lines) and len(pre) < 2:
        line = lines[i]
        if is_structural(line) or is_emoji_only(line) or len(line) > 150:
            break
        pre.append(line)
        i += 1
    if len(pre) == 1 and looks_like_location(pre[0]):
        doc.location = location_from_text(pre[0])
    elif pre:
        doc.headline = clean_text(pre[0])
        doc.title, doc.company = split_headline(doc.headline)
        if doc.company:  # the headline's job is the current one; the export gives it no dates
            doc.positions = [PositionEntry(company=doc.company, title=doc.title, is_current=True)]
        if len(pre) == 2:
            doc.location = location_from_text(pre[1])
    if i < len(lines) and SUMMARY_HEADER_RE.match(lines[i]):
        i += 1
    elif i < len(lines) and not is_structural(lines[i]):
        warnings.add("The 'Summary' heading is missing.")
    summary_lines: list[str] = []
    while i < len(lines):
        line = lines[i]
        if is_structural(line) or parse_education(line) is not None or parse_spoken_languages(line) is not None:
            break
        summary_lines.append(line)
        i += 1
    del lines[:i]
    return summary_lines


def parse_progai(text: str, *, vocabulary: frozenset[str] = frozenset()) -> ProfileDocument:
    """Parse the text of a Prog.AI profile export. Raises ParseError when there is no usable profile.

    ``vocabulary`` holds known skill/topic label keys (see ingestion.vocabulary); it helps split scores from labels
    that end in digits and split glued topic lines.
    """
    if not isinstance(text, str):
        raise ParseError("The file could not be read as text.")
    text = drop_advertisement(normalise_text(text))
    lines = [line.strip() for line in text.split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        raise ParseError("The file is empty.")
    name = clean_text(lines[0])
    if not plausible_name(name):
        raise ParseError(NOT_A_PROFILE)
    warnings = Warnings()
    doc = ProfileDocument(format="progai", name=name)
    rest = lines[1:]

    summary_lines = _read_head(rest, doc, warnings)
    if summary_lines:
        doc.badges, summary = split_badges("\n".join(summary_lines), name, warnings)
        doc.summary = summary.strip()

    head, sections, declared = _split_sections(rest, warnings)
    for line in head:
        years = years_in(YEARS_CODING_RE, line)
        if years is not None:
            doc.years_coding = years
            continue
        years = years_in(YEARS_EMPLOYED_RE, line)
        if years is not None:
            doc.years_employed = years
            continue
        if SUMMARY_HEADER_RE.match(line):
            continue
        education = parse_education(line)
        if education is not None:
            doc.education.extend(education)
            continue
        languages = parse_spoken_language_entries(line)
        if languages is not None:
            doc.languages.extend(languages)
            continue
        warnings.add(f"Line '{shortened(line)}' not understood; ignored.")

    # Known labels: the caller's vocabulary, built-in labels, and this file's own labels that split unambiguously.
    own_labels = {
        label_key(natural)
        for line in sections["skills"] + sections["languages"]
        if (natural := natural_label(line)) is not None
    }
    local_keys = DIGIT_LABELS | COMMON_LABELS | own_labels

    def known(label: str) -> bool:
        key = label_key(label)
        return key in vocabulary or key in local_keys

    doc.skills_declared = declared["skills"]
    doc.skills = _parse_score_lines(sections["skills"], "Skill", known, warnings)
    doc.programming_languages_declared = declared["languages"]
    doc.programming_languages = _parse_score_lines(sections["languages"], "Programming language", known, warnings)
    doc.contributions_declared = declared["contributions"]

    raw_contributions = _group_contributions(sections["contributions"], warnings)
    parsed = [parse_contribution(raw, warnings) for raw in raw_contributions]
    own_words = frozenset(
        {label_key(s.label) for s in doc.skills + doc.programming_languages}
        | repository_words(p["repository"] for p in parsed)
    )
    for fields in parsed:
        raw = fields["topics_raw"]
        fields["topics"] = split_topics(raw, vocabulary, own_words) if raw else []
        doc.contributions.append(ContributionEntry(**fields))

    for what, declared_count, listed in (
        ("skills", doc.skills_declared, len(doc.skills)),
        ("programming languages", doc.programming_languages_declared, len(doc.programming_languages)),
        ("contributions", doc.contributions_declared, len(doc.contributions)),
    ):
        if declared_count is not None and listed > declared_count:
            warnings.add(f"The file lists {listed} {what} but its heading says {declared_count}.")
    if doc.location == Location() and not doc.headline and not doc.summary and not rest:
        warnings.add("Only a name was found; the rest of the profile is missing.")
    first_of_each: dict[str, LanguageEntry] = {}
    for entry in doc.languages:
        first_of_each.setdefault(entry.code or entry.name.casefold(), entry)
    doc.languages = list(first_of_each.values())
    doc.spoken_languages = list(dict.fromkeys(entry.name for entry in doc.languages))
    doc.warnings = list(warnings)
    return doc
