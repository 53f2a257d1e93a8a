"""Celery (https://docs.celeryq.dev/en/stable/userguide/configuration.html): the broker, the tasks' limits, the
queues and the beat schedule."""

from talentdb.settings.base import REDIS_URL, TIME_ZONE, env
from talentdb.settings.product import (
    EXPORT_SWEEP_INTERVAL_SECONDS,
    EXPORT_TASK_SOFT_TIME_LIMIT,
    INGEST_INBOX_SCAN_INTERVAL_SECONDS,
    INGEST_STALE_AFTER_SECONDS,
    INGEST_SWEEP_INTERVAL_SECONDS,
    RELATED_SKILLS_REFRESH_INTERVAL_SECONDS,
    RETENTION_INTERVAL_SECONDS,
    SEARCH_INDEX_PRUNE_INTERVAL_SECONDS,
)

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
    "prune-searchindex-changes": {
        "task": "searchindex.tasks.prune_changes",
        "schedule": SEARCH_INDEX_PRUNE_INTERVAL_SECONDS,
    },
}
