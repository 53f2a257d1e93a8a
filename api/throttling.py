from rest_framework.throttling import SimpleRateThrottle


class TokenRateThrottle(SimpleRateThrottle):
    """Rate limit per API token (or per user for session logins); configured by API_THROTTLE_RATE."""

    scope = "token"

    def get_cache_key(self, request, view):
        if request.auth is not None and hasattr(request.auth, "key"):
            ident = f"token:{request.auth.pk}"
        elif request.user and request.user.is_authenticated:
            ident = f"user:{request.user.pk}"
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
