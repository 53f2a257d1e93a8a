"""Issue 19, read replicas, against a real PostgreSQL streaming replica of the tests' server
(tests/talentdb/replica.py).

To tell the two servers apart, the replica's replay is paused and a row changed on the primary: a page that shows the
row as it was was read from the replica. The SQL of a request is also captured on each alias, to show which server ran
every statement (the selectors' raw SQL too, through ``db.connections.read_connection``). The data must be committed to
reach the replica, so these tests are transactional. Skipped, with the reason, on a machine that cannot make a
replica; ``-m "not replica"`` leaves them out.
"""

import contextlib
import copy
import logging
import os
import time

import psycopg
import pytest
from django.contrib.auth.models import Permission
from django.core.signals import request_finished
from django.db import DEFAULT_DB_ALIAS, connections, router, transaction
from django.db.models import Q
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from db.connections import read_connection
from jobs.models import Job
from jobs.services import job_create
from profiles.models import Candidate, Skill, SkillAlias
from profiles.search.skills import resolve_skills
from profiles.selectors import candidate_filter_choices_forget
from talentdb.db_router import ReplicaRouter, ReplicaRoutingMiddleware
from tests.api.test_job_match import DESCRIPTION
from tests.api.test_job_match import pool as pool  # the fixture: candidates with skills and contributions
from tests.factories import CandidateFactory, UserFactory
from tests.talentdb.replica import StreamingReplica

REPLICA = "replica_test"  # not replica_0: a run with DATABASE_REPLICA_URLS set has one of its own
PIN_COOKIE = "multidb_pin_writes"

pytestmark = [pytest.mark.replica, pytest.mark.django_db(transaction=True, databases=[DEFAULT_DB_ALIAS, REPLICA])]


@pytest.fixture(scope="session")
def streaming_replica(django_db_setup, django_db_blocker):
    """A streaming replica of the test database's server, known to Django as replica_test (a test mirror of default, as
    talentdb/settings/base.py makes each DATABASE_REPLICA_URLS entry), for the whole session."""
    primary = connections[DEFAULT_DB_ALIAS].settings_dict
    if reason := StreamingReplica.why_not(primary):
        pytest.skip(f"no streaming replica on this machine: {reason}")
    replica = StreamingReplica(primary)
    try:
        replica.create()
    except BaseException:
        replica.remove()
        raise
    alias = copy.deepcopy(primary)
    alias.update(HOST=replica.host, PORT=str(replica.port), TEST={"MIRROR": DEFAULT_DB_ALIAS})
    alias["OPTIONS"]["connect_timeout"] = 3
    connections.settings[REPLICA] = alias
    yield replica
    connections[REPLICA].close()
    del connections.settings[REPLICA]
    replica.remove()


@pytest.fixture
def replica_reads(streaming_replica, settings):
    """The settings DATABASE_REPLICA_URLS gives (the router, the middleware), checking the replica on every request;
    a lag limit these tests' paused replica never reaches unless a test lowers it."""
    settings.REPLICA_DATABASES = [REPLICA]
    settings.DATABASE_ROUTERS = ["talentdb.db_router.ReplicaRouter"]  # a new router: no state from another test
    middleware = list(settings.MIDDLEWARE)
    middleware.insert(
        middleware.index("talentdb.middleware.StatementTimeoutMiddleware") + 1,
        "talentdb.db_router.ReplicaRoutingMiddleware",
    )
    settings.MIDDLEWARE = middleware
    settings.DATABASE_REPLICA_CHECK_SECONDS = 0
    settings.DATABASE_REPLICA_MAX_LAG_SECONDS = 3600
    yield streaming_replica
    connections[REPLICA].close()
    if not streaming_replica.running():
        streaming_replica.start()


def _api_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def _matcher(username: str):
    user = UserFactory(username=username)
    user.user_permissions.add(
        *Permission.objects.filter(
            Q(content_type__app_label="jobs", codename__in=["view_job", "add_job"])
            | Q(content_type__app_label="profiles", codename="view_candidate")
        )
    )
    return user


def _rename_on_the_primary(candidate, name: str) -> None:
    # Outside a request: the primary (workers and commands never read from, nor write to, a replica).
    Candidate.objects.filter(pk=candidate.pk).update(name=name)


def test_api_lists_details_and_exports_are_read_from_the_replica(replica_reads):
    candidate = CandidateFactory(name="Ada Before")
    api = _api_client(UserFactory(username="reader"))

    with replica_reads.replay_paused():
        _rename_on_the_primary(candidate, "Ada After")
        detail = api.get(f"/api/v1/candidates/{candidate.pk}/")
        listing = api.get("/api/v1/candidates/")
        export = api.get("/api/v1/candidates/export.csv")
        export_body = b"".join(export.streaming_content).decode()

    assert detail.status_code == 200
    assert detail.json()["name"] == "Ada Before"
    assert [row["name"] for row in listing.json()["results"]] == ["Ada Before"]
    assert "Ada Before" in export_body
    assert "Ada After" not in export_body
    assert Candidate.objects.get(pk=candidate.pk).name == "Ada After"  # the primary has the change
    assert PIN_COOKIE not in detail.cookies  # reads pin nobody


def test_admin_changelist_profile_page_and_dashboard_are_read_from_the_replica(replica_reads, admin_client):
    candidate = CandidateFactory(name="Ada Before")

    with replica_reads.replay_paused():
        _rename_on_the_primary(candidate, "Ada After")
        CandidateFactory(name="Someone New")  # only the primary counts two candidates
        changelist = admin_client.get("/admin/profiles/candidate/")
        profile = admin_client.get(f"/admin/profiles/candidate/{candidate.pk}/change/")
        index = admin_client.get("/admin/")

    assert changelist.status_code == 200
    assert "Ada Before" in changelist.text
    assert "Ada After" not in changelist.text
    assert "Someone New" not in changelist.text
    assert profile.status_code == 200
    assert "Ada Before" in profile.text
    assert "Ada After" not in profile.text
    assert index.status_code == 200
    assert index.context["figures"].candidates == 1
    assert Candidate.objects.count() == 2


def _job_writer(username: str):
    user = UserFactory(username=username)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_job", "change_job", "view_job"]))
    return user


def _create_job(client):
    created = client.post(
        "/api/v1/jobs/",
        {"title": "Platform engineer", "description": "Python and PostgreSQL on Kubernetes."},
        format="json",
    )
    assert created.status_code == 201, created.content
    return created


def test_a_write_goes_to_the_primary_and_pins_the_browsers_reads_to_it_by_cookie(
    replica_reads, settings, seeded_vocabulary
):
    writer = _job_writer("recruiter")
    browser = APIClient()  # a session, and the cookies of its answers, as a browser keeps them
    browser.force_login(writer)
    other_browser = APIClient()  # the same recruiter, signed in on another computer: no cookie
    other_browser.force_login(writer)

    with replica_reads.replay_paused():
        created = _create_job(browser)
        job_id = created.json()["id"]
        pinned = browser.get(f"/api/v1/jobs/{job_id}/")
        unpinned = other_browser.get(f"/api/v1/jobs/{job_id}/")
        with replica_reads.connect() as replica:
            on_the_replica = replica.execute("SELECT count(*) FROM jobs_job WHERE id = %s", [job_id]).fetchone()[0]

    assert Job.objects.filter(pk=job_id, title="Platform engineer").exists()  # written on the primary
    assert on_the_replica == 0  # not yet replayed: the write did not go there
    assert created.cookies[PIN_COOKIE]["max-age"] == settings.MULTIDB_PINNING_SECONDS
    assert pinned.status_code == 200  # the writer reads the primary
    assert pinned.json()["title"] == "Platform engineer"
    assert unpinned.status_code == 404  # the replica, paused before the job existed
    replica_reads.catch_up()
    assert other_browser.get(f"/api/v1/jobs/{job_id}/").status_code == 200


def test_a_token_clients_write_pins_that_tokens_reads_to_the_primary_in_any_web_process_until_the_pin_expires(
    replica_reads, settings, seeded_vocabulary
):
    """An API client keeps no cookie: its token is pinned on the server side, in the cache every web process and host
    shares. Each request here comes from a new client without cookies, as if served by another process."""
    settings.MULTIDB_PINNING_SECONDS = 2
    writer = _api_client(_job_writer("integration"))

    def elsewhere(client: APIClient) -> APIClient:
        """The same token, from a client without cookies."""
        fresh = APIClient()
        fresh.credentials(**client._credentials)
        return fresh

    with replica_reads.replay_paused():
        created = _create_job(writer)
        job_id = created.json()["id"]
        pinned = elsewhere(writer).get(f"/api/v1/jobs/{job_id}/")
        pinned_listing = elsewhere(writer).get("/api/v1/jobs/")
        time.sleep(settings.MULTIDB_PINNING_SECONDS + 0.5)
        expired = elsewhere(writer).get(f"/api/v1/jobs/{job_id}/")

    assert pinned.status_code == 200  # the primary, which has the job
    assert pinned.json()["title"] == "Platform engineer"
    assert [job["id"] for job in pinned_listing.json()["results"]] == [job_id]
    assert expired.status_code == 404  # the pin is over: the replica again


def test_a_replica_further_behind_than_the_limit_is_skipped_with_a_log_line(replica_reads, settings, caplog):
    settings.DATABASE_REPLICA_MAX_LAG_SECONDS = 1
    candidate = CandidateFactory(name="Ada Before")
    api = _api_client(UserFactory(username="reader"))

    with replica_reads.replay_paused(), caplog.at_level(logging.INFO, logger="talentdb.db_router"):
        _rename_on_the_primary(candidate, "Ada After")
        time.sleep(1.5)  # its last replayed transaction is older than the limit, and it has more to replay
        lagging = api.get(f"/api/v1/candidates/{candidate.pk}/")
    replica_reads.catch_up()
    with caplog.at_level(logging.INFO, logger="talentdb.db_router"):
        caught_up = api.get(f"/api/v1/candidates/{candidate.pk}/")

    assert lagging.status_code == 200
    assert lagging.json()["name"] == "Ada After"  # from the primary
    assert caught_up.json()["name"] == "Ada After"
    messages = [record.getMessage() for record in caplog.records if record.name == "talentdb.db_router"]
    assert any(
        "replica_test is" in message
        and "behind the primary (more than DATABASE_REPLICA_MAX_LAG_SECONDS, 1 s)" in message
        for message in messages
    ), messages
    assert any("Read replica replica_test is back" in message for message in messages), messages


def test_an_idle_replica_that_has_replayed_everything_is_not_behind(replica_reads):
    """The age of its last replayed transaction is no lag when there is nothing more to replay, nor is the header of
    the WAL segment the primary switched to (as archive_timeout makes it do)."""
    with psycopg.connect(**replica_reads.primary_params()) as primary:
        primary.execute("SELECT pg_switch_wal()")
    replica_reads.catch_up()
    time.sleep(1.5)  # the last transaction it replayed is that old now
    router = ReplicaRouter()
    deadline = time.monotonic() + 10
    readings = []
    # On a server that other clients write to, WAL may be in flight at a given instant: a few readings, by one router,
    # which then bounds the lag by the time since the primary's position at its previous reading.
    while time.monotonic() < deadline and not (readings and min(readings) < 0.5):
        in_recovery, lag = router.replica_lag(REPLICA)
        assert in_recovery
        readings.append(lag)
        time.sleep(0.2)

    assert min(readings) < 0.5, readings


def test_a_replica_that_received_wal_it_has_not_replayed_is_as_far_behind_as_its_last_replayed_transaction(
    replica_reads,
):
    candidate = CandidateFactory(name="Ada Before")

    with replica_reads.replay_paused():
        _rename_on_the_primary(candidate, "Ada After")
        replica_reads.received()  # the change is on the replica's disk, not applied
        time.sleep(1.5)
        _, lag = ReplicaRouter().replica_lag(REPLICA)

    assert lag > 1.5


def test_a_replica_whose_wal_stream_is_stuck_is_behind_and_skipped(replica_reads, settings, caplog):
    """Its WAL receiver is connected and has replayed all it received, but the primary's WAL sender sends nothing:
    what the primary writes meanwhile never arrives."""
    if os.geteuid() != 0:
        pytest.skip("freezing the primary's WAL sender (SIGSTOP) needs root")
    settings.DATABASE_REPLICA_MAX_LAG_SECONDS = 1
    candidate = CandidateFactory(name="Ada Before")
    api = _api_client(UserFactory(username="reader"))
    replica_reads.catch_up()

    with replica_reads.wal_sender_stopped(), caplog.at_level(logging.WARNING, logger="talentdb.db_router"):
        _rename_on_the_primary(candidate, "Ada After")
        time.sleep(1.5)
        in_recovery, lag = ReplicaRouter().replica_lag(REPLICA)
        with replica_reads.connect() as replica:
            receiver = replica.execute("SELECT status FROM pg_stat_wal_receiver").fetchone()
        read = api.get(f"/api/v1/candidates/{candidate.pk}/")

    assert receiver == ("streaming",)
    assert in_recovery
    assert lag > 1.5
    assert read.json()["name"] == "Ada After"  # from the primary
    assert any("behind the primary" in record.getMessage() for record in caplog.records)


def test_a_replica_stopped_between_two_checks_is_skipped_without_a_server_error(replica_reads, settings, caplog):
    settings.DATABASE_REPLICA_CHECK_SECONDS = 3600  # checked once: only the request's connection check can notice
    candidate = CandidateFactory(name="Ada Before")
    api = _api_client(UserFactory(username="reader"))

    with replica_reads.replay_paused(), caplog.at_level(logging.WARNING, logger="talentdb.db_router"):
        _rename_on_the_primary(candidate, "Ada After")
        before = api.get(f"/api/v1/candidates/{candidate.pk}/")
        replica_reads.stop()
        after = api.get(f"/api/v1/candidates/{candidate.pk}/")
        listing = api.get("/api/v1/candidates/")

    assert before.json()["name"] == "Ada Before"  # the replica, alive
    assert after.status_code == 200
    assert after.json()["name"] == "Ada After"  # the primary
    assert listing.status_code == 200
    assert any("Read replica replica_test is unreachable" in record.getMessage() for record in caplog.records)


def test_a_replica_that_is_down_when_checked_is_skipped_without_a_server_error(replica_reads, caplog):
    candidate = CandidateFactory(name="Ada")
    api = _api_client(UserFactory(username="reader"))
    replica_reads.stop()

    with caplog.at_level(logging.WARNING, logger="talentdb.db_router"):
        detail = api.get(f"/api/v1/candidates/{candidate.pk}/")

    assert detail.status_code == 200
    assert detail.json()["name"] == "Ada"
    assert any("Read replica replica_test is unreachable" in record.getMessage() for record in caplog.records)


def test_workers_and_commands_read_from_the_primary(replica_reads):
    """Celery tasks and management commands run no middleware: nothing marks their thread as a web request."""
    candidate = CandidateFactory(name="Ada Before")

    with replica_reads.replay_paused():
        _rename_on_the_primary(candidate, "Ada After")
        read = Candidate.objects.get(pk=candidate.pk).name

    assert router.db_for_read(Candidate) == DEFAULT_DB_ALIAS
    assert read_connection(Candidate).alias == DEFAULT_DB_ALIAS  # their raw SQL too
    assert read == "Ada After"


# --- Raw SQL follows the router (db.connections.read_connection) --------------------------------------------------

# The router's own check of the replica (talentdb/db_router.py), on both servers at a request's first read: not the
# request's SQL.
_ROUTER_CHECKS = ("pg_current_wal_flush_lsn", "pg_last_wal_replay_lsn")


@contextlib.contextmanager
def _statements():
    """The SQL each server ran meanwhile, ``{"primary": [...], "replica": [...]}``, the router's checks left out."""
    ran: dict[str, list[str]] = {}
    with (
        CaptureQueriesContext(connections[DEFAULT_DB_ALIAS]) as primary,
        CaptureQueriesContext(connections[REPLICA]) as replica,
    ):
        yield ran
    for server, captured in (("primary", primary), ("replica", replica)):
        ran[server] = [
            query["sql"]
            for query in captured.captured_queries
            if not any(check in query["sql"] for check in _ROUTER_CHECKS)
        ]


def test_a_skill_search_job_matches_and_similar_candidates_run_all_their_sql_on_the_replica(replica_reads, pool):
    recruiter = _matcher("recruiter")
    job = job_create(user=recruiter, title="Backend", description=DESCRIPTION).job
    api = _api_client(recruiter)
    ada = pool["ada"]

    with replica_reads.replay_paused():
        _rename_on_the_primary(ada, "Ada After")
        with _statements() as search:
            listing = api.get("/api/v1/candidates/?skill=go:7&skill=postgresql:6")
        with _statements() as matches:
            matched = api.get(f"/api/v1/jobs/{job.pk}/matches/")
        with _statements() as similar:
            peers = api.get(f"/api/v1/candidates/{pool['cy'].pk}/similar/")

    assert listing.status_code == 200, listing.content
    assert [row["name"] for row in listing.json()["results"]] == ["Cy", "Ada", "Bo"]  # "Ada": the paused replica
    assert listing.json()["results"][0]["skills"]
    assert search["primary"] == []
    assert any("profiles_skillalias" in sql for sql in search["replica"])  # resolve_skills
    assert any("json_agg" in sql for sql in search["replica"])  # candidates_attach_skills
    assert matched.status_code == 200, matched.content
    assert matched.json()["results"][0]["name"] == "Ada"
    assert matched.json()["results"][0]["evidence"][0]["repository"] == "ada/service"
    assert matches["primary"] == []
    assert any("profiles_contribution" in sql for sql in matches["replica"])  # candidates_explain's evidence
    assert peers.status_code == 200, peers.content
    assert similar["primary"] == []
    assert any("unnest(r.topic_slugs)" in sql for sql in similar["replica"])  # similar_criteria's topics


def test_the_admin_changelist_profile_page_and_dashboard_run_all_their_sql_on_the_replica(
    replica_reads, admin_client, pool
):
    candidate_filter_choices_forget()  # the sidebar's choices are read, not taken from the cache

    with replica_reads.replay_paused():
        with _statements() as changelist:
            listed = admin_client.get("/admin/profiles/candidate/?skill=go")
        with _statements() as profile:
            page = admin_client.get(f"/admin/profiles/candidate/{pool['ada'].pk}/change/")
        with _statements() as dashboard:
            index = admin_client.get("/admin/")

    assert listed.status_code == 200
    assert page.status_code == 200
    assert index.status_code == 200
    assert changelist["primary"] == []
    assert any("pg_stats" in sql or "GROUP BY" in sql for sql in changelist["replica"])  # the filter choices
    assert profile["primary"] == []
    assert dashboard["primary"] == []
    assert any("pg_class" in sql for sql in dashboard["replica"])  # table_row_estimate


def test_a_write_requests_reads_raw_sql_included_stay_on_the_primary(replica_reads, pool):
    api = _api_client(_matcher("writer"))

    with replica_reads.replay_paused(), _statements() as write:
        created = api.post(
            "/api/v1/jobs/",
            {"title": "Go", "description": DESCRIPTION, "criteria": {"required": [{"skill": "go", "min_score": 5}]}},
            format="json",
        )

    assert created.status_code == 201, created.content
    assert write["replica"] == []
    assert any("profiles_skillalias" in sql for sql in write["primary"])  # resolve_skills of the criteria


def test_a_web_requests_reads_inside_a_transaction_of_the_primary_stay_on_the_primary(replica_reads, pool):
    """A service run by a GET (or any read in ``transaction.atomic``) reads what its transaction wrote: the replica
    has not got it, and never will if it rolls back."""
    seen = {}

    def view(request):
        seen["outside"] = read_connection(Candidate).alias
        with transaction.atomic():
            SkillAlias.objects.create(label="brand-new-label", skill=Skill.objects.get(slug="go"))
            seen["inside"] = read_connection(Candidate).alias
            seen["resolved"] = resolve_skills({"brand-new-label"})
            transaction.set_rollback(True)
        return HttpResponse()

    try:
        ReplicaRoutingMiddleware(view)(RequestFactory().get("/api/v1/candidates/"))
    finally:
        request_finished.send(sender=None)

    assert seen["outside"] == REPLICA
    assert seen["inside"] == DEFAULT_DB_ALIAS
    assert seen["resolved"] == {"brand-new-label": (Skill.objects.get(slug="go").pk, "go")}


def test_the_health_check_asks_the_primary(replica_reads):
    with replica_reads.replay_paused(), _statements() as health:
        assert Client().get("/healthz").status_code == 200

    assert health["replica"] == []
    assert health["primary"] == ["SELECT 1"]
