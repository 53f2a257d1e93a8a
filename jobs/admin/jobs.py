"""Jobs in the admin (issue 16): "Add job" takes a title and a pasted description, extracts the criteria on save and
opens the job's **matches**: the criteria as chips the recruiter edits (each edit a ``jobs.services.job_update``, the
candidates ranked again), then the candidates ranked by them (``jobs.ranking``), each added to the pipeline in one
click. The **pipeline board** shows the pipeline by stage, a candidate moved on in one click. A job's page edits its
fields and criteria (the skills as rows inline) and links to both, and to its pipeline's shortlist page (notes, CSV).
A candidate's profile shows "Similar candidates" through the panel this module registers on the admin site.

Jobs are their owner's as shortlists are: the list shows what ``jobs.selectors.jobs_for`` lets the user read (their
own and those shared with the team), only the owner changes one, and every write is a ``jobs.services`` call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.contrib.postgres.forms import SimpleArrayField
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme

from core.countries import country_code, country_name
from core.errors import ApplicationError
from core.labels import label_key
from jobs import services
from jobs.criteria import DEFAULT_MIN_SCORE, Criteria
from jobs.models import Job, JobSkill
from jobs.ranking import RELATED_WEIGHT, candidates_explain, candidates_ranked, similar_candidates
from jobs.selectors import PIPELINE_STAGES, description_checked, job_criteria, job_pipeline, jobs_for
from profiles.filters import resolve_skills
from profiles.models import Candidate, ShortlistEntry, Skill
from profiles.selectors import related_skills_for, working_list_permits

CRITERIA_FIELDS = ("countries", "remote", "min_years_coding", "keywords")


def _writable(request, job: Job | None) -> bool:
    return job is None or working_list_permits(user=request.user, working_list=job, for_writing=True)


def _checked_description(text: str) -> str:
    try:
        # The service's own checks (empty, past JOB_DESCRIPTION_MAX_CHARS, binary), not its reading: saving reads the
        # description once, in jobs.services.
        description_checked(text)
    except ApplicationError as exc:
        raise ValidationError(exc.message) from exc
    return text


class JobAddForm(forms.ModelForm):
    class Meta:
        model = Job
        fields = ["title", "description", "shared"]
        widgets = {"description": forms.Textarea(attrs={"rows": 24, "cols": 100})}
        help_texts = {"description": "Paste the job post: its skills, years, place and remote are read on save."}

    def clean_description(self) -> str:
        return _checked_description(self.cleaned_data["description"])


class JobChangeForm(forms.ModelForm):
    # Names or codes, as the API takes them; stored as ISO alpha-2 (clean_countries).
    countries = SimpleArrayField(
        forms.CharField(max_length=80), required=False, help_text="Countries, comma-separated: names or ISO codes."
    )

    class Meta:
        model = Job
        fields = ["title", "status", "shared", "description", *CRITERIA_FIELDS]
        widgets = {"description": forms.Textarea(attrs={"rows": 12, "cols": 100})}

    def clean_description(self) -> str:
        return _checked_description(self.cleaned_data["description"])

    def clean_countries(self) -> list[str]:
        codes = []
        for raw in self.cleaned_data["countries"]:
            code = country_code(raw)
            if not code:
                raise ValidationError(f"“{raw}” is not a country name or ISO code.")
            codes.append(code)
        return list(dict.fromkeys(codes))


# --- The matches page: criteria chips and their forms ------------------------------------------------------------

MATCHES_PER_PAGE = 25
VIEW_CANDIDATE_PERMISSION = "profiles.view_candidate"
ALSO_CONSIDER = 6  # related skills offered beside the criteria, each added as preferred in one click
SIMILAR_SHOWN = 5  # "Similar candidates" on a profile: a glance, the API's /similar/ has the rest
# The columns a ranked row shows and candidates_explain reads (the scores), as the API's match endpoint loads them.
RANKED_FIELDS = ("id", "name", "title", "company", "city", "region", "country", "country_code", "skill_scores")
SKILL_KINDS = [(kind.value, kind.label) for kind in JobSkill.Kind]
REMOTE_CHOICES = [("", "Either"), ("true", "Remote"), ("false", "Not remote (on-site or hybrid)")]


class SkillChipForm(forms.Form):
    """Add a skill to the criteria, or change how it counts: a skill already in them moves to the kind chosen."""

    skill = forms.CharField(max_length=200, label="Skill", help_text="A skill's name, slug or alias: Go, golang, c++")
    kind = forms.ChoiceField(choices=SKILL_KINDS, initial=JobSkill.Kind.REQUIRED, label="As")
    min_score = forms.IntegerField(
        required=False,
        label="Minimum score",
        help_text="0-10, for a required skill",
        error_messages={"invalid": "The minimum score is a whole number from 0 to 10."},
    )

    def clean_skill(self) -> str:
        label = self.cleaned_data["skill"].strip()
        found = resolve_skills({label_key(label)})
        if label_key(label) not in found:
            raise ValidationError(
                f"No skill called “{label}” is in the database. Type it as candidates' profiles name it "
                "(a name, slug or alias, such as “PostgreSQL” or “postgres”)."
            )
        return found[label_key(label)][1]  # the canonical slug

    def clean_min_score(self) -> int | None:
        score = self.cleaned_data["min_score"]
        if score is not None and not 0 <= score <= 10:
            raise ValidationError("The minimum score is a whole number from 0 to 10.")
        return score


class CountryChipForm(forms.Form):
    country = forms.CharField(max_length=80, label="Country", help_text="A name or an ISO code: Germany, DE")

    def clean_country(self) -> str:
        raw = self.cleaned_data["country"]
        code = country_code(raw)
        if not code:
            raise ValidationError(f"“{raw}” is not a country name or ISO code.")
        return code


class KeywordChipForm(forms.Form):
    keyword = forms.CharField(max_length=100, label="Keyword", help_text="Matched against summaries: senior, payments")


class YearsForm(forms.Form):
    min_years_coding = forms.IntegerField(
        required=False,
        label="Years of coding, at least",
        min_value=0,
        max_value=80,
        error_messages={
            "invalid": "Years are a whole number from 0 to 80, or empty for any.",
            "min_value": "Years are a whole number from 0 to 80, or empty for any.",
            "max_value": "Years are a whole number from 0 to 80, or empty for any.",
        },
    )


class RemoteForm(forms.Form):
    remote = forms.ChoiceField(choices=REMOTE_CHOICES, required=False, label="Remote")


# op -> the form that reads it; "remove" ops name the value taken off (no form: a chip's "×").
CHIP_FORMS = {
    "add_skill": SkillChipForm,
    "add_country": CountryChipForm,
    "add_keyword": KeywordChipForm,
    "set_years": YearsForm,
    "set_remote": RemoteForm,
}
REMOVALS = {"remove_skill": "skill", "remove_country": "country", "remove_keyword": "keyword"}


def _skill_overrides(criteria: Criteria, *, without: str, add: tuple[str, str, int | None] | None = None) -> dict:
    """The criteria's three skill lists in the override shape of ``job_update``, ``without`` one slug (a chip
    removed), and ``add`` = (slug, kind, min_score) appended to its kind (a chip added or moved)."""
    lists = {
        "required": [{"skill": slug, "min_score": score} for slug, score in criteria.required if slug != without],
        "preferred": [{"skill": slug} for slug in criteria.preferred if slug != without],
        "excluded": [slug for slug in criteria.excluded if slug != without],
    }
    if add is not None:
        slug, kind, min_score = add
        if kind == JobSkill.Kind.REQUIRED:
            score = DEFAULT_MIN_SCORE if min_score is None else min_score
            lists["required"].append({"skill": slug, "min_score": score})
        elif kind == JobSkill.Kind.PREFERRED:
            lists["preferred"].append({"skill": slug})
        else:
            lists["excluded"].append(slug)
    return lists


def chip_overrides(op: str, criteria: Criteria, data) -> dict:
    """What one chip edit changes, as ``job_update``'s ``criteria`` mapping (it replaces the fields named). ``data``:
    the removed value for a removal, else the form's cleaned data."""
    if op == "remove_skill":
        return _skill_overrides(criteria, without=data)
    if op == "remove_country":
        return {"countries": [code for code in criteria.countries if code != data]}
    if op == "remove_keyword":
        return {"keywords": [word for word in criteria.keywords if word != data]}
    if op == "add_skill":
        slug = data["skill"]
        return _skill_overrides(criteria, without=slug, add=(slug, data["kind"], data["min_score"]))
    if op == "add_country":
        return {"countries": [*criteria.countries, data["country"]]}
    if op == "add_keyword":
        return {"keywords": [*criteria.keywords, " ".join(data["keyword"].split())]}
    if op == "set_years":
        return {"min_years_coding": data["min_years_coding"]}
    if op == "set_remote":
        return {"remote": {"": None, "true": True, "false": False}[data["remote"]]}
    raise ValueError(op)


@dataclass
class Chip:
    """One criterion as the page shows it; ``op`` and ``value`` are what its "×" posts."""

    label: str
    op: str
    value: str
    kind: str = ""
    title: str = ""

    @property
    def field(self) -> str:
        return REMOVALS[self.op]


@dataclass
class MatchRow:
    candidate: Candidate
    # (skill name, score, required, the criteria's skill it is related to: "" unless the match was widened to it)
    matched: list[tuple[str, int, bool, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    evidence: list[dict] = field(default_factory=list)
    stage: str = ""  # its stage's label when already in the pipeline

    @property
    def place(self) -> str:
        return ", ".join(part for part in (self.candidate.city, self.candidate.country_code) if part)


def _skill_chips(job: Job) -> dict[str, list[Chip]]:
    chips: dict[str, list[Chip]] = {kind: [] for kind in JobSkill.Kind.values}
    for row in sorted(job.skills.all(), key=lambda row: row.pk):  # prefetched by jobs_for
        label = f"{row.skill.name} ≥ {row.min_score}" if row.kind == JobSkill.Kind.REQUIRED else row.skill.name
        chips[row.kind].append(Chip(label=label, op="remove_skill", value=row.skill.slug, kind=row.kind))
    return chips


def _name(names: dict[str, str], slug: str | None) -> str:
    return names.get(slug, slug) if slug else ""


def _explained_rows(
    job: Job, candidates: list[Candidate], criteria: Criteria, *, widen: bool = False
) -> list[MatchRow]:
    """The rows of a page of ranked candidates: ``candidates_explain`` (two queries; widened, three, and one for the
    names of the related skills shown) and their pipeline stages (one)."""
    candidates_explain(candidates, criteria, widen=widen)
    names = {row.skill.slug: row.skill.name for row in job.skills.all()}
    related = {m["skill"] for c in candidates for m in c.matched if "related_to" in m}
    if related:
        names.update(Skill.objects.filter(slug__in=related).values_list("slug", "name"))
    stages = {}
    if candidates:
        stages = dict(
            ShortlistEntry.objects.filter(
                shortlist_id=job.pipeline_id, candidate_id__in=[c.pk for c in candidates]
            ).values_list("candidate_id", "status")
        )
    labels = dict(ShortlistEntry.Status.choices)
    return [
        MatchRow(
            candidate=c,
            matched=[
                (names.get(m["skill"], m["skill"]), m["score"], m["required"], _name(names, m.get("related_to")))
                for m in c.matched
            ],
            missing=[names.get(slug, slug) for slug in c.missing],
            evidence=c.evidence,
            stage=labels.get(stages.get(c.pk, ""), ""),
        )
        for c in candidates
    ]


MAX_PAGE = 4000  # 100,000 candidates deep: past it a recruiter narrows the criteria (and OFFSET stays in range)


def _page_number(raw: str | None) -> int:
    try:
        return min(max(int(raw or 1), 1), MAX_PAGE)
    except ValueError:
        return 1


def _posted_id(raw: str | None) -> int | None:
    """A posted primary key, or None for anything a bigint column cannot hold (a query would fail, not miss)."""
    try:
        value = int(raw or "")
    except ValueError:
        return None
    return value if 0 < value < 2**63 else None


def _next_stage(stage: str) -> str | None:
    """The stage after ``stage`` on the way to "hired"; None from "hired" and "rejected" (the ends)."""
    order = [s for s in PIPELINE_STAGES if s != ShortlistEntry.Status.REJECTED]
    if stage not in order or stage == order[-1]:
        return None
    return order[order.index(stage) + 1]


class JobSkillInline(admin.TabularInline):
    """The job's criteria skills; changed only by whoever may change the job (``obj``, the job of the page)."""

    model = JobSkill
    extra = 0
    fields = ["skill", "kind", "min_score"]
    autocomplete_fields = ["skill"]
    verbose_name, verbose_name_plural = "criteria skill", "criteria skills"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("skill")

    def has_add_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_delete_permission(request, obj)


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "status", "shared", "skills_summary", "work_links", "pipeline_link", "created_at"]
    list_filter = ["status", "shared", ("owner", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["title"]
    readonly_fields = ["owner", "pipeline_link", "created_at", "updated_at"]
    inlines = [JobSkillInline]
    list_per_page = 50

    def get_queryset(self, request):
        return jobs_for(user=request.user)

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = JobChangeForm if obj is not None else JobAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return list(JobAddForm.Meta.fields)
        return [*JobChangeForm.Meta.fields, *self.readonly_fields]

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is not None else []

    def get_inlines(self, request, obj=None):
        return self.inlines if obj is not None else []  # a new job's skills are read from its description

    def has_change_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return _writable(request, obj) and super().has_delete_permission(request, obj)

    def history_view(self, request, object_id, extra_context=None):
        # Django looks the job up (scoped: "no such job") before checking any permission; refuse first, as the
        # change page does, so a user without the view permission learns nothing (as profiles' working lists do).
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        return super().history_view(request, object_id, extra_context=extra_context)

    @admin.display(description="criteria skills")
    def skills_summary(self, job: Job) -> str:
        rows = sorted(job.skills.all(), key=lambda row: row.pk)  # prefetched by jobs_for
        parts = [
            f"{r.skill.slug} ≥ {r.min_score}" if r.kind == JobSkill.Kind.REQUIRED else f"{r.skill.slug} ({r.kind})"
            for r in rows
        ]
        return ", ".join(parts) or "—"

    @admin.display(description="candidates")
    def work_links(self, job: Job) -> str:
        return format_html(
            "<a href='{}'>Matches</a> · <a href='{}'>Board</a>",
            reverse("admin:jobs_job_matches", args=[job.pk]),
            reverse("admin:jobs_job_pipeline_board", args=[job.pk]),
        )

    @admin.display(description="pipeline")
    def pipeline_link(self, job: Job) -> str:
        if not job.pk:
            return "—"
        url = reverse("admin:profiles_shortlist_change", args=[job.pipeline_id])
        return format_html("<a href='{}'>{}</a>", url, job.pipeline.name)

    # --- Matches, criteria chips and the pipeline board ------------------------------------------------------------

    matches_template = "admin/jobs/job/matches.html"
    board_template = "admin/jobs/job/pipeline_board.html"

    def get_urls(self):
        view = self.admin_site.admin_view  # login, staff, CSRF on every POST
        return [
            path("<int:object_id>/matches/", view(self.matches_view), name="jobs_job_matches"),
            path("<int:object_id>/matches/criteria/", view(self.criteria_view), name="jobs_job_criteria"),
            path("<int:object_id>/matches/add/", view(self.pipeline_add_view), name="jobs_job_pipeline_add"),
            path("<int:object_id>/pipeline/board/", view(self.pipeline_board_view), name="jobs_job_pipeline_board"),
            path("<int:object_id>/pipeline/move/", view(self.pipeline_move_view), name="jobs_job_pipeline_move"),
            path("similar/<int:candidate_id>/", view(similar_candidates_view), name="jobs_job_similar"),
            *super().get_urls(),
        ]

    def response_add(self, request, obj, post_url_continue=None):
        # A job is added to find people for it: its matches are the next page (unless adding another, or a popup).
        if IS_POPUP_VAR in request.POST or "_addanother" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(
            request,
            f"The job “{obj}” was added with the criteria read from its description. Edit them here: the candidates "
            "are ranked again at each change.",
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:jobs_job_matches", args=[obj.pk]))

    def _job(self, request, object_id: int, *, candidates: bool = False) -> Job:
        """The job, if this user may read it (404 for one they may not see: a private job of a colleague), after the
        permission checks (403): the job view permission, and ``candidates``: the candidate view permission."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        if candidates and not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
            raise PermissionDenied
        job = self.get_queryset(request).filter(pk=object_id).first()
        if job is None:
            raise Http404(f"No job with the id “{object_id}” that you may see.")
        return job

    def _writable_job(self, request, object_id: int) -> Job:
        # Who may change no job (a Viewer) is refused before the job is looked up, whichever job it is.
        if not self.has_change_permission(request):
            raise PermissionDenied
        job = self._job(request, object_id)
        if not self.has_change_permission(request, job):
            raise PermissionDenied
        return job

    def _context(self, request, job: Job, title: str) -> dict:
        return {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "job": job,
            "title": title,
            "subtitle": None,
            "may_change": self.has_change_permission(request, job),
            "has_view_permission": True,
        }

    def matches_view(self, request, object_id: int, *, forms_bound: dict | None = None):
        """The job's criteria as chips, then the candidates ranked by them, MATCHES_PER_PAGE a page. A fixed number
        of queries: the job and its skills, the page (one more row tells whether a next page exists; no count over
        the pool), its explanation, its pipeline stages. ``?widen=1`` (the "Widen with related skills" checkbox):
        related skills widen the match as in the API (``jobs.ranking``), two queries more."""
        job = self._job(request, object_id, candidates=True)
        criteria = job_criteria(job)
        page = _page_number(request.GET.get("page"))
        widen = request.GET.get("widen") == "1"  # a page link, not an API: anything else is the default, off
        start = (page - 1) * MATCHES_PER_PAGE
        ranked = candidates_ranked(
            criteria, widen=widen, user=request.user, queryset=Candidate.objects.only(*RANKED_FIELDS)
        )
        candidates = list(ranked[start : start + MATCHES_PER_PAGE + 1])
        has_next = len(candidates) > MATCHES_PER_PAGE
        rows = _explained_rows(job, candidates[:MATCHES_PER_PAGE], criteria, widen=widen)
        bound = forms_bound or {}
        context = {
            **self._context(request, job, f"Matches for {job.title}"),
            "criteria": criteria,
            "skill_chips": _skill_chips(job),
            "country_chips": [
                Chip(label=code, title=country_name(code), op="remove_country", value=code) for code in job.countries
            ],
            "keyword_chips": [Chip(label=word, op="remove_keyword", value=word) for word in job.keywords],
            "remote_label": {None: "Either", True: "Remote", False: "Not remote"}[job.remote],
            "forms": {
                "add_skill": bound.get("add_skill") or SkillChipForm(initial={"min_score": DEFAULT_MIN_SCORE}),
                "add_country": bound.get("add_country") or CountryChipForm(),
                "add_keyword": bound.get("add_keyword") or KeywordChipForm(),
                "set_years": bound.get("set_years") or YearsForm(initial={"min_years_coding": job.min_years_coding}),
                "set_remote": bound.get("set_remote")
                or RemoteForm(initial={"remote": {None: "", True: "true", False: "false"}[job.remote]}),
            },
            "rows": rows,
            "widen": widen,
            "related_weight": RELATED_WEIGHT,
            "page": page,
            "first_rank": start + 1,
            "previous_page": page - 1 if page > 1 else None,
            "next_page": page + 1 if has_next else None,
            "no_skill": not criteria.skills,
            # Skills that go with the criteria's (profiles.RelatedSkill, counted over the candidates): suggestions
            # only; they change the ranking once the recruiter adds one.
            "also_consider": related_skills_for(
                slugs=list(criteria.skills), exclude=set(criteria.excluded), limit=ALSO_CONSIDER
            ),
            "forms_bound": bool(bound),  # a form in error: the edit area opens on it
        }
        return TemplateResponse(request, self.matches_template, context, status=400 if forms_bound else 200)

    @staticmethod
    def _back(request, default: str) -> HttpResponseRedirect:
        target = request.POST.get("next", "")
        safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
        return HttpResponseRedirect(target if target.startswith("/") and safe else default)

    @staticmethod
    def _message_warnings(request, saved) -> None:
        for warning in saved.warnings:
            messages.warning(request, warning)

    def criteria_view(self, request, object_id: int):
        """One chip edit (``op``): a removal ("×") or a form (a skill, a country, a keyword, the years, remote). The
        criteria change through ``job_update`` and the matches page ranks again; a form in error is shown there."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        job = self._writable_job(request, object_id)
        op = request.POST.get("op", "")
        criteria = job_criteria(job)
        if op in REMOVALS:
            data = request.POST.get(REMOVALS[op], "")
        elif op in CHIP_FORMS:
            form = CHIP_FORMS[op](request.POST)
            if not form.is_valid():
                return self.matches_view(request, object_id, forms_bound={op: form})
            data = form.cleaned_data
        else:
            raise Http404(f"No such change of criteria: “{op}”.")
        try:
            saved = services.job_update(job=job, user=request.user, criteria=chip_overrides(op, criteria, data))
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            self._message_warnings(request, saved)
            messages.success(request, "Criteria saved; the candidates are ranked by them.")
        return HttpResponseRedirect(reverse("admin:jobs_job_matches", args=[job.pk]))

    def pipeline_add_view(self, request, object_id: int):
        """Add one candidate to the job's pipeline (stage "sourced"), from a row of the matches."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        job = self._writable_job(request, object_id)
        if not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
            raise PermissionDenied
        candidate = Candidate.objects.only("id", "name").filter(pk=_posted_id(request.POST.get("candidate"))).first()
        if candidate is None:
            raise Http404("No such candidate.")
        entry, added = services.pipeline_add(job=job, candidate=candidate, user=request.user)
        if added:
            messages.success(request, f"{candidate.name} was added to the pipeline ({entry.get_status_display()}).")
        else:
            messages.info(request, f"{candidate.name} is in the pipeline already ({entry.get_status_display()}).")
        return self._back(request, reverse("admin:jobs_job_matches", args=[job.pk]))

    def pipeline_board_view(self, request, object_id: int):
        """The pipeline by stage, every stage a column, each card moved on in one click or to any stage."""
        job = self._job(request, object_id, candidates=True)  # the cards name candidates
        labels = dict(ShortlistEntry.Status.choices)
        columns = [
            {
                "stage": stage,
                "label": labels[stage],
                "entries": entries,
                "next": _next_stage(stage),
                "next_label": labels.get(_next_stage(stage) or "", ""),
            }
            for stage, entries in job_pipeline(job=job)
        ]
        context = {
            **self._context(request, job, f"Pipeline of {job.title}"),
            "columns": columns,
            "stages": list(ShortlistEntry.Status.choices),
            "total": sum(len(column["entries"]) for column in columns),
        }
        return TemplateResponse(request, self.board_template, context)

    def pipeline_move_view(self, request, object_id: int):
        """Move one entry of the job's pipeline to a stage (``jobs.services.pipeline_move`` records it)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        job = self._writable_job(request, object_id)
        entry_id = _posted_id(request.POST.get("entry"))
        entry = ShortlistEntry.objects.select_related("candidate").filter(shortlist_id=job.pipeline_id, pk=entry_id)
        entry = entry.first() if entry_id is not None else None
        if entry is None:
            raise Http404("No such candidate in this job's pipeline.")
        stage = request.POST.get("stage", "")
        labels = dict(ShortlistEntry.Status.choices)
        if stage not in labels:
            messages.error(request, f"Choose a stage: {', '.join(labels.values())}.")
        elif stage == entry.status:
            messages.info(request, f"{entry.candidate.name} is at {labels[stage]} already.")
        else:
            services.pipeline_move(entry=entry, stage=stage, user=request.user)
            messages.success(request, f"{entry.candidate.name} moved to {labels[stage]}.")
        return self._back(request, reverse("admin:jobs_job_pipeline_board", args=[job.pk]))

    def save_model(self, request, obj, form, change):
        if not change:
            saved = services.job_create(
                user=request.user, title=obj.title, description=obj.description, shared=obj.shared
            )
            obj.pk = saved.job.pk  # the admin goes on with the saved job (its page, its log entry)
            obj.__dict__.update({k: v for k, v in saved.job.__dict__.items() if not k.startswith("_")})
        else:
            changed = set(form.changed_data)
            saved = services.job_update(
                job=obj,
                user=request.user,
                criteria={f: form.cleaned_data[f] for f in CRITERIA_FIELDS if f in changed} or None,
                **{f: form.cleaned_data[f] for f in services.JOB_FIELDS if f in changed},
            )
        for warning in saved.warnings:
            self.message_user(request, warning, messages.WARNING)

    def save_formset(self, request, form, formset, change):
        if formset.model is not JobSkill:
            return super().save_formset(request, form, formset, change)
        rows = formset.save(commit=False)
        services.job_skills_save(job=form.instance, user=request.user, changed=rows, deleted=formset.deleted_objects)
        return None


# --- "Similar candidates" on a candidate's profile -----------------------------------------------------------------


def similar_candidates_panel(request, candidate: Candidate) -> str | None:
    """The profile's "Similar candidates", as a placeholder the page fills in once it has loaded (from
    ``similar_candidates_view``): ranking everyone who shares the candidate's strongest skills takes a moment on a
    large database (docs/benchmarks.md), and the profile must not wait for it. No query; None without the
    permission."""
    if not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
        return None
    return render_to_string(
        "admin/jobs/similar_candidates_placeholder.html",
        {"url": reverse("admin:jobs_job_similar", args=[candidate.pk])},
        request=request,
    )


def similar_candidates_view(request, candidate_id: int):
    """The panel's content: the SIMILAR_SHOWN best others by ``jobs.ranking.similar_candidates`` (the candidate's
    strongest skills and topics as criteria), each with its match and the skills it shares; a fixed number of
    queries whatever the pool (the candidate, the criteria, the page, its explanation)."""
    if not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
        raise PermissionDenied
    try:
        candidate = Candidate.objects.only("pk", "name").get(pk=candidate_id)
        # Those with all of the candidate's strongest skills first: ranking them is quick at any size; the whole pool
        # (everyone with any of those skills) only when they are too few.
        criteria, rows = similar_candidates(
            candidate_id=candidate.pk, user=request.user, limit=SIMILAR_SHOWN, strict_first=True
        )
    except Candidate.DoesNotExist:
        raise Http404("No such candidate.") from None
    return TemplateResponse(
        request, "admin/jobs/similar_candidates.html", {"candidate": candidate, "criteria": criteria, "rows": rows}
    )


# The profile page (profiles) shows the panels registered on the site; profiles never imports jobs.
_panels = getattr(admin.site, "candidate_panels", None)
if _panels is not None and similar_candidates_panel not in _panels:
    _panels.append(similar_candidates_panel)
