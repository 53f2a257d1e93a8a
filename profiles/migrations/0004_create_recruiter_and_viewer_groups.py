"""Groups for the admin: Recruiter (edits candidates and working lists, uploads imports) and Viewer (read-only)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

# (app label, model name) → actions. No auth models: neither group administers users.
RECRUITER = {
    ("profiles", "candidate"): ["view", "change"],
    ("profiles", "historicalcandidate"): ["view"],
    ("profiles", "candidateskill"): ["view", "add", "change", "delete"],
    ("profiles", "contribution"): ["view", "add", "change", "delete"],
    ("profiles", "education"): ["view", "add", "change", "delete"],
    # Tables that came later (0013); 0014 grants them to existing groups. Named here for what the groups are today
    # (tests rebuild the groups with this function); on a database being migrated they do not exist yet.
    ("profiles", "position"): ["view", "add", "change", "delete"],
    ("profiles", "spokenlanguage"): ["view", "add", "change", "delete"],
    ("profiles", "candidateidentifier"): ["view"],
    ("profiles", "skill"): ["view", "change"],
    ("profiles", "skillalias"): ["view"],
    ("profiles", "repository"): ["view"],
    ("profiles", "shortlist"): ["view", "add", "change", "delete"],
    ("profiles", "shortlistentry"): ["view", "add", "change", "delete"],
    ("profiles", "shortlistentryevent"): ["view", "add"],  # came later too: jobs 0002 grants it
    ("profiles", "savedsearch"): ["view", "add", "change", "delete"],
    ("profiles", "notduplicate"): ["view", "add"],
    ("profiles", "mergerecord"): ["view", "add"],
    ("profiles", "identityreview"): ["view"],  # came later too: 0024 grants it
    # Uploads create batches; "change" on a source file is what the re-parse / re-import actions need. No delete.
    ("ingestion", "importbatch"): ["view", "add"],
    ("ingestion", "sourcefile"): ["view", "change"],
    # Jobs (issue 16) came later: jobs 0002 grants them to existing groups.
    ("jobs", "job"): ["view", "add", "change"],
    ("jobs", "jobskill"): ["view", "add", "change", "delete"],
}
VIEWER_APPS = ("profiles", "ingestion", "jobs")
GROUP_NAMES = ("Recruiter", "Viewer")


def create_groups(apps, schema_editor):
    # Permissions are normally created after all migrations ran; make sure they exist now.
    for app_config in apps.get_app_configs():
        models_module, app_config.models_module = getattr(app_config, "models_module", None), True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    recruiter, _ = Group.objects.get_or_create(name="Recruiter")
    codenames = {(app, f"{action}_{model}") for (app, model), actions in RECRUITER.items() for action in actions}
    recruiter.permissions.set(
        [
            p
            for p in Permission.objects.filter(content_type__app_label__in=VIEWER_APPS).select_related("content_type")
            if (p.content_type.app_label, p.codename) in codenames
        ]
    )
    viewer, _ = Group.objects.get_or_create(name="Viewer")
    viewer.permissions.set(
        Permission.objects.filter(content_type__app_label__in=VIEWER_APPS, codename__startswith="view_")
    )


def delete_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUP_NAMES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("profiles", "0003_historicalcandidate_skills_snapshot"),
        ("ingestion", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, delete_groups)]
