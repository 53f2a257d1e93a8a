"""profiles.search.filtersets on the whole candidate (issue 14): jobs past and current, years employed and spoken
languages with their fluency, on files imported end to end and on rows a recruiter entered by hand."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from profiles.models import Candidate, SpokenLanguage
from profiles.selectors import candidate_search
from tests.factories import CandidateFactory, PositionFactory, SpokenLanguageFactory
from tests.fixtures import JSONRESUME_DIR, PROGAI_DIR
from tests.ingestion.imports import import_all, receive

pytestmark = pytest.mark.django_db

FILES = (
    JSONRESUME_DIR / "ilse-marchetti.work-history.json",  # five jobs, two open-ended and overlapping
    JSONRESUME_DIR / "work" / "jonas-breit.no-current-job.json",  # every job ended, one range inverted
    JSONRESUME_DIR / "bram-oosterhuis.legacy-keys.json",  # one ended job; Dutch native, English fluent
    JSONRESUME_DIR / "ruth-okonkwo.skill-groups-and-languages.json",  # nine languages, "fr" and "Inglés" among them
    JSONRESUME_DIR / "dalia-haddad.no-label.json",  # English (Professional)
    JSONRESUME_DIR / "misaki-sato.current-job-cjk.json",  # 日本語 (ネイティブ), 英語 (ビジネスレベル)
    PROGAI_DIR / "ingrid-valtonen.txt",  # declares 9 years of employment
)


@pytest.fixture
def imported() -> dict[str, Candidate]:
    """The fixtures imported as every channel imports them, by the first word of each candidate's name."""
    summary = import_all(receive(*((path.name, path.read_bytes()) for path in FILES)))
    assert summary.failed == 0
    return {candidate.name.split()[0]: candidate for candidate in Candidate.objects.all()}


def found(**params) -> set[str]:
    return {candidate.name for candidate in candidate_search(params=params)}


# --- company, title, current_company ------------------------------------------------------------------------------


def test_company_matches_a_past_job(imported):
    assert imported["Ilse"].company == "Northwind Labs"  # her current job; Lanternfish she left in 2021

    assert found(company="lanternfish gmbh") == {"Ilse Marchetti"}
    assert found(company="Quillmark") == {"Jonas Breit"}  # no current job at all: company is empty
    assert found(company="Tulpwerk B.V.") == {"Bram Oosterhuis"}


def test_company_matches_the_current_job_by_its_exact_name_in_any_case(imported):
    assert found(company="NORTHWIND  labs") == {"Ilse Marchetti"}
    assert found(company="Northwind") == set()  # a name, not words
    assert found(company="Salina Bikes") == {"Ilse Marchetti"}  # her other open-ended job


def test_company_matches_the_company_a_recruiter_wrote_by_hand(imported):
    CandidateFactory(name="Hand Edited", company="Fenwick & Daughters")  # no positions at all

    assert found(company="fenwick & daughters") == {"Hand Edited"}


def test_current_company_matches_only_current_jobs(imported):
    assert found(current_company="Northwind Labs") == {"Ilse Marchetti"}
    assert found(current_company="salina bikes") == {"Ilse Marchetti"}  # open-ended, though not the headline's
    assert found(current_company="Lanternfish GmbH") == set()  # ended in 2021
    assert found(current_company="Quillmark") == set()
    assert found(current_company="Tulpwerk B.V.") == set()


def test_current_company_reads_the_company_a_recruiter_wrote_by_hand():
    edited = CandidateFactory(name="Hand Edited", company="Fenwick & Daughters")
    PositionFactory(candidate=edited, company="Old Mill", end=dt.date(2019, 1, 1), start=dt.date(2015, 1, 1))
    CandidateFactory(name="Someone Else", company="Old Mill Holdings")

    assert found(current_company="Fenwick & Daughters") == {"Hand Edited"}
    assert found(current_company="Old Mill") == set()
    assert found(company="Old Mill") == {"Hand Edited"}


def test_title_matches_the_words_of_a_past_or_current_job(imported):
    assert found(title="platform engineer") == {"Ilse Marchetti"}  # her job at Lanternfish until 2021
    assert found(title="intern") == {"Ilse Marchetti"}
    assert found(title="Teacher") == {"Jonas Breit"}
    assert found(title="reliability engineer site") == {"Ilse Marchetti"}  # every word, in any order


def test_title_words_must_all_be_in_one_job(imported):
    # Ilse was a Platform Engineer and an Intern, never a Platform Intern.
    assert found(title="platform intern") == set()
    assert found(title="platform") == {"Ilse Marchetti"}


def test_title_matches_the_title_a_recruiter_wrote_by_hand():
    CandidateFactory(name="Hand Edited", title="Principal Gardener")
    PositionFactory(candidate=CandidateFactory(name="Other", title="Cook"), title="Sous Chef")

    assert found(title="gardener") == {"Hand Edited"}
    assert found(title="chef") == {"Other"}


# --- min_years_employed -------------------------------------------------------------------------------------------


def _months_since(year: int, month: int) -> int:
    today = dt.datetime.now(tz=dt.UTC).date()
    return (today.year - year) * 12 + today.month - month + 1


def test_min_years_employed_counts_overlapping_jobs_once(imported):
    # Ilse: an internship (June to September 2014, 4 months), then one job after another since January 2015, two of
    # them at once since 2019. Counted once, that is 4 months plus every month since 2015; summed job by job, years
    # more.
    years = (4 + _months_since(2015, 1)) // 12
    summed = (4 + 24 + 50 + _months_since(2019, 6) + _months_since(2021, 3)) // 12
    assert imported["Ilse"].years_employed == years < summed

    assert "Ilse Marchetti" in found(min_years_employed=years)
    assert "Ilse Marchetti" not in found(min_years_employed=years + 1)


def test_min_years_employed_counts_worked_months_not_the_time_since_the_first_job(imported):
    # Jonas: 2020-2022 (36 months, a teaching job inside them) and 10 months in 2025; his first job began in 2020.
    assert imported["Jonas"].years_employed == 3
    assert "Jonas Breit" in found(min_years_employed=3)
    assert "Jonas Breit" not in found(min_years_employed=4)


def test_min_years_employed_takes_the_figure_a_file_declares(imported):
    assert imported["Ingrid"].years_employed == 9  # "9 years of employment"; the file dates no job

    assert "Ingrid Valtonen" in found(min_years_employed=9)
    assert "Ingrid Valtonen" not in found(min_years_employed=10)


# --- language -----------------------------------------------------------------------------------------------------

ENGLISH = {"Ruth Okonkwo", "Bram Oosterhuis", "Dalia Haddad", "佐藤 美咲", "Ingrid Valtonen"}


@pytest.mark.parametrize("value", ["fr", "FR", "French", "french", "Français", "francés"])
def test_language_takes_a_code_or_a_name_in_any_language_and_case(imported, value):
    assert found(language=value) == {"Ruth Okonkwo"}  # her file wrote "fr"


@pytest.mark.parametrize("value", ["English", "en", "Inglés", "英語", "ENGLISH"])
def test_language_finds_every_way_files_write_a_language(imported, value):
    # Ruth wrote "Inglés", Misaki "英語", the others "English" (Ingrid's Prog.AI export without a level).
    assert found(language=value) == ENGLISH


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("english:native", {"Ruth Okonkwo"}),
        ("english:fluent", {"Ruth Okonkwo", "Bram Oosterhuis"}),  # full professional or better
        ("english:full_professional", {"Ruth Okonkwo", "Bram Oosterhuis"}),
        # Professional working or better: Dalia and Misaki exactly; Ingrid's English has no level.
        ("english:professional", ENGLISH - {"Ingrid Valtonen"}),
        ("English:Professional_Working", ENGLISH - {"Ingrid Valtonen"}),
        ("ja:professional", {"佐藤 美咲"}),  # Ruth's Japanese is intermediate: limited working
        ("ja:limited_working", {"佐藤 美咲", "Ruth Okonkwo"}),
        ("polish:elementary", {"Ruth Okonkwo"}),
        ("polish:limited working", set()),
        ("fr:elementary", set()),  # her French has no level given: it meets none
    ],
)
def test_language_with_a_level_needs_at_least_that_level(imported, value, expected):
    assert found(language=value) == expected


def test_a_language_no_code_names_matches_the_name_as_written():
    SpokenLanguageFactory(candidate=CandidateFactory(name="Highlander"), code="", name="Zorblish Highland", fluency="")
    SpokenLanguageFactory(candidate=CandidateFactory(name="Other"), code="", name="Zorblish", fluency="")

    assert found(language="zorblish highland") == {"Highlander"}


def test_language_still_reads_the_names_entered_before_language_rows():
    CandidateFactory(name="Hand Entered", spoken_languages=["English", "fr"])  # no SpokenLanguage rows
    CandidateFactory(name="Nobody", spoken_languages=["German"])

    assert found(language="english") == {"Hand Entered"}
    assert found(language="French") == {"Hand Entered"}  # the old import stored the code as written
    assert found(language="english:elementary") == set()  # a name alone says no level


def test_language_levels_follow_the_model_scale_highest_first():
    speaker = CandidateFactory(name="Speaker")
    for level in SpokenLanguage.Fluency.values:
        SpokenLanguageFactory(candidate=speaker, code="de", name="German", fluency=level)
        assert found(language=f"de:{level}") == {"Speaker"}
        SpokenLanguage.objects.filter(candidate=speaker).delete()


@pytest.mark.parametrize("value", ["english:superb", "english:", ":native", "english:native:fluent"])
def test_a_level_that_is_no_level_is_an_error_naming_the_levels(value):
    with pytest.raises(ValidationError) as raised:
        list(candidate_search(params={"language": value}))

    [message] = raised.value.message_dict["language"]
    assert repr(value) in message
    assert "native, full_professional, professional_working, limited_working, elementary" in message
