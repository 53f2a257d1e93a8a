"""extract_criteria: the shared corpus's job posts and the project's own (tests/fixtures/jobs) equal their expected
files; skills, ambiguous words, sections, negations, years, places and bad input one by one. No database: these
tests take no db fixture, so pytest-django refuses any query."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs import matching
from jobs.criteria import DEFAULT_MIN_SCORE, STRONG_MIN_SCORE, Criteria, CriteriaError, Ignored, extract_criteria
from tests.fixtures import CORPUS_DIR, corpus_path
from tests.jobs.helpers import CITIES, JOBS_DIR, Expected, corpus_vocabulary, differences, fixture_vocabulary

CORPUS_POSTS = [f"jd-visible-{n:02d}" for n in range(1, 5)]
OWN_POSTS = sorted(path.stem for path in JOBS_DIR.glob("*.txt"))


def criteria(text: str, **kwargs) -> Criteria:
    return extract_criteria(text, fixture_vocabulary(), cities=CITIES, **kwargs)


def required(text: str) -> list[str]:
    return [slug for slug, _ in criteria(text).required]


def skills(text: str) -> list[str]:
    return list(criteria(text).skills)


# --- The expected files -----------------------------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("name", CORPUS_POSTS)
def test_the_corpus_job_posts_give_their_expected_criteria(name):
    text = corpus_path("jobs", f"{name}.txt").read_text(encoding="utf-8")
    found = extract_criteria(text, corpus_vocabulary(CORPUS_DIR / "vocab"), cities=CITIES)
    assert differences(found, Expected.read(corpus_path("jobs", f"{name}.expected.json"))) == []


@pytest.mark.parametrize("name", OWN_POSTS)
def test_our_own_job_posts_give_their_expected_criteria(name):
    found = criteria((JOBS_DIR / f"{name}.txt").read_text(encoding="utf-8"))
    assert differences(found, Expected.read(JOBS_DIR / f"{name}.expected.json")) == []


def test_there_are_at_least_four_own_posts_each_with_an_expected_file():
    assert len(OWN_POSTS) >= 4
    assert all((JOBS_DIR / f"{name}.expected.json").is_file() for name in OWN_POSTS)


def test_the_comparison_rule_catches_an_extra_a_missing_and_a_forbidden_skill():
    expected = Expected([["go", "golang"]], [], [], ["java"], None, None, None)
    assert differences(Criteria(required=(("golang", 5),)), expected) == []
    assert differences(Criteria(required=(("go", 5), ("java", 5))), expected) == [
        "required: java is not expected",
        "java must not be a skill",
    ]
    assert differences(Criteria(), expected) == ["required: missing go (any of ['go', 'golang'])"]


# --- Finding skills ---------------------------------------------------------------------------------------------------


def test_names_with_punctuation_and_versions_are_found_whole():
    text = "Requirements: C++17, .NET 8, Node.js, CI/CD, Next.js and Vue 3."
    assert required(text) == ["cpp", "dotnet", "nodejs", "ci-cd", "nextjs", "vue"]


def test_the_longest_name_wins_and_digits_glued_to_letters_are_part_of_a_name():
    text = "Must have: ASP.NET, Unreal Engine 5, C#10, Python3, K8s, TypeScript/JavaScript"
    assert required(text) == ["aspnet", "unreal-engine", "csharp", "python", "kubernetes", "typescript", "javascript"]


def test_a_name_inside_a_longer_word_is_no_match():
    assert skills("Must have: community management, Gopher wrangling, Javanese.") == []


def test_a_skill_is_read_once_however_often_it_is_named():
    assert required("Requirements:\n- Go\n- More Go.\n- Go, Go, Go.") == ["go"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Requirements: Go, Kafka.", ["go", "kafka"]),
        ("You will write services in Go.", ["go"]),
        ("Must have: Go 1.22", ["go"]),
        ("Our go-to-market team wants you. Must have: Kafka", ["kafka"]),
        ("Requirements:\n- R 4.4 and the tidyverse", ["r"]),
        ("Requirements:\n- Fluent R and fluent Python.", ["r", "python"]),
        ("Requirements:\n- Experience in our R&D team\n- Kafka", ["kafka"]),
        ("Must have: React, TypeScript", ["react", "typescript"]),
        ("You react quickly to incidents and Python is required.", ["python"]),
        ("Requirements: Apache Spark, Kafka", ["spark", "kafka"]),
        ("Requirements:\n- Spark for the big joins", ["spark"]),
        ("Perks that spark joy. Must have Kafka.", ["kafka"]),
        ("Requirements: Rust and Go.", ["rust", "go"]),
        ("The old pipes rust in the rain. You need Kafka.", ["kafka"]),
        ("Experience with Swift is required.", ["swift"]),
        ("Swift decisions matter. You need Kafka.", ["kafka"]),
        ("Requirements: Dart and Flutter.", ["dart", "flutter"]),
        ("There is a dart board. You need Kafka.", ["kafka"]),
        ("Must have: Elm", ["elm"]),
        ("Our office is on Elm Street. You need Kafka.", ["kafka"]),
        ("Requirements: Chef or Puppet", ["chef", "puppet"]),
        ("Our head chef cooks lunch, puppet shows on Fridays. You need Kafka.", ["kafka"]),
        ("Requirements: Ruby", ["ruby"]),
        ("You report to Ruby Okonkwo. You need Kafka.", ["kafka"]),
        ("You must know Scheme.", ["scheme"]),
        ("A cycle-to-work scheme. You need Kafka.", ["kafka"]),
        ("We put guard rails around payouts. You need Kafka.", ["kafka"]),
        ("Requirements:\n- Move and Sui smart contracts", ["move"]),
        ("We move fast and the reason is simple. You need Kafka.", ["kafka"]),
        ("You should be fluent in C++.", ["cpp"]),
        ("Requirements: Kafka. Working Spanish and English, some French.", ["kafka"]),
        ("Someone has to look after our old API. You need Kafka.", ["kafka"]),
    ],
)
def test_ambiguous_words_count_only_in_a_technical_context(text, expected):
    assert skills(text) == expected


# --- Sections, cues, negations ----------------------------------------------------------------------------------------


def test_headings_decide_required_and_preferred():
    text = "Backend Engineer\n\nMust have\n- Kotlin\n- Kafka\n\nNice to have\n- Terraform\n\nBonus\n- gRPC\n"
    found = criteria(text)
    assert found.required == (("kotlin", DEFAULT_MIN_SCORE), ("kafka", DEFAULT_MIN_SCORE))
    assert found.preferred == ("terraform", "grpc")


@pytest.mark.parametrize("heading", ["Requirements", "What you'll need", "You have", "Must-haves:", "About you"])
def test_a_required_heading(heading):
    assert criteria(f"Engineer\n\n{heading}\n- Kafka\n").required == (("kafka", DEFAULT_MIN_SCORE),)


@pytest.mark.parametrize("heading", ["Nice to have", "Bonus points", "Preferred", "Plus", "It's a plus if you"])
def test_a_preferred_heading(heading):
    assert criteria(f"Engineer\n\nRequirements\n- Go\n\n{heading}\n- Kafka\n").preferred == ("kafka",)


def test_a_cue_in_the_sentence_makes_a_skill_preferred_even_under_requirements():
    found = criteria("Engineer\n\nRequirements\n- Kotlin\n- Kafka is a plus.\n- Terraform would be useful.\n")
    assert [s for s, _ in found.required] == ["kotlin"]
    assert found.preferred == ("kafka", "terraform")


def test_deep_knowledge_asks_for_a_higher_score():
    found = criteria("Requirements\n- Deep PostgreSQL knowledge\n- Kafka\n")
    assert found.required == (("postgresql", STRONG_MIN_SCORE), ("kafka", DEFAULT_MIN_SCORE))


def test_skills_only_mentioned_are_no_criteria_when_the_post_asks_for_others():
    found = criteria("The work\n- Build APIs for our iOS and Android apps.\n\nRequirements\n- Kotlin\n")
    assert found.skills == ("kotlin",)
    assert Ignored("iOS", "ios", "only-mentioned") in found.ignored


def test_a_post_that_asks_for_nothing_requires_every_skill_it_names():
    found = criteria("We write Kotlin services on Kafka.")
    assert [s for s, _ in found.required] == ["kotlin", "kafka"]
    assert found.warnings


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Engineer\n\nRequirements: Kotlin. No Laravel needed.", "negated"),
        ("Engineer\n\nWe don't use Laravel. Requirements: Kotlin", "negated"),
        ("Engineer\n\nYou will not write Laravel here. Requirements: Kotlin", "negated"),
        ("Engineer\n\nRequirements: Kotlin. We are moving off Laravel this year.", "migrated-off"),
        ("Engineer\n\nRequirements: Kotlin. Legacy: some Laravel that we are retiring.", "migrated-off"),
        ("Engineer\n\nRequirements: Kotlin, or another framework like Laravel.", "substitute"),
    ],
)
def test_negations_migrations_and_substitutes_are_not_requirements(text, why):
    found = criteria(text)
    assert found.skills == ("kotlin",)
    assert found.excluded == ()  # a team not using Laravel is no reason to turn away people who know it
    assert Ignored("Laravel", "laravel", why) in found.ignored


def test_the_target_of_a_migration_stays():
    assert required("We are migrating from Java to Kotlin. Kafka too.") == ["kotlin", "kafka"]
    assert required("Requirements: Kafka. We are migrating from Java to Kotlin.") == ["kafka", "kotlin"]


def test_no_skill_found_is_a_warning_not_an_error():
    found = criteria("We are a friendly team that bakes bread.")
    assert found.skills == ()
    assert found.warnings == ("No skill found in the description: the criteria hold no skills.",)


# --- Years ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("5+ years of Python.", 5),
        ("At least three years of backend work.", 3),
        ("8 or more years of professional experience.", 8),
        ("Three or more years of professional Python.", 3),
        ("Requirements\n- 2+ yrs building pipelines", 2),
        ("7+ years of backend engineering, including at least three years writing Kotlin.", 7),
        ("You have worked with Go for 4 years.", None),
        ("Founded 10 years ago, we have 30 people.", None),
        ("Python.", None),
    ],
)
def test_years_of_experience(text, years):
    assert criteria(text).min_years_coding == years


# --- Place and remote -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "countries", "remote"),
    [
        ("Engineer — remote within Germany", ["DE"], True),
        ("Engineer\nLondon, UK\n\nThe role is hybrid: two days a week in the office.", ["GB"], False),
        ("Engineer\n\nYou'll be in the office on Mondays and Thursdays in Manchester.", ["GB"], False),
        ("Engineer\n\nWe can't offer fully remote contracts. Our office is in Berlin.", ["DE"], False),
        ("Engineer\n\nThis job is fully remote, across Europe.", [], True),
        ("Engineer\n\nWe work on-site in our Lyon office.", ["FR"], False),
        ("Engineer, Austin, USA\n\nWe sell to shops in France and Spain.", ["US"], None),
        ("Engineer\n\nLocation: Toronto or remote from anywhere in Canada.", ["CA"], True),
        ("Engineer\n\nTell us about yourself.", [], None),
    ],
)
def test_the_place_and_remote(text, countries, remote):
    found = criteria(text)
    assert (list(found.countries), found.remote) == (countries, remote)


def test_a_city_needs_the_callers_mapping_unless_it_is_well_known():
    assert extract_criteria("Engineer, Lublin\n\nRust.", fixture_vocabulary()).countries == ()
    assert extract_criteria("Engineer, Lublin\n\nRust.", fixture_vocabulary(), cities={"Lublin": "PL"}).countries == (
        "PL",
    )
    assert extract_criteria("Engineer, Kraków\n\nRust.", fixture_vocabulary()).countries == ("PL",)


# --- Keywords and the API shape ---------------------------------------------------------------------------------------


def test_seniority_words_and_title_words_are_keywords():
    assert criteria("Senior Backend Engineer (Kotlin)\n\nKotlin.").keywords == ("senior", "backend")
    assert "staff" in criteria("Data engineer\n\nWe are hiring a staff engineer. Python.").keywords


def test_a_first_line_that_is_a_section_with_its_content_gives_no_title_words():
    """A pasted description may start with its requirements ("Requirements: Python, 3+ years"): no title to read."""
    found = criteria("Requirements: Python and Kotlin, 3+ years")

    assert found.keywords == ()
    assert [slug for slug, _ in found.required] == ["python", "kotlin"]
    assert criteria("Nice to have: Kafka\n\nKotlin.").keywords == ()


def test_to_dict_is_the_api_criteria_object():
    found = criteria(
        "Senior Engineer — remote within Spain\n\nMust have\n- Kotlin\n\nNice to have\n- Kafka\n\n5+ years"
    )
    assert found.to_dict() == {
        "required": [{"skill": "kotlin", "min_score": DEFAULT_MIN_SCORE}],
        "preferred": [{"skill": "kafka"}],
        "excluded": [],
        "min_years_coding": 5,
        "countries": ["ES"],
        "remote": True,
        "keywords": ["senior"],
        "ignored": [],
        "unrecognised": [],
    }


# --- Bad input --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("x" * 101, "at most 100"),
        ("Python\x00\x01\x02", "control character"),
        ("Go \x1b[31mred", "control character"),
        (b"Python", "not bytes"),
        (None, "must be text"),
        ("broken \ud800 surrogate", "broken character"),
    ],
)
def test_unreadable_input_raises_criteria_error(text, message):
    with pytest.raises(CriteriaError, match=message):
        extract_criteria(text, fixture_vocabulary(), max_chars=100)


def test_the_size_cap_defaults_to_100_000_characters():
    extract_criteria("Python. " * 12_000, fixture_vocabulary())  # 96,000
    with pytest.raises(CriteriaError, match="100,000"):
        extract_criteria("Python. " * 12_501, fixture_vocabulary())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400) | st.text(alphabet=" \n-•,./+#:()CRGoReactSpark&", max_size=200))
def test_fuzzed_text_raises_nothing_but_criteria_error(text):
    try:
        found = extract_criteria(text, fixture_vocabulary(), cities=CITIES)
    except CriteriaError:
        return
    assert isinstance(found.to_dict(), dict)


# --- Purity and speed -------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_runs_no_query(django_assert_num_queries):
    text = (JOBS_DIR / "jd-go-platform.txt").read_text(encoding="utf-8")
    with django_assert_num_queries(0):
        extract_criteria(text, fixture_vocabulary(), cities=CITIES)


def test_the_automaton_is_built_once_per_vocabulary():
    vocabulary = fixture_vocabulary()
    assert matching.automaton_for(vocabulary) is matching.automaton_for(vocabulary)


@pytest.mark.parametrize(
    ("bullets", "skills"),
    [
        ("- Go\n- Python\n- SQL\n", {"go", "python", "sql"}),
        ("* Java\n* Kotlin\n", {"java", "kotlin"}),
        ("- Python\n- Django\n", {"python", "django"}),
        ("• Rust\n• C++\n", {"rust", "cpp"}),
    ],
)
def test_a_list_of_one_skill_a_line_requires_each_of_them(bullets, skills):
    # A word that is also English (Go, Python, Java) counts when it heads its own list item, whatever follows it.
    found = criteria("Backend Engineer\n\nRequirements\n" + bullets)

    assert {slug for slug, _ in found.required} == skills
