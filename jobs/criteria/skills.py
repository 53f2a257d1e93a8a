"""The skills of a post: found, judged and placed in their sections, then decided (required, preferred or
ignored, with the reason)."""

from __future__ import annotations

import re
from bisect import bisect_right

from core.labels import label_key
from jobs.criteria.ambiguity import is_ambiguous, judge_ambiguous
from jobs.criteria.cues import Sentences, place_in_section
from jobs.criteria.employer import names_company, read_employer
from jobs.criteria.mentions import Found
from jobs.criteria.result import (
    BASIC_MIN_SCORE,
    DEFAULT_MIN_SCORE,
    MENTIONED,
    NOT_A_SKILL,
    ONLY_MENTIONED,
    PREFERRED,
    REQUIRED,
    REQUIRED_BASIC,
    REQUIRED_STRONG,
    REQUIRED_TITLE,
    STRONG_MIN_SCORE,
    Ignored,
)
from jobs.criteria.sections import Line
from jobs.matching import Match, find_skills
from profiles.vocabulary import SkillVocabulary

# Words of every post that name a kind of work, not a skill to look for in people: never a criterion on their own.
GENERIC_SLUGS = frozenset({
    "framework", "frameworks", "library", "libraries", "cloud", "deployment", "automation", "tooling", "tools",
    "backend", "back-end", "frontend", "front-end", "support", "debugging", "scripting", "algorithm", "algorithms",
    "ui", "open-source", "opensource", "mobile", "web", "software", "programming", "coding", "development",
    "webapp", "web-app", "web-application", "web-applications", "api", "apis", "database", "databases",
    "operating-system", "operating-systems", "text", "plain-text", "code-review", "code-reviews", "code-quality",
    "clean-code", "documentation", "docs",
})  # fmt: skip


_REQUIRED_ROLES = frozenset({REQUIRED, REQUIRED_STRONG, REQUIRED_BASIC})


# A bracket right after a skill, on its line, and the items it lists: "AWS (Batch, S3, Lambda)".
_BRACKET_AFTER_RE = re.compile(r" ?\(([^()\n]{1,120})\)")
_BRACKET_ITEM_RE = re.compile(r"[^\s,;/&]+(?: [^\s,;/&]+)?")
_NOT_AN_ITEM = frozenset({"and", "or", "e.g.", "eg", "i.e.", "ie", "etc", "etc.", "like", "such", "as", "incl."})
# The names a cloud's products go by besides the cloud's own as written: "AWS (ECS)" is Amazon ECS, "GCP (GKE)"...
_PRODUCT_PREFIXES = {"aws": ("amazon", "aws"), "google-cloud": ("google-cloud", "google"), "azure": ("azure",)}


def _bracketed_parts(
    text: str, folded: str, matches: list[Match], vocabulary: SkillVocabulary
) -> tuple[list[Match], set[int]]:
    """The matches with a platform's parts listed in brackets after it read as the platform's products: in "AWS (Batch,
    S3)" Batch is AWS Batch, not a Windows batch file; in "Spring (Boot, Batch)" Boot and Batch are Spring Boot and
    Spring Batch. An item is such a part when the platform's name (or its vendor's: Amazon ECS for "AWS (ECS)") and
    the item together are a known name; the others stay as they were found. Returns the matches and the starts of the
    parts (names by construction, never words that need a context)."""
    parts: list[Match] = []
    for match in matches:
        if (
            folded[match.end : match.end + 2] not in (" (", "(")
            or (bracket := _BRACKET_AFTER_RE.match(folded, match.end)) is None
        ):
            continue
        prefixes = (label_key(folded[match.start : match.name_end]), *_PRODUCT_PREFIXES.get(match.slug, ()))
        for item in _BRACKET_ITEM_RE.finditer(folded, bracket.start(1), bracket.end(1)):
            words = item.group().rstrip(".").split(" ")
            if words[0] in _NOT_AN_ITEM or not (text[item.start()].isupper() or text[item.start()].isdigit()):
                continue  # a product is a name ("AWS (Batch, S3)"); "Git (branches, pull requests)" names practices
            for count in (2, 1)[2 - len(words) :]:  # "Cloud Run" before "Cloud"
                name = " ".join(words[:count])
                slug = next(
                    (found for prefix in prefixes if (found := vocabulary.slugs.get(label_key(f"{prefix} {name}")))),
                    None,
                )
                if slug is not None and slug != match.slug:
                    parts.append(Match(item.start(), item.start() + len(name), slug, item.start() + len(name)))
                    break
    if not parts:
        return matches, set()
    taken = [(part.start, part.end) for part in parts]
    kept = [m for m in matches if not any(start < m.end and m.start < end for start, end in taken)]
    return sorted(kept + parts, key=lambda m: m.start), {part.start for part in parts}


def found_skills(
    text: str,
    folded: str,
    lines: list[Line],
    vocabulary: SkillVocabulary,
    title: tuple[int, int] | None = None,
    header_end: int = 0,
) -> list[Found]:
    """The skills the text names, judged and placed; ``title``: where the job's title names its role, a technical
    context for the names in it ("Go Engineer")."""
    found = []
    line_starts = [line.start for line in lines]
    kinds: dict[tuple[str, str], bool | None] = {}  # (surface, slug) -> ambiguous, None: a human language
    matches, part_starts = _bracketed_parts(text, folded, find_skills(folded, vocabulary), vocabulary)
    for match in matches:
        surface = text[match.start : match.name_end]
        if match.start in part_starts:
            found.append(Found(match, surface, lines[bisect_right(line_starts, match.start) - 1], False))
            continue
        if (key := (surface, match.slug)) not in kinds:
            kinds[key] = is_ambiguous(surface, match.slug)
        if (kind := kinds[key]) is None:
            continue  # English, Polish, Spanish: the people speak them
        found.append(Found(match, surface, lines[bisect_right(line_starts, match.start) - 1], kind))
    judge_ambiguous(text, folded, found, title)
    sentences = Sentences(text, folded)
    for item in found:
        if item.dropped is None:
            place_in_section(folded, sentences, item)
    employer = read_employer(text, lines, vocabulary, title, header_end)
    for item in found:
        if item.dropped is None and names_company(folded, employer, item):
            item.dropped = NOT_A_SKILL
    for item in found:  # a capitalised word of a requirement line read as no skill is shown: "high EQ", "Less"
        if item.dropped == "ambiguous" and item.line.role != MENTIONED and item.surface[:1].isupper():
            item.dropped = NOT_A_SKILL
    return [item for item in found if item.dropped not in ("ambiguous", "phrase")]


# A bracket in the title, and what may stand in it beside the technologies it names: "(Go / Kubernetes)", "(Python,
# Django)", "(Ruby on Rails, remote)". Any other word makes the bracket a name of its own, the company's: "(Code
# Metal)", "(Swift Logistics)".
_TITLE_BRACKET_RE = re.compile(r"\(([^()\n]{1,120})\)")
_TECHNOLOGIES_ONLY_RE = re.compile(
    r"(?:[\s,;/&+|\u00b7-]|\b(?:and|or|with|on|plus|remote|hybrid|on-site|onsite)\b)*", re.IGNORECASE
)


def _company_brackets(text: str, found: list[Found], start: int, end: int) -> list[tuple[int, int]]:
    """The title's brackets that hold a name other than technologies: the company's."""
    spans = []
    for bracket in _TITLE_BRACKET_RE.finditer(text, start, end):
        low, high = bracket.span(1)
        chars = list(text[low:high])
        for item in found:
            if low <= item.match.start < high:
                chars[item.match.start - low : item.match.end - low] = " " * (item.match.end - item.match.start)
        if not _TECHNOLOGIES_ONLY_RE.fullmatch("".join(chars)):
            spans.append((low, high))
    return spans


def require_title_skills(text: str, found: list[Found], title: tuple[int, int] | None) -> None:
    """The job's own technology named in its title ("Backend Engineer (Ruby on Rails)", "Senior Android Engineer") is
    required, whatever the requirements list: the job is that technology's. A name in a bracket with other words is
    the company's ("Senior Backend Engineer (Code Metal)"), no skill there."""
    if title is None:
        return
    start, end = title
    companies = _company_brackets(text, found, start, end) if "(" in text[start:end] else []
    for item in found:
        if item.dropped is not None or not start <= item.match.start < end:
            continue
        if any(low <= item.match.start < high for low, high in companies):
            if item.role == MENTIONED:
                item.dropped = NOT_A_SKILL
        elif item.role == MENTIONED:
            item.role = REQUIRED_TITLE


def decide(found: list[Found]) -> tuple[list[tuple[str, int]], list[str], list[Ignored], list[str]]:
    roles: dict[str, set[str]] = {}
    dropped: dict[str, str] = {}
    labels: dict[str, str] = {}  # slug -> its first mention as written
    for item in found:
        slug = item.match.slug
        labels.setdefault(slug, item.surface)
        if item.dropped is not None:
            dropped.setdefault(slug, item.dropped)
        else:
            roles.setdefault(slug, set()).add(item.role)
    warnings = []
    # A post asks for something when it requires a skill by name; one that only prefers some ("Kubernetes is a plus")
    # or asks for a generic word ("a proven record in frontend systems") requires the others it names.
    asked = any(slug_roles & _REQUIRED_ROLES for slug, slug_roles in roles.items() if slug not in GENERIC_SLUGS)
    if any(MENTIONED in r for s, r in roles.items() if s not in GENERIC_SLUGS) and not asked:
        warnings.append("The description has no requirements section or cue: every skill it names is required.")
    required: list[tuple[str, int]] = []
    preferred: list[str] = []
    ignored: dict[str, str] = {}
    for slug, slug_roles in roles.items():
        if slug in GENERIC_SLUGS:
            ignored[slug] = NOT_A_SKILL
        elif REQUIRED_STRONG in slug_roles:
            required.append((slug, STRONG_MIN_SCORE))
        elif REQUIRED in slug_roles:
            required.append((slug, DEFAULT_MIN_SCORE))
        elif REQUIRED_BASIC in slug_roles:
            required.append((slug, BASIC_MIN_SCORE))
        elif PREFERRED in slug_roles:  # the title's technology the post itself calls a plus stays one
            preferred.append(slug)
        elif REQUIRED_TITLE in slug_roles or not asked:
            required.append((slug, DEFAULT_MIN_SCORE))
        else:
            ignored[slug] = ONLY_MENTIONED
    for slug, why in dropped.items():
        if slug not in roles:
            ignored.setdefault(slug, why)
    if not required and not preferred:
        warnings.append("No skill found in the description: the criteria hold no skills.")
    return (
        required,
        preferred,
        [Ignored(labels[slug], slug, why) for slug, why in sorted(ignored.items())],
        warnings,
    )
