"""Django REST framework (https://www.django-rest-framework.org/api-guide/settings/) and the OpenAPI schema
(drf-spectacular)."""

from talentdb.settings.base import env

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
# The search backend that ranks job matches, a stored job's matches, similar candidates and the admin's matches
# page, and searches text: a dotted path to a profiles.search.backends.base.SearchBackend subclass, so an engine living
# in a higher app plugs in without the domain importing it. The default is this host's ranking index (searchindex,
# started by `make run` and docker-compose.yml's searchindex service): whenever it is stopped, building or behind, a
# request is ranked in SQL, the reference, and X-Search-Backend says why. profiles.search.backends.sql.SqlBackend ranks
# everything in PostgreSQL (the test suite's default: tests/conftest.py).
SEARCH_BACKEND = env.str("SEARCH_BACKEND", default="searchindex.backend.IndexBackend")
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
