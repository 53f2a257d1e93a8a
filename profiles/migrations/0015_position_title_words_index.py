"""A GIN index for the `title` filter on jobs (profiles/filters.py), as 0005 gives the profile's own title.

Without it the filter computed every job's words (a sequential scan of the positions, 150 ms at 25,000 of them).
Database-only, like 0005: the expression is the filter's ``SearchVector("title", config="simple")``.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0014_position_and_spoken_language_permissions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AddIndex(
                    "position", GinIndex(SearchVector("title", config="simple"), name="position_title_words_gin")
                ),
            ],
        ),
    ]
