"""Merging duplicates into one candidate, and pairs marked as different people."""

import datetime as dt

import pytest

from core.errors import ApplicationError
from ingestion.services import documents_load
from profiles import services
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    MergeRecord,
    NotDuplicate,
    ShortlistEntry,
)
from profiles.selectors import candidate_duplicate_groups
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    RepositoryFactory,
    SkillFactory,
    SourceFileFactory,
    UserFactory,
)
from tests.ingestion.documents import make_document, with_github

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair():
    survivor = CandidateFactory(name="Ana Lima", email="", company="Nubank")
    other = CandidateFactory(name="Ana  Lima", email="ana@example.com", company="Nubank")
    return survivor, other


def test_merge_keeps_the_higher_score_of_a_shared_skill_and_moves_the_others(pair):
    survivor, other = pair
    python, go, rust = SkillFactory(slug="python"), SkillFactory(slug="go"), SkillFactory(slug="rust")
    CandidateSkillFactory(candidate=survivor, skill=python, score=6)
    CandidateSkillFactory(candidate=survivor, skill=go, score=9)
    CandidateSkillFactory(candidate=other, skill=python, score=8)
    CandidateSkillFactory(candidate=other, skill=go, score=3)
    CandidateSkillFactory(candidate=other, skill=rust, score=5)

    services.candidates_merge(survivor=survivor, others=[other], user=UserFactory())

    assert sorted(CandidateSkill.objects.filter(candidate=survivor).values_list("skill__slug", "score")) == [
        ("go", 9),
        ("python", 8),
        ("rust", 5),
    ]


def test_merge_moves_contributions_education_identifiers_sources_and_history(pair):
    survivor, other = pair
    shared_repo, own_repo = RepositoryFactory(full_name="a/shared"), RepositoryFactory(full_name="b/own")
    ContributionFactory(candidate=survivor, repository=shared_repo, commits=5)
    ContributionFactory(candidate=other, repository=shared_repo, commits=50)
    ContributionFactory(candidate=other, repository=own_repo, commits=1, start=dt.date(2020, 1, 1))
    EducationFactory(candidate=survivor, school="USP")
    EducationFactory(candidate=other, school="USP")
    EducationFactory(candidate=other, school="Unicamp")
    CandidateIdentifier.objects.create(candidate=other, kind="github", value="analima")
    source = SourceFileFactory(original_name="ana.txt", candidate=other)
    other_history = other.history.count()
    user = UserFactory()

    [record] = services.candidates_merge(survivor=survivor, others=[other], user=user)

    assert not Candidate.objects.filter(pk=other.pk).exists()
    assert sorted(Contribution.objects.filter(candidate=survivor).values_list("repository__full_name", "commits")) == [
        ("a/shared", 50),
        ("b/own", 1),
    ]
    assert sorted(survivor.education.values_list("school", flat=True)) == ["USP", "Unicamp"]
    assert CandidateIdentifier.objects.get(value="analima").candidate_id == survivor.pk
    source.refresh_from_db()
    assert source.candidate_id == survivor.pk
    assert (record.survivor, record.merged_id, record.merged_name, record.merged_by) == (
        survivor,
        other.pk,
        "Ana  Lima",
        user,
    )
    assert record.details["identifiers"] == 1
    assert record.details["sources"] == 1
    assert record.details["history_records"] == other_history
    survivor.refresh_from_db()
    assert survivor.email == "ana@example.com"  # a blank field filled from the merged candidate
    assert record.details["filled_fields"] == ["email"]
    latest = survivor.history.order_by("-history_date").first()
    assert (latest.history_user, latest.history_change_reason) == (user, f"Merged #{other.pk} Ana  Lima")


def test_merge_moves_shortlist_entries_and_keeps_the_survivors_status(pair):
    survivor, other = pair
    owner = UserFactory()
    both, _ = services.shortlist_get_or_create(owner=owner, name="Both")
    only_other, _ = services.shortlist_get_or_create(owner=owner, name="Only other")
    ShortlistEntry.objects.create(shortlist=both, candidate=survivor, status="contacted", notes="Called.")
    ShortlistEntry.objects.create(shortlist=both, candidate=other, status="sourced", notes="Found on GitHub.")
    ShortlistEntry.objects.create(shortlist=only_other, candidate=other, status="interviewing")

    services.candidates_merge(survivor=survivor, others=[other], user=owner)

    entries = {e.shortlist.name: e for e in ShortlistEntry.objects.select_related("shortlist")}
    assert entries["Both"].candidate_id == survivor.pk
    assert (entries["Both"].status, entries["Both"].notes) == ("contacted", "Called.\nFound on GitHub.")
    assert (entries["Only other"].candidate_id, entries["Only other"].status) == (survivor.pk, "interviewing")
    assert ShortlistEntry.objects.count() == 2


def test_after_a_merge_an_import_of_the_merged_person_updates_the_survivor():
    [a] = documents_load(documents=[with_github(make_document(), "mira-a")])
    [b] = documents_load(documents=[with_github(make_document(name="Mira Okafor"), "mira-b")])
    assert a.candidate_id != b.candidate_id
    survivor = Candidate.objects.get(pk=a.candidate_id)

    services.candidates_merge(survivor=survivor, others=[Candidate.objects.get(pk=b.candidate_id)], user=None)
    [again] = documents_load(documents=[with_github(make_document(company="Quanta"), "mira-b")])

    assert again.candidate_id == survivor.pk
    assert Candidate.objects.count() == 1


def test_candidates_marked_as_different_people_are_no_longer_proposed(pair):
    survivor, other = pair
    assert [group.ids for group in candidate_duplicate_groups().groups] == [sorted([survivor.pk, other.pk])]

    created = services.candidates_mark_not_duplicate(candidates=[other, survivor], user=UserFactory())

    assert created == 1
    assert NotDuplicate.objects.filter(first_id=min(survivor.pk, other.pk), second_id=max(survivor.pk, other.pk))
    assert candidate_duplicate_groups().groups == []
    assert services.candidates_mark_not_duplicate(candidates=[survivor, other], user=None) == 0


def test_merging_nobody_else_changes_nothing(pair):
    survivor, _ = pair
    assert services.candidates_merge(survivor=survivor, others=[survivor], user=None) == []
    assert not MergeRecord.objects.exists()


def test_merging_a_candidate_deleted_meanwhile_is_refused_and_changes_nothing(pair):
    survivor, other = pair
    CandidateSkillFactory(candidate=other, skill=SkillFactory(slug="python"), score=8)
    gone = CandidateFactory(name="Ana Lima")
    Candidate.objects.filter(pk=gone.pk).delete()  # another recruiter merged or deleted it after the page loaded

    with pytest.raises(ApplicationError, match=r"^A candidate of this merge no longer exists\.$"):
        services.candidates_merge(survivor=survivor, others=[other, gone], user=UserFactory())

    assert Candidate.objects.filter(pk=other.pk).exists()
    assert not CandidateSkill.objects.filter(candidate=survivor).exists()
    assert not MergeRecord.objects.exists()


def test_every_relation_of_another_app_to_a_candidate_is_one_a_merge_can_move():
    others = [
        relation
        for relation in Candidate._meta.get_fields(include_hidden=True)
        if relation.auto_created and not relation.concrete and relation.related_model._meta.app_label != "profiles"
    ]

    assert others, "source files refer to their candidate"
    # A one-to-one row (privacy's sourcing record) is merged by its model's candidates_merged.
    movable = [r for r in others if r.one_to_many or (r.one_to_one and hasattr(r.related_model, "candidates_merged"))]
    assert movable == others, [repr(r) for r in others if r not in movable]
    assert services.move_references_of_other_apps(-1, -2) == {"sources": 0, "erasure_requests": 0, "sourcing": 0}


def test_merge_moves_jobs_once_and_keeps_the_better_fluency_of_a_shared_language(pair):
    from profiles.models import Position, SpokenLanguage

    survivor, other = pair
    Position.objects.create(candidate=survivor, order=0, company="Nubank", title="Engineer", start=dt.date(2021, 1, 1))
    Position.objects.create(candidate=other, order=0, company="nubank", title="engineer", start=dt.date(2021, 1, 1))
    Position.objects.create(candidate=other, order=1, company="Stone", title="Intern", start=dt.date(2018, 1, 1))
    SpokenLanguage.objects.create(candidate=survivor, position=0, code="pt", name="Portuguese", fluency="")
    SpokenLanguage.objects.create(candidate=other, position=0, code="pt", name="Portuguese", fluency="native")
    SpokenLanguage.objects.create(candidate=other, position=1, code="en", name="English", fluency="full_professional")

    [record] = services.candidates_merge(survivor=survivor, others=[other], user=None)

    assert list(survivor.positions.order_by("order").values_list("order", "company")) == [(0, "Nubank"), (1, "Stone")]
    assert list(survivor.languages.order_by("position").values_list("code", "fluency")) == [
        ("pt", "native"),
        ("en", "full_professional"),
    ]
    assert (record.details["positions"], record.details["languages"]) == (1, 1)
    assert not Position.objects.filter(candidate_id=other.pk).exists()
    assert Candidate.objects.filter(pk=survivor.pk, search_vector="Stone").exists()
