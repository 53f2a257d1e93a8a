"""jobs.matching: the alias matcher over a vocabulary."""

from jobs.criteria import extract_criteria
from jobs.matching import find_skills
from profiles.vocabulary import SkillVocabulary


def test_an_empty_vocabulary_finds_nothing_and_raises_nothing():
    # A database whose skills are not seeded yet (or were all deleted) has no alias to look for.
    assert find_skills("python and go", SkillVocabulary()) == []


def test_a_description_against_an_empty_vocabulary_has_no_skills():
    criteria = extract_criteria("Requirements: 5+ years of Python. Remote.", SkillVocabulary())

    assert criteria.required == ()
    assert criteria.preferred == ()
    assert criteria.min_years_coding == 5
