"""Nothing on the candidate pages that misleads or endangers: no link beside a candidate's skill or repository that
edits or deletes the skill or repository itself for everyone, and no administration sections in a recruiter's or a
viewer's navigation."""

import re

import pytest
from django.urls import reverse

from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, SkillFactory

pytestmark = pytest.mark.django_db

RELATED_LINK = re.compile(r'class="related-widget-wrapper-link[^"]*"')


@pytest.fixture
def ada():
    candidate = CandidateFactory(name="Ada Quill")
    CandidateSkillFactory(candidate=candidate, skill=SkillFactory(slug="python", name="Python"), score=7)
    ContributionFactory(candidate=candidate)
    return candidate


@pytest.mark.parametrize("who", ["admin_client", "recruiter_client"])
def test_the_edit_form_has_no_link_that_changes_or_deletes_a_skill_for_everyone(request, who, ada):
    client = request.getfixturevalue(who)

    html = client.get(reverse("admin:profiles_candidate_edit", args=[ada.pk])).content.decode()

    assert 'name="skills-0-skill"' in html  # the skill's own input stays
    assert RELATED_LINK.findall(html) == []
    assert "delete-related" not in html
    assert "change-related" not in html
    assert "add-related" not in html


@pytest.mark.parametrize("who", ["recruiter_client", "viewer_client"])
def test_recruiters_and_viewers_see_no_administration_sections(request, who):
    client = request.getfixturevalue(who)

    for url in [reverse("admin:index"), reverse("admin:profiles_candidate_changelist")]:
        html = client.get(url).content.decode()

        for section in ["/admin/axes/", "/admin/authtoken/", "/admin/auth/"]:
            assert section not in html
        for name in ["Access attempts", "Tokens", "Groups"]:
            assert name not in html


def test_an_administrator_still_finds_them(admin_client):
    html = admin_client.get(reverse("admin:index")).content.decode()

    assert "/admin/auth/group/" in html
    assert "/admin/axes/" in html


def test_a_shortlist_has_no_link_that_changes_or_deletes_a_candidate(recruiter_client, recruiter, ada):
    from profiles.models import Shortlist, ShortlistEntry

    shortlist = Shortlist.objects.create(owner=recruiter, name="Backend")
    ShortlistEntry.objects.create(shortlist=shortlist, candidate=ada)

    html = recruiter_client.get(reverse("admin:profiles_shortlist_change", args=[shortlist.pk])).content.decode()

    assert "Ada Quill" in html
    assert RELATED_LINK.findall(html) == []


def test_a_skill_row_says_in_words_whether_its_score_was_edited_by_hand(admin_client, ada):
    html = admin_client.get(reverse("admin:profiles_candidate_edit", args=[ada.pk])).content.decode()
    row = html[html.index('name="skills-0-skill"') :]
    row = row[: row.index("</tr>")]

    assert "icon-no.svg" not in row
    assert "—" in row
