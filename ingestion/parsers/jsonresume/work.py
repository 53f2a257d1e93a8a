"""``work[]``: the positions, the current one, the title a label gives, the years employed."""

from __future__ import annotations

from datetime import date

from core.dates import parse_month
from core.text import clean_paragraphs, clean_text
from ingestion.documents import (
    PositionEntry,
)
from ingestion.parsers.jsonresume.values import CURRENT_WORDS, first_text, strings_in


def job_is_current(job: dict) -> bool:
    end = job.get("endDate")
    return end is None or (isinstance(end, str) and clean_text(end).lower() in CURRENT_WORDS)


def position_entries(work: list, today: date, warnings: list[str]) -> list[PositionEntry]:
    """Every ``work[]`` entry that names something, in the file's order. A job is current while it has no end
    (absent, empty, "Present") and has started; inverted and future dates are kept as written, with a warning (the
    normaliser then stores an inverted range the other way round, as the warning says)."""
    this_month = f"{today.year:04d}-{today.month:02d}"
    out: list[PositionEntry] = []
    for order, job in enumerate(work if isinstance(work, list) else []):
        if not isinstance(job, dict):
            continue
        company, title, summary = first_text(job, "name", "company"), first_text(job, "position"), job.get("summary")
        summary = clean_paragraphs(summary) if isinstance(summary, str) else ""
        highlights = strings_in(job.get("highlights"))
        if not (company or title or summary or highlights):
            continue
        start, end = parse_month(job.get("startDate")), parse_month(job.get("endDate"))
        position = PositionEntry(
            company=company,
            title=title,
            location=first_text(job, "location"),
            start=start,
            end=end,
            is_current=job_is_current(job) and (start is None or start <= this_month),
            summary=summary,
            highlights=highlights,
            url=first_text(job, "url", "website"),
            order=order,
        )
        named = " at ".join(part for part in (position.title, position.company) if part)
        where = f"work[{order}] ({named})" if named else f"work[{order}]"
        if position.start and position.end and position.end < position.start:
            warnings.append(
                f"{where}: starts ({position.start}) after it ends ({position.end}); stored the other way round."
            )
        for what, month in (("start", position.start), ("end", position.end)):
            if month and month > this_month:
                warnings.append(f"{where}: the {what} date {month} is in the future; kept.")
        out.append(position)
    return out


def current_position(positions: list[PositionEntry]) -> PositionEntry | None:
    """The current job: of the open-ended ones, the latest started (the first listed among equals, and a dated one
    before one without a start). An ended job is never current."""
    current = [p for p in positions if p.is_current]
    return max(current, key=lambda p: p.start or "", default=None)


def title_from_label(label: str, positions: list[PositionEntry]) -> str:
    """``basics.label`` without a trailing "at Company" / "@ Company" naming one of the jobs: the title alone."""
    companies = {p.company.casefold() for p in positions if p.company}
    for sep in (" at ", " @ "):
        head, found, company = label.rpartition(sep)
        if found and head.strip() and company.strip().casefold() in companies:
            return head.strip()
    return label
