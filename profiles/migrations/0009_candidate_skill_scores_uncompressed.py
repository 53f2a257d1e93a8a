"""Store ``Candidate.skill_scores`` uncompressed (STORAGE EXTERNAL).

``match`` reads two or three scores of every candidate a skill filter selects, before the page's LIMIT: 1,586 rows for
``skill=python:8&skill=go:7&country=US`` at a million candidates. PostgreSQL had compressed the ~440-byte jsonb
inline (the row is over its 2 kB toast threshold), so each ``->>`` decompressed it again: ~3 ms of that page's ~10 ms.
EXTERNAL keeps the value inline and uncompressed; only a row still too big after every other column is compressed
moves it out of line, whole.

Only rows written from now on are stored this way. Older rows take it at their next write: an import of their
profile, an edit, or ``candidates_refresh_search_columns``.
"""

from django.db import migrations

STORAGE = "ALTER TABLE profiles_candidate ALTER COLUMN skill_scores SET STORAGE {}"


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0008_drop_redundant_indexes"),
    ]

    operations = [
        migrations.RunSQL(STORAGE.format("EXTERNAL"), reverse_sql=STORAGE.format("EXTENDED")),
    ]
