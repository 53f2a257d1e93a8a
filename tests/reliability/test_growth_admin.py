"""Every admin bulk action, timed on selections that double, fails on super-linear growth.

An action whose cost grows faster than its selection turns a "select all" into a request that never ends or a worker
that runs out of memory. Here each action of each registered admin runs through the changelist, as a
superuser's browser sends it (the confirmation page too, where the action has one), on selections of 25, 50, 100 and
200 objects made in bulk; an action with a cap (erasure, merges, access requests) runs up to its cap. The work is in
the database, so the clock is the wall clock (``tests/reliability/growth.py``).

Marking as different people records every pair of its group, n·(n-1)/2 rows: what doubles there is the pairs (its
cap, ``MAX_GROUP_SIZE``, bounds them), and the time must follow them, not grow faster.

``test_every_admin_bulk_action_is_timed`` lists the actions the admin offers: a new one fails it until it has a case
here.
"""

from __future__ import annotations

import csv
import io
import math
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group, User
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from exports.models import Export
from ingestion.models import ImportBatch, SourceFile
from jobs.models import Job
from privacy import notices
from privacy.admin import ERASE_AT_ONCE
from privacy.admin_access import MAX_PEOPLE
from privacy.models import ErasureRequest, SourcingRecord
from profiles.models import (
    Candidate,
    CandidateSkill,
    Contribution,
    Education,
    MergeRecord,
    NotDuplicate,
    Position,
    Repository,
    SavedSearch,
    Shortlist,
    ShortlistEntry,
    Skill,
    SkillAlias,
    SpokenLanguage,
)
from profiles.services import MAX_GROUP_SIZE
from tests.reliability.growth import Growth, assert_near_linear, measure_growth

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]

UNCAPPED_BASE = 25  # 25, 50, 100, 200
DOUBLINGS = 3
# Best of this many runs at each size: five for the quick actions, whose timings a busy machine disturbs most; two
# for those whose smallest selection takes a second or more (merges, erasures), where one run is steady enough.
REPEATS = 5
SLOW_REPEATS = 2
PAIRS_BASE = 600  # marking as different people: 600 .. 4,800 pairs (35 .. 99 candidates, under the cap of 100)


@dataclass
class Selection:
    """One selection to act on: the ids ticked, what else the form posts, and whether the action did its work."""

    ids: list[int]
    data: dict[str, Any] = field(default_factory=dict)
    done: Callable[[Selection], bool] = lambda selection: True
    body: bytes = b""  # a download's bytes, read by the timed request


@dataclass(frozen=True)
class Case:
    model: str  # app_label.model_name
    action: str
    make: Callable[[int, User], Selection]  # n objects to select
    cap: int | None = None
    in_pairs: bool = False  # what doubles is the pairs of the selection (n = the candidates for that many pairs)
    repeats: int = REPEATS
    # The smallest selection, for the actions that take a second or more per ten objects (merges, erasures): small
    # enough that the whole file stays within a few minutes of `make reliability`, large enough to time.
    base: int | None = None

    @property
    def id(self) -> str:
        return f"{self.model}:{self.action}"


# --- Making selections fast (bulk_create, no factories) -------------------------------------------------------------


def _tag() -> str:
    return uuid.uuid4().hex[:10]


def _candidates(n: int, **fields) -> list[Candidate]:
    tag = _tag()
    return Candidate.objects.bulk_create(
        Candidate(name=f"Growth {tag} {i}", title="Engineer", company=f"Co {i}", city="Berlin", **fields)
        for i in range(n)
    )


def _skills(n: int) -> list[Skill]:
    tag = _tag()
    return Skill.objects.bulk_create(Skill(slug=f"growth-{tag}-{i}", name=f"Growth {tag} {i}") for i in range(n))


def _with_rows(candidates: list[Candidate]) -> list[Candidate]:
    """Give each candidate what a real profile has: skills, contributions, jobs, education, a language."""
    skills = _skills(8)
    tag = _tag()
    repositories = Repository.objects.bulk_create(
        Repository(full_name=f"growth-{tag}/repo{i}") for i in range(2 * len(candidates))
    )
    CandidateSkill.objects.bulk_create(
        CandidateSkill(candidate=c, skill=skills[(i + k) % len(skills)], score=(i + k) % 11, label="x", position=k)
        for i, c in enumerate(candidates)
        for k in range(4)
    )
    Contribution.objects.bulk_create(
        Contribution(candidate=c, repository=repositories[2 * i + k], position=k, commits=i + k)
        for i, c in enumerate(candidates)
        for k in range(2)
    )
    Position.objects.bulk_create(
        Position(candidate=c, company=f"Co {k}", title="Engineer", order=k) for c in candidates for k in range(2)
    )
    Education.objects.bulk_create(Education(candidate=c, school="TU Berlin", position=0) for c in candidates)
    SpokenLanguage.objects.bulk_create(
        SpokenLanguage(candidate=c, name="English", code="en", position=0) for c in candidates
    )
    return candidates


def _shortlist(owner: User, candidates: list[Candidate] = ()) -> Shortlist:
    shortlist = Shortlist.objects.create(owner=owner, name=f"Growth {_tag()}")
    ShortlistEntry.objects.bulk_create(ShortlistEntry(shortlist=shortlist, candidate=c) for c in candidates)
    return shortlist


def _ids(objects) -> list[int]:
    return [o.pk for o in objects]


def _gone(model) -> Callable[[Selection], bool]:
    return lambda selection: not model._base_manager.filter(pk__in=selection.ids).exists()


def _csv_rows(selection: Selection) -> int:
    return len(list(csv.reader(io.StringIO(selection.body.decode())))) - 1


def _pairs_to_candidates(pairs: int) -> int:
    return math.ceil((1 + math.sqrt(1 + 8 * pairs)) / 2)


# --- The cases, one per action of each admin ------------------------------------------------------------------------


def add_to_shortlist(n, user):
    shortlist = _shortlist(user)
    return Selection(
        _ids(_candidates(n)),
        {"apply": "1", "shortlist": shortlist.pk},
        lambda s: shortlist.entries.count() == len(s.ids),
    )


def add_to_job(n, user):
    pipeline = Shortlist.objects.create(owner=user, name=f"Pipeline {_tag()}")
    Job.objects.create(title="Growth job", description="Python, Go.", owner=user, pipeline=pipeline)
    return Selection(
        _ids(_candidates(n)),
        {"apply": "1", "shortlist": pipeline.pk},
        lambda s: pipeline.entries.count() == len(s.ids),
    )


def export_candidates(n, user):
    candidates = _candidates(n)
    skills = _skills(3)
    CandidateSkill.objects.bulk_create(
        CandidateSkill(candidate=c, skill=s, score=7, label=s.name, position=k)
        for c in candidates
        for k, s in enumerate(skills)
    )
    return Selection(_ids(candidates), done=lambda s: _csv_rows(s) == len(s.ids))


def merge_candidates(n, user):
    candidates = _with_rows(_candidates(n))
    return Selection(_ids(candidates), {"apply": "1", "survivor": candidates[0].pk}, _gone_but_first)


def _gone_but_first(selection: Selection) -> bool:
    left = list(Candidate.objects.filter(pk__in=selection.ids).values_list("pk", flat=True))
    merged = MergeRecord.objects.filter(survivor_id=selection.ids[0]).count()
    return left == selection.ids[:1] and merged == len(selection.ids) - 1


def mark_not_duplicates(pairs, user):
    candidates = _candidates(_pairs_to_candidates(pairs))
    n = len(candidates)
    return Selection(
        _ids(candidates),
        done=lambda s: NotDuplicate.objects.filter(first_id__in=s.ids).count() == n * (n - 1) // 2,
    )


def release_protected_fields(n, user):
    return Selection(
        _ids(_candidates(n, protected_fields=["title", "company"])),
        done=lambda s: not Candidate.objects.filter(pk__in=s.ids, protected_fields__len__gt=0).exists(),
    )


def request_erasure(n, user):
    return Selection(
        _ids(_candidates(n)),
        {"apply": "1", "reason": "Asked by email."},
        lambda s: ErasureRequest.objects.filter(candidate_id__in=s.ids).count() == len(s.ids),
    )


def erase_candidates(n, user):
    return Selection(_ids(_with_rows(_candidates(n))), {"apply": "1"}, _gone(Candidate))


def candidate_access_report(n, user):
    return Selection(_ids(_with_rows(_candidates(n))), done=lambda s: _zip_files(s) == 2 * len(s.ids))


def _zip_files(selection: Selection) -> int:
    return len(zipfile.ZipFile(io.BytesIO(selection.body)).namelist())


def export_shortlists(n, user):
    candidates = _candidates(3)
    shortlists = [_shortlist(user, candidates) for _ in range(n)]
    return Selection(_ids(shortlists), done=lambda s: _csv_rows(s) == 3 * len(s.ids))


def delete_shortlists(n, user):
    candidates = _candidates(2)
    return Selection(_ids(_shortlist(user, candidates) for _ in range(n)), done=_gone(Shortlist))


def merge_skills(n, user):
    skills = _skills(n)
    target = _skills(1)[0]
    candidates = _candidates(4)
    CandidateSkill.objects.bulk_create(
        CandidateSkill(candidate=c, skill=s, score=5, label=s.name, position=k)
        for k, s in enumerate(skills)
        for c in candidates[: 1 + k % 4]
    )
    return Selection(_ids(skills), {"apply": "1", "target": target.slug}, _gone(Skill))


def delete_skills(n, user):
    skills = _skills(n)  # unused: a skill a candidate has is protected (merged, not deleted)
    SkillAlias.objects.bulk_create(SkillAlias(label=f"{s.slug} alias", skill=s) for s in skills)
    return Selection(_ids(skills), done=_gone(Skill))


def delete_aliases(n, user):
    [skill] = _skills(1)
    tag = _tag()
    aliases = SkillAlias.objects.bulk_create(SkillAlias(label=f"growth {tag} {i}", skill=skill) for i in range(n))
    return Selection(_ids(aliases), done=_gone(SkillAlias))


def delete_repositories(n, user):
    tag = _tag()
    repositories = Repository.objects.bulk_create(Repository(full_name=f"growth-{tag}/r{i}") for i in range(n))
    return Selection(_ids(repositories), done=_gone(Repository))


def delete_not_duplicates(n, user):
    candidates = _candidates(2 * n)
    rows = NotDuplicate.objects.bulk_create(
        NotDuplicate(first=a, second=b, marked_by=user) for a, b in zip(candidates[::2], candidates[1::2], strict=True)
    )
    return Selection(_ids(rows), done=_gone(NotDuplicate))


def delete_merge_records(n, user):
    [survivor] = _candidates(1)
    rows = MergeRecord.objects.bulk_create(
        MergeRecord(survivor=survivor, merged_name=f"Merged {i}", merged_id=10**9 + i, merged_by=user) for i in range(n)
    )
    return Selection(_ids(rows), done=_gone(MergeRecord))


def delete_shortlist_entries(n, user):
    shortlist = _shortlist(user, _candidates(n))
    return Selection(_ids(shortlist.entries.all()), done=_gone(ShortlistEntry))


def delete_identity_reviews(n, user):
    from django.apps import apps

    review = apps.get_model("profiles", "identityreview")
    rows = review.objects.bulk_create(review(candidate=c, names=["Ana Lima", "Bo Chen"]) for c in _candidates(n))
    return Selection(_ids(rows), done=_gone(review))


def delete_saved_searches(n, user):
    tag = _tag()
    rows = SavedSearch.objects.bulk_create(
        SavedSearch(owner=user, name=f"Growth {tag} {i}", query="skill=python:7&country=DE") for i in range(n)
    )
    return Selection(_ids(rows), done=_gone(SavedSearch))


def _files(n: int, **fields) -> list[SourceFile]:
    batch = ImportBatch.objects.create(origin=ImportBatch.Origin.ADMIN, label=f"growth {_tag()}", total_files=n)
    tag = _tag()
    return SourceFile.objects.bulk_create(
        SourceFile(
            batch=batch,
            original_name=f"profile{i}.txt",
            content=b"Name: Ada\n",
            sha256=f"{tag}{i:054d}",
            size=10,
            **fields,
        )
        for i in range(n)
    )


def delete_files(n, user):
    return Selection(_ids(_files(n, status=SourceFile.Status.IMPORTED)), done=_gone(SourceFile))


def _pending(selection: Selection) -> bool:
    statuses = set(SourceFile.objects.filter(pk__in=selection.ids).values_list("status", flat=True))
    return statuses == {SourceFile.Status.PENDING}


def reparse_failed(n, user):
    return Selection(_ids(_files(n, status=SourceFile.Status.FAILED, error="Unreadable.")), done=_pending)


def reimport(n, user):
    return Selection(_ids(_files(n, status=SourceFile.Status.IMPORTED)), done=_pending)


def delete_exports(n, user):
    rows = Export.objects.bulk_create(
        Export(owner=user, format=Export.Format.CSV, query="country=DE", status=Export.Status.FAILED, error="x")
        for _ in range(n)
    )
    return Selection(_ids(rows), done=_gone(Export))


def delete_jobs(n, user):
    tag = _tag()
    pipelines = Shortlist.objects.bulk_create(Shortlist(owner=user, name=f"Pipeline {tag} {i}") for i in range(n))
    jobs = Job.objects.bulk_create(
        Job(title=f"Job {i}", description="Python, Go.", owner=user, pipeline=p) for i, p in enumerate(pipelines)
    )
    return Selection(_ids(jobs), done=_gone(Job))


def _open_requests(n: int, user: User) -> list[ErasureRequest]:
    return ErasureRequest.objects.bulk_create(
        ErasureRequest(candidate=c, requested_by=user, reason="Asked.") for c in _with_rows(_candidates(n))
    )


def erase_requested(n, user):
    requests = _open_requests(n, user)
    candidate_ids = [r.candidate_id for r in requests]
    return Selection(
        _ids(requests),
        {"apply": "1"},
        lambda s: not Candidate.objects.filter(pk__in=candidate_ids).exists(),
    )


def reject_requests(n, user):
    return Selection(
        _ids(_open_requests(n, user)),
        done=lambda s: (
            set(ErasureRequest.objects.filter(pk__in=s.ids).values_list("status", flat=True))
            == {ErasureRequest.Status.REJECTED}
        ),
    )


def _sourcing_records(candidates: list[Candidate]) -> list[SourcingRecord]:
    now = timezone.now()
    return SourcingRecord.objects.bulk_create(
        SourcingRecord(candidate=c, notice_due_at=now + timedelta(days=30)) for c in candidates
    )


def mark_notices_sent(n, user):
    return Selection(
        _ids(_sourcing_records(_candidates(n))),
        {"apply": "1", "channel": notices.CHANNELS[0], "sent_on": timezone.localdate().isoformat()},
        lambda s: not SourcingRecord.objects.filter(pk__in=s.ids, notified_at__isnull=True).exists(),
    )


def sourcing_access_report(n, user):
    return Selection(
        _ids(_sourcing_records(_with_rows(_candidates(n)))), done=lambda s: _zip_files(s) == 2 * len(s.ids)
    )


def delete_groups(n, user):
    tag = _tag()
    return Selection(
        _ids(Group.objects.bulk_create(Group(name=f"growth {tag} {i}") for i in range(n))), done=_gone(Group)
    )


def delete_users(n, user):
    tag = _tag()
    users = User.objects.bulk_create(User(username=f"growth-{tag}-{i}", is_staff=True) for i in range(n))
    return Selection(_ids(users), done=_gone(User))


def _axes(model_name: str, n: int) -> list:
    from django.apps import apps

    model = apps.get_model("axes", model_name)
    common = {"user_agent": "growth", "ip_address": "127.0.0.1", "http_accept": "*/*", "path_info": "/admin/login/"}
    extra = {
        "accessattempt": {"get_data": "", "post_data": "", "failures_since_start": 1},
        "accesslog": {},
        "accessfailurelog": {},
    }[model_name]
    tag = _tag()  # one attempt per username, address and browser
    return model.objects.bulk_create(model(username=f"{tag}-{i}", **common, **extra) for i in range(n))


def delete_axes(model_name: str):
    def make(n, user):
        rows = _axes(model_name, n)
        return Selection(_ids(rows), done=_gone(type(rows[0])))

    return make


def cleanup_expired_attempts(n, user):
    return Selection(_ids(_axes("accessattempt", n)))


CASES = [
    Case("profiles.candidate", "add_to_job", add_to_job),
    Case("profiles.candidate", "add_to_shortlist", add_to_shortlist),
    Case("profiles.candidate", "export_csv", export_candidates),
    Case("profiles.candidate", "merge_candidates", merge_candidates, cap=MAX_GROUP_SIZE, repeats=SLOW_REPEATS, base=4),
    Case("profiles.candidate", "mark_not_duplicates", mark_not_duplicates, cap=MAX_GROUP_SIZE, in_pairs=True),
    Case("profiles.candidate", "release_protected_fields", release_protected_fields, repeats=SLOW_REPEATS, base=6),
    Case("profiles.candidate", "request_erasure", request_erasure, cap=ERASE_AT_ONCE),
    Case("profiles.candidate", "erase_candidates", erase_candidates, cap=ERASE_AT_ONCE, repeats=SLOW_REPEATS, base=4),
    Case("profiles.candidate", "subject_access_report", candidate_access_report, cap=MAX_PEOPLE, repeats=SLOW_REPEATS),
    Case("profiles.shortlist", "export_csv", export_shortlists),
    Case("profiles.shortlist", "delete_selected", delete_shortlists, repeats=SLOW_REPEATS, base=10),
    Case("profiles.skill", "merge_skills", merge_skills, repeats=SLOW_REPEATS, base=6),
    Case("profiles.skill", "delete_selected", delete_skills),
    Case("profiles.skillalias", "delete_selected", delete_aliases),
    Case("profiles.repository", "delete_selected", delete_repositories),
    Case("profiles.notduplicate", "delete_selected", delete_not_duplicates),
    Case("profiles.mergerecord", "delete_selected", delete_merge_records),
    Case("profiles.shortlistentry", "delete_selected", delete_shortlist_entries),
    Case("profiles.savedsearch", "delete_selected", delete_saved_searches),
    Case("profiles.identityreview", "delete_selected", delete_identity_reviews),
    Case("ingestion.sourcefile", "delete_selected", delete_files),
    Case("ingestion.sourcefile", "reparse_failed", reparse_failed),
    Case("ingestion.sourcefile", "reimport", reimport),
    Case("exports.export", "delete_selected", delete_exports),
    Case("jobs.job", "delete_selected", delete_jobs),
    Case("privacy.erasurerequest", "erase_requested", erase_requested, cap=ERASE_AT_ONCE, repeats=SLOW_REPEATS, base=4),
    Case("privacy.erasurerequest", "reject", reject_requests),
    Case("privacy.sourcingrecord", "mark_notices_sent", mark_notices_sent),
    Case(
        "privacy.sourcingrecord", "subject_access_report", sourcing_access_report, cap=MAX_PEOPLE, repeats=SLOW_REPEATS
    ),
    Case("auth.group", "delete_selected", delete_groups),
    Case("auth.user", "delete_selected", delete_users),
    Case("axes.accessattempt", "delete_selected", delete_axes("accessattempt")),
    Case("axes.accessattempt", "cleanup_expired_attempts", cleanup_expired_attempts),
    Case("axes.accesslog", "delete_selected", delete_axes("accesslog")),
    Case("axes.accessfailurelog", "delete_selected", delete_axes("accessfailurelog")),
]


def _changelist(model: str) -> str:
    app_label, model_name = model.split(".")
    return reverse(f"admin:{app_label}_{model_name}_changelist")


def _act(client: Client, case: Case, selection: Selection) -> None:
    """The action as the browser sends it: Django's delete asks first, then deletes; the others post once, with what
    their intermediate page would post."""
    url = _changelist(case.model)
    data = {"action": case.action, ACTION_CHECKBOX_NAME: selection.ids, **selection.data}
    if case.action == "delete_selected":
        page = client.post(url, data)
        assert page.status_code == 200, f"{case.id}: the confirmation page answered {page.status_code}"
        data["post"] = "yes"
    response = client.post(url, data)
    assert response.status_code in (200, 302), f"{case.id}: answered {response.status_code}"
    if response.streaming:
        selection.body = b"".join(response.streaming_content)  # read to its end, which closes it (and frees the slot)
    elif response.get("Content-Disposition", "").startswith("attachment"):
        selection.body = response.content


@pytest.fixture
def superuser():
    return User.objects.create_superuser(username=f"growth-{_tag()}", password=uuid.uuid4().hex)


@pytest.fixture
def superuser_client(superuser):
    client = Client()
    client.force_login(superuser)
    return client


def test_every_admin_bulk_action_is_timed(superuser):
    request = RequestFactory().get("/")
    request.user = superuser
    offered = {
        f"{model._meta.label_lower}:{name}"
        for model, model_admin in admin.site._registry.items()
        for name in model_admin.get_actions(request)
    }

    assert offered == {case.id for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_an_admin_bulk_action_grows_no_faster_than_its_selection(superuser_client, superuser, case):
    if case.in_pairs:
        base = PAIRS_BASE
        assert _pairs_to_candidates(base * 2**DOUBLINGS) <= case.cap
    else:
        base = case.base or (UNCAPPED_BASE if case.cap is None else case.cap // 2**DOUBLINGS)
    made: list[Selection] = []

    def make_input(n: int) -> list[Selection]:
        selections = [case.make(n, superuser) for _ in range(case.repeats)]
        made.extend(selections)
        return selections

    def work(selections: list[Selection]) -> None:
        _act(superuser_client, case, selections.pop())

    def measure() -> Growth:
        growth = measure_growth(work, make_input, base=base, doublings=DOUBLINGS, repeats=case.repeats)
        print(f"\n{case.id}: {growth.describe()}")
        undone = [len(s.ids) for s in made if not s.done(s)]
        assert not undone, f"{case.id} did not do its work on selections of {undone}: the timing is of a refusal"
        return growth

    what = f"the admin action {case.id}"
    try:
        assert_near_linear(measure(), what=what)
    except AssertionError as first:
        if "did not do its work" in str(first):
            raise
        # Another process on the two cores can slow every run of one size: a super-linear action fails again on
        # fresh selections, a disturbance does not.
        assert_near_linear(measure(), what=what)
