"""The active filters of the candidate changelist as chips above the results, each removable on its own.

Every parameter of the shared filters is a chip, whether the sidebar set it or it only came in the address (a saved
search, a link, the API's parameters typed by hand): a page never says "0 candidates" with its filters out of sight.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import QueryDict

from profiles.admin.sidebar import SHARED_PARAMS, country_label

# What each parameter reads as on a chip: (label, how a value is written). Unnamed parameters read as their name.
LABELS = {
    "q": "search",
    "skill": "skill",
    "any_skill": "any of",
    "exclude_skill": "without",
    "country": "country",
    "location": "location",
    "company": "company",
    "current_company": "current company",
    "title": "title",
    "degree": "degree",
    "school": "school",
    "badge": "badge",
    "language": "speaks",
    "repository": "repository",
    "topic": "topic",
    "min_years_coding": "years coding at least",
    "max_years_coding": "years coding at most",
    "min_years_employed": "years employed at least",
    "min_commits": "commits at least",
    "updated_since": "updated since",
    "ordering": "order",
}
# Not filters: how the page is shown.
NOT_CHIPS = frozenset({"ordering"})


@dataclass(frozen=True)
class Chip:
    name: str
    label: str
    value: str
    remove_url: str


def skill_text(term: str) -> str:
    """``python:8`` as "python ≥ 8"; a comma list (any_skill) term by term."""
    parts = []
    for one in term.split(","):
        label, sep, score = one.strip().rpartition(":")
        parts.append(f"{label} ≥ {score}" if sep and score.isdigit() else one.strip())
    return ", ".join(parts)


def value_text(name: str, value: str) -> str:
    if name in ("skill", "any_skill", "exclude_skill"):
        return skill_text(value)
    if name == "country":
        return country_label(value.strip().upper())
    if name == "q":
        return f"“{value}”"
    return value


def active_filter_chips(params: QueryDict, *, path: str = "") -> list[Chip]:
    """One chip per value of each shared filter parameter in ``params``, in the order of the address; its link is
    the same address without that one value (and back on the first page)."""
    chips = []
    for name, values in params.lists():
        if name not in SHARED_PARAMS or name in NOT_CHIPS:
            continue
        for index, value in enumerate(values):
            if not value.strip():
                continue
            rest = params.copy()
            rest.setlist(name, [v for i, v in enumerate(values) if i != index])
            rest.pop("p", None)
            query = rest.urlencode()
            chips.append(
                Chip(
                    name=name,
                    label=LABELS.get(name, name.replace("_", " ")),
                    value=value_text(name, value),
                    remove_url=f"{path}?{query}" if query else path or "?",
                )
            )
    return chips
