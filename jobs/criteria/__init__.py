"""A job description read into search criteria: ``extract_criteria(text, vocabulary) -> Criteria``. Pure: the
vocabulary (``profiles.selectors.skill_vocabulary()``) and the cities come from the caller; no database, no network.

How the text is read (the README's "Job criteria from text" says the same for recruiters):

1. **Skills** are the vocabulary's aliases found by one Aho-Corasick automaton (``jobs.matching``): multi-word,
   punctuation-aware (C++17, .NET 8, Node.js, CI/CD), longest match first, versions kept with their name.
2. **Ambiguous words** count only in a technical context. A match is ambiguous when it is one letter (C, R), when
   the issue names it (Go, React, Spark, Rust, Swift, Dart, Elm, Chef, Puppet, Ruby, Scheme...), or when its alias
   is one common English word (ten million web occurrences or more in wordsegment's table: move, reason, help,
   console, database, payments). It counts when nothing speaks against it and something speaks for it:
   - against: an idiom ("go to market", "R&D", "react quickly", "spark joy", "guard rails", "pension scheme"); a
     person's name (capitalised next to another capitalised word that is no skill: "Ruby Okonkwo", "Taylor Swift");
     lower case ("fluent in C++", "the reason we are hiring"), unless a cue, a version or a list says otherwise;
   - for: a version after it ("R 4.4", "Go 1.22"); a cue right before it ("experience with", "in", "using",
     "fluent", "years of"); a neighbouring skill with only list punctuation between (commas, slashes, "and", "or",
     "+"), or another ambiguous one that stands ("Chef or Puppet"); heading a list item ("- Payments, banking",
     "Must have: Elm", and in a requirements list "- Spark for the big joins"); a capital in mid-sentence after a
     lower-case word ("services in Go"; Title Case headings do not count). One letter needs the capital and one
     of the first four. Once a skill has a strong context in the text, its other capitalised mentions count too.
   - against, too: a noun phrase ending in it after "our", "the", "a" ("our old API.", "the reason."). A name of
     several words ("Apache Spark", "Ruby on Rails") is never ambiguous.
   - Human languages (English, Polish, Spanish: ``core.languages.is_language_name``) are never skills.
3. **Sections** decide required or preferred. Headings ("Requirements", "What you'll need", "You have", "Must
   have" -> required; "Nice to have", "Bonus", "Preferred", "Plus" -> preferred; any other heading, the heading
   block and the prose before the first heading -> a mere mention) set the default for their lines; cues in a
   sentence override it ("... is a plus", "would be useful", "is welcome" -> preferred; "we are looking for", "you
   should", "must" -> required, where the section said nothing). A skill asked for anywhere is required, else
   preferred if preferred anywhere. Skills only mentioned (what the team does, what another squad builds) are no
   criteria when the text asks for anything at all; when it asks for nothing, every skill named is required.
4. **Negations and migrations** drop a skill's mention: "we don't use Unity", "no Java needed", "you will not write
   PHP", "we are moving off PHP" (the target of "moving off X to Y" stays), "Perl scripts that we are retiring",
   "Legacy: ..."; so do substitutes ("Stripe or another payments API", "RenderDoc or a similar GPU tool"). They go
   to ``Criteria.ignored`` with the reason, never to ``excluded``: a team not using Unity is no reason to turn away
   people who know it. ``excluded`` is the recruiter's to fill.
5. **Years**: "5+ years", "at least three years", "8 or more years of professional experience", "2+ yrs"; the
   largest of those that speak of experience (in "7+ years, three of them in Kotlin" it is 7), never "10 years ago".
6. **Place and remote**: ``jobs.places``. **Keywords**: the seniority words of the title or of "we are hiring a
   senior ...", and the title's other words that are no skill and no generic role noun (engineer, developer).
"""

from __future__ import annotations

from collections.abc import Mapping

from jobs import places
from jobs.criteria.keywords import title_keywords
from jobs.criteria.result import (
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SCORE,
    IGNORED_REASONS,
    STRONG_MIN_SCORE,
    Criteria,
    CriteriaError,
    Ignored,
)
from jobs.criteria.sections import read_lines
from jobs.criteria.skills import decide, found_skills
from jobs.criteria.text import checked_text, cleaned_text
from jobs.criteria.unrecognised import unrecognised_terms
from jobs.criteria.years import min_years
from jobs.matching import fold
from profiles.vocabulary import SkillVocabulary

__all__ = [
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
    found = found_skills(text, folded, lines, vocabulary)
    required, preferred, ignored, warnings = decide(found)
    return Criteria(
        required=tuple(required),
        preferred=tuple(preferred),
        min_years_coding=min_years(folded, lines),
        countries=tuple(
            places.job_countries(text, folded, header_end=header_end, place_spans=place_spans, cities=cities)
        ),
        remote=places.job_remote(folded, header_end=header_end),
        keywords=tuple(title_keywords(text, folded, header_end, {f.match.slug for f in found}, cities)),
        ignored=tuple(ignored),
        unrecognised=tuple(unrecognised_terms(text, lines, found)),
        warnings=tuple(warnings),
    )
