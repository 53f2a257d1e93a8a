"""Jobs in the admin (issue 16): "Add job" reads the criteria from the pasted description; a job's page edits them and
links to its pipeline; colleagues and viewers read, only the owner changes."""

import datetime as dt
import importlib
import re

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from jobs import services
from jobs.admin import matches as matches_page
from jobs.models import Job
from profiles.models import RelatedSkill, ShortlistEntry, Skill
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    RepositoryFactory,
    SkillFactory,
    UserFactory,
)
from tests.jobs.stored import DESCRIPTION, make_skills, relate

pytestmark = pytest.mark.django_db

ADD = reverse("admin:jobs_job_add")
CHANGELIST = reverse("admin:jobs_job_changelist")


@pytest.fixture
def skills(db):
    return make_skills()


@pytest.fixture
def job(recruiter, skills):
    return services.job_create(user=recruiter, title="Backend", description=DESCRIPTION).job


def change(job) -> str:
    return reverse("admin:jobs_job_change", args=[job.pk])


def _rows(job):
    return sorted(job.skills.values_list("skill__slug", "kind", "min_score"))


def inline(job, **rows) -> dict:
    data = {
        "skills-TOTAL_FORMS": str(job.skills.count()),
        "skills-INITIAL_FORMS": str(job.skills.count()),
        "skills-MIN_NUM_FORMS": "0",
        "skills-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(job.skills.order_by("kind", "id")):
        data |= {
            f"skills-{i}-id": row.pk,
            f"skills-{i}-job": job.pk,
            f"skills-{i}-skill": row.skill_id,
            f"skills-{i}-kind": row.kind,
            f"skills-{i}-min_score": "" if row.min_score is None else row.min_score,
        }
        data |= {f"skills-{i}-{k}": v for k, v in rows.get(row.skill.slug, {}).items()}
    return data


def _form(job, **fields) -> dict:
    return {
        "title": job.title,
        "status": job.status,
        "description": job.description,
        "countries": ",".join(job.countries),
        "remote": {None: "unknown", True: "true", False: "false"}[job.remote],
        "min_years_coding": job.min_years_coding or "",
        "keywords": ",".join(job.keywords),
        **fields,
    }


def test_adding_a_job_from_a_description_extracts_its_criteria(recruiter_client, recruiter, skills):
    form = recruiter_client.get(ADD)
    response = recruiter_client.post(ADD, {"title": "Backend Engineer", "description": DESCRIPTION, "_save": "Save"})

    assert form.status_code == 200
    assert 'name="description"' in form.content.decode()
    assert response.status_code == 302, response.context["adminform"].form.errors
    job = Job.objects.get()
    assert (job.title, job.owner, job.pipeline.owner) == ("Backend Engineer", recruiter, recruiter)
    assert _rows(job) == [
        ("go", "required", 5), ("kafka", "required", 5), ("postgresql", "required", 5), ("rust", "preferred", None)
    ]  # fmt: skip
    assert job.min_years_coding == 5


def test_adding_a_job_reads_its_description_once(recruiter_client, skills, monkeypatch):
    from jobs import selectors

    reads, extract = [], selectors.extract_criteria
    monkeypatch.setattr(
        selectors, "extract_criteria", lambda text, *a, **k: reads.append(text) or extract(text, *a, **k)
    )

    response = recruiter_client.post(ADD, {"title": "Backend Engineer", "description": DESCRIPTION, "_save": "Save"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert len(reads) == 1  # the form checks the description, the service reads it


def test_a_description_that_cannot_be_read_is_a_form_error(recruiter_client, skills):
    response = recruiter_client.post(ADD, {"title": "B", "description": "bin\x01ary", "_save": "Save"})

    assert response.status_code == 200
    assert "control character" in str(response.context["adminform"].form.errors["description"])
    assert not Job.objects.exists()


def test_the_job_page_shows_its_skills_and_links_to_its_pipeline(recruiter_client, job):
    Skill.objects.filter(slug="postgresql").update(name="PostgreSQL")
    page = recruiter_client.get(change(job)).content.decode()
    listing = recruiter_client.get(CHANGELIST).content.decode()

    assert reverse("admin:profiles_shortlist_change", args=[job.pipeline_id]) in page
    assert "Kafka" in page
    assert "PostgreSQL ≥ 5" in listing, "the list names skills by their display names, as the matches page does"
    assert "postgresql" not in listing
    assert reverse("admin:profiles_shortlist_change", args=[job.pipeline_id]) in listing


def test_the_owner_edits_fields_criteria_and_skill_rows(recruiter_client, job):
    response = recruiter_client.post(
        change(job),
        {
            **_form(job, title="Platform", countries="Poland, DE", min_years_coding="3"),
            **inline(job, go={"min_score": "8"}, rust={"DELETE": "on"}),
            "_save": "Save",
        },
    )

    assert response.status_code == 302, (
        response.context["adminform"].form.errors,
        response.context["inline_admin_formsets"][0].formset.errors,
    )
    job.refresh_from_db()
    assert (job.title, job.countries, job.min_years_coding, job.pipeline.name) == (
        "Platform",
        ["PL", "DE"],
        3,
        "Platform",
    )
    assert _rows(job) == [("go", "required", 8), ("kafka", "required", 5), ("postgresql", "required", 5)]


def test_a_colleague_reads_a_shared_job_and_changes_nothing(client, groups, job):
    services.job_update(job=job, user=job.owner, shared=True)
    colleague = UserFactory(username="carla", is_staff=True)
    colleague.groups.add(groups["Recruiter"])
    client.force_login(colleague)

    page = client.get(change(job))
    post = client.post(change(job), {**_form(job, title="Mine"), **inline(job), "_save": "Save"})

    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert post.status_code == 403
    assert Job.objects.get().title == "Backend"


def test_a_private_job_is_not_shown_to_a_colleague(client, groups, job):
    colleague = UserFactory(username="carla", is_staff=True)
    colleague.groups.add(groups["Recruiter"])
    client.force_login(colleague)

    assert "Backend" not in client.get(CHANGELIST).content.decode()
    assert client.get(change(job)).status_code == 302  # "no such job": the admin sends them to the index


def test_a_viewer_reads_jobs_but_may_not_add_or_change(viewer_client, job):
    assert viewer_client.get(CHANGELIST).status_code == 200
    assert viewer_client.get(ADD).status_code == 403
    assert viewer_client.post(change(job), {**_form(job, title="X"), **inline(job), "_save": "Save"}).status_code == 403
    assert Job.objects.get().title == "Backend"


def test_the_groups_get_the_job_permissions(groups):
    importlib.import_module("jobs.migrations.0002_recruiter_and_viewer_permissions").grant(apps, None)
    recruiter = set(Group.objects.get(name="Recruiter").permissions.values_list("codename", flat=True))
    viewer = set(Group.objects.get(name="Viewer").permissions.values_list("codename", flat=True))

    assert {"view_job", "add_job", "change_job", "add_jobskill", "add_shortlistentryevent"} <= recruiter
    assert "delete_job" not in recruiter
    assert {"view_job", "view_jobskill", "view_shortlistentryevent"} <= viewer
    assert not {"add_job", "change_job", "add_shortlistentryevent"} & viewer


def test_anonymous_visitors_are_sent_to_log_in():
    response = Client().get(CHANGELIST)

    assert response.status_code == 302


# --- The matches page: criteria chips, ranked candidates, "Add to pipeline" ---------------------------------------


def matches(job, page=None) -> str:
    url = reverse("admin:jobs_job_matches", args=[job.pk])
    return f"{url}?page={page}" if page else url


def criteria_url(job) -> str:
    return reverse("admin:jobs_job_criteria", args=[job.pk])


def add_url(job) -> str:
    return reverse("admin:jobs_job_pipeline_add", args=[job.pk])


def board(job) -> str:
    return reverse("admin:jobs_job_pipeline_board", args=[job.pk])


def move_url(job) -> str:
    return reverse("admin:jobs_job_pipeline_move", args=[job.pk])


def person(name, skills, *, scores=None, **fields):
    """A candidate holding ``skills`` (slug -> score), with no summary: the factory's random words could hold a
    keyword of the job and change the order."""
    candidate = CandidateFactory(name=name, title="Engineer", company="Acme", **{"summary": "", **fields})
    for slug, score in skills.items():
        CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug=slug), score=score)
    return candidate


@pytest.fixture
def ideal(skills):
    candidate = person("Ines Ideal", {"go": 9, "postgresql": 8, "kafka": 8, "rust": 6})
    ContributionFactory(
        candidate=candidate,
        repository=RepositoryFactory(full_name="ines/ledger", topic_slugs=["go", "kafka"]),
        commits=120,
        start=dt.date(2023, 1, 1),
        is_current=True,
    )
    return candidate


@pytest.fixture
def partial(skills):
    return person("Paul Partial", {"go": 8})


def _text(html: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</(?:section|div|tr)>', html, re.S)
    assert match, f"no #{element_id} on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


def _result_rows(html: str) -> list[str]:
    """The text of each ranked row, in order."""
    found = re.findall(r'<tr class="match-row".*?</tr>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in found]


def test_adding_a_job_opens_its_matches(recruiter_client, skills):
    response = recruiter_client.post(ADD, {"title": "Backend", "description": DESCRIPTION, "_save": "Save"})

    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == matches(job)


def test_the_job_page_and_the_list_link_to_its_matches_and_its_board(recruiter_client, job):
    page = recruiter_client.get(change(job)).content.decode()
    listing = recruiter_client.get(CHANGELIST).content.decode()

    assert f'href="{matches(job)}"' in page
    assert f'href="{board(job)}"' in page
    assert f"href='{matches(job)}'" in listing
    assert f"href='{board(job)}'" in listing


def test_matches_show_the_criteria_as_chips_and_the_candidates_ranked(recruiter_client, job, ideal, partial):
    html = recruiter_client.get(matches(job)).content.decode()

    assert _text(html, "criteria-required").startswith("Required Go ≥ 5")
    assert "Kafka ≥ 5" in _text(html, "criteria-required")
    assert "Rust" in _text(html, "criteria-preferred")
    assert "at least 5" in _text(html, "criteria-years")
    rows = _result_rows(html)
    assert [row.split()[1:3] for row in rows] == [["Ines", "Ideal"], ["Paul", "Partial"]]
    assert "Go 9" in rows[0]
    assert "Rust 6" in rows[0]
    assert "ines/ledger 120 commits · last active" in rows[0]
    # Paul lacks Kafka and PostgreSQL: in red.
    assert re.search(r'<li class="chip chip-missing"[^>]*>[^<]*Kafka</li>', html)
    assert reverse("admin:profiles_candidate_change", args=[ideal.pk]) in html
    assert re.search(r"\d+%", rows[0])
    assert rows[0].count("Add to pipeline") == 1


def test_matches_are_paginated(recruiter_client, job, settings, monkeypatch):
    monkeypatch.setattr(matches_page, "MATCHES_PER_PAGE", 2)
    for n in range(5):
        person(f"Go Person {n}", {"go": 9 - n})

    first = _result_rows(recruiter_client.get(matches(job)).content.decode())
    third_page = recruiter_client.get(matches(job, 3)).content.decode()

    assert [row.split()[3] for row in first] == ["0", "1"]
    assert [row.split()[3] for row in _result_rows(third_page)] == ["4"]
    assert 'rel="next"' not in third_page
    assert 'href="?page=2" rel="prev"' in third_page


def test_removing_a_chip_is_one_post_and_ranks_again(recruiter_client, job, ideal, partial):
    response = recruiter_client.post(criteria_url(job), {"op": "remove_skill", "skill": "kafka"})

    assert response.status_code == 302
    assert response["Location"] == matches(job)
    assert _rows(job) == [("go", "required", 5), ("postgresql", "required", 5), ("rust", "preferred", None)]
    html = recruiter_client.get(response["Location"]).content.decode()
    assert "Kafka" not in _text(html, "criteria-required")
    assert "Criteria saved" in html


def test_adding_a_skill_chip_moves_a_skill_to_its_kind_and_minimum(recruiter_client, job):
    recruiter_client.post(criteria_url(job), {"op": "add_skill", "skill": "Rust", "kind": "required", "min_score": "7"})
    recruiter_client.post(criteria_url(job), {"op": "add_skill", "skill": "php", "kind": "excluded", "min_score": ""})

    assert _rows(job) == [
        ("go", "required", 5), ("kafka", "required", 5), ("php", "excluded", None), ("postgresql", "required", 5),
        ("rust", "required", 7),
    ]  # fmt: skip


def test_an_unknown_skill_or_a_bad_score_is_refused_in_plain_words(recruiter_client, job):
    before = _rows(job)

    unknown = recruiter_client.post(criteria_url(job), {"op": "add_skill", "skill": "Zorblang", "kind": "required"})
    score = recruiter_client.post(
        criteria_url(job), {"op": "add_skill", "skill": "go", "kind": "required", "min_score": "11"}
    )

    assert unknown.status_code == 400
    assert "No skill called “Zorblang” is in the database" in unknown.content.decode()
    assert 'value="Zorblang"' in unknown.content.decode()  # what was typed stays in the box
    assert score.status_code == 400
    assert "The minimum score is a whole number from 0 to 10." in score.content.decode()
    assert _rows(job) == before


def test_related_skills_are_offered_to_also_consider_and_added_as_preferred_in_one_click(recruiter_client, job, skills):
    grpc = SkillFactory(slug="grpc", name="gRPC")
    now = timezone.now()
    RelatedSkill.objects.create(skill=skills["go"], related=grpc, support=40, lift=2.5, computed_at=now)
    RelatedSkill.objects.create(skill=skills["go"], related=skills["rust"], support=30, lift=2.0, computed_at=now)

    html = recruiter_client.get(matches(job)).content.decode()
    response = recruiter_client.post(criteria_url(job), {"op": "add_skill", "skill": "grpc", "kind": "preferred"})

    assert _text(html, "criteria-also-consider") == "Also consider + gRPC"  # rust is in the criteria already
    assert "Goes with go: 40 candidates have both (lift 2.5)" in html
    assert response.status_code == 302
    assert ("grpc", "preferred", None) in _rows(job)


def test_countries_keywords_years_and_remote_are_chips_too(recruiter_client, job):
    post = recruiter_client.post
    post(criteria_url(job), {"op": "add_country", "country": "Poland"})
    post(criteria_url(job), {"op": "add_keyword", "keyword": "  payments  team "})
    post(criteria_url(job), {"op": "set_years", "min_years_coding": ""})
    post(criteria_url(job), {"op": "set_remote", "remote": "true"})
    bad = post(criteria_url(job), {"op": "add_country", "country": "Atlantis"})
    job.refresh_from_db()
    countries_before_removal = list(job.countries)
    post(criteria_url(job), {"op": "remove_country", "country": "PL"})
    post(criteria_url(job), {"op": "remove_keyword", "keyword": "senior"})

    job.refresh_from_db()
    assert "PL" in countries_before_removal
    assert "PL" not in job.countries
    assert "payments team" in job.keywords
    assert "senior" not in job.keywords
    assert (job.min_years_coding, job.remote) == (None, True)
    assert bad.status_code == 400
    assert "“Atlantis” is not a country name or ISO code." in bad.content.decode()


def test_adding_to_the_pipeline_is_one_click_and_shows_the_stage(recruiter_client, recruiter, job, ideal, partial):
    response = recruiter_client.post(add_url(job), {"candidate": ideal.pk, "next": matches(job)})
    again = recruiter_client.post(add_url(job), {"candidate": ideal.pk, "next": "https://evil.example/"})

    assert response.status_code == 302
    assert response["Location"] == matches(job)
    assert again["Location"] == matches(job)  # an address elsewhere is not followed
    entry = ShortlistEntry.objects.get(shortlist=job.pipeline)
    assert (entry.candidate, entry.status) == (ideal, "sourced")
    assert list(entry.events.values_list("kind", "author")) == [("added", recruiter.pk)]
    html = recruiter_client.get(matches(job)).content.decode()
    rows = _result_rows(html)
    assert "In pipeline: Sourced" in rows[0]
    assert "Add to pipeline" not in rows[0]
    assert "Add to pipeline" in rows[1]
    assert "is in the pipeline already" in html


def test_the_board_shows_the_pipeline_by_stage_and_moves_a_card_on(recruiter_client, recruiter, job, ideal, partial):
    services.pipeline_add(job=job, candidate=ideal, user=recruiter)
    services.pipeline_add(job=job, candidate=partial, user=recruiter, stage="interviewing")
    entry = ShortlistEntry.objects.get(candidate=ideal)

    html = recruiter_client.get(board(job)).content.decode()
    moved = recruiter_client.post(move_url(job), {"entry": entry.pk, "stage": "contacted"})
    picked = recruiter_client.post(move_url(job), {"entry": entry.pk, "stage": "rejected", "next": board(job)})

    stages = re.findall(r'<section class="board-column stage-(\w+)"', html)
    assert stages == ["sourced", "contacted", "replied", "interviewing", "offer", "hired", "rejected"]
    assert "Ines Ideal" in _text(html, "stage-sourced")
    assert "Paul Partial" in _text(html, "stage-interviewing")
    assert "→ Contacted" in _text(html, "stage-sourced")
    assert "→ Offer" in _text(html, "stage-interviewing")
    assert moved.status_code == 302
    assert moved["Location"] == board(job)
    assert picked["Location"] == board(job)
    entry.refresh_from_db()
    assert entry.status == "rejected"
    assert list(entry.events.filter(kind="stage").values_list("from_status", "to_status", "author")) == [
        ("sourced", "contacted", recruiter.pk),
        ("contacted", "rejected", recruiter.pk),
    ]
    assert "Ines Ideal moved to Rejected." in recruiter_client.get(board(job)).content.decode()


def test_a_card_of_another_pipeline_or_no_stage_is_refused(recruiter_client, recruiter, job, ideal, skills):
    other = services.job_create(user=recruiter, title="Other", description=DESCRIPTION).job
    entry, _ = services.pipeline_add(job=other, candidate=ideal, user=recruiter)

    wrong_job = recruiter_client.post(move_url(job), {"entry": entry.pk, "stage": "contacted"})
    no_stage = recruiter_client.post(move_url(other), {"entry": entry.pk, "stage": "lunch"})

    assert wrong_job.status_code == 404
    assert no_stage.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "sourced"


def test_the_writing_views_take_only_posts(recruiter_client, job):
    for url in (criteria_url(job), add_url(job), move_url(job)):
        assert recruiter_client.get(url).status_code == 405


def test_a_viewer_sees_matches_and_board_but_adds_and_moves_nothing(viewer_client, recruiter, job, ideal, partial):
    services.job_update(job=job, user=recruiter, shared=True)
    entry, _ = services.pipeline_add(job=job, candidate=partial, user=recruiter)

    page = viewer_client.get(matches(job))
    board_page = viewer_client.get(board(job))
    posts = [
        viewer_client.post(add_url(job), {"candidate": ideal.pk}),
        viewer_client.post(move_url(job), {"entry": entry.pk, "stage": "contacted"}),
        viewer_client.post(criteria_url(job), {"op": "remove_skill", "skill": "go"}),
    ]

    html = page.content.decode()
    assert page.status_code == 200
    assert "Ines Ideal" in html
    assert "Add to pipeline" not in html
    assert "chip-remove" not in html
    assert 'id="add-skill"' not in html
    assert "In pipeline: Sourced" in html
    assert board_page.status_code == 200
    assert "Paul Partial" in board_page.content.decode()
    assert "move-next" not in board_page.content.decode()
    assert [post.status_code for post in posts] == [403, 403, 403]
    assert ShortlistEntry.objects.get().status == "sourced"
    assert ShortlistEntry.objects.count() == 1
    assert ("go", "required", 5) in _rows(job)


def test_a_private_job_of_another_user_is_not_found(client, groups, job, ideal):
    colleague = UserFactory(username="carla", is_staff=True)
    colleague.groups.add(groups["Recruiter"])
    client.force_login(colleague)

    assert client.get(matches(job)).status_code == 404
    assert client.get(board(job)).status_code == 404
    assert client.post(add_url(job), {"candidate": ideal.pk}).status_code == 404
    assert client.post(criteria_url(job), {"op": "remove_skill", "skill": "go"}).status_code == 404
    assert not ShortlistEntry.objects.exists()


def test_a_user_without_the_job_permission_is_refused(client, job):
    client.force_login(UserFactory(username="nobody", is_staff=True))

    assert client.get(matches(job)).status_code == 403
    assert client.get(board(job)).status_code == 403


def test_the_posts_need_the_csrf_token(recruiter, job, ideal):
    client = Client(enforce_csrf_checks=True)
    client.force_login(recruiter)

    html = client.get(matches(job)).content.decode()
    refused = client.post(add_url(job), {"candidate": ideal.pk})
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    accepted = client.post(add_url(job), {"candidate": ideal.pk, "csrfmiddlewaretoken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 302
    assert ShortlistEntry.objects.filter(candidate=ideal).count() == 1


def test_candidate_text_is_escaped_on_both_pages(recruiter_client, recruiter, job, skills):
    hostile = person("<script>alert(1)</script>", {"go": 9}, city="<b>Berlin</b>")
    hostile.title = "<img src=x onerror=alert(2)>"
    hostile.save(update_fields=["title"])
    ContributionFactory(candidate=hostile, repository=RepositoryFactory(full_name="evil/<i>repo", topic_slugs=["go"]))
    services.pipeline_add(job=job, candidate=hostile, user=recruiter)

    for url in (matches(job), board(job)):
        html = recruiter_client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<img src=x" not in html
        assert "<b>Berlin</b>" not in html
        assert "<i>repo" not in html


def test_the_pages_take_as_many_queries_for_many_rows_as_for_one(
    recruiter_client, recruiter, job, ideal, django_assert_num_queries
):
    services.pipeline_add(job=job, candidate=ideal, user=recruiter)
    with django_assert_num_queries(MATCHES_QUERIES):
        recruiter_client.get(matches(job))
    with django_assert_num_queries(BOARD_QUERIES):
        recruiter_client.get(board(job))
    for n in range(4):
        other = person(f"More {n}", {"go": 7, "kafka": 6})
        ContributionFactory(candidate=other, repository=RepositoryFactory(topic_slugs=["go"]))
        services.pipeline_add(job=job, candidate=other, user=recruiter, stage="contacted", note="Wrote.")
    with django_assert_num_queries(MATCHES_QUERIES):
        assert len(_result_rows(recruiter_client.get(matches(job)).content.decode())) == 5
    with django_assert_num_queries(BOARD_QUERIES):
        assert recruiter_client.get(board(job)).status_code == 200


# The matches: the session, the user, its permissions (its own, its groups'), the job, its skills; the criteria's
# skills resolved (once, for the ranking and the explanation), the page (one row more, no count); the explanation's
# contributions; the pipeline stages of the page; the related skills to also consider. The board: the same first six,
# then the entries with their candidates, their events with authors.
MATCHES_QUERIES = 11
BOARD_QUERIES = 8


def test_a_viewer_posting_to_a_private_job_is_refused_not_told_it_is_missing(viewer_client, job, ideal):
    # Who may change no job at all is refused before any job is looked up (the security walk expects a 403).
    assert viewer_client.post(add_url(job), {"candidate": ideal.pk}).status_code == 403
    assert viewer_client.post(move_url(job), {"entry": "1", "stage": "contacted"}).status_code == 403
    assert not ShortlistEntry.objects.exists()


def test_absurd_ids_and_pages_are_not_found_or_the_last_page_never_an_error(recruiter_client, job, ideal):
    huge = str(10**30)

    assert recruiter_client.post(add_url(job), {"candidate": huge}).status_code == 404
    assert recruiter_client.post(add_url(job), {"candidate": "x"}).status_code == 404
    assert recruiter_client.post(move_url(job), {"entry": huge, "stage": "contacted"}).status_code == 404
    assert recruiter_client.get(matches(job, huge)).status_code == 200
    assert recruiter_client.get(matches(job, "two")).status_code == 200
    assert not ShortlistEntry.objects.exists()


def test_a_colleague_sees_a_shared_jobs_matches_but_only_the_owner_changes_them(client, groups, job, ideal):
    services.job_update(job=job, user=job.owner, shared=True)
    colleague = UserFactory(username="carla", is_staff=True)
    colleague.groups.add(groups["Recruiter"])
    client.force_login(colleague)

    html = client.get(matches(job)).content.decode()

    assert "Ines Ideal" in html
    assert "Add to pipeline" not in html
    assert client.post(add_url(job), {"candidate": ideal.pk}).status_code == 403
    assert client.post(criteria_url(job), {"op": "remove_skill", "skill": "go"}).status_code == 403
    assert not ShortlistEntry.objects.exists()


def test_the_board_needs_the_candidate_view_permission_as_the_matches_do(client, job):
    from django.contrib.auth.models import Permission

    user = UserFactory(username="jobs-only", is_staff=True, is_superuser=False)
    user.user_permissions.add(Permission.objects.get(codename="view_job", content_type__app_label="jobs"))
    client.force_login(user)

    assert client.get(matches(job)).status_code == 403
    assert client.get(board(job)).status_code == 403


# --- "Widen with related skills" ---------------------------------------------------------------------------------


def test_the_widen_checkbox_ranks_related_skills_and_leaves_the_page_as_it_was_when_off(
    recruiter_client, job, skills, django_assert_num_queries
):
    """Rust (preferred) goes with Zig: widened, who has Zig ranks above who has neither and below who has Rust."""
    relate("rust", "zig", lift=5.0)
    base = {"go": 7, "postgresql": 7, "kafka": 7}
    with_rust = person("Rhea Rust", {**base, "rust": 8})
    with_zig = person("Zane Zig", {**base, "zig": 8})
    neither = person("Nico Neither", base)

    off = recruiter_client.get(matches(job)).content.decode()
    # The related skills (read once for the ranking and the page), and the names of those shown.
    with django_assert_num_queries(MATCHES_QUERIES + 2):
        widened = recruiter_client.get(matches(job) + "?widen=1").content.decode()

    def order(html):
        return [int(pk) for pk in re.findall(r'<tr class="match-row" data-candidate="(\d+)"', html)]

    assert order(widened) == [with_rust.pk, with_zig.pk, neither.pk]
    assert order(off) == [with_rust.pk, *sorted([with_zig.pk, neither.pk])], "off, Zig counts for nothing"
    assert "Zig 8 ≈ Rust" in _result_rows(widened)[1]
    assert 'title="related to Rust"' in widened
    assert "chip-related" not in off
    assert re.search(r'<input type="checkbox" name="widen" value="1" checked>', widened)
    assert re.search(r'<input type="checkbox" name="widen" value="1">', off)
    assert _result_rows(recruiter_client.get(matches(job) + "?widen=0").content.decode()) == _result_rows(off)


def test_widened_pages_keep_the_widen_in_their_links(recruiter_client, job, monkeypatch):
    monkeypatch.setattr(matches_page, "MATCHES_PER_PAGE", 1)
    for n in range(3):
        person(f"Go Person {n}", {"go": 9 - n})

    html = recruiter_client.get(matches(job, 2) + "&widen=1").content.decode()

    assert 'href="?widen=1&amp;page=3" rel="next"' in html
    assert 'href="?widen=1&amp;page=1" rel="prev"' in html
