"""TalentDB's own limits and schedules: uploads and ingestion, exports, related skills, privacy."""

import hashlib
from pathlib import Path

import environ

from talentdb.settings.base import BASE_DIR, SECRET_KEY, VAR_DIR, env

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

# --- Exports (exports/) ------------------------------------------------------------------
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

# --- Related skills (profiles.services.related_skills_refresh) ------------------------------------------
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

# --- Privacy (privacy/) --------------------------------------------------------------------------------
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

# --- Ranking index (searchindex; docs/scaling.md) ------------------------------------------------------------------
# The host's index process listens here (manage.py searchindex_serve, started by `make run`); the web workers ask it.
SEARCH_INDEX_SOCKET = Path(env.str("SEARCH_INDEX_SOCKET", default=str(VAR_DIR / "searchindex.sock")))
# An index further behind the database than this (its last poll of the outbox) is not asked: the request ranks in SQL.
SEARCH_INDEX_MAX_LAG_SECONDS = env.float("SEARCH_INDEX_MAX_LAG_SECONDS", default=10.0)
# How long a worker waits for the index's answer before ranking in SQL instead.
SEARCH_INDEX_TIMEOUT_SECONDS = env.float("SEARCH_INDEX_TIMEOUT_SECONDS", default=2.0)
# The beat deletes outbox rows (searchindex_change) older than this, every SEARCH_INDEX_PRUNE_INTERVAL_SECONDS, on the
# primary, whether or not an index runs. It must outlast SEARCH_INDEX_MAX_LAG_SECONDS by far: a running index reads
# each row before it goes, and an index further behind than this rebuilds from the tables instead.
SEARCH_INDEX_OUTBOX_KEEP_MINUTES = env.int("SEARCH_INDEX_OUTBOX_KEEP_MINUTES", default=60)
SEARCH_INDEX_PRUNE_INTERVAL_SECONDS = env.int("SEARCH_INDEX_PRUNE_INTERVAL_SECONDS", default=600)
if SEARCH_INDEX_OUTBOX_KEEP_MINUTES * 60 <= SEARCH_INDEX_MAX_LAG_SECONDS:
    raise environ.ImproperlyConfigured("SEARCH_INDEX_OUTBOX_KEEP_MINUTES must outlast SEARCH_INDEX_MAX_LAG_SECONDS.")
