"""Reads of the talent domain, one module per kind: filtered searches (searches), candidates' columns and rows
(candidates), a profile page (profile_page), possible duplicates (duplicates), working lists (working_lists), the
filter sidebar's choices (filter_choices), skills (skills). Every selector is importable from here; the process's copy
of the skill vocabulary, which the search seam reads too, is ``profiles.vocabulary_copy``'s, and counting at scale
``db.counting``'s."""

from profiles.selectors.candidates import (
    POSITIONS_NEWEST_FIRST,
    TOP_SKILLS,
    candidate_detail,
    candidate_skills_snapshot,
    candidate_top_skills_prefetch,
    candidates_attach_skills,
    candidates_count_up_to,
    candidates_for_listing,
    candidates_for_profiles,
    candidates_iterate_with_skills,
    candidates_with_companies,
    candidates_with_profile_rows,
    candidates_with_skills,
    skill_changes,
)
from profiles.selectors.duplicates import (
    DUPLICATE_NAMES_SQL,
    DuplicateGroup,
    DuplicatePage,
    candidate_duplicate_groups,
    candidate_recorded_duplicates,
)
from profiles.selectors.filter_choices import (
    FILTER_CHOICES_KEY,
    FILTER_CHOICES_MAX_AGE_SECONDS,
    CandidateFilterChoices,
    candidate_filter_choices,
    candidate_filter_choices_forget,
)
from profiles.selectors.profile_page import SKILL_SECTION_TITLES, CandidateProfile, candidate_profile
from profiles.selectors.searches import (
    candidate_autocomplete,
    candidate_match_skills,
    candidate_search,
    repository_search,
    skill_search,
)
from profiles.selectors.skills import (
    CreatedSkill,
    RelatedSuggestion,
    related_skills,
    related_skills_for,
    skills_created_by_imports,
)
from profiles.selectors.working_lists import (
    WorkingList,
    owned_by_another_model,
    pipeline_owner,
    pipeline_owner_relations,
    shortlist_entries_for_export,
    working_list_permits,
    working_lists_for,
)

__all__ = [
    "DUPLICATE_NAMES_SQL",
    "FILTER_CHOICES_KEY",
    "FILTER_CHOICES_MAX_AGE_SECONDS",
    "POSITIONS_NEWEST_FIRST",
    "SKILL_SECTION_TITLES",
    "TOP_SKILLS",
    "CandidateFilterChoices",
    "CandidateProfile",
    "CreatedSkill",
    "DuplicateGroup",
    "DuplicatePage",
    "RelatedSuggestion",
    "WorkingList",
    "candidate_autocomplete",
    "candidate_detail",
    "candidate_duplicate_groups",
    "candidate_filter_choices",
    "candidate_filter_choices_forget",
    "candidate_match_skills",
    "candidate_profile",
    "candidate_recorded_duplicates",
    "candidate_search",
    "candidate_skills_snapshot",
    "candidate_top_skills_prefetch",
    "candidates_attach_skills",
    "candidates_count_up_to",
    "candidates_for_listing",
    "candidates_for_profiles",
    "candidates_iterate_with_skills",
    "candidates_with_companies",
    "candidates_with_profile_rows",
    "candidates_with_skills",
    "owned_by_another_model",
    "pipeline_owner",
    "pipeline_owner_relations",
    "related_skills",
    "related_skills_for",
    "repository_search",
    "shortlist_entries_for_export",
    "skill_changes",
    "skill_search",
    "skills_created_by_imports",
    "working_list_permits",
    "working_lists_for",
]
