"""Re-resolving stored labels (profiles.skills_reresolve, manage.py reresolve_skills): the skills older imports made
of labels the resolver now reads move to the known skill, or to the candidate's text, in batches; a dry run changes
nothing and prints what would change."""

import io

import pytest
from django.core.management import call_command

from profiles.models import Candidate, CandidateSkill, Skill
from profiles.services import skills_upsert
from profiles.skills_reresolve import skills_reresolve
from tests.factories import CandidateFactory

pytestmark = pytest.mark.django_db

# What older imports made of these labels: a skill each, named as written.
JUNK = {
    "Usage with Docker": "usage-with-docker",
    "Svelt": "svelt",
    "Teamwork": "teamwork",
    "Zq Quillwork": "zq-quillwork",
}


def _older_import(name: str, docker_score: int | None = None) -> Candidate:
    skills_upsert(skills=[(slug, label, Skill.Kind.SKILL) for label, slug in JUNK.items()], aliases=[])
    candidate = CandidateFactory(name=name)
    for position, (label, slug) in enumerate(JUNK.items()):
        CandidateSkill.objects.create(
            candidate=candidate, skill=Skill.objects.get(slug=slug), score=6, label=label, position=position
        )
    if docker_score is not None:
        CandidateSkill.objects.create(
            candidate=candidate, skill=Skill.objects.get(slug="docker"), score=docker_score, label="Docker", position=9
        )
    return candidate


def _skills(candidate: Candidate) -> dict[str, tuple[int, str]]:
    rows = CandidateSkill.objects.filter(candidate=candidate).select_related("skill")
    return {row.skill.slug: (row.score, row.label) for row in rows}


def test_labels_move_to_the_known_skill_or_to_text():
    candidate = _older_import("Wren Halvorsen")

    summary = skills_reresolve(dry_run=False, batch_size=1)

    assert _skills(candidate) == {
        "docker": (6, "Usage with Docker"),
        "svelte": (6, "Svelt"),
        "zq-quillwork": (6, "Zq Quillwork"),  # names no known skill: stays
    }
    candidate.refresh_from_db()
    assert candidate.other_skills == ["Teamwork"]
    assert (summary.candidates, summary.moved, summary.to_text) == (1, 2, 1)
    assert candidate.skill_scores.keys() == {str(pk) for pk in candidate.skills.values_list("skill_id", flat=True)}


def test_a_skill_the_candidate_has_already_keeps_the_higher_score():
    candidate = _older_import("Idris Kovac", docker_score=8)

    skills_reresolve(dry_run=False)

    assert _skills(candidate)["docker"] == (8, "Docker")


def test_every_batch_is_read():
    first, second = _older_import("Ana Brisk"), _older_import("Bo Tallin")

    skills_reresolve(dry_run=False, batch_size=1)

    assert "docker" in _skills(first)
    assert "docker" in _skills(second)


def test_the_dry_run_prints_what_would_change_and_changes_nothing():
    candidate = _older_import("Mira Solheim")
    before = _skills(candidate)
    out = io.StringIO()

    call_command("reresolve_skills", "--dry-run", stdout=out)

    assert _skills(candidate) == before
    printed = out.getvalue()
    assert f"#{candidate.pk}: “Usage with Docker” (usage-with-docker) → docker" in printed
    assert f"#{candidate.pk}: “Teamwork” (teamwork) → kept as text, not a skill" in printed
    assert "1 candidates would change: 2 labels to a known skill, 1 kept as text." in printed
