"""The environment, the secret and hosts, the services (the database, its replicas, the cache), the applications,
middleware and templates, static files and storage, logging."""

import os
from pathlib import Path

import environ

from talentdb import embedded

BASE_DIR = Path(__file__).resolve().parent.parent.parent
embedded.load_dotenv()  # before anything reads the environment, TALENTDB_VAR_DIR included
VAR_DIR = embedded.var_dir()

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="") or (
    # Only a DEBUG (development) process may run without a configured secret.
    "insecure-development-key-set-SECRET_KEY-in-production" if DEBUG else None
)
if not SECRET_KEY:
    raise environ.ImproperlyConfigured("Set the SECRET_KEY environment variable (or DEBUG=1 for development).")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- Services ----------------------------------------------------------------------------------------------------
DATABASE_URL = env.str("DATABASE_URL", default="") or embedded.postgres_url(VAR_DIR)
REDIS_URL = env.str("REDIS_URL", default="") or embedded.redis_url(VAR_DIR)

DATABASES = {"default": env.db_url_config(DATABASE_URL)}
# A unix-socket URL (postgres://user@/db?host=/path) carries its host as an option: make it the HOST.
if "host" in DATABASES["default"].get("OPTIONS", {}):
    DATABASES["default"]["HOST"] = DATABASES["default"]["OPTIONS"].pop("host")
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# The web processes (talentdb/wsgi.py and asgi.py, not Celery workers or management commands) stop a database
# statement after this many seconds: a request must not hold a connection and a worker thread for minutes. 0: none.
DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS = env.int("DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS", default=30)
# The planner's default cost of a random page read (4) is a spinning disk's. Our data is read from RAM or SSD, where
# random reads cost little more than sequential ones: priced at 4, fetching a skill filter's few GIN matches looked
# dearer than AND-ing them with a btree bitmap over much of the table (docs/benchmarks.md).
#
# PostgreSQL's JIT compiles any plan whose estimated cost passes jit_above_cost, on every execution. Our statements
# are short, and estimates grow with the tables: compiling would then cost more than running them
# (docs/benchmarks.md). Off unless DATABASE_JIT=1.
DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
    f"-c random_page_cost={env.str('DATABASE_RANDOM_PAGE_COST', default='1.1')} "
    f"-c jit={'on' if env.bool('DATABASE_JIT', default=False) else 'off'}"
)
# One test database per test process: parallel runs on one server never drop each other's database.
DATABASES["default"].setdefault("TEST", {})["NAME"] = env.str(
    "TEST_DATABASE_NAME", default=f"test_{DATABASES['default']['NAME']}_{os.getpid()}"
)
# Read replicas (talentdb/db_router.py): PostgreSQL streaming replicas of the primary above, replica_0, replica_1, ...
# Only the web's requests read from them; writes, migrations, Celery workers and commands use the primary. None: one
# server, and none of the lines below changes anything.
REPLICA_DATABASES = []
for _index, _url in enumerate(env.list("DATABASE_REPLICA_URLS", default=[])):
    _replica = env.db_url_config(_url)
    if "host" in _replica.get("OPTIONS", {}):
        _replica["HOST"] = _replica["OPTIONS"].pop("host")
    # The primary's planner settings; a replica that does not answer in 3 s is skipped rather than waited for.
    _replica["OPTIONS"] = {"connect_timeout": 3, **_replica.get("OPTIONS", {})}
    _replica["OPTIONS"]["options"] = DATABASES["default"]["OPTIONS"]["options"]
    _replica["CONN_MAX_AGE"] = DATABASES["default"]["CONN_MAX_AGE"]
    _replica["CONN_HEALTH_CHECKS"] = True
    # The tests' replica serves the primary's test database; the test runner creates no database for it.
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica_{_index}"] = _replica
    REPLICA_DATABASES.append(f"replica_{_index}")
DATABASE_ROUTERS = ["talentdb.db_router.ReplicaRouter"] if REPLICA_DATABASES else []
# Read-your-writes: after a request that may write (POST, PUT, PATCH, DELETE), that browser's (multidb's cookie) or
# API token's (talentdb/db_router.py) reads stay on the primary this long.
MULTIDB_PINNING_SECONDS = env.int("DATABASE_REPLICA_PIN_SECONDS", default=40)
MULTIDB_PINNING_COOKIE_HTTPONLY = True
MULTIDB_PINNING_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
# A replica further behind than this, unreachable, or promoted is skipped (with a log line) until it is fine again.
DATABASE_REPLICA_MAX_LAG_SECONDS = env.float("DATABASE_REPLICA_MAX_LAG_SECONDS", default=30)
# How often each web process asks a replica how far behind it is (not on every read).
DATABASE_REPLICA_CHECK_SECONDS = env.float("DATABASE_REPLICA_CHECK_SECONDS", default=5)
if REPLICA_DATABASES and MULTIDB_PINNING_SECONDS < DATABASE_REPLICA_MAX_LAG_SECONDS + DATABASE_REPLICA_CHECK_SECONDS:
    # A replica checked just under the lag limit serves reads until its next check: a writer pinned for less than both
    # could read from one that has not seen their write yet.
    raise environ.ImproperlyConfigured(
        f"DATABASE_REPLICA_PIN_SECONDS ({MULTIDB_PINNING_SECONDS}) must be at least "
        f"DATABASE_REPLICA_MAX_LAG_SECONDS ({DATABASE_REPLICA_MAX_LAG_SECONDS:g}) "
        f"+ DATABASE_REPLICA_CHECK_SECONDS ({DATABASE_REPLICA_CHECK_SECONDS:g})."
    )

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="talentdb"),
    }
}

# --- Applications ------------------------------------------------------------------------------------------------
INSTALLED_APPS = [
    "talentdb.admin_site.TalentDBAdminConfig",  # django.contrib.admin, with our site (its name, the index order)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc as static files of ours, not from a CDN
    "csp",
    "simple_history",
    "axes",
    "profiles",
    "ingestion",
    "exports",
    "jobs",
    "searchindex",  # the ranking index beside the database: its outbox triggers and its process (docs/scaling.md)
    "privacy",  # sourcing records, suppressions of erased people, the privacy audit log
    "api",
    "devtools",  # manage.py generate_profiles; no models, never imported by the product
    # The admin index's dashboard, which reads both profiles and ingestion, and the admin classes composed of several
    # apps' parts (talentdb/admin.py): the order of the apps above changes no admin.
    "talentdb",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "talentdb.middleware.UploadSizeLimitMiddleware",
    "talentdb.middleware.StatementTimeoutMiddleware",
    # Read replicas: marks a web request, whose reads may go to a replica, and pins a writer's reads to the primary.
    *(["talentdb.db_router.ReplicaRoutingMiddleware"] if REPLICA_DATABASES else []),
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "searchindex.middleware.SearchBackendHeaderMiddleware",  # X-Search-Backend: the index, or SQL and why
    # Last, as django-axes asks: it answers locked-out logins.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "talentdb.urls"
WSGI_APPLICATION = "talentdb.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    # Export jobs' files (exports.services); served only through the API's download, never by URL.
    "exports": {
        "BACKEND": env.str("EXPORT_STORAGE_BACKEND", default="django.core.files.storage.FileSystemStorage"),
        "OPTIONS": {"location": env.str("EXPORT_DIR", default=str(VAR_DIR / "exports"))},
    },
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # pgserver reports at INFO every handle a process opens and releases on the embedded PostgreSQL, from an exit hook
    # too, when a test run has already closed the streams; its warnings and errors still show.
    "loggers": {"pgserver": {"level": "WARNING"}},
}
