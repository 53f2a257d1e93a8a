"""GET|POST /api/v1/jobs/, GET|PATCH /api/v1/jobs/{id}/, GET|POST /api/v1/jobs/{id}/pipeline/."""

import time

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from jobs import services
from jobs.models import Job, JobSkill
from profiles.models import ShortlistEntryEvent, SkillAlias
from profiles.vocabulary_copy import skill_vocabulary_changed
from tests.api.conftest import _client_for
from tests.factories import CandidateFactory, SkillFactory, UserFactory
from tests.jobs.stored import DESCRIPTION, make_skills

pytestmark = pytest.mark.django_db

LIST = reverse("api:job-list")


def _recruiter(username: str, *actions: str):
    user = UserFactory(username=username)
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="jobs", codename__in=[f"{a}_job" for a in actions])
    )
    return user


@pytest.fixture
def skills(db):
    return make_skills()


@pytest.fixture
def owner(db):
    return _recruiter("owner", "view", "add", "change")


@pytest.fixture
def api(owner):
    return _client_for(owner)


@pytest.fixture
def job(owner, skills):
    return services.job_create(user=owner, title="Backend", description=DESCRIPTION).job


def detail(job) -> str:
    return reverse("api:job-detail", kwargs={"pk": job.pk})


def pipeline(job) -> str:
    return reverse("api:job-pipeline", kwargs={"pk": job.pk})


def test_posting_a_description_creates_a_job_with_its_criteria(api, skills):
    response = api.post(LIST, {"title": "Backend Engineer", "description": DESCRIPTION}, format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    job = Job.objects.get()
    assert response["Location"] == body["url"]
    assert body["url"].endswith(detail(job))
    assert body["pipeline_url"].endswith(pipeline(job))
    assert (body["title"], body["status"], body["owner"], body["shared"]) == (
        "Backend Engineer",
        "open",
        "owner",
        False,
    )
    assert body["criteria"]["required"] == [
        {"skill": "go", "min_score": 5},
        {"skill": "postgresql", "min_score": 5},
        {"skill": "kafka", "min_score": 5},
    ]
    assert body["criteria"]["preferred"] == [{"skill": "rust"}]
    assert set(body["criteria"]) == {
        "required", "preferred", "excluded", "min_years_coding", "countries", "remote", "keywords",
        "ignored", "unrecognised",
    }  # fmt: skip
    assert body["warnings"] == []
    assert job.skills.count() == 4


def test_posting_a_description_with_a_long_technical_looking_token_creates_the_job(api, skills):
    description = f"{DESCRIPTION}\nRequirements\n- {'Ab1' * 60}\n"

    response = api.post(LIST, {"title": "Backend Engineer", "description": description}, format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["criteria"]["unrecognised"] == []
    assert Job.objects.get().unrecognised == []


def test_overrides_in_the_post_replace_what_was_read(api, skills):
    response = api.post(
        LIST,
        {
            "title": "Backend",
            "description": DESCRIPTION,
            "shared": True,
            "criteria": {"required": [{"skill": "go", "min_score": 9}], "countries": ["Poland"], "excluded": ["php"]},
        },
        format="json",
    )

    assert response.status_code == 201, response.json()
    criteria = response.json()["criteria"]
    assert (criteria["required"], criteria["excluded"], criteria["countries"]) == (
        [{"skill": "go", "min_score": 9}], ["php"], ["PL"],
    )  # fmt: skip
    assert Job.objects.get().pipeline.shared is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": "B", "description": ""}, "description"),
        ({"title": "B", "description": "x" * 100_001}, "description"),
        ({"title": "B", "description": "\x00\x01binary"}, "description"),
        (
            {"title": "B", "description": DESCRIPTION, "criteria": {"required": [{"skill": "go", "min_score": 11}]}},
            None,
        ),
        ({"title": "B", "description": DESCRIPTION, "criteria": {"preferred": [{"skill": "no-such-skill"}]}}, None),
        ({"title": "", "description": DESCRIPTION}, "title"),
        ({"title": "B", "description": DESCRIPTION, "status": "paused"}, "status"),
        ({"title": "B", "description": DESCRIPTION, "colour": "red"}, None),
    ],
)
def test_bad_input_is_a_400_in_the_error_shape_and_stores_nothing(api, skills, body, field):
    response = api.post(LIST, body, format="json")

    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["message"]
    if field:
        assert field in error["details"] or field in error["message"], error
    assert not Job.objects.exists()


NOT_TEXT = [
    pytest.param(-3607, id="int"),
    pytest.param(2.5, id="float"),
    pytest.param(["Go", "Kafka"], id="list"),
    pytest.param({"text": "Go"}, id="dict"),
    pytest.param(None, id="null"),
    pytest.param(True, id="bool"),
]


def _refused_before_the_service(monkeypatch, name: str) -> None:
    """The service fails the test if it runs: the serializer must refuse the request first."""

    def not_called(**kwargs):
        raise AssertionError(f"jobs.services.{name} ran on a request its serializer should have refused")

    monkeypatch.setattr(services, name, not_called)


def test_a_description_that_is_a_number_is_a_400_naming_it(api, skills):
    response = api.post(LIST, {"description": -3607, "title": "T"}, format="json")

    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {
            "code": "invalid",
            "message": "description: This field must be text (a JSON string), not a number.",
            "details": {"description": ["This field must be text (a JSON string), not a number."]},
        }
    }
    assert not Job.objects.exists()


@pytest.mark.parametrize("field", ["title", "description"])
@pytest.mark.parametrize("value", NOT_TEXT)
def test_a_title_or_description_that_is_not_a_string_is_refused_by_the_serializer(
    api, skills, monkeypatch, field, value
):
    _refused_before_the_service(monkeypatch, "job_create")

    response = api.post(LIST, {"title": "Backend", "description": DESCRIPTION, field: value}, format="json")

    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert (error["code"], list(error["details"])) == ("invalid", [field])
    assert error["message"].startswith(f"{field}: ")
    assert not Job.objects.exists()


@pytest.mark.parametrize("field", ["title", "description"])
@pytest.mark.parametrize("value", NOT_TEXT)
def test_a_patch_of_a_title_or_description_that_is_not_a_string_is_refused(api, job, monkeypatch, field, value):
    _refused_before_the_service(monkeypatch, "job_update")

    response = api.patch(detail(job), {field: value}, format="json")

    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert (error["code"], list(error["details"])) == ("invalid", [field])
    job.refresh_from_db()
    assert (job.title, job.description) == ("Backend", DESCRIPTION)


def test_a_description_naming_one_skill_twelve_thousand_times_is_read_in_time(api, skills):
    # 96,000 characters, under the cap, read in time linear in its length (tests/reliability/test_growth_jobs.py); the
    # skill is one requirement however often it is named.
    SkillAlias.objects.get_or_create(label="python", defaults={"skill": SkillFactory(slug="python")})
    skill_vocabulary_changed()
    description = "Requirements: " + "Python, " * 12_000

    started = time.process_time()
    response = api.post(LIST, {"title": "Backend", "description": description}, format="json")
    seconds = time.process_time() - started

    assert response.status_code == 201, response.content[:300]
    criteria = response.json()["criteria"]
    assert (criteria["required"], criteria["preferred"]) == ([{"skill": "python", "min_score": 5}], [])
    assert Job.objects.get().description == description
    assert seconds < 10, f"{seconds:.1f} s of CPU to post a 96,000-character description"


def test_a_patched_description_is_checked_not_read(api, job, monkeypatch):
    from jobs import selectors

    def not_called(text):
        raise AssertionError("a PATCH read the description's criteria: they are not read again")

    monkeypatch.setattr(selectors, "extract_criteria", not_called)

    edited = api.patch(detail(job), {"description": "Go, Kafka and nothing else"}, format="json")
    empty = api.patch(detail(job), {"description": "  "}, format="json")

    assert edited.status_code == 200, edited.content[:300]
    assert (empty.status_code, empty.json()["error"]["code"]) == (400, "invalid_description")
    assert empty.json()["error"]["details"] == {"description": ["The description is empty."]}


def test_the_list_shows_own_and_shared_jobs_only(api, owner, skills):
    colleague = _recruiter("colleague", "view", "add", "change")
    mine = services.job_create(user=owner, title="Mine", description=DESCRIPTION).job
    shared = services.job_create(user=colleague, title="Shared", description=DESCRIPTION, shared=True).job
    services.job_create(user=colleague, title="Private", description=DESCRIPTION)

    response = api.get(LIST)

    assert response.status_code == 200
    assert [row["id"] for row in response.json()["results"]] == [shared.pk, mine.pk]


def test_the_owner_patches_fields_and_criteria(api, job):
    response = api.patch(
        detail(job),
        {"title": "Platform", "status": "closed", "criteria": {"required": [{"skill": "rust", "min_score": 7}]}},
        format="json",
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["title"], body["status"]) == ("Platform", "closed")
    assert body["criteria"]["required"] == [{"skill": "rust", "min_score": 7}]
    assert list(JobSkill.objects.filter(job=job, kind="required").values_list("skill__slug", "min_score")) == [
        ("rust", 7)
    ]
    assert api.get(detail(job)).json() == body


def test_a_colleague_reads_a_shared_job_but_changes_neither_it_nor_its_pipeline(job):
    services.job_update(job=job, user=job.owner, shared=True)
    colleague = _client_for(_recruiter("colleague", "view", "add", "change"))
    candidate = CandidateFactory()

    read = colleague.get(detail(job))
    patch = colleague.patch(detail(job), {"title": "Mine"}, format="json")
    add = colleague.post(pipeline(job), {"candidate": candidate.pk}, format="json")

    assert (read.status_code, colleague.get(pipeline(job)).status_code) == (200, 200)
    assert (patch.status_code, add.status_code) == (403, 403)
    assert patch.json()["error"]["code"] == "permission_denied"
    assert Job.objects.get().title == "Backend"
    assert not job.pipeline.entries.exists()


def test_another_users_private_job_does_not_exist_for_a_colleague(job):
    colleague = _client_for(_recruiter("colleague", "view", "add", "change"))

    for response in (colleague.get(detail(job)), colleague.patch(detail(job), {"title": "x"}, format="json")):
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


def test_a_viewer_reads_but_writes_nothing(job):
    viewer = _client_for(_recruiter("viewer", "view"))

    assert viewer.get(LIST).status_code == 200
    created = viewer.post(LIST, {"title": "B", "description": DESCRIPTION}, format="json")
    assert created.status_code == 403
    assert "jobs.add_job" in created.json()["error"]["message"]
    assert Job.objects.count() == 1


def test_without_the_view_permission_or_a_login_nothing_is_read(job, anonymous):
    nobody = _client_for(UserFactory(username="nobody"))

    assert nobody.get(LIST).status_code == 403
    assert nobody.get(detail(job)).status_code == 403
    assert anonymous.get(LIST).status_code == 401
    assert anonymous.post(pipeline(job), {}, format="json").status_code == 401


def test_the_pipeline_adds_moves_and_notes_a_candidate_with_events(api, job):
    ada = CandidateFactory(name="Ada")

    added = api.post(pipeline(job), {"candidate": ada.pk}, format="json")
    moved = api.post(pipeline(job), {"candidate": ada.pk, "stage": "replied", "note": "Keen."}, format="json")
    listing = api.get(pipeline(job))

    assert (added.status_code, moved.status_code) == (201, 200), moved.json()
    entry = moved.json()
    assert (entry["candidate"]["name"], entry["stage"], entry["notes"]) == ("Ada", "replied", "Keen.")
    assert entry["candidate"]["url"].endswith(reverse("api:candidate-detail", kwargs={"pk": ada.pk}))
    assert [(e["kind"], e["author"], e["from_stage"], e["to_stage"], e["note"]) for e in entry["events"]] == [
        ("added", "owner", None, "sourced", ""),
        ("stage", "owner", "sourced", "replied", ""),
        ("note", "owner", None, None, "Keen."),
    ]
    assert all(e["at"] for e in entry["events"])
    stages = listing.json()["stages"]
    assert [s["stage"] for s in stages] == [
        "sourced",
        "contacted",
        "replied",
        "interviewing",
        "offer",
        "hired",
        "rejected",
    ]
    assert [e["id"] for e in stages[2]["entries"]] == [entry["id"]]
    assert ShortlistEntryEvent.objects.count() == 3


@pytest.mark.parametrize(
    "body", [{"candidate": 10**9}, {"stage": "replied"}, {"candidate": 1, "stage": "new"}, {"candidate": "x"}]
)
def test_a_bad_pipeline_post_is_a_400(api, job, body):
    response = api.post(pipeline(job), body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["message"]


def _queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_list_and_the_pipeline_take_as_many_queries_for_three_as_for_one(api, owner, job):
    one_job, one_entry = _queries(api, LIST), None
    services.pipeline_add(job=job, candidate=CandidateFactory(), user=owner)
    one_entry = _queries(api, pipeline(job))
    for title in ("Second", "Third"):
        services.job_create(user=owner, title=title, description=DESCRIPTION)
    for stage in ("contacted", "offer"):
        services.pipeline_add(job=job, candidate=CandidateFactory(), user=owner, stage=stage, note="n")

    assert _queries(api, LIST) == one_job
    assert _queries(api, pipeline(job)) == one_entry
