"""A JSON Resume's awards, kept on the candidate (one line each) and shown on the profile."""

import django.contrib.postgres.fields
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0024_merged_people_listed_for_review"),
    ]

    operations = [
        migrations.AddField(
            model_name="candidate",
            name="awards",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(max_length=500), blank=True, db_default=[], default=list, size=None
            ),
        ),
        migrations.AddField(
            model_name="historicalcandidate",
            name="awards",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(max_length=500), blank=True, db_default=[], default=list, size=None
            ),
        ),
    ]
