"""A job's matches page: the criteria as chips the recruiter edits (each edit a ``jobs.services.job_update``, the
candidates ranked again), what the reading of the post left out (each added back in one click), the switches of the
ranking (every requirement met, related skills, the job's countries or everyone: kept in the URL), then the candidates
ranked by ``jobs.ranking.ranked_page`` (the API's path), grouped under headers that say why they rank where they do,
each added to the pipeline in one click."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from core.countries import country_name
from core.errors import ApplicationError
from jobs import services
from jobs.admin.common import VIEW_CANDIDATE_PERMISSION, posted_id
from jobs.admin.forms import (
    CHIP_FORMS,
    REMOVALS,
    CountryChipForm,
    KeywordChipForm,
    RemoteForm,
    SkillChipForm,
    YearsForm,
    chip_overrides,
)
from jobs.criteria import DEFAULT_MIN_SCORE, Criteria
from jobs.models import Job, JobSkill
from jobs.ranking import rank_options, ranked_page
from jobs.selectors import job_criteria
from profiles.models import Candidate, ShortlistEntry, Skill
from profiles.search.backends.base import Page
from profiles.search.ranking import RELATED_WEIGHT
from profiles.selectors import related_skills_for

MATCHES_PER_PAGE = 25
ALSO_CONSIDER = 6  # related skills offered beside the criteria, each added as preferred in one click
MAX_PAGE = 4000  # 100,000 candidates deep: past it a recruiter narrows the criteria (and OFFSET stays in range)
# What the page's address may carry besides the switches: the page, and a country that names the place itself.
PAGE_PARAMS = ("page", "country")


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


def skill_chips(job: Job) -> dict[str, list[Chip]]:
    """The job's criteria skills by kind, each under its display name ("PostgreSQL")."""
    chips: dict[str, list[Chip]] = {kind: [] for kind in JobSkill.Kind.values}
    for row in sorted(job.skills.all(), key=lambda row: row.pk):  # prefetched by jobs_for
        label = f"{row.skill.name} ≥ {row.min_score}" if row.kind == JobSkill.Kind.REQUIRED else row.skill.name
        chips[row.kind].append(Chip(label=label, op="remove_skill", value=row.skill.slug, kind=row.kind))
    return chips


def left_out(criteria: Criteria) -> tuple[list, list[str]]:
    """What the reading left out that is not in the criteria by now: the ignored mentions (a skill added back leaves
    them) and the unrecognised terms not yet added as keywords."""
    keywords = {word.casefold() for word in criteria.keywords}
    unrecognised = [term for term in criteria.unrecognised if term.casefold() not in keywords]
    taken = set(criteria.skills) | set(criteria.excluded)
    return [item for item in criteria.ignored if item.skill not in taken], unrecognised


def _name(names: dict[str, str], slug: str | None) -> str:
    return names.get(slug, slug) if slug else ""


def _rows(job: Job, candidates: list[Candidate]) -> list[MatchRow]:
    """The explained candidates as rows: display names (one query, only for related skills shown) and pipeline
    stages (one)."""
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


def page_number(raw: str | None) -> int:
    try:
        return min(max(int(raw or 1), 1), MAX_PAGE)
    except ValueError:
        return 1


class MatchesPages:
    """The matches page, its chip edits and "Add to pipeline" (a mixin of ``JobAdmin``, on ``common.JobPages``)."""

    matches_template = "admin/jobs/job/matches.html"

    def matches_view(self, request, object_id: int, *, forms_bound: dict | None = None):
        """The job's criteria as chips, then the candidates ranked by them, MATCHES_PER_PAGE a page. A fixed number
        of queries: the job and its skills, the page (one more row tells whether a next page exists; no count over
        the pool), its explanation, its pipeline stages. The switches (``strict``, ``widen``, ``anywhere``) and a
        ``country`` filter are read from the address as the API reads them; a value the page never writes is off."""
        job = self.page_job(request, object_id, candidates=True)
        criteria = job_criteria(job)
        page = page_number(request.GET.get("page"))
        options, _ = rank_options(request.GET, lenient=True)
        country = request.GET.get("country", "").strip()
        start = (page - 1) * MATCHES_PER_PAGE
        error = ""
        try:
            # One row more than the page shows: a next page exists. The search backend in use cuts it by offset.
            ranked = ranked_page(
                criteria,
                options=options,
                params={"country": country} if country else None,
                user=request.user,
                page=Page(limit=MATCHES_PER_PAGE + 1, offset=start),
            )
        except ValidationError as exc:
            ranked, error = (
                [],
                " ".join(message for messages_ in exc.message_dict.values() for message in messages_),
            )
        candidates, more = ranked[:MATCHES_PER_PAGE], len(ranked) > MATCHES_PER_PAGE
        ignored, unrecognised = left_out(criteria)
        switches = options.query()
        if country:
            switches["country"] = country
        bound = forms_bound or {}
        context = {
            **self.page_context(request, job, f"Matches for {job.title}"),
            "criteria": criteria,
            "skill_chips": skill_chips(job),
            "country_chips": [
                Chip(label=code, title=country_name(code), op="remove_country", value=code) for code in job.countries
            ],
            "country_names": ", ".join(country_name(code) or code for code in criteria.countries),
            "keyword_chips": [Chip(label=word, op="remove_keyword", value=word) for word in job.keywords],
            "ignored": ignored,
            "unrecognised": unrecognised,
            "remote_label": {None: "Either", True: "Remote", False: "Not remote"}[job.remote],
            "forms": {
                "add_skill": bound.get("add_skill") or SkillChipForm(initial={"min_score": DEFAULT_MIN_SCORE}),
                "add_country": bound.get("add_country") or CountryChipForm(),
                "add_keyword": bound.get("add_keyword") or KeywordChipForm(),
                "set_years": bound.get("set_years") or YearsForm(initial={"min_years_coding": job.min_years_coding}),
                "set_remote": bound.get("set_remote")
                or RemoteForm(initial={"remote": {None: "", True: "true", False: "false"}[job.remote]}),
            },
            "rows": _rows(job, candidates),
            "options": options,
            "country": country,
            "ranking_error": error,
            "required_count": len(criteria.required),
            "related_weight": RELATED_WEIGHT,
            "page": page,
            "first_rank": start + 1,
            "previous_query": urlencode({**switches, "page": page - 1}) if page > 1 else "",
            "next_query": urlencode({**switches, "page": page + 1}) if more else "",
            "here": request.get_full_path(),
            "no_skill": not criteria.skills,
            # Skills that go with the criteria's (profiles.RelatedSkill, counted over the candidates): suggestions
            # only; they change the ranking once the recruiter adds one.
            "also_consider": related_skills_for(
                slugs=list(criteria.skills), exclude=set(criteria.excluded), limit=ALSO_CONSIDER
            ),
            "forms_bound": bool(bound),  # a form in error: the edit area opens on it
        }
        return TemplateResponse(request, self.matches_template, context, status=400 if forms_bound else 200)

    def criteria_view(self, request, object_id: int):
        """One chip edit (``op``): a removal ("×") or a form (a skill, a country, a keyword, the years, remote). The
        criteria change through ``job_update`` and the matches page ranks again, its switches kept (``next``); a form
        in error is shown there."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        job = self.writable_job(request, object_id)
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
            self.message_warnings(request, saved)
            messages.success(request, "Criteria saved; the candidates are ranked by them.")
        if request.POST.get("next"):
            return self.back(request, reverse("admin:jobs_job_matches", args=[job.pk]))
        return HttpResponseRedirect(reverse("admin:jobs_job_matches", args=[job.pk]))

    def pipeline_add_view(self, request, object_id: int):
        """Add one candidate to the job's pipeline (stage "sourced"), from a row of the matches."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        job = self.writable_job(request, object_id)
        if not request.user.has_perm(VIEW_CANDIDATE_PERMISSION):
            raise PermissionDenied
        candidate = Candidate.objects.only("id", "name").filter(pk=posted_id(request.POST.get("candidate"))).first()
        if candidate is None:
            raise Http404("No such candidate.")
        entry, added = services.pipeline_add(job=job, candidate=candidate, user=request.user)
        if added:
            messages.success(request, f"{candidate.name} was added to the pipeline ({entry.get_status_display()}).")
        else:
            messages.info(request, f"{candidate.name} is in the pipeline already ({entry.get_status_display()}).")
        return self.back(request, reverse("admin:jobs_job_matches", args=[job.pk]))
