"""Repositories after an erasure: those nobody contributes to any more go, those named after the person's accounts
are renamed; and the one deletion of unused repositories, which imports use too."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import connection

from core.identity import (
    name_key,
)
from db.cursors import bound_cursor
from privacy.services.mentions import NEEDLE_MIN_CHARS, whole_words_re
from profiles.models import (
    Repository,
)
from profiles.search import repositories_refresh_contributors


def repositories_delete_unused(*, ids: Sequence[int] = (), names: Sequence[str] = (), skip_locked: bool = False) -> int:
    """Delete those of these repositories (by id or by full name) that no contribution names; returns how many went.

    An erasure passes the repositories the person contributed to or whose accounts own them: one that others
    contribute to is a public project of theirs too and stays. An import passes those it created for files that then
    failed, with ``skip_locked``: a repository another loader has read (``FOR KEY SHARE`` until its chunk commits) is
    left alone instead of waited for, and the next file that names it keeps it."""
    if not ids and not names:
        return 0
    with bound_cursor() as cursor:
        cursor.execute(
            _DELETE_UNUSED_SKIP_LOCKED_SQL if skip_locked else _DELETE_UNUSED_SQL,
            {"ids": sorted(set(ids)), "names": sorted(set(names))},
        )
        return cursor.rowcount


_DELETE_UNUSED_SQL = """
DELETE FROM profiles_repository WHERE id IN (
    SELECT r.id FROM profiles_repository r
    WHERE (r.id = ANY(%(ids)b::bigint[]) OR r.full_name = ANY(%(names)b::varchar[]))
        AND NOT EXISTS (SELECT FROM profiles_contribution c WHERE c.repository_id = r.id)
    ORDER BY r.full_name
    FOR UPDATE
)
"""
_DELETE_UNUSED_SKIP_LOCKED_SQL = _DELETE_UNUSED_SQL.replace("FOR UPDATE", "FOR UPDATE SKIP LOCKED")


def repositories_of_accounts(accounts: Sequence[str]) -> list[int]:
    """The repositories owned by these GitHub or GitLab accounts (``tovelq/runbooks``), whoever contributes to them:
    one an import of her created before its load and then refused has no contribution at all, and goes."""
    owners = sorted({account.casefold() for account in accounts if account})
    if not owners:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM profiles_repository WHERE lower(split_part(full_name, '/', 1)) = ANY(%s)", [owners]
        )
        return [row[0] for row in cursor.fetchall()]


def repositories_forget(repository_ids: list[int], *, accounts: Sequence[str], needles: Sequence[str]) -> int:
    """What stays of the person in ``repository_ids`` (those they contributed to and those their accounts own) that
    others contribute to (the rest are deleted already); returns how many were changed.

    A repository owned by one of their GitHub or GitLab accounts (``tovelq/runbooks``) is renamed
    ``erased-<id>/runbooks``, not deleted: the others' contributions to it (``Contribution.repository`` is PROTECT)
    are their own work and stay, in a repository that names nobody. Its description and topics line go if they hold a
    needle, the account included as a bare word. Another owner's repository keeps its name; its description and topics
    line go if they hold the person's name, e-mail or a URL of theirs, or the account as ``@account`` or ``/account``
    (a bare word equal to an account, "python", is the language as often)."""
    owners = sorted({account.casefold() for account in accounts if account})
    repositories = list(Repository.objects.filter(pk__in=repository_ids))
    usable = [needle for needle in needles if len(name_key(needle).replace(" ", "")) >= NEEDLE_MIN_CHARS]
    plain = {needle.casefold() for needle in usable} - set(owners)
    named = [whole_words_re(needle) for needle in plain]
    mentioned = [re.compile(rf"[@/]{re.escape(owner)}(?!\w)", re.IGNORECASE) for owner in owners]
    theirs = [re.compile(rf"(?<!\w){re.escape(owner)}(?!\w)", re.IGNORECASE) for owner in owners]

    changed = []
    for repository in repositories:
        before = (repository.full_name, repository.description, repository.topics_raw, list(repository.topics))
        owner, _, name = repository.full_name.partition("/")
        is_theirs = owner.casefold() in owners
        patterns = [*named, *(theirs if is_theirs else mentioned)]

        def names_them(text: str, patterns=patterns) -> bool:
            return any(pattern.search(text) for pattern in patterns)

        if is_theirs:
            name = "repository" if names_them(name) else name
            repository.full_name = f"erased-{repository.pk}/{name}"
            repository.topics = [topic for topic in repository.topics if not names_them(topic)]
        if names_them(repository.description):
            repository.description = ""
        if names_them(repository.topics_raw):
            repository.topics_raw = ""
        if (repository.full_name, repository.description, repository.topics_raw, repository.topics) != before:
            changed.append(repository)
    Repository.objects.bulk_update(changed, ["full_name", "description", "topics_raw", "topics"])
    # The others' search columns hold the old name: ``q=tovelq`` and the autocomplete would still find them by it.
    repositories_refresh_contributors(repository_ids=[repository.pk for repository in changed])
    return len(changed)
