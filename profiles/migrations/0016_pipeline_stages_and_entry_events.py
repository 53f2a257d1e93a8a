"""Shortlist entries get the stages of a job's pipeline (issue 16): sourced, contacted, replied, interviewing, offer,
hired, rejected. "new" becomes "sourced"; the others keep their names. Every change of an entry is an event from now.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def new_to_sourced(apps, schema_editor):
    apps.get_model("profiles", "ShortlistEntry").objects.filter(status="new").update(status="sourced")


def sourced_to_new(apps, schema_editor):
    # The stages the old list did not have go back to their nearest old one.
    ShortlistEntry = apps.get_model("profiles", "ShortlistEntry")
    for stage, old in (("sourced", "new"), ("replied", "contacted"), ("offer", "interviewing")):
        ShortlistEntry.objects.filter(status=stage).update(status=old)


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0015_position_title_words_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(new_to_sourced, sourced_to_new),
        migrations.AlterField(
            model_name="shortlistentry",
            name="status",
            field=models.CharField(
                choices=[
                    ("sourced", "Sourced"),
                    ("contacted", "Contacted"),
                    ("replied", "Replied"),
                    ("interviewing", "Interviewing"),
                    ("offer", "Offer"),
                    ("hired", "Hired"),
                    ("rejected", "Rejected"),
                ],
                default="sourced",
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="ShortlistEntryEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "kind",
                    models.CharField(
                        choices=[("added", "Added"), ("stage", "Stage changed"), ("note", "Note")], max_length=10
                    ),
                ),
                (
                    "from_status",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("sourced", "Sourced"),
                            ("contacted", "Contacted"),
                            ("replied", "Replied"),
                            ("interviewing", "Interviewing"),
                            ("offer", "Offer"),
                            ("hired", "Hired"),
                            ("rejected", "Rejected"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "to_status",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("sourced", "Sourced"),
                            ("contacted", "Contacted"),
                            ("replied", "Replied"),
                            ("interviewing", "Interviewing"),
                            ("offer", "Offer"),
                            ("hired", "Hired"),
                            ("rejected", "Rejected"),
                        ],
                        max_length=20,
                    ),
                ),
                ("note", models.TextField(blank=True)),
                (
                    "author",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="events", to="profiles.shortlistentry"
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
    ]
