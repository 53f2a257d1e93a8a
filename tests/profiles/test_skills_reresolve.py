"""Re-resolving stored labels (profiles.skills_reresolve, manage.py reresolve_skills, migration 0033): labels on the
skills older imports made move to the known skill, or to the candidate's text, in batches, each move recorded and
undoable; misspellings are only listed; skills a curator made or touched, or a vocabulary seeded, are left alone."""

import io

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command

from core.labels import label_key
from profiles.models import Candidate, CandidateSkill, Skill, SkillLabelMove
from profiles.services import candidates_merge, skills_merge, skills_upsert
from profiles.skills_reresolve import skills_reresolve
from profiles.vocabulary import skill_display_name, skill_slug
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

# What older imports made of these labels: a skill each, named and aliased as an import names a label it does not know.
JUNK = ["Usage with Docker", "Svelt", "Teamwork", "Zq Quillwork"]


def _made_by_an_import(label: str) -> Skill:
    key = label_key(label)
    skills_upsert(
        skills=[(skill_slug(key), skill_display_name(key), Skill.Kind.SKILL)], aliases=[(key, skill_slug(key))]
    )
    return Skill.objects.get(slug=skill_slug(key))


def _older_import(name: str, labels=JUNK, *, docker: tuple[int, bool] | None = None, by_hand=False) -> Candidate:
    candidate = CandidateFactory(name=name)
    for position, label in enumerate(labels):
        CandidateSkill.objects.create(
            candidate=candidate,
            skill=_made_by_an_import(label),
            score=6,
            label=label,
            position=position,
            score_by_hand=by_hand,
        )
    if docker is not None:
        CandidateSkill.objects.create(
            candidate=candidate,
            skill=Skill.objects.get(slug="docker"),
            score=docker[0],
            score_by_hand=docker[1],
            label="Docker",
            position=9,
        )
    return candidate


def _skills(candidate: Candidate) -> dict[str, tuple[int, str, bool]]:
    rows = CandidateSkill.objects.filter(candidate=candidate).select_related("skill")
    return {row.skill.slug: (row.score, row.label, row.score_by_hand) for row in rows}


def test_labels_move_to_the_known_skill_or_to_text_and_a_misspelling_stays():
    candidate = _older_import("Wren Halvorsen")

    summary = skills_reresolve(dry_run=False, batch_size=1)

    assert _skills(candidate) == {
        "docker": (6, "Usage with Docker", False),
        "svelt": (6, "Svelt", False),  # a misspelling is for a curator to decide
        "zq-quillwork": (6, "Zq Quillwork", False),  # names no known skill: stays
    }
    candidate.refresh_from_db()
    assert candidate.other_skills == ["Teamwork"]
    assert (summary.candidates, summary.moved, summary.to_text) == (1, 1, 1)
    assert summary.for_curator == {"“Svelt” (svelt) → svelte? (typo; not moved)": 1}
    assert candidate.skill_scores.keys() == {str(pk) for pk in candidate.skills.values_list("skill_id", flat=True)}
    moves = {(m.label, m.skill_slug, tuple(m.to_slugs)) for m in SkillLabelMove.objects.filter(candidate=candidate)}
    assert moves == {("Usage with Docker", "usage-with-docker", ("docker",)), ("Teamwork", "teamwork", ())}


def test_a_phrase_naming_several_skills_is_listed_not_moved():
    first, second = _older_import("Ola Brenn", ["PHP MVC Docker"]), _older_import("Eli Brenn", ["PHP MVC Docker"])

    summary = skills_reresolve(dry_run=False, batch_size=1)

    assert set(_skills(first)) == set(_skills(second)) == {"php-mvc-docker"}
    assert summary.for_curator == {"“PHP MVC Docker” (php-mvc-docker) → php, docker? (phrase; not moved)": 2}


def test_a_skill_the_candidate_has_already_keeps_its_row_and_label_and_the_higher_score():
    candidate = _older_import("Idris Kovac", docker=(4, False))
    CandidateSkill.objects.filter(candidate=candidate, label="Usage with Docker").update(score=8)

    skills_reresolve(dry_run=False)

    assert _skills(candidate)["docker"] == (8, "Docker", False)
    move = SkillLabelMove.objects.get(candidate=candidate, label="Usage with Docker")  # the label as written stays
    assert (move.score, move.kept_before) == (8, [["docker", 4, False]])


def test_a_score_set_by_hand_on_the_moved_row_stays_set_by_hand():
    candidate = _older_import("Tam Oyelaran", ["Usage with Docker"], docker=(9, False), by_hand=True)

    skills_reresolve(dry_run=False)

    assert _skills(candidate) == {"docker": (6, "Docker", True)}


def test_a_score_set_by_hand_on_the_kept_row_wins():
    candidate = _older_import("Tam Ivers", ["Usage with Docker"], docker=(3, True))
    CandidateSkill.objects.filter(candidate=candidate, label="Usage with Docker").update(score=9)

    skills_reresolve(dry_run=False)

    assert _skills(candidate) == {"docker": (3, "Docker", True)}


def test_skills_a_curator_made_or_touched_are_left_alone(admin_user):
    candidate = _older_import("Nia Farrow", ["Usage with Docker", "Teamwork", "Usage with Svelte", "Linux tips"])
    logged = Skill.objects.get(slug="usage-with-docker")
    LogEntry.objects.create(
        user=admin_user,
        content_type=ContentType.objects.get_for_model(Skill),
        object_id=str(logged.pk),
        object_repr=str(logged),
        action_flag=CHANGE,
    )
    Skill.objects.filter(slug="teamwork").update(name="Teamwork")  # renamed: a curator's name
    skills_merge(source=_made_by_an_import("Svelte usage"), target=Skill.objects.get(slug="usage-with-svelte"))

    skills_reresolve(dry_run=False)

    assert set(_skills(candidate)) == {"usage-with-docker", "teamwork", "usage-with-svelte", "linux"}
    assert not Candidate.objects.get(pk=candidate.pk).other_skills


def test_a_skill_the_vocabulary_folder_seeded_is_left_alone(tmp_path):
    (tmp_path / "github_topics.txt").write_text("teamwork\n")
    candidate = _older_import("Rui Castel", ["Teamwork"])

    skills_reresolve(dry_run=False, vocab_dir=tmp_path)

    assert set(_skills(candidate)) == {"teamwork"}


def test_every_batch_is_read():
    first, second = _older_import("Ana Brisk"), _older_import("Bo Tallin")

    skills_reresolve(dry_run=False, batch_size=1)

    assert "docker" in _skills(first)
    assert "docker" in _skills(second)


def test_a_batch_reads_and_writes_in_the_same_few_statements_however_many_candidates(django_assert_max_num_queries):
    for index in range(6):
        _older_import(f"Kit Quorra {index}")

    with django_assert_max_num_queries(30):
        skills_reresolve(dry_run=False, batch_size=100)


def test_undo_puts_every_move_back():
    candidate = _older_import("Lio Marsh", docker=(4, False))
    CandidateSkill.objects.filter(candidate=candidate, label="Usage with Docker").update(score=8, score_by_hand=True)
    before = _skills(candidate)
    skills_reresolve(dry_run=False)
    out = io.StringIO()

    call_command("reresolve_skills", "--undo", stdout=out)

    assert _skills(candidate) == before
    assert Candidate.objects.get(pk=candidate.pk).other_skills == []
    assert not SkillLabelMove.objects.exists()
    assert "2 moves undone." in out.getvalue()


def test_the_dry_run_prints_what_would_change_and_changes_nothing():
    candidate = _older_import("Mira Solheim")
    before = _skills(candidate)
    out = io.StringIO()

    call_command("reresolve_skills", "--dry-run", stdout=out)

    assert _skills(candidate) == before
    assert not SkillLabelMove.objects.exists()
    printed = out.getvalue()
    assert f"#{candidate.pk}: “Usage with Docker” (usage-with-docker) → docker" in printed
    assert f"#{candidate.pk}: “Teamwork” (teamwork) → kept as text, not a skill" in printed
    assert "  “Svelt” (svelt) → svelte? (typo; not moved): 1 candidate" in printed
    assert "1 candidates would change: 1 labels to a known skill, 1 kept as text, 1 listed for a curator." in printed


def test_the_record_of_a_move_follows_the_person_into_a_merge(admin_user):
    merged = _older_import("Pia Lund", ["Usage with Docker"])
    survivor = CandidateFactory(name="Pia Lund")
    skills_reresolve(dry_run=False)

    candidates_merge(survivor=survivor, others=[merged], user=admin_user)

    assert list(SkillLabelMove.objects.values_list("candidate_id", "label")) == [(survivor.pk, "Usage with Docker")]
