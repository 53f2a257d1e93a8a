"""extract_criteria on the patterns of real job posts, one by one, with fictional snippets: the text cleaned first
(typographic apostrophes, links, e-mail addresses), the many forms of section headings, words that are no skill,
years only from statements about the candidate. No database."""

from __future__ import annotations

import functools

import pytest

from jobs.criteria import Criteria, Ignored, extract_criteria
from profiles.vocabulary import SkillVocabulary
from tests.jobs.helpers import CITIES, fixture_vocabulary

# Skills a database holds once the shipped vocabulary is seeded, which the public test vocabulary lacks.
EXTRA_LABELS = {
    "eq": "eq",
    "cloud": "cloud",
    "less": "less",
    "framework": "framework",
    "frontend": "frontend",
    "neural-network": "neural-network",
    "clean": "clean",
    "basic": "basic",
}


@functools.cache
def vocabulary() -> SkillVocabulary:
    slugs = {**fixture_vocabulary().slugs, **EXTRA_LABELS}
    return SkillVocabulary(slugs=slugs, words=frozenset(slugs))


def criteria(text: str) -> Criteria:
    return extract_criteria(text, vocabulary(), cities=CITIES)


def required(text: str) -> list[str]:
    return [slug for slug, _ in criteria(text).required]


# --- The text, cleaned first --------------------------------------------------------------------------------------


def test_typographic_apostrophes_are_read_as_plain_ones():
    found = criteria("Platform Engineer\n\nWhat you\u2019ll bring\n- Kotlin\n\nWhat we\u2019d love to see\n- Kafka\n")
    assert required("Platform Engineer\n\nWhat you\u2019ll bring\n- Kotlin\n") == ["kotlin"]
    assert found.preferred == ("kafka",)


def test_links_and_email_addresses_name_no_skill():
    text = (
        "Platform Engineer\n\nApply at https://careers.quillbyte.example/jobs/go-kotlin?ref=http or write to "
        "python.jobs@quillbyte.example (www.quillbyte.example/rust).\n\nRequirements\n- Kotlin\n"
    )
    found = criteria(text)
    assert found.skills == ("kotlin",)
    assert all(item.skill not in {"http", "python", "rust", "go"} for item in found.ignored)


# --- Sections by their many headings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "heading",
    [
        "What you'll bring",
        "What we're looking for:",
        "### Your profile",
        "**Your qualifications**",
        "Ideal skills & experience",
        "What you've done",
        "YOUR PROFILE",
        "## Must-have skills:",
        "What You Must Have",
    ],
)
def test_required_sections_by_their_headings(heading):
    text = f"Platform Engineer\n\nWe build things with Rust.\n\n{heading}\n- Kotlin and Kafka\n\nPerks\n- Lunch\n"
    found = criteria(text)
    assert required(text) == ["kotlin", "kafka"]
    assert Ignored("Rust", "rust", "only-mentioned") in found.ignored


@pytest.mark.parametrize(
    "heading",
    [
        "Great-to-haves",
        "Plus points",
        "Good to have:",
        "The following will be considered a plus",
        "What gets our attention",
        "**Nice-to-haves**",
        "### Bonus points if you have",
    ],
)
def test_preferred_sections_by_their_headings(heading):
    found = criteria(f"Platform Engineer\n\nRequirements\n- Kotlin\n\n{heading}\n- Kafka\n")
    assert [slug for slug, _ in found.required] == ["kotlin"]
    assert found.preferred == ("kafka",)


def test_the_parts_of_a_requirements_section_under_their_own_headings_are_required():
    text = (
        "Firmware Engineer\n\nRequirements\nEducation:\n- A degree in Electrical Engineering\n"
        "Embedded development:\n- Proficiency in Kotlin\nTools:\n- Familiarity with Kafka\n\n"
        "Benefits\n- Lessons in Rust\n\nNice to have\nTooling:\n- Python\n"
    )
    found = criteria(text)
    assert [slug for slug, _ in found.required] == ["kotlin", "kafka"]
    assert found.preferred == ("python",)
    assert Ignored("Rust", "rust", "only-mentioned") in found.ignored


@pytest.mark.parametrize(
    "heading",
    ["What you'll do", "About the team", "Our stack", "Responsibilities", "Location", "What's in it for you"],
)
def test_a_heading_that_tells_about_the_work_ends_the_requirements(heading):
    found = criteria(f"Firmware Engineer\n\nRequirements\n- Kotlin\n\n{heading}\n- Kafka and Python\n")
    assert [slug for slug, _ in found.required] == ["kotlin"]


def test_a_short_sentence_is_no_heading():
    assert required("Platform Engineer\n\nRequirements\n- Python\nYou have experience with Kotlin\n- Kafka\n") == [
        "python",
        "kotlin",
        "kafka",
    ]


# --- Not skills ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["framework", "cloud", "backend", "frontend", "debugging", "algorithm", "UI"])
def test_a_generic_word_is_never_a_skill_on_its_own(word):
    found = criteria(f"Platform Engineer\n\nRequirements\n- Kotlin\n- {word.capitalize()} experience\n")
    assert found.skills == ("kotlin",)


def test_a_common_word_in_capitals_is_no_skill_without_a_technical_context():
    found = criteria(
        "Customer Engineer\n\nRequirements\n- High EQ and a calm voice\n- Less experienced people are welcome too\n"
        "- Kotlin\n"
    )
    assert found.skills == ("kotlin",)


# --- Years ---------------------------------------------------------------------------------------------------------


def test_years_of_the_company_are_no_experience_asked_for():
    text = (
        "Platform Engineer\n\nIn over 35 years, the company has grown to 900 people in nine cities.\n\n"
        "Requirements\n- Kotlin\n"
    )
    assert criteria(text).min_years_coding is None
    assert criteria(text + "- 4+ years of professional experience\n").min_years_coding == 4


def test_several_years_is_no_number():
    assert criteria("Platform Engineer\n\nRequirements\n- Several years of Kotlin\n").min_years_coding is None
    assert criteria("Platform Engineer\n\nRequirements\n- A few years of Kotlin\n").min_years_coding is None


# --- Countries: the job's own place only ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "countries"),
    [
        ("Kotlin Engineer - Lisbon\n\nRequirements\n- Kotlin\n", ("PT",)),
        ("Kotlin Engineer\n\nLocation: Utrecht, hybrid\n\nRequirements\n- Kotlin\n", ("NL",)),
        ("Kotlin Engineer\n\nThe role is based in Toronto.\n\nRequirements\n- Kotlin\n", ("CA",)),
        ("Kotlin Engineer\n\nThis job is remote in Portugal.\n\nRequirements\n- Kotlin\n", ("PT",)),
        ("Kotlin Engineer\n\nYou will join us in Freiburg (D), two days a week.\n\nRequirements\n- Kotlin\n", ("DE",)),
        ("Kotlin Engineer\n\nYou will work from our Lyon office.\n\nRequirements\n- Kotlin\n", ("FR",)),
        (
            "Kotlin Engineer\n\nFully remote, open to candidates in Germany and Austria.\n\nRequirements\n- Kotlin\n",
            ("DE", "AT"),
        ),
    ],
)
def test_the_job_is_where_the_post_places_it(text, countries):
    assert criteria(text).countries == countries


@pytest.mark.parametrize(
    "sentence",
    [
        "We have offices in London, Lisbon and Toronto.",
        "Our headquarters are in Paris.",
        "Our team members live in Poland, Spain and Ireland.",
        "Our customers in Denmark and Portugal love the app.",
        "Quillbyte is a U.S.-based company with a global mission.",
        "Quillbyte is a Berlin-based startup.",
    ],
)
def test_other_offices_the_team_customers_and_the_headquarters_are_no_location(sentence):
    text = f"Kotlin Engineer\n\nRemote.\n\nAbout us\n{sentence} We ship every week.\n\nRequirements\n- Kotlin\n"
    assert criteria(text).countries == ()


# --- Cues bind to their clause -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "wanted", "welcome"),
    [
        ("Python (Java and Kotlin are a plus)", ["python"], ("java", "kotlin")),
        ("Mainly Python, and ideally also C", ["python"], ("c",)),
        ("Strong Python skills; Kafka would be useful", ["python"], ("kafka",)),
        ("Kafka (a plus)", [], ("kafka",)),
        ("Experience with Kafka, Redis or PostgreSQL is a plus", [], ("kafka", "redis", "postgresql")),
    ],
)
def test_a_preferred_cue_binds_to_its_clause_not_the_whole_line(line, wanted, welcome):
    found = criteria(f"Platform Engineer\n\nRequirements\n- {line}\n")
    assert [slug for slug, _ in found.required] == wanted
    assert found.preferred == welcome


# --- Degrees, and what the reading shows it left out ----------------------------------------------------------------


def test_the_field_of_a_degree_is_no_skill():
    found = criteria(
        "Data Engineer\n\nRequirements\n- A degree in Mathematics or Data Science\n"
        "- MSc in Statistics, Physics or Machine Learning, with strong SQL\n- BSc in Biology and 3+ years of Python\n"
    )
    assert [slug for slug, _ in found.required] == ["sql", "python"]
    assert Ignored("Data Science", "data-science", "not-a-skill") in found.ignored
    assert Ignored("Machine Learning", "machine-learning", "not-a-skill") in found.ignored


def test_technology_looking_terms_the_vocabulary_lacks_are_listed_as_unrecognised():
    found = criteria(
        "Bioinformatics Engineer\n\nWe use Hexaplot internally.\n\nRequirements\n"
        "- Pipelines in Nextflow or Snakemake, on AWS\n- Unit tests with MockK; maps in PostGIS\n"
        "- Experience with Yocto and RxJava, a BSc in Biology, fluent English and a CV in PDF\n"
    )
    assert found.unrecognised == ("Nextflow", "Snakemake", "MockK", "PostGIS", "Yocto", "RxJava")
    assert found.skills == ("bioinformatics", "aws", "unit-testing")  # the title's field is the job's own


def test_a_term_too_long_to_be_a_name_is_not_unrecognised_and_a_title_word_that_long_is_no_keyword():
    long_term, long_word = "Ab1" * 60, "ab1" * 60
    found = criteria(f"Backend {long_word} Engineer\n\nRequirements\n- Python and {long_term}; maps in PostGIS\n")
    assert found.unrecognised == ("PostGIS",)
    assert found.keywords == ("backend",)


def test_each_mention_left_out_says_why():
    found = criteria(
        "Platform Engineer\n\nWe build the app for iOS. We don't use Java, and we are moving off Perl. "
        "We are open to Kotlin, or another framework like Laravel.\n\nRequirements\n- Kotlin\n- High EQ\n- Cloud\n"
    )
    assert found.skills == ("kotlin",)
    assert {item.skill: item.reason for item in found.ignored} == {
        "ios": "only-mentioned",
        "java": "negated",
        "perl": "migrated-off",
        "laravel": "substitute",
        "eq": "not-a-skill",
        "cloud": "not-a-skill",
    }


# --- Job boards' overview lines ------------------------------------------------------------------------------------


def test_a_job_boards_overview_gives_years_but_not_the_companys_name_as_a_skill():
    found = criteria(
        "Senior Backend Engineer\nJob Overview\n- Company: Kafka\n- Location: Berlin, Germany\n"
        "- Experience Level: 5-10 years\n\nRequirements\n- Go and Kotlin (Spring)\n"
    )
    assert "kafka" not in found.skills
    assert found.min_years_coding == 5
    assert found.countries == ("DE",)


def test_a_framework_in_brackets_after_its_language_stands_with_it():
    assert required("Backend Engineer\n\nRequirements\n- Services in Kotlin (Spring) and Go\n") == [
        "kotlin",
        "spring",
        "go",
    ]


def test_less_before_experienced_is_no_skill():
    assert criteria("Backend Engineer\n\nRequirements\n- Kotlin\n- Patience with less experienced people\n").skills == (
        "kotlin",
    )


def test_numbered_expectations_mandatory_and_not_acceptable():
    found = criteria(
        "Backend Developer\n\n2.1 Programming Expectations\n- Java or Python is acceptable.\n"
        "- Strong Kotlin skills are mandatory.\n- C / C++ is not acceptable here.\n\n2.2 Tooling notes\n"
        "- CI/CD knowledge is an implicit requirement.\n- Jenkins is good-to-have, not mandatory.\n"
    )
    assert [slug for slug, _ in found.required] == ["java", "python", "kotlin", "ci-cd"]
    assert found.preferred == ("jenkins",)
    assert {item.skill: item.reason for item in found.ignored} == {"c": "negated", "cpp": "negated"}


def test_a_name_of_several_words_is_found_in_the_plural():
    assert required("Engineer\n\nRequirements\n- Training neural networks in PyTorch\n") == [
        "neural-network",
        "pytorch",
    ]
    assert required("Engineer\n\nRequirements\n- Kotlin\n") == ["kotlin"]


def test_clean_code_and_basic_understanding_are_english():
    found = criteria(
        "Backend Engineer\n\nRequirements\n- Writing clean code, covered with tests\n"
        "- Basic understanding of Kotlin\n- Less than two meetings a day\n"
    )
    assert found.skills == ("kotlin",)


def test_a_frequent_word_written_as_a_product_name_is_a_skill():
    # MySQL and Python are frequent words on the web; written as names, at the start of a line, they are the skills.
    found = criteria(
        "Backend Developer\n\nWhat you should have\nMySQL at scale, with replicas.\nPython for the rest.\n"
    )
    assert [slug for slug, _ in found.required] == ["mysql", "python"]
