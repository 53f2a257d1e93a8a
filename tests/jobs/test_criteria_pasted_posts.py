"""What a newcomer saw pasting posts, read with the shipped vocabulary as a fresh install reads them: a company's name
in brackets after the title is no skill, an overview's remote field says the job is remote, and "documentation" is
no skill on its own. Fictional posts; no database."""

from __future__ import annotations

import functools

import pytest

from jobs.criteria import Criteria, extract_criteria
from profiles.shipped_vocabulary import read_shipped
from profiles.vocabulary import SkillVocabulary, seeded_vocabulary


@functools.cache
def shipped() -> SkillVocabulary:
    return seeded_vocabulary(read_shipped())


def criteria(text: str) -> Criteria:
    return extract_criteria(text, shipped())


def required(text: str) -> list[str]:
    return [slug for slug, _ in criteria(text).required]


# --- A bracket after the title: the job's technology or the company ---------------------------------------------------


@pytest.mark.parametrize(
    ("title", "company_word"),
    [
        ("Senior Backend Engineer (Code Metal)", "metal"),
        ("Backend Engineer (Swift Logistics)", "swift"),
        ("Platform Engineer (Kafka Freight)", "kafka"),
        ("Backend Engineer - Swift Logistics", "swift"),
        ("Backend Engineer @ Code Metal", "metal"),
    ],
)
def test_a_company_named_after_the_title_is_no_required_skill(title, company_word):
    assert required(f"{title}\n\nRequirements\n- Python and PostgreSQL\n") == ["python", "postgresql"]
    assert company_word not in criteria(f"{title}\n\nRequirements\n- Python and PostgreSQL\n").preferred


@pytest.mark.parametrize(
    ("title", "wanted"),
    [
        ("Backend Engineer (Ruby on Rails)", ["rails"]),
        ("Backend Engineer (Go / Kubernetes)", ["go", "kubernetes"]),
        ("Backend Engineer (Python, Django)", ["python", "django"]),
        ("Mobile Engineer (Swift)", ["swift"]),
    ],
)
def test_a_bracket_of_technologies_after_the_title_is_the_jobs_technology(title, wanted):
    assert required(f"{title}\n\nRequirements\n- PostgreSQL\n") == [*wanted, "postgresql"]


def test_a_company_bracket_names_a_skill_the_post_asks_for_elsewhere():
    post = "Backend Engineer (Swift Logistics)\n\nRequirements\n- Go\n\nNice to have\n- Swift\n"
    assert (required(post), criteria(post).preferred) == (["go"], ("swift",))


# --- Remote, from an overview's field ---------------------------------------------------------------------------------

_ABOUT = "Data Engineer\n\nAbout the job\nWe build pipelines for grocers.\n"


@pytest.mark.parametrize(
    "field",
    [
        "Location Type: Remote",
        "Workplace type: Remote",
        "Work type: Remote",
        "Remote: yes",
        "Location: Remote (US)",
        "- Location type: remote",
    ],
)
def test_an_overviews_remote_field_makes_the_job_remote(field):
    assert criteria(f"{_ABOUT}{field}\n\nRequirements\n- Python\n").remote is True


@pytest.mark.parametrize(
    "field", ["Location: London", "Location Type: Hybrid", "Workplace type: On-site", "Remote: no"]
)
def test_other_overview_fields_say_nothing_of_remote_work(field):
    assert criteria(f"{_ABOUT}{field}\n\nRequirements\n- Python\n").remote is not True


def test_a_location_field_keeps_its_country():
    found = criteria(f"{_ABOUT}Location: London\n\nRequirements\n- Python\n")
    assert (list(found.countries), found.remote) == (["GB"], None)


# --- Generic words ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["Strong documentation habits", "You write clear documentation", "Documentation"])
def test_documentation_is_no_required_skill_on_its_own(line):
    found = criteria(f"Backend Engineer\n\nRequirements\n- Python\n- {line}\n")
    assert (required(f"Backend Engineer\n\nRequirements\n- Python\n- {line}\n"), found.preferred) == (["python"], ())


# --- The shipped vocabulary's data and cloud tools --------------------------------------------------------------------


def test_orchestrators_and_aws_services_a_data_post_names_are_known():
    found = criteria(
        "Data Engineer\n\nRequirements\n- Prefect, Airflow, or Dagster\n- EKS and EventBridge\n- RBAC in Kubernetes\n"
    )
    assert required_of(found) == [
        "prefect", "airflow", "dagster", "amazon-eks", "amazon-eventbridge", "rbac", "kubernetes"
    ]  # fmt: skip
    assert found.unrecognised == ()
    assert shipped_names()["rbac"] == "RBAC"


@pytest.mark.parametrize(
    "line", ["Distributed training with Ray", "Experience with PyTorch and Ray", "Ray, Spark or Dask at scale"]
)
def test_ray_in_a_technical_context_is_the_framework(line):
    assert "ray" in required(f"ML Engineer\n\nRequirements\n- Python\n- {line}\n")


@pytest.mark.parametrize(
    "text",
    [
        "ML Engineer\n\nAbout the team\nRay and Dana lead our platform group.\n\nRequirements\n- Python\n",
        "ML Engineer\n\nRequirements\n- Python\n\nHow to apply\nSend your CV to Ray, our recruiter.\n",
    ],
)
def test_ray_as_a_persons_name_is_no_skill(text):
    assert "ray" not in criteria(text).skills


def required_of(found: Criteria) -> list[str]:
    return [slug for slug, _ in found.required]


@functools.cache
def shipped_names() -> dict[str, str]:
    return {slug: name for slug, name, _ in read_shipped().skills}
