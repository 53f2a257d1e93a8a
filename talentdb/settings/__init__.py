"""TalentDB settings, driven by the environment (django-environ): one module per concern, each importing from the
others what it needs; none overrides another's.

- ``base``: the environment, the secret, the database, replicas and cache, the applications and middleware, static
  files and storage, logging;
- ``security``: HTTPS and cookies, the content security policy, the login lockout;
- ``product``: TalentDB's own limits and schedules: uploads and ingestion, exports, related skills, privacy;
- ``queues``: Celery, its queues and the beat schedule;
- ``api``: Django REST framework and the OpenAPI schema.

Importing them starts nothing and writes nothing. Unset ``DATABASE_URL`` / ``REDIS_URL`` mean the embedded PostgreSQL
/ Redis on unix sockets under ``var/``, whose URLs are computed here; the entry points that need them start them
(``talentdb.embedded.start``). There is no SQLite path. Production-safe defaults: DEBUG is off unless asked for.
"""

from talentdb.settings.api import *  # noqa: F403
from talentdb.settings.base import *  # noqa: F403
from talentdb.settings.product import *  # noqa: F403
from talentdb.settings.queues import *  # noqa: F403
from talentdb.settings.security import *  # noqa: F403
