"""extract_criteria with the vocabulary that ships with the product (profiles/data/vocabulary.tsv), as a fresh install
reads a pasted post: our own posts of tests/fixtures/jobs_shipped equal their expected files, fields of work and
model runtimes are known, a cloud's services in brackets are its own, a degree's field is no skill wherever the word
"degree" stands, and the shared corpus reaches the recall and precision bench/job_posts.py measures. No database."""

from __future__ import annotations

import functools
import json

import pytest

from bench.job_posts import Score, score_post
from jobs.criteria import Criteria, extract_criteria
from profiles.shipped_vocabulary import read_shipped
from profiles.vocabulary import SkillVocabulary, seeded_vocabulary
from tests.fixtures import CORPUS_DIR, FIXTURES_DIR, NO_CORPUS
from tests.jobs.helpers import CITIES, Expected, differences

SHIPPED_POSTS_DIR = FIXTURES_DIR / "jobs_shipped"
SHIPPED_POSTS = sorted(path.stem for path in SHIPPED_POSTS_DIR.glob("*.txt"))


@functools.cache
def shipped() -> SkillVocabulary:
    return seeded_vocabulary(read_shipped())


def criteria(text: str) -> Criteria:
    return extract_criteria(text, shipped(), cities=CITIES)


def required(text: str) -> list[str]:
    return [slug for slug, _ in criteria(text).required]


@pytest.mark.parametrize("name", SHIPPED_POSTS)
def test_our_posts_read_with_the_shipped_vocabulary_give_their_expected_criteria(name):
    found = criteria((SHIPPED_POSTS_DIR / f"{name}.txt").read_text(encoding="utf-8"))
    assert differences(found, Expected.read(SHIPPED_POSTS_DIR / f"{name}.expected.json")) == []


@pytest.mark.parametrize(
    ("line", "slug"),
    [
        ("Solid OOP and clean interfaces.", "oop"),
        ("Object-oriented programming in Java.", "oop"),
        ("Models exported to ONNX.", "onnx"),
        ("Experience with TensorRT.", "tensorrt"),
        ("Comfort with linear algebra.", "linear-algebra"),
        ("Graphics programming on consoles.", "computer-graphics"),
        ("Experience building bioinformatics pipelines.", "bioinformatics"),
        ("Event-driven design in production.", "event-driven-architecture"),
        ("Event sourcing and CQRS.", "event-sourcing"),
        ("Domain-driven design.", "domain-driven-design"),
        ("Zephyr and FreeRTOS on microcontrollers.", "zephyr-rtos"),
        ("Buses such as SPI and I2C.", "spi"),
        ("Test-driven development.", "tdd"),
    ],
)
def test_fields_of_work_and_model_runtimes_are_known(line, slug):
    assert slug in required(f"Requirements:\n- {line}\n")


@pytest.mark.parametrize(
    ("line", "wanted", "not_wanted"),
    [
        ("AWS (Batch, S3, Lambda).", {"aws", "amazon-s3", "aws-lambda"}, {"batchfile"}),
        ("Cloud work on AWS (Batch and S3).", {"aws", "amazon-s3"}, {"batchfile"}),
        ("Java with Spring (Boot, Batch).", {"java", "spring-boot", "spring-batch"}, {"batchfile"}),
        ("Google Cloud and Azure (Functions, DevOps).", {"azure-functions", "azure-devops"}, set()),
        ("Batch, PowerShell and Bash scripting.", {"batchfile", "powershell"}, set()),
        ("AWS (ECS, RDS) and GCP (Cloud Functions).", {"amazon-ecs", "amazon-rds", "google-cloud-functions"}, set()),
    ],
)
def test_a_clouds_services_in_brackets_after_it_are_its_own(line, wanted, not_wanted):
    found = set(criteria(f"Requirements:\n- {line}\n").skills)
    assert wanted <= found
    assert not (not_wanted & found)


@pytest.mark.parametrize(
    "line",
    [
        "A Physics or Data Science degree.",
        "A Data Science, Statistics or Computer Science degree, or equivalent experience.",
        "Data Science degree preferred.",
    ],
)
def test_the_field_of_a_degree_written_before_the_word_degree_is_no_skill(line):
    found = criteria(f"Requirements:\n- {line}\n- Python.\n")
    assert [slug for slug, _ in found.required] == ["python"]
    assert "data-science" not in found.preferred
    assert ("data-science", "not-a-skill") in {(item.skill, item.reason) for item in found.ignored}


def test_examples_after_e_g_with_a_comma_are_named_in_a_technical_context():
    found = criteria("Requirements:\n- Microcontrollers (e.g., ARM, AVR) and buses (e.g., SPI, I2C).\n")
    assert {"arm", "avr", "spi", "i2c"} <= set(found.skills)


def test_a_word_in_ing_before_its_object_is_the_verb_not_the_language():
    found = criteria("Requirements:\n- Hands-on experience in processing large datasets with Scala.\n- Processing.\n")
    assert [slug for slug, _ in found.required] == ["scala", "processing"]
    assert "processing" not in required("Requirements:\n- Experience in processing large datasets with Scala.\n")


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("monitoring and alerting", "monitoring"),
        ("logging and tracing with OpenTelemetry", "logging"),
        ("networking and security basics", "networking"),
        ("Experience with Prometheus, monitoring and alerting.", "monitoring"),
        ("caching strategies", "caching"),
        ("caching for web APIs", "caching"),
    ],
)
def test_a_word_in_ing_before_a_conjunction_a_preposition_or_as_a_compounds_first_noun_is_the_skill(line, wanted):
    # Practices a database learns from imported profiles' labels, which the shipped table does not list.
    slugs = {**shipped().slugs, "logging": "logging", "networking": "networking", "caching": "caching"}
    found = extract_criteria(
        f"Requirements:\n- Python\n- {line}\n", SkillVocabulary(slugs=slugs, words=frozenset(slugs))
    )
    assert wanted in {slug for slug, _ in found.required}


@pytest.mark.parametrize("line", ["Operating systems internals.", "Databases and APIs at scale."])
def test_kinds_of_software_are_no_skill_on_their_own(line):
    found = criteria(f"Requirements:\n- Kotlin.\n- {line}\n")
    assert ([slug for slug, _ in found.required], found.preferred, found.unrecognised) == (["kotlin"], (), ())


@pytest.mark.parametrize(
    "sentence", ["OpenGL knowledge is also beneficial in this role.", "OpenGL experience is a huge plus."]
)
def test_beneficial_and_a_huge_plus_are_preferred_cues(sentence):
    found = criteria(f"Mobile Engineer\n\nYou have\n- Kotlin.\n\n{sentence}\n")
    assert ([slug for slug, _ in found.required], found.preferred) == (["kotlin"], ("opengl",))


def test_a_job_boards_title_line_gives_the_title_words():
    found = criteria("Job Overview\n\n- Job Title: Senior Firmware Engineer (Heat Pumps)\n- Company: Vindelholt\n")
    assert found.keywords == ("senior", "firmware")


def test_a_technology_heading_a_requirement_runs_on_something():
    found = criteria("Requirements:\n- Spark on Kubernetes.\n\nNice to have\n- Rust on embedded targets.\n")
    assert ([slug for slug, _ in found.required], found.preferred) == (["spark", "kubernetes"], ("rust", "embedded"))
    assert criteria("About us\nWe go on trips.\n\nRequirements:\n- Ready to go on call.\n").skills == ()


def test_a_degree_of_something_is_no_degree():
    assert required("Requirements:\n- Python and Kubernetes with a high degree of autonomy.\n") == [
        "python",
        "kubernetes",
    ]
    assert required("Requirements:\n- Go and Kubernetes, to some degree of depth.\n") == ["go", "kubernetes"]


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("5 years Java, Spring, degree in Computer Science or equivalent", ["java", "spring"]),
        ("Java/Kotlin, degree in Computer Science", ["java", "kotlin"]),
        ("Docker, Kubernetes - degree in CS is a plus", ["docker", "kubernetes"]),
        ("Python, SQL, BSc degree", ["python", "sql"]),
        ("Kubernetes and Terraform, degree in engineering", ["kubernetes", "terraform"]),
        ("Python developer without degree", ["python"]),
        ("Kubernetes experience instead of degree", ["kubernetes"]),
        ("Python, Kubernetes, Computer Science degree", ["python", "kubernetes"]),
    ],
)
def test_skills_listed_before_the_word_degree_are_no_field_of_it(line, wanted):
    found = required(f"Engineer\n\nRequirements:\n- Git\n- {line}\n")
    assert set(wanted) <= set(found)


@pytest.mark.parametrize(
    "line",
    [
        "3+ years of Python and a Computer Science or related degree.",
        "Python and a computer science degree.",
        "Python, and a Data Science or equivalent degree.",
    ],
)
def test_the_field_before_the_word_degree_is_a_short_run_directly_before_it(line):
    found = criteria(f"Requirements:\n- {line}\n")
    assert [slug for slug, _ in found.required] == ["python"]


def test_a_field_asked_for_as_work_is_still_a_skill():
    assert "data-science" in required("Requirements:\n- 3+ years of data science work, with a degree in any field.\n")


# --- The shared corpus, measured as bench/job_posts.py measures it ---------------------------------------------------


@pytest.mark.corpus
def test_the_corpus_posts_read_with_the_shipped_vocabulary_reach_the_goal():
    folder = CORPUS_DIR / "jobs"
    if not folder.is_dir():
        pytest.skip(NO_CORPUS)
    total = Score()
    for path in sorted(folder.glob("*.txt")):
        expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
        total.add(score_post(criteria(path.read_text(encoding="utf-8")), expected, path.stem))
    assert total.posts >= 4
    assert total.found_required / total.required >= 0.85, total.mistakes
    assert total.found_any / total.required >= 0.95, total.mistakes
    assert total.correct / total.extracted >= 0.85, total.mistakes
    assert total.non_skills == 0, total.mistakes
    assert total.years_right >= total.posts - 1
    assert total.country_right >= total.posts - 1
