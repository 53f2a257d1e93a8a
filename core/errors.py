"""The application's one error type: a rule of the product refuses what was asked.

Services (``profiles``, ``ingestion``) raise it with a message written for the person who asked; the API answers it
as a 400 in its error shape (``api.exceptions``) and the admin shows the message. It lives in the Django-free library
so that every layer may raise it without depending on the one that presents it (HackSoft's Django-Styleguide
``ApplicationError``).
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """``message`` for people, ``code`` for programs (the API's ``error.code``), ``details`` for either."""

    def __init__(self, message: str, *, code: str = "invalid", details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.details = {} if details is None else details
