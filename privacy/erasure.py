"""What else an erasure removes: steps the apps above this one register (``erasure_step_register``).

``privacy.services.candidate_erase`` deletes what the domain holds; the import's source files and the export files
belong to ``ingestion`` and ``exports``, which this app may not import. Each registers, in its ``AppConfig.ready``, a
function that removes what it holds of the person. The steps run inside the erasure's transaction, before the
candidate is deleted (their rows still point at the candidate); work outside the database (files on disk, caches) is
theirs to put in ``transaction.on_commit``. A step returns how many things it removed, for the audit row's counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import QuerySet

__all__ = ["ErasureContext", "erasure_step_register", "erasure_steps", "held_finders", "held_redactions"]


@dataclass(frozen=True)
class ErasureContext:
    """What a step knows of the person being erased."""

    candidate_ids: tuple[int, ...]  # the candidate's id and those of the candidates merged into them
    digests: frozenset[tuple[str, str]]  # (kind, digest) of their identifiers (``privacy.hashing``)
    erased_at: datetime
    counts: dict[str, int] = field(default_factory=dict)
    # Strings a file about them holds as written (their name, e-mail, accounts, profile URLs): what a step may look
    # for among rows that do not point at them. In memory only; empty when there is nothing to look for.
    needles: tuple[str, ...] = ()
    # Why (``Suppression.Reason``): what a message left in place of their data says.
    reason: str = "request"
    # Their names and e-mail as a person writes them (the needles without accounts and URLs): what the admin log's
    # messages are searched for.
    names: tuple[str, ...] = ()
    # Their external identifiers as stored, (kind, value): an e-mail or an account a step may recognise in a text
    # whatever surrounds it (``https://github.com/<account>``), where a name alone may be a namesake's.
    identifiers: tuple[tuple[str, str], ...] = ()
    # Rows a step found naming the person that it could not tell were theirs, by kind (ids only): left as they are
    # and listed on the erasure's audit row for a privacy officer to look at.
    to_review: dict[str, list[int]] = field(default_factory=dict)


ErasureStep = Callable[[ErasureContext], int]
# The rows a step removes or empties that no key ties to the person (a failed file naming them, a search for them):
# the access request shows what the erasure would take, from the same finders.
HeldFinder = Callable[[ErasureContext], QuerySet]
_STEPS: dict[str, ErasureStep] = {}
_HELD: dict[str, HeldFinder] = {}
_REDACTED: dict[str, dict[str, str]] = {}


def erasure_step_register(
    name: str,
    step: ErasureStep,
    *,
    held: dict[str, HeldFinder] | None = None,
    redacted: dict[str, dict[str, str]] | None = None,
) -> None:
    """Run ``step`` on every erasure; its count is recorded under ``name``. ``held`` names, by access-request section,
    the finders of the rows ``step`` changes that do not point at the person; ``redacted``, by section, the columns
    the access report writes a text in place of (``{column: text}``): what may name other people, which the erasure
    withholds for the same reason. Registering a name again replaces it (an app's ``ready`` may run twice in tests)."""
    _STEPS[name] = step
    _HELD.update(held or {})
    _REDACTED.update(redacted or {})


def erasure_steps() -> dict[str, ErasureStep]:
    return dict(_STEPS)


def held_finders() -> dict[str, HeldFinder]:
    """Every registered finder, by the access request's section name."""
    return dict(_HELD)


def held_redactions() -> dict[str, dict[str, str]]:
    """The columns the access report withholds, by section, with the text written in their place."""
    return {section: dict(columns) for section, columns in _REDACTED.items()}
