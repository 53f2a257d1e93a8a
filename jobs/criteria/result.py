"""What the reading of a job post gives: ``Criteria``, the mentions it left out (``Ignored``) and its error."""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_MAX_CHARS = 100_000  # a settings value will carry it; 100,000 characters is twenty pages of job post
DEFAULT_MIN_SCORE = 5  # a required skill's minimum score (0-10): an unqualified level reads as 5 in imports too
STRONG_MIN_SCORE = 7  # "deep", "strong", "expert" knowledge: the "Proficient" level of the import table
# "Familiarity with", "exposure to", "basic knowledge of": a requirement with a lower bar, the "Beginner" level of
# the import table, so that people who know the skill a little still meet it.
BASIC_MIN_SCORE = 3
# The longest word read as a name (an unrecognised term, a title keyword): product names are far shorter, and a longer
# token is a hash, a key or a pasted blob, which would only crowd the recruiter's list.
MAX_TERM_CHARS = 60

REQUIRED, PREFERRED, MENTIONED = "required", "preferred", "mentioned"
# A required mention's bar, where a cue sets it: "strong Python" (STRONG_MIN_SCORE), "familiarity with Docker"
# (BASIC_MIN_SCORE).
REQUIRED_STRONG, REQUIRED_BASIC = "required-strong", "required-basic"
REQUIRED_TITLE = "required-title"  # the job's own technology, named in its title
# Why a mention was left out of the criteria: the ``reason`` of an ``Ignored`` (and of the API's ``ignored`` items).
NEGATED, MIGRATED, SUBSTITUTE = "negated", "migrated-off", "substitute"
ONLY_MENTIONED, NOT_A_SKILL = "only-mentioned", "not-a-skill"
IGNORED_REASONS = (NEGATED, MIGRATED, SUBSTITUTE, ONLY_MENTIONED, NOT_A_SKILL)


class CriteriaError(ValueError):
    """A description that cannot be read at all (empty, too long, binary); the message says which."""


@dataclass(frozen=True, slots=True)
class Ignored:
    """A mention of a known skill that the criteria leave out, and why (one of ``IGNORED_REASONS``)."""

    label: str  # as the text wrote it ("Unity", "EQ")
    skill: str  # the slug it names, which a recruiter may add back
    reason: str

    def to_dict(self) -> dict:
        return {"label": self.label, "skill": self.skill, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Criteria:
    required: tuple[tuple[str, int], ...] = ()  # (slug, min_score)
    preferred: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    min_years_coding: int | None = None
    countries: tuple[str, ...] = ()  # ISO 3166-1 alpha-2
    remote: bool | None = None
    keywords: tuple[str, ...] = ()
    ignored: tuple[Ignored, ...] = ()  # named in the text but not taken, each with its reason
    unrecognised: tuple[str, ...] = ()  # technology-looking terms of requirement lines that the vocabulary lacks
    warnings: tuple[str, ...] = field(default=())

    @property
    def skills(self) -> tuple[str, ...]:
        return tuple(slug for slug, _ in self.required) + self.preferred

    def to_dict(self) -> dict:
        """The API's ``criteria`` object: the shape the jobs and match endpoints return and take as overrides."""
        return {
            "required": [{"skill": slug, "min_score": score} for slug, score in self.required],
            "preferred": [{"skill": slug} for slug in self.preferred],
            "excluded": list(self.excluded),
            "min_years_coding": self.min_years_coding,
            "countries": list(self.countries),
            "remote": self.remote,
            "keywords": list(self.keywords),
            "ignored": [item.to_dict() for item in self.ignored],
            "unrecognised": list(self.unrecognised),
        }
