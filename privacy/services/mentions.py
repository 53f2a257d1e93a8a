"""Rows not tied to the person that still name them: the admin log's messages, saved searches, the records of a shared
identifier. The erasure rewrites or deletes them; the access request lists them."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q, QuerySet
from django.db.models.deletion import Collector
from django.db.models.expressions import RawSQL
from django.http import QueryDict

from core.identity import (
    name_key,
)
from privacy.erasure import ErasureContext
from profiles.models import (
    Candidate,
    SavedSearch,
    SharedIdentifier,
)

# A needle shorter than this names nobody in a query or a log message: a word of two or three letters ("Go", "SRE",
# "Ann") is a skill, an acronym or a first name more often than one person's name or account.
NEEDLE_MIN_CHARS = 4
ERASED_TEXT = "(erased)"


def admin_log_forget(candidate: Candidate, *, names: Sequence[str] | None = None) -> int:
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
