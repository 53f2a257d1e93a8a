from django.db import migrations


def reresolve_skill_labels(apps, schema_editor):
    """Skills older imports made of labels the resolver now reads ("Usage with Docker", "Svelt", "Teamwork") move to
    the known skill they name, or to the candidate's other skills as text: the function ``manage.py
    reresolve_skills`` runs (``--dry-run`` there shows what it changes), in batches that each commit (this migration
    is not atomic). It runs on the current models, as 0019 does, and writes nothing on a database with no candidates.
    The reverse leaves the moved labels where they are: the skills they left are still there to move them back by
    hand."""
    from profiles.skills_reresolve import skills_reresolve

    skills_reresolve(dry_run=False)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("profiles", "0030_candidate_other_skills"),
    ]

    operations = [migrations.RunPython(reresolve_skill_labels, migrations.RunPython.noop)]
