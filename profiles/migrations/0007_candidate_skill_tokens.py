"""Skill tokens and scores on the candidate row, for the skill filters and ``match`` (see Candidate.skill_tokens).

Existing candidates are filled from their CandidateSkill rows before the GIN index is built.
"""

import django.contrib.postgres.fields
import django.contrib.postgres.indexes
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0006_candidate_name_key_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="candidate",
            name="skill_scores",
            field=models.JSONField(db_default={}, default=dict, editable=False),
        ),
        migrations.AddField(
            model_name="candidate",
            name="skill_tokens",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.BigIntegerField(), db_default=[], default=list, editable=False, size=None
            ),
        ),
        migrations.RunSQL(
            """
            UPDATE profiles_candidate AS c SET skill_scores = s.scores,
                skill_tokens = s.tokens::bigint[] || CASE WHEN c.country_code ~ '^[A-Z]{2}$' THEN ARRAY(
                    SELECT -(t::bigint * 1024 + (ascii(c.country_code) - 65) * 26 + ascii(substr(c.country_code, 2)) - 65)
                    FROM unnest(s.tokens) AS t
                ) ELSE '{}' END
            FROM (
                SELECT candidate_id, array_agg(skill_id * 16 + score ORDER BY skill_id) AS tokens,
                    jsonb_object_agg(skill_id::text, score) AS scores
                FROM profiles_candidateskill GROUP BY candidate_id
            ) AS s
            WHERE c.id = s.candidate_id
            """,
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.AddIndex(
            model_name="candidate",
            index=django.contrib.postgres.indexes.GinIndex(fields=["skill_tokens"], name="candidate_skill_tokens_gin"),
        ),
    ]
