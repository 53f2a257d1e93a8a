"""Privacy writes: sourcing records (the import's), erasure requests, and the erasure itself.

An erasure deletes the person and leaves suppression records (keyed hashes of their identifiers) that the import
checks (``privacy.selectors.suppressed_documents``), so the next file about them is refused instead of bringing them
back. What other apps hold of the person they remove in registered steps (``privacy.erasure``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.db.models.deletion import Collector
from django.db.models.expressions import RawSQL
from django.http import QueryDict
from django.utils import timezone

from core.identity import (
    email_key,
    identifier_key,
    identity_lock_texts,
    name_key,
    name_location_key,
    network_page,
    personal_site,
    url_key,
)
from privacy.erasure import ErasureContext, erasure_steps
from privacy.hashing import identifier_digests
from privacy.models import ErasureRequest, PrivacyEvent, Suppression
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    MergeRecord,
    Position,
    Repository,
    SavedSearch,
    SharedIdentifier,
)
from profiles.search import repositories_refresh_contributors
from profiles.selectors import candidate_filter_choices_forget

__all__ = [
    "admin_log_naming",
    "candidate_erase",
    "candidate_identity_keys",
    "erasure_context",
    "erasure_message",
    "erasure_request_create",
    "erasure_request_reject",
    "import_refusals_record",
    "query_names_them",
    "saved_searches_naming",
    "shared_identifiers_of",
    "sourcing_records_add",
    "suppressions_widen",
    "whole_words_re",
]

# The notice is due a month after sourcing, in PostgreSQL's month arithmetic (31 January + 1 month is the end of
# February), as migration 0002's backfill computes it too.
_SOURCING_INSERT_SQL = """
INSERT INTO privacy_sourcingrecord (candidate_id, sourced_at, source_batch_id, source_file_id, lawful_basis,
    notice_due_at, notified_at, notice_channel)
SELECT r.candidate_id, now(), r.batch_id, r.file_id, 'legitimate_interest', now() + interval '1 month', NULL, ''
FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[]) AS r(candidate_id, batch_id, file_id)
ON CONFLICT (candidate_id) DO NOTHING
"""


def sourcing_records_add(*, rows: Sequence[tuple[int, int | None, int | None]]) -> None:
    """Record how these candidates were sourced, those who have no record yet: (candidate id, batch id, file id).

    One statement for a whole chunk, in the import's transaction, so a candidate and their record commit together.
    The import passes every candidate it wrote; only the first import of each writes a row (``ON CONFLICT``)."""
    first: dict[int, tuple[int | None, int | None]] = {}
    for candidate_id, batch_id, file_id in rows:
        first.setdefault(candidate_id, (batch_id, file_id))
    if not first:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            _SOURCING_INSERT_SQL,
            [list(first), [batch for batch, _ in first.values()], [file for _, file in first.values()]],
        )


# --- Erasure requests ------------------------------------------------------------------------------------------------


def erasure_request_create(*, candidates: Sequence[Candidate], user, reason: str = "") -> list[ErasureRequest]:
    """A request per candidate that has no open one yet (a second click adds nothing); returns those created."""
    already = set(
        ErasureRequest.objects.filter(candidate__in=candidates, status=ErasureRequest.Status.OPEN).values_list(
            "candidate_id", flat=True
        )
    )
    return ErasureRequest.objects.bulk_create(
        [
            ErasureRequest(candidate=candidate, requested_by=user, reason=reason)
            for candidate in candidates
            if candidate.pk not in already
        ]
    )


def erasure_request_reject(*, request: ErasureRequest, user) -> bool:
    """Close an open request without erasing (compare-and-set: False if it was decided meanwhile)."""
    return bool(
        ErasureRequest.objects.filter(pk=request.pk, status=ErasureRequest.Status.OPEN).update(
            status=ErasureRequest.Status.REJECTED, decided_by=user, decided_at=timezone.now()
        )
    )


# --- Erasure ---------------------------------------------------------------------------------------------------------


def candidate_identity_keys(candidate: Candidate) -> list[tuple[str, str]]:
    """Every identity key the person is known by, in the one normalisation (``core.identity.identifier_key``): their
    identifiers as the import stored them, and those their current fields give (an e-mail or a personal site edited
    by hand, the name with location as it reads now)."""
    stored = CandidateIdentifier.objects.filter(candidate=candidate).values_list("kind", "value")
    keys = [(kind, identifier_key(kind, value)) for kind, value in stored]
    kind = CandidateIdentifier.Kind
    if candidate.email:
        keys.append((kind.EMAIL, email_key(candidate.email)))
    if candidate.website:
        work = list(Position.objects.filter(candidate=candidate).values_list("url", "company"))
        work_sites, companies = [url for url, _ in work if url], [candidate.company, *(name for _, name in work)]
        if network_page(candidate.website) or personal_site(
            candidate.website, work_sites=work_sites, companies=companies
        ):
            keys.append((kind.URL, url_key(candidate.website)))
    place = candidate.country_code or candidate.country.casefold()
    keys.append((kind.NAME_LOCATION, name_location_key(candidate.name, candidate.city, place)))
    return list(dict.fromkeys(key for key in keys if key[1]))


def erasure_message(erased_at: datetime, *, reason: str = Suppression.Reason.REQUEST) -> str:
    """What a refused file's row says (issue 18's wording), with the day of the erasure in the site's time zone; a
    retention erasure was nobody's request, and says so."""
    day = timezone.localdate(erased_at)
    if reason == Suppression.Reason.RETENTION:
        return f"This person's data was erased on {day:%Y-%m-%d} under the retention policy; the file was not imported"
    return f"This person asked to be erased on {day:%Y-%m-%d}; the file was not imported"


@transaction.atomic
def candidate_erase(
    *, candidate: Candidate, user, request: ErasureRequest | None = None, reason: str = Suppression.Reason.REQUEST
) -> PrivacyEvent:
    """Erase a person: keep keyed hashes of their identifiers (so no later import brings them back), then delete
    everything held about them, in one transaction; returns the audit row, which holds counts only.

    Deleted: the candidate and all that cascades from it (skills, jobs, education, languages, contributions,
    identifiers, shortlist and pipeline entries with their events and notes, not-duplicate marks, the sourcing
    record), the history rows of them and of the candidates merged into them, the merge records naming them, the
    admin log's rows about those objects (and their name in other rows' messages), repositories only they contributed
    to, saved searches for them by name or identifier, the records saying an identifier of theirs is shared, and
    whatever the registered steps remove (source files' bytes, export files and queries). Caches are forgotten once it
    commits.
    """
    # The loader's order: its key locks first, then the candidate's row; the keys again once both are held (an import
    # that finished meanwhile may have added some).
    _lock_identity_keys(candidate_identity_keys(Candidate.objects.get(pk=candidate.pk)))
    candidate = Candidate.objects.select_for_update().get(pk=candidate.pk)
    now = timezone.now()
    context = erasure_context(candidate, erased_at=now, reason=reason)
    ids, digests, counts = context.candidate_ids, sorted(context.digests), context.counts
    counts.update({"candidates": 1, "merged_candidates": len(ids) - 1})

    if request is None:
        request = ErasureRequest.objects.filter(candidate=candidate, status=ErasureRequest.Status.OPEN).first()
    event = PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.ERASURE, at=now, by=user, request=request)
    created = Suppression.objects.bulk_create(
        [
            Suppression(
                kind=kind, digest=digest, erased_at=now, erased_by=user, request=request, erasure=event, reason=reason
            )
            for kind, digest in digests
        ],
        ignore_conflicts=True,  # the same key of an earlier erasure stays with that one, its date the first
    )
    counts["suppressions"] = len(created)
    # Every open request about them is decided by this erasure.
    ErasureRequest.objects.filter(candidate=candidate, status=ErasureRequest.Status.OPEN).update(
        status=ErasureRequest.Status.DONE, decided_by=user, decided_at=now
    )
    # A reason is free text ("Tove phoned from +46..."), whatever its help text asks: none about them is kept, a
    # rejected one's neither. Before the delete, which empties the requests' candidate.
    ErasureRequest.objects.filter(candidate=candidate).exclude(reason="").update(reason=ERASED_TEXT)

    for name, step in erasure_steps().items():
        counts[name] = step(context)

    counts["admin_log_entries"] = _admin_log_forget(candidate, names=context.names)
    counts["saved_searches"] = saved_searches_naming(context).delete()[0]
    counts["shared_identifiers"] = shared_identifiers_of(context).delete()[0]
    counts["merge_records"] = MergeRecord.objects.filter(Q(survivor_id__in=ids) | Q(merged_id__in=ids)).delete()[0]
    repository_ids = list(candidate.contributions.values_list("repository_id", flat=True))
    accounts = list(
        CandidateIdentifier.objects.filter(
            candidate=candidate, kind__in=[CandidateIdentifier.Kind.GITHUB, CandidateIdentifier.Kind.GITLAB]
        ).values_list("value", flat=True)
    )
    candidate.delete()
    # After the delete: it writes a last history row ("deleted"), which goes with the others.
    counts["history_rows"] = Candidate.history.model.objects.filter(id__in=ids).delete()[0]
    owned = _repositories_of_accounts(accounts)
    counts["repositories"] = _repositories_delete_unused([*repository_ids, *owned])
    counts["repositories_anonymised"] = _repositories_forget(
        [*repository_ids, *owned], accounts=accounts, needles=context.needles
    )

    event.counts, event.to_review = counts, context.to_review
    event.save(update_fields=["counts", "to_review"])
    transaction.on_commit(candidate_filter_choices_forget, robust=True)
    return event


def erasure_context(
    candidate: Candidate, *, erased_at: datetime | None = None, reason: str = Suppression.Reason.REQUEST
) -> ErasureContext:
    """What an erasure of the candidate knows of them (``privacy.erasure.ErasureContext``): their ids with those
    merged into them, the digests of their identity keys, and the strings a row not tied to them may name them by.
    The access request reads with the same context what the erasure would take."""
    merges = list(MergeRecord.objects.filter(survivor=candidate).values_list("merged_id", "merged_name"))
    merged_names = [name for _, name in merges]
    identifiers = [
        (kind, value)
        for kind, value in candidate_identity_keys(candidate)
        if kind != CandidateIdentifier.Kind.NAME_LOCATION and value
    ]
    return ErasureContext(
        identifiers=tuple(identifiers),
        candidate_ids=(candidate.pk, *(merged_id for merged_id, _ in merges)),
        digests=frozenset(identifier_digests(candidate_identity_keys(candidate))),
        erased_at=erased_at or timezone.now(),
        needles=_needles(candidate, merged_names=merged_names),
        reason=reason,
        names=tuple(name for name in dict.fromkeys([candidate.name, *merged_names, candidate.email]) if name),
    )


def _lock_identity_keys(keys: list[tuple[str, str]]) -> None:
    """The loader's locks on these identity keys (``ingestion.loaders._lock_keys``: the same texts, the same hash), so
    an import loading this person meanwhile commits before the erasure goes on, and what it wrote is erased too.
    Every form of each key (``identity_lock_texts``): a file spelling their site another way takes the same lock."""
    texts = identity_lock_texts(keys)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h "
            "FROM unnest(%s::text[]) AS k ORDER BY 1) AS locks",
            [texts],
        )


def _needles(candidate: Candidate, *, merged_names: Sequence[str] = ()) -> tuple[str, ...]:
    """The person's names and external identifiers as a file would write them (the identifiers are stored
    lower-cased: a step compares without case)."""
    external = CandidateIdentifier.objects.filter(candidate=candidate).exclude(
        kind=CandidateIdentifier.Kind.NAME_LOCATION
    )
    values = [candidate.name, *merged_names, candidate.email, *external.values_list("value", flat=True)]
    return tuple(dict.fromkeys(value for value in values if len(value) >= 3))


# A needle shorter than this names nobody in a query or a log message: a word of two or three letters ("Go", "SRE",
# "Ann") is a skill, an acronym or a first name more often than one person's name or account.
NEEDLE_MIN_CHARS = 4
ERASED_TEXT = "(erased)"


def _admin_log_forget(candidate: Candidate, *, names: Sequence[str] | None = None) -> int:
    """Delete the admin log's rows about the candidate and every row its deletion takes with it (a shortlist entry's
    "Jane Doe in Backend" is one), and take ``names`` (the candidate's name unless given) out of the messages of other
    rows (a shortlist's change message names the entries its inline changed)."""
    collector = Collector(using="default")
    collector.collect([candidate])
    objects: dict[type, set[str]] = {}
    for model, instances in collector.data.items():
        objects.setdefault(model, set()).update(str(instance.pk) for instance in instances)
    for queryset in collector.fast_deletes:
        objects.setdefault(queryset.model, set()).update(str(pk) for pk in queryset.values_list("pk", flat=True))
    about_them = Q(pk__in=[])
    for model, pks in objects.items():
        content_type = ContentType.objects.get_for_model(model, for_concrete_model=False)
        about_them |= Q(content_type=content_type, object_id__in=pks)
    deleted = LogEntry.objects.filter(about_them).delete()[0]
    return deleted + _admin_log_names_forget([candidate.name] if names is None else names)


def _admin_log_names_forget(names: Sequence[str]) -> int:
    """Write "(erased)" for the person's names and e-mail in the other rows of the admin log, as whole words (the rule
    of ``query_names_them``: "Anna Berg" is not in "Anna Bergström").

    Django stores a change message as ``json.dumps`` of a list, non-ASCII letters escaped ("Zo\\u00eb"): one query
    finds the rows holding a name in either form, and each message is rewritten parsed, its strings only, then dumped
    as Django dumps it. A message that is not JSON (an old row, a custom one) is rewritten as text."""
    changed = []
    for row, message, repr_ in _admin_log_rows_naming(names):
        row.change_message, row.object_repr = message, repr_
        changed.append(row)
    LogEntry.objects.bulk_update(changed, ["change_message", "object_repr"], batch_size=500)
    return len(changed)


def _admin_log_rows_naming(names: Sequence[str]) -> list[tuple[LogEntry, str, str]]:
    """The admin log's rows whose message or object names one of ``names`` as whole words, each with its message and
    object text rewritten without them."""
    names = [name for name in names if len(name_key(name).replace(" ", "")) >= NEEDLE_MIN_CHARS]
    if not names:
        return []
    patterns = [whole_words_re(name) for name in names]
    forms = sorted({form.lower() for name in names for form in (name, json.dumps(name)[1:-1])})
    candidates = LogEntry.objects.filter(
        pk__in=RawSQL(
            "SELECT id FROM django_admin_log WHERE EXISTS (SELECT 1 FROM unnest(%s::text[]) AS n(form) "
            "WHERE strpos(lower(change_message), n.form) > 0 OR strpos(lower(object_repr), n.form) > 0)",
            [forms],
        )
    ).only("pk", "change_message", "object_repr")

    def scrub(text: str) -> str:
        for pattern in patterns:
            text = pattern.sub(ERASED_TEXT, text)
        return text

    naming = []
    for row in candidates.order_by("pk"):
        message, repr_ = _json_strings_map(row.change_message, scrub), scrub(row.object_repr)
        if (message, repr_) != (row.change_message, row.object_repr):
            naming.append((row, message, repr_))
    return naming


def admin_log_naming(context: ErasureContext) -> QuerySet[LogEntry]:
    """The admin log's rows that name the person in their text (the erasure rewrites them)."""
    return LogEntry.objects.filter(pk__in=[row.pk for row, _, _ in _admin_log_rows_naming(context.names)])


def whole_words_re(needle: str) -> re.Pattern[str]:
    """The needle, any case, its words apart by any spaces, not inside a longer word."""
    words = r"\s+".join(re.escape(word) for word in needle.split())
    return re.compile(rf"(?<!\w){words}(?!\w)", re.IGNORECASE)


def _json_strings_map(message: str, change) -> str:
    """``change`` applied to every string of a JSON change message (keys stay: Django's own words), dumped again as
    ``LogEntry.change_message`` is; to the whole text when it is not JSON."""
    try:
        parsed = json.loads(message)
    except ValueError:
        return change(message)
    if not isinstance(parsed, list | dict):
        return change(message)  # a bare number or string: text that happens to parse

    def walk(value):
        if isinstance(value, str):
            return change(value)
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {key: walk(item) for key, item in value.items()}
        return value

    rewritten = walk(parsed)
    return message if rewritten == parsed else json.dumps(rewritten)


# What websearch syntax puts around a word (``"a phrase"``, ``-word``, ``(a or b)``) and what ends a sentence.
_TERM_EDGES = "\"'()-,;:!?."


def _words(text: str) -> list[str]:
    """The words of a search or a name, compared as names are (``name_key``: no case, no accents)."""
    return [word for raw in name_key(text).split() if (word := raw.strip(_TERM_EDGES))]


def query_names_them(query: str, needles: Sequence[str]) -> bool:
    """Whether a search's query string (``q=Tove+Lindqvist&country=SE``) is for the person: a needle (their name, an
    e-mail, an account, a URL) written whole in ``q`` (its words in order, not part of a longer word), or an account
    of theirs owning the ``repository`` searched. The other filters (skills, country, title, company...) take a skill
    or a place, never a person's name or identifier, and are not read: a GitHub account named ``python`` does not make
    ``skill=python:8`` a search for its owner (``profiles.filters.CandidateFilterSet`` lists them)."""
    wanted = [words for needle in needles if len("".join(words := _words(needle))) >= NEEDLE_MIN_CHARS]
    if not wanted or not query:
        return False
    params = QueryDict(query)
    for text in params.getlist("q"):
        words = _words(text)
        for needle in wanted:
            size = len(needle)
            if any(words[start : start + size] == needle for start in range(len(words) - size + 1)):
                return True
    owners = {name_key(value.split("/", 1)[0].strip()) for value in params.getlist("repository") if "/" in value}
    return any(len(needle) == 1 and needle[0] in owners for needle in wanted)


def saved_searches_naming(context: ErasureContext) -> QuerySet[SavedSearch]:
    """The saved searches for the person by name, e-mail or account: about them alone, the erasure deletes them. One
    that finds them among others (a skill, a country) stays, and no longer finds them."""
    needles = context.needles
    ids = [pk for pk, query in SavedSearch.objects.values_list("pk", "query") if query_names_them(query, needles)]
    return SavedSearch.objects.filter(pk__in=ids)


def shared_identifiers_of(context: ErasureContext) -> QuerySet[SharedIdentifier]:
    """The records saying an identifier of the person is shared (their own site, named by someone of another name too):
    no key ties them to the person, yet each holds their identifier in clear, and the erasure deletes it. The
    suppression's hash of it still refuses the next file naming it."""
    if not context.identifiers:
        return SharedIdentifier.objects.none()
    theirs = Q()
    for kind, value in context.identifiers:
        theirs |= Q(kind=kind, value=value)
    return SharedIdentifier.objects.filter(theirs)


def _repositories_delete_unused(repository_ids: list[int]) -> int:
    """Repositories only this person contributed to (their own, named after their account): gone with them. One that
    others contribute to is a public project of theirs too and stays."""
    if not repository_ids:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM profiles_repository r WHERE r.id = ANY(%s::bigint[]) "
            "AND NOT EXISTS (SELECT 1 FROM profiles_contribution c WHERE c.repository_id = r.id)",
            [repository_ids],
        )
        return cursor.rowcount


def _repositories_of_accounts(accounts: Sequence[str]) -> list[int]:
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


def _repositories_forget(repository_ids: list[int], *, accounts: Sequence[str], needles: Sequence[str]) -> int:
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


def import_refusals_record(*, files: int, keys_by_doc: Sequence[Sequence[tuple[str, str]]] = ()) -> None:
    """The audit row of an import that refused files of erased people (how many, no more), and the refused
    documents' identity keys (``keys_by_doc``) to widen the suppressions they matched (``suppressions_widen``)."""
    if files:
        PrivacyEvent.objects.create(kind=PrivacyEvent.Kind.IMPORT_REFUSED, counts={"files": files})
    if keys_by_doc:
        suppressions_widen(keys_by_doc=keys_by_doc)


def suppressions_widen(*, keys_by_doc: Sequence[Sequence[tuple[str, str]]]) -> int:
    """Add the digests of every form of an identifier that matched a suppression in one of its forms, under the
    suppression it matched; returns how many were added.

    A digest cannot be re-keyed: a suppression made before a form existed (``core.identity.identity_key_forms``:
    the one normalisation of identifiers, the mailbox of an e-mail, the folded town) holds the forms of its day
    alone, and another spelling of the same site would not match it. A refused file brings the identifier back in
    clear for a moment: its other forms are hashed then, so the next spelling is refused too. Only identifiers that
    matched are widened (the erased person's own, in the form they had), never the other identifiers of the file."""
    groups = [forms for keys in keys_by_doc for key in keys if len(forms := identifier_digests([key])) > 1]
    if not groups:
        return 0
    wanted = {digest for forms in groups for digest in forms}
    found = {
        (row.kind, row.digest): row
        for row in Suppression.objects.filter(
            digest__in=[digest for _, digest in wanted], kind__in={kind for kind, _ in wanted}
        ).order_by("erased_at", "pk")
    }
    added = []
    for forms in groups:
        matched = [found[form] for form in forms if form in found]
        if not matched:
            continue
        first = min(matched, key=lambda row: (row.erased_at, row.pk))
        for kind, digest in forms:
            if (kind, digest) not in found:
                added.append(
                    Suppression(
                        kind=kind,
                        digest=digest,
                        erased_at=first.erased_at,
                        reason=first.reason,
                        erased_by_id=first.erased_by_id,
                        request_id=first.request_id,
                        erasure_id=first.erasure_id,
                    )
                )
    return len(Suppression.objects.bulk_create(added, ignore_conflicts=True)) if added else 0
