"""The candidate change form's whole candidate (issue 14): the jobs newest first, the spoken languages with their
fluency and the study dates, read by everyone who may view a candidate and edited by those who may change one; an
edited job is searched at once."""

import datetime as dt

import pytest
from django.urls import reverse

from profiles.models import Position, SpokenLanguage
from profiles.selectors import candidate_search
from tests.admin.forms import form_data
from tests.factories import CandidateFactory, EducationFactory, PositionFactory, SpokenLanguageFactory
from tests.fixtures import JSONRESUME_DIR
from tests.ingestion.imports import import_file

pytestmark = pytest.mark.django_db

ILSE = JSONRESUME_DIR / "ilse-marchetti.work-history.json"  # five jobs, two of them open-ended
RUTH = JSONRESUME_DIR / "ruth-okonkwo.skill-groups-and-languages.json"  # nine languages


def edit_url(candidate) -> str:
    return reverse("admin:profiles_candidate_edit", args=[candidate.pk])


def form_of(client, candidate) -> dict:
    return form_data(client.get(edit_url(candidate)).content.decode(), "candidate_form")


def rows(data: dict, prefix: str, field: str) -> list[str]:
    """The values of one field of an inline's forms, in the order the page shows them."""
    return [data[f"{prefix}-{n}-{field}"] for n in range(int(data[f"{prefix}-TOTAL_FORMS"]))]


def post(client, candidate, data: dict, **changes):
    return client.post(edit_url(candidate), {**data, **changes})


def test_the_jobs_of_an_imported_file_are_listed_newest_first(recruiter_client):
    ilse = import_file(ILSE)

    data = form_of(recruiter_client, ilse)

    assert rows(data, "positions", "company") == [
        "Northwind Labs",  # current, since 2021-03
        "Salina Bikes",  # current, since 2019-06
        "Lanternfish GmbH",  # ended 2021-02
        "Lanternfish GmbH",  # ended 2016-12
        "Trattoria Digitale",  # ended 2014-09
    ]
    assert rows(data, "positions", "title")[0] == "Site Reliability Engineer"
    assert rows(data, "positions", "location")[0] == "Bologna, Italy"
    assert rows(data, "positions", "start")[:3] == ["2021-03", "2019-06", "2017-01"]
    assert rows(data, "positions", "end")[2:] == ["2021-02", "2016-12", "2014-09"]
    assert data["positions-0-is_current"] == "on"
    assert "positions-2-is_current" not in data
    assert data["positions-0-summary"] == "Keeps the payment APIs up."
    assert data["positions-0-highlights"] == "Halved the pager load\nWrote the incident handbook"


def test_the_spoken_languages_are_listed_with_their_code_and_fluency(recruiter_client):
    ruth = import_file(RUTH)

    data = form_of(recruiter_client, ruth)
    html = recruiter_client.get(edit_url(ruth)).content.decode()

    names = rows(data, "languages", "name")
    assert names[:3] == ["Japanese", "French", "English"]
    english = names.index("English")
    assert (data[f"languages-{english}-code"], data[f"languages-{english}-fluency"]) == ("en", "native")
    assert "Inglés" in html  # as written, shown read-only
    assert "languages-0-raw" not in data


def test_education_shows_its_dates(recruiter_client):
    candidate = CandidateFactory()
    EducationFactory(candidate=candidate, start=dt.date(2010, 9, 1), end=dt.date(2014, 6, 1))

    data = form_of(recruiter_client, candidate)

    assert (data["education-0-start"], data["education-0-end"]) == ("2010-09", "2014-06")


def test_editing_a_jobs_company_makes_the_search_box_find_it(recruiter_client):
    ilse = import_file(ILSE)
    data = form_of(recruiter_client, ilse)
    trattoria = rows(data, "positions", "company").index("Trattoria Digitale")
    assert list(candidate_search(params={"q": "Quokkaworks"})) == []

    response = post(recruiter_client, ilse, data, **{f"positions-{trattoria}-company": "Quokkaworks"})

    assert response.status_code == 302
    assert Position.objects.get(candidate=ilse, title="Intern").company == "Quokkaworks"
    assert list(candidate_search(params={"q": "Quokkaworks"})) == [ilse]
    changelist = recruiter_client.get(reverse("admin:profiles_candidate_changelist"), {"q": "Quokkaworks"})
    assert "Ilse Marchetti" in changelist.content.decode()


def test_a_job_added_by_hand_goes_after_the_files_jobs_and_is_searched(recruiter_client):
    ilse = import_file(ILSE)
    data = form_of(recruiter_client, ilse)

    response = post(
        recruiter_client,
        ilse,
        data,
        **{
            "positions-TOTAL_FORMS": "6",
            "positions-5-company": "Kestrel Analytics",
            "positions-5-title": "Advisor",
            "positions-5-start": "2024-05",
            "positions-5-is_current": "on",
            "positions-5-highlights": "Board seat\r\n\r\n Quarterly reviews \r\n",
        },
    )

    assert response.status_code == 302, response.context["errors"] if response.context else response
    added = Position.objects.get(candidate=ilse, company="Kestrel Analytics")
    assert (added.order, added.start, added.end, added.is_current) == (5, dt.date(2024, 5, 1), None, True)
    assert added.highlights == ["Board seat", "Quarterly reviews"]
    assert [c.name for c in candidate_search(params={"company": "Kestrel Analytics"})] == ["Ilse Marchetti"]
    assert rows(form_of(recruiter_client, ilse), "positions", "company")[0] == "Kestrel Analytics"  # newest first


def test_a_date_is_a_month_and_a_full_date_keeps_only_its_month(recruiter_client):
    candidate = CandidateFactory()
    PositionFactory(candidate=candidate, company="Osprey", start=dt.date(2020, 1, 1), end=dt.date(2021, 1, 1))
    data = form_of(recruiter_client, candidate)

    post(recruiter_client, candidate, data, **{"positions-0-start": "2019-04-17", "positions-0-end": "2022"})

    job = Position.objects.get(candidate=candidate)
    assert (job.start, job.end) == (dt.date(2019, 4, 1), dt.date(2022, 1, 1))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"positions-0-start": "2022-01", "positions-0-end": "2021-12"}, "The job ends before it starts."),
        ({"positions-0-is_current": "on"}, "A current job has no end: clear the end, or untick current."),
        ({"positions-0-start": "March 2020"}, "A month as YYYY-MM (2021-03), or a year (2021)."),
    ],
)
def test_a_job_that_cannot_be_is_refused_in_plain_words(recruiter_client, changes, message):
    candidate = CandidateFactory()
    PositionFactory(candidate=candidate, company="Osprey", start=dt.date(2020, 1, 1), end=dt.date(2021, 1, 1))
    data = form_of(recruiter_client, candidate)

    response = post(recruiter_client, candidate, data, **changes)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert Position.objects.get(candidate=candidate).start == dt.date(2020, 1, 1)


def test_a_language_typed_by_name_gets_its_code_and_english_name(recruiter_client):
    candidate = CandidateFactory()
    SpokenLanguageFactory(candidate=candidate, position=0, code="en", name="English")
    data = form_of(recruiter_client, candidate)

    response = post(
        recruiter_client,
        candidate,
        data,
        **{"languages-TOTAL_FORMS": "2", "languages-1-name": "Français", "languages-1-fluency": "limited_working"},
    )

    assert response.status_code == 302
    added = SpokenLanguage.objects.get(candidate=candidate, position=1)
    assert (added.code, added.name, added.fluency) == ("fr", "French", "limited_working")
    assert [c.pk for c in candidate_search(params={"language": "fr:limited_working"})] == [candidate.pk]


def test_a_viewer_reads_the_jobs_and_languages_but_cannot_change_them(viewer_client):
    ilse = import_file(ILSE)
    SpokenLanguageFactory(candidate=ilse, name="Italian", code="it", fluency="native")

    page = viewer_client.get(edit_url(ilse))
    html = page.content.decode()
    data = form_data(html, "candidate_form")
    response = viewer_client.post(edit_url(ilse), {**data, "positions-0-company": "Changed"})

    assert page.status_code == 200
    assert "Northwind Labs" in html
    assert "Native or bilingual" in html
    assert "2021-03" in html  # a month, not the first day of one
    assert not {"positions-0-company", "positions-0-start", "languages-0-name"} & set(data)  # text, not inputs
    assert response.status_code == 403
    assert not Position.objects.filter(company="Changed").exists()


def test_the_names_list_follows_the_language_rows_edited_by_hand(recruiter_client):
    """Review of issue 14: deleting a wrongly imported French left "French" in spoken_languages, so `language=fr`
    still found her and the detail showed it beside no row."""
    ruth = import_file(RUTH)
    data = form_of(recruiter_client, ruth)
    french = rows(data, "languages", "name").index("French")

    response = post(recruiter_client, ruth, data, **{f"languages-{french}-DELETE": "on"})

    assert response.status_code == 302
    ruth.refresh_from_db()
    assert "French" not in ruth.spoken_languages
    assert ruth.spoken_languages == list(ruth.languages.order_by("position").values_list("name", flat=True))
    assert ruth.pk not in [c.pk for c in candidate_search(params={"language": "fr"})]
