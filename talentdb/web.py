"""What only the web processes (talentdb/wsgi.py, talentdb/asgi.py) set up: nothing else imports this module."""

from django.conf import settings
from django.db.backends.signals import connection_created


def limit_statement_time() -> None:
    """Make every database connection this process opens stop a statement after
    DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS (0: no limit).

    A request's statement that runs for minutes holds a connection and a worker thread all that time; a few of them
    and the site stops answering. The limit is the web's only: Celery workers import files and
    management commands migrate, which may take longer, and never load the web's entry points.
    """
    if settings.DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS > 0:
        connection_created.connect(_set_statement_timeout, dispatch_uid="talentdb.web.statement_timeout")


def _set_statement_timeout(sender, connection, **kwargs) -> None:
    with connection.cursor() as cursor:
        # For the session: every later statement of this connection, until it is closed.
        cursor.execute(
            "SELECT set_config('statement_timeout', %s, false)",
            [f"{settings.DATABASE_WEB_STATEMENT_TIMEOUT_SECONDS}s"],
        )
