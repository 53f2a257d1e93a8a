"""API tokens: DRF's ``Authorization: Token <key>`` scheme, with the token read by ``api.selectors``."""

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from api.selectors import token_with_user


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (same header, errors and ``request.auth``), one lighter query per request."""

    def authenticate_credentials(self, key: str):
        token = token_with_user(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
