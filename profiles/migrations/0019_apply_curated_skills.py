from django.db import migrations


def apply_curated_skills(apps, schema_editor):
    """Issue 17: skills imported before the curated table named them ("bash", "apache spark") take its display names,
    and a skill made of one of its labels is merged into the curated one ("apache-spark" into "spark"; a candidate
    with both keeps the higher score). The service, as 0002 calls one: it is what ``seed_skills`` runs too. It runs
    on the current models, so it comes after every migration that creates a table referring to a skill (a merge
    deletes the merged skill, and Django deletes what refers to it first)."""
    from profiles.services import skills_apply_curated

    skills_apply_curated()


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0018_related_skills"),
        ("jobs", "0002_recruiter_and_viewer_permissions"),  # a merge moves the jobs' criteria that name a skill
    ]

    operations = [migrations.RunPython(apply_curated_skills, migrations.RunPython.noop)]
