"""GET /api/v1/candidates/{id}/: the full profile, its sources, and match for requested skills."""

import datetime as dt
import hashlib

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from profiles.models import Skill
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    ImportBatchFactory,
    PositionFactory,
    RepositoryFactory,
    SourceFileFactory,
    SpokenLanguageFactory,
    UserFactory,
)
from tests.fixtures import JSONRESUME_DIR
from tests.ingestion.imports import import_file

pytestmark = pytest.mark.django_db


def url(pk: int) -> str:
    return reverse("api:candidate-detail", kwargs={"pk": pk})


@pytest.fixture
def candidate(consumer):
    candidate = CandidateFactory(name="Mira Okafor", city="Lagos", region="Lagos State", country="Nigeria")
    candidate.country_code = "NG"
    candidate.save()
    CandidateSkillFactory(candidate=candidate, skill=Skill.objects.get(slug="python"), score=9, label="python3")
    CandidateSkillFactory(
        candidate=candidate, skill=Skill.objects.get(slug="go"), score=6, label="Go", section="language", position=1
    )
    EducationFactory(
        candidate=candidate,
        degree="Master's Degree",
        field="CS",
        minor="",
        school="UNILAG",
        start=dt.date(2012, 9, 1),
        end=dt.date(2014, 7, 1),
    )
    EducationFactory(candidate=candidate, degree="BSc", field="", minor="", school="Yaba Tech", position=1)
    repository = RepositoryFactory(full_name="lumen/optics", description="Optical flow", topics=["compiler", "ml"])
    ContributionFactory(
        candidate=candidate,
        repository=repository,
        role="Maintainer",
        commits=120,
        comments=4,
        start="2021-02-01",
        end=None,
        is_current=True,
        active_months=20,
        summary="Rewrote the scheduler.",
    )
    SourceFileFactory(
        original_name="mira.txt",
        content=b"Mira",
        format="progai",
        candidate=candidate,
        batch=ImportBatchFactory(created_by=consumer),  # the reader's own upload: its name is theirs to see
    )
    return candidate


def test_it_shows_the_whole_profile(api, candidate):
    data = api.get(url(candidate.pk)).json()

    assert data["id"] == candidate.pk
    assert data["url"] == f"http://testserver{url(candidate.pk)}"
    assert data["location"] == {"city": "Lagos", "region": "Lagos State", "country": "Nigeria", "country_code": "NG"}
    assert data["skills"] == [{"slug": "python", "name": "Python", "score": 9, "label": "python3"}]
    assert data["programming_languages"] == [{"slug": "go", "name": "Go", "score": 6, "label": "Go"}]
    assert data["education"] == [
        {
            "degree": "Master's Degree",
            "field": "CS",
            "minor": "",
            "school": "UNILAG",
            "start": "2012-09",
            "end": "2014-07",
        },
        {"degree": "BSc", "field": "", "minor": "", "school": "Yaba Tech", "start": None, "end": None},
    ]
    assert data["contributions"] == [
        {
            "repository": "lumen/optics",
            "repository_description": "Optical flow",
            "start": "2021-02",
            "end": None,
            "role": "Maintainer",
            "commits": 120,
            "comments": 4,
            "active_months": 20,
            "summary": "Rewrote the scheduler.",
            "topics": ["compiler", "ml"],
        }
    ]
    [source] = data["sources"]
    assert (source["name"], source["format"], source["status"], source["sha256"]) == (
        "mira.txt",
        "progai",
        "pending",
        hashlib.sha256(b"Mira").hexdigest(),
    )
    assert "match" not in data
    assert {"created_at", "updated_at", "summary", "badges", "spoken_languages", "skills_declared"} <= data.keys()


def test_it_computes_match_for_requested_skills_without_filtering(api, candidate):
    # python 9, go 6, rust missing: (90 + 60 + 0) / 3 = 50, though go is below the asked minimum.
    data = api.get(url(candidate.pk), {"skill": ["py", "go:8"], "any_skill": "rust"}).json()

    assert data["match"] == 50


def test_it_takes_no_other_filters(api, candidate):
    response = api.get(url(candidate.pk), {"country": "DE"})

    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("Unknown parameter(s): country.")


def test_a_missing_candidate_is_a_404_in_the_error_shape(api):
    response = api.get(url(999_999_999))

    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "No candidate with this id.", "details": {}}}


def test_experience_lists_every_job_newest_first(api):
    ilse = import_file(JSONRESUME_DIR / "ilse-marchetti.work-history.json")

    data = api.get(url(ilse.pk)).json()

    # The two open-ended jobs first (the later start first), then the ended ones by their end, latest first.
    assert data["experience"] == [
        {
            "company": "Northwind Labs",
            "title": "Site Reliability Engineer",
            "location": "Bologna, Italy",
            "start": "2021-03",
            "end": None,
            "current": True,
            "summary": "Keeps the payment APIs up.",
        },
        {
            "company": "Salina Bikes",
            "title": "Part-time Mentor",
            "location": "",
            "start": "2019-06",
            "end": None,
            "current": True,
            "summary": "",
        },
        {
            "company": "Lanternfish GmbH",
            "title": "Platform Engineer",
            "location": "",
            "start": "2017-01",
            "end": "2021-02",
            "current": False,
            "summary": "",
        },
        {
            "company": "Lanternfish GmbH",
            "title": "Junior Developer",
            "location": "",
            "start": "2015-01",
            "end": "2016-12",
            "current": False,
            "summary": "",
        },
        {
            "company": "Trattoria Digitale",
            "title": "Intern",
            "location": "",
            "start": "2014-06",
            "end": "2014-09",
            "current": False,
            "summary": "",
        },
    ]
    assert (data["company"], data["title"]) == ("Northwind Labs", "Site Reliability Engineer")


def test_an_undated_job_has_null_months(detail_of):
    candidate = CandidateFactory()
    PositionFactory(candidate=candidate, company="Lumivaara", title="Principal Compiler Engineer", start=None)

    [job] = detail_of(candidate)["experience"]

    assert (job["start"], job["end"], job["current"]) == (None, None, True)


def test_languages_list_code_english_name_and_fluency_as_the_file_lists_them(api):
    ruth = import_file(JSONRESUME_DIR / "ruth-okonkwo.skill-groups-and-languages.json")

    data = api.get(url(ruth.pk)).json()

    assert data["languages"] == [
        {"code": "ja", "name": "Japanese", "fluency": "limited_working"},  # "Japanese – Intermediate"
        {"code": "fr", "name": "French", "fluency": ""},  # "fr", no level given
        {"code": "en", "name": "English", "fluency": "native"},  # "Inglés", "Nativo"
        {"code": "de", "name": "German", "fluency": "native"},
        {"code": "it", "name": "Italian", "fluency": "full_professional"},
        {"code": "pt", "name": "Portuguese", "fluency": "native"},
        {"code": "sw", "name": "Swahili", "fluency": "native"},
        {"code": "nl", "name": "Dutch", "fluency": "limited_working"},
        {"code": "pl", "name": "Polish", "fluency": "elementary"},
    ]
    # The names stay as they were.
    assert data["spoken_languages"] == [language["name"] for language in data["languages"]]


def test_a_language_no_data_set_knows_has_an_empty_code(detail_of):
    candidate = CandidateFactory()
    SpokenLanguageFactory(candidate=candidate, code="", name="Zorblish", fluency="")

    assert detail_of(candidate)["languages"] == [{"code": "", "name": "Zorblish", "fluency": ""}]


def test_the_list_stays_lean_without_jobs_or_languages(api):
    import_file(JSONRESUME_DIR / "ilse-marchetti.work-history.json")

    [row] = api.get(reverse("api:candidate-list")).json()["results"]

    assert not {"experience", "languages", "education"} & row.keys()


@pytest.fixture
def detail_of(api):
    return lambda candidate: api.get(url(candidate.pk)).json()


def test_it_runs_a_fixed_number_of_queries(api, candidate, django_assert_num_queries):
    PositionFactory.create_batch(3, candidate=candidate)
    SpokenLanguageFactory.create_batch(2, candidate=candidate)
    # token, the reader's permissions (their own and their groups': may they view every import batch?), candidate,
    # skills, jobs, education, spoken languages, contributions (+ repositories joined), sources (with whether the
    # reader may view each's batch)
    with django_assert_num_queries(10):
        assert api.get(url(candidate.pk)).status_code == 200


def test_a_source_from_a_batch_the_reader_may_not_view_shows_neither_name_nor_hash(api, consumer, candidate):
    """Issue 15, hole 16: a candidate's detail showed other users' upload file names and hashes, although their
    batches are private. Such a source is listed (the profile did come from a file) without what identifies it."""
    someone = UserFactory(username="someone")
    SourceFileFactory(
        original_name="someone-secret.txt", candidate=candidate, batch=ImportBatchFactory(created_by=someone)
    )
    SourceFileFactory(original_name="inbox-file.txt", candidate=candidate)  # no batch: the import's record is gone

    sources = api.get(url(candidate.pk)).json()["sources"]

    assert sorted((s["name"] or "", bool(s["sha256"])) for s in sources) == [
        ("", False),
        ("", False),
        ("mira.txt", True),
    ]
    assert all(s["id"] and s["status"] and s["created_at"] for s in sources)


def test_a_reader_who_may_view_every_batch_sees_every_sources_name(api, consumer, candidate):
    consumer.user_permissions.add(
        Permission.objects.get(codename="view_importbatch", content_type__app_label="ingestion")
    )
    SourceFileFactory(original_name="someone-secret.txt", candidate=candidate, batch=ImportBatchFactory())

    sources = api.get(url(candidate.pk)).json()["sources"]

    assert sorted(s["name"] for s in sources) == ["mira.txt", "someone-secret.txt"]
