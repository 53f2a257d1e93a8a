"""Issue 14: ``manage.py skills_audit`` lists the skills imports created, by frequency, with the labels seen."""

import io

import pytest
from django.core.management import call_command

from ingestion.documents import SkillEntry
from ingestion.services import documents_load
from profiles.selectors import skills_created_by_imports
from profiles.vocabulary import CURATED_SKILLS, read_vocabulary
from tests.fixtures import VOCAB_DIR
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db


def _import(name: str, *labels: str) -> None:
    documents_load(documents=[make_document(name, skills=[SkillEntry(label, 7) for label in labels])])


def _seeded() -> set[str]:
    return {slug for slug, _, _ in read_vocabulary(VOCAB_DIR).skills} | set(CURATED_SKILLS)


def test_the_skills_imports_created_are_listed_most_used_first_with_their_labels():
    _import("Ada Quell", "Frobnicator Pro", "Python")
    _import("Bo Quell", "frobnicator   pro", "Gizmo Kit")
    _import("Cy Quell", "Frobnicator Pro")

    created = skills_created_by_imports(seeded_slugs=_seeded())

    assert [(s.slug, s.candidates) for s in created] == [("frobnicator-pro", 3), ("gizmo-kit", 1)]
    assert created[0].labels == (("Frobnicator Pro", 2), ("frobnicator   pro", 1))


def test_the_command_prints_them(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    _import("Ada Quell", "Frobnicator Pro", "Python")
    out = io.StringIO()

    call_command("skills_audit", stdout=out)

    lines = out.getvalue().splitlines()
    assert len(lines) == 2  # a heading, and the one skill no vocabulary seeded (Python is seeded)
    assert "frobnicator-pro (skill): 'Frobnicator Pro' (1)" in lines[1]


def test_the_command_says_when_every_label_maps_to_a_seeded_skill(settings):
    settings.VOCAB_DIR = VOCAB_DIR
    _import("Ada Quell", "Python", "Angular 2+")
    out = io.StringIO()

    call_command("skills_audit", stdout=out)

    assert "No skill was created by imports" in out.getvalue()
