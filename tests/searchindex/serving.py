"""A running index for the tests: the index process's server in a thread of this process, on the test database."""

import threading
import time

import pytest
from django.db import connection
from psycopg.conninfo import make_conninfo

from searchindex import client
from searchindex.server import serve

INDEX_BACKEND = "searchindex.backend.IndexBackend"
SQL_BACKEND = "profiles.search.backends.sql.SqlBackend"
HEADER = "X-Search-Backend"
# A post the ranked pages' tests rank its pool for (the pool: tests.searchindex.helpers.make_pool's skills).
GO_POST = """Backend Engineer (Go)

Requirements
- Go and PostgreSQL

Nice to have
- Kafka, Rust
"""


@pytest.fixture
def serving(settings, tmp_path):
    """The server on its own socket, ready (built) when the test starts; stopped afterwards. Its connection sees only
    what is committed: a test using it needs ``django_db(transaction=True)``."""
    settings.SEARCH_INDEX_SOCKET = tmp_path / "index.sock"
    params = connection.get_connection_params()
    for name in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(name, None)
    stop = threading.Event()
    thread = threading.Thread(
        target=serve,
        args=(settings.SEARCH_INDEX_SOCKET, make_conninfo(**params)),
        kwargs={"stop": stop, "poll_seconds": 0.2},
        daemon=True,
    )
    thread.start()
    deadline = time.monotonic() + 30
    while client.status().get("state") != "ready":
        assert time.monotonic() < deadline, client.status()
        time.sleep(0.05)
    yield
    stop.set()
    thread.join(timeout=10)
