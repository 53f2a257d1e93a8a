"""GitHub contributions: a repository with its role, counts, dates and glued topics."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from core.dates import months_from_duration, parse_month
from core.text import clean_text
from ingestion.parsers.progai.layout import (
    CONTRIB_SUMMARY_RE,
    Warnings,
    cached_for_short_lines,
    count_of,
    match_date_range,
    shortened,
)

_ROLE_RE = re.compile(r"^role\s+in\s+this\s+project\s*:\s*(.*)$", re.IGNORECASE)
_STATS_RE = re.compile(r"^(.*?)contributions\s*:\s*(.*)$", re.IGNORECASE)
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{1,9})"
_COMMITS_RE = re.compile(_NUMBER + r"\s*commits?\b", re.IGNORECASE)
_COMMENTS_RE = re.compile(_NUMBER + r"\s*comments?\b", re.IGNORECASE)
_DURATION_RE = re.compile(r"\bin\s+(.+)$", re.IGNORECASE)
_TOPICS_RE = re.compile(r"^[a-z0-9][a-z0-9+#.-]{0,1999}$")


@dataclass
class RawContribution:
    repository: str
    lines: list[str] = field(default_factory=list)
    complete: bool = False  # the "Contributions:" line or later parts were seen


_STATS_WORD_RE = re.compile(r"commit|comment|^in\s", re.IGNORECASE)


def _parse_stats(rest: str) -> tuple[int, int, int | None] | None:
    rest = rest.strip()
    if rest and not _STATS_WORD_RE.search(rest):
        return None
    commits = _COMMITS_RE.search(rest)
    comments = _COMMENTS_RE.search(rest)
    duration = _DURATION_RE.search(rest)
    return (
        (count_of(commits.group(1)) or 0) if commits else 0,
        (count_of(comments.group(1)) or 0) if comments else 0,
        months_from_duration(duration.group(1)) if duration else None,
    )


def stats_line(line: str) -> tuple[str, tuple[int, int, int | None]] | None:
    if ":" not in line:  # _STATS_RE needs one: most lines are out at once
        return None
    return _stats_line_with_colon(line)


@cached_for_short_lines
def _stats_line_with_colon(line: str) -> tuple[str, tuple[int, int, int | None]] | None:
    if CONTRIB_SUMMARY_RE.match(line):
        return None
    m = _STATS_RE.match(line)
    if not m:
        return None
    stats = _parse_stats(m.group(2))
    if stats is None:
        return None
    return clean_text(m.group(1)), stats


def parse_contribution(raw: RawContribution, warnings: Warnings) -> dict:
    """Fields of one contribution except the topics (those need the whole document's vocabulary)."""
    fields: dict = {"repository": raw.repository}
    description: list[str] = []
    summary: list[str] = []
    role_line = ""
    role_glued = ""
    role_pending = False
    phase = "head"  # head -> role -> stats -> summary
    topics_raw = ""
    saw_dates = False
    saw_stats = False
    for i, line in enumerate(raw.lines):
        if i == 0:
            m = match_date_range(line)
            if m:
                saw_dates = True
                fields["start"] = parse_month(m.group("start"))
                end_text = m.group("end")
                if end_text is None:
                    fields["end"] = fields["start"]
                elif end_text.lower() in ("present", "now", "current", "ongoing", "today"):
                    fields["end"] = None
                    fields["is_current"] = True
                else:
                    fields["end"] = parse_month(end_text)
                continue
        has_colon = ":" in line  # the role, stats and summary labels all end in one
        m = _ROLE_RE.match(line) if has_colon else None
        if m:
            role_line = clean_text(m.group(1))
            role_pending = not role_line
            phase = "role"
            continue
        stats = stats_line(line)
        if stats is not None:
            role_glued = stats[0]
            fields["commits"], fields["comments"], fields["active_months"] = stats[1]
            saw_stats = True
            role_pending = False
            phase = "stats"
            continue
        m = CONTRIB_SUMMARY_RE.match(line) if has_colon else None
        if m:
            if m.group(1).strip():
                summary.append(m.group(1).strip())
            role_pending = False
            phase = "summary"
            continue
        if role_pending:
            role_line = clean_text(line)
            role_pending = False
            continue
        if phase == "head":
            description.append(clean_text(line))
        elif phase in ("stats", "summary") and not topics_raw and _TOPICS_RE.match(line):
            topics_raw = line.strip()
        elif phase == "summary" and not topics_raw:
            summary.append(line.strip())
        else:
            warnings.add(f"Contribution {raw.repository}: line '{shortened(line)}' not understood; ignored.")
    if not role_line and role_glued and description and description[-1] == role_glued:
        description.pop()  # a role written on its own line without the "Role in this project:" label
    fields["repository_description"] = " ".join(d for d in description if d)
    fields["role"] = role_line or role_glued
    fields["summary"] = clean_text(" ".join(summary))
    fields["topics_raw"] = topics_raw
    if not saw_dates:
        warnings.add(f"Contribution {raw.repository}: no date range found.")
    if not saw_stats:
        warnings.add(f"Contribution {raw.repository}: no 'Contributions:' line (commits) found; the file may be cut.")
    return fields


_REPOSITORY_WORD_SEPARATORS_RE = re.compile(r"[-_.]+")


def repository_words(repositories: Iterable[str]) -> set[str]:
    words: set[str] = set()
    for repo in repositories:
        for part in repo.lower().split("/"):
            if part:
                words.add(part)
                words.update(w for w in _REPOSITORY_WORD_SEPARATORS_RE.split(part) if w)
    return words
