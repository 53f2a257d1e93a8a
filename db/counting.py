"""Counting at scale: exact for small tables and results, PostgreSQL's own estimates for large ones.

Row counts (``queryset_count``, for a pager) and the most common values of a column (``common_values``, for filter
choices and charts) of any model; the callers decide what to count.
"""

from __future__ import annotations

import json

from django.core.exceptions import EmptyResultSet
from django.db import DatabaseError, connections, transaction
from django.db.models import Model, QuerySet
from psycopg.errors import QueryCanceled

from db.connections import read_connection

__all__ = ["EXACT_COUNT_BELOW", "EXACT_GROUPS_BELOW", "common_values", "queryset_count", "table_row_estimate"]

# --- Rows ----------------------------------------------------------------------------------------------------------

# Below this many rows an exact COUNT(*) is cheap; above it, PostgreSQL's own estimates are good enough for a pager.
EXACT_COUNT_BELOW = 10_000


def table_row_estimate(model: type[Model]) -> int:
    """The planner's row estimate of a table (pg_class.reltuples, kept by VACUUM / ANALYZE); -1 when never analysed."""
    with read_connection(model).cursor() as cursor:
        cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass", [model._meta.db_table])
        row = cursor.fetchone()
    return int(row[0]) if row else -1


def queryset_count(
    queryset: QuerySet,
    *,
    exact_below: int = EXACT_COUNT_BELOW,
    budget_ms: int | None = None,
    max_cost: float | None = None,
) -> tuple[int, bool]:
    """How many rows ``queryset`` returns, and whether that number is an estimate.

    Unfiltered: the table estimate (no scan). Filtered: the planner's estimate of the query (EXPLAIN, no execution).
    Small numbers are counted exactly, so a short list shows its true size, unless counting them is expensive (a few
    matches among millions of rows can be): a plan that costs more than ``max_cost`` is not run, and an exact count
    that takes longer than ``budget_ms`` is abandoned; the estimate stands in.
    """
    queryset = queryset.order_by()
    filtered = bool(queryset.query.where or queryset.query.distinct)
    if not filtered:
        estimate = table_row_estimate(queryset.model)
    else:
        try:
            sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
        except EmptyResultSet:  # e.g. .none(): nothing to ask the planner
            return 0, False
        with connections[queryset.db].cursor() as cursor:
            cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
            plan = cursor.fetchone()[0]
        plan = json.loads(plan) if isinstance(plan, str) else plan
        estimate = int(plan[0]["Plan"]["Plan Rows"])
        if max_cost is not None and plan[0]["Plan"]["Total Cost"] > max_cost:
            return estimate, True
    if estimate < exact_below:
        counted = queryset.count() if budget_ms is None or not filtered else _count_within(queryset, budget_ms)
        if counted is not None:
            return counted, False
    return estimate, True


# The previous value is read in a subquery (OFFSET 0 keeps it from being merged), before set_config changes it.
_SET_TIMEOUT_SQL = (
    "SELECT previous, set_config('statement_timeout', %s, true) "
    "FROM (SELECT current_setting('statement_timeout') AS previous OFFSET 0) AS p"
)


def _count_within(queryset: QuerySet, budget_ms: int) -> int | None:
    """COUNT(*) with a statement timeout local to a savepoint; None when PostgreSQL cancelled it."""
    db = connections[queryset.db]
    try:
        with transaction.atomic(using=queryset.db):
            with db.cursor() as cursor:
                cursor.execute(_SET_TIMEOUT_SQL, [f"{budget_ms}ms"])
                previous = cursor.fetchone()[0]
            count = queryset.count()
            with db.cursor() as cursor:  # the savepoint's release would keep the timeout: put it back
                cursor.execute("SELECT set_config('statement_timeout', %s, true)", [previous])
            return count
    except DatabaseError as exc:
        if isinstance(exc.__cause__, QueryCanceled):
            return None  # rolling the savepoint back also restored the timeout
        raise


# --- Common values -------------------------------------------------------------------------------------------------

# Above this many rows, value counts come from the planner's statistics (pg_stats, kept by ANALYZE), not from a scan.
EXACT_GROUPS_BELOW = 200_000


_PLANNER_COMMON_VALUES_SQL = """
SELECT {values}::text::text[], {freqs}, (SELECT reltuples FROM pg_class WHERE oid = %s::regclass)
FROM pg_stats WHERE schemaname = current_schema() AND tablename = %s AND attname = %s
"""
_PLANNER_VALUES = _PLANNER_COMMON_VALUES_SQL.format(values="most_common_vals", freqs="most_common_freqs")
_PLANNER_ELEMENTS = _PLANNER_COMMON_VALUES_SQL.format(values="most_common_elems", freqs="most_common_elem_freqs")


def _planner_common_values(model: type[Model], column: str, *, elements: bool) -> list[tuple[str, int]] | None:
    """Most common values (of an array column: elements) with estimated counts; None when not analysed yet."""
    with read_connection(model).cursor() as cursor:
        table = model._meta.db_table
        cursor.execute(_PLANNER_ELEMENTS if elements else _PLANNER_VALUES, [table, table, column])
        row = cursor.fetchone()
    if not row or row[0] is None:
        return None
    pairs = [(value, round(freq * row[2])) for value, freq in zip(row[0], row[1], strict=False)]
    return sorted(pairs, key=lambda pair: (-pair[1], pair[0]))


def common_values(model: type[Model], column: str, *, limit: int, elements: bool = False) -> list[tuple[str, int]]:
    """The most common non-empty values of a column (``elements``: of an array column) with their counts, most common
    first. Exact on a small table; from the planner's statistics on a large one (then the counts are estimates)."""
    if table_row_estimate(model) >= EXACT_GROUPS_BELOW:
        estimated = _planner_common_values(model, column, elements=elements)
        if estimated is not None:
            return [(value, n) for value, n in estimated if value not in ("", None)][:limit]
    db = read_connection(model)
    table = db.ops.quote_name(model._meta.db_table)
    value = f"unnest({db.ops.quote_name(column)})" if elements else db.ops.quote_name(column)
    # Identifiers come from the model's metadata, never from a request.
    sql = f"SELECT v::text, count(*) FROM (SELECT {value} AS v FROM {table}) AS t "  # noqa: S608
    with db.cursor() as cursor:
        cursor.execute(
            sql + "WHERE v IS NOT NULL AND v::text <> '' GROUP BY v ORDER BY count(*) DESC, v LIMIT %s", [limit]
        )
        return [(v, n) for v, n in cursor.fetchall()]
