"""The search columns of a candidate (full-text vector, skill tokens and scores) follow every write of its skills."""

import pytest
from django.db import connection

from ingestion.documents import Location, SkillEntry
from ingestion.services import documents_load
from profiles import search, services
from profiles.models import Candidate, CandidateSkill
from profiles.selectors import candidate_search
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory, UserFactory
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db


def search_columns(candidate_id: int) -> tuple[list[int], dict[str, int]]:
    tokens, scores = Candidate.objects.values_list("skill_tokens", "skill_scores").get(pk=candidate_id)
    return sorted(tokens), scores


def expected_columns(candidate_id: int) -> tuple[list[int], dict[str, int]]:
    """What the columns must hold, computed from the CandidateSkill rows and the country."""
    country = Candidate.objects.get(pk=candidate_id).country_code
    rows = sorted(CandidateSkill.objects.filter(candidate_id=candidate_id).values_list("skill_id", "score"))
    plain = [skill_id * 16 + score for skill_id, score in rows]
    scoped = (
        [-(token * 1024 + (ord(country[0]) - 65) * 26 + ord(country[1]) - 65) for token in plain] if country else []
    )
    return sorted(plain + scoped), {str(skill_id): score for skill_id, score in rows}


def test_an_import_writes_one_token_and_one_score_per_canonical_skill():
    [result] = documents_load(documents=[make_document()])

    tokens, scores = search_columns(result.candidate_id)
    assert (tokens, scores) == expected_columns(result.candidate_id)
    # python 9, and C once (c-language 7 and cprogramming-language 10 are one skill: the higher score wins)
    assert sorted(scores.values()) == [9, 10]


def test_a_reimport_with_other_skills_replaces_the_tokens():
    [first] = documents_load(documents=[make_document()])
    [second] = documents_load(documents=[make_document(skills=[SkillEntry("rust", 4)])])

    assert second.candidate_id == first.candidate_id
    tokens, scores = search_columns(first.candidate_id)
    assert (tokens, scores) == expected_columns(first.candidate_id)
    assert list(scores.values()) == [4]
    assert [c.pk for c in candidate_search(params={"skill": "rust:4"})] == [first.candidate_id]
    assert list(candidate_search(params={"skill": "python"})) == []


def test_a_candidate_without_skills_has_empty_columns():
    [result] = documents_load(documents=[make_document(skills=[])])

    assert search_columns(result.candidate_id) == ([], {})


def test_skill_tokens_cover_every_score_from_the_minimum():
    assert search.skill_tokens(3, 8) == [3 * 16 + 8, 3 * 16 + 9, 3 * 16 + 10]
    assert len(search.skill_tokens(3)) == 11
    # scoped to a country: US is (20, 18) → 20 * 26 + 18 = 538
    assert search.skill_tokens(3, 10, country_code="US") == [-((3 * 16 + 10) * 1024 + 538)]
    assert search.skill_tokens(3, 10, country_code="us") == search.skill_tokens(3, 10, country_code="US")


@pytest.mark.parametrize("code", ["D", "DEU", "D1", "É?", "ß", "de "])
def test_a_country_code_no_candidate_can_hold_scopes_the_tokens_to_nobody(code):
    # Only a code of two letters A-Z scopes a candidate's tokens: any other is a country no candidate's tokens are in.
    assert search.skill_tokens(3, 8, country_code=code) == []


def test_the_country_scoped_tokens_follow_the_country():
    [result] = documents_load(documents=[make_document()])  # Lagos, Nigeria
    candidate = Candidate.objects.get(pk=result.candidate_id)

    assert [c.pk for c in candidate_search(params={"skill": "python:9", "country": "NG"})] == [candidate.pk]
    assert list(candidate_search(params={"skill": "python:9", "country": "GH"})) == []

    candidate.country, candidate.country_code = "Ghana", "GH"
    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())

    assert search_columns(candidate.pk) == expected_columns(candidate.pk)
    assert [c.pk for c in candidate_search(params={"skill": "python:9", "country": "Ghana"})] == [candidate.pk]
    assert list(candidate_search(params={"any_skill": "python,rust", "country": "NG"})) == []


def test_a_candidate_without_a_country_has_only_plain_tokens():
    [result] = documents_load(
        documents=[make_document(location=Location(city="", region="", country="", country_code=""))]
    )

    tokens, _ = search_columns(result.candidate_id)
    assert tokens
    assert all(token > 0 for token in tokens)
    assert [c.pk for c in candidate_search(params={"skill": "python"})] == [result.candidate_id]


def test_a_merge_leaves_the_survivor_with_the_merged_skills_tokens():
    survivor, other = CandidateFactory(name="Ana Lima"), CandidateFactory(name="Ana Lima")
    CandidateSkillFactory(candidate=survivor, skill=SkillFactory(slug="python"), score=6)
    CandidateSkillFactory(candidate=other, skill=SkillFactory(slug="python"), score=8)
    CandidateSkillFactory(candidate=other, skill=SkillFactory(slug="rust"), score=5)

    services.candidates_merge(survivor=survivor, others=[other], user=UserFactory())

    assert search_columns(survivor.pk) == expected_columns(survivor.pk)
    [found] = candidate_search(params={"skill": ["python:8", "rust:5"]})
    assert (found.pk, found.match) == (survivor.pk, 65)


def test_skill_scores_stay_uncompressed_in_a_row_postgresql_compresses():
    """``match`` reads skill_scores of every filtered candidate before the LIMIT: compressed, each read decompressed
    it (migration 0009)."""
    skills = [SkillEntry(f"tool{i}", i % 11) for i in range(40)]
    summary = " ".join(f"Shipped release {i} of the telemetry pipeline with colleagues." for i in range(80))
    [result] = documents_load(documents=[make_document(skills=skills, summary=summary)])

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(summary), pg_column_compression(skill_scores), "
            "pg_column_size(skill_scores) FROM profiles_candidate WHERE id = %s",
            [result.candidate_id],
        )
        summary_compression, scores_compression, scores_size = cursor.fetchone()
    assert summary_compression is not None  # the row is over the threshold: PostgreSQL compressed what it may
    assert scores_compression is None
    assert scores_size > 400  # 40 scores, stored whole
    assert len(search_columns(result.candidate_id)[1]) == 40


def _plan_nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from _plan_nodes(child)


def test_search_sources_read_each_candidate_by_index_whatever_the_statistics():
    """A bulk import into a young database: statistics taken when the tables were small, then thousands of rows
    more. The search columns of a chunk must still read just its candidates' rows, by index, not scan every
    candidate's skills and contributions (or every skill) once per chunk, which grows with the tables."""
    documents_load(documents=[make_document()])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE profiles_candidate, profiles_candidateskill, profiles_skill, profiles_contribution")
        # 3,000 more candidates with 20 skills and 2 contributions each, 2,000 more skills: the statistics still
        # describe the handful of rows above.
        cursor.execute(
            "INSERT INTO profiles_skill (slug, name, kind) "
            "SELECT 'bulk-skill-' || n, 'Bulk skill ' || n, 'skill' FROM generate_series(1, 2000) n"
        )
        cursor.execute(
            "INSERT INTO profiles_candidate (name, headline, title, company, city, region, country, country_code, "
            "summary, badges, spoken_languages, email, website, protected_fields, document_sha256, created_at, "
            "updated_at) SELECT 'Bulk ' || n, '', '', '', '', '', '', '', '', '{}', '{}', '', '', '{}', '', now(), "
            "now() FROM generate_series(1, 3000) n"
        )
        cursor.execute(
            "INSERT INTO profiles_candidateskill (candidate_id, skill_id, score, label, section, position) "
            "SELECT c.id, s.id, 5, s.slug, 'skill', s.n FROM (SELECT id FROM profiles_candidate WHERE name LIKE "
            "'Bulk %') c CROSS JOIN LATERAL (SELECT id, slug, row_number() OVER () AS n FROM profiles_skill "
            "ORDER BY (id + c.id) % 2000 LIMIT 20) s"
        )
        cursor.execute(
            "INSERT INTO profiles_repository (full_name, description, topics, topic_slugs, topics_raw) "
            "SELECT 'bulk/repo-' || n, '', '{}', '{}', '' FROM generate_series(1, 500) n"
        )
        cursor.execute(
            "INSERT INTO profiles_contribution (candidate_id, repository_id, position, role, commits, comments, "
            "is_current, summary) SELECT c.id, r.id, r.n, '', 1, 0, false, '' FROM (SELECT id FROM "
            "profiles_candidate WHERE name LIKE 'Bulk %') c CROSS JOIN LATERAL (SELECT id, row_number() OVER () "
            "AS n FROM profiles_repository ORDER BY (id + c.id) % 500 LIMIT 2) r"
        )
        cursor.execute("SELECT id FROM profiles_candidate ORDER BY id DESC LIMIT 200")
        chunk = [row[0] for row in cursor.fetchall()]
        cursor.execute("EXPLAIN (FORMAT JSON) " + search.SEARCH_COLUMNS_SQL, [chunk])
        [[explained]] = cursor.fetchall()

    scanned = {
        node.get("Relation Name") for node in _plan_nodes(explained[0]["Plan"]) if node["Node Type"] == "Seq Scan"
    }
    assert CandidateSkill.objects.count() > 50_000  # the test set up what it meant to
    assert scanned.isdisjoint(
        {"profiles_candidateskill", "profiles_contribution", "profiles_skill", "profiles_repository"}
    ), scanned


def test_the_insert_of_new_candidates_needs_one_value_per_column():
    with pytest.raises(ValueError, match="one value expression per column"):
        search.candidate_insert_sql(rows_sql="u", columns=["name", "title"], values_sql=["c.name"])


def test_the_token_constants_are_the_ones_the_sql_multiplies_by():
    assert f"cs.skill_id * {search.SKILL_TOKEN_SCORES} + cs.score" in search.SEARCH_COLUMNS_SQL
    assert f"t::bigint * {search.COUNTRY_TOKEN_SLOTS}" in search.SEARCH_COLUMNS_SQL
    assert search.SKILL_TOKEN_SCORES > 10  # a score (0-10) fits below one skill's step
    assert search.COUNTRY_TOKEN_SLOTS > 26 * 26
