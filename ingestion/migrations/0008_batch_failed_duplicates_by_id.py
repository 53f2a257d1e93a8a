"""A broken file uploaded again is kept on its batch by the stored copy's id alone: the name it came under and the
copy's error stayed on the batch after an erasure (the batch page reads both from the stored row, which an erasure
withholds). Reversed, the ids come back with an empty name and error."""

import django.contrib.postgres.fields
from django.db import migrations, models

CHUNK = 1000


def keep_the_ids_only(apps, schema_editor):
    batches = apps.get_model("ingestion", "ImportBatch").objects.exclude(duplicates_failed_errors=[])
    for batch in batches.only("pk", "duplicates_failed_errors").iterator(chunk_size=CHUNK):
        batch.duplicates_failed_ids = [entry[2] for entry in batch.duplicates_failed_errors if len(entry) == 3]
        batch.save(update_fields=["duplicates_failed_ids"])


def give_the_entries_back(apps, schema_editor):
    batches = apps.get_model("ingestion", "ImportBatch").objects.exclude(duplicates_failed_ids=[])
    for batch in batches.only("pk", "duplicates_failed_ids").iterator(chunk_size=CHUNK):
        batch.duplicates_failed_errors = [["", "", stored_id] for stored_id in batch.duplicates_failed_ids]
        batch.save(update_fields=["duplicates_failed_errors"])


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0007_batch_duplicates_of_failed_files"),
    ]

    operations = [
        migrations.AddField(
            model_name="importbatch",
            name="duplicates_failed_ids",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.BigIntegerField(),
                blank=True,
                default=list,
                help_text="The stored copy's id of each duplicate whose stored copy had failed, in the order received.",
                size=None,
            ),
        ),
        migrations.RunPython(keep_the_ids_only, give_the_entries_back),
        migrations.RemoveField(model_name="importbatch", name="duplicates_failed_errors"),
    ]
