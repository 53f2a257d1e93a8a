"""Bytes known to be broken, uploaded again, are counted as failed, and listed by the stored copy's id (its name and
error are read from that row, which an erasure withholds)."""

import django.contrib.postgres.fields
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0006_inbox_copies_to_delete"),
    ]

    operations = [
        migrations.AddField(
            model_name="importbatch",
            name="duplicates_failed",
            field=models.PositiveIntegerField(
                default=0, help_text="Of the duplicates, those whose stored copy had failed: counted as failed."
            ),
        ),
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
    ]
