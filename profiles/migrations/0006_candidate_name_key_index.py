"""An index on the candidate's name key (accents dropped, lower case, single spaces): the possible-duplicates page
(profiles.selectors.candidate_duplicate_groups) walks it in key order instead of grouping a million names.

Database-only (SeparateDatabaseAndState), like 0005: the expression must stay textually the one the selector uses
(``NAME_KEY_SQL``), which Django's index expressions cannot spell (``normalize(name, NFKD)``).
"""

from django.db import migrations

NAME_KEY_SQL = (
    r"lower(btrim(regexp_replace(regexp_replace(normalize(name, NFKD), '[\u0300-\u036f]', '', 'g'), '\s+', ' ', 'g')))"
)


class Migration(migrations.Migration):
    dependencies = [("profiles", "0005_word_search_indexes")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f"CREATE INDEX candidate_name_key_idx ON profiles_candidate (({NAME_KEY_SQL}))",
                    "DROP INDEX IF EXISTS candidate_name_key_idx",
                )
            ]
        )
    ]
