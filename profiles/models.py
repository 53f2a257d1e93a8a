"""The talent domain: candidates, their skills, education and open-source contributions.

Constraints live in the database (check and unique constraints), so a bad write fails whichever code path makes it.
"""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from simple_history.models import HistoricalRecords


class Skill(models.Model):
    class Kind(models.TextChoices):
        SKILL = "skill", "Skill"
        LANGUAGE = "language", "Programming language"
        TOPIC = "topic", "Topic"

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SKILL)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name


class SkillAlias(models.Model):
    """Every label seen in a file (lower-cased) maps to exactly one canonical skill."""

    label = models.CharField(max_length=200, unique=True)
    skill = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="aliases")

    class Meta:
        verbose_name_plural = "skill aliases"
        ordering = ["label"]
        constraints = [
            models.CheckConstraint(condition=Q(label=models.functions.Lower("label")), name="skillalias_label_lower"),
        ]

    def __str__(self) -> str:
        return f"{self.label} → {self.skill.slug}"


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


class RelatedSkill(models.Model):
    """``related`` goes with ``skill`` more often than chance: computed from the candidates' skills, never edited.

    ``support`` is the number of candidates (of the pool the refresh counted) who have both at the minimum score;
    ``lift`` is how many times more often than if the two were independent: support × pool / (n(skill) × n(related)).
    ``profiles.services.related_skills_refresh`` replaces every row at once; a pair is stored in both directions,
    each skill keeping only its top related ones.
    """

    # Read by skill (``related_skills``): the unique constraint's index, which leads with skill, serves that.
    skill = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="related_skills", db_index=False)
    related = models.ForeignKey(Skill, on_delete=models.CASCADE, related_name="+")
    support = models.PositiveIntegerField()
    lift = models.FloatField()
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["skill", "-lift", "-support", "related"]
        constraints = [
            models.UniqueConstraint(fields=["skill", "related"], name="relatedskill_unique_pair"),
            models.CheckConstraint(condition=~Q(skill=models.F("related")), name="relatedskill_not_itself"),
            models.CheckConstraint(condition=Q(support__gte=1), name="relatedskill_support_positive"),
            models.CheckConstraint(condition=Q(lift__gt=0), name="relatedskill_lift_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.skill_id} → {self.related_id} (lift {self.lift:.2f}, {self.support} candidates)"


class Repository(models.Model):
    full_name = models.CharField(max_length=300, unique=True, help_text="owner/name")
    description = models.TextField(blank=True)
    # Topics as the file wrote them (split), and their canonical slugs for alias-aware filtering.
    topics = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    topic_slugs = ArrayField(models.CharField(max_length=100), default=list, blank=True)
    topics_raw = models.CharField(max_length=1000, blank=True, help_text="The topics line before splitting.")

    class Meta:
        ordering = ["full_name"]
        verbose_name_plural = "repositories"
        indexes = [GinIndex(fields=["topic_slugs"], name="repository_topic_slugs_gin")]
        constraints = [
            models.CheckConstraint(condition=Q(full_name__regex=r"^[^/\s]+/[^/\s]+$"), name="repository_owner_name"),
        ]

    def __str__(self) -> str:
        return self.full_name


class Contribution(models.Model):
    # Indexed by the (candidate, repository) unique constraint and the (repository, candidate) index below.
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="contributions", db_index=False)
    repository = models.ForeignKey(Repository, on_delete=models.PROTECT, related_name="contributions", db_index=False)
    position = models.PositiveSmallIntegerField(default=0)
    role = models.CharField(max_length=200, blank=True)
    commits = models.PositiveIntegerField(default=0)
    comments = models.PositiveIntegerField(default=0)
    start = models.DateField(null=True, blank=True, help_text="First day of the start month.")
    end = models.DateField(null=True, blank=True, help_text="First day of the end month; empty while ongoing.")
    is_current = models.BooleanField(default=False)
    active_months = models.PositiveIntegerField(null=True, blank=True)
    summary = models.TextField(blank=True)

    class Meta:
        ordering = ["candidate", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["candidate", "repository"], name="contribution_unique_candidate_repo"),
            models.CheckConstraint(
                condition=Q(start__isnull=True) | Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="contribution_end_after_start",
            ),
        ]
        indexes = [
            # repository=owner/name filter and the repository's contributor count.
            models.Index(fields=["repository", "candidate"], name="contribution_repo_cand_idx"),
            models.Index(fields=["candidate", "commits"], name="contribution_cand_commits_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.candidate} → {self.repository}"


# Shortlists and saved searches are their owner's: private unless the owner shares them with the team, and then the
# team reads them while only the owner (or a superuser) changes them. profiles.selectors.working_lists_for is the rule.
SHARED_HELP = "Every colleague may see and export it; only you change it."


class Shortlist(models.Model):
    name = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="shortlists")
    description = models.TextField(blank=True)
    shared = models.BooleanField("shared with the team", default=False, help_text=SHARED_HELP)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="shortlist_unique_owner_name")]

    def __str__(self) -> str:
        return self.name


class ShortlistEntry(models.Model):
    # The stages of a pipeline (issue 16), in their order; a plain shortlist uses the same. "sourced" was "new"
    # before migration 0016.
    class Status(models.TextChoices):
        SOURCED = "sourced", "Sourced"
        CONTACTED = "contacted", "Contacted"
        REPLIED = "replied", "Replied"
        INTERVIEWING = "interviewing", "Interviewing"
        OFFER = "offer", "Offer"
        HIRED = "hired", "Hired"
        REJECTED = "rejected", "Rejected"

    shortlist = models.ForeignKey(Shortlist, on_delete=models.CASCADE, related_name="entries")
    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="shortlist_entries")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SOURCED)
    notes = models.TextField(blank=True)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["shortlist", "-added_at"]
        verbose_name_plural = "shortlist entries"
        constraints = [
            models.UniqueConstraint(fields=["shortlist", "candidate"], name="shortlistentry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.candidate} in {self.shortlist}"


class ShortlistEntryEvent(models.Model):
    """What happened to an entry, by whom and when: it was added, moved to a stage, or given a note. Written by the
    shortlist services (``profiles.services``) alongside the change itself, never by signals, so every path that
    changes an entry goes through one place."""

    class Kind(models.TextChoices):
        ADDED = "added", "Added"
        STAGE = "stage", "Stage changed"
        NOTE = "note", "Note"

    entry = models.ForeignKey(ShortlistEntry, on_delete=models.CASCADE, related_name="events")
    # A colleague who leaves keeps their history on the entries: the event stays, without its author.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    from_status = models.CharField(max_length=20, choices=ShortlistEntry.Status.choices, blank=True)
    to_status = models.CharField(max_length=20, choices=ShortlistEntry.Status.choices, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.entry_id} at {self.at:%Y-%m-%d %H:%M}"


class SavedSearch(models.Model):
    """A named set of the API's candidate filters (query-string form), shared by admin, API and exports."""

    name = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="saved_searches")
    query = models.CharField(max_length=2000, help_text="Filters as a query string, e.g. skill=python:8&country=DE")
    shared = models.BooleanField("shared with the team", default=False, help_text=SHARED_HELP)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "saved searches"

    def __str__(self) -> str:
        return self.name


class NotDuplicate(models.Model):
    """A pair of candidates a recruiter marked as different people; never proposed for merging again."""

    first = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    marked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="notduplicate_unique_pair"),
            models.CheckConstraint(condition=Q(first__lt=models.F("second")), name="notduplicate_ordered_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} ≠ {self.second_id}"


class PossibleDuplicate(models.Model):
    """Two candidates an import could not tell apart by their identifiers: a file led by an identity key to a
    candidate of a clearly different name, and was imported as a new candidate (``second``) rather than written over
    the one that holds the key (``first``). The possible-duplicates page lists the pair until a recruiter merges it or
    marks it as different people."""

    class Reason(models.TextChoices):
        NAME_DIFFERS = "name", "An identifier of theirs, under another name"
        SPELLINGS = "spelling", "One identifier, written two ways"

    first = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    kind = models.CharField(max_length=10, blank=True)  # the identity key both named (CandidateIdentifier.Kind)
    value = models.CharField(max_length=500, blank=True)
    found_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="possibleduplicate_unique_pair"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="possibleduplicate_two_candidates"),
        ]
        indexes = [models.Index(fields=["second"], name="possibleduplicate_second_idx")]

    def __str__(self) -> str:
        return f"{self.first_id} ~ {self.second_id}"


class IdentityReview(models.Model):
    """A candidate whose history shows their name changing to a clearly different person's: an import before names
    were checked (``PossibleDuplicate``) may have merged two people into them, the second file written over the
    first. Listed for a recruiter to check and split by hand; the finding changes nothing of the candidate."""

    candidate = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="identity_reviews")
    names = ArrayField(models.CharField(max_length=300), help_text="The names its history and its files show.")
    found_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["found_at", "id"]
        constraints = [models.UniqueConstraint(fields=["candidate"], name="identityreview_one_per_candidate")]

    def __str__(self) -> str:
        return " → ".join(self.names)


class SharedIdentifier(models.Model):
    """An identity key that several people name (an employer's homepage in two colleagues' files): no personal
    identifier, so the loader matches nobody by it and gives it to nobody."""

    kind = models.CharField(max_length=10)
    value = models.CharField(max_length=500)
    noted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "value"], name="sharedidentifier_unique_kind_value")]

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"


class MergeRecord(models.Model):
    survivor = models.ForeignKey(Candidate, on_delete=models.CASCADE, related_name="merges")
    merged_name = models.CharField(max_length=300)
    merged_id = models.BigIntegerField()
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    merged_at = models.DateTimeField(auto_now_add=True)
    details = models.JSONField(default=dict)

    class Meta:
        ordering = ["-merged_at"]

    def __str__(self) -> str:
        return f"{self.merged_name} (#{self.merged_id}) merged into #{self.survivor_id}"
