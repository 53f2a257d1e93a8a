"""The keywords of a post: the seniority and the title's words that are no skill."""

from __future__ import annotations

import re
from collections.abc import Mapping

from jobs import places
from jobs.criteria.result import MAX_TERM_CHARS
from jobs.criteria.sections import PREFERRED_HEADING_RE, REQUIRED_HEADING_RE, heading_text

SENIORITY_WORDS = ("intern", "junior", "graduate", "mid-level", "senior", "staff", "lead", "principal", "head")
_SENIORITY_RE = re.compile(r"\b(" + "|".join(SENIORITY_WORDS) + r")\b")
_HIRING_SENIORITY_RE = re.compile(
    r"\b(?:hiring|looking for|seeking|join us as|you(?:'ll| will) be|as) (?:a|an|our) (" + "|".join(SENIORITY_WORDS)
    + r")\b"
)  # fmt: skip
_GENERIC_TITLE_WORDS = frozenset({
    "engineer", "engineers", "developer", "developers", "programmer", "programmers", "architect", "specialist",
    "développeur", "développeuse", "ingénieur", "ingénieure", "desenvolvedor", "desenvolvedora", "engenheiro",
    "engenheira", "desarrollador", "desarrolladora", "ingeniero", "ingeniera", "entwickler", "entwicklerin",
    "h/f", "f/h",
    # Every candidate writes software: the word would rank whoever's text has it, not who fits the role.
    "software", "logiciel", "softwareentwickler", "softwareentwicklerin", "softwareingenieur", "softwareingenieurin",
    "consultant", "manager", "role", "job", "position", "team", "the", "a", "an", "and", "or", "of", "for", "in", "at",
    "with", "to", "remote", "hybrid", "on-site", "onsite", "m", "f", "d", "w", "x", "f/m/d", "m/f/d", "m/w/d",
    "full-time", "part-time", "contract", "permanent", "freelance", "ii", "iii", "iv", "sr", "jr", "core",
})  # fmt: skip


# Where a title's role ends: "Engineer - Acme", "Engineer at Acme", "Engineer (Berlin)". A run of spaces before "at" is
# tried from its first space only, so that a long run is read once, not once per space.
_ROLE_END_RE = re.compile(r"\s[\u2013\u2014|@-]\s|(?<!\s)\s+at\s|\(")


_TITLE_LINE_RE = re.compile(r"^[^\w\n]*(?:job |position |role )?title\s*:[ \t]*(\S[^\n]*)$", re.MULTILINE)
_TITLE_LINE_REACH = 1_000  # an overview's lines come first
_TITLE_MAX_CHARS = 250  # a title of a dozen words, one of them perhaps a long code
_TITLE_MAX_WORDS = 12
# A first line that names a part of a post, not the job: "Job Overview", "Responsibilities", "About us".
_NOT_A_TITLE_RE = re.compile(
    r"^(?:(?:job|role|position) )?(?:overview|description|summary|details|responsibilities|duties)$|"
    r"^(?:about|what|who|why|how|we|we're|our|you|your|join)\b"
)
_SENTENCE_INSIDE_RE = re.compile(r"[.!?;] ")
# A field of a post's overview, not its title: "Location: London", "Salary: 60k EUR", "Contract type: Permanent". A
# label that names a role is a title's ("Staff Engineer: Payments").
_FIELD_LABEL_RE = re.compile(r"[^\w\n]*(\w+(?: \w+)?)\s*:")
_ROLE_NOUN_RE = re.compile(
    r"\b(?:engineer|developer|programmer|architect|scientist|analyst|designer|administrator|specialist|consultant|"
    r"manager|lead|director|intern|tester|sre|devops)s?\b"
)
# Where the title's role ends and the company or place starts: "Engineer - Acme", "Engineer at Acme", "Engineer |
# Berlin". A bracket stays: "Backend Engineer (Ruby on Rails)" names the job's technology there.
_TITLE_COMPANY_RE = re.compile(r"\s[\u2013\u2014|@-]\s|(?<!\s)\s+at\s")
# A seniority of a role named in a sentence: "We need a senior Python developer".
_ROLE_SENIORITY_RE = re.compile(
    r"\b(" + "|".join(SENIORITY_WORDS) + r")\s+(?:[\w+#./-]+\s+){0,3}?"
    r"(?:engineers?|developers?|programmers?|architects?|scientists?|analysts?|designers?|testers?|administrators?)\b"
)


def title_span(text: str, folded: str, cities: Mapping[str, str] | None = None) -> tuple[int, int] | None:
    """Where the job's title names its role: the first line, or a job board's "Job Title:" line, up to the company or
    place after a dash, a bar or "at"; None when that line is no title (a sentence, a section's heading or content,
    a field of the overview or the job's place: "We need a senior Python developer...", "Responsibilities",
    "Requirements: Go, PostgreSQL", "Salary: 60k EUR", "Based in Lisbon")."""
    if board := _TITLE_LINE_RE.search(folded, 0, _TITLE_LINE_REACH):
        start, end = board.span(1)  # a job board's overview: "Job Title: Android Developer (Payments)"
    else:
        start, end = 0, (len(folded) if (newline := folded.find("\n")) < 0 else newline)
        if (label := _FIELD_LABEL_RE.match(folded, 0, end)) and not _ROLE_NOUN_RE.search(label.group(1)):
            return None
        if places.is_place_line(text[:end], folded[:end], cities):
            return None
    line = text[start:end].strip()
    if (
        not line
        or len(line) > _TITLE_MAX_CHARS
        or len(line.split()) > _TITLE_MAX_WORDS
        or line.endswith((".", "!", "?", ";", ",", ":"))
        or _SENTENCE_INSIDE_RE.search(line)
    ):
        return None
    head = line.partition(":")[0]
    if any(pattern.match(heading_text(part)) for part in (line, head) for pattern in _HEADING_PATTERNS):
        return None
    if _NOT_A_TITLE_RE.match(heading_text(line)):
        return None
    cut = _TITLE_COMPANY_RE.search(folded, start, end)
    return start, cut.start() if cut else end


_HEADING_PATTERNS = (REQUIRED_HEADING_RE, PREFERRED_HEADING_RE)
# A title's words, accented ones whole ("développeur", "données"), with the signs of names (C++, C#, Node.js).
_TITLE_WORD_RE = re.compile(r"[^\W\d_][\w+#.-]*[\w+#]|[^\W\d_]")
# The gender marks of titles: "(H/F)", "(m/f/d)", "Desenvolvedor(a)"; they end no role.
_GENDER_RE = re.compile(r"\((?:a|o|as|os|in|[mfwhdx](?:/[mfwhdx]){1,2}|all genders)\)")


def title_keywords(
    text: str, folded: str, header_end: int, skill_slugs: set[str], cities: Mapping[str, str] | None
) -> list[str]:
    hiring = _HIRING_SENIORITY_RE.findall(folded)
    if (
        span := title_span(text, folded, cities)
    ) is None:  # a post pasted as sentences: the seniority of the role it names
        first = folded.split("\n", 1)[0]
        return list(dict.fromkeys(_ROLE_SENIORITY_RE.findall(first) + hiring))
    line_end = folded.find("\n", span[0])
    title = folded[span[0] : len(folded) if line_end < 0 else line_end]
    keywords = list(dict.fromkeys(_SENIORITY_RE.findall(title) + hiring))
    role = folded[span[0] : span[1]]
    for start, end, _ in places.named_places(text[span[0] : span[1]], role, cities):  # "Engineer New York"
        role = role[:start] + " " * (end - start) + role[end:]
    role = _ROLE_END_RE.split(_GENDER_RE.sub("", role), maxsplit=1)[0]
    place_words = {name.casefold() for name in (*places.WELL_KNOWN_CITIES, *(cities or {}))}
    for word in _TITLE_WORD_RE.findall(role):
        if (
            word not in _GENERIC_TITLE_WORDS
            and word not in keywords
            and word not in skill_slugs
            and word not in place_words
            and 1 < len(word) <= MAX_TERM_CHARS
        ):
            keywords.append(word)
    return keywords
