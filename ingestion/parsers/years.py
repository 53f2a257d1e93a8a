"""Years of experience read from dated positions, for the formats that state none (a CV, a JSON Resume): a job
asking for years ranks by them.

Years employed are the months the dated positions cover, overlaps counted once (``core.dates.months_worked``, both
months of a range counted), in whole years. Years coding are the same count over the software positions only: those
whose title names a software role in one of the six languages ("Developer", "Software Engineer", "Entwicklerin",
"Développeuse", "Sviluppatore", "DevOps", "SRE", "Data Scientist"...), or an engineer of no other field ("Engineer",
"Staff Engineer", but not "Civil Engineer" or "Sales Engineer"). A manager, a director or a head of anything counts
only when the title also names a software role ("Software Development Manager"); business development, sales,
property, landscape architecture and programme management never count ("Software Sales Manager"). A file with
dated positions and none of them a software one states no years coding (unknown, not zero: a title may not say what
the job was).

A current position runs to ``today``, which the caller gives: the parser reads no clock.
"""

from __future__ import annotations

import datetime as dt
import re

from core.dates import months_worked
from ingestion.documents import PositionEntry

__all__ = ["is_software_title", "years_coding", "years_employed"]

_SOFTWARE_ROLE_RE = re.compile(
    r"\bdevelop|\bprogramm(?:er|ing|eur)|\bsoftware|coder\b|devops|devsecops|\bsre\b|site reliability|"
    r"full[\s-]?stack|back[\s-]?end|front[\s-]?end|web\s?(?:engineer|dev)|\bmobile\b|android|\bios\b|data scien|"
    r"data engineer|machine learning|\bml\b|\bai\b|\bqa\b|test automation|tech(?:nical)? lead|\bcto\b|\barchitect|"
    r"informatiker|entwickler|programmierer|développeu|informaticien|desarrollador|programador|desenvolvedor|"
    r"sviluppat|programmat|informatico",
    re.IGNORECASE,
)
# Titles whose "develop", "program", "architect", "software" or "mobile" is no coding: business development, sales,
# property development, landscape architecture and programme management, in the six languages. They win over a
# software word ("Software Sales Manager", "Mobile Sales Representative", "Business Development Manager").
_NOT_CODING_RE = re.compile(
    r"business[\s-]?develop|\bsales\b|vertrieb|verkauf|\bventes?\b|\bventas?\b|\bvendas?\b|\bvendite\b|"
    r"commerciale?\b|comercial\b|\bnegoci|negócio|geschäftsentwickl|\bproperty\b|real estate|immobili|inmobiliari|"
    r"imobili|landscape|landschaft|paysag|paisaj|paisag|paesagg|"
    r"\bprogram(?:me)?\s+(?:manager|director|officer|coordinator|lead)|programmleiter|programmmanager|"
    r"(?:chef|directeur|directrice|responsable) de programme|(?:gerente|director|directora|jefe) de programa|"
    r"responsabile (?:di )?programma",
    re.IGNORECASE,
)
_ENGINEER_RE = re.compile(r"engineer|ingenieur|ingénieur|ingeniero|ingeniera|engenheir|ingegner", re.IGNORECASE)
# Fields of engineering that are not software, and roles that are not coding, where a title names no software role.
_OTHER_FIELD_RE = re.compile(
    r"civil|mechanic|electric|chemi|structural|process|sales|environment|biomedic|industrial|aerospace|nuclear|"
    r"manufactur|quality|field|sound|audio|maschinenbau|bau|mécani|civil|químic|meccanic|edil|"
    r"manager|director|head of|\bvp\b|vice president|leiter|directeur|directrice|director|gerente|jefe|responsabile",
    re.IGNORECASE,
)


def is_software_title(title: str) -> bool:
    """Whether a job title names a software role, or an engineer of no other field."""
    if _NOT_CODING_RE.search(title):
        return False
    if _SOFTWARE_ROLE_RE.search(title):
        return True
    return bool(_ENGINEER_RE.search(title)) and not _OTHER_FIELD_RE.search(title)


# A CV's year before this one is a slip or a placeholder ("1900 – 2099"), no one's career.
EARLIEST_YEAR = 1950


def _years(positions: list[PositionEntry], today: dt.date) -> int | None:
    """Whole years of the positions' months, each range counted up to ``today`` (an end in the future is not worked
    yet); a range that starts after ``today`` or names a year before ``EARLIEST_YEAR`` counts for nothing."""
    now = f"{today.year:04d}-{today.month:02d}"
    ranges = [
        (p.start, p.end)
        for p in positions
        if p.start
        and (p.end or p.is_current)
        and p.start <= now
        and all(int(month[:4]) >= EARLIEST_YEAR for month in (p.start, p.end) if month)
    ]
    if not ranges:
        return None
    return months_worked(ranges, today=now) // 12


def years_employed(positions: list[PositionEntry], today: dt.date) -> int | None:
    """Whole years of the months the dated positions cover; None when no position is dated."""
    return _years(positions, today)


def years_coding(positions: list[PositionEntry], today: dt.date) -> int | None:
    """``years_employed`` of the software positions; None when none of the dated positions is one."""
    return _years([p for p in positions if is_software_title(p.title)], today)
