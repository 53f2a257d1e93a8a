"""The talent domain: candidates, their skills, education and open-source contributions.

Constraints live in the database (check and unique constraints), so a bad write fails whichever code path makes it.
One module per part of the domain; every model is importable from here, as Django and the rest of the code expect.
"""

from profiles.models.candidates import (
    Candidate,
    CandidateHistoryExtras,
    CandidateIdentifier,
    CandidateSkill,
    Education,
    Position,
    SkillLabelMove,
    SpokenLanguage,
)
from profiles.models.identity import IdentityReview, MergeRecord, NotDuplicate, PossibleDuplicate, SharedIdentifier
from profiles.models.repositories import Contribution, Repository
from profiles.models.skills import RelatedSkill, Skill, SkillAlias
from profiles.models.working_lists import SHARED_HELP, SavedSearch, Shortlist, ShortlistEntry, ShortlistEntryEvent

__all__ = [
    "SHARED_HELP",
    "Candidate",
    "CandidateHistoryExtras",
    "CandidateIdentifier",
    "CandidateSkill",
    "Contribution",
    "Education",
    "IdentityReview",
    "MergeRecord",
    "NotDuplicate",
    "Position",
    "PossibleDuplicate",
    "RelatedSkill",
    "Repository",
    "SavedSearch",
    "SharedIdentifier",
    "Shortlist",
    "ShortlistEntry",
    "ShortlistEntryEvent",
    "Skill",
    "SkillAlias",
    "SkillLabelMove",
    "SpokenLanguage",
]
