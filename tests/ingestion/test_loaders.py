import dataclasses
import threading

import pytest
from django.db import DataError, connection, transaction

from ingestion.documents import Location, SkillEntry
from ingestion.models import SourceFile
from ingestion.services import documents_load
from profiles.models import Candidate, CandidateIdentifier, CandidateSkill, Contribution, Repository, Skill
from tests.ingestion.documents import make_document, with_github, write_shared_rows_first

pytestmark = pytest.mark.django_db


def test_a_new_document_creates_one_candidate_with_all_its_parts():
    [result] = documents_load(documents=[make_document()])

    assert result.outcome == SourceFile.Outcome.CREATED
    candidate = Candidate.objects.get(pk=result.candidate_id)
    assert (candidate.name, candidate.company, candidate.country_code) == ("Mira Okafor", "Lumen Labs", "NG")
    assert candidate.badges == ["Rockstar"]
    assert list(candidate.education.values_list("school", flat=True)) == ["University of Lagos"]
    contribution = candidate.contributions.get()
    assert contribution.repository.full_name == "lumen/optics"
    assert contribution.end is None
    assert contribution.is_current
    assert contribution.repository.topics == ["compiler", "ml"]
    assert "machine-learning" in contribution.repository.topic_slugs  # "ml" is an alias


def test_two_labels_of_one_skill_give_one_candidate_skill_with_the_higher_score():
    [result] = documents_load(documents=[make_document()])

    c_skill = CandidateSkill.objects.get(candidate_id=result.candidate_id, skill__slug="c")
    assert (c_skill.score, c_skill.label) == (10, "cprogramming-language")
    assert CandidateSkill.objects.filter(candidate_id=result.candidate_id).count() == 2


def test_the_search_vector_covers_contribution_summaries():
    [result] = documents_load(documents=[make_document()])

    found = Candidate.objects.filter(search_vector="scheduler").values_list("pk", flat=True)
    assert list(found) == [result.candidate_id]


def test_the_same_document_again_is_unchanged_and_rewrites_nothing():
    [first] = documents_load(documents=[make_document()])
    before = Candidate.objects.get(pk=first.candidate_id).updated_at
    skill_ids = set(CandidateSkill.objects.values_list("pk", flat=True))

    [again] = documents_load(documents=[make_document()])

    assert (again.outcome, again.candidate_id) == (SourceFile.Outcome.UNCHANGED, first.candidate_id)
    assert Candidate.objects.get(pk=first.candidate_id).updated_at == before
    assert set(CandidateSkill.objects.values_list("pk", flat=True)) == skill_ids


def test_a_newer_document_of_the_same_person_updates_in_place_and_replaces_children():
    [first] = documents_load(documents=[make_document()])
    newer = make_document(company="Quanta", skills=[SkillEntry("rust", 8)], contributions=[])

    [second] = documents_load(documents=[newer])

    assert (second.outcome, second.candidate_id) == (SourceFile.Outcome.UPDATED, first.candidate_id)
    assert Candidate.objects.count() == 1
    candidate = Candidate.objects.get()
    assert candidate.company == "Quanta"
    assert list(candidate.skills.values_list("skill__slug", "score")) == [("rust", 8)]
    assert not Contribution.objects.exists()
    assert Repository.objects.filter(full_name="lumen/optics").exists()  # repositories are shared, kept


def test_people_contributing_to_one_repository_share_its_row():
    [first] = documents_load(documents=[make_document()])
    [second, third] = documents_load(documents=[make_document(name="Other Person"), make_document(name="Third Person")])

    repositories = Contribution.objects.filter(
        candidate_id__in=[first.candidate_id, second.candidate_id, third.candidate_id]
    ).values_list("repository__full_name", flat=True)
    assert list(repositories) == ["lumen/optics"] * 3
    assert Repository.objects.count() == 1


def _contribution_to(repository: str, description: str, topics: list[str]):
    [contribution] = make_document().contributions
    return dataclasses.replace(
        contribution, repository=repository, repository_description=description, topics=topics, topics_raw=""
    )


def test_a_newer_file_refreshes_a_changed_repository_and_leaves_an_unchanged_one_alone():
    documents_load(
        documents=[make_document(contributions=[_contribution_to("lumen/optics", "Optical flow kernels", ["ml"])])]
    )
    before = Repository.objects.get(full_name="lumen/optics")
    xmin = _row_version("profiles_repository", before.pk)

    documents_load(
        documents=[
            make_document(
                name="Same Repo", contributions=[_contribution_to("lumen/optics", before.description, ["ml"])]
            )
        ]
    )
    assert _row_version("profiles_repository", before.pk) == xmin  # unchanged: not rewritten, so not locked either

    documents_load(
        documents=[
            make_document(
                name="Newer Repo", contributions=[_contribution_to("lumen/optics", "GPU kernels", ["ml", "gpu"])]
            )
        ]
    )
    after = Repository.objects.get(full_name="lumen/optics")
    assert after.pk == before.pk
    assert (after.description, after.topics) == ("GPU kernels", ["ml", "gpu"])
    assert "gpu" in after.topic_slugs


def test_a_file_that_leaves_out_a_repositorys_description_or_topics_keeps_the_stored_ones():
    documents_load(
        documents=[make_document(contributions=[_contribution_to("lumen/optics", "Optical flow kernels", ["ml"])])]
    )
    before = Repository.objects.get(full_name="lumen/optics")
    xmin = _row_version("profiles_repository", before.pk)

    # Within one chunk too: the file without them comes last.
    documents_load(
        documents=[
            make_document(name="Says More", contributions=[_contribution_to("lumen/optics", "GPU kernels", ["gpu"])]),
            make_document(name="Says Less", contributions=[_contribution_to("lumen/optics", "", [])]),
        ]
    )
    after = Repository.objects.get(full_name="lumen/optics")
    assert (after.description, after.topics, after.topic_slugs) == ("GPU kernels", ["gpu"], ["gpu"])

    documents_load(
        documents=[make_document(name="Says Nothing", contributions=[_contribution_to("lumen/optics", "", [])])]
    )
    assert Repository.objects.get(pk=before.pk).description == "GPU kernels"
    assert _row_version("profiles_repository", before.pk) != xmin  # it was updated once, by "Says More"


def _row_version(table: str, pk: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT xmin::text || ctid::text FROM {table} WHERE id = %s", [pk])
        return cursor.fetchone()[0]


def test_a_number_out_of_range_is_refused_not_wrapped_around():
    [contribution] = make_document().contributions
    doc = make_document(contributions=[dataclasses.replace(contribution, commits=2**40)])

    with pytest.raises(DataError):
        documents_load(documents=[doc])


def test_same_name_elsewhere_is_another_person():
    documents_load(documents=[make_document()])
    documents_load(documents=[make_document(location=Location(city="Accra", country="Ghana", country_code="GH"))])
    assert Candidate.objects.filter(name="Mira Okafor").count() == 2


def test_external_identifiers_win_over_name_and_location():
    [first] = documents_load(documents=[with_github(make_document(), "mira-o")])
    moved = with_github(make_document(location=Location(city="Berlin", country="Germany", country_code="DE")), "Mira-O")

    [second] = documents_load(documents=[moved])

    assert second.candidate_id == first.candidate_id
    assert Candidate.objects.get().city == "Berlin"
    assert CandidateIdentifier.objects.filter(kind="github", value="mira-o").count() == 1


def test_protected_fields_survive_a_reimport():
    [first] = documents_load(documents=[make_document()])
    Candidate.objects.filter(pk=first.candidate_id).update(title="Staff Engineer (edited)", protected_fields=["title"])

    documents_load(documents=[make_document(title="Principal Engineer II", company="NewCo")])

    candidate = Candidate.objects.get(pk=first.candidate_id)
    assert candidate.title == "Staff Engineer (edited)"
    assert candidate.company == "NewCo"


def test_one_person_twice_in_one_chunk_gives_one_candidate_with_the_later_document():
    results = documents_load(documents=[make_document(company="Old"), make_document(company="New")])

    assert results[0].candidate_id == results[1].candidate_id
    assert [r.outcome for r in results] == [SourceFile.Outcome.CREATED, SourceFile.Outcome.UPDATED]
    assert Candidate.objects.get().company == "New"


def test_one_person_twice_in_one_chunk_keeps_the_keys_of_both_files():
    by_email = make_document(email="mira@example.com")  # matched to the next one by name and place
    by_github = with_github(make_document(), "mira-o")

    [first, second] = documents_load(documents=[by_email, by_github])
    [later] = documents_load(documents=[make_document(name="Mira O.", email="mira@example.com")])

    assert first.candidate_id == second.candidate_id == later.candidate_id
    kinds = set(CandidateIdentifier.objects.filter(candidate_id=first.candidate_id).values_list("kind", flat=True))
    assert kinds == {"email", "github", "name"}


def test_new_labels_become_skills_that_later_imports_reuse():
    documents_load(documents=[make_document(skills=[SkillEntry("zq-comptime", 6)])])
    documents_load(documents=[make_document(name="Other Person", skills=[SkillEntry("Zq-Comptime", 7)])])

    assert Skill.objects.filter(slug="zq-comptime").count() == 1
    assert CandidateSkill.objects.filter(skill__slug="zq-comptime").count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_workers_loading_the_same_person_at_once_give_one_candidate(seeded_vocabulary):
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def load(company: str) -> None:
        try:
            barrier.wait()
            documents_load(documents=[make_document(company=company)])
        except BaseException as exc:  # reported to the main thread below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=load, args=(f"Co{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert Candidate.objects.count() == 1
    assert CandidateIdentifier.objects.filter(kind="name").count() == 1
    assert Repository.objects.filter(full_name="lumen/optics").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_load_does_not_wait_for_another_chunk_that_names_the_same_skills_and_repository(seeded_vocabulary):
    """Shared rows are written before a chunk's transaction (services) or only when they change (repositories): a
    chunk still open elsewhere must not hold the next one up. Before, the repository upsert locked the row until the
    first chunk committed."""
    doc = make_document(skills=[SkillEntry("brand-new-skill-x", 5)])
    write_shared_rows_first([doc])  # as source_files_import does before each chunk
    documents_load(documents=[make_document(name="Earlier Person", skills=[SkillEntry("brand-new-skill-x", 4)])])
    first_loaded, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first_chunk() -> None:
        try:
            with transaction.atomic():
                documents_load(documents=[doc])
                first_loaded.set()
                release.wait(30)  # the first chunk's transaction stays open meanwhile
        except BaseException as exc:  # reported to the main thread below
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=first_chunk)
    thread.start()
    try:
        assert first_loaded.wait(30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")  # waiting for the open chunk would fail here
            [second] = documents_load(
                documents=[make_document(name="Second Person", skills=[SkillEntry("brand-new-skill-x", 6)])]
            )
    finally:
        release.set()
        thread.join()

    assert errors == []
    assert second.outcome == SourceFile.Outcome.CREATED
    assert Repository.objects.filter(full_name="lumen/optics").count() == 1
    assert CandidateSkill.objects.filter(skill__slug="brand-new-skill-x").count() == 3


@pytest.mark.django_db(transaction=True)
def test_shared_rows_outlive_a_chunk_that_fails_after_them(seeded_vocabulary):
    doc = make_document(skills=[SkillEntry("kept-vocabulary-skill", 5)])
    doc.contributions[0] = _contribution_to("kept/repository", "Kept", ["kept-topic"])
    write_shared_rows_first([doc])

    def failing_chunk() -> None:
        with transaction.atomic():
            documents_load(documents=[doc])
            raise RuntimeError("the chunk fails after loading")

    with pytest.raises(RuntimeError):
        failing_chunk()

    assert Candidate.objects.count() == 0  # no partial profile
    assert Skill.objects.filter(slug__in=["kept-vocabulary-skill", "kept-topic"]).count() == 2
    assert Repository.objects.get(full_name="kept/repository").topic_slugs == ["kept-topic"]


def _search_columns(ids: list[int]) -> dict[int, tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, search_vector::text, skill_tokens, skill_scores FROM profiles_candidate WHERE id = ANY(%s)",
            [ids],
        )
        return {row[0]: row[1:] for row in cursor.fetchall()}


def _updates_in_this_transaction(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_get_xact_tuples_updated(%s::regclass)", [table])
        return cursor.fetchone()[0]


def test_new_candidates_are_written_once_with_the_search_columns_a_refresh_gives(profile_documents):
    from profiles.search import candidates_refresh_search_columns

    updates_before = _updates_in_this_transaction("profiles_candidate")

    ids = [result.candidate_id for result in documents_load(documents=profile_documents)]

    assert _updates_in_this_transaction("profiles_candidate") == updates_before  # inserted whole, never rewritten
    written = _search_columns(ids)
    assert all(vector for vector, _, _ in written.values())
    assert sum(bool(tokens) for _, tokens, _ in written.values()) > len(written) // 2  # most have skills
    candidates_refresh_search_columns(candidate_ids=ids)  # what an edit by hand or a merge computes
    assert _search_columns(ids) == written
