"""Issue 14: what an import keeps of the whole candidate: every job as a position, education dates, spoken languages
as rows with their fluency; rewritten by a newer file, and searched.

Files go in through the import every channel uses (tests/fixtures/jsonresume/), so each assertion is on the rows a
recruiter reads.
"""

import json
from datetime import date

import pytest

from ingestion.models import SourceFile
from profiles.models import Candidate, Education, Position, SpokenLanguage
from tests.fixtures import JSONRESUME_DIR, PROGAI_DIR, corpus_params, corpus_path
from tests.ingestion.imports import import_all, import_file, receive

pytestmark = pytest.mark.django_db


def test_every_work_entry_is_stored_as_a_position_in_the_files_order():
    candidate = import_file(JSONRESUME_DIR / "ilse-marchetti.work-history.json")

    rows = list(
        candidate.positions.order_by("order").values_list("order", "company", "title", "start", "end", "is_current")
    )
    assert rows == [
        (0, "Northwind Labs", "Site Reliability Engineer", date(2021, 3, 1), None, True),
        (1, "Lanternfish GmbH", "Platform Engineer", date(2017, 1, 1), date(2021, 2, 1), False),
        (2, "Salina Bikes", "Part-time Mentor", date(2019, 6, 1), None, True),
        (3, "Lanternfish GmbH", "Junior Developer", date(2015, 1, 1), date(2016, 12, 1), False),
        (4, "Trattoria Digitale", "Intern", date(2014, 6, 1), date(2014, 9, 1), False),
    ]
    first = candidate.positions.get(order=0)
    assert (first.location, first.url) == ("Bologna, Italy", "https://northwind-labs.example.com")
    assert first.summary == "Keeps the payment APIs up."
    assert first.highlights == ["Halved the pager load", "Wrote the incident handbook"]
    assert candidate.positions.get(order=1).url == "https://lanternfish.example.de"  # the legacy `website`
    assert (candidate.company, candidate.title) == ("Northwind Labs", "Site Reliability Engineer")


def test_an_inverted_range_is_stored_in_order_with_a_warning_on_the_source_file():
    candidate = import_file(JSONRESUME_DIR / "work" / "jonas-breit.no-current-job.json")

    job = candidate.positions.get(company="Copperleaf")
    assert (job.start, job.end, job.is_current) == (date(2025, 1, 1), date(2025, 11, 1), False)
    assert candidate.company == ""  # no job is current
    warnings = candidate.sources.get().warnings
    assert any("Copperleaf" in w and "other way round" in w for w in warnings), warnings
    assert candidate.positions.count() == 4


def test_the_database_refuses_a_job_that_ends_before_it_starts_or_is_current_with_an_end():
    from django.db import IntegrityError, transaction

    candidate = import_file(JSONRESUME_DIR / "ilse-marchetti.work-history.json")
    with pytest.raises(IntegrityError), transaction.atomic():
        Position.objects.create(candidate=candidate, order=9, start=date(2020, 5, 1), end=date(2020, 4, 1))
    with pytest.raises(IntegrityError), transaction.atomic():
        Position.objects.create(candidate=candidate, order=9, end=date(2020, 4, 1), is_current=True)


def test_education_keeps_its_dates():
    candidate = import_file(JSONRESUME_DIR / "tove-lindqvist.complete.json")

    school = candidate.education.get()
    assert (school.school, school.start, school.end) == (
        "Chalmers University of Technology",
        date(2009, 8, 1),
        date(2014, 1, 1),
    )


def test_spoken_languages_are_rows_with_code_english_name_fluency_and_the_text_as_written():
    candidate = import_file(JSONRESUME_DIR / "ruth-okonkwo.skill-groups-and-languages.json")

    rows = list(candidate.languages.order_by("position").values_list("code", "name", "fluency", "raw"))
    level = SpokenLanguage.Fluency
    assert rows == [
        ("ja", "Japanese", level.LIMITED_WORKING, "Japanese – Intermediate"),
        ("fr", "French", "", "fr"),
        ("en", "English", level.NATIVE, "Inglés (Nativo)"),
        ("de", "German", level.NATIVE, "Deutsch (Muttersprache)"),
        ("it", "Italian", level.FULL_PROFESSIONAL, "Italian (C1)"),
        ("pt", "Portuguese", level.NATIVE, "Português (Langue maternelle)"),
        ("sw", "Swahili", level.NATIVE, "Swahili (bilingual)"),
        ("nl", "Dutch", level.LIMITED_WORKING, "Dutch (Limited working proficiency)"),
        ("pl", "Polish", level.ELEMENTARY, "Polish (A2)"),
    ]
    assert "English" in candidate.spoken_languages  # the names stay, for the list and the old filter


def test_the_prog_ai_headline_is_the_current_position_without_dates():
    candidate = import_file(PROGAI_DIR / "ingrid-valtonen.txt")

    job = candidate.positions.get()
    assert (job.company, job.title, job.start, job.end, job.is_current) == (
        candidate.company,
        candidate.title,
        None,
        None,
        True,
    )
    assert job.company
    assert job.title


def test_a_newer_file_of_the_same_person_replaces_jobs_and_languages():
    path = JSONRESUME_DIR / "ilse-marchetti.work-history.json"
    candidate = import_file(path)
    newer = path.read_text(encoding="utf-8").replace('"Intern"', '"Summer Intern"')
    newer = newer.replace('"basics": {', '"languages": [{"language": "Italian", "fluency": "Native"}], "basics": {', 1)

    batch = receive(("ilse-newer.json", newer.encode()))
    import_all(batch)

    assert SourceFile.objects.get(batch=batch).candidate_id == candidate.pk
    assert candidate.positions.count() == 5
    assert candidate.positions.get(order=4).title == "Summer Intern"
    assert list(candidate.languages.values_list("code", "fluency")) == [("it", SpokenLanguage.Fluency.NATIVE)]
    assert Position.objects.count() == 5
    assert Education.objects.filter(candidate=candidate).count() == 0


def test_past_jobs_titles_and_companies_are_in_the_full_text_vector():
    candidate = import_file(JSONRESUME_DIR / "ilse-marchetti.work-history.json")

    for word in ("Trattoria", "Lanternfish", "mentor"):
        found = Candidate.objects.filter(search_vector=word).values_list("pk", flat=True)
        assert list(found) == [candidate.pk], word


# --- The corpus (an extra layer) -------------------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params("jsonresume"))
def test_every_corpus_resume_imports_with_all_its_work_entries_as_positions(path):
    """Issue 14, done when: every JSON Resume file of the corpus imports with all its work[] entries as positions."""
    work = [job for job in json.loads(path.read_text(encoding="utf-8")).get("work") or [] if isinstance(job, dict)]

    candidate = import_file(path)

    stored = list(candidate.positions.order_by("order").values_list("company", "title"))
    assert stored == [
        ((job.get("name") or job.get("company") or "").strip(), (job.get("position") or "").strip()) for job in work
    ]


@pytest.mark.corpus
def test_the_corpus_seed_profile_imports_with_one_current_position():
    """Issue 14, done when: the seed profile has one current position, Google, Staff Software Engineer."""
    candidate = import_file(corpus_path("progai", "jinliang-wei.txt"))

    assert list(candidate.positions.values_list("company", "title", "is_current", "start", "end")) == [
        ("Google", "Staff Software Engineer", True, None, None)
    ]


def test_an_inverted_job_gets_one_warning_naming_the_entry_not_two():
    candidate = import_file(JSONRESUME_DIR / "work" / "jonas-breit.no-current-job.json")

    copperleaf = [w for w in candidate.sources.get().warnings if "Copperleaf" in w]
    assert copperleaf == [
        "work[0] (Backend Engineer at Copperleaf): starts (2025-11) after it ends (2025-01); "
        "stored the other way round."
    ]
