"""One exception handler gives every error a view lets out the API's shape: {"error": {"code", "message", "details"}}.

The views here raise what real views and services raise (Django's ValidationError from a selector, Http404, Django's
PermissionDenied, the application's error from a service) and go through DRF's whole dispatch, renderer included.
"""

import json

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from core.errors import ApplicationError
from profiles import services
from profiles.models import Candidate, MergeRecord
from tests.factories import CandidateFactory, UserFactory

pytestmark = pytest.mark.django_db


def call(raise_it, user=None) -> tuple[int, dict]:
    """GET a view whose handler runs ``raise_it()``, as an authenticated user: the status and the JSON body."""

    class View(APIView):
        def get(self, request):
            raise_it()

    request = APIRequestFactory().get("/api/v1/probe/")
    force_authenticate(request, user=user or UserFactory())
    response = View.as_view()(request)
    response.render()
    assert response["Content-Type"] == "application/json"
    return response.status_code, json.loads(response.content)


def test_a_django_validation_error_per_parameter_is_a_400_naming_the_first():
    def selector():
        raise DjangoValidationError({"country": ["'Narnia' is not a country"], "min_commits": ["Enter a number."]})

    status, body = call(selector)

    assert status == 400
    assert body == {
        "error": {
            "code": "invalid",
            "message": "country: 'Narnia' is not a country",
            "details": {"country": ["'Narnia' is not a country"], "min_commits": ["Enter a number."]},
        }
    }


def test_a_django_validation_error_of_the_whole_form_is_a_non_field_error():
    def selector():
        raise DjangoValidationError(
            {"__all__": [DjangoValidationError("Unknown parameter(s): %(names)s.", params={"names": "q"})]}
        )

    status, body = call(selector)

    assert status == 400
    assert body == {
        "error": {
            "code": "invalid",
            "message": "Unknown parameter(s): q.",
            "details": {"non_field_errors": ["Unknown parameter(s): q."]},
        }
    }


def test_a_django_validation_error_without_fields_is_a_non_field_error():
    def service():
        raise DjangoValidationError("Choose one of your shortlists.")

    status, body = call(service)

    assert status == 400
    assert body == {
        "error": {
            "code": "invalid",
            "message": "Choose one of your shortlists.",
            "details": {"non_field_errors": ["Choose one of your shortlists."]},
        }
    }


def test_http404_is_a_not_found_with_its_message():
    def view():
        raise Http404("No candidate with this id.")

    status, body = call(view)

    assert status == 404
    assert body == {"error": {"code": "not_found", "message": "No candidate with this id.", "details": {}}}


def test_django_permission_denied_is_a_403():
    def view():
        raise DjangoPermissionDenied

    status, body = call(view)

    assert status == 403
    assert body == {
        "error": {
            "code": "permission_denied",
            "message": "You do not have permission to perform this action.",
            "details": {},
        }
    }


def test_an_application_error_is_a_400_with_its_code_message_and_details():
    def service():
        raise ApplicationError("Too many files in one batch.", code="too_many_files", details={"limit": 500})

    status, body = call(service)

    assert status == 400
    assert body == {
        "error": {"code": "too_many_files", "message": "Too many files in one batch.", "details": {"limit": 500}}
    }


def test_a_services_refusal_reaches_the_api_as_a_400_with_its_message():
    survivor, other, gone = CandidateFactory(), CandidateFactory(), CandidateFactory()
    Candidate.objects.filter(pk=gone.pk).delete()
    user = UserFactory()

    status, body = call(
        lambda: services.candidates_merge(survivor=survivor, others=[other, gone], user=user), user=user
    )

    assert status == 400
    assert body == {
        "error": {"code": "invalid", "message": "A candidate of this merge no longer exists.", "details": {}}
    }
    assert Candidate.objects.filter(pk=other.pk).exists()
    assert not MergeRecord.objects.exists()


def test_any_other_exception_is_left_to_django_as_a_server_error():
    def bug():
        raise KeyError("missing")

    with pytest.raises(KeyError):
        call(bug)
