"""The candidate's fields as each reader shows them, in one place: which fields, in which order, under which heading.

The API's candidate list and detail (and the JSON Lines export row, the detail without its ``sources``), the CSV
export's columns and the admin's change form take their lists from here, so a field added to the profile is named
once and the shapes cannot drift apart. Each reader writes its own values (a serializer field, a CSV cell, a form
input); the names, their order and their groups are these.
"""

from __future__ import annotations

# Contact details in the API and the exports, after the other fields: only for a reader who may see them
# (``profiles.contacts.may_see_contact_details``). ``links`` are the public pages of ``profiles.contacts.contact_urls``.
CONTACT_FIELDS = ("email", "phone", "links")

# ``GET /api/v1/candidates/``: one row per candidate (no jobs, languages or education).
LIST_FIELDS = (
    "id",
    "url",
    "name",
    "headline",
    "title",
    "company",
    "location",
    "badges",
    "years_coding",
    "years_employed",
    "skills",
    "programming_languages",
    "match",
    "rank",
    "updated_at",
)

# ``GET /api/v1/candidates/{id}/``: the whole profile; ``CONTACT_FIELDS`` follow.
DETAIL_FIELDS = (
    "id",
    "url",
    "name",
    "headline",
    "title",
    "company",
    "location",
    "badges",
    "summary",
    "years_coding",
    "years_employed",
    "experience",
    "education",
    "spoken_languages",
    "languages",
    "skills_declared",
    "skills",
    "other_skills",
    "programming_languages_declared",
    "programming_languages",
    "contributions_declared",
    "contributions",
    "awards",
    "match",
    "created_at",
    "updated_at",
    "sources",
)

# A JSON Lines export row: the detail without the stored files behind it; ``CONTACT_FIELDS`` follow.
EXPORT_ROW_FIELDS = tuple(name for name in DETAIL_FIELDS if name != "sources")

# A CSV export's columns (the API's streams, export jobs and the admin's CSV action); ``CONTACT_FIELDS`` follow.
CSV_COLUMNS = (
    "id",
    "name",
    "headline",
    "title",
    "company",
    "current_companies",
    "previous_companies",
    "city",
    "region",
    "country",
    "country_code",
    "years_coding",
    "years_employed",
    "badges",
    "spoken_languages",
    "skills",
    "programming_languages",
    "match",
    "updated_at",
    "url",
)

# The admin's change form: each group a heading and its lines, a tuple being one line of several fields.
FORM_GROUPS = (
    ("Who", ("name", "headline", ("title", "company"), "summary")),
    ("Where", (("city", "region"), ("country", "country_code"))),
    ("Experience", (("years_coding", "years_employed"), "badges", "spoken_languages")),
)
# The stored contact columns (``profiles.contacts.CONTACT_COLUMNS``), in the form's last group, for a reader who may
# see them.
FORM_CONTACT_GROUP = ("Contact", ("email", "phone", "website"))


def form_field_names(groups) -> list[str]:
    """The fields of ``groups`` (``FORM_GROUPS``' shape), each line's in order."""
    return [name for _, lines in groups for line in lines for name in (line if isinstance(line, tuple) else (line,))]
