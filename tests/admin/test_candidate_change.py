"""The candidate change form: a profile to read, inlines with plain-word validation, protected fields, history."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from profiles.models import Candidate, CandidateSkill
from profiles.selectors import candidate_search
from tests.admin.forms import form_data
from tests.factories import (
    CandidateFactory,
    CandidateSkillFactory,
    ImportBatchFactory,
    SkillFactory,
    SourceFileFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def edit_url(candidate) -> str:
    return reverse("admin:profiles_candidate_edit", args=[candidate.pk])


@pytest.fixture
def ada():
    candidate = CandidateFactory(name="Ada Quill", title="Engineer", company="Lumen Labs")
    CandidateSkillFactory(
        candidate=candidate, skill=SkillFactory(slug="python", name="Python"), score=7, label="python"
    )
    return candidate


def post_form(client, candidate, **changes):
    data = form_data(client.get(edit_url(candidate)).content.decode(), "candidate_form")
    data.update(changes)
    return client.post(edit_url(candidate), data)


def skill_row(client, candidate, slug: str) -> str:
    """The inline prefix (skills-N) of a skill, read from the form."""
    data = form_data(client.get(edit_url(candidate)).content.decode(), "candidate_form")
    skill_id = str(SkillFactory(slug=slug).pk)
    return next(key[: -len("-skill")] for key, value in data.items() if key.endswith("-skill") and value == skill_id)


def test_the_change_form_reads_like_a_profile(recruiter_client, ada):
    html = recruiter_client.get(edit_url(ada)).content.decode()

    for heading in ["Who", "Where", "Experience", "Contact", "Where this profile came from"]:
        assert f">{heading}<" in html
    assert "Candidate skills" in html
    assert "Contributions" in html
    assert "Education" in html
    assert "No stored file (entered by hand)." in html


def test_a_score_out_of_range_is_refused_in_plain_words(recruiter_client, ada):
    row = skill_row(recruiter_client, ada, "python")

    response = post_form(recruiter_client, ada, **{f"{row}-score": "11"})

    assert response.status_code == 200
    assert "A score is a whole number from 0 (none) to 10 (best)." in response.content.decode()
    assert CandidateSkill.objects.get(candidate=ada).score == 7


def test_an_inline_score_edit_is_saved_and_shown_in_the_history_with_who(recruiter_client, recruiter, ada):
    row = skill_row(recruiter_client, ada, "python")

    response = post_form(recruiter_client, ada, **{f"{row}-score": "9"})

    assert response.status_code == 302
    assert CandidateSkill.objects.get(candidate=ada).score == 9
    history = recruiter_client.get(reverse("admin:profiles_candidate_history", args=[ada.pk])).content.decode()
    words = " ".join(history.split())
    assert "<strong>Python score:</strong> 7 &nbsp;&rarr;&nbsp;&nbsp;9" in words
    assert f">{recruiter.username}</a>" in words


def test_an_inline_score_edit_is_protected_against_imports_and_an_untouched_row_is_not(recruiter_client, ada):
    CandidateSkillFactory(candidate=ada, skill=SkillFactory(slug="go", name="Go"), score=5, label="go")
    row = skill_row(recruiter_client, ada, "python")

    response = post_form(recruiter_client, ada, **{f"{row}-score": "9"})

    assert response.status_code == 302
    assert dict(CandidateSkill.objects.filter(candidate=ada).values_list("skill__slug", "score_by_hand")) == {
        "python": True,
        "go": False,
    }
    html = " ".join(recruiter_client.get(edit_url(ada)).content.decode().split())
    assert "Python score" in html  # listed among what imports leave alone


def test_an_inline_score_edit_changes_what_the_skill_filters_find(recruiter_client, ada):
    row = skill_row(recruiter_client, ada, "python")
    assert list(candidate_search(params={"skill": "python:9"})) == []

    post_form(recruiter_client, ada, **{f"{row}-score": "9"})

    [found] = candidate_search(params={"skill": "python:9"})
    assert (found, found.match) == (ada, 90)
    changelist = recruiter_client.get(reverse("admin:profiles_candidate_changelist"), {"skill": "python:9"})
    assert "Ada Quill" in changelist.content.decode()


def test_the_first_edit_of_an_imported_candidate_keeps_the_imported_state_without_a_user(recruiter_client, ada):
    ada.history.all().delete()  # as after an import: bulk writes leave no history

    post_form(recruiter_client, ada, title="Staff Engineer")

    edit, imported = ada.history.order_by("-history_date")
    assert (imported.history_user, imported.history_change_reason, imported.title) == (None, "Imported", "Engineer")
    assert (edit.history_user.username, edit.title) == ("rita", "Staff Engineer")


def test_an_edited_field_becomes_protected_and_the_form_shows_it(recruiter_client, ada):
    response = post_form(recruiter_client, ada, title="Staff Engineer")

    assert response.status_code == 302
    ada.refresh_from_db()
    assert (ada.title, ada.protected_fields) == ("Staff Engineer", ["title"])
    html = recruiter_client.get(edit_url(ada)).content.decode()
    assert "Edited by hand (protected against imports)" in html
    assert "Protected: edited by hand, imports leave it alone." in html
    assert 'name="release_fields" value="title"' in html


def test_ticking_release_lets_imports_write_the_field_again(recruiter_client, ada):
    post_form(recruiter_client, ada, title="Staff Engineer")

    response = post_form(recruiter_client, ada, release_fields=["title"])

    assert response.status_code == 302
    ada.refresh_from_db()
    assert (ada.title, ada.protected_fields, ada.document_sha256) == ("Staff Engineer", [], "")


def test_the_source_files_are_listed_with_a_link_to_their_escaped_text(recruiter_client, ada):
    source = SourceFileFactory(
        original_name="<script>alert(1)</script>.txt",
        content=b"Name: <b>Ada</b>",
        candidate=ada,
        format="progai",
        status="imported",
    )

    html = recruiter_client.get(edit_url(ada)).content.decode()
    text = recruiter_client.get(reverse("admin:ingestion_sourcefile_text", args=[source.pk])).content.decode()

    assert reverse("admin:ingestion_sourcefile_text", args=[source.pk]) in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;.txt" in html
    assert "<script>alert(1)" not in html
    assert "Name: &lt;b&gt;Ada&lt;/b&gt;" in text


def test_revert_from_the_history_restores_fields_and_skills(recruiter_client, ada):
    post_form(recruiter_client, ada, title="Staff Engineer")
    version = ada.history.order_by("-history_date").first()
    row = skill_row(recruiter_client, ada, "python")
    post_form(recruiter_client, ada, title="Manager", **{f"{row}-score": "2"})
    revert_url = reverse("admin:profiles_candidate_simple_history", args=[ada.pk, version.history_id])

    page = recruiter_client.get(revert_url)
    response = recruiter_client.post(revert_url, form_data(page.content.decode(), "historicalcandidate_form"))

    assert "Skills in this version" in page.content.decode()
    assert response.status_code == 302
    ada.refresh_from_db()
    assert ada.title == "Staff Engineer"
    assert CandidateSkill.objects.get(candidate=ada).score == 7
    assert [c.match for c in candidate_search(params={"skill": "python:7"})] == [70]
    latest = ada.history.order_by("-history_date").first()
    assert latest.history_change_reason.startswith("Reverted to the version of")


def test_a_viewer_sees_the_profile_but_cannot_save_it(viewer_client, ada):
    page = viewer_client.get(edit_url(ada))
    response = viewer_client.post(edit_url(ada), {"name": "Changed"})

    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert response.status_code == 403
    assert Candidate.objects.get(pk=ada.pk).name == "Ada Quill"


def test_a_viewer_cannot_write_through_the_history_revert_form(viewer_client, ada):
    """Issue 15, hole 1: simple-history's revert form saved a Viewer's POST (it only checks view-or-change)."""
    version = ada.history.order_by("-history_date").first()
    revert_url = reverse("admin:profiles_candidate_simple_history", args=[ada.pk, version.history_id])
    records = ada.history.count()

    page = viewer_client.get(revert_url)
    response = viewer_client.post(revert_url, {"name": "X", "_save": "Save"})

    assert page.status_code == 200  # a Viewer may read an old version
    assert 'name="_save"' not in page.content.decode()
    assert response.status_code == 403
    ada.refresh_from_db()
    assert (ada.name, ada.title, ada.company, ada.protected_fields) == ("Ada Quill", "Engineer", "Lumen Labs", [])
    assert ada.history.count() == records


def browser_form(html: str, form_id: str) -> dict:
    """The form as a browser submits it: line breaks in a textarea's value go as CR LF (the HTML standard)."""
    data = form_data(html, form_id)
    return {k: v.replace("\r\n", "\n").replace("\n", "\r\n") if isinstance(v, str) else v for k, v in data.items()}


def test_saving_the_form_as_a_browser_does_protects_only_the_fields_whose_value_changed(recruiter_client, ada):
    """Issue 15, hole 1: an untouched multi-line summary came back with CR LF line breaks and counted as edited."""
    Candidate.objects.filter(pk=ada.pk).update(summary="Line one.\nLine two.", headline="  Builds compilers ")
    data = browser_form(recruiter_client.get(edit_url(ada)).content.decode(), "candidate_form")

    response = recruiter_client.post(edit_url(ada), {**data, "title": "Staff Engineer"})

    assert response.status_code == 302
    ada.refresh_from_db()
    assert ada.protected_fields == ["title"]
    assert (ada.summary, ada.headline) == ("Line one.\nLine two.", "  Builds compilers ")


def test_a_revert_protects_only_the_fields_it_changes(recruiter_client, ada):
    """Issue 15, hole 1: a revert is an edit by hand of the fields it changes, not of every field of the form."""
    Candidate.objects.filter(pk=ada.pk).update(summary="Line one.\nLine two.")
    ada.history.all().delete()  # as after an import
    post_form(recruiter_client, ada, title="Staff Engineer")
    Candidate.objects.filter(pk=ada.pk).update(protected_fields=[])  # released meanwhile, say
    imported = ada.history.order_by("history_date").first()
    revert_url = reverse("admin:profiles_candidate_simple_history", args=[ada.pk, imported.history_id])

    data = browser_form(recruiter_client.get(revert_url).content.decode(), "historicalcandidate_form")
    response = recruiter_client.post(revert_url, data)

    assert response.status_code == 302
    ada.refresh_from_db()
    assert (ada.title, ada.summary) == ("Engineer", "Line one.\nLine two.")
    assert ada.protected_fields == ["title"]


def test_the_page_names_only_the_source_files_of_batches_the_user_may_view(recruiter_client, ada):
    """Issue 15, hole 16: a candidate's page showed other users' upload file names, although their batches are
    private; a file from a batch the user may not view (in the admin: no view permission on import batches) is listed
    without its name or a link to its text."""
    client = Client()
    reader = UserFactory(username="reader", is_staff=True)
    reader.user_permissions.add(Permission.objects.get(codename="view_candidate", content_type__app_label="profiles"))
    theirs = SourceFileFactory(original_name="someone-secret.txt", candidate=ada, batch=ImportBatchFactory())
    client.force_login(reader)

    html = client.get(edit_url(ada)).content.decode()
    recruiters = recruiter_client.get(edit_url(ada)).content.decode()

    assert "someone-secret.txt" not in html
    assert reverse("admin:ingestion_sourcefile_text", args=[theirs.pk]) not in html
    assert "a file from an import you may not view — Unknown, pending, received" in html
    assert "someone-secret.txt" in recruiters  # recruiters view every batch
