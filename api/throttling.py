"""Per-user rate limits: DRF's SimpleRateThrottle on Django's cache, counting each clock window in one counter."""

from __future__ import annotations

from axes.helpers import get_client_ip_address
from rest_framework.throttling import SimpleRateThrottle


class TokenRateThrottle(SimpleRateThrottle):
    """Rate limit per user, however the user signed in (API token or admin session); configured by API_THROTTLE_RATE.

    One bucket per user: keyed by the token, a staff user who also had an admin session got a second bucket and twice
    the rate. A rotated token keeps its user's count too. A request without a user is counted by
    its client address (``axes.helpers.get_client_ip_address``, as the login lockout finds it behind the proxies): every
    view refuses it with a 401, and the exception handler counts that failed authentication here
    (``api.exceptions``), at the lower ``anonymous`` rate (API_ANON_THROTTLE_RATE), a 429 once the address has used
    up its window.

    Fixed windows: `6000/minute` allows 6,000 requests in each clock minute, and a throttled answer's Retry-After says
    when the next window opens. Each request adds to the window's counter with the cache's atomic ``add`` and
    ``incr``. DRF's own ``allow_request`` reads the list of the window's request times, appends and writes it back:
    requests of one user running side by side read the same list and each write their own, so parallel clients got
    several times their rate through (``tests/api/test_auth.py`` runs both side by side). Only ``allow_request`` and
    ``wait`` differ from DRF's; rates, scope, cache and key come from SimpleRateThrottle.
    """

    scope = "token"

    def get_cache_key(self, request, view):
        ident = f"user:{request.user.pk}" if _is_authenticated(request) else get_client_ip_address(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request, view) -> bool:
        if not _is_authenticated(request):
            # Requests without a user only ever fail (a 401), so they get a rate of their own, far below a consumer's:
            # enough for a client that lost its token to read the error, too little to guess tokens or flood.
            self.rate = self.THROTTLE_RATES.get("anonymous", self.rate)
            self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        self.retry_after = (window + 1) * self.duration - now
        counter = f"{key}:{window}"
        # Kept for two windows, though read only in its own, so that it cannot expire between add and incr (incr
        # raises on a missing key).
        self.cache.add(counter, 0, timeout=2 * self.duration)
        try:
            count = self.cache.incr(counter)
        except ValueError:
            # Lost all the same (evicted under Redis's memory limit, or the cache cleared): this request opens the
            # window's count again rather than failing with a server error.
            self.cache.add(counter, 1, timeout=2 * self.duration)
            count = 1
        return count <= self.num_requests

    def wait(self) -> float:
        return self.retry_after


def _is_authenticated(request) -> bool:
    user = getattr(request, "user", None)
    return user is not None and user.is_authenticated
