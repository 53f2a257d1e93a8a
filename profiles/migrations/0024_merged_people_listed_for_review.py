"""Candidates that imports may already have merged two people into, listed for review (``IdentityReview``).

Before imports checked names under identity keys, a file of a different person that named the same key (an employer's
homepage given as the person's site) was loaded as an update of the first: the first person's name, title, jobs and
skills were overwritten. Such a candidate's history shows the name changing to another person's: the stored files
linked to it name clearly different people (``core.identity.names_clearly_differ``), or its history records do. Each
one found is listed with the names it had, oldest first, for a recruiter to split by hand (re-importing the first
person's file now makes a new candidate of them). Nothing of the candidates is changed.

A file's name is read as the formats write it, without the parsers (a migration of the domain may not import the
import): a JSON Resume's ``basics.name``, a Prog.AI export's first line; a file read neither way is passed over.
Recruiters and viewers read the list (the groups of migration 0004 came before it). Reversed, the list is emptied.
"""

import json

from django.contrib.auth.management import create_permissions
from django.db import migrations

from core.identity import name_key, names_clearly_differ

CHUNK = 500

_CANDIDATES_WITH_FILES_SQL = """
SELECT candidate_id FROM ingestion_sourcefile
WHERE candidate_id IS NOT NULL AND size > 0 AND candidate_id > %s
GROUP BY candidate_id HAVING count(*) > 1
ORDER BY candidate_id LIMIT %s
"""
_CANDIDATES_WITH_NAMES_SQL = """
SELECT id FROM profiles_historicalcandidate GROUP BY id HAVING count(DISTINCT name) > 1
"""


def _name_in(data: bytes) -> str:
    """The name a stored file gives, or "" for a file read neither way. Only UTF-8 is read: another encoding's first
    line (UTF-16's letters between NULs) would look like a clearly different name."""
    try:
        text = data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return ""
    if text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: a file nested past the decoder's depth
            return ""
        basics = document.get("basics") if isinstance(document, dict) else None
        name = basics.get("name") if isinstance(basics, dict) else None
        return name.strip() if isinstance(name, str) else ""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")[:300]


def _mixed(names: list[str]) -> list[str]:
    """The names, one of each spelling, oldest first, when two of them are clearly different people's; else []."""
    kept: dict[str, str] = {}
    for name in names:
        if name:
            kept.setdefault(name_key(name), name)
    distinct = list(kept.values())
    clash = any(names_clearly_differ(a, b) for i, a in enumerate(distinct) for b in distinct[i + 1 :])
    return distinct if clash else []


def list_merged_people(apps, schema_editor):
    candidate_model = apps.get_model("profiles", "Candidate")
    history_model = apps.get_model("profiles", "HistoricalCandidate")
    file_model = apps.get_model("ingestion", "SourceFile")
    review_model = apps.get_model("profiles", "IdentityReview")
    connection = schema_editor.connection
    names: dict[int, list[str]] = {}
    with connection.cursor() as cursor:
        cursor.execute(_CANDIDATES_WITH_NAMES_SQL)
        renamed = [candidate_id for (candidate_id,) in cursor.fetchall()]
        for start in range(0, len(renamed), CHUNK):
            rows = history_model.objects.filter(id__in=renamed[start : start + CHUNK])
            ordered = rows.order_by("id", "history_date", "history_id").values_list("id", "name")
            for candidate_id, name in ordered.iterator(chunk_size=CHUNK):
                names.setdefault(candidate_id, []).append(name)
        last = 0
        while True:
            cursor.execute(_CANDIDATES_WITH_FILES_SQL, [last, CHUNK])
            ids = [row[0] for row in cursor.fetchall()]
            if not ids:
                break
            last = ids[-1]
            files = file_model.objects.filter(candidate_id__in=ids, size__gt=0).order_by("created_at", "pk")
            for candidate_id, content in files.values_list("candidate_id", "content").iterator(chunk_size=CHUNK):
                names.setdefault(candidate_id, []).append(_name_in(bytes(content)))
    current = dict(candidate_model.objects.filter(pk__in=names).values_list("pk", "name"))
    reviews = []
    for candidate_id in sorted(current):
        mixed = _mixed([*names[candidate_id], current[candidate_id]])
        if mixed:
            reviews.append(review_model(candidate_id=candidate_id, names=[name[:300] for name in mixed]))
    review_model.objects.bulk_create(reviews, batch_size=CHUNK, ignore_conflicts=True)


def empty_the_list(apps, schema_editor):
    apps.get_model("profiles", "IdentityReview").objects.all().delete()


def _view_permission(apps):
    return apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="profiles", codename="view_identityreview"
    )


def grant_view(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure the new table's exist now.
    app_config = apps.get_app_config("profiles")
    models_module, app_config.models_module = getattr(app_config, "models_module", None), True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Recruiter", "Viewer"]):
        group.permissions.add(*_view_permission(apps))


def revoke_view(apps, schema_editor):
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Recruiter", "Viewer"]):
        group.permissions.remove(*_view_permission(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0023_identity_reviews"),
        ("ingestion", "0004_shared_rows_created"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(list_merged_people, empty_the_list),
        migrations.RunPython(grant_view, revoke_view),
    ]
