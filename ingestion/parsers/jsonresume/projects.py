"""``projects[]`` and ``awards[]``: contributions with their commit and comment counts, awards."""

from __future__ import annotations

import re
from typing import Any

from core.dates import parse_month
from core.labels import label_key
from ingestion.documents import (
    AwardEntry,
    ContributionEntry,
)
from ingestion.parsers.jsonresume.people import GITHUB_NOT_OWNERS, GITHUB_REPO_RE
from ingestion.parsers.jsonresume.values import dicts_in, first_text, strings_in
from ingestion.parsers.jsonresume.work import job_is_current

# A project's activity as a Prog.AI export writes it, kept by a JSON Resume export in a highlight, the description or
# a keyword: "88 commits, 15 comments".
_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{1,9})"
_COMMITS_RE = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s*commits?\b", re.IGNORECASE)
_COMMENTS_RE = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s*comments?\b", re.IGNORECASE)
# A text that is only such counts. Possessive throughout: the separator's and the number's classes share the comma, and
# backtracking between them made "commits" followed by n commas quadratic.
_STATS_ONLY_RE = re.compile(
    r"^[\d,\s]*+(?:commits?|comments?)(?:[\s,;&]++(?:and\s+)?[\d,]++\s*+(?:commits?|comments?))*+\.?$",
    re.IGNORECASE,
)
MAX_COUNT = 10_000_000  # as the Prog.AI parser: a larger count is a misreading, not a number


def _count(project: dict, key: str, pattern: re.Pattern, texts: list[str]) -> int:
    """The project's ``key`` ("commits") as a number, or the first count of it its texts write; 0 when none does."""
    value = project.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    for text in texts:
        if m := pattern.search(text):
            count = int(m.group(1).replace(",", ""))
            return count if count <= MAX_COUNT else 0
    return 0


def contribution_entries(projects: Any) -> list[ContributionEntry]:
    out: list[ContributionEntry] = []
    for project in dicts_in(projects):
        url = first_text(project, "url", "website", "githubUrl", "repository")
        m = GITHUB_REPO_RE.search(url) if url else None
        if not m or m.group(1).lower() in GITHUB_NOT_OWNERS:
            continue
        name = m.group(2).removesuffix(".git")
        if not name.strip("."):
            continue
        start = parse_month(project.get("startDate"))
        end = parse_month(project.get("endDate"))
        highlights = strings_in(project.get("highlights"))
        keywords = strings_in(project.get("keywords"))
        texts = [*highlights, first_text(project, "description"), first_text(project, "summary"), *keywords]
        stats = {text for text in highlights + keywords if _STATS_ONLY_RE.match(text)}
        summary = first_text(project, "summary") or " ".join(text for text in highlights if text not in stats)
        topics = list(dict.fromkeys(label_key(keyword) for keyword in keywords if keyword not in stats))
        out.append(
            ContributionEntry(
                repository=f"{m.group(1)}/{name}",
                repository_description=first_text(project, "description"),
                start=start,
                end=end,
                role=", ".join(strings_in(project.get("roles"))),
                commits=_count(project, "commits", _COMMITS_RE, texts),
                comments=_count(project, "comments", _COMMENTS_RE, texts),
                summary=summary,
                topics=topics,
                is_current=start is not None and end is None and job_is_current(project),
            )
        )
    return out


def award_entries(raw: Any) -> list[AwardEntry]:
    """awards[]: each with a title (or a legacy "name"), its awarder, date and summary; one without a title is left
    out, one given twice is kept once."""
    out: list[AwardEntry] = []
    seen: set[AwardEntry] = set()
    for item in dicts_in(raw):
        title = first_text(item, "title", "name")
        if title:
            entry = AwardEntry(
                title=title,
                awarder=first_text(item, "awarder"),
                date=date_text if parse_month(date_text := first_text(item, "date")) else "",
                summary=first_text(item, "summary"),
            )
            if entry not in seen:
                seen.add(entry)
                out.append(entry)
    return out
