"""Issue 14, "skill vocabulary that maps right": what an import stores for the skill labels real files write.

The tests' vocabulary (tests/fixtures/vocab) holds the traps of the public one: Linguist's Jinja lists "django" among
its aliases, the aws topic is named "Amazon Web Services", Express is known as express, expressjs and express-js.
"""

import pytest

from ingestion.documents import SkillEntry
from ingestion.services import documents_load
from profiles.models import CandidateSkill, Skill
from tests.ingestion.documents import make_document

pytestmark = pytest.mark.django_db


def _imported_skills(*labels: str) -> dict[str, str]:
    skills = [SkillEntry(label, 10 - n) for n, label in enumerate(labels)]
    [result] = documents_load(documents=[make_document(skills=skills)])
    rows = CandidateSkill.objects.filter(candidate_id=result.candidate_id).select_related("skill")
    return {row.label: row.skill.slug for row in rows}


def test_django_is_the_django_framework_not_jinja():
    """Defect: "Django" was stored as Jinja, whose Linguist entry claims the alias django."""
    assert _imported_skills("Django") == {"Django": "django"}


def test_a_skill_s_display_name_leads_to_that_skill():
    """Defect: "Amazon Web Services" created amazon-web-services beside the seeded aws named so."""
    assert _imported_skills("Amazon Web Services") == {"Amazon Web Services": "aws"}
    assert not Skill.objects.filter(slug="amazon-web-services").exists()


@pytest.mark.parametrize(
    ("label", "slug"),
    [
        ("Angular 2+", "angular"),  # defect: became angular-2
        ("Vue 3", "vue"),
        ("Python 3.12", "python"),
        ("Python (langage de programmation)", "python"),  # defect: not matched to Python
        ("express.js", "express"),  # defect: became expressjs while ExpressJs went to Express
        ("ExpressJs", "express"),
        ("Node.js", "nodejs"),  # a name with .js that is a skill of its own keeps it
        ("Next.js", "nextjs"),
        ("C++ 17", "cpp"),
    ],
)
def test_a_version_a_qualifier_or_a_js_suffix_does_not_make_another_skill(label, slug):
    before = Skill.objects.count()

    assert _imported_skills(label) == {label: slug}
    assert Skill.objects.count() == before


def test_an_equivalent_label_leads_to_the_skill_without_a_new_alias():
    """The resolver reads "Angular 2+" as Angular each time (profiles.skill_resolver): no alias is needed for it."""
    assert _imported_skills("Angular 2+") == {"Angular 2+": "angular"}

    assert not Skill.objects.filter(aliases__label="angular-2+").exists()


def test_two_forms_of_one_skill_in_one_file_are_one_skill_with_the_higher_score():
    assert _imported_skills("express.js", "ExpressJs") == {"express.js": "express"}


def test_a_number_that_is_part_of_the_name_stays():
    mapped = _imported_skills("Web3", "S3")

    # Not Web and S: the shipped vocabulary knows S3 as Amazon S3's alias.
    assert mapped == {"Web3": "web3", "S3": "amazon-s3"}
