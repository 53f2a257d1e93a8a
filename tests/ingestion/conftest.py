import pytest


@pytest.fixture
def refusing_trigger(db):
    """A trigger that makes the database refuse a contribution whose summary is ``refuse:<SQLSTATE>`` with that
    SQLSTATE: a real database error of any class, raised where a load writes a file's rows. Created in the test's
    transaction, and rolled back with it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            CREATE FUNCTION test_refuse_contribution() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.summary LIKE 'refuse:%' THEN
                    RAISE EXCEPTION 'refused by the test trigger' USING ERRCODE = substr(NEW.summary, 8, 5);
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER test_refuse_contribution BEFORE INSERT ON profiles_contribution
                FOR EACH ROW EXECUTE FUNCTION test_refuse_contribution();
            """
        )
