from django.db import migrations


class Migration(migrations.Migration):
    """Kept for databases that recorded it: the curated skills are applied by 0019, after every table that holds a
    reference to a skill exists (a merge deletes through the current models, which name 0018's related skills)."""

    dependencies = [
        ("profiles", "0016_pipeline_stages_and_entry_events"),
        ("jobs", "0001_jobs_and_their_criteria_skills"),
    ]

    operations = []
