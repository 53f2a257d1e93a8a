"""Edits by hand: protected fields against re-imports, the history of who changed what, and reverts."""

import pytest

from ingestion.documents import SkillEntry
from ingestion.models import SourceFile
from ingestion.parsers import parse
from ingestion.services import documents_load
from profiles import services
from profiles.models import Candidate, CandidateSkill
from profiles.selectors import skill_changes
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory, UserFactory
from tests.fixtures import PROGAI_DIR
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db


def imported(**overrides) -> Candidate:
    [result] = documents_load(documents=[make_document(**overrides)])
    return Candidate.objects.get(pk=result.candidate_id)


def test_an_edit_by_hand_protects_the_changed_imported_fields():
    candidate = imported()
    candidate.title, candidate.summary = "Staff Engineer", "Hand-written summary."

    newly = services.candidate_save_by_hand(candidate=candidate, user=UserFactory())

    assert newly == ["title", "summary"]
    assert Candidate.objects.get(pk=candidate.pk).protected_fields == ["title", "summary"]


def test_a_reimport_of_the_same_person_leaves_protected_fields_alone_and_updates_the_rest():
    candidate = imported()
    candidate.title = "Staff Engineer"
    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())

    [result] = documents_load(documents=[make_document(title="Principal Engineer II", company="Quanta")])

    candidate.refresh_from_db()
    assert (result.outcome, result.candidate_id) == (SourceFile.Outcome.UPDATED, candidate.pk)
    assert candidate.title == "Staff Engineer"  # protected
    assert candidate.company == "Quanta"  # not protected: the import wins


def test_a_whole_profile_reimported_keeps_the_recruiters_edit():
    data = (PROGAI_DIR / "ingrid-valtonen.txt").read_bytes()
    [first] = documents_load(documents=[parse(data)])
    candidate = Candidate.objects.get(pk=first.candidate_id)
    candidate.company = "Edited by hand Ltd"
    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())
    services.candidate_release_fields(candidate=candidate, field_names=[], user=None)  # nothing to release: no-op

    [again] = documents_load(documents=[parse(data)])  # identical bytes: nothing rewrites the protected company

    candidate.refresh_from_db()
    assert again.candidate_id == candidate.pk
    assert candidate.company == "Edited by hand Ltd"
    assert candidate.protected_fields == ["company"]


def test_releasing_a_field_lets_the_next_import_overwrite_it_even_from_the_same_document():
    candidate = imported()
    candidate.company = "Edited Ltd"
    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())

    released = services.candidate_release_fields(candidate=candidate, field_names=["company"], user=UserFactory())
    [result] = documents_load(documents=[make_document()])

    candidate.refresh_from_db()
    assert released == ["company"]
    assert result.outcome == SourceFile.Outcome.UPDATED
    assert (candidate.company, candidate.protected_fields) == ("Lumen Labs", [])


def test_release_from_the_form_and_a_new_edit_in_one_save():
    candidate = imported()
    candidate.company, candidate.title = "Edited Ltd", "Edited title"
    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())
    candidate.city = "Abuja"

    services.candidate_save_by_hand(candidate=candidate, user=UserFactory(), release=["company"])

    assert Candidate.objects.get(pk=candidate.pk).protected_fields == ["title", "city"]


def test_the_first_edit_of_an_imported_candidate_records_the_imported_state_first():
    candidate = imported()
    assert not candidate.history.exists()  # imports write in bulk, without history
    recruiter = UserFactory(username="rita")
    candidate.title = "Staff Engineer"

    services.candidate_save_by_hand(candidate=candidate, user=recruiter)
    services.candidate_history_snapshot_skills(candidate_id=candidate.pk)

    edit, before = candidate.history.order_by("-history_date")[:2]
    assert (before.history_user, before.title, before.history_change_reason) == (None, "Principal Engineer", "Imported")
    assert (edit.history_user, edit.title) == (recruiter, "Staff Engineer")
    assert sorted(change.field for change in edit.diff_against(before).changes) == ["protected_fields", "title"]
    assert {s["skill"] for s in before.skills} == {"python", "c"}


def test_an_import_between_two_edits_appears_in_the_history_as_its_own_record():
    candidate = imported()
    candidate.title = "Staff Engineer"
    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())
    documents_load(documents=[make_document(company="Quanta", skills=[SkillEntry("rust", 8)])])
    candidate.refresh_from_db()
    candidate.city = "Abuja"

    services.candidate_save_by_hand(candidate=candidate, user=UserFactory())

    reasons = list(candidate.history.order_by("history_date").values_list("history_change_reason", flat=True))
    assert reasons == ["Imported", None, "Changed outside the admin (import)", None]
    by_import = candidate.history.get(history_change_reason="Changed outside the admin (import)")
    assert (by_import.company, by_import.history_user) == ("Quanta", None)
    assert [s["skill"] for s in by_import.skills] == ["rust"]


def test_skill_changes_lists_rescored_added_and_removed_skills():
    before = [{"skill": "python", "name": "Python", "score": 7}, {"skill": "go", "name": "Go", "score": 5}]
    after = [{"skill": "python", "name": "Python", "score": 9}, {"skill": "rust", "name": "Rust", "score": 4}]

    assert skill_changes(before=before, after=after) == [
        ("Python", "7", "9"),
        ("Go", "5", "removed"),
        ("Rust", "—", "4"),
    ]
    assert skill_changes(before=None, after=after) == []


def test_revert_restores_the_fields_and_the_skills_of_a_version_and_protects_them():
    candidate = CandidateFactory(title="Engineer")
    python = CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="python", name="Python"), score=6)
    user = UserFactory()
    services.candidate_save_by_hand(candidate=candidate, user=user)
    services.candidate_history_snapshot_skills(candidate_id=candidate.pk)
    version = candidate.history.order_by("-history_date").first()
    candidate.title = "Manager"
    services.candidate_save_by_hand(candidate=candidate, user=user)
    python.score = 9
    python.save()
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="cobol", name="COBOL"), score=2)
    services.candidate_history_snapshot_skills(candidate_id=candidate.pk)

    reverted = version.instance
    services.candidate_revert(candidate=reverted, record=version, user=user)

    candidate.refresh_from_db()
    assert candidate.title == "Engineer"
    assert "title" in candidate.protected_fields
    assert list(CandidateSkill.objects.filter(candidate=candidate).values_list("skill__slug", "score")) == [
        ("python", 6)
    ]
    latest = candidate.history.order_by("-history_date").first()
    assert latest.history_change_reason.startswith("Reverted to the version of")
    assert latest.skills == version.skills


def score_by_hand(candidate: Candidate, slug: str, score: int) -> None:
    """What the change form's skills inline does: save the row, then tell the service which scores were edited."""
    row = CandidateSkill.objects.get(candidate=candidate, skill__slug=slug)
    CandidateSkill.objects.filter(pk=row.pk).update(score=score)
    services.candidate_skills_edited(candidate_id=candidate.pk, scored_by_hand=[row.skill_id])


def scores(candidate: Candidate) -> dict[str, tuple[int, bool]]:
    return {
        slug: (score, by_hand)
        for slug, score, by_hand in CandidateSkill.objects.filter(candidate=candidate).values_list(
            "skill__slug", "score", "score_by_hand"
        )
    }


def test_a_skill_score_edited_by_hand_survives_a_reimport_and_the_other_scores_follow_the_file():
    candidate = imported()
    score_by_hand(candidate, "python", 4)

    [result] = documents_load(documents=[make_document(skills=[SkillEntry("python", 10), SkillEntry("go", 6)])])

    assert (result.outcome, result.candidate_id) == (SourceFile.Outcome.UPDATED, candidate.pk)
    assert scores(candidate) == {"python": (4, True), "go": (6, False)}
    assert Candidate.objects.get(pk=candidate.pk).skill_scores[str(SkillFactory(slug="python").pk)] == 4


def test_a_skill_scored_by_hand_stays_when_the_next_file_leaves_it_out():
    candidate = imported()
    score_by_hand(candidate, "python", 4)

    documents_load(documents=[make_document(skills=[SkillEntry("go", 6)])])

    assert scores(candidate) == {"python": (4, True), "go": (6, False)}


def test_releasing_a_candidates_skill_scores_lets_the_same_document_write_them_again():
    candidate = imported()
    score_by_hand(candidate, "python", 4)

    released = services.candidate_release_skill_scores(candidate=candidate, user=UserFactory())
    [result] = documents_load(documents=[make_document()])

    assert released == ["python"]
    assert result.outcome == SourceFile.Outcome.UPDATED
    assert scores(candidate)["python"] == (9, False)


def test_a_revert_protects_the_skill_scores_it_changes_and_only_those():
    candidate = imported()
    services.candidate_history_catch_up(candidate_id=candidate.pk)
    version = candidate.history.order_by("-history_date", "-history_id").first()
    others = [SkillEntry("c-language", 7), SkillEntry("cprogramming-language", 10)]  # as the first file has them
    documents_load(documents=[make_document(skills=[SkillEntry("python", 5), *others])])
    before = scores(candidate)

    services.candidate_revert(candidate=version.instance, record=version, user=UserFactory())
    reverted = scores(candidate)
    documents_load(documents=[make_document(skills=[SkillEntry("python", 2), SkillEntry("c-language", 1)])])

    assert before["python"] == (5, False)
    assert reverted["python"] == (9, True)  # a revert is an edit by hand
    assert not any(by_hand for slug, (_, by_hand) in reverted.items() if slug != "python")
    assert scores(candidate)["python"] == (9, True)
