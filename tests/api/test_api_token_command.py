"""manage.py api_token create / list / revoke."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command("api_token", *args, stdout=out)
    return out.getvalue().strip()


def test_create_prints_a_key_that_opens_the_api():
    user = UserFactory(username="sourcer")

    key = run("create", "sourcer")

    assert Token.objects.get(user=user).key == key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(reverse("api:skill-list")).status_code == 200


def test_create_refuses_to_replace_a_token_unless_asked_to_rotate():
    UserFactory(username="sourcer")
    first = run("create", "sourcer")

    with pytest.raises(CommandError, match="already has a token"):
        run("create", "sourcer")
    second = run("create", "sourcer", "--rotate")

    assert second != first
    assert list(Token.objects.values_list("key", flat=True)) == [second]


def test_list_shows_users_without_their_full_keys():
    UserFactory(username="sourcer")
    key = run("create", "sourcer")

    listing = run("list")

    assert listing.startswith(f"sourcer\t{key[:6]}…\tcreated ")
    assert key not in listing


def test_revoke_deletes_the_token():
    UserFactory(username="sourcer")
    run("create", "sourcer")

    assert run("revoke", "sourcer") == "Revoked the token of sourcer."
    assert not Token.objects.exists()
    with pytest.raises(CommandError, match="has no token"):
        run("revoke", "sourcer")


def test_an_unknown_user_is_an_error():
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        run("create", "ghost")
