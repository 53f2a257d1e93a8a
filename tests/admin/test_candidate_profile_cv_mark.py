"""The profile marks the skill bars a CV scored ("from CV"): a CV's 7 is a claim scored by its sections and the
recency of its positions, not a 7 backed by GitHub work, and a recruiter reads the difference on the bar."""

import re

import pytest
from django.urls import reverse

from devtools.cvs import cv_plain_text, sample_cv
from ingestion.models import SourceFile
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory, SourceFileFactory
from tests.ingestion.imports import import_file

pytestmark = pytest.mark.django_db

MARK = re.compile(r'<span class="skill-origin" title="([^"]+)">from CV</span>')


def bars(admin_client, candidate) -> dict[str, bool]:
    """{skill name: whether its bar carries the mark}."""
    html = admin_client.get(reverse("admin:profiles_candidate_change", args=[candidate.pk])).content.decode()
    found = {}
    for item in re.findall(r'<li class="skill-bar[^"]*"[^>]*>(.*?)</li>', html, re.S):
        name = re.search(r'class="skill-name(?:-text)?">([^<]+)<', item).group(1)
        found[name] = bool(MARK.search(item))
    return found


def test_the_skills_a_cv_scored_are_marked_with_why(admin_client, tmp_path):
    path = tmp_path / "maelis.txt"
    path.write_text(cv_plain_text(sample_cv()), encoding="utf-8")
    candidate = import_file(path)

    html = admin_client.get(reverse("admin:profiles_candidate_change", args=[candidate.pk])).content.decode()

    marked = bars(admin_client, candidate)
    assert len(marked) >= 7  # the skills section's seven, and the positions' mentions
    assert all(marked.values()), marked
    (title, *_) = MARK.findall(html)
    assert title == "Scored from the CV's skills section and positions, not from GitHub work"


@pytest.mark.parametrize(
    ("formats", "marked"),
    [
        (["progai"], False),
        (["jsonresume"], False),
        (["cv"], True),
        (["progai", "cv"], True),  # the newest file's document gave the skills
        (["cv", "progai"], False),
        ([], False),  # entered by hand
    ],
)
def test_the_mark_follows_the_file_that_gave_the_skills(admin_client, formats, marked):
    candidate = CandidateFactory(name="Tamsin Quill")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="kotlin", name="Kotlin"), score=7)
    for fmt in formats:
        SourceFileFactory(candidate=candidate, format=fmt, status=SourceFile.Status.IMPORTED)
    SourceFileFactory(candidate=candidate, format="progai", status=SourceFile.Status.FAILED, error="Not JSON.")

    assert bars(admin_client, candidate) == {"Kotlin": marked}


def test_a_score_set_by_hand_is_not_marked(admin_client):
    candidate = CandidateFactory(name="Bertil Albarrán")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="swift", name="Swift"), score=5)
    CandidateSkillFactory(
        candidate=candidate, skill=SkillFactory(slug="java", name="Java"), score=9, score_by_hand=True
    )
    SourceFileFactory(candidate=candidate, format="cv", status=SourceFile.Status.IMPORTED)

    assert bars(admin_client, candidate) == {"Swift": True, "Java": False}


def test_a_marked_skill_s_name_is_escaped(admin_client):
    candidate = CandidateFactory(name="Anouk Tissot")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="x-script", name="<b>X</b>"), score=6)
    SourceFileFactory(candidate=candidate, format="cv", status=SourceFile.Status.IMPORTED)

    html = admin_client.get(reverse("admin:profiles_candidate_change", args=[candidate.pk])).content.decode()

    assert "<b>X</b>" not in html
    assert "&lt;b&gt;X&lt;/b&gt;" in html
