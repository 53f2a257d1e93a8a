"""Identical bytes are stored once per scope, not once overall (issue 15, hole 16).

Scope 0 is the shared store, where every row so far belongs; an uploader who may view only their own batches gets a
scope of their own, so that an upload never learns that somebody else already had the file. The new unique index is
built before the old one goes, so that no moment of the migration lacks one.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ingestion", "0002_sourcefile_lean_row"),
    ]

    operations = [
        migrations.AddField(
            model_name="sourcefile",
            name="dedup_scope",
            field=models.PositiveBigIntegerField(
                default=0,
                editable=False,
                help_text="0: the shared store; else the id of the uploader whose own copy this is.",
            ),
        ),
        migrations.AddConstraint(
            model_name="sourcefile",
            constraint=models.UniqueConstraint(
                fields=("sha256", "dedup_scope"), name="sourcefile_unique_sha256_per_scope"
            ),
        ),
        migrations.RemoveConstraint(
            model_name="sourcefile",
            name="sourcefile_unique_sha256",
        ),
        migrations.AlterField(
            model_name="importbatch",
            name="duplicates",
            field=models.PositiveIntegerField(
                default=0, help_text="Files whose identical bytes were already stored, in a batch the uploader may view."
            ),
        ),
    ]
