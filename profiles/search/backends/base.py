"""The search backend: the one interface through which candidates are ranked for a request and found by text.

The rest of the code asks a backend for the ids of a page and reads the page's rows (match, matched and missing
skills, evidence) from PostgreSQL itself; it never builds an engine's query. PostgreSQL stays the truth: a backend may
answer from an index of its own, but an id it returns whose row is gone (an erasure, a merge) is dropped by the reader.

``profiles.search.backends.search_backend()`` gives the backend in use, chosen by the ``SEARCH_BACKEND`` setting (a
dotted path to a ``SearchBackend`` subclass; default ``profiles.search.backends.sql.SqlBackend``). A backend that
lives in a higher layer plugs in through that setting, so the domain never imports it.

Orders, which every backend keeps exactly:

- a ranking (``rank``): ``(misses_any, -match, id)``: whoever meets every required skill at its minimum first
  (``misses_any`` 0), then by ``match`` (0-100, highest first), then by candidate id (lowest first), a total order.
  The formula of ``match`` is the ranking signals' (``profiles.search.signals``); docs/jobs.md works an example;
- a text search (``search_text``): relevance, highest first, then candidate id, highest first (the candidate list's
  ``ordering=-rank``). Relevance is the backend's own measure; only its order is compared between backends.

Pages: a ``Page`` asks for ``limit`` rows, after skipping ``offset`` rows that follow ``after``. ``after`` is a key a
backend returned for the last row of the previous page (``RankedIds.keys[-1]``), or None from the start. A cursor
(the API's ``next`` link) is ``after`` with ``offset`` 0; a page number ``n`` is ``after=None, offset=(n - 1) * limit``.
A ranking's key is ``(misses_any, match, id)``, the same for every backend (the formula is exact); a text search's key
is opaque: pass it back to the backend that returned it.
"""

from __future__ import annotations

import datetime as dt
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # the ranking module reads the requests defined here
    from profiles.search.ranking import Resolved

__all__ = ["Page", "RankKey", "RankRequest", "RankedIds", "SearchBackend", "TextHits", "TextRequest"]

# A ranked row's place in the order: (misses_any 0 or 1, match 0-100, candidate id).
RankKey = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Page:
    """Which rows of an order a request wants (the module docstring says how cursors and page numbers map onto it).

    ``count``: also count every row of the order (``RankedIds.total``, ``TextHits.total``); off by default, as a count
    reads the whole pool where a page reads its top."""

    limit: int = 50
    offset: int = 0
    after: tuple | None = None
    count: bool = False

    def __post_init__(self) -> None:
        if self.limit < 1 or self.offset < 0:
            raise ValueError("a page has a limit of 1 or more and an offset of 0 or more")


@dataclass(frozen=True, slots=True)
class RankRequest:
    """What a backend ranks: criteria (a job's, or "more like this"'s), switches, candidate filters and a page.

    Skills are label keys (``core.labels.label_key`` form, "python", "spring-boot"), resolved by the backend as the
    filters resolve them (``profiles.search.skills.resolve_skills``); a label that names no skill matches nobody (a
    required one is missed by everyone, a preferred one held by no one). The fields, as the formula reads them:

    - ``required``: (skill, min_score 0-10) pairs; ``preferred``: skills; ``excluded``: skills whose holders are left
      out;
    - ``min_years_coding``: years asked (None: not asked); ``countries``: ISO 3166-1 alpha-2 codes; ``keywords``: words
      the search vector should match (each read by ``plainto_tsquery('english')``);
    - ``strict``: leave out whoever misses a required skill; ``widen``: related skills join the pool and stand in for
      the skills they go with; ``anywhere``: rank every country when ``countries`` are named (otherwise only those
      countries are ranked, unless ``filters`` hold a ``country``);
    - ``filters``: candidate filters in query-string form (the parameters of ``GET /api/v1/candidates/``) that narrow
      the pool. The ranking parameters (``skill``, ``any_skill``, ``q``, ``ordering``) and any value the filters
      refuse are a ``django.core.exceptions.ValidationError``, raised by ``rank``;
    - ``exclude_ids``: candidates left out whatever they score (the subject of "more like this");
    - ``today``: the date the evidence decays to (None: today, UTC);
    - ``user``: the reader, passed to the filters (where a per-user scope would apply); not part of the request's
      identity;
    - ``page``: the rows wanted;
    - ``rows``: the candidates' queryset with the columns the caller shows (it selects columns, never narrows the
      rows: ``filters`` do); a backend that reads the page's rows anyway (to drop those gone) may read them from it
      and hand them back (``RankedIds.rows``). Not part of the request's identity.
    """

    required: tuple[tuple[str, int], ...] = ()
    preferred: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    min_years_coding: int | None = None
    countries: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    strict: bool = False
    widen: bool = False
    anywhere: bool = False
    filters: Mapping[str, Any] | None = None
    exclude_ids: frozenset[int] = frozenset()
    today: dt.date | None = None
    page: Page = field(default_factory=Page)
    user: Any = field(default=None, compare=False, repr=False)
    rows: Any = field(default=None, compare=False, repr=False)

    @property
    def skills(self) -> tuple[str, ...]:
        """The required and preferred skills, required first, each as given."""
        return tuple(label for label, _ in self.required) + self.preferred

    @property
    def place_applies(self) -> bool:
        """Whether the pool is kept to ``countries``: some are named, ``anywhere`` is off, and no ``country`` filter
        names the place instead."""
        return bool(self.countries) and not self.anywhere and not (self.filters and self.filters.get("country"))


@dataclass(frozen=True, slots=True)
class RankedIds:
    """A backend's answer to ``rank``: the page's candidate ids in the ranking's order (at most ``page.limit``),
    each id's key in the same order (``keys[i]`` is ``(misses_any, match, ids[i])``; the next page's ``after`` is
    ``keys[-1]``), whether at least one row follows the page, the number of rows in the whole order when the page
    asked for a count (else None), and the name of the backend that answered (for logs and response headers).
    ``rows``: each id's row read from ``RankRequest.rows``, when the backend read them (else None: the caller reads
    them)."""

    ids: tuple[int, ...]
    keys: tuple[RankKey, ...]
    has_more: bool
    total: int | None = None
    backend: str = ""
    rows: Mapping[int, Any] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TextRequest:
    """A full-text search: ``query`` in the syntax of the candidate list's ``q`` (web-search style: words, "quoted
    phrases", ``-word``, ``or``), ``filters`` (other candidate filters in query-string form, no ``q`` or ``ordering``)
    narrowing the candidates, the reader ``user`` as for ``RankRequest``, and the rows wanted. ``rows``: the
    candidates' queryset with the columns the caller shows; a backend that reads the hits' rows anyway (to drop those
    gone) may read them from it and hand them back (``TextHits.rows``)."""

    query: str
    filters: Mapping[str, Any] | None = None
    page: Page = field(default_factory=Page)
    user: Any = field(default=None, compare=False, repr=False)
    rows: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TextHits:
    """A backend's answer to ``search_text``: the page's candidate ids, most relevant first (ties: highest id first),
    each id's opaque key in the same order (pass ``keys[-1]`` back as the next page's ``after``), whether a row follows
    the page, the number of matches when the page asked for a count (else None), and the backend's name. ``rows``:
    each id's row read from ``TextRequest.rows``, when the backend read them (else None: the caller reads them)."""

    ids: tuple[int, ...]
    keys: tuple[tuple, ...]
    has_more: bool
    total: int | None = None
    backend: str = ""
    rows: Mapping[int, Any] | None = field(default=None, compare=False, repr=False)


class SearchBackend(ABC):
    """Ranks candidates for requests, searches their text, and keeps whatever index it has in step with the
    database. One instance serves every request of a process: it must be safe to call from several threads."""

    name: ClassVar[str] = ""

    @abstractmethod
    def rank(self, request: RankRequest, *, resolved: Resolved | None = None) -> RankedIds:
        """The ids of ``request.page`` of the candidates ranked for ``request``, in the order
        ``(misses_any, -match, id)`` (the module docstring), with their keys. An empty pool is an empty page.
        ``resolved``: the request's skills as ``profiles.search.ranking.resolve`` gives them, when the caller has
        them already (a page explains its rows with them). ``ValidationError`` for filters the candidate filters
        refuse or that would rank."""

    @abstractmethod
    def search_text(self, request: TextRequest) -> TextHits:
        """The ids of ``request.page`` of the candidates whose text matches ``request.query`` (and the filters), most
        relevant first, ties by id (highest first). ``ValidationError`` for filters the candidate filters refuse."""

    @abstractmethod
    def index(self, candidate_ids: Iterable[int]) -> None:
        """Bring these candidates' entries up to date with their rows (after a commit that changed them). An id with
        no row is removed. A backend that reads the database on each request has nothing to do."""

    @abstractmethod
    def remove(self, candidate_ids: Iterable[int]) -> None:
        """Forget these candidates (an erasure, the losing side of a merge): no later answer may hold them. A
        backend that reads the database on each request has nothing to do."""
