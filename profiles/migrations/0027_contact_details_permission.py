"""Contact details (e-mail and links) need their own permission: the Recruiter group has it, the Viewer group does not.
Granted here because the groups (0004) were made before it existed."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CODENAME = "see_contact_details"


def _permission(apps):
    Permission = apps.get_model("auth", "Permission")
    return Permission.objects.filter(content_type__app_label="profiles", codename=CODENAME)


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure this one exists now.
    app_config = apps.get_app_config("profiles")
    models_module, app_config.models_module = getattr(app_config, "models_module", None), True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Recruiter"):
        group.permissions.add(*_permission(apps))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Recruiter"):
        group.permissions.remove(*_permission(apps))


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0026_candidate_skill_scores_by_hand"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="candidate",
            options={
                "ordering": ["-updated_at", "-id"],
                "permissions": [("see_contact_details", "Can view contact details")],
            },
        ),
        migrations.RunPython(grant, revoke),
    ]
