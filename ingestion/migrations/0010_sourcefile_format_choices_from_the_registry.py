"""The formats' choices from the parsers' registry, in the order it asks them (no change to the column)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0009_sourcefile_format_cv"),
    ]

    operations = [
        migrations.AlterField(
            model_name="sourcefile",
            name="format",
            field=models.CharField(
                choices=[
                    ("unknown", "Unknown"),
                    ("jsonresume", "JSON Resume"),
                    ("progai", "Prog.AI text export"),
                    ("cv", "CV (PDF, Word or text)"),
                ],
                default="unknown",
                max_length=12,
            ),
        ),
    ]
