"""Vocabularies for the extractor's tests, and the expected-file rule of ``shared/corpus/jobs/README.md``."""

from __future__ import annotations

import csv
import functools
import json
from dataclasses import dataclass
from pathlib import Path

from core.labels import label_key
from jobs.criteria import Criteria
from profiles.vocabulary import SkillVocabulary, read_vocabulary, seeded_vocabulary
from tests.fixtures import FIXTURES_DIR, VOCAB_DIR

JOBS_DIR = FIXTURES_DIR / "jobs"

# Cities the service layer will read from the database (name -> ISO alpha-2); a handful for the tests.
CITIES = {
    "Manchester": "GB", "London": "GB", "Kraków": "PL", "Krakow": "PL", "Copenhagen": "DK", "Seville": "ES",
    "Madrid": "ES", "Berlin": "DE", "Munich": "DE", "Hamburg": "DE", "Lisbon": "PT", "Porto": "PT", "Lyon": "FR",
    "Paris": "FR", "Utrecht": "NL", "Amsterdam": "NL", "Toronto": "CA", "Austin": "US", "Dublin": "IE",
}  # fmt: skip


def _with_database_skills(vocabulary: SkillVocabulary) -> SkillVocabulary:
    """``vocabulary`` plus tests/fixtures/jobs/skills.tsv: skills a database holds once profiles are imported (their
    labels become skills), which the public vocabularies do not list (Celery, Kafka, Vulkan...)."""
    slugs = dict(vocabulary.slugs)
    with (JOBS_DIR / "skills.tsv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            slugs.setdefault(label_key(row["label"]), row["slug"])
            slugs.setdefault(row["slug"], row["slug"])
    return SkillVocabulary(slugs=slugs, words=frozenset(slugs))


@functools.cache
def fixture_vocabulary() -> SkillVocabulary:
    """The project's test vocabulary (tests/fixtures/vocab, seeded as ``seed_skills`` would) and the database's
    skills."""
    return _with_database_skills(seeded_vocabulary(read_vocabulary(VOCAB_DIR)))


@functools.cache
def corpus_vocabulary(vocab_dir: Path) -> SkillVocabulary:
    return _with_database_skills(seeded_vocabulary(read_vocabulary(vocab_dir)))


@dataclass(frozen=True)
class Expected:
    required: list[list[str]]
    preferred: list[list[str]]
    areas: list[str]
    not_skills: list[str]
    min_years: int | None
    country: str | None
    remote: bool | None
    countries: list[str] | None = None  # instead of country: a post open in several countries (our own files)

    @classmethod
    def read(cls, path: Path) -> Expected:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            data["required"], data["preferred"], data.get("areas", []), data["not_skills"], data["min_years"],
            data["country"], data["remote"], data.get("countries"),
        )  # fmt: skip


def differences(criteria: Criteria, expected: Expected) -> list[str]:
    """What ``criteria`` gets wrong by the README's rule (empty when it equals the expected file): each inner list
    is one skill and any slug of it counts; areas may be found or not; not_skills never appear; years, country and
    remote are equal."""
    problems = []
    found = {"required": [s for s, _ in criteria.required], "preferred": list(criteria.preferred)}
    for kind, groups in (("required", expected.required), ("preferred", expected.preferred)):
        slugs = found[kind]
        for group in groups:
            if not set(group) & set(slugs):
                problems.append(f"{kind}: missing {group[0]} (any of {group})")
        known = {s for group in groups for s in group} | set(expected.areas)
        problems += [f"{kind}: {slug} is not expected" for slug in slugs if slug not in known]
    named = set(found["required"]) | set(found["preferred"]) | set(criteria.excluded)
    problems += [f"{slug} must not be a skill" for slug in expected.not_skills if slug in named]
    if criteria.min_years_coding != expected.min_years:
        problems.append(f"min_years: {criteria.min_years_coding}, expected {expected.min_years}")
    if expected.countries is not None:
        if sorted(criteria.countries) != sorted(expected.countries):
            problems.append(f"countries: {list(criteria.countries)}, expected {expected.countries}")
    elif (criteria.countries[0] if len(criteria.countries) == 1 else (list(criteria.countries) or None)) != (
        expected.country
    ):
        problems.append(f"country: {list(criteria.countries)}, expected {expected.country}")
    if criteria.remote is not expected.remote:
        problems.append(f"remote: {criteria.remote}, expected {expected.remote}")
    return problems
