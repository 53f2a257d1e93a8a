"""``manage.py skills_audit`` lists the skills imports created, by frequency, with the labels seen, and the pairs of
skills that look like one technology."""

import io

import pytest
from django.core.management import call_command

from ingestion.documents import SkillEntry
from ingestion.services import documents_load
from profiles.selectors import skills_created_by_imports
from profiles.skill_pairs import vocabulary_slugs
from profiles.vocabulary import read_vocabulary
from tests.factories import CandidateSkillFactory, SkillFactory
from tests.fixtures import VOCAB_DIR
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db


def _import(name: str, *labels: str) -> None:
    documents_load(documents=[make_document(name, skills=[SkillEntry(label, 7) for label in labels])])


def _seeded() -> set[str]:
    return {slug for slug, _, _ in read_vocabulary(VOCAB_DIR).skills} | vocabulary_slugs()


def test_the_skills_imports_created_are_listed_most_used_first_with_their_labels():
    _import("Ada Quell", "Frobnicator Pro", "Python")
    _import("Bo Quell", "frobnicator   pro", "Blorptastic")
    _import("Cy Quell", "Frobnicator Pro")

    created = skills_created_by_imports(seeded_slugs=_seeded())

    assert [(s.slug, s.candidates) for s in created] == [("frobnicator-pro", 3), ("blorptastic", 1)]
    assert created[0].labels == (("Frobnicator Pro", 2), ("frobnicator   pro", 1))


def test_the_command_prints_them(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    _import("Ada Quell", "Frobnicator Pro", "Python")
    out = io.StringIO()

    call_command("skills_audit", stdout=out)

    created = out.getvalue().split("\n\n")[0].splitlines()
    assert len(created) == 2  # a heading, and the one skill no vocabulary seeded (Python is seeded)
    assert "frobnicator-pro (skill): 'Frobnicator Pro' (1)" in created[1]


def test_the_command_says_when_every_label_maps_to_a_seeded_skill(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    _import("Ada Quell", "Python", "Angular 2+")
    out = io.StringIO()

    call_command("skills_audit", stdout=out)

    assert "No skill was created by imports" in out.getvalue()


def _skill_with_candidates(slug: str, n: int) -> None:
    skill = SkillFactory(slug=slug)
    for _ in range(n):
        CandidateSkillFactory(skill=skill)


def test_the_command_lists_the_skills_that_look_like_one_technology_with_their_candidates(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    _skill_with_candidates("frobnicator", 2)
    _skill_with_candidates("frobnicator-ci", 1)  # as an older import may have left it, before an alias knew it
    out = io.StringIO()

    call_command("skills_audit", "--limit", "0", stdout=out)

    pairs = out.getvalue().split("Skills that look like one technology", 1)[1].splitlines()
    assert pairs[1] == "  frobnicator-ci (1 candidate) → frobnicator (2 candidates)"  # the most candidates first


def test_the_command_says_how_many_pairs_it_left_out(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    for n in range(3):
        _skill_with_candidates(f"widget{n}", 2)
        _skill_with_candidates(f"widget{n}js", 1)
    out = io.StringIO()

    call_command("skills_audit", "--limit", "2", stdout=out)

    listed = out.getvalue().split("Skills that look like one technology", 1)[1].splitlines()[1:]
    assert [line.split(" (")[0] for line in listed[:2]] == ["  widget0js", "  widget1js"]
    assert listed[2].startswith("  … and ")
    assert len(listed) == 3


def test_on_a_freshly_migrated_database_the_command_finds_no_look_alikes(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    out = io.StringIO()

    call_command("skills_audit", stdout=out)

    assert out.getvalue().split("\n\n")[-1] == "No two skills look like one technology.\n"
