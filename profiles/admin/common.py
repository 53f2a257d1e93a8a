"""Small pieces the candidate admin shares: counted wording, the page an action shows before it acts, and the
permission check simple-history's revert form lacks."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse


def people(n: int) -> str:
    return f"{n} candidate" if n == 1 else f"{n} candidates"


def action_page(model_admin, request, candidates, action: str, title: str, **context) -> TemplateResponse:
    """The intermediate page of a changelist action (``admin/profiles/candidate/<action>.html``): it lists the
    selected candidates and posts the action again, with the selection, once the recruiter has chosen."""
    return TemplateResponse(
        request,
        f"admin/profiles/candidate/{action}.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "opts": model_admin.model._meta,
            "candidates": candidates,
            "action": action,
            "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
            "select_across": request.POST.get("select_across", "0"),
            **context,
        },
    )


class HistoryRevertNeedsChangePermission:
    """A mixin for a ``SimpleHistoryAdmin``: its revert form (``history_form_view``) saves any POST from a user who may
    view the object, since django-simple-history only checks "view or change" before saving. Here a POST there needs
    what the change form needs: the change permission (and the add permission to bring back a deleted object).
    Reading an old version stays open to viewers."""

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":
            obj = self.get_object(request, unquote(object_id))
            may_write = self.has_change_permission(request, obj) and not self.revert_disabled(request, obj)
            if not may_write or (obj is None and not self.has_add_permission(request)):
                raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context=extra_context)


class NoRelatedObjectLinks:
    """A mixin for an admin class or inline whose form picks a shared row (a skill, a repository): Django puts links
    beside the picker that add, change, view or delete that row itself, for every candidate who has it. A red ×
    beside a candidate's skill reads as "remove this skill from the candidate" but deletes the skill from the whole
    database; none of them belongs on a candidate's page, where the candidate is what is edited."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if formfield is not None and isinstance(formfield.widget, RelatedFieldWidgetWrapper):
            widget = formfield.widget
            widget.can_add_related = widget.can_change_related = False
            widget.can_delete_related = widget.can_view_related = False
        return formfield
