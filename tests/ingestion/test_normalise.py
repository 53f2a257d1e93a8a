"""The normalisation stage: a parsed document fitted to the tables, each repair a warning. Pure: no database.

None of these tests has database access (pytest-django refuses any query), which is what keeps the stage pure.
"""

import dataclasses
import datetime as dt

import pytest

from ingestion.documents import (
    ContributionEntry,
    EducationEntry,
    Identifiers,
    ParseError,
    PositionEntry,
    ProfileDocument,
    SkillEntry,
)
from ingestion.normalise import MAX_REPAIRS, Limits, apply_limits, document_label_keys, normalise
from profiles.models import Candidate, CandidateIdentifier, CandidateSkill
from profiles.search import SEARCH_TEXT_MAX_CHARS
from profiles.vocabulary import SkillVocabulary
from tests.ingestion.documents import make_document

ALIASES = {"python": "python", "golang": "go", "go": "go", "c-language": "c", "cprogramming-language": "c"}
VOCABULARY = SkillVocabulary(slugs={**ALIASES, "ml": "machine-learning"})


def _contribution(repository: str = "lumen/optics", **fields) -> ContributionEntry:
    return ContributionEntry(repository=repository, **fields)


def test_labels_map_to_canonical_skills_and_unknown_labels_to_new_ones():
    doc = make_document(skills=[SkillEntry("Golang", 8), SkillEntry("Zig  Comptime", 6)])

    skills = normalise(doc, VOCABULARY).skills

    assert [(s.slug, s.label, s.label_key, s.score, s.position) for s in skills] == [
        ("go", "Golang", "golang", 8, 0),
        ("zig-comptime", "Zig  Comptime", "zig-comptime", 6, 1),
    ]
    assert (skills[1].name, skills[1].kind) == ("zig comptime", "skill")


def test_two_labels_of_one_skill_are_kept_once_with_the_higher_score_and_a_warning():
    profile = normalise(make_document(), VOCABULARY)  # c-language 7 and cprogramming-language 10

    [c_skill] = [s for s in profile.skills if s.slug == "c"]
    assert (c_skill.score, c_skill.label, c_skill.position) == (10, "cprogramming-language", 1)
    assert [s.slug for s in profile.skills] == ["python", "c"]
    assert "“c-language” and “cprogramming-language” are the same skill (c); kept the higher score, 10." in (
        profile.warnings
    )


def test_programming_languages_are_a_section_of_their_own():
    doc = make_document(skills=[SkillEntry("python", 9)], programming_languages=[SkillEntry("Go", 7)])

    skills = normalise(doc, VOCABULARY).skills

    assert [(s.slug, s.section) for s in skills] == [
        ("python", CandidateSkill.Section.SKILL),
        ("go", CandidateSkill.Section.LANGUAGE),
    ]


def test_text_longer_than_its_column_is_cut_with_a_warning_and_the_length_comes_from_the_model():
    limit = Candidate._meta.get_field("title").max_length
    doc = make_document(title="T" * (limit + 20), skills=[SkillEntry("x" + " " * 218 + "y", 3)])

    profile = normalise(doc, VOCABULARY)

    assert profile.values["title"] == "T" * limit
    assert f"candidate title was {limit + 20} characters; cut to {limit}." in profile.warnings
    assert len(profile.skills[0].label) == CandidateSkill._meta.get_field("label").max_length
    assert "A skill label was 220 characters; cut to 200." in profile.warnings


def test_a_label_too_long_to_name_a_skill_is_left_out_with_a_warning():
    topics = ["ml", "t" * 250]
    doc = make_document(
        skills=[SkillEntry("y" * 250, 3), SkillEntry("python", 8)], contributions=[_contribution(topics=topics)]
    )

    profile = normalise(doc, VOCABULARY)

    assert [s.slug for s in profile.skills] == ["python"]
    assert profile.contributions[0].topic_slugs == ["machine-learning"]
    assert "A skill label of 250 characters is too long to name a skill; left out." in profile.warnings
    assert "lumen/optics: 1 topics too long to name a skill were not linked to one." in profile.warnings
    assert document_label_keys([doc]) == ({"python"}, {"ml"})


def test_a_file_with_thousands_of_repairs_lists_the_first_and_counts_the_rest():
    doc = make_document(badges=["b" * 150] * 3000, skills=[SkillEntry("python", 9)])

    warnings = normalise(doc, VOCABULARY).warnings

    assert len(warnings) == MAX_REPAIRS + 1
    assert (
        warnings[-1]
        == f"{3000 - MAX_REPAIRS} more repairs of this kind and others were made; only the first are listed."
    )


def test_a_contribution_that_ends_before_it_starts_has_its_dates_swapped_with_a_warning():
    doc = make_document(contributions=[_contribution(start="2025-11", end="2025-01")])

    [contribution] = normalise(doc, VOCABULARY).contributions

    assert (contribution.start, contribution.end) == (dt.date(2025, 1, 1), dt.date(2025, 11, 1))
    assert (
        "lumen/optics: the contribution ended (2025-01) before it started (2025-11); the two dates were swapped."
        in normalise(doc, VOCABULARY).warnings
    )


def test_a_repository_listed_twice_is_kept_once_the_first_time():
    doc = make_document(contributions=[_contribution(commits=5), _contribution(commits=50), _contribution("a/b")])

    profile = normalise(doc, VOCABULARY)

    assert [(c.repository, c.commits, c.position) for c in profile.contributions] == [
        ("lumen/optics", 5, 0),
        ("a/b", 0, 2),
    ]
    assert "The repository lumen/optics was listed twice; the first entry was kept." in profile.warnings


def test_topics_keep_their_spelling_and_gain_their_canonical_skills():
    doc = make_document(contributions=[_contribution(topics=["ML", "Brand New Topic"], topics_raw="MLbrand")])

    [contribution] = normalise(doc, VOCABULARY).contributions

    assert contribution.topics == ["ML", "Brand New Topic"]
    assert contribution.topic_slugs == ["brand-new-topic", "machine-learning"]
    assert document_label_keys([doc]) == ({"python", "c-language", "cprogramming-language"}, {"ml", "brand-new-topic"})


def test_implausible_values_are_left_out_with_a_warning():
    doc = make_document(years_coding=250, email="not-an-address")

    profile = normalise(doc, VOCABULARY)

    assert (profile.values["years_coding"], profile.values["email"]) == (None, "")
    assert "Years of coding was 250; more than 100 cannot be right, so it was left out." in profile.warnings
    assert "The e-mail address “not-an-address” has no @; it was left out." in profile.warnings


def test_a_clean_document_gets_no_warnings_of_the_stage_and_keeps_its_own_first():
    doc = make_document(skills=[SkillEntry("python", 9)], warnings=["The file was UTF-16 encoded; converted."])

    profile = normalise(doc, VOCABULARY)

    assert profile.warnings == ["The file was UTF-16 encoded; converted."]
    assert doc.warnings == ["The file was UTF-16 encoded; converted."]  # the document itself is left as it was


def test_the_profile_carries_every_imported_field_its_keys_and_the_documents_fingerprint():
    doc = make_document(education=[EducationEntry("BSc", "Physics", "", "Uni")])

    profile = normalise(doc, VOCABULARY)

    assert tuple(profile.values) == Candidate.IMPORTED_FIELDS
    assert profile.identity_keys[-1] == (CandidateIdentifier.Kind.NAME_LOCATION, "mira okafor|lagos|NG")
    assert [(e.position, e.school) for e in profile.education] == [(0, "Uni")]
    with_warning = dataclasses.replace(doc, warnings=["anything"])
    assert normalise(with_warning, VOCABULARY).fingerprint == profile.fingerprint  # warnings are not content
    assert normalise(make_document(company="Other"), VOCABULARY).fingerprint != profile.fingerprint


@pytest.mark.parametrize("label", ["", "   "])
def test_a_skill_without_a_label_is_left_out(label):
    doc = ProfileDocument(format="progai", name="Nia Park", skills=[SkillEntry(label, 5), SkillEntry("python", 4)])

    assert [s.slug for s in normalise(doc, VOCABULARY).skills] == ["python"]


# --- Per-file caps (issue 15, hole 9) ------------------------------------------------------------------------------

LIMITS = Limits(skills=4, contributions=2, entries=2, text_chars=20)


def test_a_file_naming_more_skills_languages_and_topics_than_the_cap_fails():
    """Issue 15, hole 9: each label may become a shared skill, so their number is capped per file."""
    doc = make_document(
        skills=[SkillEntry("python", 9), SkillEntry("rust", 7), SkillEntry("Python", 3)],  # two labels, one key
        programming_languages=[SkillEntry("go", 5)],
        contributions=[_contribution(topics=["compiler", "ml"])],
    )

    with pytest.raises(ParseError) as caught:
        apply_limits(doc, LIMITS)

    assert str(caught.value) == (
        "The profile names 5 different skills, programming languages and topics; at most 4 are accepted per file."
    )
    assert apply_limits(doc, dataclasses.replace(LIMITS, skills=5)) is not None


def test_a_file_listing_more_repositories_than_the_cap_fails():
    doc = make_document(contributions=[_contribution(f"lumen/r{i}") for i in range(3)], skills=[])

    with pytest.raises(ParseError, match=r"^The profile lists 3 repositories; at most 2 are accepted per file\.$"):
        apply_limits(doc, LIMITS)


def test_long_lists_of_a_profile_are_cut_with_a_warning():
    doc = make_document(
        skills=[],
        education=[EducationEntry(school=f"School {i}") for i in range(3)],
        badges=["A", "B", "C", "D"],
        spoken_languages=["English"],
    )

    fitted = apply_limits(doc, LIMITS)

    assert [e.school for e in fitted.education] == ["School 0", "School 1"]
    assert fitted.badges == ["A", "B"]
    assert fitted.spoken_languages == ["English"]
    assert "The profile lists 3 education entries; the first 2 were kept." in fitted.warnings
    assert "The profile lists 4 badges; the first 2 were kept." in fitted.warnings
    assert len(doc.education) == 3  # the parsed document is left as it was


def test_long_texts_are_cut_with_a_warning():
    doc = make_document(
        skills=[],
        summary="s" * 25,
        contributions=[_contribution(summary="c" * 21, repository_description="d" * 30), _contribution("a/b")],
    )

    fitted = apply_limits(doc, LIMITS)

    assert fitted.summary == "s" * 20
    assert fitted.contributions[0].summary == "c" * 20
    assert fitted.contributions[0].repository_description == "d" * 20
    assert fitted.contributions[1] == doc.contributions[1]
    assert fitted.warnings == [
        *doc.warnings,
        "The summary was 25 characters; cut to 20.",
        "2 contribution summaries or repository descriptions were longer than 20 characters; each was cut to 20.",
    ]


def test_a_summary_longer_than_the_searched_text_is_kept_whole_with_a_warning():
    """Issue 15, hole 3: the search vector reads the first SEARCH_TEXT_MAX_CHARS characters of a text."""
    doc = make_document(summary="word " * (SEARCH_TEXT_MAX_CHARS // 5 + 1))

    profile = normalise(doc, VOCABULARY)

    assert profile.values["summary"] == doc.summary
    assert (
        f"The summary is {len(doc.summary):,} characters; only its first {SEARCH_TEXT_MAX_CHARS:,} characters are "
        "searched." in profile.warnings
    )


def test_contribution_texts_longer_than_the_searched_text_are_kept_whole_with_a_warning():
    doc = make_document(contributions=[_contribution(f"lumen/r{i}", summary="x" * 1_000) for i in range(60)])

    warnings = normalise(doc, VOCABULARY).warnings

    assert any(
        w.startswith("The repositories and contribution summaries hold ")
        and w.endswith(f"characters; only their first {SEARCH_TEXT_MAX_CHARS:,} characters are searched.")
        for w in warnings
    ), warnings


# --- Issue 14: positions pass through, identifiers of every network are keys ----------------------------------------


def test_positions_pass_through_clipped_deduplicated_and_in_order():
    """Issue 14: the work history is kept: clipped like other text, exact repeats kept once, an inverted range stored
    the other way round (the parser warned of it, naming the entry: one warning, not two)."""
    job = PositionEntry(company="Lumen Labs", title="t" * 301, start="2020-01", is_current=True, order=0)
    old = PositionEntry(company="Kestrel", title="Developer", start="2018-01", end="2019-12", order=1)
    swapped = PositionEntry(company="Fjord", title="Intern", start="2017-09", end="2017-06", order=3)
    doc = make_document(positions=[job, old, dataclasses.replace(old, order=2), swapped])

    profile = normalise(doc, VOCABULARY)

    assert [(p.company, len(p.title), p.start, p.end, p.is_current, p.order) for p in profile.positions] == [
        ("Lumen Labs", 300, dt.date(2020, 1, 1), None, True, 0),
        ("Kestrel", 9, dt.date(2018, 1, 1), dt.date(2019, 12, 1), False, 1),
        ("Fjord", 6, dt.date(2017, 6, 1), dt.date(2017, 9, 1), False, 2),
    ]
    assert "A job title was 301 characters; cut to 300." in profile.warnings
    assert "The job Developer at Kestrel was listed twice; the first entry was kept." in profile.warnings
    assert not any("Fjord" in warning for warning in profile.warnings)


def test_jobs_are_numbered_in_the_order_kept_whatever_their_index_in_the_file():
    """Review of issue 14: the file's index of a job (non-objects counted) passed the order column's range and
    failed the whole file."""
    doc = make_document(positions=[PositionEntry(company="Globex", title="Engineer", order=40_000)])

    assert [p.order for p in normalise(doc, VOCABULARY).positions] == [0]


def test_long_work_histories_and_texts_are_cut_with_a_warning():
    jobs = [PositionEntry(company=f"C{i}", summary="s" * 25, highlights=["h" * 21, "a", "b"]) for i in range(3)]
    fitted = apply_limits(make_document(skills=[], positions=jobs), LIMITS)

    assert [p.company for p in fitted.positions] == ["C0", "C1"]
    assert [(p.summary, p.highlights) for p in fitted.positions] == [("s" * 20, ["h" * 20, "a"])] * 2
    assert "The profile lists 3 jobs; the first 2 were kept." in fitted.warnings
    assert "2 job summaries or highlights were longer than 20 characters; each was cut to 20." in fitted.warnings
    assert "2 jobs list more than 2 highlights; the first 2 of each were kept." in fitted.warnings


def test_every_network_account_is_an_identity_key():
    """Issue 14: a second GitHub account and a Twitter handle were dropped; GitLab and Stack Overflow too."""
    ids = Identifiers(
        github="Noor-At-Work",
        more_github=["noor-rahimi"],
        linkedin="noor-rahimi-4a7b",
        twitter="NoorCodes",
        gitlab="noorr",
        stackoverflow="4412345",
    )
    keys = normalise(make_document(identifiers=ids), VOCABULARY).identity_keys
    kind = CandidateIdentifier.Kind
    assert keys[:-1] == [
        (kind.GITHUB, "noor-at-work"),
        (kind.GITHUB, "noor-rahimi"),
        (kind.LINKEDIN, "noor-rahimi-4a7b"),
        (kind.TWITTER, "noorcodes"),
        (kind.GITLAB, "noorr"),
        (kind.STACKOVERFLOW, "4412345"),
    ]


def test_a_study_dated_by_years_alone_keeps_that_precision():
    doc = make_document(
        education=[
            EducationEntry(school="Uni", start="2009", end="2013"),
            EducationEntry(school="Poly", start="2013-09", end="2015"),
        ]
    )

    rows = normalise(doc, VOCABULARY).education

    assert [(e.start, e.start_year_only, e.end, e.end_year_only) for e in rows] == [
        (dt.date(2009, 1, 1), True, dt.date(2013, 1, 1), True),
        (dt.date(2013, 9, 1), False, dt.date(2015, 1, 1), True),
    ]


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        # The same first day for a month and a year alone: each keeps its own precision.
        ("2009-01", "2009", (dt.date(2009, 1, 1), False, dt.date(2009, 1, 1), True)),
        ("2009", "2009-01", (dt.date(2009, 1, 1), True, dt.date(2009, 1, 1), False)),
        # Dates the file gave in reverse are swapped with their precision.
        ("2015", "2013-09", (dt.date(2013, 9, 1), False, dt.date(2015, 1, 1), True)),
    ],
)
def test_a_study_keeps_each_date_s_own_precision_when_the_two_fall_on_one_day_or_are_swapped(start, end, expected):
    doc = make_document(education=[EducationEntry(school="Uni", start=start, end=end)])

    (row,) = normalise(doc, VOCABULARY).education

    assert (row.start, row.start_year_only, row.end, row.end_year_only) == expected
