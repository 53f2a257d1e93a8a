"""Run this host's ranking index (searchindex.server): build it from the database, keep it fresh, answer the web
workers on SEARCH_INDEX_SOCKET. ``make run`` starts it; in production, one per host beside gunicorn."""

import signal
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, router
from psycopg.conninfo import make_conninfo

from profiles.models import Candidate
from searchindex.server import AlreadyServing, serve


class Command(BaseCommand):
    help = "Build and serve this host's ranking index on SEARCH_INDEX_SOCKET."

    def handle(self, *args, **options):
        # The database this host reads candidates from: a replica's host builds from its replica.
        connection = connections[router.db_for_read(Candidate)]
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params.pop("prepare_threshold", None)
        # Half the outbox's retention: an index whose last poll is older rebuilds before the beat prunes rows it had
        # not read.
        keep_seconds = settings.SEARCH_INDEX_OUTBOX_KEEP_MINUTES * 60 / 2
        # SIGTERM (make run's stop, docker stop) exits as Ctrl-C does: serve's cleanup removes the socket and the
        # text index's files, and the exit ends a text build's child process.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        try:
            serve(settings.SEARCH_INDEX_SOCKET, make_conninfo(**params), keep_seconds=keep_seconds)
        except AlreadyServing as exc:
            raise CommandError(str(exc)) from exc
