"""Search: everything that finds and ranks candidates, and the one seam through which an engine does it.

- ``columns``: the search columns of a candidate row (the full-text vector, the skill tokens and scores) and the
  statements that write them; their public names are re-exported here, as every writer of a candidate uses them;
- ``terms``, ``skills``, ``filtersets``: the query language of the candidate filters (skill and language terms, the
  FilterSets), the skills a label names, and the one reading of a skill's score;
- ``ranking``: what a ranking reads first (a request's skills resolved, a widened one's related skills, the filters
  it accepts); ``signals``: the ranking signals, one unit each (its weight, its SQL, what a row shows of it);
- ``backends``: the interface a search engine implements (``backends.base``: ``RankRequest``, ``SearchBackend``),
  PostgreSQL's (``backends.sql``, the reference) and ``search_backend()``, the one the ``SEARCH_BACKEND`` setting
  names; ``pages``: a ranked page's rows, the ids from the backend in use and the values from PostgreSQL.

A new ranking signal is a class in ``signals``; a new engine is a ``SearchBackend`` subclass anywhere above the domain,
named by ``SEARCH_BACKEND``, and compared row for row with ``backends.sql`` (tests/profiles/search).
"""

from profiles.search.columns import (
    COUNTRY_TOKEN_SLOTS,
    SEARCH_COLUMNS_SQL,
    SEARCH_TEXT_MAX_CHARS,
    SKILL_TOKEN_SCORES,
    candidate_insert_sql,
    candidates_refresh_search_columns,
    repositories_refresh_contributors,
    skill_tokens,
)

__all__ = [
    "COUNTRY_TOKEN_SLOTS",
    "SEARCH_COLUMNS_SQL",
    "SEARCH_TEXT_MAX_CHARS",
    "SKILL_TOKEN_SCORES",
    "candidate_insert_sql",
    "candidates_refresh_search_columns",
    "repositories_refresh_contributors",
    "skill_tokens",
]
