"""TalentDB settings: one module, driven by the environment (django-environ).

Importing it starts nothing and writes nothing. Unset ``DATABASE_URL`` / ``REDIS_URL`` mean the embedded PostgreSQL /
Redis on unix sockets under ``var/``, whose URLs are computed here; the entry points that need them start them
(``talentdb.embedded.start``). There is no SQLite path. Production-safe defaults: DEBUG is off unless asked for.
"""

import hashlib
import os
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE

from talentdb import embedded

BASE_DIR = Path(__file__).resolve().parent.parent
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
    # Sourcing records, suppressions of erased people, the privacy audit log (issue 18). After exports: its admin
    # adds actions to the candidate admin that exports registers (privacy.admin).
    "privacy",
    "api",
    "devtools",  # manage.py generate_profiles; no models, never imported by the product
    "talentdb",  # the admin index's dashboard, which reads both profiles and ingestion
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

# --- Security (https://docs.djangoproject.com/en/5.2/howto/deployment/checklist/) -------------------------------
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

# --- Uploads and ingestion ---------------------------------------------------------------------------------------
INGEST_INBOX = Path(env.str("INGEST_INBOX", default=str(VAR_DIR / "inbox")))
INGEST_MAX_FILE_BYTES = env.int("INGEST_MAX_FILE_BYTES", default=5 * 1024 * 1024)
INGEST_MAX_FILES_PER_UPLOAD = env.int("INGEST_MAX_FILES_PER_UPLOAD", default=500)
INGEST_MAX_UPLOAD_BYTES = env.int("INGEST_MAX_UPLOAD_BYTES", default=100 * 1024 * 1024)  # one request, all files
# What one file may hold (ingestion.normalise.Limits). Past the first two the file fails: each label may become a
# skill, and each repository a row, that every profile shares. Real profiles name a few dozen of either.
INGEST_MAX_SKILLS = env.int("INGEST_MAX_SKILLS", default=1000)  # different skill, language and topic labels
INGEST_MAX_CONTRIBUTIONS = env.int("INGEST_MAX_CONTRIBUTIONS", default=1000)  # repositories
# Past these the rest is cut, with a warning: education entries, badges, spoken languages and profile URLs each, and
# one text (the summary, a contribution's summary, a repository's description; about 15,000 words).
INGEST_MAX_LIST_ENTRIES = env.int("INGEST_MAX_LIST_ENTRIES", default=100)
INGEST_MAX_TEXT_CHARS = env.int("INGEST_MAX_TEXT_CHARS", default=100_000)
# Seconds one file's parsing and normalising may take together inside a chunk; past it that file fails alone, with a
# message, and the chunk goes on. Real files take milliseconds; keep it well under CELERY_TASK_SOFT_TIME_LIMIT, which
# rolls the whole chunk back. 0: no limit.
INGEST_MAX_FILE_SECONDS = env.float("INGEST_MAX_FILE_SECONDS", default=20.0)
if INGEST_MAX_FILE_SECONDS < 0:
    raise environ.ImproperlyConfigured("INGEST_MAX_FILE_SECONDS must be 0 (no limit) or a number of seconds.")
INGEST_CHUNK_SIZE = env.int("INGEST_CHUNK_SIZE", default=200)
INGEST_STALE_AFTER_SECONDS = env.int("INGEST_STALE_AFTER_SECONDS", default=600)
INGEST_SWEEP_INTERVAL_SECONDS = env.int("INGEST_SWEEP_INTERVAL_SECONDS", default=60)
INGEST_INBOX_SCAN_INTERVAL_SECONDS = env.int("INGEST_INBOX_SCAN_INTERVAL_SECONDS", default=30)
# Folder of public vocabularies (GitHub topics, Linguist languages) that skills_audit also counts as seeded; optional.
# Nothing reads it to run: the vocabulary ships in profiles/data/vocabulary.tsv (docs/vocabulary.md).
VOCAB_DIR = Path(env.str("VOCAB_DIR", default=str(BASE_DIR.parent / "shared" / "corpus" / "vocab")))
DATA_UPLOAD_MAX_MEMORY_SIZE = INGEST_MAX_FILE_BYTES
DATA_UPLOAD_MAX_NUMBER_FILES = INGEST_MAX_FILES_PER_UPLOAD
FILE_UPLOAD_MAX_MEMORY_SIZE = INGEST_MAX_FILE_BYTES

# --- Exports (exports/, issue 15 holes 4 and 5) ------------------------------------------------------------------
# A streamed export (the API's export.csv / export.jsonl, the admin's CSV action) must end well inside the web
# server's request timeout: a larger search is refused with a 400 that points to an export job, which a worker writes.
EXPORT_STREAM_MAX_ROWS = env.int("EXPORT_STREAM_MAX_ROWS", default=10_000)
# Exports one user may run at once, queued or running jobs and streams together; one more is a 429.
EXPORT_MAX_CONCURRENT = env.int("EXPORT_MAX_CONCURRENT", default=2)
# A job's file is deleted this long after it was written.
EXPORT_RETENTION_HOURS = env.int("EXPORT_RETENTION_HOURS", default=24)
# A job's run reports every thousand rows; one silent for this long lost its worker and is queued again.
EXPORT_STALE_AFTER_SECONDS = env.int("EXPORT_STALE_AFTER_SECONDS", default=600)
EXPORT_SWEEP_INTERVAL_SECONDS = env.int("EXPORT_SWEEP_INTERVAL_SECONDS", default=60)
# An export job's own soft time limit (its hard limit is a minute later), instead of the imports' 240 s.
EXPORT_TASK_SOFT_TIME_LIMIT = env.int("EXPORT_TASK_SOFT_TIME_LIMIT", default=3600)

# --- Related skills (profiles.services.related_skills_refresh, issue 16) ------------------------------------------
# Skills that go together, counted over the candidates' skills at RELATED_SKILLS_MIN_SCORE or more (a skill listed
# with hardly any evidence says little). A pair needs RELATED_SKILLS_MIN_SUPPORT candidates with both, and a lift of
# RELATED_SKILLS_MIN_LIFT (1.0 is what chance gives); each skill keeps its RELATED_SKILLS_PER_SKILL best. Past
# RELATED_SKILLS_SAMPLE_CANDIDATES candidates the counts come from a repeatable sample of about that many, which bounds
# the refresh's time (docs/benchmarks.md). Beat refreshes every RELATED_SKILLS_REFRESH_INTERVAL_SECONDS.
RELATED_SKILLS_MIN_SCORE = env.int("RELATED_SKILLS_MIN_SCORE", default=3)
RELATED_SKILLS_MIN_SUPPORT = env.int("RELATED_SKILLS_MIN_SUPPORT", default=20)
RELATED_SKILLS_MIN_LIFT = env.float("RELATED_SKILLS_MIN_LIFT", default=1.5)
RELATED_SKILLS_PER_SKILL = env.int("RELATED_SKILLS_PER_SKILL", default=20)
RELATED_SKILLS_SAMPLE_CANDIDATES = env.int("RELATED_SKILLS_SAMPLE_CANDIDATES", default=200_000)
RELATED_SKILLS_REFRESH_INTERVAL_SECONDS = env.int("RELATED_SKILLS_REFRESH_INTERVAL_SECONDS", default=6 * 3600)

# --- Privacy (privacy/, issue 18) --------------------------------------------------------------------------------
# The key of the keyed hashes (HMAC-SHA256) that suppression records keep of an erased person's identifiers. Unset, it
# is derived from SECRET_KEY; set it on its own before ever rotating SECRET_KEY, or the erased people's records stop
# matching their files (they would be imported again). Keep it secret: with it, a guessed e-mail can be tested.
PRIVACY_HASH_KEY = (
    env.str("PRIVACY_HASH_KEY", default="")
    or hashlib.sha256(b"talentdb-privacy-hash-key:" + SECRET_KEY.encode()).hexdigest()
)
# Retention (privacy.retention): a candidate with no activity for this many days (no import of a file of theirs, no
# edit, no change of a shortlist or pipeline entry), and in no open job's pipeline, is retired by the daily task. Two
# years by default; the right period is the operator's to decide and to state in their privacy notice.
RETENTION_DAYS = env.int("RETENTION_DAYS", default=730)
# How: "erase" (privacy.services.candidate_erase: everything goes, and suppression records keep later imports of the
# person out) or "anonymise" (privacy.retention.candidate_anonymise: skills and contribution numbers stay, nothing
# that says who it was; the person may be sourced again).
RETENTION_ACTION = env.str("RETENTION_ACTION", default="erase")
if RETENTION_ACTION not in ("erase", "anonymise"):
    raise environ.ImproperlyConfigured(f"RETENTION_ACTION must be erase or anonymise, not {RETENTION_ACTION!r}.")
if RETENTION_DAYS < 1:
    raise environ.ImproperlyConfigured("RETENTION_DAYS must be a positive number of days.")
RETENTION_INTERVAL_SECONDS = env.int("RETENTION_INTERVAL_SECONDS", default=24 * 3600)

# --- Celery (https://docs.celeryq.dev/en/stable/userguide/configuration.html) ------------------------------------
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-broker_url
# kombu names a Redis unix socket redis+socket://, where Django's cache says unix://.
CELERY_BROKER_URL = REDIS_URL.replace("unix://", "redis+socket://", 1) if REDIS_URL.startswith("unix://") else REDIS_URL
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-result_backend
# Every outcome is recorded in the database rows; nothing reads a task's result, so no host needs a result store.
CELERY_RESULT_BACKEND = None
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_ignore_result
CELERY_TASK_IGNORE_RESULT = True
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_serializer
CELERY_TASK_SERIALIZER = "json"
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-accept_content
# Tasks take ids, which JSON carries; a worker never unpickles what comes from the broker.
CELERY_ACCEPT_CONTENT = ["json"]
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-timezone
CELERY_TIMEZONE = TIME_ZONE
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_acks_late
# A task is acknowledged only after it ran ...
CELERY_TASK_ACKS_LATE = True
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_reject_on_worker_lost
# ... and re-delivered if its worker process dies.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-worker_prefetch_multiplier
# A worker holds no more messages than it runs: the others stay in Redis for the next free worker on any host, so a
# long chunk never keeps others waiting behind it on a busy host.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-broker_transport_options
# https://docs.celeryq.dev/projects/kombu/en/stable/reference/kombu.transport.redis.html#transport-options
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis re-delivers a message not acknowledged within the visibility timeout: it must outlast the longest task, an
    # export job's hard limit (run_export: EXPORT_TASK_SOFT_TIME_LIMIT + 60 s), or a running export is sent again. The
    # work of a host that died does not wait that long: the sweepers queue it again after INGEST_STALE_AFTER_SECONDS
    # and EXPORT_STALE_AFTER_SECONDS. Every host's clock must agree (NTP): the deadline is a timestamp in Redis.
    "visibility_timeout": max(INGEST_STALE_AFTER_SECONDS * 2, EXPORT_TASK_SOFT_TIME_LIMIT + 60 + 600),
    # A Redis on another host can vanish without closing the TCP connection (a failover, a NAT or firewall forgetting
    # an idle flow): keepalive probes and a per-command timeout find the dead connection, where a publish from a web
    # request or a worker's consumer would otherwise wait on it for ever.
    "socket_keepalive": True,
    "socket_timeout": 30,
    "socket_connect_timeout": 10,
    # kombu pings its long-lived BRPOP and pub/sub connections this often (its default, said here on purpose): a
    # consumer on a half-open connection reconnects within a minute.
    "health_check_interval": 25,
}
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_soft_time_limit
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_time_limit
# A chunk imports in seconds, so a task still running after minutes is stuck. At the soft limit SoftTimeLimitExceeded
# is raised inside the task: its transaction rolls back and its files stay claimed, for the sweeper to queue again.
# The hard limit ends the worker process of a task that goes on. Both come well before INGEST_STALE_AFTER_SECONDS
# (600 s), so the sweeper does not hand a running task's files to another worker, and before the visibility timeout
# (above), so Redis does not re-deliver the task's message.
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-broker_connection_retry_on_startup
# A worker started before Redis waits for it.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-broker_connection_retry
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-broker_connection_max_retries
# A worker that loses Redis (a restart, the network between hosts) reconnects and goes on, however long it takes,
# instead of exiting after 100 tries and waiting for a supervisor that a bare host may not have.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_default_queue
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-task_routes
# Three queues, each with workers of its own (README, "Queues"), so that hosts can be given to one kind of work:
# - ingest: the import and reparse chunks, the bulk of the work; its workers scale out (one or more hosts).
# - default: everything else, the beat's periodic tasks (sweeper, inbox scan, export sweeper, related skills,
#   retention); each is seconds to minutes, so they run on time however long the ingest queue is.
# - exports: export jobs, up to EXPORT_TASK_SOFT_TIME_LIMIT (an hour) each. On default, two of them would hold its
#   workers and stop the sweeper and the inbox scans for that long (exports are limited per user, not in total, so no
#   concurrency is enough): they have a queue, and a worker, of their own.
# The names are settings so that tests and benchmarks publish to queues of their own on a shared Redis. Setting two to
# the same name puts those tasks on one queue (CELERY_EXPORT_QUEUE=default: exports share the default workers).
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_DEFAULT_QUEUE", default="default")
INGEST_QUEUE = env.str("CELERY_INGEST_QUEUE", default="ingest")
EXPORT_QUEUE = env.str("CELERY_EXPORT_QUEUE", default="exports")
CELERY_TASK_ROUTES = {
    "ingestion.tasks.import_files": {"queue": INGEST_QUEUE},
    "ingestion.tasks.rebuild_files": {"queue": INGEST_QUEUE},
    "exports.tasks.run_export": {"queue": EXPORT_QUEUE},
}
# https://docs.celeryq.dev/en/stable/userguide/configuration.html#std-setting-beat_schedule
CELERY_BEAT_SCHEDULE = {
    "sweep-stale-source-files": {
        "task": "ingestion.tasks.sweep_stale",
        "schedule": INGEST_SWEEP_INTERVAL_SECONDS,
    },
    "scan-inbox": {
        "task": "ingestion.tasks.scan_inbox",
        "schedule": INGEST_INBOX_SCAN_INTERVAL_SECONDS,
    },
    "sweep-exports": {
        "task": "exports.tasks.sweep_exports",
        "schedule": EXPORT_SWEEP_INTERVAL_SECONDS,
    },
    "refresh-related-skills": {
        "task": "profiles.tasks.refresh_related_skills",
        "schedule": RELATED_SKILLS_REFRESH_INTERVAL_SECONDS,
    },
    "privacy-retention": {
        "task": "privacy.tasks.retention_run",
        "schedule": RETENTION_INTERVAL_SECONDS,
    },
}

# --- API (https://www.django-rest-framework.org/api-guide/settings/) ---------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # DRF's three, with ours for JSON: a body nested past the decoder's depth is a 400, not a 500 (api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": ["api.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.TokenRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "token": env.str("API_THROTTLE_RATE", default="6000/minute"),
        # Requests that fail authentication, per client address (api/throttling.py).
        "anonymous": env.str("API_ANON_THROTTLE_RATE", default="60/minute"),
    },
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "UNAUTHENTICATED_USER": None,
}
API_PAGE_SIZE = env.int("API_PAGE_SIZE", default=50)
API_MAX_PAGE_SIZE = env.int("API_MAX_PAGE_SIZE", default=500)
# Skill terms (skill, any_skill and exclude_skill together) one candidate search may hold, in the API, the exports, the
# admin and saved searches; past it the request is a 400 naming this setting. Each term is a condition on the GIN
# index and a summand of `match`: a bound on one request's query size, far above what a recruiter writes.
SEARCH_MAX_TERMS = env.int("SEARCH_MAX_TERMS", default=50)
# Characters of a job description POST /api/v1/jobs/match/ reads; a longer one is a 400 (100,000: twenty pages).
JOB_DESCRIPTION_MAX_CHARS = env.int("JOB_DESCRIPTION_MAX_CHARS", default=100_000)

SPECTACULAR_SETTINGS = {
    "TITLE": "TalentDB API",
    "DESCRIPTION": "Filtered, ranked candidate lists, details, imports and exports.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # https://drf-spectacular.readthedocs.io/en/latest/settings.html: the pinned drf-spectacular-sidecar's files,
    # served by WhiteNoise with ours, so the docs load offline and nothing outside the policy below.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Two models have a `format` choice (source files, exports), several a `status`: named, so that no name is a hash.
    "ENUM_NAME_OVERRIDES": {
        "FormatEnum": "ingestion.models.SourceFile.Format",
        "ExportFormatEnum": "exports.models.Export.Format",
        "SourceFileStatusEnum": "ingestion.models.SourceFile.Status",
        # A job's status, and its pipeline's stages (a candidate's stage, before and after an event): named once.
        "JobStatusEnum": "jobs.models.Job.Status",
        "PipelineStageEnum": "profiles.models.ShortlistEntry.Status",
        # A skill's kind, in the skill list and the related skills: one name, the one the skill list gave it alone.
        "SkillKindEnum": "profiles.models.Skill.Kind",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # pgserver reports at INFO every handle a process opens and releases on the embedded PostgreSQL, from an exit hook
    # too, when a test run has already closed the streams; its warnings and errors still show.
    "loggers": {"pgserver": {"level": "WARNING"}},
}
