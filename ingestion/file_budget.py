"""The time one file's parsing and normalising may take inside a chunk (``INGEST_MAX_FILE_SECONDS``).

A chunk imports up to ``INGEST_CHUNK_SIZE`` files in one Celery task, and the task's soft time limit rolls all of them
back: one file that took minutes to read would hold its neighbours "processing" until the sweeper, and fail them with
it in the end. So each file has a budget of its own, spent across its two pure stages (the parser and the
normaliser, which hold no transaction and no lock: ``core.time_budget`` may interrupt them anywhere). A file past it
fails alone, with ``FileTooSlow``'s message, and the chunk goes on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from core.time_budget import TimeBudgetExceeded, time_budget
from ingestion.documents import ParseError

__all__ = ["FileBudget", "FileTooSlow", "file_budget"]


class FileTooSlow(ParseError):
    """A file whose parsing and normalising ran past its budget: it fails alone, with this message."""


class FileBudget:
    """What is left of one file's time budget; ``seconds`` 0 is no limit."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.left = seconds

    @contextmanager
    def spending(self) -> Iterator[None]:
        """Run one stage of the file's work on what is left of its budget; ``FileTooSlow`` past it."""
        if not self.seconds:
            yield
            return
        started = time.monotonic()
        try:
            with time_budget(self.left):
                yield
        except TimeBudgetExceeded:
            raise FileTooSlow(self.message()) from None
        finally:
            self.left -= time.monotonic() - started

    def message(self) -> str:
        return (
            f"Reading this file took longer than {self.seconds:g} seconds, the limit for one file, so it was not "
            "imported; the file is kept. Something in it is unusually long or repetitive (a skill name or a line "
            "that goes on and on): shorten it and upload the file again."
        )


def file_budget() -> FileBudget:
    """A fresh budget for one file, of ``INGEST_MAX_FILE_SECONDS``."""
    return FileBudget(settings.INGEST_MAX_FILE_SECONDS)
