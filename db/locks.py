"""Transaction-scoped advisory locks on identity keys: what an import and an erasure of the same person wait on."""

from __future__ import annotations

from collections.abc import Iterable

from core.identity import identity_lock_texts
from db.cursors import bound_cursor

__all__ = ["LOCK_KEYS_SQL", "lock_keys"]

# One global order (the hashes', sorted) whatever order the keys came in, so no two takers deadlock.
LOCK_KEYS_SQL = (
    "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h "
    "FROM unnest(%b::text[]) AS k ORDER BY 1) AS locks"
)


def lock_keys(keys: Iterable[tuple[str, str]]) -> None:
    """Serialise whoever works on these ``(kind, value)`` keys (loads of the same person across workers, an erasure of
    them) until this transaction ends; every form of each key (``identity_lock_texts``), so another spelling of their
    site or address waits too."""
    texts = identity_lock_texts(keys)
    with bound_cursor() as cursor:
        cursor.execute(LOCK_KEYS_SQL, [texts])
