from django.db import migrations


def seed_shipped_vocabulary(apps, schema_editor):
    """A database seeded by 0029 learns the skills the shipped vocabulary has gained since (object-oriented
    programming, event-driven architecture, linear algebra, ONNX, TensorRT...): the table is seeded again, existing
    skills and aliases winning as in every seed, so a name or an alias a curator changed stays."""
    from profiles.services import skills_upsert
    from profiles.shipped_vocabulary import read_shipped

    vocabulary = read_shipped()
    skills_upsert(skills=vocabulary.skills, aliases=vocabulary.aliases)


class Migration(migrations.Migration):
    dependencies = [("profiles", "0033_reresolve_skill_labels_recorded")]

    operations = [migrations.RunPython(seed_shipped_vocabulary, migrations.RunPython.noop)]
