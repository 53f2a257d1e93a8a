"""GIN indexes for the word filters of candidate search (profiles/filters.py): title, location and degree.

Database-only (SeparateDatabaseAndState): the expressions are built with the same ``SearchVector(..., config="simple")``
the filters use, so PostgreSQL matches them to the index. To move them into ``Meta.indexes`` later, add them there and
make this migration's operations state-only.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import migrations

WORD_INDEXES = [
    ("candidate", GinIndex(SearchVector("title", config="simple"), name="candidate_title_words_gin")),
    (
        "candidate",
        GinIndex(SearchVector("city", "region", "country", config="simple"), name="candidate_location_words_gin"),
    ),
    ("education", GinIndex(SearchVector("degree", config="simple"), name="education_degree_words_gin")),
]


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0004_create_recruiter_and_viewer_groups"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.AddIndex(model, index) for model, index in WORD_INDEXES],
        ),
    ]
