"""The Recruiter group edits a candidate's jobs and spoken languages as it edits the other rows of the change form; the
Viewer group reads them. Both tables came after the groups (0004), whose permissions were those of the tables then."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODELS = ("position", "spokenlanguage")
RECRUITER_ACTIONS = ("view", "add", "change", "delete")


def _permissions(apps, actions):
    Permission = apps.get_model("auth", "Permission")
    codenames = [f"{action}_{model}" for model in MODELS for action in actions]
    return Permission.objects.filter(content_type__app_label="profiles", codename__in=codenames)


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure the new tables' exist now.
    app_config = apps.get_app_config("profiles")
    models_module, app_config.models_module = getattr(app_config, "models_module", None), True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Recruiter"):
        group.permissions.add(*_permissions(apps, RECRUITER_ACTIONS))
    for group in Group.objects.filter(name="Viewer"):
        group.permissions.add(*_permissions(apps, ("view",)))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name__in=["Recruiter", "Viewer"]):
        group.permissions.remove(*_permissions(apps, RECRUITER_ACTIONS))


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0013_positions_spoken_languages_education_dates"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
