"""The candidate search results as a recruiter acts on them: the columns of a row (the match and the asked-for skills'
scores when skills are filtered), and "Add to job" / "Add to shortlist" for one candidate or a selection.

Adding goes through ``profiles.services.shortlist_add_candidates``: a job's pipeline is a shortlist the job owns, so
adding to a job needs nothing of the jobs app (which sits above this one).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import url_has_allowed_host_and_scheme

from profiles import services
from profiles.admin.common import action_page, people
from profiles.models import Candidate, Shortlist, Skill
from profiles.search.skills import resolve_skills
from profiles.search.terms import parse_skill_term
from profiles.workspace import pipelines_to_add_to, shortlists_to_add_to

SKILL_TERM_PARAMS = ("skill", "any_skill")


def requested_skills(params) -> list[tuple[int, str]]:
    """(id, display name) of the skills a search asks for (``skill``, ``any_skill``), in the order asked; those
    nobody has, and terms that are not valid (the page says so already), are left out."""
    labels: list[str] = []
    for name in SKILL_TERM_PARAMS:
        for value in params.getlist(name):
            for raw in value.split(",") if name == "any_skill" else [value]:
                try:
                    label = parse_skill_term(raw).label
                except ValidationError:
                    continue
                if label not in labels:
                    labels.append(label)
    if not labels:
        return []
    resolved = resolve_skills(set(labels))
    ids = [resolved[label][0] for label in labels if label in resolved]
    names = dict(Skill.objects.filter(pk__in=ids).values_list("pk", "name"))
    seen: set[int] = set()
    skills = []
    for pk in ids:
        if pk in names and pk not in seen:
            seen.add(pk)
            skills.append((pk, names[pk]))
    return skills


class RequestedScores:
    """A column of the results: the candidate's score of each skill the search asks for, "–" for one they lack. A
    callable (Django's admin accepts one in ``list_display``) made per request, as the skills are the request's."""

    __name__ = "requested_skills"  # the column's CSS class (field-requested_skills)
    short_description = "asked-for skills"

    def __init__(self, skills: list[tuple[int, str]]):
        self.skills = skills

    def __call__(self, candidate: Candidate) -> str:
        scores = candidate.skill_scores or {}
        return format_html_join(
            " ",
            '<span class="score {}" title="{} {}">{} <b>{}</b></span>',
            (
                (
                    "score-missing" if scores.get(str(pk)) is None else "score-held",
                    name,
                    "not held" if scores.get(str(pk)) is None else f"{scores[str(pk)]} of 10",
                    name,
                    "–" if scores.get(str(pk)) is None else scores[str(pk)],
                )
                for pk, name in self.skills
            ),
        )


class AddToListForm(forms.Form):
    """Which list to add the candidates to: one of the user's shortlists (or a new one), or one of their jobs."""

    shortlist = forms.ModelChoiceField(queryset=Shortlist.objects.none(), required=False, label="Shortlist")
    new_name = forms.CharField(required=False, max_length=200, label="Name of the new shortlist")

    def __init__(self, *args, user, to_job: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.to_job = to_job
        field = self.fields["shortlist"]
        if to_job:
            field.label, field.required, field.empty_label = "Job", True, None
            field.queryset = pipelines_to_add_to(user=user)
            del self.fields["new_name"]
        else:
            field.empty_label = "— a new shortlist —"
            field.queryset = shortlists_to_add_to(user=user)

    def clean(self):
        cleaned = super().clean()
        if not self.to_job and not cleaned.get("shortlist") and not (cleaned.get("new_name") or "").strip():
            raise ValidationError("Choose one of your shortlists or give a name for a new one.")
        return cleaned


def safe_next(request) -> str | None:
    """Where to go once added: the page the recruiter came from (a profile), if it is on this site."""
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


class SearchResultsMixin:
    """For ``CandidateAdmin``: the asked-for skills' columns, a row's add buttons, and the add actions."""

    def get_list_display(self, request):
        columns = list(super().get_list_display(request))
        # Django asks for the columns several times a request; the skills are looked up once.
        if not hasattr(request, "requested_skills"):
            request.requested_skills = requested_skills(request.GET)
        skills = request.requested_skills
        if skills:
            columns[1:1] = ["match", RequestedScores(skills)]
        if self.has_shortlist_permission(request):
            columns.append("add_to")
        return columns

    @admin.display(description="match", ordering="match")
    def match(self, candidate: Candidate) -> str:
        value = getattr(candidate, "match", None)
        return "–" if value is None else format_html('<span class="match">{}</span>', value)

    @admin.display(description="add to")
    def add_to(self, candidate: Candidate) -> str:
        return format_html(
            '<a class="row-add" href="{}" title="Add {} to one of your jobs">Job</a> '
            '<a class="row-add" href="{}" title="Add {} to a shortlist">List</a>',
            reverse("admin:profiles_candidate_add_to_job", args=[candidate.pk]),
            candidate.name,
            reverse("admin:profiles_candidate_add_to_shortlist", args=[candidate.pk]),
            candidate.name,
        )

    # --- Adding one candidate (a row's buttons, the profile's) ------------------------------------------------------

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/add-to-job/",
                view(self.add_one_view),
                {"action": "add_to_job"},
                name="profiles_candidate_add_to_job",
            ),
            path(
                "<path:object_id>/add-to-shortlist/",
                view(self.add_one_view),
                {"action": "add_to_shortlist"},
                name="profiles_candidate_add_to_shortlist",
            ),
            *super().get_urls(),
        ]

    def add_one_view(self, request, object_id, action: str):
        """The add page for one candidate; its form posts the changelist's action with this one candidate selected,
        and comes back to the page given as ``next`` (the profile)."""
        if not self.has_shortlist_permission(request):
            raise PermissionDenied
        candidate = self.get_object(request, unquote(object_id))
        if candidate is None:
            raise Http404("No such candidate.")
        to_job = action == "add_to_job"
        return action_page(
            self,
            request,
            [candidate],
            action,
            "Add to a job" if to_job else "Add to a shortlist",
            form=AddToListForm(user=request.user, to_job=to_job),
            to_job=to_job,
            selected=[candidate.pk],
            select_across="0",
            form_action=reverse("admin:profiles_candidate_changelist"),
            next=request.GET.get("next") or reverse("admin:profiles_candidate_change", args=[candidate.pk]),
        )

    # --- Actions ----------------------------------------------------------------------------------------------------

    def has_shortlist_permission(self, request) -> bool:
        return request.user.has_perm("profiles.add_shortlistentry")

    @admin.action(description="Add selected candidates to a shortlist", permissions=["shortlist"])
    def add_to_shortlist(self, request, queryset):
        return self._add_to_list(request, queryset, to_job=False)

    @admin.action(description="Add selected candidates to a job", permissions=["shortlist"])
    def add_to_job(self, request, queryset):
        return self._add_to_list(request, queryset, to_job=True)

    def _add_to_list(self, request, queryset, *, to_job: bool):
        form = AddToListForm(request.POST if "apply" in request.POST else None, user=request.user, to_job=to_job)
        if form.is_bound and form.is_valid():
            shortlist = form.cleaned_data["shortlist"]
            if shortlist is None:
                shortlist, _ = services.shortlist_get_or_create(owner=request.user, name=form.cleaned_data["new_name"])
            added = services.shortlist_add_candidates(
                shortlist=shortlist, candidate_ids=queryset.values_list("pk", flat=True), user=request.user
            )
            url = reverse("admin:profiles_shortlist_change", args=[shortlist.pk])
            where = "the pipeline of the job" if to_job else "shortlist"
            self.message_user(
                request,
                format_html("{} added to {} <a href='{}'>{}</a>.", people(added), where, url, shortlist.name),
                messages.SUCCESS,
            )
            target = safe_next(request)
            return HttpResponseRedirect(target) if target else None
        action = "add_to_job" if to_job else "add_to_shortlist"
        title = "Add to a job" if to_job else "Add to a shortlist"
        return action_page(
            self, request, queryset, action, title, form=form, to_job=to_job, next=request.POST.get("next", "")
        )
