"""The admin site (issue 17): TalentDB's name, and the index in a recruiter's order."""

import re

import pytest
from django.contrib import admin
from django.urls import reverse

from talentdb.admin_site import TalentDBAdminSite

pytestmark = pytest.mark.django_db


def headings(html: str) -> list[str]:
    """The index's section headings, in order (the app list's captions)."""
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<caption>\s*(.*?)\s*</caption>", html, re.S)]


def test_every_page_is_named_talentdb(admin_client):
    html = admin_client.get(reverse("admin:index")).content.decode()

    assert isinstance(admin.site, TalentDBAdminSite)
    assert "<title>Recruiting desk | TalentDB</title>" in html
    assert re.search(r'<div id="site-name"><a href="/admin/">TalentDB</a></div>', html)
    assert "Django administration" not in html
    assert "Django site admin" not in html


def test_the_index_puts_the_daily_work_first_and_the_site_admin_last(admin_client):
    found = headings(admin_client.get(reverse("admin:index")).content.decode())

    assert found[:5] == ["Candidates", "Jobs", "Shortlists", "Imports", "Exports"]
    assert found[-3:] == ["Authentication and Authorization", "Auth Token", "Axes"]


def test_each_section_holds_its_models_in_order(admin_client):
    html = admin_client.get(reverse("admin:index")).content.decode()
    sections = {
        re.sub(r"<[^>]+>", "", caption).strip(): re.findall(r'<th scope="row" id="[^"]+">\s*<a [^>]*>([^<]+)</a>', body)
        for caption, body in re.findall(r"<caption>(.*?)</caption>(.*?)</table>", html, re.S)
    }

    assert sections["Candidates"][0] == "Candidates"
    assert sections["Shortlists"] == ["Shortlists", "Saved searches", "Shortlist entries"]
    assert "Shortlists" not in sections["Candidates"]
    assert sections["Imports"] == ["Import batches", "Source files"]


def test_a_recruiter_sees_only_the_sections_they_may_use(client, django_user_model):
    from django.contrib.auth.models import Group  # the Recruiter group comes from a data migration

    user = django_user_model.objects.create_user("rosa", password="x", is_staff=True)
    user.groups.add(Group.objects.get(name="Recruiter"))
    client.force_login(user)

    found = headings(client.get(reverse("admin:index")).content.decode())

    assert found[0] == "Candidates"
    assert "Axes" not in found
    assert "Authentication and Authorization" not in found


def test_an_app_index_page_keeps_its_own_list(admin_client):
    html = admin_client.get(reverse("admin:app_list", args=["profiles"])).content.decode()

    assert "Shortlists" in html
    assert "Import batches" not in html
