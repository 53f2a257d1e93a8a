"""The candidate's profile page: what a recruiter reads, laid out like the source profile, with the change form one
"Edit" away.

``<id>/change/`` answers a GET with the profile and a POST as the change form always did (a form posted there still
saves); the change form itself lives at ``<id>/edit/``. Reads go through ``profiles.selectors.candidate_profile``;
what the page shows of other apps (the source files, a shortlist's job) is found through the admin site and the
models' relations, as ``profiles`` imports neither app.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone

from profiles.contacts import may_see_contact_details, profile_links
from profiles.models import Candidate
from profiles.selectors import candidate_profile


def title_at_company(candidate: Candidate) -> str:
    """ "Title at Company", or whichever of the two there is."""
    return " at ".join(part for part in (candidate.title, candidate.company) if part)


def role_line(candidate: Candidate) -> str:
    """``title_at_company``, unless the headline says it already (imports often take one from the other)."""
    role = title_at_company(candidate)
    return "" if role.casefold() in candidate.headline.casefold() else role


def duration(start: dt.date | None, end: dt.date | None, *, today: dt.date | None = None) -> str:
    """ "3 yrs 2 mos" from the start month to the end month (or to this month), both counted; "" without a start."""
    if start is None:
        return ""
    until = end or (today or timezone.localdate())
    months = (until.year - start.year) * 12 + until.month - start.month + 1
    if months <= 0:
        return ""
    years, months = divmod(months, 12)
    parts = []
    if years:
        parts.append(f"{years} yr" if years == 1 else f"{years} yrs")
    if months:
        parts.append(f"{months} mo" if months == 1 else f"{months} mos")
    return " ".join(parts)


class CandidateProfilePageMixin:
    """The profile as the candidate's default page; the change form at ``<id>/edit/``."""

    profile_template = "admin/profiles/candidate/profile.html"

    def get_urls(self):
        return [
            path(
                "<path:object_id>/edit/",
                self.admin_site.admin_view(self.edit_view),
                name="profiles_candidate_edit",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method in ("GET", "HEAD"):
            return self.profile_view(request, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def edit_view(self, request, object_id, form_url="", extra_context=None):
        return super().change_view(request, object_id, form_url, extra_context)

    def profile_view(self, request, object_id):
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        try:
            profile = candidate_profile(candidate_id=int(unquote(object_id)), user=request.user)
        except (ValueError, Candidate.DoesNotExist):
            raise Http404(f"No candidate with the id “{object_id}”.") from None
        candidate = profile.candidate
        show_contacts = may_see_contact_details(request.user)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": candidate.name,
            "subtitle": None,
            "candidate": candidate,
            "profile": profile,
            "show_contacts": show_contacts,
            "links": profile_links(candidate) if show_contacts else [],
            "role": role_line(candidate),
            "positions": [(row, duration(row.start, row.end)) for row in candidate.position_rows],
            "entries": [(entry, owner, self._owner_url(request, owner)) for entry, owner in profile.entries],
            "sources": self._sources_for(request, candidate),
            "may_edit": self.has_change_permission(request, candidate),
            "may_add_to_lists": request.user.has_perm("profiles.add_shortlistentry"),
            "has_view_permission": True,
            "panels": self._panels_for(request, candidate),
        }
        return TemplateResponse(request, self.profile_template, context)

    def _panels_for(self, request, candidate: Candidate) -> list[str]:
        """The HTML of the panels other apps registered on the site (``TalentDBAdminSite.candidate_panels``), those
        that have something to show, in their order."""
        panels = (panel(request, candidate) for panel in getattr(self.admin_site, "candidate_panels", []))
        return [html for html in panels if html]

    def _owner_url(self, request, owner) -> str | None:
        """The admin page of a shortlist's owner (a job), if this user may open it."""
        if owner is None or not self.admin_site.is_registered(type(owner)):
            return None
        if not self.admin_site.get_model_admin(type(owner)).has_view_permission(request, owner):
            return None
        return reverse(f"admin:{owner._meta.app_label}_{owner._meta.model_name}_change", args=[owner.pk])
