"""The candidate's change form (``<id>/edit/``): the candidate's own fields, with protected fields and plain-word
validation, and the inlines of their work history, skills, languages, contributions, education and identifiers.

Every inline picks shared rows (a skill, a repository) without Django's links to edit or delete those rows for
everyone (``NoRelatedObjectLinks``).
"""

from __future__ import annotations

import re

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.forms.models import BaseInlineFormSet

from core.languages import resolve_language
from profiles.admin.common import NoRelatedObjectLinks
from profiles.candidate_fields import FORM_GROUPS, form_field_names
from profiles.models import (
    Candidate,
    CandidateIdentifier,
    CandidateSkill,
    Contribution,
    Education,
    Position,
    SpokenLanguage,
)
from profiles.selectors import POSITIONS_NEWEST_FIRST

SCORE_MESSAGE = "A score is a whole number from 0 (none) to 10 (best)."


class CandidateSkillForm(forms.ModelForm):
    score = forms.IntegerField(
        min_value=0,
        max_value=10,
        error_messages={"min_value": SCORE_MESSAGE, "max_value": SCORE_MESSAGE, "invalid": SCORE_MESSAGE},
        widget=forms.NumberInput(attrs={"min": 0, "max": 10, "style": "width: 4em"}),
    )

    class Meta:
        model = CandidateSkill
        fields = ["skill", "score", "label", "section"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["label"].required = False
        self.fields["label"].help_text = "As the file wrote it; empty takes the skill's name."

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("skill") and not cleaned.get("label"):
            cleaned["label"] = cleaned["skill"].name[:200]
        return cleaned


class CandidateSkillInline(NoRelatedObjectLinks, admin.TabularInline):
    model = CandidateSkill
    form = CandidateSkillForm
    extra = 0
    autocomplete_fields = ["skill"]
    fields = ["skill", "score", "label", "section", "edited_by_hand"]
    readonly_fields = ["edited_by_hand"]

    @admin.display(description="score edited by hand")
    def edited_by_hand(self, row: CandidateSkill) -> str:
        # Words, not Django's boolean icons: a red circled × in a skill's row reads as "delete". Set by editing the
        # score, cleared by the release action.
        return "yes, kept against imports" if row.score_by_hand else "—"

    ordering = ["-score", "position", "id"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("skill")


MONTH_MESSAGE = "A month as YYYY-MM (2021-03), or a year (2021)."


class MonthField(forms.DateField):
    """A month, stored as its first day (as imports store them): ``2021-03`` or ``2021``; a full date keeps its
    month."""

    input_formats = ["%Y-%m", "%Y", "%Y-%m-%d"]
    default_error_messages = {"invalid": MONTH_MESSAGE}

    def __init__(self, **kwargs):
        widget = forms.DateInput(format="%Y-%m", attrs={"placeholder": "YYYY-MM", "size": 8})
        super().__init__(widget=widget, required=False, **kwargs)

    def to_python(self, value):
        date = super().to_python(value)
        return date.replace(day=1) if date else date


class LinesField(forms.Field):
    """A list of texts as a textarea, one a line (a highlight may hold commas); blank lines are dropped."""

    widget = forms.Textarea(attrs={"rows": 2, "cols": 80})

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def prepare_value(self, value):
        return "\n".join(value) if isinstance(value, list | tuple) else value

    def to_python(self, value) -> list[str]:
        return [line.strip() for line in (value or "").splitlines() if line.strip()]


class MonthsReadAsMonthsMixin:
    """Who may only view an inline reads its months as ``2021-03``, not as the first day Django would print."""

    MONTH_DISPLAYS = {"start": "start_month", "end": "end_month"}

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        if self.has_change_permission(request, obj):
            return fields
        return [
            tuple(self.MONTH_DISPLAYS.get(f, f) for f in row)
            if isinstance(row, tuple)
            else self.MONTH_DISPLAYS.get(row, row)
            for row in fields
        ]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), *self.MONTH_DISPLAYS.values()]

    @admin.display(description="start")
    def start_month(self, row) -> str:
        return row.start.strftime("%Y-%m") if row.start else "—"

    @admin.display(description="end")
    def end_month(self, row) -> str:
        return row.end.strftime("%Y-%m") if row.end else "—"


class AppendedRowsFormSet(BaseInlineFormSet):
    """Rows added by hand go after the candidate's others: ``order_field`` is unique per candidate (the row's place in
    the file) and no form shows it."""

    order_field: str

    def save_new(self, form, commit=True):
        if not hasattr(self, "_next_order"):
            model = type(form.instance)
            last = model.objects.filter(candidate=self.instance).aggregate(last=Max(self.order_field))["last"]
            self._next_order = 0 if last is None else last + 1
        setattr(form.instance, self.order_field, self._next_order)
        self._next_order += 1
        return super().save_new(form, commit)


class PositionFormSet(AppendedRowsFormSet):
    order_field = "order"


class SpokenLanguageFormSet(AppendedRowsFormSet):
    order_field = "position"


class PositionForm(forms.ModelForm):
    start = MonthField()
    end = MonthField(help_text="Empty while current.")
    highlights = LinesField(help_text="One a line.")

    class Meta:
        model = Position
        fields = ["company", "url", "title", "location", "start", "end", "is_current", "summary", "highlights"]
        widgets = {"summary": forms.Textarea(attrs={"rows": 2, "cols": 80})}

    def clean(self):
        # The table's constraints in plain words (the database would refuse the row with its constraint's name).
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and end < start:
            self.add_error("end", "The job ends before it starts.")
        if cleaned.get("is_current") and end:
            self.add_error("end", "A current job has no end: clear the end, or untick current.")
        return cleaned


class PositionInline(NoRelatedObjectLinks, MonthsReadAsMonthsMixin, admin.StackedInline):
    """The work history, newest first as a profile reads it. A newer file of this person replaces it, as it replaces
    the skills."""

    model = Position
    form = PositionForm
    formset = PositionFormSet
    extra = 0
    fields = [
        ("company", "url"),
        ("title", "location"),
        ("start", "end", "is_current"),
        "summary",
        "highlights",
    ]
    verbose_name = "job"
    verbose_name_plural = "work history (newest first)"

    def get_queryset(self, request):
        return super().get_queryset(request).order_by(*POSITIONS_NEWEST_FIRST)


class SpokenLanguageForm(forms.ModelForm):
    class Meta:
        model = SpokenLanguage
        fields = ["name", "code", "fluency"]
        widgets = {"code": forms.TextInput(attrs={"size": 6})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["name"].help_text = "In any language (Français); a known language is stored in English."
        self.fields["code"].help_text = "Filled in from the name when empty."

    def clean(self):
        # As imports read a language (core.languages): a known name or code gives both, in English and ISO 639.
        cleaned = super().clean()
        name, code = cleaned.get("name", "").strip(), cleaned.get("code", "").strip()
        if "name" in self.changed_data or not code:
            resolved = resolve_language(name) if name else None
        else:
            resolved = resolve_language(code)
        if resolved is None and not name:
            resolved = resolve_language(code) if code else None
            if resolved is None:
                raise ValidationError("Name the language (or give its ISO 639 code).")
        if resolved is not None:
            cleaned["code"], cleaned["name"] = resolved
        return cleaned


class SpokenLanguageInline(NoRelatedObjectLinks, admin.TabularInline):
    model = SpokenLanguage
    form = SpokenLanguageForm
    formset = SpokenLanguageFormSet
    extra = 0
    fields = ["name", "code", "fluency", "raw"]
    readonly_fields = ["raw"]
    verbose_name_plural = "spoken languages"


class EducationForm(forms.ModelForm):
    start = MonthField()
    end = MonthField()

    class Meta:
        model = Education
        fields = ["degree", "field", "minor", "school", "start", "end"]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("start") and cleaned.get("end") and cleaned["end"] < cleaned["start"]:
            self.add_error("end", "The studies end before they start.")
        return cleaned


class EducationInline(NoRelatedObjectLinks, MonthsReadAsMonthsMixin, admin.TabularInline):
    model = Education
    form = EducationForm
    extra = 0
    fields = ["degree", "field", "minor", "school", "start", "end"]


class ContributionInline(NoRelatedObjectLinks, admin.StackedInline):
    model = Contribution
    extra = 0
    autocomplete_fields = ["repository"]
    fields = [
        ("repository", "role"),
        ("commits", "comments", "active_months"),
        ("start", "end", "is_current"),
        "summary",
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("repository")


class IdentifierInline(NoRelatedObjectLinks, admin.TabularInline):
    model = CandidateIdentifier
    extra = 0
    verbose_name_plural = "identifiers (how imports recognise this person)"


# The form's fields, which ``clean`` compares with the stored text: the groups' (``profiles.candidate_fields``), the
# e-mail and the website.
PROFILE_FIELDS = [*form_field_names(FORM_GROUPS), "email", "website"]


class CandidateForm(forms.ModelForm):
    website = forms.URLField(required=False, max_length=500, assume_scheme="https")
    release_fields = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Release",
        help_text="Ticked fields follow imports again: the next import of this person overwrites them.",
    )

    class Meta:
        model = Candidate
        fields = PROFILE_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        protected = list(self.instance.protected_fields or [])
        self.fields["release_fields"].choices = [(name, field_label(name)) for name in protected]
        for name in protected:
            if name in self.fields:
                self.fields[name].help_text = "Protected: edited by hand, imports leave it alone."

    def clean(self):
        cleaned = super().clean()
        # What a browser sends back for an untouched field is not always the stored text: a textarea's line breaks
        # come back as CR LF, and the form strips spaces at the ends. Such a field keeps its stored value, so that
        # only fields the recruiter really changed count as edited by hand (and become protected against imports).
        for name, value in cleaned.items():
            stored = getattr(self.instance, name, None) if name in PROFILE_FIELDS else None
            if isinstance(value, str) and isinstance(stored, str) and _same_text(value, stored):
                cleaned[name] = stored
        return cleaned


def _same_text(posted: str, stored: str) -> bool:
    return re.sub(r"\r\n?", "\n", posted).strip() == re.sub(r"\r\n?", "\n", stored).strip()


def field_label(name: str) -> str:
    return str(Candidate._meta.get_field(name).verbose_name)
