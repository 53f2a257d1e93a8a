"""Every changelist filter of every registered admin answers odd values without a server error.

PostgreSQL refuses a NUL character in text, so a NUL in a filter (``/admin/ingestion/sourcefile/?status=a%00b``) must
not reach it. Here each registered ModelAdmin's changelist gets, in each parameter its filters read
(the filters' own parameters, the bare field names of ``list_filter``, the date hierarchy's, the search, ordering and
page), a NUL, a very long value, an invalid choice, a number out of range and a bad date: the answer is a page (the
filter ignored, or Django's "invalid lookup" redirect) or a 400, never a 500.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.admin.views.main import ORDER_VAR, PAGE_VAR, SEARCH_VAR
from django.test import Client, RequestFactory
from django.urls import reverse

from profiles.admin.sidebar import SHARED_PARAMS
from profiles.selectors import candidate_filter_choices
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ODD_VALUES = {
    "nul": "a\x00b",
    "long": "x" * 5000,
    "invalid_choice": "no-such-choice \x01\x1b[31m",
    "out_of_range": "99999999999999999999999",
    "bad_date": "2024-13-45",
}


def _registered() -> list[tuple[str, admin.ModelAdmin]]:
    return sorted(
        ((model._meta.label_lower, model_admin) for model, model_admin in admin.site._registry.items()),
        key=lambda item: item[0],
    )


def _filter_parameters(model_admin: admin.ModelAdmin, user) -> list[str]:
    """The query parameters the changelist's filters read: each filter's expected parameters, the bare field name of
    each field filter, the date hierarchy's, the search, ordering and page."""
    request = RequestFactory().get("/")
    request.user = user
    request.filter_choices = candidate_filter_choices()  # what the candidate changelist reads (its view sets it)
    changelist = model_admin.get_changelist_instance(request)
    names = {name for spec in changelist.filter_specs for name in spec.expected_parameters()}
    for item in model_admin.get_list_filter(request):
        field = item[0] if isinstance(item, tuple) else item
        if isinstance(field, str):
            names.add(field)
    if model_admin.date_hierarchy:
        names.update(f"{model_admin.date_hierarchy}__{part}" for part in ("year", "month", "day"))
    if hasattr(model_admin, "shared_params"):
        names.update(SHARED_PARAMS)
    names.update([SEARCH_VAR, ORDER_VAR, PAGE_VAR])
    return sorted(names)


@pytest.fixture
def superuser_client():
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("kind", sorted(ODD_VALUES))
def test_no_changelist_filter_answers_an_odd_value_with_a_server_error(superuser_client, kind):
    user = UserFactory(is_staff=True, is_superuser=True)
    value = ODD_VALUES[kind]
    failures, statuses = [], []
    for label, model_admin in _registered():
        opts = model_admin.model._meta
        url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        for name in _filter_parameters(model_admin, user):
            try:
                response = superuser_client.get(url, {name: value})
            except Exception as exc:  # the test client raises what a server would answer with a 500
                failures.append(f"{label} ?{name}=: {type(exc).__name__}: {str(exc)[:120]}")
                continue
            statuses.append(response.status_code)
            if response.status_code not in (200, 302, 400):
                failures.append(f"{label} ?{name}=: {response.status_code}")
    assert len(statuses) + len(failures) > 100, "too few filter parameters found: the collection above is broken"
    assert not failures, "\n".join(failures)
    if kind == "nul":
        assert set(statuses) == {400}


def test_every_registered_admin_is_asked(superuser_client):
    """The collection reaches the admins of every app, the libraries' too, and their custom filters."""
    user = UserFactory(is_staff=True, is_superuser=True)
    parameters = {label: _filter_parameters(model_admin, user) for label, model_admin in _registered()}

    assert {"auth.user", "axes.accessattempt", "profiles.candidate", "ingestion.sourcefile", "jobs.job"} <= set(
        parameters
    )
    assert {"status", "status__exact", "format", "outcome", "warnings"} <= set(parameters["ingestion.sourcefile"])
    assert {"kind", "kind__exact"} <= set(parameters["profiles.skill"])
    assert {"skill", "country", "notice", "retention"} & set(parameters["profiles.candidate"]) >= {"skill", "country"}
    assert {"notice", "retention"} <= set(parameters["privacy.sourcingrecord"])
    assert "attempt_time__year" in parameters["axes.accessattempt"]


def test_a_nul_in_an_object_id_or_another_admin_page_is_refused_too(superuser_client):
    assert superuser_client.get("/admin/authtoken/tokenproxy/a%00b/change/").status_code == 400
    assert (
        superuser_client.get("/admin/autocomplete/?term=a%00b&app_label=profiles&model_name=skill").status_code == 400
    )
    assert superuser_client.get("/admin/?q=%00").status_code == 400


def test_an_anonymous_visitor_is_still_sent_to_the_login(client):
    response = client.get("/admin/ingestion/sourcefile/?status=a%00b")

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_a_nul_in_a_choice_filter_is_a_400(superuser_client):
    for url in [
        "/admin/ingestion/sourcefile/?status=a%00b",
        "/admin/ingestion/sourcefile/?format=a%00b",
        "/admin/ingestion/sourcefile/?outcome=a%00b",
        "/admin/profiles/skill/?kind=a%00b",
    ]:
        response = superuser_client.get(url)

        assert response.status_code == 400, url
        assert "NUL character" in response.content.decode()


def test_a_huge_year_in_a_date_hierarchy_is_refused(superuser_client):
    assert superuser_client.get("/admin/axes/accessattempt/?attempt_time__year=99999999999999999999").status_code == 400
    assert superuser_client.get("/admin/axes/accessattempt/?attempt_time__year=2024").status_code == 200
