"""A candidate's contact details: the e-mail address, the phone number and the links to their public pages
(accounts, profile URLs, site). Shown and exported only to users with ``CONTACT_PERMISSION`` (the Recruiter group has
it, the Viewer group does not); every page, API answer and export asks ``may_see_contact_details`` and leaves the
details out otherwise."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from core.contact_text import without_contact_details
from core.identity import url_key, url_token
from profiles.models import Candidate, CandidateIdentifier

CONTACT_PERMISSION = "profiles.see_contact_details"
# The candidate's own columns that are contact details (the links are its identifiers and the site): what a page that
# shows columns, such as the history, leaves out for a reader without the permission.
CONTACT_COLUMNS = frozenset({"email", "phone", "website"})

# Where each kind of identifier is a public page; the others (e-mail, name and location) are not links.
PROFILE_LINKS = {
    CandidateIdentifier.Kind.GITHUB: ("GitHub", "https://github.com/{}"),
    CandidateIdentifier.Kind.LINKEDIN: ("LinkedIn", "https://www.linkedin.com/in/{}"),
    CandidateIdentifier.Kind.GITLAB: ("GitLab", "https://gitlab.com/{}"),
    CandidateIdentifier.Kind.TWITTER: ("Twitter/X", "https://x.com/{}"),
    CandidateIdentifier.Kind.STACKOVERFLOW: ("Stack Overflow", "https://stackoverflow.com/users/{}"),
}


@dataclass(frozen=True)
class Link:
    label: str
    url: str


def may_see_contact_details(user) -> bool:
    return bool(user is not None and user.has_perm(CONTACT_PERMISSION))


def text_for_reader(text: str, user) -> str:
    """A text that may hold contact details (a stored CV's), as ``user`` may read it: whole with the permission, else
    with every e-mail address, phone number and link replaced by a note that it is withheld."""
    return text if may_see_contact_details(user) else without_contact_details(text)


def identifiers_prefetch() -> Prefetch:
    """The identifiers ``profile_links`` reads, into ``identifier_rows``: one query per page or export chunk."""
    return Prefetch(
        "identifiers", queryset=CandidateIdentifier.objects.order_by("kind", "id"), to_attr="identifier_rows"
    )


def candidates_with_identifiers(queryset: QuerySet[Candidate]) -> QuerySet[Candidate]:
    return queryset.prefetch_related(identifiers_prefetch())


def web_url(value: str) -> str | None:
    """``value`` if it is an http(s) address: a stored URL came from a file, and a ``javascript:`` one must not
    become a link."""
    return value if value.lower().startswith(("https://", "http://")) else None


def profile_links(candidate: Candidate) -> list[Link]:
    """The person's public pages: each known account once, then the profile URLs and the site (``identifier_rows``
    prefetched)."""
    links: list[Link] = []
    seen: set[str] = set()
    for row in candidate.identifier_rows:
        if row.kind in PROFILE_LINKS:
            label, pattern = PROFILE_LINKS[row.kind]
            url = pattern.format(row.value)
        elif row.kind == CandidateIdentifier.Kind.URL and (
            url := web_url(row.value) or (f"https://{row.value}" if url_key(row.value) else None)
        ):  # a key is a host and a path, without the scheme
            label = url.split("://", 1)[1].split("/", 1)[0].removeprefix("www.")
        else:
            continue
        # One page once, however it was stored: a LinkedIn account and the address linkedin.com/in/<it> that an
        # older import kept beside it are one link.
        if (key := _page_key(url)) not in seen:
            seen.add(key)
            links.append(Link(label, url))
    if (site := web_url(candidate.website)) and _page_key(site) not in seen:
        links.append(Link("Website", site))
    return links


def _page_key(url: str) -> str:
    return url_token(key) if (key := url_key(url)) else url.lower()


def contact_urls(candidate: Candidate) -> list[str]:
    """The addresses of ``profile_links``: what the API and the exports list as ``links``."""
    return [link.url for link in profile_links(candidate)]
