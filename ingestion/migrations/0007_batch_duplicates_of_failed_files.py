"""Bytes known to be broken, uploaded again, are counted as failed, with the stored copy's error."""

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
            name="duplicates_failed_errors",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="[name, error, stored copy's id] of each duplicate whose stored copy failed.",
            ),
        ),
    ]
