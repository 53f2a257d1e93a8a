from django.db import migrations


def apply_curated_skills(apps, schema_editor):
    """Issue 17: skills imported before the curated table named them ("bash", "apache spark") take its display names,
    and a skill made of one of its labels is merged into the curated one ("apache-spark" into "spark"; a candidate
    with both keeps the higher score). The service, as 0002 calls one: it is what ``seed_skills`` runs too, and it
    reads and writes the skill and alias columns 0001 created; a merge goes through ``skills_merge``."""
    from profiles.services import skills_apply_curated

    skills_apply_curated()


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0016_pipeline_stages_and_entry_events"),
        ("jobs", "0001_jobs_and_their_criteria_skills"),  # a merge moves the jobs' criteria that name a skill
    ]

    operations = [migrations.RunPython(apply_curated_skills, migrations.RunPython.noop)]
