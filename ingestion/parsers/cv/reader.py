"""The CV reader: a CV's text in, a ProfileDocument out (pure: no database, no network, no clock).

The text comes from a PDF, a DOCX, a plain-text or a Markdown file (``ingestion.parsers.cv.files``). Its sections are
found by their headings (``sections``); a CV without headings is read by its layout: each date range is an entry,
a school's or a degree's an education, any other a position. What each section yields is in its module: the header
(``contacts``), positions and education (``entries``), spoken languages (``spoken``), skills and their scores
(``skills``).
"""

from __future__ import annotations

import datetime as dt

from core.text import clean_paragraphs
from ingestion.documents import ParseError, PositionEntry, ProfileDocument
from ingestion.parsers.cv import sections as kinds
from ingestion.parsers.cv.contacts import header_of, identifiers_of
from ingestion.parsers.cv.dates import as_year, find_range
from ingestion.parsers.cv.entries import education_of, entries_of, heading_start, is_job_title, positions_of
from ingestion.parsers.cv.sections import Sections, cv_lines, heading_kind, is_bullet, plain, sections_of
from ingestion.parsers.cv.skills import cv_skills, listed_labels
from ingestion.parsers.cv.spoken import spoken_languages_of
from ingestion.parsers.years import years_coding, years_employed

__all__ = ["NOT_A_CV_MESSAGE", "looks_like_cv", "parse_cv"]

NOT_A_CV_MESSAGE = (
    "This file does not read as a CV: no name with sections such as Experience, Education or Skills, and no dated "
    "positions, were found in its text. TalentDB imports CVs (PDF, DOCX, text), Prog.AI profile exports and JSON "
    "Resume files."
)
NO_POSITIONS_WARNING = "No positions with dates were found in this CV: check its Experience section."
_CV_SECTIONS = (kinds.EXPERIENCE, kinds.EDUCATION, kinds.SKILLS, kinds.LANGUAGES, kinds.PROJECTS)
_MAX_SUMMARY_LINES = 40


def looks_like_cv(text: str) -> bool:
    """Whether a text file that is neither a Prog.AI export nor a JSON Resume is a CV: two of the CV's section
    headings, or an experience or education heading and a date range (a letter or a note that mentions a CV has
    neither)."""
    lines = cv_lines(text)
    found = {kind for line in lines if (kind := heading_kind(line)) in _CV_SECTIONS}
    if len(found) >= 2:
        return True
    return bool(found & {kinds.EXPERIENCE, kinds.EDUCATION}) and any(find_range(line) for line in lines)


def parse_cv(text: str, *, vocabulary: frozenset[str] = frozenset(), today: dt.date | None = None) -> ProfileDocument:
    """The CV's document; ParseError when the text holds no CV (a name and its sections, or dated positions).

    ``today`` (the day of the import: the registry gives it) ends the current positions, for the years of experience
    (``years``; without it the document states none) and the recency of the skills (``skills``)."""
    lines = cv_lines(text)
    sections = sections_of(lines)
    by_layout = False
    if not any(sections.of(kind) for kind in (kinds.EXPERIENCE, kinds.EDUCATION)):
        laid_out = _sections_by_layout(sections)
        by_layout, sections = laid_out is not sections, laid_out
    header_lines = [plain(line) for line in sections.header]
    contact_lines = [plain(line) for line in sections.of(kinds.CONTACT)]
    header = header_of(header_lines, text, contact_lines)
    positions = positions_of(sections.of(kinds.EXPERIENCE))
    education = education_of(sections.of(kinds.EDUCATION))
    listed = listed_labels(sections.of(kinds.SKILLS))
    if not header.name or not (positions or education or listed) or (by_layout and not _enough_by_layout(positions)):
        raise ParseError(NOT_A_CV_MESSAGE)
    languages = spoken_languages_of(sections.of(kinds.LANGUAGES))
    identifiers, site = identifiers_of("\n".join([*header_lines, *contact_lines]), header.email)
    current = next((p for p in positions if p.is_current), positions[0] if positions else None)
    return ProfileDocument(
        format="cv",
        name=header.name,
        headline=header.headline or (current.title if current else ""),
        title=current.title if current else "",
        company=current.company if current else "",
        location=header.location,
        summary=_summary(sections.of(kinds.SUMMARY)),
        years_employed=years_employed(positions, today) if today else None,
        years_coding=years_coding(positions, today) if today else None,
        education=education,
        positions=positions,
        spoken_languages=[language.name for language in languages],
        languages=languages,
        skills=cv_skills(listed, positions, vocabulary, today=today),
        email=header.email,
        phone=header.phone,
        website=site,
        identifiers=identifiers,
        warnings=[*header.warnings, *_warnings(positions)],
    )


def _summary(lines: list[str]) -> str:
    """The summary section as paragraphs: the lines of a paragraph joined into one (a PDF or a text file wraps them
    where its column ends, not where a sentence does), a blank line between paragraphs, each bullet item on a line of
    its own (the lines that wrap it joined to it). A summary of bullet items alone (a Markdown CV that bullets every
    line) is its items, one a line, without the bullets."""
    all_bullets = all(is_bullet(line) for line in lines if line)
    if all_bullets:
        lines = [plain(line) for line in lines]
    paragraphs: list[list[str]] = [[]]
    kept = 0
    for line in lines:
        if not line:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        kept += 1
        if kept > _MAX_SUMMARY_LINES:
            break
        if paragraphs[-1] and not is_bullet(line) and not all_bullets:
            paragraphs[-1][-1] = f"{paragraphs[-1][-1]} {line}"
        else:
            paragraphs[-1].append(line)
    return clean_paragraphs("\n\n".join("\n".join(paragraph) for paragraph in paragraphs if paragraph))


def _sections_by_layout(sections: Sections) -> Sections:
    """A CV without the usual headings: the header ends where the first dated entry's heading starts; the entries
    are education when they name a school or a degree, positions otherwise. ``sections`` itself when its header holds
    no date range."""
    lines = sections.header
    first = next((index for index, line in enumerate(lines) if find_range(line)), None)
    if first is None:
        return sections
    header_end = heading_start(lines, first, floor=1)
    body = lines[header_end:]
    education_lines: list[str] = []
    experience_lines: list[str] = []
    for entry in entries_of(body):
        block = [*entry.heading, *([_range_text(entry)] if entry.dates else []), *entry.body, ""]
        (education_lines if education_of(block) else experience_lines).extend(block)
    bodies = dict(sections.bodies)
    bodies[kinds.EXPERIENCE] = experience_lines
    bodies[kinds.EDUCATION] = education_lines
    return Sections(header=lines[:header_end], bodies=bodies)


def _range_text(entry) -> str:
    dates = entry.dates
    start = as_year(dates.start, dates.start_is_year) or ""
    end = "present" if dates.is_current else as_year(dates.end, dates.end_is_year) or ""
    return f"{start} – {end}"


def _enough_by_layout(positions: list[PositionEntry]) -> bool:
    """Without headings, dated lines are a career only when there are two, or one with a job title: an invoice's
    billing period is neither."""
    return len(positions) >= 2 or any(is_job_title(p.title) for p in positions)


def _warnings(positions: list[PositionEntry]) -> list[str]:
    if not positions:
        return [NO_POSITIONS_WARNING]
    return [
        f"Position {p.order + 1} ({p.title}): starts ({p.start}) after it ends ({p.end}); stored the other way round."
        for p in positions
        if p.start and p.end and p.start > p.end
    ]
