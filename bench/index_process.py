"""The ranking index's process for a benchmark: ``manage.py searchindex_serve`` (as ``make run`` starts it) on a
socket of its own and this process's database, stopped when the benchmark exits."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_mib(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_index(*, wait_for_text: bool) -> subprocess.Popen:
    """Start the index process and wait until its columns are built (and its text index, with ``wait_for_text``);
    prints how long each took, the arrays' size and the process's memory. Points this process's
    ``SEARCH_INDEX_SOCKET`` at it."""
    from django.conf import settings

    socket_path = Path(tempfile.mkdtemp(prefix="bench-index-")) / "index.sock"
    settings.SEARCH_INDEX_SOCKET = socket_path
    env = {**os.environ, "SEARCH_INDEX_SOCKET": str(socket_path)}
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "searchindex_serve"], env=env, cwd=Path(__file__).parent.parent
    )
    atexit.register(_stop, process, socket_path.parent)
    found = _wait(process, lambda status: status.get("state") == "ready")
    seconds = time.perf_counter() - started
    rss = rss_mib(process.pid)
    print(
        f"\nindex: columns of {found['candidates']:,} candidates ready in {seconds:.1f} s (process start included); "
        f"arrays {found['bytes'] / 2**20:.0f} MiB, process RSS {rss:.0f} MiB",
        flush=True,
    )
    if wait_for_text:
        found = _wait(process, lambda status: status.get("text", {}).get("state") == "ready")
        print(
            f"index: text of {found['text']['documents']:,} candidates ready {time.perf_counter() - started:.1f} s "
            f"after the process started; process RSS {rss_mib(process.pid):.0f} MiB",
            flush=True,
        )
    return process


def _stop(process: subprocess.Popen, folder: Path) -> None:
    """SIGTERM: the process removes its socket and text files and ends its text build; then its folder goes."""
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
    shutil.rmtree(folder, ignore_errors=True)


def _wait(process: subprocess.Popen, ready) -> dict:
    from searchindex import client

    while not ready(found := client.status()):
        if process.poll() is not None:
            raise SystemExit("the index process exited")
        time.sleep(0.5)
    return found
