"""The outbox also records a candidate whose search vector changed (a name, headline, summary or job edited, a
repository renamed): the index's text search (searchindex.text) reads it, and no other column of the row need change
with it."""

from django.db import migrations

WITH_TEXT = """
CREATE OR REPLACE FUNCTION searchindex_candidate_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO searchindex_change (kind, object_id) SELECT 'c', id FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO searchindex_change (kind, object_id) SELECT 'c', id FROM old_rows;
    ELSE
        -- What the index holds of a candidate: the scores, the years and the country, and the search vector.
        INSERT INTO searchindex_change (kind, object_id)
        SELECT 'c', n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.skill_scores, n.years_coding, n.country_code, n.search_vector) IS DISTINCT FROM
            (o.skill_scores, o.years_coding, o.country_code, o.search_vector);
    END IF;
    RETURN NULL;
END $$;
"""

WITHOUT_TEXT = """
CREATE OR REPLACE FUNCTION searchindex_candidate_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO searchindex_change (kind, object_id) SELECT 'c', id FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO searchindex_change (kind, object_id) SELECT 'c', id FROM old_rows;
    ELSE
        -- What the index holds of a candidate: the scores, the years and the country.
        INSERT INTO searchindex_change (kind, object_id)
        SELECT 'c', n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.skill_scores, n.years_coding, n.country_code) IS DISTINCT FROM
            (o.skill_scores, o.years_coding, o.country_code);
    END IF;
    RETURN NULL;
END $$;
"""


class Migration(migrations.Migration):
    dependencies = [("searchindex", "0001_change_outbox")]

    operations = [migrations.RunSQL(WITH_TEXT, WITHOUT_TEXT)]
