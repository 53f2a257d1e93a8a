"""Writes of the searchindex app: pruning the outbox that the triggers fill."""

from __future__ import annotations

import datetime as dt

from django.db import connections, transaction


@transaction.atomic
def changes_prune(*, keep: dt.timedelta) -> int:
    """Delete outbox rows written more than ``keep`` ago, on the primary (the only database that takes writes; a
    replica loses them through replication). Returns how many went.

    ``keep`` must outlast the index's lag bound, so that a running index has read every row before it goes; an index
    further behind than ``keep`` rebuilds from the tables instead of polling (searchindex.server)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("DELETE FROM searchindex_change WHERE created_at < now() - %s", [keep])
        return cursor.rowcount
