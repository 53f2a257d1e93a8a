"""/healthz never fails on the ranking index: an index answering garbage, or nothing, is reported, not raised."""

import socketserver
import threading

import pytest

from searchindex import client as index_client


class _Garbage(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        for _ in self.rfile:
            self.wfile.write(self.server.reply + b"\n")
            self.wfile.flush()


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


@pytest.fixture
def fake_index(settings, tmp_path):
    """A server on the index's socket that answers every line with ``server.reply``."""
    settings.SEARCH_INDEX_SOCKET = tmp_path / "index.sock"
    server = _Server(str(settings.SEARCH_INDEX_SOCKET), _Garbage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    "reply",
    [
        b"not json at all",
        b"[1, 2, 3]",
        b"{}",
        b'{"state": "ready", "fresh_at": "yesterday", "built_at": "then"}',
        b'{"state": "ready", "fresh_at": 12}',
    ],
)
def test_healthz_answers_ok_and_says_the_index_is_unavailable_when_it_answers_garbage(db, client, fake_index, reply):
    fake_index.reply = reply

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.json()["search_index"] == {"state": "unavailable"}


def test_healthz_asks_the_index_with_a_shorter_timeout_than_a_ranking_does(settings):
    assert 0 < index_client.HEALTH_TIMEOUT_SECONDS < settings.SEARCH_INDEX_TIMEOUT_SECONDS
