"""The shortlists list tells a recruiter's own shortlists from the jobs' pipelines (a pipeline is a shortlist its job
owns): a "kind" column ("Shortlist", "Pipeline of <job>") and a filter by kind, which the desk's shortlist total
opens. Its headers are short, its breadcrumbs name the sidebar's section, and the owner picker of a superuser has no
links that edit, add or view a user from a shortlist's page."""

import re

import pytest
from django.urls import reverse

from jobs import services as job_services
from profiles.models import SavedSearch, Shortlist
from tests.admin.test_jobs_page import breadcrumbs

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:profiles_shortlist_changelist")


@pytest.fixture
def both(recruiter):
    plain = Shortlist.objects.create(owner=recruiter, name="Backend Berlin")
    job = job_services.job_create(
        user=recruiter, title="Go <b>lead</b>", description="Requirements: 5+ years of Go."
    ).job
    return plain, job


def names(response) -> list[str]:
    return [shortlist.name for shortlist in response.context["cl"].result_list]


def kinds(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r'<td class="field-kind">(.*?)</td>', html)]


def test_each_row_says_whether_it_is_a_shortlist_or_a_jobs_pipeline(recruiter_client, both):
    html = recruiter_client.get(CHANGELIST + "?o=1").content.decode()

    assert kinds(html) == ["Shortlist", "Pipeline of Go &lt;b&gt;lead&lt;/b&gt;"]
    assert "<b>lead</b>" not in html


def test_the_list_filters_by_kind(recruiter_client, both):
    _plain, job = both

    only_shortlists = recruiter_client.get(CHANGELIST, {"kind": "shortlist"})
    only_pipelines = recruiter_client.get(CHANGELIST, {"kind": "pipeline"})

    assert names(only_shortlists) == ["Backend Berlin"]
    assert names(only_pipelines) == [job.pipeline.name]
    html = recruiter_client.get(CHANGELIST).content.decode()
    assert "?kind=shortlist" in html
    assert "?kind=pipeline" in html


def test_the_desks_shortlist_total_opens_only_the_shortlists(recruiter_client, both):
    html = recruiter_client.get(reverse("admin:index")).content.decode()

    totals = html.split('id="dashboard-totals"')[1].split("</ul>")[0]
    assert f'href="{CHANGELIST}?kind=shortlist"' in totals
    assert names(recruiter_client.get(CHANGELIST, {"kind": "shortlist"})) == ["Backend Berlin"]


def test_the_headers_are_short(recruiter_client, both):
    html = recruiter_client.get(CHANGELIST).content.decode()

    headers = [
        re.sub(r"<[^>]+>", "", th).strip()
        for th in re.findall(r'<th scope="col" class="[^"]*column-[^"]*">(.*?)</th>', html, re.S)
    ]
    assert [" ".join(h.split()) for h in headers] == ["Name", "Kind", "Owner", "Shared", "Candidates", "Created"]


def test_the_breadcrumbs_name_the_sidebars_section(recruiter_client, both):
    plain, job = both

    listing = recruiter_client.get(CHANGELIST).content.decode()
    page = recruiter_client.get(reverse("admin:profiles_shortlist_change", args=[plain.pk])).content.decode()
    pipeline = recruiter_client.get(reverse("admin:profiles_shortlist_change", args=[job.pipeline_id])).content.decode()

    assert breadcrumbs(listing) == "Home › Shortlists"
    assert breadcrumbs(page) == "Home › Shortlists › Backend Berlin"
    assert breadcrumbs(pipeline) == "Home › Jobs › Go &lt;b&gt;lead&lt;/b&gt; › Pipeline notes and CSV"


def test_the_owner_picker_has_no_links_to_edit_add_or_view_a_user(admin_client, admin_user):
    shortlist = Shortlist.objects.create(owner=admin_user, name="Mine")

    for url in [
        reverse("admin:profiles_shortlist_change", args=[shortlist.pk]),
        reverse("admin:profiles_shortlist_add"),
        reverse("admin:profiles_savedsearch_add"),
    ]:
        html = admin_client.get(url).content.decode()
        assert 'name="owner"' in html, url
        assert "related-widget-wrapper-link" not in html, url


def test_the_saved_searches_and_entries_are_named_without_the_apps_name(recruiter_client, both, recruiter):
    saved = SavedSearch.objects.create(owner=recruiter, name="Go people", query="skill=go")

    assert breadcrumbs(recruiter_client.get(reverse("admin:profiles_savedsearch_changelist")).content.decode()) == (
        "Home › Saved searches"
    )
    page = recruiter_client.get(reverse("admin:profiles_savedsearch_change", args=[saved.pk])).content.decode()
    assert breadcrumbs(page) == "Home › Saved searches › Go people"
    adding = recruiter_client.get(reverse("admin:profiles_savedsearch_add")).content.decode()
    assert breadcrumbs(adding) == "Home › Saved searches › Add saved search"
    entries = recruiter_client.get(reverse("admin:profiles_shortlistentry_changelist")).content.decode()
    assert breadcrumbs(entries) == "Home › Shortlist entries"
