"""Parser for the Prog.AI profile text export (the format of shared/corpus/progai/jinliang-wei.txt).

The export is the text of a web page copied out line by line, so several fields are glued together: badges run
into each other and into the summary, education entries are written twice and run into the next one, skill labels
are glued to their 0-10 score, contribution roles are glued to "Contributions:", and a repository's topics are
glued into one word. Each quirk is undone by a small function in the module of the part it belongs to (``head``,
``education``, ``languages``, ``skills``, ``contributions``); ``layout`` knows the export's headings and lines,
``words`` the names it writes, and ``parser`` puts the document together. Every function copes with missing parts.
"""

from ingestion.parsers.progai.education import parse_education
from ingestion.parsers.progai.languages import parse_spoken_language_entries, parse_spoken_languages
from ingestion.parsers.progai.layout import (
    AD_MARKER,
    ADVERTISEMENT,
    CONTRIBUTION_SUMMARY_LABEL,
    CONTRIBUTIONS_HEADING,
    LANGUAGES_HEADING,
    MAX_COUNT,
    PRESENT,
    ROLE_LABEL,
    SKILLS_HEADING,
    STATS_LABEL,
    SUMMARY_HEADING,
    YEARS_CODING_TEXT,
    YEARS_EMPLOYED_TEXT,
    looks_like_progai,
)
from ingestion.parsers.progai.parser import NOT_A_PROFILE, parse_progai
from ingestion.parsers.progai.skills import split_score
from ingestion.parsers.progai.words import BADGES, COMMON_LABELS, DEGREES, DIGIT_LABELS

__all__ = [
    "ADVERTISEMENT",
    "AD_MARKER",
    "BADGES",
    "COMMON_LABELS",
    "CONTRIBUTIONS_HEADING",
    "CONTRIBUTION_SUMMARY_LABEL",
    "DEGREES",
    "DIGIT_LABELS",
    "LANGUAGES_HEADING",
    "MAX_COUNT",
    "NOT_A_PROFILE",
    "PRESENT",
    "ROLE_LABEL",
    "SKILLS_HEADING",
    "STATS_LABEL",
    "SUMMARY_HEADING",
    "YEARS_CODING_TEXT",
    "YEARS_EMPLOYED_TEXT",
    "looks_like_progai",
    "parse_education",
    "parse_progai",
    "parse_spoken_language_entries",
    "parse_spoken_languages",
    "split_score",
]
