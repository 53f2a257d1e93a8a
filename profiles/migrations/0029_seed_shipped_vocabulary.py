from django.db import migrations


def seed_shipped_vocabulary(apps, schema_editor):
    """A fresh database knows the vocabulary that ships with the product (profiles/data/vocabulary.tsv,
    several thousand technologies and their aliases), without ../shared. Existing skills and aliases win, as in every
    seed; the table agrees with the curated one, which 0002 and 0019 seeded. The service, as 0002 calls one: bulk
    inserts through SQL on the columns a skill and an alias have had since 0001."""
    from profiles.services import skills_upsert
    from profiles.shipped_vocabulary import read_shipped

    vocabulary = read_shipped()
    skills_upsert(skills=vocabulary.skills, aliases=vocabulary.aliases)


class Migration(migrations.Migration):
    dependencies = [("profiles", "0028_candidate_phone")]

    operations = [migrations.RunPython(seed_shipped_vocabulary, migrations.RunPython.noop)]
