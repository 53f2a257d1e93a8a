"""CSV exports of candidates and shortlists, safe to open in a spreadsheet.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-``, ``@``, tab or carriage return as a formula (CSV
injection, OWASP): every cell goes through ``neutralise``, which prefixes such a cell with ``'``. Look-alikes count
too: spreadsheets may fold a fullwidth ``＝`` (U+FF1D) or a small ``﹦`` (U+FE66) into ``=`` and ignore a zero-width
space before it, so the start is read after NFKC normalisation with format characters (category Cf) left out. Rows
are generators of CSV lines, for a ``StreamingHttpResponse``: memory stays flat however many rows there are.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from django.db.models import QuerySet

from profiles.candidate_fields import CONTACT_FIELDS, CSV_COLUMNS
from profiles.contacts import candidates_with_identifiers, contact_urls
from profiles.models import Candidate, CandidateSkill, Position, ShortlistEntry
from profiles.selectors import candidates_with_companies, candidates_with_skills

CHUNK_SIZE = 1000
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")

SHORTLIST_COLUMNS = [
    "shortlist",
    "status",
    "notes",
    "added_at",
    "candidate_id",
    "name",
    "title",
    "company",
    "city",
    "country_code",
    "email",
    "phone",
    "skills",
    "url",
]


def starts_like_a_formula(text: str) -> bool:
    """Whether the text starts with a formula prefix, once format characters (zero-width spaces and joiners, the
    BOM: category Cf) are left out and NFKC has folded compatibility characters (``＝``, ``﹦``, ``＋``) into ASCII."""
    if text.startswith(FORMULA_PREFIXES):
        return True
    if not text or text[0].isascii():
        return False  # ASCII is its own NFKC form and holds no format character: the check above was the whole check
    start = next((i for i, char in enumerate(text) if unicodedata.category(char) != "Cf"), len(text))
    # A few characters are enough: NFKC of the first one may compose with the marks that follow it.
    return unicodedata.normalize("NFKC", text[start : start + 8]).startswith(FORMULA_PREFIXES)


def neutralise(value) -> str:
    """The cell as text, with a leading ``'`` when a spreadsheet would otherwise read it as a formula; the text is
    otherwise exported as it is."""
    text = "" if value is None else str(value)
    return f"'{text}" if starts_like_a_formula(text) else text


class _Echo:
    """A file-like object whose write returns the line, so csv.writer can feed a streaming response."""

    def write(self, value: str) -> str:
        return value


def csv_lines(header: list[str], rows: Iterable[Iterable]) -> Iterator[str]:
    """CSV lines of the header and every row, each cell neutralised."""
    writer = csv.writer(_Echo())
    yield writer.writerow([neutralise(cell) for cell in header])
    for row in rows:
        yield writer.writerow([neutralise(cell) for cell in row])


def _skills(skill_rows: Iterable[CandidateSkill], section: str | None = None) -> str:
    return "; ".join(f"{row.skill.slug}:{row.score}" for row in skill_rows if section is None or row.section == section)


def _companies(jobs: Iterable[Position]) -> tuple[str, str]:
    """The current and the previous companies of jobs listed newest first, each once (in any case: the ``company``
    filter's rule) and as first written; a company the person works at now is not also a previous one."""
    current: dict[str, str] = {}
    previous: dict[str, str] = {}
    for job in jobs:
        key = job.company.strip().casefold()
        if key:
            (current if job.is_current else previous).setdefault(key, job.company.strip())
    return "; ".join(current.values()), "; ".join(name for key, name in previous.items() if key not in current)


def candidate_csv_lines(
    queryset: QuerySet[Candidate], *, url: Callable[[Candidate], str], contacts: bool = False
) -> Iterator[str]:
    """One line per candidate of ``queryset`` (skills and jobs' companies prefetched per chunk); ``url`` links each
    row back. With ``contacts`` (the reader may see them: ``profiles.contacts``), the e-mail, phone and links columns
    too."""
    queryset = candidates_with_companies(candidates_with_skills(queryset))
    if contacts:
        queryset = candidates_with_identifiers(queryset)
    columns = [*CSV_COLUMNS, *(CONTACT_FIELDS if contacts else [])]

    def rows() -> Iterator[list]:
        for candidate in queryset.iterator(chunk_size=CHUNK_SIZE):
            current_companies, previous_companies = _companies(candidate.company_rows)
            cells = {
                "id": candidate.pk,
                "name": candidate.name,
                "headline": candidate.headline,
                "title": candidate.title,
                "company": candidate.company,
                "current_companies": current_companies,
                "previous_companies": previous_companies,
                "city": candidate.city,
                "region": candidate.region,
                "country": candidate.country,
                "country_code": candidate.country_code,
                "years_coding": candidate.years_coding,
                "years_employed": candidate.years_employed,
                "badges": "; ".join(candidate.badges),
                "spoken_languages": "; ".join(candidate.spoken_languages),
                "skills": _skills(candidate.skill_rows, CandidateSkill.Section.SKILL),
                "programming_languages": _skills(candidate.skill_rows, CandidateSkill.Section.LANGUAGE),
                "match": getattr(candidate, "match", None),  # annotated when the search asked for skills
                "updated_at": candidate.updated_at.isoformat(),
                "url": url(candidate),
            }
            if contacts:
                cells.update(email=candidate.email, phone=candidate.phone, links="; ".join(contact_urls(candidate)))
            yield [cells[name] for name in columns]

    return csv_lines(columns, rows())


def shortlist_csv_lines(
    entries: QuerySet[ShortlistEntry], *, url: Callable[[Candidate], str], contacts: bool = False
) -> Iterator[str]:
    """One line per entry of a shortlist: its status and notes, and who the candidate is; the e-mail and phone columns
    only with ``contacts`` (the reader may see contact details: ``profiles.contacts``)."""
    columns = [c for c in SHORTLIST_COLUMNS if contacts or c not in CONTACT_FIELDS]

    def rows() -> Iterator[list]:
        for entry in entries:
            candidate = entry.candidate
            yield [
                entry.shortlist.name,
                entry.get_status_display(),
                entry.notes,
                entry.added_at.isoformat(),
                candidate.pk,
                candidate.name,
                candidate.title,
                candidate.company,
                candidate.city,
                candidate.country_code,
                *([candidate.email, candidate.phone] if contacts else []),
                _skills(candidate.top_skills),
                url(candidate),
            ]

    return csv_lines(columns, rows())
