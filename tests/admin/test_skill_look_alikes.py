"""The skills' "Look-alike skills" page: the pairs of skills that look like one technology, and the merge of the pairs a
curator ticks, into the skill with more candidates (or the vocabulary's)."""

import pytest
from django.urls import reverse

from profiles.models import CandidateSkill, Skill, SkillAlias
from tests.factories import CandidateSkillFactory, SkillFactory

pytestmark = pytest.mark.django_db
PAGE = "admin:profiles_skill_look_alikes"


def skill_with(slug: str, *scores: int) -> Skill:
    skill = SkillFactory(slug=slug)
    for score in scores:
        CandidateSkillFactory(skill=skill, score=score)
    return skill


@pytest.fixture
def frob():
    """frob (three candidates) and its look-alike frobjs (one candidate, who has frob too)."""
    frob, frobjs = skill_with("frob", 6, 7, 8), skill_with("frobjs", 9)
    both = CandidateSkill.objects.filter(skill=frob).first().candidate
    CandidateSkillFactory(candidate=both, skill=frobjs, score=4)
    return frob, frobjs


def pair(source: Skill, target: Skill) -> str:
    return f"{source.pk}-{target.pk}"


def test_the_skills_changelist_links_to_the_page(recruiter_client):
    html = recruiter_client.get(reverse("admin:profiles_skill_changelist")).content.decode()

    assert reverse(PAGE) in html


def test_the_page_lists_each_pair_with_its_candidates_and_the_skill_it_would_become(recruiter_client, frob):
    target, source = frob

    html = recruiter_client.get(reverse(PAGE)).content.decode()

    row = html.split(f'value="{pair(source, target)}"', 1)[1].split("</tr>", 1)[0]
    assert ">frobjs</a>" in row
    assert ">frob</a>" in row
    assert "<td>2</td>" in row  # frobjs: its own candidate and the one who has both
    assert "<td>3</td>" in row


def test_merging_a_pair_moves_its_candidates_and_makes_its_slug_an_alias(recruiter_client, frob):
    target, source = frob

    response = recruiter_client.post(reverse(PAGE), {"pair": [pair(source, target)]}, follow=True)

    assert "Merged frobjs into frob" in response.content.decode()
    assert not Skill.objects.filter(pk=source.pk).exists()
    assert SkillAlias.objects.get(label="frobjs").skill == target
    scores = sorted(CandidateSkill.objects.filter(skill=target).values_list("score", flat=True))
    assert scores == [6, 7, 8, 9]  # the one with both keeps the higher score
    assert CandidateSkill.objects.filter(skill=target).values("candidate").distinct().count() == 4


def test_the_ticked_pairs_are_merged_in_one_go(recruiter_client, frob):
    target, source = frob
    quux_ci, quux = skill_with("quux-ci", 5, 5), skill_with("quux", 3)

    recruiter_client.post(reverse(PAGE), {"pair": [pair(source, target), pair(quux, quux_ci)]})

    assert not Skill.objects.filter(pk__in=[source.pk, quux.pk]).exists()
    assert CandidateSkill.objects.filter(skill=quux_ci).count() == 3


def test_a_pair_the_page_would_not_list_merges_nothing(recruiter_client, frob):
    target, _ = frob
    other = skill_with("zebulon", 5)

    response = recruiter_client.post(reverse(PAGE), {"pair": [pair(other, target)]}, follow=True)

    assert "Tick the pairs to merge" in response.content.decode()
    assert Skill.objects.filter(pk=other.pk).exists()


def test_a_viewer_reads_the_pairs_but_may_not_merge_them(viewer_client, frob):
    target, source = frob

    page = viewer_client.get(reverse(PAGE))
    response = viewer_client.post(reverse(PAGE), {"pair": [pair(source, target)]})

    assert page.status_code == 200
    assert ">frobjs</a>" in page.content.decode()
    assert 'name="pair"' not in page.content.decode()
    assert response.status_code == 403
    assert Skill.objects.filter(pk=source.pk).exists()


def test_a_user_who_may_not_view_skills_may_not_open_the_page(client, django_user_model, frob):
    client.force_login(django_user_model.objects.create_user("nadia", password="x", is_staff=True))

    assert client.get(reverse(PAGE)).status_code == 403


def test_names_written_in_files_are_escaped(recruiter_client):
    SkillFactory(slug="blink", name="<script>alert(1)</script>")
    skill_with("blinkjs", 1)

    html = recruiter_client.get(reverse(PAGE)).content.decode()

    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
