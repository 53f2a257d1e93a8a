"""A job description read into search criteria: ``extract_criteria(text, vocabulary) -> Criteria``. Pure: the
vocabulary (``profiles.vocabulary_copy.skill_vocabulary()``) and the cities come from the caller; no database, no
network. ``docs/job-posts.md`` says for recruiters how a post is read; each stage is a module of this package:

1. ``text``: the checks (``checked_text``), then the clean-up: typographic apostrophes and quotes made plain, links
   and e-mail addresses replaced by a space.
2. ``sections``: each line's role from its heading (required, preferred or a mere mention), headings in their many
   forms (Markdown, bold, numbered, any case).
3. ``skills``: the vocabulary's names found (``jobs.matching``), judged (``ambiguity``: words that need a technical
   context) and placed (``cues``: cues bound to their clause, negations, migrations, substitutes, a degree's field;
   ``employer``: the employer's own name where the post speaks of the company), then decided: required, preferred
   or ignored; generic words (framework, cloud, backend...) are never criteria.
4. ``years``: only from statements about the candidate's experience. ``jobs.places``: the job's own place.
   ``keywords``: the seniority and the title's words. ``unrecognised``: technology-looking terms the vocabulary lacks.

What the reading left out, for the recruiter to add back, is part of the criteria:

- ``Criteria.ignored``: ``Ignored(label, skill, reason)`` per known skill named but not taken (``label`` as written,
  ``skill`` its slug, ``reason`` one of ``IGNORED_REASONS``: negated, migrated-off, substitute, only-mentioned,
  not-a-skill); never ``excluded``, which is the recruiter's to fill.
- ``Criteria.unrecognised``: terms, as first written, at most 20, none longer than ``MAX_TERM_CHARS`` (60).

``Criteria.to_dict()`` gives them as ``"ignored": [{"label", "skill", "reason"}]`` and ``"unrecognised": [str]``; a
stored job keeps them in ``Job.ignored`` and ``Job.unrecognised``, read back by ``jobs.selectors.job_criteria``.
"""

from __future__ import annotations

from collections.abc import Mapping

from jobs import places
from jobs.criteria.keywords import title_keywords, title_span
from jobs.criteria.result import (
    BASIC_MIN_SCORE,
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SCORE,
    IGNORED_REASONS,
    STRONG_MIN_SCORE,
    Criteria,
    CriteriaError,
    Ignored,
)
from jobs.criteria.sections import read_lines
from jobs.criteria.skills import decide, found_skills, require_title_skills
from jobs.criteria.text import checked_text, cleaned_text
from jobs.criteria.unrecognised import unrecognised_terms
from jobs.criteria.years import min_years
from jobs.matching import fold
from profiles.vocabulary import SkillVocabulary

__all__ = [
    "BASIC_MIN_SCORE",
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MIN_SCORE",
    "IGNORED_REASONS",
    "STRONG_MIN_SCORE",
    "Criteria",
    "CriteriaError",
    "Ignored",
    "checked_text",
    "extract_criteria",
]


def extract_criteria(
    text: str,
    vocabulary: SkillVocabulary,
    *,
    cities: Mapping[str, str] | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
) -> Criteria:
    """The criteria a job description asks for (the module docstring gives the rules).

    ``cities``: city name -> ISO alpha-2 (the database's cities; none by default). Raises ``CriteriaError`` for text
    that cannot be read (empty, longer than ``max_chars``, control characters); a text with no skill is no error:
    its criteria say so in ``warnings``.
    """
    text = cleaned_text(checked_text(text, max_chars))
    folded = fold(text)
    lines, header_end, place_spans = read_lines(text)
    title = title_span(text, folded, cities)
    found = found_skills(text, folded, lines, vocabulary, title, header_end)
    require_title_skills(text, found, title)
    required, preferred, ignored, warnings = decide(found)
    remote = places.job_remote(folded, header_end=header_end)
    countries = places.job_countries(text, folded, header_end=header_end, place_spans=place_spans, cities=cities)
    if remote and places.open_worldwide(folded):
        countries = []  # "fully remote (global)": open in every country, whatever its office's place
    return Criteria(
        required=tuple(required),
        preferred=tuple(preferred),
        min_years_coding=min_years(folded, lines),
        countries=tuple(countries),
        remote=remote,
        keywords=tuple(title_keywords(text, folded, header_end, {f.match.slug for f in found}, cities)),
        ignored=tuple(ignored),
        unrecognised=tuple(unrecognised_terms(text, lines, found)),
        warnings=tuple(warnings),
    )
