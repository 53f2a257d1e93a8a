"""Skills read as written: what an import stores for the labels of a fictional Android engineer whose file holds
every kind of label real files write (tests/fixtures/jsonresume/tomas-ferreira.skills-as-written.json): groups named
after a skill, phrases naming one skill, versions, joined forms, spelled-out names, two spellings of one technology,
soft skills in two languages, design-pattern names, a misspelling, a level range and fluencies in other languages.
"""

import pytest

from ingestion.documents import SkillEntry
from ingestion.normalise import normalise
from ingestion.parsers import parse
from ingestion.services import documents_load
from profiles.models import Candidate, CandidateSkill, Skill
from profiles.services import skills_upsert
from profiles.vocabulary_copy import skill_vocabulary, skill_vocabulary_changed
from tests.fixtures import JSONRESUME_DIR
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db

RESUME = JSONRESUME_DIR / "tomas-ferreira.skills-as-written.json"
# What a larger vocabulary knows beside the curated one (the seeded test vocabulary knows Android, Kotlin, SQL).
MORE_SKILLS = ["es6", "dagger", "gruntjs", "travis-ci", "redux-toolkit", "jetpack-compose", "codeigniter"]


def _more_skills():
    skills_upsert(
        skills=[(slug, slug, Skill.Kind.SKILL) for slug in MORE_SKILLS], aliases=[(slug, slug) for slug in MORE_SKILLS]
    )


@pytest.fixture
def imported():
    _more_skills()
    skill_vocabulary_changed()
    document = parse(RESUME.read_bytes(), vocabulary=skill_vocabulary().words)
    [result] = documents_load(documents=[document])
    candidate = Candidate.objects.get(pk=result.candidate_id)
    rows = CandidateSkill.objects.filter(candidate=candidate).select_related("skill")
    return candidate, {row.skill.slug: row for row in rows}, document


def test_a_group_named_after_a_skill_is_that_skill_at_the_group_s_level(imported):
    _, skills, _ = imported

    assert skills["android"].score == 9  # "Expert"
    assert skills["ios"].label == "iOS"
    assert skills["pytest"].score == 8  # "Advanced", the group's level, not its phrase's
    assert "tools" not in skills  # a heading is no skill


@pytest.mark.parametrize(
    ("label", "slug"),
    [
        ("Usage with Docker", "docker"),
        ("Continuous integration and continuous delivery (CI/CD)", "ci-cd"),
        ("PHP MVC (Custom, Cake, CodeIgniter, etc)", "php"),
        ("Laravel 5.*", "laravel"),
        ("Bootstrap 3 & 4-alpha", "bootstrap"),
        ("ES6/ES7", "es6"),
        ("Dagger/Dagger2", "dagger"),
        ("travis", "travis-ci"),
        ("grunt", "gruntjs"),
        ("Svelt", "svelte"),
    ],
)
def test_a_label_leads_to_the_known_skill_and_is_kept_as_written(imported, label, slug):
    _, skills, _ = imported

    assert skills[slug].label in {label, "Docker image design"}


def test_no_junk_skill_is_created(imported):
    for slug in ("usage-with-docker", "docker-image-design", "pytest-plugin-creation", "laravel-5", "es6-es7",
                 "svelt", "grunt", "travis", "reduxtoolkit", "teamwork", "communication", "builder", "observer",
                 "liderazgo", "trabajo-en-equipo"):  # fmt: skip
        assert not Skill.objects.filter(slug=slug).exists(), slug


def test_two_spellings_of_one_technology_are_one_skill(imported):
    _, skills, _ = imported

    assert skills["redux-toolkit"].label in {"reduxtoolkit", "redux-toolkit"}
    assert not Skill.objects.filter(slug="reduxtoolkit").exists()


def test_soft_skills_and_pattern_names_stay_on_the_candidate_as_text_with_a_warning(imported):
    candidate, _, _ = imported

    assert candidate.other_skills == [
        "Teamwork", "Communication", "Trabajo en equipo", "Liderazgo", "Builder", "Observer"
    ]  # fmt: skip


def test_the_misspelling_and_the_text_labels_are_warnings_of_the_file():
    _more_skills()
    skill_vocabulary_changed()

    document = parse(RESUME.read_bytes(), vocabulary=skill_vocabulary().words)
    warnings = normalise(document, skill_vocabulary()).warnings

    assert "“Svelt” looks like a misspelling of the skill svelte; it was read as svelte." in warnings
    assert any(w.startswith("6 skill labels are no technology") and "“Teamwork”" in w for w in warnings)


def test_a_level_range_scores_between_its_ends_and_a_level_in_another_language_is_read(imported):
    _, skills, _ = imported

    assert skills["java"].score == 7  # "Mid-Senior": not Senior's 8
    assert skills["sql"].score == 9  # "Experto"


def test_fluencies_in_other_languages_are_read_and_an_unreadable_one_is_a_warning(imported):
    candidate, _, document = imported

    fluencies = dict(candidate.languages.values_list("code", "fluency"))
    assert fluencies == {"pt": "native", "fr": "full_professional", "en": "full_professional", "es": ""}
    assert any("“Bastante bien”" in w or "'Bastante bien'" in w for w in document.warnings)


def test_the_phone_number_is_read(imported):
    candidate, _, _ = imported

    assert candidate.phone == "+351 21 000 0199"


def test_two_spellings_of_a_technology_nobody_knows_make_one_new_skill():
    """Defect: reduxtoolkit and redux-toolkit, on one person, were two skills."""
    [result] = documents_load(
        documents=[make_document(skills=[SkillEntry("zqtoolkit", 6), SkillEntry("zq-toolkit", 8)])]
    )

    rows = CandidateSkill.objects.filter(candidate_id=result.candidate_id).select_related("skill")
    assert [(row.skill.slug, row.score, row.label) for row in rows] == [("zqtoolkit", 8, "zq-toolkit")]
    assert not Skill.objects.filter(slug="zq-toolkit").exists()


def test_another_technology_named_like_a_known_one_and_a_go_phrase_are_imported_as_written():
    """Preact was read as React, "Go kit" as Kit, and Logo kept as a spoken language."""
    skills_upsert(skills=[("kit", "Kit", Skill.Kind.SKILL), ("polar", "Polar", Skill.Kind.LANGUAGE)], aliases=[])
    skill_vocabulary_changed()
    labels = ["Preact", "Go kit", "Logo", "Scalar", "Pyhton"]
    [result] = documents_load(documents=[make_document(skills=[SkillEntry(label, 7) for label in labels])])

    rows = CandidateSkill.objects.filter(candidate_id=result.candidate_id).select_related("skill")
    assert {row.label: row.skill.slug for row in rows} == {
        "Preact": "preact",
        "Go kit": "go-kit",
        "Logo": "logo",
        "Scalar": "scalar",
        "Pyhton": "python",
    }
    assert Candidate.objects.get(pk=result.candidate_id).other_skills == []
