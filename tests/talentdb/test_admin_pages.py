import pytest
from django.contrib import admin
from django.urls import reverse

from tests.factories import CandidateFactory, CandidateSkillFactory, ContributionFactory, EducationFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", list(admin.site._registry), ids=lambda m: m._meta.label)
def test_every_registered_model_lists_and_adds_for_a_staff_superuser(admin_client, model):
    opts = model._meta
    changelist = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert changelist.status_code == 200
    assert changelist.context["cl"].model is model
    if admin.site._registry[model].has_add_permission(changelist.wsgi_request):
        add = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
        assert add.status_code == 200
        assert "adminform" in add.context


def test_a_candidate_change_form_shows_its_skills_education_and_contributions(admin_client):
    candidate = CandidateFactory(name="Ada Quill")
    CandidateSkillFactory(candidate=candidate, label="python", score=9)
    EducationFactory(candidate=candidate, school="Imperial College London")
    ContributionFactory(candidate=candidate, repository__full_name="quill/ink")
    response = admin_client.get(reverse("admin:profiles_candidate_change", args=[candidate.pk]))
    html = response.content.decode()
    assert "Ada Quill" in html
    assert "Imperial College London" in html
    assert "quill/ink" in html


def test_anonymous_visitors_are_sent_to_the_login_page(client):
    response = client.get(reverse("admin:profiles_candidate_changelist"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
