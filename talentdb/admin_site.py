"""The admin site: TalentDB's name on every page, and the index in a recruiter's order.

The index (and the sidebar, which reads the same list) puts the daily work first: candidates, jobs, shortlists and
imports; the people who run the site find users, tokens and login lockouts at the end. The grouping is by the
models' natural labels, so an app this list does not name still appears, in Django's order, before the last ones.

Every admin view (``admin_view``) first refuses, with a 400, an address whose parameters no filter can use
(``query_refusal``): whatever filter, search or lookup a page has, its own or a library's.

The admin classes built of several apps' parts are composed and registered in ``talentdb.admin``: this module is
imported with INSTALLED_APPS, before any model is, so it holds the site and none of the apps' admins.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import HttpResponseBadRequest

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
            "profiles.identityreview",
        ],
    ),
    ("Jobs", ["jobs.*"]),
    ("Shortlists", ["profiles.shortlist", "profiles.savedsearch", "profiles.shortlistentry"]),
    ("Imports", ["ingestion.*"]),
    ("Exports", ["exports.*"]),
]
# Apps for whoever runs the site, at the end in this order.
LAST = ["auth", "authtoken", "axes"]

# A date hierarchy's year, month and day are small numbers: Django answers a malformed one with its "invalid lookup"
# page, but not one past a machine integer (a year of 10**20), which would raise OverflowError.
DATE_PARTS = ("__year", "__month", "__day")
DATE_PART_MAX_CHARS = 4


def query_refusal(request, url_kwargs: dict) -> str | None:
    """Why no admin page can answer this address, or None.

    PostgreSQL holds no NUL character in text: a NUL in any filter (``?status=a%00b``), search or object id would
    reach the database as an error. Refused here once, for every changelist filter and lookup of every registered
    admin, Django's and the libraries' as well as ours, rather than filter by filter."""
    for key, values in request.GET.lists():
        if "\x00" in key or any("\x00" in value for value in values):
            return "A parameter of this address holds a NUL character (%00), which no filter or search accepts."
        if key.endswith(DATE_PARTS) and any(len(value.strip()) > DATE_PART_MAX_CHARS for value in values):
            return f"{key[:100]} is a year, month or day: at most {DATE_PART_MAX_CHARS} digits."
    if any(isinstance(value, str) and "\x00" in value for value in url_kwargs.values()):
        return "This address holds a NUL character (%00), which no object id has."
    return None


class TalentDBAdminSite(admin.AdminSite):
    site_header = "TalentDB"
    site_title = "TalentDB"
    index_title = "Recruiting desk"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Panels of other apps on a candidate's profile page: callables ``(request, candidate) -> HTML or None``,
        # HTML already escaped (format_html, render_to_string). ``talentdb.admin`` lists them (jobs: "Similar
        # candidates"), so the profile page (``profiles``) shows them without importing the apps above it.
        self.candidate_panels: list = []

    def admin_view(self, view, cacheable=False):
        """Django's wrapper (login, CSRF, no caching) around a view that first refuses an unusable address."""

        @wraps(view)
        def guarded(request, *args, **kwargs):
            refusal = query_refusal(request, kwargs)
            if refusal is not None:
                return HttpResponseBadRequest(refusal, content_type="text/plain; charset=utf-8")
            return view(request, *args, **kwargs)

        return super().admin_view(guarded, cacheable)

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
