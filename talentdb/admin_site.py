"""The admin site: TalentDB's name on every page, and the index in a recruiter's order.

The index (and the sidebar, which reads the same list) puts the daily work first: candidates, jobs, shortlists and
imports; the people who run the site find users, tokens and login lockouts at the end. The grouping is by the
models' natural labels, so an app this list does not name still appears, in Django's order, before the last ones.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig

# (heading, models as "app_label.model_name", or "app_label.*" for the rest of an app); in this order, first.
FIRST = [
    (
        "Candidates",
        [
            "profiles.candidate",
            "profiles.skill",
            "profiles.skillalias",
            "profiles.repository",
            "profiles.contribution",
            "profiles.mergerecord",
            "profiles.notduplicate",
        ],
    ),
    ("Jobs", ["jobs.*"]),
    ("Shortlists", ["profiles.shortlist", "profiles.savedsearch", "profiles.shortlistentry"]),
    ("Imports", ["ingestion.*"]),
    ("Exports", ["exports.*"]),
            "profiles.identityreview",
]
# Apps for whoever runs the site, at the end in this order.
LAST = ["auth", "authtoken", "axes"]


class TalentDBAdminSite(admin.AdminSite):
    site_header = "TalentDB"
    site_title = "TalentDB"
    index_title = "Recruiting desk"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Panels of other apps on a candidate's profile page: callables ``(request, candidate) -> HTML or None``,
        # HTML already escaped (format_html, render_to_string). An app above ``profiles`` (jobs: "Similar candidates")
        # appends its own when its admin module is imported, so the profile page shows it without importing the app.
        self.candidate_panels: list = []

    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        return apps if app_label else arranged(apps)


class TalentDBAdminConfig(AdminConfig):
    """``django.contrib.admin`` with this site as ``admin.site`` (INSTALLED_APPS lists this config in its place)."""

    default_site = "talentdb.admin_site.TalentDBAdminSite"


def arranged(apps: list[dict]) -> list[dict]:
    """Django's app list (one dict per app, each with its ``models``) regrouped as ``FIRST``, then the apps neither
    list names, then ``LAST``. A heading none of whose models this user may see is left out."""
    models = {
        f"{app['app_label']}.{model['object_name'].lower()}": (app, model) for app in apps for model in app["models"]
    }
    taken: set[str] = set()
    groups = []
    for heading, names in FIRST:
        rows: list[tuple[dict, dict]] = []
        for name in names:
            label, _, model_name = name.partition(".")
            keys = [k for k in models if k.startswith(f"{label}.") and k not in taken] if model_name == "*" else [name]
            for key in keys:
                if key in models and key not in taken:
                    taken.add(key)
                    rows.append(models[key])
        if rows:
            app = rows[0][0]
            groups.append({**app, "name": heading, "models": [model for _, model in rows]})
    rest = [
        {**app, "models": kept}
        for app in apps
        if app["app_label"] not in LAST
        and (kept := [m for m in app["models"] if f"{app['app_label']}.{m['object_name'].lower()}" not in taken])
    ]
    last = sorted((app for app in apps if app["app_label"] in LAST), key=lambda app: LAST.index(app["app_label"]))
    return [*groups, *rest, *last]
