"""The "Access request" admin action: a zip with each selected person's JSON document and summary.

It is an action of the candidate changelist (``privacy.admin.CandidatePrivacyActions``, which the site composes into
the candidate admin in ``talentdb.admin``) and of the sourcing records' (``privacy.admin_notices``: one record per
candidate, searchable by name). ``register_on_candidate_admin`` adds it to the candidate admin of another site.
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
    # A changelist of candidates, or of rows with a candidate (the sourcing records).
    column = "pk" if queryset.model is Candidate else "candidate_id"
    ids = list(queryset.order_by(column).values_list(column, flat=True)[: MAX_PEOPLE + 1])
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


def may_request_access(request) -> bool:
    return request.user.has_perm(PERMISSION)


def register_on_candidate_admin(site: admin.AdminSite = admin.site) -> None:
    """Add the action to the admin registered for candidates, on the object (idempotent)."""
    model_admin = site.get_model_admin(Candidate)
    if subject_access_report not in model_admin.actions:
        model_admin.actions = [*model_admin.actions, subject_access_report]
    model_admin.has_subject_access_permission = may_request_access
