from django.db import migrations


def seed_curated_skills(apps, schema_editor):
    # Raw SQL through the service, so the curated aliases exist wherever the schema does.
    from profiles.services import skills_seed_curated

    skills_seed_curated()


class Migration(migrations.Migration):
    dependencies = [("profiles", "0001_initial")]

    operations = [migrations.RunPython(seed_curated_skills, migrations.RunPython.noop)]
