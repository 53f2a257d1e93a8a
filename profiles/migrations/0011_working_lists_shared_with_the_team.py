"""Shortlists and saved searches get a "shared with the team" flag (issue 15, hole 8). Every existing list becomes
private to its owner: sharing is the owner's decision, so an upgrade shares nothing."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0010_name_location_keys_as_sql_computes_them"),
    ]

    operations = [
        migrations.AddField(
            model_name="savedsearch",
            name="shared",
            field=models.BooleanField(
                default=False,
                help_text="Every colleague may see and export it; only you change it.",
                verbose_name="shared with the team",
            ),
        ),
        migrations.AddField(
            model_name="shortlist",
            name="shared",
            field=models.BooleanField(
                default=False,
                help_text="Every colleague may see and export it; only you change it.",
                verbose_name="shared with the team",
            ),
        ),
    ]
