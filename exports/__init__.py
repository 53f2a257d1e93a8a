"""Export jobs: a candidate search written to a file by a Celery worker, for searches too large to stream within a
web request, and the per-user limit on exports running at once."""
