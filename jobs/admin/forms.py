"""The forms of the jobs pages: adding and changing a job, and each chip edit of the matches page (a skill, a
country, a keyword, the years, remote) with what it changes in the criteria (``chip_overrides``, the override shape of
``jobs.services.job_update``)."""

from __future__ import annotations

from django import forms
from django.contrib.postgres.forms import SimpleArrayField
from django.core.exceptions import ValidationError

from core.countries import country_code
from core.errors import ApplicationError
from core.labels import label_key
from jobs.criteria import DEFAULT_MIN_SCORE, Criteria
from jobs.models import Job, JobSkill
from jobs.selectors import description_checked
from profiles.search.skills import resolve_skills

CRITERIA_FIELDS = ("countries", "remote", "min_years_coding", "keywords")
SKILL_KINDS = [(kind.value, kind.label) for kind in JobSkill.Kind]
# The one wording of a job's remote switch on every admin page (the job's form, the matches page's chip and form), in
# the API documentation's terms: true is a fully remote job, false on-site or hybrid, null what the post does not say.
# templates/admin/jobs/job/remote_label.html writes these labels for a job's value.
REMOTE_LABELS = {None: "Not stated", True: "Fully remote", False: "On-site or hybrid"}
REMOTE_HELP = "As the post says. It does not rank: the countries say where candidates may live."
REMOTE_CHOICES = [("", REMOTE_LABELS[None]), ("true", REMOTE_LABELS[True]), ("false", REMOTE_LABELS[False])]


class RemoteSelect(forms.NullBooleanSelect):
    """Django's yes / no / unknown select of a nullable boolean, in the remote switch's words."""

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.choices = [(value or "unknown", label) for value, label in REMOTE_CHOICES]


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
        help_texts = {"description": "Paste the job post: its skills, years, place and remote work are read from it."}

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
        widgets = {"description": forms.Textarea(attrs={"rows": 12, "cols": 100}), "remote": RemoteSelect()}
        labels = {"min_years_coding": "Years of coding, at least"}
        help_texts = {
            "remote": REMOTE_HELP,
            "min_years_coding": "Empty: any.",
            "keywords": "Words matched against candidates' summaries, comma-separated: senior, payments.",
            "description": "As pasted. Editing it does not read the criteria again: change them below or on the "
            "Matches tab.",
        }

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
    remote = forms.ChoiceField(choices=REMOTE_CHOICES, required=False, label="Remote", help_text=REMOTE_HELP)


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
