"""Security fixtures: users with no permission, one row of every model, and every URL the project serves."""

from __future__ import annotations

import importlib
import itertools
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from rest_framework.authtoken.models import Token

from ingestion.models import ImportBatch
from jobs.models import Job, JobSkill
from privacy.models import ErasureRequest, PrivacyEvent, SourcingRecord, Suppression
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    IdentityReview,
    MergeRecord,
    NotDuplicate,
    SavedSearch,
    Shortlist,
    ShortlistEntry,
    ShortlistEntryEvent,
    SkillAlias,
)
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    ImportBatchFactory,
    SourceFileFactory,
    UserFactory,
)

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Users are made by the dozen here; a slow hasher would cost seconds each (login tests still check passwords)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def nobody(db):
    """Logged in, active, and allowed nothing: not staff, no group, no permission."""
    return UserFactory(username="nobody")


@pytest.fixture
def staff_nobody(db):
    """Staff (may open the admin) but without a single model permission."""
    return UserFactory(username="staff-nobody", is_staff=True)


@pytest.fixture
def viewer(db):
    """Staff in the Viewer group of the data migration (read-only). Transactional tests flush the tables, so the
    migration's own function runs again here (it is idempotent)."""
    importlib.import_module("profiles.migrations.0004_create_recruiter_and_viewer_groups").create_groups(apps, None)
    user = UserFactory(username="viewer", is_staff=True)
    user.groups.add(Group.objects.get(name="Viewer"))
    return user


@pytest.fixture
def token_of():
    def make(user) -> str:
        return Token.objects.get_or_create(user=user)[0].key

    return make


@pytest.fixture
def one_of_everything(db):
    """A row of every model, so object URLs hit real rows: a 404 must never hide a missing permission check."""
    owner = UserFactory(username="owner", is_staff=True, is_superuser=True)
    first, second = CandidateFactory(), CandidateFactory()
    CandidateSkillFactory(candidate=first)
    EducationFactory(candidate=first)
    ContributionFactory(candidate=first)
    CandidateIdentifier.objects.create(candidate=first, kind="github", value="someone")
    SkillAlias.objects.get_or_create(label="zz-security-alias", defaults={"skill": first.skills.first().skill})
    shortlist = Shortlist.objects.create(name="Backend", owner=owner)
    ShortlistEntry.objects.create(shortlist=shortlist, candidate=first)
    SavedSearch.objects.create(name="Pythonistas", owner=owner, query="skill=python:8")
    pipeline = Shortlist.objects.create(name="Backend job", owner=owner)
    ShortlistEntryEvent.objects.create(
        entry=ShortlistEntry.objects.create(shortlist=pipeline, candidate=first), author=owner, kind="added"
    )
    job = Job.objects.create(title="Backend job", description="Python.", owner=owner, pipeline=pipeline)
    JobSkill.objects.create(job=job, skill=first.skills.first().skill, kind="required", min_score=5)
    low, high = sorted([first, second], key=lambda c: c.pk)
    NotDuplicate.objects.create(first=low, second=high, marked_by=owner)
    MergeRecord.objects.create(survivor=first, merged_name="Gone", merged_id=10**9, merged_by=owner)
    IdentityReview.objects.create(candidate=first, names=["Ada Quill", "Ben Ortiz"])
    request = ErasureRequest.objects.create(candidate=second, requested_by=owner, reason="Asked by e-mail")
    event = PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.ERASURE, by=owner, request=request, counts={"x": 1})
    Suppression.objects.create(kind="email", digest="0" * 64, erased_by=owner, request=request, erasure=event)
    SourcingRecord.objects.create(candidate=first, notice_due_at=first.created_at)
    batch = ImportBatchFactory(origin=ImportBatch.Origin.API, label="someone else's upload", created_by=owner)
    SourceFileFactory(
        batch=batch,
        original_name="a.txt",
        status="failed",
        error="This file is neither a Prog.AI profile export nor a JSON Resume.",
    )
    Token.objects.get_or_create(user=owner)
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    AccessAttempt.objects.create(
        username="x",
        ip_address="127.0.0.1",
        failures_since_start=1,
        user_agent="t",
        get_data="",
        post_data="",
        http_accept="*/*",
        path_info="/admin/login/",
    )
    AccessLog.objects.create(
        username="x", ip_address="127.0.0.1", user_agent="t", http_accept="*/*", path_info="/admin/login/"
    )
    AccessFailureLog.objects.create(
        username="x",
        ip_address="127.0.0.1",
        user_agent="t",
        http_accept="*/*",
        path_info="/admin/login/",
        locked_out=False,
    )
    return {"candidate": first, "owner": owner, "batch": batch, "shortlist": shortlist}


# --- Every URL -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    route: str  # the pattern, prefixes included
    name: str  # "namespace:name", or "" for unnamed patterns
    url: str  # a concrete URL that resolves to it, with ids of real rows

    @property
    def area(self) -> str:
        return "api" if self.url.startswith("/api/") else "admin" if self.url.startswith("/admin/") else "site"


def walk_patterns(resolver: URLResolver | None = None, prefix: str = "", namespace: str = ""):
    """(route, "namespace:name", pattern) of every URL pattern, recursively through every include()."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(filter(None, [namespace, pattern.namespace]))
            yield from walk_patterns(pattern, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else pattern.name or ""
            yield prefix + str(pattern.pattern), name, pattern


_CONVERTER = re.compile(r"(?<!\?P)<(?:(\w+):)?(\w+)>")
_GROUP = re.compile(r"\((?:\?P<(\w+)>)?([^()]*)\)")


def _model_of(route: str):
    match = re.match(r"admin/(\w+)/(\w+)/", route)
    if match:
        try:
            return apps.get_model(match.group(1), match.group(2))
        except LookupError:
            return None
    return None


_API_MODELS = {"candidate": Candidate, "import": ImportBatch, "job": Job}


def _samples(route: str, name: str, group: str, pattern_text: str) -> list[str]:
    """Values to try for one URL parameter: ids of real rows first."""
    model = _model_of(route)
    if model is None and route.startswith("api/"):
        model = next((m for key, m in _API_MODELS.items() if key in name), None)
    if group == "content_type_id":
        return [str(ContentType.objects.get_for_model(Candidate).pk)]
    if group == "history" and model is not None and hasattr(model, "history"):
        # A version of the row whose id the object slot gets (the first), so the URL opens a real version.
        first = model.objects.order_by("pk").first()
        versions = model.history.filter(**{model._meta.pk.attname: first.pk}) if first else model.history.none()
        record = versions.order_by("history_id").first()
        return [str(record.history_id)] if record else ["1"]
    values = []
    if model is not None and model.objects.exists():
        values.append(str(model.objects.order_by("pk").first().pk))
    if "|" in pattern_text and not set(pattern_text) & set("[]*+?\\"):
        values.extend(pattern_text.split("|"))  # an alternation of literals, e.g. the admin's app labels
    return [*values, "1", "x"]


def concrete_endpoints() -> list[Endpoint]:
    """A concrete, resolving URL for every pattern of the URL configuration."""
    endpoints = []
    for route, name, pattern in walk_patterns():
        slots: list[tuple[str, str, str]] = []  # (placeholder text, group name, pattern text)
        for m in _CONVERTER.finditer(route):
            slots.append((m.group(0), m.group(2), ""))
        positional = 0
        for m in _GROUP.finditer(route):
            group = m.group(1)
            if group is None:  # positional groups of a regex: an object id, then a history id (simple_history)
                group = ("object_id", "history")[min(positional, 1)]
                positional += 1
            slots.append((m.group(0), group, m.group(2)))
        options = [_samples(route, name, group, text) for _, group, text in slots]
        url = None
        for values in itertools.islice(itertools.product(*options), 50):
            candidate = route
            for (placeholder, _, _), value in zip(slots, values, strict=True):
                candidate = candidate.replace(placeholder, value, 1)
            candidate = "/" + candidate.replace("^", "").replace("$", "").replace("\\", "")
            try:
                if resolve(candidate).func is pattern.callback:
                    url = candidate
                    break
            except Resolver404:
                continue
        assert url is not None, f"could not build a URL for {route!r} ({name})"
        endpoints.append(Endpoint(route, name, url))
    return endpoints


# --- What the database holds, and the forms a page posts ---------------------------------------------------------

# Sessions change whenever someone logs in or out; they are not data a request could write for someone else.
_UNFINGERPRINTED = {"django_session"}


def database_fingerprint() -> dict[str, tuple[int, str]]:
    """Every table of the database: its row count and a hash of every row's content, from one SQL statement."""
    tables = sorted(set(connection.introspection.table_names()) - _UNFINGERPRINTED)
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT %s, count(*), coalesce(md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))), '') "
        f"FROM {quote(table)} AS t"
        for table in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, tables)
        return {table: (count, digest) for table, count, digest in cursor.fetchall()}


@dataclass
class PageForm:
    """A ``<form method="post">`` of a page: what a browser would submit, and every option of its selects."""

    fields: list[tuple[str, str]] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)

    def data(self) -> dict[str, str | list[str]]:
        data: dict[str, list[str]] = {}
        for name, value in self.fields:
            data.setdefault(name, []).append(value)
        return {name: values[0] if len(values) == 1 else values for name, values in data.items()}


class _PostForms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[PageForm] = []
        self._form: PageForm | None = None
        self._select: tuple[str, list[str], bool] | None = None  # name, options, one was selected
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "").lower() == "post":
            self._form = PageForm()
            self.forms.append(self._form)
        if self._form is None:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file", "image", "reset"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self._form.fields.append((name, a.get("value", "on")))
        elif tag == "select" and name:
            self._select = (name, [], False)
        elif tag == "option" and self._select:
            select_name, options, _chosen = self._select
            options.append(a.get("value", ""))
            if "selected" in a:
                self._form.fields.append((select_name, a.get("value", "")))
                self._select = (select_name, options, True)
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_data(self, data):
        if self._textarea:
            self._text.append(data)

    def handle_endtag(self, tag):
        if self._form is None:
            return
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select:
            name, options, chosen = self._select
            if not chosen and options:  # a browser submits the first option
                self._form.fields.append((name, options[0]))
            self._form.options[name] = options
            self._select = None
        elif tag == "textarea" and self._textarea:
            self._form.fields.append((self._textarea, "".join(self._text).removeprefix("\n")))
            self._textarea = None


def post_forms(html: str) -> list[PageForm]:
    """Every form of a page that posts, as a browser would fill it in from what the page shows."""
    reader = _PostForms()
    reader.feed(html)
    return reader.forms
