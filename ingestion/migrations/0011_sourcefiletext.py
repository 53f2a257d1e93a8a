"""The text a parser read out of a stored PDF or DOCX, kept beside the file when it is parsed (SourceFileText)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ingestion", "0010_sourcefile_format_choices_from_the_registry"),
    ]

    operations = [
        migrations.CreateModel(
            name="SourceFileText",
            fields=[
                (
                    "source_file",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="ingestion.sourcefile",
                    ),
                ),
                ("text", models.TextField()),
            ],
        ),
    ]
