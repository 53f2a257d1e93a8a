from django.db import migrations


class Migration(migrations.Migration):
    """Nothing. An earlier version of this migration re-resolved the stored skill labels on the current models and
    without a record of its moves; migration 0033 does it now, on the models of its time, after 0032 has made the
    table that records each move (``manage.py reresolve_skills --undo`` puts them back). A database that applied the
    earlier version keeps what it did; 0033 finds little left to move there."""

    dependencies = [
        ("profiles", "0030_candidate_other_skills"),
    ]

    operations = []
