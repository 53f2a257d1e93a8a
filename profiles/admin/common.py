"""Small pieces the candidate admin's actions share: counted wording and the page an action shows before it acts."""

from __future__ import annotations

from django.contrib import admin
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
