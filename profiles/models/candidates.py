"""A candidate and what their files say of them: identity keys, education, work history, spoken languages,
skills (and the labels a re-resolution moved off a skill)."""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from simple_history.models import HistoricalRecords

from profiles.models.skills import Skill


class CandidateHistoryExtras(models.Model):
    """Extra columns of a candidate's history records: the skills as they were after that change.

    Skills are rows of their own (no history of theirs: imports rewrite them in bulk); the snapshot lets the history
    show a changed score and lets a revert restore the skills too. Empty (null) when the change was not made in the
    admin.
    """

    skills = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True


class Candidate(models.Model):
    name = models.CharField(max_length=300)
    headline = models.CharField(max_length=500, blank=True)
    title = models.CharField(max_length=300, blank=True)
    company = models.CharField(max_length=300, blank=True)
    city = models.CharField(max_length=200, blank=True)
    region = models.CharField(max_length=200, blank=True)
    country = models.CharField(max_length=200, blank=True)
    country_code = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 alpha-2")
    summary = models.TextField(blank=True)
    badges = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    # A JSON Resume's awards, one line each: "Best Paper (ACM, 2019-06): for the work on X".
    awards = ArrayField(models.CharField(max_length=500), default=list, db_default=[], blank=True)
    # Labels a file lists among its skills that are no technology (soft skills, human languages, hobbies:
    # profiles.skill_resolver), as written: a recruiter reads them here; they make no shared skill.
    other_skills = ArrayField(models.CharField(max_length=200), default=list, db_default=[], blank=True)
    years_coding = models.PositiveSmallIntegerField(null=True, blank=True)
    years_employed = models.PositiveSmallIntegerField(null=True, blank=True)
    spoken_languages = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    email = models.EmailField(blank=True)
    # As the file wrote it, whitespace tidied (core.text.phone_text): a contact detail, not an identity key. The
    # database default lets rows written by SQL that predates the column (bulk loads, old migrations) still insert.
    phone = models.CharField(max_length=50, blank=True, default="", db_default="")
    website = models.URLField(max_length=500, blank=True)
    # Totals the file declares in its section headers ("Github Skills (20)"), which may differ from what it lists.
    skills_declared = models.PositiveIntegerField(null=True, blank=True)
    programming_languages_declared = models.PositiveIntegerField(null=True, blank=True)
    contributions_declared = models.PositiveIntegerField(null=True, blank=True)
    # Fields a recruiter edited by hand; imports leave them alone until released.
    protected_fields = ArrayField(models.CharField(max_length=50), default=list, blank=True)
    # sha256 of the normalised document last loaded: an identical document rewrites nothing.
    document_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    search_vector = SearchVectorField(null=True, editable=False)
    # The candidate's skills again, shaped for search (written with search_vector, from CandidateSkill and the
    # country, by profiles.search.candidates_refresh_search_columns): tokens skill_id * 16 + score, plain and scoped
    # to the country, under a GIN index, so `python:8 AND go:7` is an intersection of posting lists; and
    # {skill_id: score}, which `match` reads.
    skill_tokens = ArrayField(models.BigIntegerField(), default=list, db_default=[], editable=False)
    skill_scores = models.JSONField(default=dict, db_default={}, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # indexed with id, for ordering and `updated_since`

    # The fields an import writes, in the order the loader's statements list them; a recruiter can protect any of them
    # against later imports (``protected_fields``), and a merge fills the survivor's blank ones from the others'.
    IMPORTED_FIELDS = (
        "name",
        "headline",
        "title",
        "company",
        "city",
        "region",
        "country",
        "country_code",
        "summary",
        "badges",
        "years_coding",
        "years_employed",
        "spoken_languages",
        "email",
        "website",
        "skills_declared",
        "programming_languages_declared",
        "contributions_declared",
        "awards",
        "other_skills",
        "phone",
    )

    history = HistoricalRecords(
        excluded_fields=["search_vector", "skill_tokens", "skill_scores", "document_sha256", "updated_at"],
        bases=[CandidateHistoryExtras],
    )

    class Meta:
        ordering = ["-updated_at", "-id"]
        # E-mail, phone and links (profiles.contacts): not "view_..." so that no grant of every view permission
        # includes it.
        permissions = [("see_contact_details", "Can view contact details")]
        indexes = [
            GinIndex(fields=["search_vector"], name="candidate_search_gin"),
            GinIndex(fields=["skill_tokens"], name="candidate_skill_tokens_gin"),
            # country / company / title filters and the admin's country facet.
            models.Index(fields=["country_code"], name="candidate_country_idx"),
            models.Index(models.functions.Lower("company"), name="candidate_company_lower_idx"),
            models.Index(fields=["years_coding"], name="candidate_years_coding_idx"),
            models.Index(fields=["years_employed"], name="candidate_years_employed_idx"),
            GinIndex(fields=["badges"], name="candidate_badges_gin"),
            GinIndex(fields=["spoken_languages"], name="candidate_languages_gin"),
            # Cursor pagination orders by (updated_at, id).
            models.Index(fields=["-updated_at", "-id"], name="candidate_updated_id_idx"),
            models.Index(fields=["name", "id"], name="candidate_name_id_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(years_coding__lte=100), name="candidate_years_coding_sane"),
            models.CheckConstraint(condition=Q(years_employed__lte=100), name="candidate_years_employed_sane"),
            models.CheckConstraint(condition=~Q(name=""), name="candidate_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class CandidateIdentifier(models.Model):
    """An identity key of a candidate: external ids (GitHub, e-mail, LinkedIn, Twitter/X, GitLab, Stack Overflow, a
    profile URL) or the name with location."""

    class Kind(models.TextChoices):
        GITHUB = "github", "GitHub username"
        EMAIL = "email", "E-mail"
        URL = "url", "Profile URL"
        LINKEDIN = "linkedin", "LinkedIn username"
        TWITTER = "twitter", "Twitter/X handle"
        GITLAB = "gitlab", "GitLab username"
        STACKOVERFLOW = "so", "Stack Overflow user id"  # "stackoverflow" is longer than the column's 10
        NAME_LOCATION = "name", "Name and location"

    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="identifiers")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    value = models.CharField(max_length=500)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "value"], name="identifier_unique_kind_value"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


class Education(models.Model):
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="education")
    position = models.PositiveSmallIntegerField(default=0)
    degree = models.CharField(max_length=200, blank=True)
    field = models.CharField(max_length=200, blank=True)
    minor = models.CharField(max_length=200, blank=True)
    school = models.CharField(max_length=300, blank=True)
    start = models.DateField(null=True, blank=True, help_text="First day of the start month.")
    end = models.DateField(null=True, blank=True, help_text="First day of the end month.")
    # A CV often gives a study's years alone ("2009 – 2013"); the date then holds January, which is not what it said.
    start_year_only = models.BooleanField(
        default=False, db_default=False, help_text="The file gave the start's year alone."
    )
    end_year_only = models.BooleanField(
        default=False, db_default=False, help_text="The file gave the end's year alone."
    )

    class Meta:
        ordering = ["candidate", "position", "id"]
        verbose_name_plural = "education"
        indexes = [models.Index(models.functions.Lower("school"), name="education_school_lower_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(start__isnull=True) | Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="education_end_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.degree} {self.field} at {self.school}".strip()


class Position(models.Model):
    """A job in the candidate's work history, as the file listed it (``order``); the newest come first on a profile."""

    # Indexed by the (candidate, order) unique constraint.
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="positions", db_index=False)
    order = models.PositiveSmallIntegerField(default=0, help_text="The entry's place in the source file, from 0.")
    company = models.CharField(max_length=300, blank=True)
    title = models.CharField(max_length=300, blank=True)
    location = models.CharField(max_length=200, blank=True)
    start = models.DateField(null=True, blank=True, help_text="First day of the start month.")
    end = models.DateField(null=True, blank=True, help_text="First day of the end month; empty while current.")
    is_current = models.BooleanField(default=False)
    summary = models.TextField(blank=True)
    highlights = ArrayField(models.TextField(), default=list, blank=True)
    url = models.URLField("company site", max_length=500, blank=True)

    class Meta:
        ordering = ["candidate", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["candidate", "order"], name="position_unique_candidate_order"),
            models.CheckConstraint(
                condition=Q(start__isnull=True) | Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="position_end_after_start",
            ),
            models.CheckConstraint(condition=Q(is_current=False) | Q(end__isnull=True), name="position_current_no_end"),
        ]
        indexes = [
            # company= and current_company= (case-insensitive exact names).
            models.Index(models.functions.Lower("company"), "candidate", name="position_company_lower_idx"),
        ]

    def __str__(self) -> str:
        return " at ".join(part for part in (self.title, self.company) if part) or f"Job {self.order + 1}"


class SpokenLanguage(models.Model):
    """A language the candidate speaks: ISO 639 code and English name (``core.languages``), and how well."""

    class Fluency(models.TextChoices):
        # core.languages.FLUENCY_LEVELS, highest first; a test keeps the two in step.
        NATIVE = "native", "Native or bilingual"
        FULL_PROFESSIONAL = "full_professional", "Full professional"
        PROFESSIONAL_WORKING = "professional_working", "Professional working"
        LIMITED_WORKING = "limited_working", "Limited working"
        ELEMENTARY = "elementary", "Elementary"

    # Indexed by the (candidate, position) unique constraint.
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="languages", db_index=False)
    position = models.PositiveSmallIntegerField(default=0)
    code = models.CharField(
        max_length=20, blank=True, help_text="ISO 639 (BCP 47) code, `fr`; empty when the name is no known language."
    )
    name = models.CharField(max_length=100, help_text="The English name, `French` (as written when unknown).")
    fluency = models.CharField(max_length=20, choices=Fluency.choices, blank=True)
    raw = models.CharField("as written", max_length=200, blank=True)

    class Meta:
        ordering = ["candidate", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["candidate", "position"], name="spokenlanguage_unique_candidate_position"),
            models.CheckConstraint(condition=~Q(name=""), name="spokenlanguage_name_not_empty"),
        ]
        indexes = [models.Index(fields=["code", "fluency"], name="spokenlanguage_code_idx")]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_fluency_display()})" if self.fluency else self.name


class CandidateSkill(models.Model):
    class Section(models.TextChoices):
        SKILL = "skill", "GitHub skill"
        LANGUAGE = "language", "Programming language"

    # Indexed by the (candidate, skill) unique constraint; skill filters read Candidate.skill_tokens instead.
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="skills", db_index=False)
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="candidate_skills")
    score = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=200, help_text="The label exactly as the file wrote it.")
    section = models.CharField(max_length=10, choices=Section.choices, default=Section.SKILL)
    position = models.PositiveSmallIntegerField(default=0)
    # A score a recruiter set in the admin: imports of the same person keep it (and the row) until it is released.
    score_by_hand = models.BooleanField(default=False, db_default=False, verbose_name="score edited by hand")

    class Meta:
        ordering = ["candidate", "position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(score__gte=0) & Q(score__lte=10), name="candidateskill_score_0_10"),
            models.UniqueConstraint(fields=["candidate", "skill"], name="candidateskill_unique_candidate_skill"),
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.score}"


class SkillLabelMove(models.Model):
    """A stored label that ``reresolve_skills`` moved off the skill an import had made of it: the row as it was, so the
    move can be undone (``reresolve_skills --undo``) and the label as the file wrote it is never lost, also when the
    candidate had the skill it moved to already and that row kept its own label."""

    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="skill_label_moves")
    skill_slug = models.CharField(max_length=100, help_text="The skill the label was on (it may be deleted since).")
    label = models.CharField(max_length=200)
    score = models.PositiveSmallIntegerField()
    section = models.CharField(max_length=10)
    position = models.PositiveSmallIntegerField()
    score_by_hand = models.BooleanField()
    to_slugs = ArrayField(models.CharField(max_length=100), blank=True, help_text="Empty: moved to the other skills.")
    # The rows of to_slugs the candidate had already, as they were (slug, score, score by hand); the others were added.
    kept_before = models.JSONField(default=list, blank=True)
    moved_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.label}: {self.skill_slug} → {', '.join(self.to_slugs) or 'text'}"
