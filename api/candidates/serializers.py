"""The candidate's read shapes. Explicit fields only; every value comes from a selector's prefetched rows (no queries
here).

A candidate's detail has the field names of ``shared/corpus/progai/jinliang-wei.expected.json`` plus ``id``, ``url``,
``experience`` (the jobs, newest first), ``languages`` (with fluency), ``created_at``, ``updated_at``, ``sources`` and,
when skills are requested, ``match`` (the skill match, ``SKILL_MATCH_HELP``); its education entries carry their
months too. The list leaves out the jobs, languages and education: a page stays one row per candidate.
"""

from __future__ import annotations

import copy
from functools import cached_property

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.candidates.fields import (
    IdentityUrlField,
    LocationSerializer,
    MonthField,
    RankField,
    candidate_location,
    readable_rank,
    year_month,
)
from ingestion.models import SourceFile
from profiles.candidate_fields import CONTACT_FIELDS, DETAIL_FIELDS, EXPORT_ROW_FIELDS, LIST_FIELDS
from profiles.contacts import contact_urls, may_see_contact_details
from profiles.models import Candidate, CandidateSkill, Contribution, Education, Position, SpokenLanguage
from profiles.search.skills import MATCH_FORMULA

# The `match` of the candidate list and profile. A ranked page answers a different formula under the same name, the
# job fit (api.jobs.ranked_pages.JOB_FIT_FORMULA): every text says which one it means.
SKILL_MATCH_HELP = "The skill match (not a job's fit): " + MATCH_FORMULA


class CandidateSkillSerializer(serializers.Serializer):
    """The shape of a candidate's skill (documentation: PostgreSQL shapes the rows, see _skills_of)."""

    slug = serializers.CharField(help_text="Canonical skill.")
    name = serializers.CharField()
    score = serializers.IntegerField(min_value=0, max_value=10)
    label = serializers.CharField(help_text="The label exactly as the file wrote it.")


class EducationSerializer(serializers.ModelSerializer):
    start = MonthField(help_text="YYYY-MM; null when the file gives none.")
    end = MonthField(help_text="YYYY-MM; null when the file gives none.")

    class Meta:
        model = Education
        fields = ["degree", "field", "minor", "school", "start", "end"]


class PositionSerializer(serializers.ModelSerializer):
    """A job of the work history, as ``position_rows`` lists them (newest first)."""

    start = MonthField(help_text="YYYY-MM; null when the file gives none.")
    end = MonthField(help_text="YYYY-MM; null while current, or when the file gives none.")
    current = serializers.BooleanField(source="is_current", help_text="An open-ended job: the candidate works there.")

    class Meta:
        model = Position
        fields = ["company", "title", "location", "start", "end", "current", "summary"]


class SpokenLanguageSerializer(serializers.ModelSerializer):
    code = serializers.CharField(help_text="ISO 639 (`fr`, `yue`); empty when no language data knows the name.")
    name = serializers.CharField(help_text="The English name (`French`); as written when the language is unknown.")
    fluency = serializers.ChoiceField(
        choices=SpokenLanguage.Fluency.choices,
        allow_blank=True,
        help_text="The levels are listed highest first; empty when the file gives none.",
    )

    class Meta:
        model = SpokenLanguage
        fields = ["code", "name", "fluency"]


class ContributionSerializer(serializers.ModelSerializer):
    repository = serializers.CharField(source="repository.full_name", help_text="owner/name")
    repository_description = serializers.CharField(source="repository.description")
    start = serializers.SerializerMethodField(help_text="YYYY-MM")
    end = serializers.SerializerMethodField(help_text="YYYY-MM; null while ongoing.")
    topics = serializers.ListField(source="repository.topics", child=serializers.CharField())

    class Meta:
        model = Contribution
        fields = [
            "repository",
            "repository_description",
            "start",
            "end",
            "role",
            "commits",
            "comments",
            "active_months",
            "summary",
            "topics",
        ]

    @extend_schema_field({"type": "string", "nullable": True, "pattern": r"^\d{4}-\d{2}$"})
    def get_start(self, contribution: Contribution) -> str | None:
        return year_month(contribution.start)

    @extend_schema_field({"type": "string", "nullable": True, "pattern": r"^\d{4}-\d{2}$"})
    def get_end(self, contribution: Contribution) -> str | None:
        return year_month(contribution.end)


class SourceSerializer(serializers.ModelSerializer):
    """A stored file behind a profile. Its name and hash only for a reader who may view the batch it came in (the
    selector's ``readable``): an upload's file name is as private as its batch."""

    name = serializers.SerializerMethodField(help_text="The file's name; null when you may not view its import.")
    sha256 = serializers.SerializerMethodField(help_text="The file's sha256; null when you may not view its import.")

    class Meta:
        model = SourceFile
        fields = ["id", "name", "format", "status", "sha256", "created_at", "processed_at"]

    @extend_schema_field({"type": "string", "nullable": True})
    def get_name(self, source: SourceFile) -> str | None:
        return source.original_name if getattr(source, "readable", False) else None

    @extend_schema_field({"type": "string", "nullable": True, "pattern": "^[0-9a-f]{64}$"})
    def get_sha256(self, source: SourceFile) -> str | None:
        return source.sha256 if getattr(source, "readable", False) else None


class _CandidateBaseSerializer(serializers.ModelSerializer):
    url = IdentityUrlField(view_name="api:candidate-detail")
    location = serializers.SerializerMethodField()
    skills = serializers.SerializerMethodField()
    programming_languages = serializers.SerializerMethodField()
    # Present only when skills are requested (the selector annotates it), else left out: required=False (not
    # read_only, which OpenAPI would list as always present) makes DRF skip the missing attribute. Output only.
    match = serializers.IntegerField(required=False, min_value=0, max_value=100, help_text=SKILL_MATCH_HELP)

    @extend_schema_field(LocationSerializer)
    def get_location(self, candidate: Candidate) -> dict:
        return candidate_location(candidate)

    def _skills_of(self, candidate: Candidate, section: str) -> list[dict]:
        # The dicts profiles.selectors.candidates_attach_skills decoded from PostgreSQL's JSON, as they are: a nested
        # serializer per candidate cost more than the page's SQL. Their shape is CandidateSkillSerializer's.
        return candidate.skill_sections.get(section, [])

    @extend_schema_field(CandidateSkillSerializer(many=True))
    def get_skills(self, candidate: Candidate) -> list[dict]:
        return self._skills_of(candidate, CandidateSkill.Section.SKILL)

    @extend_schema_field(CandidateSkillSerializer(many=True))
    def get_programming_languages(self, candidate: Candidate) -> list[dict]:
        return self._skills_of(candidate, CandidateSkill.Section.LANGUAGE)


class CandidateListSerializer(_CandidateBaseSerializer):
    """The list's lighter shape: who, where, how experienced, and every skill."""

    rank = RankField(
        required=False,
        help_text=(
            "Present with `q`: the full-text relevance the page was ordered by, rounded to 4 decimals. Ordered by it, "
            "BM25's score when the ranking index serves (`X-Search-Backend: index`; not bounded by 1), else "
            "PostgreSQL's `ts_rank` (words in the name weighing most, then headline, title, company and jobs, then "
            "summary and skills, then contributions; usually between 0 and 1, 0 when the query leaves nothing to "
            "weigh: a word that must be absent, words far apart). Higher is more relevant; it compares the results of "
            "one query under one backend, not of different ones."
        ),
    )

    class Meta:
        model = Candidate
        fields = LIST_FIELDS

    def to_representation(self, candidate: Candidate) -> dict:
        """``Meta.fields``, written out: the one place the list bypasses DRF's generic loop (an attribute lookup and
        a ``to_representation`` call per field and row, and ModelSerializer's model introspection to build
        ``self.fields``), which costs several times what this row does (``bench/bypasses.py``; docs/benchmarks.md).
        Each value is the one the declared field gives, which ``tests/api/test_serializers.py`` checks against DRF's
        own loop on this same serializer; the declarations stay the schema."""
        url_field, updated_at_field = self._formatting_fields
        row = {
            "id": candidate.pk,
            "url": url_field.to_representation(candidate),
            "name": candidate.name,
            "headline": candidate.headline,
            "title": candidate.title,
            "company": candidate.company,
            "location": self.get_location(candidate),
            "badges": list(candidate.badges),
            "years_coding": candidate.years_coding,
            "years_employed": candidate.years_employed,
            "skills": self.get_skills(candidate),
            "programming_languages": self.get_programming_languages(candidate),
        }
        # Present only when the search annotated them (required=False fields DRF skips when the attribute is missing).
        if hasattr(candidate, "match"):
            row["match"] = candidate.match
        if hasattr(candidate, "rank"):
            row["rank"] = readable_rank(candidate.rank)
        row["updated_at"] = updated_at_field.to_representation(candidate.updated_at)
        return row

    @cached_property
    def _formatting_fields(self) -> tuple[serializers.Field, serializers.Field]:
        """The two fields whose formatting ``to_representation`` borrows, bound to this serializer without building
        ``self.fields``: ModelSerializer introspects the model for every field of it, once per request."""
        url = copy.deepcopy(self._declared_fields["url"])
        url.bind("url", self)
        # What ModelSerializer builds for an auto_now field, with the request's time zone looked up once, not per row.
        updated_at = serializers.DateTimeField(read_only=True, default_timezone=timezone.get_current_timezone())
        updated_at.bind("updated_at", self)
        return url, updated_at


class ContactLinksField(serializers.ListField):
    """The candidate's public pages (``profiles.contacts.contact_urls``). A list field, not a method field: a method
    field is read-only, which OpenAPI documents as always present, and ``links`` is present only with the
    permission."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.URLField(), source="*", required=False, **kwargs)

    def to_representation(self, candidate: Candidate) -> list[str]:
        return contact_urls(candidate)


class CandidateDetailSerializer(_CandidateBaseSerializer):
    experience = PositionSerializer(source="position_rows", many=True, help_text="Every job, newest first.")
    education = EducationSerializer(source="education_rows", many=True)
    languages = SpokenLanguageSerializer(
        source="language_rows", many=True, help_text="Spoken languages with their fluency, as the file lists them."
    )
    spoken_languages = serializers.ListField(
        child=serializers.CharField(),
        help_text="The spoken languages' names (as `languages` has them, or entered by hand).",
    )
    contributions = ContributionSerializer(source="contribution_rows", many=True)
    sources = SourceSerializer(source="source_rows", many=True, help_text="The stored files behind this candidate.")
    # Contact details: present only for users with the "view contact details" permission (profiles.contacts).
    email = serializers.EmailField(required=False, help_text="Only with the contact details permission.")
    phone = serializers.CharField(
        required=False, help_text="As the file wrote it; empty when none. Only with the contact details permission."
    )
    links = ContactLinksField(
        help_text="The public pages (accounts, profile URLs, the site). Only with the contact details permission."
    )

    class Meta:
        model = Candidate
        fields = [*DETAIL_FIELDS, *CONTACT_FIELDS]

    def get_fields(self) -> dict:
        fields = super().get_fields()
        if getattr(self.context.get("view"), "swagger_fake_view", False):
            return fields  # the schema documents every field, whoever asks for it; its help texts say who gets them
        request = self.context.get("request")
        if not may_see_contact_details(getattr(request, "user", None)):
            for name in CONTACT_FIELDS:
                fields.pop(name)
        return fields


class CandidateExportSerializer(CandidateDetailSerializer):
    """A JSON Lines export row: the detail without its sources. The declared shape: ``exports.formats`` writes the
    rows (for the streams and the export jobs alike), and tests/exports/test_formats.py holds it to this serializer."""

    class Meta(CandidateDetailSerializer.Meta):
        fields = [*EXPORT_ROW_FIELDS, *CONTACT_FIELDS]
