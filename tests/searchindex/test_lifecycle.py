"""The index process's end: SIGTERM (make run's stop, docker stop) leaves no socket, no text files and no build
process behind; a text build's child process ends with its parent however the parent dies."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from psycopg.conninfo import make_conninfo

from conftest import database_url_of_test_db
from searchindex import server as server_module
from searchindex.text import TextIndex
from tests.searchindex.helpers_server import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _ended(pid: int) -> bool:
    """Gone, or a zombie no one has reaped yet (a container's first process may never reap it)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in state


@pytest.mark.django_db(transaction=True, databases="__all__")  # the process reads what is committed
def test_sigterm_ends_the_index_process_and_removes_its_socket_and_text_files(tmp_path):
    socket_path = tmp_path / "index.sock"
    env = {**os.environ, "DATABASE_URL": database_url_of_test_db(), "SEARCH_INDEX_SOCKET": str(socket_path)}
    process = subprocess.Popen([sys.executable, "manage.py", "searchindex_serve"], cwd=ROOT, env=env)
    try:
        wait_until(lambda: (socket_path.parent / "index.sock.text").exists(), limit=60)
        wait_until(socket_path.exists, limit=60)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert not socket_path.exists()
    assert not (tmp_path / "index.sock.text").exists()


def test_an_exit_the_moment_the_socket_exists_still_removes_it(tmp_path, monkeypatch):
    """SIGTERM is an exit wherever the process stands; the test above once sent it just as the socket appeared."""

    class ExitOnceBound(server_module._Server):
        def server_activate(self):
            super().server_activate()
            raise SystemExit(0)  # the signal, between the socket's creation and the serving

    monkeypatch.setattr(server_module, "_Server", ExitOnceBound)
    socket_path = tmp_path / "index.sock"
    with pytest.raises(SystemExit):
        server_module.serve(socket_path, "dbname=unused")
    assert not socket_path.exists()
    assert not (tmp_path / "index.sock.text").exists()


def test_a_build_process_ends_when_its_parent_dies_without_cleaning_up(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(
        textwrap.dedent(
            """
            import multiprocessing, os, sys, time

            from searchindex.text import _end_with_parent


            def child(ready):
                _end_with_parent()
                ready.send(True)
                time.sleep(120)


            if __name__ == "__main__":
                receiving, sending = multiprocessing.get_context("spawn").Pipe(duplex=False)
                process = multiprocessing.get_context("spawn").Process(target=child, args=(sending,))
                process.start()
                receiving.recv()
                print(process.pid, flush=True)
                os._exit(0)  # as a SIGKILL or a crash: no cleanup, no atexit
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    finished = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    pid = int(finished.stdout.split()[0])
    deadline = time.monotonic() + 30
    while not _ended(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            pytest.fail("the child outlived its parent")
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_a_failed_build_raises_and_leaves_no_files(tmp_path):
    unreachable = make_conninfo(host="127.0.0.1", port=1, dbname="nowhere", connect_timeout=2)

    with pytest.raises(RuntimeError, match="build failed"):
        TextIndex.build_apart(unreachable, parent=tmp_path)

    assert list(tmp_path.iterdir()) == []
