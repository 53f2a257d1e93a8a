"""The employer's own name (jobs/criteria/employer.py): no skill where the post speaks of the company (the title's
"at X", the heading block, "About X", "At X, we ...", prose about its product), a skill where the post asks for it
(an item under a required or preferred heading, or after a cue such as "experience with"). Read with the shipped
vocabulary; no database."""

from __future__ import annotations

import pytest

from tests.jobs.test_criteria_shipped import criteria


def ignored(text: str) -> dict[str, str]:
    return {item.skill: item.reason for item in criteria(text).ignored}


@pytest.mark.parametrize(
    ("text", "required"),
    [
        (
            "Senior Backend Engineer at Docker\n\nRequirements:\n- Strong experience with Docker and Go\n",
            [("docker", 7), ("go", 7)],
        ),
        ("Engineer at Redis\n\nRequirements:\n- C, Redis internals\n", [("c", 5), ("redis", 5)]),
        (
            "Backend Engineer at GitLab\n\nRequirements:\n- GitLab administration\n- Ruby\n",
            [("gitlab", 5), ("ruby", 5)],
        ),
    ],
)
def test_the_employers_name_listed_under_a_required_heading_is_required(text, required):
    found = criteria(text)
    assert sorted(found.required) == required
    assert not [item for item in found.ignored if item.skill in dict(required)]


def test_the_employers_name_under_a_preferred_heading_is_preferred():
    found = criteria("Backend Engineer at GitLab\n\nRequirements:\n- Ruby\n\nNice to have:\n- GitLab\n")
    assert (found.required, found.preferred) == ((("ruby", 5),), ("gitlab",))


@pytest.mark.parametrize(
    "sentence",
    [
        "You will build our platform; knowledge of Redis and Go is expected.",
        "We want someone with proficiency in Redis and Go.",
        "Hands-on experience with Go and Redis.",
    ],
)
def test_the_employers_name_after_a_skill_cue_is_a_skill(sentence):
    assert "redis" in criteria(f"Backend Engineer at Redis\n\n{sentence}\n").skills


@pytest.mark.parametrize(
    "text",
    [
        "Backend Engineer at Docker\n\nWe make Docker Desktop. Requirements:\n- Go\n",
        "Backend Engineer\n\nAbout Docker\nWe make developer tools.\n\nRequirements:\n- Go\n",
        "Backend Engineer\n\nAt Docker, we build tools for developers.\n\nRequirements:\n- Go\n",
        "Backend Engineer\nDocker\n\nKeep the Docker build service fast.\n\nRequirements:\n- Go\n",
        "Backend Engineer at Docker\n\nRequirements:\n- Go\n- Excited about Docker's mission\n",
    ],
)
def test_the_employers_name_where_the_post_speaks_of_the_company_is_no_skill(text):
    found = criteria(text)
    assert [slug for slug, _ in found.required] == ["go"]
    assert ignored(text)["docker"] == "not-a-skill"


def test_the_company_sentence_under_a_required_heading_stays_about_the_company():
    text = "Backend Engineer\n\nRequirements:\n- At Docker, we ship weekly.\n- Go\n"
    assert [slug for slug, _ in criteria(text).required] == ["go"]
