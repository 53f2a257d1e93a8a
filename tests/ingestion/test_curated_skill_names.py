"""Issue 17, skill names: an import names the common skills as the curated table does, with the vocabulary folder
(the session's seed, tests/fixtures/vocab) or without it (a fresh clone: the migrations seed the curated table alone).

The fixture, tests/fixtures/progai/skills/tarja-holmsten.slug-skills.txt, writes its skills as raw slugs ("bash",
"kafka", "docker") and names Spark twice ("apache-spark" 6, "spark" 9)."""

import pytest

from ingestion.models import SourceFile
from profiles.models import Skill
from profiles.services import skills_apply_curated
from profiles.vocabulary_copy import skill_vocabulary_forget
from tests.fixtures import PROGAI_DIR
from tests.ingestion.imports import import_file

pytestmark = pytest.mark.django_db

SLUG_SKILLS = PROGAI_DIR / "skills" / "tarja-holmsten.slug-skills.txt"
CURATED_NAMES = {
    "bash": ("Bash", 8),
    "kafka": ("Apache Kafka", 7),
    "docker": ("Docker", 9),
    "spark": ("Apache Spark", 9),
    "python": ("Python", 8),
}


@pytest.fixture
def without_vocabulary_folder(django_capture_on_commit_callbacks):
    """The skill table of a database migrated with no vocabulary folder: the curated skills alone."""
    Skill.objects.all().delete()  # no candidate names one yet: the test database holds only the seed
    with django_capture_on_commit_callbacks(execute=True):
        skills_apply_curated()
    skill_vocabulary_forget()


def _imported_skills(candidate) -> dict[str, tuple[str, int]]:
    return {row.skill.slug: (row.skill.name, row.score) for row in candidate.skills.select_related("skill")}


def test_without_the_vocabulary_folder_the_common_skills_have_their_display_names(without_vocabulary_folder):
    candidate = import_file(SLUG_SKILLS)

    assert _imported_skills(candidate) == CURATED_NAMES
    assert not Skill.objects.filter(slug__in=["apache-spark", "apache spark"]).exists()


def test_two_labels_of_spark_are_one_skill_with_the_higher_score_and_a_warning(without_vocabulary_folder):
    candidate = import_file(SLUG_SKILLS)

    assert list(candidate.skills.filter(skill__slug="spark").values_list("label", "score")) == [("spark", 9)]
    warnings = SourceFile.objects.get(candidate=candidate).warnings
    assert any("same skill (spark)" in warning for warning in warnings)


def test_the_repository_topics_lead_to_the_curated_skills(without_vocabulary_folder):
    candidate = import_file(SLUG_SKILLS)

    [contribution] = candidate.contributions.select_related("repository")
    assert contribution.repository.topic_slugs == ["docker", "kafka", "spark"]


def test_with_the_vocabulary_folder_the_curated_names_win():
    """The fixture vocabulary's Linguist Shell lists bash and its topics name TensorFlow "Tensorflow": the curated
    table is explicit about both."""
    candidate = import_file(SLUG_SKILLS)

    assert _imported_skills(candidate) == CURATED_NAMES
    assert Skill.objects.get(slug="tensorflow").name == "TensorFlow"
