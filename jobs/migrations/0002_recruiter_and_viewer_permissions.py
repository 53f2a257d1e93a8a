"""The Recruiter group creates and edits jobs and their criteria and writes the pipeline's events; the Viewer group reads
them. The tables came after the groups (profiles 0004), whose permissions were those of the tables then."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

# (app label, model) -> the Recruiter's actions; the Viewer gets "view" of each. No deleting of jobs (a pipeline's
# history is kept: a job is closed instead), nor of events.
RECRUITER = {
    ("jobs", "job"): ("view", "add", "change"),
    ("jobs", "jobskill"): ("view", "add", "change", "delete"),
    ("profiles", "shortlistentryevent"): ("view", "add"),
}


def _permissions(apps, *, viewer: bool):
    Permission = apps.get_model("auth", "Permission")
    wanted = [
        (app, f"{action}_{model}") for (app, model), actions in RECRUITER.items() for action in actions
    ]
    if viewer:
        wanted = [(app, codename) for app, codename in wanted if codename.startswith("view_")]
    return [
        p
        for p in Permission.objects.filter(codename__in=[c for _, c in wanted]).select_related("content_type")
        if (p.content_type.app_label, p.codename) in wanted
    ]


def grant(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure the new tables' exist now.
    for label in ("jobs", "profiles"):
        app_config = apps.get_app_config(label)
        models_module, app_config.models_module = getattr(app_config, "models_module", None), True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Recruiter"):
        group.permissions.add(*_permissions(apps, viewer=False))
    for group in Group.objects.filter(name="Viewer"):
        group.permissions.add(*_permissions(apps, viewer=True))


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name__in=["Recruiter", "Viewer"]):
        group.permissions.remove(*_permissions(apps, viewer=False))


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0001_jobs_and_their_criteria_skills"),
        ("profiles", "0016_pipeline_stages_and_entry_events"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
