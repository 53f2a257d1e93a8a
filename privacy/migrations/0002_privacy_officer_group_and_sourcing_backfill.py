"""The "Privacy officer" group (erasure, requests, sourcing records, the privacy log; reads candidates), the Recruiter's
right to request an erasure, and a sourcing record for every candidate already stored: sourced when the candidate was
created, from their first source file, on the default lawful basis, the notice due a month later."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Privacy officer"
# (app label, model) -> actions; and the custom permissions of privacy.PrivacyEvent.
OFFICER = {
    ("privacy", "sourcingrecord"): ("view", "change"),
    ("privacy", "erasurerequest"): ("view", "add", "change"),
    ("privacy", "privacyevent"): ("view", "erase_candidate", "subject_access_candidate", "run_retention"),
    ("privacy", "suppression"): ("view",),
    ("profiles", "candidate"): ("view",),
    ("profiles", "historicalcandidate"): ("view",),
    ("ingestion", "sourcefile"): ("view",),
    ("ingestion", "importbatch"): ("view",),
}
RECRUITER = {("privacy", "erasurerequest"): ("add",)}

# The candidates stored before this app: the same columns the import writes (privacy.services.sourcing_records_add).
BACKFILL_SQL = """
INSERT INTO privacy_sourcingrecord
    (candidate_id, sourced_at, source_batch_id, source_file_id, lawful_basis, notice_due_at, notified_at, notice_channel)
SELECT c.id, c.created_at, f.batch_id, f.id, 'legitimate_interest', c.created_at + interval '1 month', NULL, ''
FROM profiles_candidate c
LEFT JOIN LATERAL (
    SELECT s.id, s.batch_id FROM ingestion_sourcefile s WHERE s.candidate_id = c.id ORDER BY s.created_at, s.id LIMIT 1
) f ON true
ON CONFLICT (candidate_id) DO NOTHING
"""


def _codenames(wanted: dict) -> set[tuple[str, str]]:
    return {
        (app, action if "_" in action else f"{action}_{model}")
        for (app, model), actions in wanted.items()
        for action in actions
    }


def _permissions(apps, wanted: dict):
    Permission = apps.get_model("auth", "Permission")
    codenames = _codenames(wanted)
    return [
        p
        for p in Permission.objects.filter(codename__in=[c for _, c in codenames]).select_related("content_type")
        if (p.content_type.app_label, p.codename) in codenames
    ]


def create_groups(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure the new tables' exist now.
    for label in ("privacy", "profiles", "ingestion"):
        app_config = apps.get_app_config(label)
        models_module, app_config.models_module = getattr(app_config, "models_module", None), True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    officer, _ = Group.objects.get_or_create(name=GROUP)
    officer.permissions.set(_permissions(apps, OFFICER))
    for group in Group.objects.filter(name="Recruiter"):
        group.permissions.add(*_permissions(apps, RECRUITER))


def delete_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name=GROUP).delete()
    for group in Group.objects.filter(name="Recruiter"):
        group.permissions.remove(*_permissions(apps, RECRUITER))


class Migration(migrations.Migration):
    dependencies = [
        ("privacy", "0001_sourcing_suppression_erasure_requests_events"),
        ("profiles", "0016_pipeline_stages_and_entry_events"),
        ("ingestion", "0004_shared_rows_created"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(create_groups, delete_groups),
        # Backwards the table goes with 0001; nothing to undo here.
        migrations.RunSQL(BACKFILL_SQL, migrations.RunSQL.noop),
    ]
