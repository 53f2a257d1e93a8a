"""The admin index: totals, the last day's imports, failed files, and SVG charts with escaped labels."""

import pytest
from django.urls import reverse

from ingestion import services
from tests.factories import CandidateFactory, CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db
INDEX = reverse("admin:index")


@pytest.fixture
def data():
    python = SkillFactory(slug="python", name="Python")
    evil = SkillFactory(slug="evil", name="<script>alert('x')</script>")
    for country in ["DE", "DE", "FR"]:
        candidate = CandidateFactory(country_code=country)
        CandidateSkillFactory(candidate=candidate, skill=python, score=8)
    CandidateSkillFactory(skill=evil, score=1, candidate=CandidateFactory(country_code="DE"))
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=[services.IncomingFile("broken.txt", b"\x00\x01")], enqueue=False)
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token="t")


def test_the_index_shows_totals_imports_and_failed_files(recruiter_client, data):
    html = recruiter_client.get(INDEX).content.decode()

    assert 'id="dashboard"' in html
    assert "4 candidates" in html
    assert "1 batch" in html
    assert "1 failed" in html
    assert "Failed files that need a look (1)" in html
    assert "broken.txt" in html


def test_the_charts_are_svg_with_bars_proportional_to_the_counts_and_escaped_labels(recruiter_client, data):
    html = recruiter_client.get(INDEX).content.decode()
    skills = html[html.index('id="chart-skills"') : html.index('id="chart-countries"')]
    countries = html[html.index('id="chart-countries"') :]

    assert "<svg" in skills
    assert ">Python</text>" in skills
    assert 'width="300"' in skills  # the most common skill has the longest bar
    assert "&lt;script&gt;" in skills
    assert "<script>alert" not in html
    assert ">DE</text>" in countries
    assert ">3</text>" in countries


def test_users_without_candidate_access_see_no_dashboard(client, django_user_model, data):
    staff = django_user_model.objects.create_user("nobody", password="x", is_staff=True)
    client.force_login(staff)

    assert 'id="dashboard"' not in client.get(INDEX).content.decode()
