"""Labels of the shipped vocabulary that are English words or name two platforms' tools ("Compose", "Room") name no
skill in a job post on their own: a post writes the tool's whole name ("Jetpack Compose", "Docker Compose"). No
database."""

from __future__ import annotations

import functools

import pytest

from jobs.criteria import extract_criteria
from profiles.shipped_vocabulary import read_shipped
from profiles.vocabulary import SkillVocabulary, seeded_vocabulary
from tests.jobs.helpers import CITIES


@functools.cache
def shipped() -> SkillVocabulary:
    return seeded_vocabulary(read_shipped())


def _slugs(requirement: str) -> set[str]:
    criteria = extract_criteria(f"Backend Engineer\n\nRequirements:\n- {requirement}\n", shipped(), cities=CITIES)
    return {slug for slug, _ in (*criteria.required, *criteria.preferred)}


@pytest.mark.parametrize(
    ("requirement", "present", "absent"),
    [
        ("Docker, Compose, Kubernetes", {"docker", "kubernetes"}, {"jetpack-compose", "composer"}),
        ("Experience with Room booking systems", set(), {"android-room"}),
    ],
)
def test_a_bare_compose_or_room_in_a_post_is_no_android_skill(requirement, present, absent):
    found = _slugs(requirement)

    assert (present <= found, found & absent) == (True, set())


def test_the_android_tools_written_in_full_are_still_read():
    assert {"kotlin", "jetpack-compose", "android-room"} <= _slugs("Kotlin, Jetpack Compose, Android Room")
