"""``SkillVocabulary.slug_of``: a topic's key to a known skill by the equivalence rule (``core.labels.first_known``),
the rule the resolver's stricter steps also start from, so both give one answer wherever the vocabulary finds one."""

import pytest

from core.labels import first_known, label_key
from profiles.shipped_vocabulary import read_shipped
from profiles.skill_resolver import SkillResolver
from profiles.vocabulary import CURATED_LABELS, SkillVocabulary, seeded_vocabulary

VOCABULARY = SkillVocabulary(slugs={**CURATED_LABELS, "gruntjs": "gruntjs", "redux-toolkit": "redux-toolkit"})

# Written as files write topics: plain, versioned, with a library's suffix, joined, in parentheses, unknown.
LABELS = (
    "Docker", "vue-3", "Angular 2+", "expressjs", "Express.js", "Node.js", "Python (programming language)",
    "HTML & CSS", "c++11", "C#10", "gruntjs", "grunt", "redux-toolkit", "reduxtoolkit", "Vue3", "ziglang", "cv",
    "Web3", "python3.12", "java-8.x", "angular_v17", "", "kubernetes (k8s)",
)  # fmt: skip


@pytest.mark.parametrize("label", LABELS)
def test_slug_of_is_the_equivalence_rule_on_the_vocabulary(label):
    key = label_key(label)
    assert VOCABULARY.slug_of(key) == first_known(VOCABULARY.slugs, key)


@pytest.mark.parametrize("vocabulary", [VOCABULARY, seeded_vocabulary(read_shipped())], ids=["curated", "shipped"])
def test_the_resolver_gives_the_skill_the_vocabulary_finds(vocabulary):
    resolver = SkillResolver(vocabulary.slugs)
    found = {label: vocabulary.slug_of(label_key(label)) for label in LABELS}
    assert {label: resolver.slug_of(label_key(label)) for label, slug in found.items() if slug} == {
        label: slug for label, slug in found.items() if slug
    }
