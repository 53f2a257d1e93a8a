from django.db import migrations


def reresolve_skill_labels(apps, schema_editor):
    """Labels on skills older imports made ("Usage with Docker", "Teamwork") move to the known skill they name, or
    to the candidate's other skills as text: what ``manage.py reresolve_skills`` does (``--dry-run`` there shows it
    first), on this migration's models, in batches that each commit (this migration is not atomic). Misspellings are
    not moved, skills a curator created or edited are left alone, and each move is recorded in SkillLabelMove. It
    writes nothing on a database with no candidate skills."""
    from profiles.skills_reresolve import Models, skills_reresolve

    skills_reresolve(dry_run=False, models=Models.historical(apps))


def undo_reresolve(apps, schema_editor):
    """Every recorded move put back (``manage.py reresolve_skills --undo``)."""
    from profiles.skills_reresolve import Models, skills_reresolve_undo

    skills_reresolve_undo(models=Models.historical(apps))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("profiles", "0032_skill_label_move"),
    ]

    operations = [migrations.RunPython(reresolve_skill_labels, undo_reresolve)]
