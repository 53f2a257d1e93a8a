"""The normalisation stage: a parsed document in, the rows a loader writes out, every repair a warning.

file → SourceFile → parser → ProfileDocument → **normalise** → NormalisedProfile → loader → models

``normalise`` is a pure function (no database, no network). It fits the document to the tables: text clipped to the
column lengths the models declare, skill and topic labels mapped to canonical skills through the vocabulary, a skill
named twice kept once (with the higher score), a repository named twice kept once, contribution dates in order,
implausible values dropped. Each repair adds a plain-words warning to the profile, which the recruiter reads on the
source file. The loader then only writes what it is given.

Before that, ``apply_limits`` holds a document to the per-file caps (``Limits``), before anything of it is looked up
in the database: the lookups create the skills and repositories every profile shares, which one file must not flood.

The modules: ``stage`` (``normalise`` and the candidate's rows), ``skills`` (labels to skills), ``limits`` (the
per-file caps), ``rows`` (what the loader is handed), ``columns`` (the columns' lengths).
"""

from ingestion.normalise.limits import Limits, apply_limits
from ingestion.normalise.rows import (
    MAX_REPAIRS,
    NormalisedContribution,
    NormalisedEducation,
    NormalisedLanguage,
    NormalisedPosition,
    NormalisedProfile,
    NormalisedSkill,
)
from ingestion.normalise.skills import document_label_keys
from ingestion.normalise.stage import document_sha256, identity_keys, normalise

__all__ = [
    "MAX_REPAIRS",
    "Limits",
    "NormalisedContribution",
    "NormalisedEducation",
    "NormalisedLanguage",
    "NormalisedPosition",
    "NormalisedProfile",
    "NormalisedSkill",
    "apply_limits",
    "document_label_keys",
    "document_sha256",
    "identity_keys",
    "normalise",
]
