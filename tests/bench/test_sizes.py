"""bench/sizes.py: the size report the capacity plan (docs/scaling.md) is computed from."""

from __future__ import annotations

import pytest
from django.db import connection

from bench import sizes
from tests.factories import CandidateFactory, CandidateSkillFactory

pytestmark = pytest.mark.django_db


def test_every_table_is_measured_with_its_heap_toast_and_indexes_adding_up_to_no_more_than_its_total():
    CandidateSkillFactory.create_batch(3, candidate=CandidateFactory())
    with connection.cursor() as cursor:
        tables = {t.name: t for t in sizes.table_sizes(cursor, exact=True)}

    candidate = tables["profiles_candidate"]
    assert candidate.rows == 1
    assert tables["profiles_candidateskill"].rows == 3
    assert candidate.heap > 0
    assert candidate.indexes > 0
    assert candidate.toast > 0  # the TOAST table of its long text columns, with its index
    for table in tables.values():
        assert table.heap + table.toast + table.indexes <= table.total


def test_the_report_divides_each_table_and_index_by_the_candidates():
    tables = [
        sizes.TableSize(
            "profiles_candidate", rows=2_000, heap=4_096_000, toast=8192, indexes=1_024_000, total=5_200_000
        ),
        sizes.TableSize("django_session", rows=3, heap=8192, toast=0, indexes=16384, total=24576),
    ]
    indexes = [sizes.IndexSize("candidate_search_idx", "profiles_candidate", "gin", 512_000)]

    text = sizes.report(tables, indexes, candidates=2_000, min_bytes=64 * 1024)

    lines = text.splitlines()
    assert lines[0] == "2,000 candidates"
    candidate = next(line for line in lines if line.startswith("profiles_candidate"))
    assert candidate.split()[-2:] == ["2,600", "2,600"]  # bytes per candidate, bytes per row
    assert any(line.startswith("(1 smaller tables)") for line in lines)
    assert next(line for line in lines if line.startswith("candidate_search_idx")).split()[-1] == "256"


def test_markdown_tables_have_a_header_rule_and_one_row_per_relation():
    tables = [sizes.TableSize("profiles_candidate", rows=10, heap=8192, toast=0, indexes=16384, total=24576)]

    text = sizes.report(tables, [], candidates=10, markdown=True)

    table = [line for line in text.splitlines() if line.startswith("|")]
    assert table[0].startswith("| relation | rows |")
    assert table[1].startswith("|---|---:|")
    assert table[2].startswith("| profiles_candidate | 10 | 1.0 | 8.0 KiB |")
    assert table[-1].startswith("| all tables |")
