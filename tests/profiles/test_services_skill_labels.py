"""Label keys to skill ids as an import creates them: a key the database knows under an equivalent form leads to that
skill and is remembered as its alias; any other key makes a skill of its own."""

import pytest

from profiles.models import Skill, SkillAlias
from profiles.services import skill_ids_for_labels
from tests.factories import SkillFactory

pytestmark = pytest.mark.django_db


def _known(slug: str) -> Skill:
    skill = SkillFactory(slug=slug)
    SkillAlias.objects.create(label=slug, skill=skill)
    return skill


def test_a_key_known_in_an_equivalent_form_leads_to_that_skill_and_becomes_its_alias():
    quillwork = _known("quillwork")

    found = skill_ids_for_labels(label_keys={"quillwork-3.x", "quillwork.js"})

    assert found == {"quillwork-3.x": quillwork.pk, "quillwork.js": quillwork.pk}
    assert set(SkillAlias.objects.filter(skill=quillwork).values_list("label", flat=True)) == {
        "quillwork",
        "quillwork-3.x",
        "quillwork.js",
    }
    assert not Skill.objects.filter(slug__startswith="quillwork-").exists()


def test_another_keys_forms_do_not_decide_a_key():
    """ "zephyrkit" is known only as a form of "zephyrkit-2"; "zephyr-kit", near-identical to it but no form of a
    known label, makes a skill of its own, as it does alone."""
    zephyrkit = _known("zephyrkit")

    found = skill_ids_for_labels(label_keys={"zephyrkit-2", "zephyr-kit"}, default_kind=Skill.Kind.TOPIC)

    assert found["zephyrkit-2"] == zephyrkit.pk
    made = Skill.objects.get(pk=found["zephyr-kit"])
    assert (made.slug, made.kind) == ("zephyr-kit", Skill.Kind.TOPIC)


def test_a_key_no_form_of_which_is_known_makes_a_skill_under_its_own_slug():
    found = skill_ids_for_labels(label_keys={"brand-new-tool", ""})

    skill = Skill.objects.get(pk=found["brand-new-tool"])
    assert (skill.slug, skill.kind) == ("brand-new-tool", Skill.Kind.SKILL)
    assert list(found) == ["brand-new-tool"]
