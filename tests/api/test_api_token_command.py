"""manage.py api_token create / list / revoke."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


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
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        run("revoke", "ghost")


def run_with_stderr(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("api_token", *args, stdout=out, stderr=err)
    return out.getvalue().strip(), err.getvalue().strip()


def test_an_unknown_user_is_an_error_that_says_how_to_create_one():
    with pytest.raises(CommandError, match="--create-user"):
        run("create", "ghost")
    assert not User.objects.filter(username="ghost").exists()


def test_create_user_makes_an_api_only_user_and_prints_only_the_key_on_stdout():
    key, note = run_with_stderr("create", "alice", "--create-user")

    alice = User.objects.get(username="alice")
    assert Token.objects.get(user=alice).key == key
    assert (alice.is_staff, alice.is_superuser, alice.has_usable_password()) == (False, False, False)
    assert list(alice.groups.all()) == []
    assert note == "Created user alice for the API only: no password, no admin login, no group."
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(reverse("api:candidate-list")).status_code == 200


def test_create_user_takes_an_existing_user_as_it_is():
    sourcer = UserFactory(username="sourcer", is_staff=True)

    key, note = run_with_stderr("create", "sourcer", "--create-user")

    assert Token.objects.get(user=sourcer).key == key
    assert note == ""
    sourcer.refresh_from_db()
    assert sourcer.is_staff
    assert sourcer.has_usable_password()


def test_group_puts_the_user_in_a_group_for_its_permissions():
    _, note = run_with_stderr("create", "uploader", "--create-user", "--group", "Recruiter")

    uploader = User.objects.get(username="uploader")
    assert [group.name for group in uploader.groups.all()] == ["Recruiter"]
    assert uploader.has_perm("ingestion.add_importbatch")
    assert note == "Created user uploader for the API only: no password, no admin login, in Recruiter."


def test_an_unknown_group_creates_nothing():
    # The message lists every group there is (the migrations' Recruiter, Viewer and Privacy officer among them).
    with pytest.raises(CommandError, match=r"No group named 'Uploaders'\. Groups: .*Recruiter, Viewer\."):
        run("create", "alice", "--create-user", "--group", "Uploaders")

    assert not User.objects.filter(username="alice").exists()
    assert not Token.objects.exists()
