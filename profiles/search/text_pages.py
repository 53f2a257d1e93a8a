"""The candidate list ordered by ``q``'s relevance: the page's ids from the search backend in use (``search_text``:
BM25 in the ranking index when it serves, ``ts_rank`` in SQL otherwise), the rows from PostgreSQL with the columns a
list row shows, in the backend's order. PostgreSQL stays the truth: an id whose row is gone is dropped."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from profiles.models import Candidate
from profiles.search.backends import search_backend
from profiles.search.backends.base import Page, TextRequest
from profiles.search.terms import PASSTHROUGH_PARAMS
from profiles.selectors import candidates_for_listing

RELEVANCE_ORDERING = "-rank"
# With either, rows show ``match`` and the list orders by it unless told otherwise: SQL's work, not a text search's.
MATCH_PARAMS = ("skill", "any_skill")
NOT_FILTERS = frozenset({"q", "ordering"}) | PASSTHROUGH_PARAMS


class UnreadableKey(Exception):
    """The backend in use cannot place the page's ``after`` key (a key no backend gave out, or another's)."""


@dataclass(frozen=True, slots=True)
class TextPage:
    """The rows of a page (each with ``rank``, the relevance the backend ordered it by), the key of the page's last hit
    (the next page's ``after``; a row dropped since the backend read it still holds its place), whether a row
    follows, and the backend that answered."""

    rows: list[Candidate]
    last_key: tuple | None
    has_more: bool
    backend: str


def _values(params: Mapping, name: str) -> list[str]:
    """Every value of ``name`` in ``params`` (a QueryDict, or a mapping of a value or a list of them), as text."""
    getlist = getattr(params, "getlist", None)
    values = getlist(name) if getlist is not None else params.get(name, [])
    return [str(value) for value in (values if isinstance(values, list | tuple) else [values])]


def _given(params: Mapping, name: str) -> list[str]:
    return [value for value in _values(params, name) if value.strip()]  # the filters skip a blank value


def text_relevance_orders(params: Mapping) -> bool:
    """Whether the candidate list orders ``params`` (query-string form) by ``q``'s relevance: one ``q`` with words,
    the ordering absent or ``-rank``, and no ``skill`` / ``any_skill`` asking for ``match`` (the default order then).
    Parameters the filters refuse (two ``q``s) are left to the list's filters, which say why."""
    if len(_values(params, "q")) != 1 or not _given(params, "q"):
        return False
    if any(_given(params, name) for name in MATCH_PARAMS):
        return False
    return _given(params, "ordering") in ([], [RELEVANCE_ORDERING]) and len(_values(params, "ordering")) <= 1


def text_filters(params: Mapping) -> dict[str, list[str]]:
    """The candidate filters of ``params``: every parameter but ``q``, the ordering and the paging ones."""
    return {name: _values(params, name) for name in params if name not in NOT_FILTERS}


def text_page(*, params: Mapping, page: Page, user=None) -> TextPage:
    """``page`` of the candidates ``params`` find (``q`` and the candidate filters), most relevant first. A refused
    filter is the filters' ``ValidationError``; ``UnreadableKey`` when the backend cannot read ``page.after``.

    ``rank`` is the backend's relevance, the last but one item of its key (ts_rank in double precision for SQL, the
    BM25 score for the index): the value the order was cut by, so rows show it decreasing."""
    [query] = _given(params, "q")
    listed = candidates_for_listing()
    request = TextRequest(query=query, filters=text_filters(params), page=page, user=user, rows=listed)
    try:
        hits = search_backend().search_text(request)
    except (ValueError, TypeError) as exc:
        if page.after is None:
            raise
        raise UnreadableKey(str(exc)) from exc
    found = hits.rows if hits.rows is not None else listed.in_bulk(hits.ids)
    rows = []
    for pk, key in zip(hits.ids, hits.keys, strict=True):
        if (candidate := found.get(pk)) is not None:
            candidate.rank = float(key[-2])
            rows.append(candidate)
    last_key = tuple(hits.keys[-1]) if hits.keys else None
    return TextPage(rows=rows, last_key=last_key, has_more=hits.has_more, backend=hits.backend)
