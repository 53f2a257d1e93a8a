"""The candidate's profile page (issue 17): the default page reads like the source profile, with "Edit" as a button
to the change form; every value escaped; a fixed number of queries."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from devtools.cvs import cv_plain_text, sample_cv
from ingestion.models import SourceFile
from jobs import services as job_services
from profiles import services
from profiles.admin.profile_page import duration
from profiles.models import CandidateIdentifier, CandidateSkill, Repository, Skill
from tests.admin.forms import form_data
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ContributionFactory,
    EducationFactory,
    ImportBatchFactory,
    PositionFactory,
    RepositoryFactory,
    SkillFactory,
    SourceFileFactory,
    SpokenLanguageFactory,
    UserFactory,
)
from tests.fixtures import PROJECT_ROOT
from tests.ingestion.imports import import_file

pytestmark = pytest.mark.django_db


def profile_url(candidate) -> str:
    return reverse("admin:profiles_candidate_change", args=[candidate.pk])


def edit_url(candidate) -> str:
    return reverse("admin:profiles_candidate_edit", args=[candidate.pk])


def text_of(html: str, element_id: str) -> str:
    """The text of the element with this id, tags removed and spaces collapsed (enough for these pages)."""
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</section>', html, re.S)
    assert match, f"no #{element_id} on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


@pytest.fixture
def noor():
    """A fictional profile with every part a profile page shows."""
    candidate = CandidateFactory(
        name="Noor Haddad",
        headline="Backend engineer who keeps payments up",
        title="Staff Engineer",
        company="Quillpoint",
        city="Lyon",
        region="Auvergne-Rhône-Alpes",
        country="France",
        country_code="FR",
        badges=["Top 1% Python"],
        summary="Builds payment systems.\n\nMentors new engineers.",
        website="https://noor.example.org",
        years_coding=12,
        years_employed=10,
    )
    CandidateIdentifier.objects.create(candidate=candidate, kind="github", value="noorh")
    CandidateIdentifier.objects.create(candidate=candidate, kind="linkedin", value="noor-haddad")
    python = SkillFactory(slug="python", name="Python", kind=Skill.Kind.LANGUAGE)
    CandidateSkillFactory(candidate=candidate, skill=python, score=9, label="Python 3", section="language")
    CandidateSkillFactory(
        candidate=candidate, skill=SkillFactory(slug="django", name="Django"), score=7, label="django"
    )
    CandidateSkillFactory(
        candidate=candidate,
        skill=SkillFactory(slug="payments", name="Payments", kind=Skill.Kind.TOPIC),
        score=4,
        label="payments",
    )
    PositionFactory(
        candidate=candidate,
        company="Lanternfish",
        title="Engineer",
        start=dt.date(2015, 1, 1),
        end=dt.date(2018, 6, 1),
        highlights=["Shipped the ledger"],
    )
    PositionFactory(candidate=candidate, company="Quillpoint", title="Staff Engineer", start=dt.date(2018, 7, 1))
    repository = RepositoryFactory(full_name="quill/ledger", topics=["payments", "postgresql"])
    ContributionFactory(
        candidate=candidate,
        repository=repository,
        role="Maintainer",
        commits=340,
        comments=12,
        start=dt.date(2019, 2, 1),
        is_current=True,
        summary="Wrote the settlement engine.",
    )
    EducationFactory(candidate=candidate, school="INSA Lyon", start=dt.date(2009, 9, 1), end=dt.date(2014, 6, 1))
    SpokenLanguageFactory(candidate=candidate, code="fr", name="French", fluency="native", raw="Français (natif)")
    batch = ImportBatchFactory()
    SourceFileFactory(
        batch=batch,
        candidate=candidate,
        original_name="noor-haddad.json",
        status=SourceFile.Status.IMPORTED,
        warnings=["work[2]: the dates are stored the other way round"],
    )
    return candidate


def test_the_candidate_page_reads_like_a_profile(admin_client, noor):
    html = admin_client.get(profile_url(noor)).content.decode()

    assert '<h1 id="profile-name">Noor Haddad</h1>' in html
    assert "Backend engineer who keeps payments up" in html
    assert re.search(r"Lyon, Auvergne-Rhône-Alpes, France\s*<span class=\"chip chip-country\">FR</span>", html)
    assert "Top 1% Python" in html
    assert 'href="https://github.com/noorh"' in html
    assert 'href="https://www.linkedin.com/in/noor-haddad"' in html
    assert 'href="https://noor.example.org"' in html
    assert text_of(html, "profile-summary") == "Summary Builds payment systems. Mentors new engineers."
    assert 'name="name"' not in html, "the profile is not the change form"


def test_skills_are_bars_by_section_with_the_label_as_written_on_hover_and_topics_apart(admin_client, noor):
    ContributionFactory(candidate=noor, repository=RepositoryFactory(full_name="quill/cards", topics=["payments"]))

    html = admin_client.get(profile_url(noor)).content.decode()

    groups = re.findall(r'<section class="profile-section profile-skills"[^>]*>\s*<h2>([^<]+)</h2>', html)
    assert groups == ["Skills", "Programming languages"]
    assert text_of(html, "profile-topics") == "Topics Of the repositories contributed to. payments 2 postgresql"
    assert re.search(r'title="Python 3">\s*<span class="skill-name">Python</span>', html)
    assert 'aria-valuenow="9"' in html
    assert 'class="bar-fill score-9"' in html


def test_experience_is_a_timeline_newest_first_with_lengths(admin_client, noor):
    html = admin_client.get(profile_url(noor)).content.decode()

    experience = text_of(html, "profile-experience")
    assert experience.index("Staff Engineer at Quillpoint") < experience.index("Engineer at Lanternfish")
    assert "Jul 2018 – present" in experience
    assert "Jan 2015 – Jun 2018 · 3 yrs 6 mos" in experience
    assert "Shipped the ledger" in experience


def test_contributions_education_languages_sources_and_shortlists(admin_client, noor, admin_user):
    shortlist, _ = services.shortlist_get_or_create(owner=admin_user, name="Payments hires")
    services.shortlist_add_candidates(shortlist=shortlist, candidate_ids=[noor.pk], user=admin_user)
    job = job_services.job_create(user=admin_user, title="Ledger lead", description="Python, PostgreSQL").job
    job_services.pipeline_add(job=job, candidate=noor, user=admin_user, stage="contacted")

    html = admin_client.get(profile_url(noor)).content.decode()

    contributions = text_of(html, "profile-contributions")
    assert "quill/ledger Maintainer" in contributions
    assert "340 commits, 12 comments · Feb 2019 – present" in contributions
    assert "payments postgresql" in contributions
    assert "Wrote the settlement engine." in contributions
    assert "INSA Lyon" in text_of(html, "profile-education")
    assert "Sep 2009 – Jun 2014" in text_of(html, "profile-education")
    assert "French — Native" in text_of(html, "profile-languages")
    sources = text_of(html, "profile-sources")
    assert "noor-haddad.json" in sources
    assert "imported" in sources
    assert "the dates are stored the other way round" in sources
    work = text_of(html, "profile-work")
    assert "Payments hires Sourced" in work
    assert "Job: Ledger lead Contacted" in work
    assert reverse("admin:jobs_job_change", args=[job.pk]) in html
    assert reverse("admin:profiles_candidate_history", args=[noor.pk]) in html


def test_a_json_resume_projects_counts_and_awards_are_on_the_profile(admin_client):
    """Counts in a project's highlights ("88 commits, 15 comments") showed as "0 commits"; awards were dropped."""
    sofia = import_file(PROJECT_ROOT / "samples" / "sofia-lindqvist.json")

    html = admin_client.get(profile_url(sofia)).content.decode()

    contributions = text_of(html, "profile-contributions")
    assert "88 commits, 15 comments · Apr 2022 – present" in contributions
    assert "41 commits · Sep 2017 – Jun 2020" in contributions
    assert text_of(html, "profile-awards") == "Awards Rockstar (Prog.AI)"


def test_an_award_is_escaped(admin_client):
    candidate = CandidateFactory(awards=["<i>Best</i> (ACM, 2019-06): for <b>work</b>"])

    html = admin_client.get(profile_url(candidate)).content.decode()

    assert "<i>Best</i>" not in html
    assert "&lt;i&gt;Best&lt;/i&gt; (ACM, 2019-06): for &lt;b&gt;work&lt;/b&gt;" in html


def test_a_reader_sees_only_the_shortlists_they_may_open(client, noor, recruiter):
    other = UserFactory(username="olga", is_staff=True)
    private, _ = services.shortlist_get_or_create(owner=other, name="Olga's secret list")
    services.shortlist_add_candidates(shortlist=private, candidate_ids=[noor.pk], user=other)
    client.force_login(recruiter)

    html = client.get(profile_url(noor)).content.decode()

    assert "Olga&#x27;s secret list" not in html
    assert "secret list" not in html
    assert "In none of the shortlists or jobs you can see." in text_of(html, "profile-work")


def test_edit_is_a_button_for_who_may_change(recruiter_client, noor):
    page = recruiter_client.get(profile_url(noor)).content.decode()

    assert f'id="profile-edit" href="{edit_url(noor)}"' in page


def test_a_viewer_reads_the_profile_without_an_edit_button(viewer_client, noor):
    page = viewer_client.get(profile_url(noor)).content.decode()

    assert "Noor Haddad" in page
    assert "profile-edit" not in page
    assert viewer_client.get(edit_url(noor)).status_code == 200  # the read-only form, as before


def test_the_change_form_is_at_edit_and_saves_there(recruiter_client, noor):
    data = form_data(recruiter_client.get(edit_url(noor)).content.decode(), "candidate_form")

    response = recruiter_client.post(edit_url(noor), {**data, "headline": "Payments, end to end", "_continue": "1"})

    assert response.status_code == 302
    assert response["Location"].startswith(edit_url(noor))
    noor.refresh_from_db()
    assert noor.headline == "Payments, end to end"
    assert "headline" in noor.protected_fields


def test_a_form_posted_to_the_profile_address_still_saves(recruiter_client, noor):
    data = form_data(recruiter_client.get(edit_url(noor)).content.decode(), "candidate_form")

    response = recruiter_client.post(profile_url(noor), {**data, "title": "Principal Engineer"})

    assert response.status_code == 302
    noor.refresh_from_db()
    assert noor.title == "Principal Engineer"


def test_everything_from_a_file_is_escaped_and_only_web_addresses_are_links(admin_client):
    hostile = CandidateFactory(
        name="<script>alert(1)</script>",
        summary="<img src=x onerror=alert(2)>",
        website="javascript:alert(3)",
        badges=["<b>bold</b>"],
    )
    CandidateIdentifier.objects.create(candidate=hostile, kind="url", value="javascript:alert(4)")

    html = admin_client.get(profile_url(hostile)).content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html
    assert "<b>bold</b>" not in html
    assert "javascript:" not in html


def test_a_site_stored_as_a_key_without_its_scheme_is_linked_over_https(admin_client):
    tove = CandidateFactory(name="Tove Lindqvist", website="")
    CandidateIdentifier.objects.create(candidate=tove, kind="url", value="fosstodon.example/@tove")

    html = admin_client.get(profile_url(tove)).content.decode()

    assert 'href="https://fosstodon.example/@tove"' in html


def test_the_page_needs_permission_and_a_real_candidate(client, noor):
    assert client.get(profile_url(noor)).status_code == 302  # to the login page
    client.force_login(UserFactory(username="nobody", is_staff=True))
    assert client.get(profile_url(noor)).status_code == 403
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.get(reverse("admin:profiles_candidate_change", args=[noor.pk + 1000])).status_code == 404


# The session, the user, the candidate and its rows, the shortlists, the source files and their batches. "Similar
# candidates" (jobs' panel) is a placeholder the page fills in afterwards: no query here (SIMILAR_QUERIES below).
PROFILE_QUERIES = 12
# The panel's content at its most: the session and user, the candidate, its scores, their skills' slugs, its topics,
# the topics resolved, the ranking's skills resolved (once: the ranking and the explanation share them); then the page
# twice (those with all of its strongest skills, too few here, then everyone with any of them); and the page's
# explanation (the contributions) with its skills' display names.
SIMILAR_QUERIES = 12


def similar_url(candidate) -> str:
    return reverse("admin:jobs_job_similar", args=[candidate.pk])


def test_the_profile_runs_a_fixed_number_of_queries(admin_client, noor, django_assert_num_queries):
    # The panel at its most: the candidate's work has topics that are skills, and there are peers to explain.
    Repository.objects.filter(full_name="quill/ledger").update(topic_slugs=["python", "payments"])
    peer(noor, "Pia Peer")
    with django_assert_num_queries(PROFILE_QUERIES):
        admin_client.get(profile_url(noor))
    for n in range(5):
        PositionFactory(
            candidate=noor, company=f"Extra {n}", start=dt.date(2010 + n, 1, 1), end=dt.date(2011 + n, 1, 1)
        )
        ContributionFactory(candidate=noor, repository=RepositoryFactory(full_name=f"quill/extra{n}"))
        CandidateSkillFactory(candidate=noor, skill=SkillFactory(slug=f"extra-{n}"), score=n)
        SourceFileFactory(candidate=noor, status=SourceFile.Status.IMPORTED)
        peer(noor, f"Peer {n}", repository=f"peer/work{n}")
    with django_assert_num_queries(PROFILE_QUERIES):
        assert admin_client.get(profile_url(noor)).status_code == 200
    # The skills made above changed the vocabulary the resolver caches per process: one panel reads it first.
    admin_client.get(similar_url(noor))
    with django_assert_num_queries(SIMILAR_QUERIES):
        assert admin_client.get(similar_url(noor)).status_code == 200


def peer(candidate, name, *, repository=None, scores=None):
    """Another candidate with the same strong skills as ``candidate`` (python 9, django 7 in ``noor``)."""
    other = CandidateFactory(name=name, title="Engineer", company="Elsewhere")
    for slug, score in (scores or {"python": 9, "django": 7}).items():
        CandidateSkillFactory(candidate=other, skill=SkillFactory(slug=slug), score=score)
    if repository:
        ContributionFactory(
            candidate=other, repository=RepositoryFactory(full_name=repository, topic_slugs=["python"]), commits=50
        )
    return other


def test_similar_candidates_are_a_panel_the_profile_fills_in_after_it_loads(admin_client, noor):
    close = peer(noor, "Pia Peer")
    peer(noor, "Far Away", scores={"cobol": 9})

    page = admin_client.get(profile_url(noor)).content.decode()
    html = admin_client.get(similar_url(noor)).content.decode()

    assert f'data-panel-url="{similar_url(noor)}"' in page
    assert '<div class="profile-panels">' in page
    assert "Pia Peer" not in page  # not ranked while the profile waits
    similar = text_of(html, "profile-similar")
    assert similar.startswith("Similar candidates Ranked as a job's matches")  # it says how it is ordered
    assert "Pia Peer" in similar
    assert "%" in similar
    assert "Python 9" in similar  # display names
    assert "Far Away" not in similar
    # the candidate is not like themself: named in the line that says how the panel is ordered, never as a row
    assert reverse("admin:profiles_candidate_change", args=[noor.pk]) not in html
    assert reverse("admin:profiles_candidate_change", args=[close.pk]) in html


def test_the_similar_candidates_need_the_candidate_view_permission(client, noor):
    client.force_login(UserFactory(username="nobody2", is_staff=True))

    assert client.get(similar_url(noor)).status_code == 403


def test_a_similar_candidates_text_is_escaped(admin_client, noor):
    peer(noor, "<script>alert(5)</script>")

    html = admin_client.get(similar_url(noor)).content.decode()

    assert "<script>alert(5)</script>" not in html
    assert "&lt;script&gt;alert(5)&lt;/script&gt;" in text_of(html, "profile-similar")


def test_the_site_shows_each_registered_panel_that_has_something_escaped_if_plain(admin_client, noor):
    from django.contrib import admin
    from django.utils.html import format_html

    registered = admin.site.candidate_panels
    saved = list(registered)
    registered[:] = [
        lambda request, candidate: format_html("<section id='panel-a'>{}</section>", candidate.name),
        lambda request, candidate: None,  # nothing to show: no trace on the page
        lambda request, candidate: "<b>plain text</b>",  # not marked safe: the template escapes it
    ]
    try:
        html = admin_client.get(profile_url(noor)).content.decode()
    finally:
        registered[:] = saved  # the site is the process's; the jobs panel goes back for the other tests

    assert "<section id='panel-a'>Noor Haddad</section>" in html
    assert "&lt;b&gt;plain text&lt;/b&gt;" in html
    assert "profile-similar" not in html


def test_duration_counts_both_months():
    assert duration(dt.date(2020, 1, 1), dt.date(2020, 1, 1)) == "1 mo"
    assert duration(dt.date(2020, 1, 1), dt.date(2021, 12, 1)) == "2 yrs"
    assert duration(dt.date(2020, 3, 1), None, today=dt.date(2021, 4, 15)) == "1 yr 2 mos"
    assert duration(None, dt.date(2020, 1, 1)) == ""
    assert duration(dt.date(2021, 1, 1), dt.date(2020, 1, 1)) == ""


def test_skill_rows_are_kept_in_the_section_the_file_named(admin_client, noor):
    # A language listed among the skills stays there: the section is what the file said.
    CandidateSkill.objects.filter(candidate=noor, skill__slug="python").update(section="skill")

    html = admin_client.get(profile_url(noor)).content.decode()

    groups = re.findall(r'<section class="profile-section profile-skills"[^>]*>\s*<h2>([^<]+)</h2>', html)
    assert groups == ["Skills"]


def test_the_role_line_is_left_out_when_the_headline_says_it(admin_client):
    same = CandidateFactory(headline="Staff Engineer at Quillpoint", title="Staff Engineer", company="Quillpoint")
    other = CandidateFactory(headline="Payments person", title="Staff Engineer", company="Quillpoint")

    assert 'class="profile-role"' not in admin_client.get(profile_url(same)).content.decode()
    assert (
        '<p class="profile-role">Staff Engineer at Quillpoint</p>'
        in admin_client.get(profile_url(other)).content.decode()
    )


def test_a_job_without_dates_says_so_in_words(admin_client):
    candidate = CandidateFactory()
    PositionFactory(candidate=candidate, company="Nowhere Ltd", start=None)
    PositionFactory(candidate=candidate, company="Elsewhere", start=None, end=dt.date(2019, 5, 1), is_current=False)

    experience = text_of(admin_client.get(profile_url(candidate)).content.decode(), "profile-experience")

    assert "Current" in experience
    assert "Until May 2019" in experience
    assert "?" not in experience


def test_a_cv_s_year_only_education_shows_its_years_not_a_month(admin_client, tmp_path):
    path = tmp_path / "maelis.txt"
    path.write_text(cv_plain_text(sample_cv()), encoding="utf-8")
    candidate = import_file(path)

    education = text_of(admin_client.get(profile_url(candidate)).content.decode(), "profile-education")

    assert "2009 – 2011" in education
    assert "Jan" not in education
