"""Batch labels the product made of file names or paths become what a batch's default label says now: where the files
came from, how many and when ("Upload of 3 files, 2 Dec 10:42"). File names are often people's names, and a label
outlives the files: an access report of one person listed the names of the others.

A batch does not record whether its label was typed. Those of ``manage.py ingest`` never are (it takes no label).
An admin upload's is the product's when it is exactly the old default, the names of its first three files joined
by ", " with "…" after when there were more; a label typed by hand stays, and the access report withholds it. One
whose first files were duplicates (stored in another batch) cannot be told from a typed one and stays too. The
inbox's labels were its folder, naming nobody, and the API's name the uploader: they stay. Nothing to reverse: the
names are not restored."""

from django.db import migrations
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

CHUNK = 500
WITHHELD_LABEL = "(label withheld after an erasure)"
SOURCES = {"admin": "Upload", "cli": "Command-line import"}


def _default_label(origin: str, files: int, at) -> str:
    """``ingestion.services.batch_default_label`` as it was written when this migration was."""
    local = timezone.localtime(at)
    return f"{SOURCES[origin]} of {files} file{'' if files == 1 else 's'}, {local.day} {local:%b %H:%M}"


def _old_admin_default(names: list[str], total_files: int) -> str:
    return ", ".join(names[:3]) + ("…" if total_files > 3 else "")


def labels_without_file_names(apps, schema_editor) -> None:
    ImportBatch = apps.get_model("ingestion", "ImportBatch")
    SourceFile = apps.get_model("ingestion", "SourceFile")
    batches = (
        ImportBatch.objects.filter(origin__in=list(SOURCES))
        .exclude(label="")
        .exclude(label=WITHHELD_LABEL)
        .only("pk", "origin", "label", "total_files", "created_at")
        .order_by("pk")
    )
    last = 0
    while chunk := list(batches.filter(pk__gt=last)[:CHUNK]):
        last = chunk[-1].pk
        admin_ids = [batch.pk for batch in chunk if batch.origin == "admin"]
        first_names: dict[int, list[str]] = {}
        if admin_ids:
            numbered = SourceFile.objects.filter(batch_id__in=admin_ids).annotate(
                n=Window(RowNumber(), partition_by=[F("batch_id")], order_by=F("pk").asc())
            )
            rows = numbered.filter(n__lte=3).order_by("batch_id", "pk").values_list("batch_id", "original_name")
            for batch_id, name in rows:
                first_names.setdefault(batch_id, []).append(name)
        changed = []
        for batch in chunk:
            made_by_product = batch.origin == "cli" or batch.label == _old_admin_default(
                first_names.get(batch.pk, []), batch.total_files
            )
            if made_by_product:
                batch.label = _default_label(batch.origin, batch.total_files, batch.created_at)
                changed.append(batch)
        ImportBatch.objects.bulk_update(changed, ["label"])


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0004_shared_rows_created"),
    ]

    operations = [
        migrations.RunPython(labels_without_file_names, migrations.RunPython.noop, elidable=True),
    ]
