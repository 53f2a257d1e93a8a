"""Create, list and revoke API tokens (``Authorization: Token <key>``); staff can do the same in the admin.

manage.py api_token create USER [--create-user] [--group NAME]... [--rotate]   # prints the key once
manage.py api_token list
manage.py api_token revoke USER

The key is the only thing written to stdout (``KEY=$(manage.py api_token create ...)``); notes go to stderr.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Create, list or revoke a user's API token."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        create = actions.add_parser("create", help="Create a token for USER and print its key.")
        create.add_argument("username", metavar="USER")
        create.add_argument("--rotate", action="store_true", help="Replace the user's existing token.")
        create.add_argument(
            "--create-user",
            action="store_true",
            help="Create USER if there is none: a user for the API only (no password, no admin login).",
        )
        create.add_argument(
            "--group",
            action="append",
            default=[],
            metavar="NAME",
            help="Add USER to this group for its permissions (Recruiter: uploads and exports); repeatable.",
        )
        actions.add_parser("list", help="Users with a token, and when it was created.")
        revoke = actions.add_parser("revoke", help="Delete USER's token: requests with it get 401 at once.")
        revoke.add_argument("username", metavar="USER")

    def handle(self, *args, action: str, **options):
        getattr(self, f"_{action}")(**options)

    def _user(self, username: str, *, hint: str = ""):
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist as exc:
            raise CommandError(f"No user named {username!r}.{hint}") from exc

    def _groups(self, names: list[str]) -> list[Group]:
        groups = {group.name: group for group in Group.objects.filter(name__in=names)}
        for name in names:
            if name not in groups:
                known = ", ".join(Group.objects.order_by("name").values_list("name", flat=True)) or "none"
                raise CommandError(f"No group named {name!r}. Groups: {known}.")
        return [groups[name] for name in names]

    @transaction.atomic
    def _create(self, *, username: str, rotate: bool, create_user: bool, group: list[str], **options):
        groups = self._groups(group)  # before anything is written: a typo creates nobody
        if create_user and not get_user_model().objects.filter(username=username).exists():
            # No password: the user cannot log in to the admin (is_staff is off anyway) and reaches the API only
            # with the token printed below.
            user = get_user_model().objects.create_user(username=username, password=None)
            joined = "in " + ", ".join(g.name for g in groups) if groups else "no group"
            self.stderr.write(f"Created user {username} for the API only: no password, no admin login, {joined}.")
        else:
            user = self._user(username, hint=" Pass --create-user to create one for the API only.")
        user.groups.add(*groups)
        existing = Token.objects.filter(user=user).first()
        if existing and not rotate:
            raise CommandError(
                f"{username} already has a token (created {existing.created:%Y-%m-%d %H:%M}); pass --rotate to "
                "replace it."
            )
        if existing:
            existing.delete()
        token = Token.objects.create(user=user)
        self.stdout.write(token.key)

    def _list(self, **options):
        tokens = Token.objects.select_related("user").order_by("user__username")
        for token in tokens:
            self.stdout.write(f"{token.user.get_username()}\t{token.key[:6]}…\tcreated {token.created:%Y-%m-%d %H:%M}")
        if not tokens:
            self.stdout.write("No API tokens.")

    def _revoke(self, *, username: str, **options):
        deleted, _ = Token.objects.filter(user=self._user(username)).delete()
        if not deleted:
            raise CommandError(f"{username} has no token.")
        self.stdout.write(f"Revoked the token of {username}.")
