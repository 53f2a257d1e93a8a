"""The ranking index's outbox: a row per candidate or repository whose ranking inputs changed, written by triggers in
the writing transaction itself, so that no write path (the loader, the admin, a merge, an erasure, a curator's change
of the vocabulary) can forget it. Statement-level triggers with transition tables: one INSERT per statement, however
many rows it wrote. ``xid`` is the writing transaction, which the index reads changes by (searchindex.freshness)."""

from django.db import migrations

CREATE = """
CREATE TABLE searchindex_change (
    id bigserial PRIMARY KEY,
    kind char(1) NOT NULL,  -- 'c': a candidate (its row, skills or contributions), 'r': a repository's topics
    object_id bigint NOT NULL,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX searchindex_change_xid ON searchindex_change (xid);
CREATE INDEX searchindex_change_created ON searchindex_change (created_at);

CREATE FUNCTION searchindex_candidate_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE FUNCTION searchindex_contribution_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO searchindex_change (kind, object_id) SELECT DISTINCT 'c', candidate_id FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        INSERT INTO searchindex_change (kind, object_id) SELECT DISTINCT 'c', candidate_id FROM old_rows;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION searchindex_repository_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO searchindex_change (kind, object_id)
    SELECT 'r', n.id FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.topic_slugs IS DISTINCT FROM o.topic_slugs;
    RETURN NULL;
END $$;

CREATE TRIGGER searchindex_candidate_inserted AFTER INSERT ON profiles_candidate
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION searchindex_candidate_changed();
CREATE TRIGGER searchindex_candidate_updated AFTER UPDATE ON profiles_candidate
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION searchindex_candidate_changed();
CREATE TRIGGER searchindex_candidate_deleted AFTER DELETE ON profiles_candidate
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION searchindex_candidate_changed();
CREATE TRIGGER searchindex_contribution_inserted AFTER INSERT ON profiles_contribution
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION searchindex_contribution_changed();
CREATE TRIGGER searchindex_contribution_updated AFTER UPDATE ON profiles_contribution
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION searchindex_contribution_changed();
CREATE TRIGGER searchindex_contribution_deleted AFTER DELETE ON profiles_contribution
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION searchindex_contribution_changed();
CREATE TRIGGER searchindex_repository_updated AFTER UPDATE ON profiles_repository
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION searchindex_repository_changed();
"""

DROP = """
DROP TRIGGER IF EXISTS searchindex_repository_updated ON profiles_repository;
DROP TRIGGER IF EXISTS searchindex_contribution_deleted ON profiles_contribution;
DROP TRIGGER IF EXISTS searchindex_contribution_updated ON profiles_contribution;
DROP TRIGGER IF EXISTS searchindex_contribution_inserted ON profiles_contribution;
DROP TRIGGER IF EXISTS searchindex_candidate_deleted ON profiles_candidate;
DROP TRIGGER IF EXISTS searchindex_candidate_updated ON profiles_candidate;
DROP TRIGGER IF EXISTS searchindex_candidate_inserted ON profiles_candidate;
DROP FUNCTION IF EXISTS searchindex_repository_changed();
DROP FUNCTION IF EXISTS searchindex_contribution_changed();
DROP FUNCTION IF EXISTS searchindex_candidate_changed();
DROP TABLE IF EXISTS searchindex_change;
"""


class Migration(migrations.Migration):
    dependencies = [("profiles", "0034_seed_shipped_vocabulary_additions")]

    operations = [migrations.RunSQL(CREATE, DROP)]
