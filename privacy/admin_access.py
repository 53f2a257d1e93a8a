"""The candidate changelist's "Access request" action: a zip with each selected person's JSON document and summary.

The candidate admin is the domain's (``profiles.admin``), which may not know this app; so the action is added from
here to the registered CandidateAdmin object, once, when the admin modules are imported (``privacy.admin`` imports
this module, after ``profiles.admin`` registered the candidates: ``privacy`` comes after ``profiles`` in
INSTALLED_APPS). Added to the object's own ``actions``, not by subclassing and registering the admin again, so other
apps may add theirs the same way and none replaces another's.
"""

import io
import json
import zipfile

from django.contrib import admin, messages
from django.http import HttpResponse

from privacy import access
from profiles.models import Candidate

# An access request is one person's; a few at once are a household or a merge gone wrong. More is a bulk export,
# which this is not for.
MAX_PEOPLE = 20
PERMISSION = "privacy.subject_access_candidate"


@admin.action(
    description="Access request: everything held on the selected candidates (JSON and summary)",
    permissions=["subject_access"],
)
def subject_access_report(model_admin, request, queryset):
    ids = list(queryset.order_by("pk").values_list("pk", flat=True)[: MAX_PEOPLE + 1])
    if len(ids) > MAX_PEOPLE:
        model_admin.message_user(
            request, f"Select at most {MAX_PEOPLE} candidates for an access request.", messages.ERROR
        )
        return None
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for candidate_id in ids:
            document, summary = access.subject_access_report(candidate_id=candidate_id, user=request.user)
            name = f"subject-access-{candidate_id}"
            archive.writestr(f"{name}.json", json.dumps(document, indent=2, ensure_ascii=False))
            archive.writestr(f"{name}.txt", summary)
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    filename = f"subject-access-{ids[0]}.zip" if len(ids) == 1 else "subject-access.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"  # personal data: no proxy or browser cache keeps a copy
    return response


def _may_request_access(request) -> bool:
    return request.user.has_perm(PERMISSION)


def register_on_candidate_admin(site: admin.AdminSite = admin.site) -> None:
    """Add the action to the site's CandidateAdmin (idempotent: a second import adds nothing)."""
    model_admin = site.get_model_admin(Candidate)
    if subject_access_report not in model_admin.actions:
        model_admin.actions = [*model_admin.actions, subject_access_report]
    model_admin.has_subject_access_permission = _may_request_access


register_on_candidate_admin()
