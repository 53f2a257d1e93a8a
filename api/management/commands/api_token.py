"""Create, list and revoke API tokens (``Authorization: Token <key>``); staff can do the same in the admin.

manage.py api_token create USER [--rotate]   # prints the key once
manage.py api_token list
manage.py api_token revoke USER
"""

from django.contrib.auth import get_user_model
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
        actions.add_parser("list", help="Users with a token, and when it was created.")
        revoke = actions.add_parser("revoke", help="Delete USER's token: requests with it get 401 at once.")
        revoke.add_argument("username", metavar="USER")

    def handle(self, *args, action: str, **options):
        getattr(self, f"_{action}")(**options)

    def _user(self, username: str):
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist as exc:
            raise CommandError(f"No user named {username!r}.") from exc

    @transaction.atomic
    def _create(self, *, username: str, rotate: bool, **options):
        user = self._user(username)
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
