"""Patterns of real job posts a sourcer reads one way and the reader once read another, each on a fictional line or
post read with the shipped vocabulary: the job's own technology in its title, headings inside one line, a lower bar
("familiarity with"), several cities on the location line, a consumer platform's name as a noun modifier, the title
words of a post pasted as one sentence, and the cues and lists of posts that were read wrong. No database."""

from __future__ import annotations

import pytest

from jobs.criteria import BASIC_MIN_SCORE, DEFAULT_MIN_SCORE, extract_criteria
from tests.fixtures import FIXTURES_DIR
from tests.jobs.helpers import CITIES, Expected, differences
from tests.jobs.test_criteria_shipped import criteria, shipped


def required(text: str) -> list[str]:
    return [slug for slug, _ in criteria(text).required]


# --- The job's own technology in its title ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Backend Engineer (Ruby on Rails)", "rails"),
        ("Senior Android Engineer", "android"),
        ("Kotlin Developer - Payments", "kotlin"),
        ("Job Title: Golang Engineer (Platform)", "go"),
    ],
)
def test_a_technology_named_only_in_the_title_is_required(title, slug):
    found = required(f"{title}\n\nRequirements:\n- PostgreSQL and Redis.\n- 3+ years of backend work.\n")
    assert slug in found
    assert {"postgresql", "redis"} <= set(found)


def test_the_titles_company_and_generic_words_are_no_requirement():
    found = criteria("Backend Engineer at Spotify\n\nRequirements:\n- PostgreSQL.\n")
    assert [slug for slug, _ in found.required] == ["postgresql"]
    assert criteria("Senior Web Developer\n\nRequirements:\n- PostgreSQL.\n").skills == ("postgresql",)


# --- Headings inside one line -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Requirements: Go, PostgreSQL. Nice to have: Rust.",
        "Backend Engineer\n\nRequirements: Go, PostgreSQL. Nice to have: Rust.\n",
        "We are hiring. Must have: Go and PostgreSQL; Bonus: Rust.",
    ],
)
def test_a_heading_after_a_sentence_end_on_the_same_line_starts_its_section(text):
    found = criteria(text)
    assert ([slug for slug, _ in found.required], found.preferred) == (["go", "postgresql"], ("rust",))


def test_a_heading_glued_to_the_end_of_a_line_starts_the_section_below():
    text = (
        "Profile\n5+ years of backend work with Go, load testing (k6)Nice-to-haves\n"
        "Search systems, caching (Redis), Docker\nWorking method: trunk-based development\n"
    )
    found = criteria(text)
    assert [slug for slug, _ in found.required] == ["go"]
    assert {"redis", "docker"} <= set(found.preferred)


# --- A lower bar: familiarity, exposure, basic knowledge --------------------------------------------------------------


def test_familiarity_exposure_and_basic_knowledge_are_required_at_a_lower_minimum():
    found = criteria(
        "Requirements:\n- Strong Python.\n- Familiarity with Docker.\n- Exposure to Kubernetes.\n"
        "- Basic knowledge of SQL.\n- Working knowledge of Git.\n- Kafka.\n"
    )
    scores = dict(found.required)
    assert scores["kafka"] == DEFAULT_MIN_SCORE
    assert scores["python"] > DEFAULT_MIN_SCORE
    assert [scores[slug] for slug in ("docker", "kubernetes", "sql", "git")] == [BASIC_MIN_SCORE] * 4
    assert "basic" not in {item.skill for item in found.ignored}
    assert found.preferred == ()


def test_familiarity_under_a_preferred_heading_stays_preferred():
    found = criteria("Requirements:\n- Go.\n\nNice to have:\n- Familiarity with Rust.\n")
    assert (dict(found.required), found.preferred) == ({"go": DEFAULT_MIN_SCORE}, ("rust",))


# --- Several cities on the job's location line ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "countries"),
    [
        ("Data Engineer\nLocation: London, Barcelona\n\nRequirements:\n- Python.\n", ["GB", "ES"]),
        ("Data Engineer\n\nLocation: Barcelona or Milan (hybrid)\n\nRequirements:\n- Python.\n", ["ES", "IT"]),
        ("Data Engineer - Bangalore\n\nRequirements:\n- Python.\n", ["IN"]),
        ("Data Engineer\n\nThe role is based in our São Paulo office.\n\nRequirements:\n- Python.\n", ["BR"]),
    ],
)
def test_well_known_cities_of_the_jobs_place_give_their_countries(text, countries):
    assert sorted(criteria(text).countries) == sorted(countries)


def test_a_city_outside_the_jobs_place_gives_no_country():
    text = "Data Engineer\nLocation: London\n\nOur customers are in Barcelona and Milan.\n\nRequirements:\n- Python.\n"
    assert criteria(text).countries == ("GB",)


# --- A consumer platform's name as a noun modifier ----------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "We are hiring a Kotlin engineer to own the Spotify UI layer of our car app.",
        "You will use Kotlin to build our Instagram sharing flow.",
    ],
)
def test_a_platforms_name_before_a_noun_is_the_product_not_a_skill(sentence):
    found = criteria(f"Android Engineer\n\n{sentence}\n")
    assert "kotlin" in found.skills
    assert not {"spotify", "instagram"} & set(found.skills)


def test_a_platforms_api_asked_for_is_a_skill():
    assert "spotify" in required("Requirements:\n- Kotlin.\n- Experience with the Spotify API.\n")


# --- Title words of a post pasted as one sentence ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("We need a senior Python developer with 5 years of Django experience, remote in Spain.", ("senior",)),
        ("Looking for a Go engineer who knows Kafka and AWS; Kubernetes is a plus.", ()),
        ("Requirements: Go, PostgreSQL. Nice to have: Rust.", ()),
        ("Responsibilities\n- Build REST APIs in Go.\n\nRequirements\n- Go.\n", ()),
        ("Senior Data Engineer (Payments)\n\nRequirements:\n- Python.\n", ("senior", "data")),
    ],
)
def test_a_title_is_read_only_from_a_line_that_is_a_title(text, keywords):
    assert criteria(text).keywords == keywords


def test_a_one_sentence_post_with_only_a_preferred_cue_requires_the_rest():
    found = criteria("Looking for a Go engineer who knows Kafka and AWS; Kubernetes is a plus.")
    assert ([slug for slug, _ in found.required], found.preferred) == (["go", "kafka", "aws"], ("kubernetes",))


# --- Cues and lists seen on real posts ----------------------------------------------------------------------------


def test_a_bracket_saying_nice_makes_its_skill_preferred():
    found = criteria("Qualifications:\n- Expertise in C (C++ nice), RTOS or bare metal.\n")
    assert ([slug for slug, _ in found.required], found.preferred) == (["c", "rtos"], ("cpp",))


@pytest.mark.parametrize(
    "sentence",
    [
        "The role requires React, Node.js and TypeScript.",
        "Your programming skills should be strong in React, Node.js and TypeScript.",
    ],
)
def test_requires_and_skills_should_be_strong_in_are_required_cues(sentence):
    found = criteria(f"Frontend Engineer\n\n{sentence}\n\nRequirements:\n- Git.\n")
    assert {"react", "nodejs", "typescript", "git"} <= set(
        required(f"Frontend Engineer\n\n{sentence}\n\nRequirements:\n- Git.\n")
    )
    assert found.preferred == ()


def test_a_post_whose_only_ask_is_a_generic_word_requires_the_skills_it_names():
    text = (
        "Senior Web Engineer\n\nYou will build web experiences using technologies like Vue.js and Nuxt.\n\n"
        "The ideal candidate has a proven record in frontend systems.\n"
    )
    assert {"vue", "nuxt"} <= set(required(text))


def test_not_afraid_of_is_no_negation():
    assert required("Requirements:\n- Kotlin.\n- Not afraid of Kubernetes.\n") == ["kotlin", "kubernetes"]


def test_a_backslash_joins_two_skills_of_a_list():
    assert {"sass", "less"} <= set(required("Requirements:\n- Webpack, SASS\\LESS.\n"))


@pytest.mark.parametrize(
    "line", ["Toolchains such as GCC & CCS.", "Toolchains including but not limited to GCC & CCS."]
)
def test_an_acronym_after_to_or_before_an_ampersand_is_named_not_an_idiom(line):
    assert "gcc" in required(f"Requirements:\n- {line}\n")


def test_a_fundamental_concept_is_no_text_format():
    found = criteria("Requirements:\n- C.\n- Excellent understanding of fundamental programming concepts.\n")
    assert [slug for slug, _ in found.required] == ["c"]


@pytest.mark.parametrize(
    ("text", "wanted_required", "wanted_preferred"),
    [
        ("Requisitos\n- Rust\n- Git\n\nDiferenciais\n- Docker\n", ["rust", "git"], ("docker",)),
        ("Requisitos:\n- Python\n\nSe valorará:\n- Kafka\n", ["python"], ("kafka",)),
        ("Dein Profil:\n- Go\n\nWünschenswert:\n- Rust\n", ["go"], ("rust",)),
        ("Profil recherché :\n- Java\n\nUn plus :\n- Kotlin\n", ["java"], ("kotlin",)),
    ],
)
def test_headings_in_portuguese_spanish_german_and_french(text, wanted_required, wanted_preferred):
    found = criteria(text)
    assert ([slug for slug, _ in found.required], found.preferred) == (wanted_required, wanted_preferred)


# --- Our posts of these patterns -----------------------------------------------------------------------------------

LIMITS_DIR = FIXTURES_DIR / "jobs_shipped"


@pytest.mark.parametrize("name", ["jd-one-line-stack", "jd-rails-title-cities"])
def test_our_posts_of_these_patterns_give_their_expected_criteria(name):
    found = extract_criteria((LIMITS_DIR / f"{name}.txt").read_text(encoding="utf-8"), shipped(), cities=CITIES)
    assert differences(found, Expected.read(LIMITS_DIR / f"{name}.expected.json")) == []


# --- What a platform's brackets hold, the employer's own name, a job open worldwide ---------------------------------


def test_lower_case_words_in_brackets_after_a_tool_are_its_practices_not_its_products():
    found = criteria("Requirements:\n- Git (branches, pull requests, review and merge strategies).\n- Rust.\n")
    assert [slug for slug, _ in found.required] == ["git", "rust"]


@pytest.mark.parametrize(
    "text",
    [
        "Site Reliability Engineer\n\nRemote\n\nGitLab\n\nKeep the GitLab production systems healthy with Terraform.\n",
        "Site Reliability Engineer at GitLab\n\nKeep the GitLab production systems healthy with Terraform.\n",
        "Site Reliability Engineer\n\nAt GitLab, we run GitLab.com with Terraform.\n",
        "Site Reliability Engineer\n\nAbout GitLab\nWe build a DevOps platform.\n\nRequirements\n- Terraform.\n",
    ],
)
def test_the_employers_own_name_is_no_skill(text):
    found = criteria(text)
    assert "terraform" in found.skills
    assert "gitlab" not in found.skills


def test_the_employers_api_asked_for_is_a_skill():
    text = "Integrations Engineer at Slack\n\nRequirements:\n- Kotlin.\n- Experience with the Slack API.\n"
    assert {"slack", "slack-api"} & set(required(text))


@pytest.mark.parametrize(
    ("line", "countries", "remote"),
    [
        ("Remote Status: Hybrid (Berlin office) or fully remote (global, EU time zones preferred)", [], True),
        ("Fully remote, from anywhere in the world.", [], True),
        ("Fully remote within Germany.", ["DE"], True),
        ("Hybrid, two days a week in our Berlin office.", ["DE"], False),
    ],
)
def test_a_job_open_worldwide_is_in_no_country(line, countries, remote):
    found = criteria(f"Backend Engineer\nLocation: Berlin, Germany\n\n{line}\n\nRequirements:\n- Go.\n")
    assert (sorted(found.countries), found.remote) == (countries, remote)


@pytest.mark.parametrize(
    ("line", "slug"),
    [
        ("Experience with Real Time Operating Systems.", "rtos"),
        ("UI tests with WebdriverIO.", "webdriverio"),
        ("Node.js with Fastify.", "fastify"),
        ("Embeddings in PostgreSQL with pgvector.", "pgvector"),
    ],
)
def test_technologies_seen_on_real_posts_are_known(line, slug):
    assert slug in required(f"Requirements:\n- {line}\n")


@pytest.mark.parametrize(
    ("title", "keywords"),
    [
        ("Développeur Backend Senior (H/F)", ("senior", "backend")),
        ("Desenvolvedor(a) Backend Pleno", ("backend", "pleno")),
        ("Ingénieur Données - Lyon", ("données",)),
    ],
)
def test_title_words_in_other_languages_are_whole_words_and_the_role_word_is_generic(title, keywords):
    assert criteria(f"{title}\n\nRequirements:\n- Python.\n").keywords == keywords


def test_code_review_and_code_quality_are_practices_not_criteria():
    found = criteria("Requirements:\n- Kotlin.\n- Code reviews and a passion for code quality.\n")
    assert [slug for slug, _ in found.required] == ["kotlin"]


@pytest.mark.parametrize("line", ["London Full-Time Home office (partial)", "London, partial home office"])
def test_partial_home_office_is_hybrid(line):
    assert criteria(f"Data Engineer\n{line}\n\nRequirements:\n- Python.\n").remote is False


@pytest.mark.parametrize(
    "sentence",
    [
        "Our engineers include the founders of RabbitMQ and alumni from VMware and Google.",
        "We are backed by investors who built MongoDB.",
        "Our customers include teams running Kafka at scale.",
    ],
)
def test_names_in_a_sentence_about_the_teams_past_or_its_customers_are_no_criteria(sentence):
    found = criteria(f"Backend Engineer\n\n{sentence}\n\nWhat you'll do\n- Design and code features in Go.\n")
    assert [slug for slug, _ in found.required] == ["go"]


@pytest.mark.parametrize(("line", "slug"), [("Metrics in Thanos.", "thanos"), ("Key-value stores (etcd).", "etcd")])
def test_monitoring_and_store_tools_seen_on_real_posts_are_known(line, slug):
    assert slug in required(f"Requirements:\n- Go.\n- {line}\n")
