"""HTTPS and cookies (https://docs.djangoproject.com/en/5.2/howto/deployment/checklist/), the content security
policy and the login lockout."""

import environ
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE

from talentdb.settings.base import DEBUG, env

SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# django-csp (https://django-csp.readthedocs.io/en/latest/configuration.html): every answer (admin, API docs, API)
# may load scripts, styles, images, fonts and data from our own origin only. Inline scripts run only with the nonce
# of their answer (``nonce="{{ request.csp_nonce }}"``). Inline styles are allowed: the admin's templates and Swagger
# UI set style attributes, and Redoc writes its stylesheets at run time; a style cannot run code. Redoc's search runs
# in a worker made from a blob: URL, and Swagger UI's icons are data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "worker-src": [SELF, "blob:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# django-axes (https://django-axes.readthedocs.io/en/latest/4_configuration.html): failed password logins within the
# cool-off lock a username from one client address at LOGIN_LOCKOUT_ADDRESS_LIMIT, and from every address at
# LOGIN_LOCKOUT_USERNAME_LIMIT, all addresses' failures together (talentdb/login_lockout.py). API tokens keep working.
LOGIN_LOCKOUT_ADDRESS_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
LOGIN_LOCKOUT_USERNAME_LIMIT = env.int("AXES_USERNAME_FAILURE_LIMIT", default=20)
if not 1 <= LOGIN_LOCKOUT_ADDRESS_LIMIT <= LOGIN_LOCKOUT_USERNAME_LIMIT:
    raise environ.ImproperlyConfigured(
        f"AXES_FAILURE_LIMIT ({LOGIN_LOCKOUT_ADDRESS_LIMIT}) must be at least 1, and AXES_USERNAME_FAILURE_LIMIT "
        f"({LOGIN_LOCKOUT_USERNAME_LIMIT}) at least AXES_FAILURE_LIMIT."
    )
AXES_FAILURE_LIMIT = "talentdb.login_lockout.failure_limit"
AXES_LOCKOUT_CALLABLE = "talentdb.login_lockout.lockout_response"
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_ENABLE_ADMIN = False  # talentdb/admin.py registers axes' admin, with its cleanup action working
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# The client's address, for the lockout and the API throttle (axes.helpers.get_client_ip_address, django-ipware).
# Behind reverse proxies REMOTE_ADDR is the nearest proxy's, the same for every client: the lockout would lock a
# user out from everywhere. Each proxy appends the address it saw to X-Forwarded-For, so with N trusted proxies the
# client is the N-th entry from the right (ipware's proxy count leaves out the nearest proxy, which is REMOTE_ADDR);
# whatever the client wrote before it is ignored. 0 (no proxy): REMOTE_ADDR, X-Forwarded-For is not trusted.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
# Not strict: a chain longer than the proxies' (a client behind a proxy of its own, or one that forged entries) still
# gives the entry our proxies wrote; strict, it gave no address, and all such clients shared one lockout.
IPWARE_STRICT = False
if TRUSTED_PROXY_COUNT:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR"]
    AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT - 1
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]
    AXES_IPWARE_PROXY_COUNT = None
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
# Its configuration banner ("AXES: BEGIN ...") would open the output of every command and test run.
AXES_VERBOSE = False
