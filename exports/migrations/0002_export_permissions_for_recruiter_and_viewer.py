"""Recruiters may start export jobs, see and delete their own. Viewers stay read-only: starting a job writes a row, so
they stream what the admin's CSV action streams (up to EXPORT_STREAM_MAX_ROWS) and see an export list of their own."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GRANTS = {"Recruiter": ["view", "add", "delete"], "Viewer": ["view"]}


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure the exports app's exist now.
    app_config = apps.get_app_config("exports")
    models_module, app_config.models_module = getattr(app_config, "models_module", None), True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, actions in GRANTS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(
                content_type__app_label="exports", codename__in=[f"{action}_export" for action in actions]
            )
        )


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name__in=GRANTS):
        group.permissions.remove(*Permission.objects.filter(content_type__app_label="exports"))


class Migration(migrations.Migration):
    dependencies = [
        ("exports", "0001_initial"),
        ("profiles", "0004_create_recruiter_and_viewer_groups"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
