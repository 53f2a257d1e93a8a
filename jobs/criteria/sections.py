"""A post's lines and its sections: which heading each line falls under, and the role that gives its skills
(required, preferred or a mere mention)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jobs import places
from jobs.criteria.result import MENTIONED, PREFERRED, REQUIRED

_BULLET_RE = re.compile(r"^\s*(?:[-*\u2022\u2023\u25e6\u2043\u2219\u00b7\u25aa\u25cf\u2013\u2014]|\d{1,2}[.)])\s+")
# The headings of the sections that ask for skills, as ``heading_text`` gives them (lower case, "&" as "and", hyphens
# and slashes as spaces, no marks or colon): a whole heading must match, so that a short sentence is no heading.
_KINDS = r"(?: (?:skills?|qualifications?|experience|requirements?|knowledge|competenc(?:i)?es))?(?: and \w+)?"
_IF_YOU = r"(?: if)?(?: you)?(?: (?:have|had|also have|bring|know))?"
# The same headings as posts in Portuguese, Spanish, German and French write them ("Requisitos", "Diferenciais", "Se
# valorará", "Dein Profil", "Wünschenswert", "Profil recherché", "Un plus"): a recruiter pastes them as they are.
_REQUIRED_ELSEWHERE = (
    r"(?:requisitos|requerimientos)(?: (?:obrigat[óo]rios|necess[áa]rios|m[íi]nimos|t[ée]cnicos|del puesto|"
    r"imprescindibles|obligatorios))?|conhecimentos (?:necess[áa]rios|obrigat[óo]rios|t[ée]cnicos)|"
    r"o que (?:esperamos|buscamos)(?: de voc[êe])?|qualifica[çc][õo]es|(?:o |tu |su )?perfil(?: (?:buscado|deseado|"
    r"procurado|recherch[ée]|t[ée]cnico))?|(?:lo que |qu[ée] )?buscamos|imprescindibles?|"
    r"(?:deine |ihre )?anforderungen|(?:dein|ihr) profil|das bringst du mit|was du mitbringst|was sie mitbringen|"
    r"qualifikationen|(?:votre |ton )?profil(?: recherch[ée])?|"
    r"comp[ée]tences(?: (?:requises|techniques|recherch[ée]es))?|pr[ée]requis"
)
_PREFERRED_ELSEWHERE = (
    r"(?:(?:conhecimentos|requisitos|habilidades) )?(?:diferenciais|desej[áa]ve(?:l|is))|(?:ser[áa] )?um diferencial|"
    r"(?:se )?valorar[áa]|valorables?|se valora|deseables?|(?:ser[áa] )?un plus|wünschenswert|von vorteil|"
    r"pluspunkte|(?:c'est |serait )?un plus|(?:vos |tes )?atouts?|id[ée]alement"
)
PREFERRED_HEADING_RE = re.compile(
    r"^(?:(?:it'?s |it is |would be |that'?s )?(?:an? )?(?:big |huge |definite |real )?(?:plus(?:es)?|bonus(?:es)?)"
    r"(?: points?)?" + _KINDS + _IF_YOU + r"|plus points?|extra (?:credit|points)|brownie points|"
    r"(?:nice|good|great) to haves?"
    + _KINDS
    + r"|(?:it'?s |it would be )?(?:nice|great|awesome) if"
    + _IF_YOU
    + r"|(?:it )?would be (?:great|nice|awesome|a plus|a bonus)"
    + _IF_YOU
    + r"|(?:preferred|desirable|desired|optional|additional|bonus)"
    + _KINDS
    + r"|even better"
    r"|ideally" + _IF_YOU + r"|what would be a plus|what (?:would )?makes? you stand out"
    r"|(?:you'll |you will |how to )?stand out" + _IF_YOU + r"|"
    r"(?:the )?following (?:will|would|is|are|could) (?:be |also be )?considered (?:as )?an? (?:plus|bonus|advantage)"
    r"|(?:what|things that) (?:gets?|will get|would get|catch(?:es)?) our (?:attention|eye)|"
    r"(?:skills|experience|qualifications) (?:that are|which are|that would be) (?:a plus|nice to have|preferred)|"
    r"(?:what |things )?we(?:'d| would) (?:love|like)(?: it)?(?: to see)?"
    + _IF_YOU
    + r"|(?:an? )?(?:added )?advantages?|"
    + _PREFERRED_ELSEWHERE
    + r")$"
)
REQUIRED_HEADING_RE = re.compile(
    r"^(?:(?:key |minimum |basic |essential |technical |job |core |our |the |role |position )?requirements?"
    r"(?: (?:for (?:this|the) (?:role|position|job)|and (?:qualifications|skills|experience)))?"
    r"|required" + _KINDS + r"|must haves?" + _KINDS + r"|(?:what )?you(?:'ll| will| must| should)? (?:have|need|bring)"
    r"(?: to (?:the table|the team|us))?"
    r"|what (?:you'll|you will|you|we need you to|you should) (?:need|bring|have|know)"
    r"(?: to (?:succeed|have|know|bring))?(?: (?:for this role|to the table|to the team))?"
    r"|(?:what|who) we(?:'re| are) looking for(?: in you| from you)?|(?:what|who) we look for"
    r"|we(?:'re| are) looking for"
    r"|looking for|who you are|about you|you are|you're|is this you|you might be a (?:good|great) fit if"
    + _IF_YOU
    + r"|(?:your|the|ideal|desired|necessary|needed|key|core|required|essential|technical|minimum|basic) "
    r"(?:profile|skills|experience|background|qualifications|expertise|toolbox|competenc(?:i)?es)"
    r"(?: and (?:skills|experience|qualifications|abilities|knowledge|background))?|"
    r"(?:qualifications|skills|experience|profile|competencies|competences|essentials?|prerequisites?)"
    r"(?: and (?:skills|experience|qualifications|abilities|knowledge|background))?(?: (?:required|needed))?|"
    r"(?:the )?essentials?|what we expect(?: from you)?|we expect|you should have|"
    r"(?:the |our )?ideal candidate(?: (?:will have|has|profile))?|what you(?:'ve| have) (?:done|built)"
    r"(?: before| so far)?|what it takes|what makes you (?:a )?(?:great|good|strong) (?:fit|match|candidate)|"
    r"(?:core |key |technical |programming |role |our |job )?expectations|"
    r"your (?:toolkit|skill set)|" + _REQUIRED_ELSEWHERE + r")$"
)


_HEADING_MARKS_RE = re.compile(r"^[^\w'(]+|^\d{1,2}(?:\.\d{1,2})*\.?\s+|[*_]+")  # bullets, "4.4 ", bold
_HEADING_END_RE = re.compile(r"[\s:!.*_]*")  # matched on the reversed text: the run of these that ends it
_HEADING_SPACES_RE = re.compile(r"[\s/-]+")


def heading_text(line: str) -> str:
    """A heading as the patterns read it: "### What you’ll bring:" is "what you'll bring"."""
    line = _HEADING_MARKS_RE.sub("", line)
    line = line[: len(line) - _HEADING_END_RE.match(line[::-1]).end()].strip().lower()
    return _HEADING_SPACES_RE.sub(" ", line.replace("&", " and ")).strip()


_BOLD_LINE_RE = re.compile(r"^(\*\*|__)[^*_].*\1$")  # "**Your profile**": a Markdown line in bold


def _is_heading(line: str, next_line: str | None, previous_line: str | None = None) -> bool:
    stripped = line.strip()
    if not stripped or _BULLET_RE.match(line) or len(stripped) > 60 or len(stripped.split()) > 8:
        return False
    if stripped.endswith(":") or stripped.startswith("#") or _BOLD_LINE_RE.match(stripped):
        return True
    if stripped.endswith((".", ",", ";")):
        return False
    heading = heading_text(stripped)
    if PREFERRED_HEADING_RE.match(heading) or REQUIRED_HEADING_RE.match(heading):
        return True
    if next_line is None or not next_line.strip() or not (stripped[:1].isupper() or stripped[:1].isdigit()):
        return False
    # Any other short line over text is a heading when it stands apart (a blank line before it) or is in Title Case;
    # a line among a list's items is one of them ("You have experience with Kotlin").
    return previous_line is None or not previous_line.strip() or _is_title_case(stripped)


def _is_title_case(line: str) -> bool:
    return all(word[:1].isupper() for word in line.split() if len(word) > 3 and word[:1].isalpha())


def _heading_role(heading: str) -> str:
    if PREFERRED_HEADING_RE.match(heading):
        return PREFERRED
    if REQUIRED_HEADING_RE.match(heading):
        return REQUIRED
    return MENTIONED


# Headings of what a post tells rather than asks: the work, the company, the offer, the process, the place. Any other
# heading inside a required or preferred section is one of its parts ("Requirements", then "Education:",
# "Embedded development:", "Tools:") and keeps its role.
_TELLING_HEADING_RE = re.compile(
    r"\b(?:about|responsibilit(?:y|ies)|duties|tasks|mission|role|job|position|day|week|month|days|do|doing|"
    r"work(?:ing)?|impact|company|team|teams|us|we|we're|culture|values|benefits?|perks|offer|offers|salary|pay|"
    r"compensation|package|equity|location|where|office|remote|hybrid|process|interview|apply|application|next|"
    r"steps|equal|diversity|inclusion|opportunity|why|join|life|stack|tech|technologies|tools we use|product|"
    r"projects?|summary|overview|description|challenge|challenges|contact|hours|schedule|travel|visa|relocation|"
    r"note|notes|disclaimer|privacy|learn|grow|growth|career|training|for you|you get|in return|good stuff)\b"
)


def _section_role(heading: str, current: str) -> str:
    """The role a heading gives its section: its own, else the current section's when it is one of its parts."""
    role = _heading_role(heading)
    if role == MENTIONED and current != MENTIONED and not _TELLING_HEADING_RE.search(heading):
        return current
    return role


@dataclass(slots=True)
class Line:
    start: int
    end: int
    role: str  # the section's default for its skills
    bullet_end: int | None  # where a list item's text starts (after its bullet), None when the line is no item


def read_lines(text: str) -> tuple[list[Line], int, list[tuple[int, int]]]:
    """The lines with their section roles, where the heading block ends, and the spans of place sections."""
    raw = text.split("\n")
    offsets, pos = [], 0
    for line in raw:
        offsets.append(pos)
        pos += len(line) + 1
    header_end = 0
    for index, line in enumerate(raw):  # the heading block: up to three lines before the first blank one
        if not line.strip() or index == 3 or len(line) > 150 or _BULLET_RE.match(line):
            break
        if (
            _inline_heading(line)
            or _heading_role(heading_text(line)) != MENTIONED
            or line.rstrip().endswith(":")
            or _headings_inside(line)
        ):
            break
        header_end = offsets[index] + len(line)
    if header_end and header_end == len(raw[0]):
        header_end = _title_block_end(raw, offsets) or header_end
    lines, role, place_spans, place_start = [], MENTIONED, [], None
    for index, line in enumerate(raw):
        start, end = offsets[index], offsets[index] + len(line)
        nxt = next((r for r in raw[index + 1 : index + 2]), None)
        previous = raw[index - 1] if index else None
        if start >= header_end and _is_heading(line, nxt, previous) and not _inline_heading(line):
            heading = heading_text(line)
            role = _section_role(heading, role)
            if place_start is not None:
                place_spans.append((place_start, start))
                place_start = None
            if places.is_place_heading(heading):
                place_start = start
            lines.append(Line(start, end, MENTIONED, None))
            continue
        bullet = _BULLET_RE.match(line)
        line_role = MENTIONED if start < header_end else role
        item_start = start + bullet.end() if bullet else None
        if inline := _inline_heading(line):  # "Must have: Go, Kafka": the items start after the colon
            line_role = inline
            colon = line.index(":") + 1
            item_start = start + colon + len(line[colon:]) - len(line[colon:].lstrip())
        line_start = start
        for offset, part_role, items, continues in _headings_inside(line) if start >= header_end else ():
            lines.append(Line(start, line_start + offset, line_role, item_start))
            start, line_role, item_start = line_start + offset, part_role, line_start + items
            if continues:  # "... load testing (k6)Nice-to-haves": the heading of the lines below
                role = part_role
        lines.append(Line(start, end, line_role, item_start))
    if place_start is not None:
        place_spans.append((place_start, len(text)))
    return lines, header_end, place_spans


_TITLE_BLOCK_LINE_CHARS = 100  # a company and place line is short: a longer line is the text
_TITLE_BLOCKS = 2  # "Backend", then the post's own title, then its place: each after a blank line


def _title_block_end(raw: list[str], offsets: list[int]) -> int | None:
    """Where the heading block ends when a title of one line stands alone above it: "Data Engineer", a blank line,
    then "Brindle Foods, Berlin, Germany" (a post pasted with a blank line after its title, or a job's short title put
    above its description, which has its own title and place). Up to ``_TITLE_BLOCKS`` blocks after blank lines
    belong to the heading, each of a few short lines that are no sentence, heading or list item; None when none
    does."""
    end, index = None, 1
    for _ in range(_TITLE_BLOCKS):
        while index < len(raw) and not raw[index].strip():
            index += 1
        block_end = index
        while block_end < len(raw) and raw[block_end].strip() and block_end - index < 4:
            line = raw[block_end]
            stripped = line.strip()
            if (
                len(stripped) > _TITLE_BLOCK_LINE_CHARS
                or stripped.endswith((".", ":", "!", "?"))
                or _BULLET_RE.match(line)
                or _inline_heading(line)
                or _heading_role(heading_text(line)) != MENTIONED
                or places.names_others(stripped.lower())
            ):
                return end
            block_end += 1
        if block_end == index or (block_end < len(raw) and raw[block_end].strip()):
            return end  # no block, or one of more than three lines: the text
        end = offsets[block_end - 1] + len(raw[block_end - 1])
        index = block_end
    return end


# Where a heading may start inside a line: after a sentence's end ("Requirements: Go. Nice to have: Rust."), or glued
# to the text before it, as text copied from a web page runs its blocks together ("load testing (k6)Nice-to-haves").
_INSIDE_BREAK_RE = re.compile(r"(?<=[.!?;])[ \t]+(?=[^\W\d_])|(?<=[a-z0-9)\]])(?=[A-Z][a-z])")
_INSIDE_HEAD_CHARS = 40  # a heading before its colon
_INSIDE_TAIL_CHARS = 60  # a heading that ends its line, its items on the lines below


def _headings_inside(line: str) -> list[tuple[int, str, int, bool]]:
    """The required or preferred headings inside a line, after its start: (where each starts, its role, where its
    items start, whether it ends the line and so heads the lines below)."""
    if len(line) < 8:
        return []
    parts = []
    for brk in _INSIDE_BREAK_RE.finditer(line):
        position = brk.end()
        head, colon, _ = line[position : position + _INSIDE_HEAD_CHARS + 1].partition(":")
        if colon:
            items = position + len(head) + 1
            items += len(line[items:]) - len(line[items:].lstrip())
        elif len(line) - position <= _INSIDE_TAIL_CHARS:
            head, items = line[position:], len(line)
        else:
            continue
        if (role := _heading_role(heading_text(head))) != MENTIONED:
            parts.append((position, role, items, not colon))
    return parts


def _inline_heading(line: str) -> str | None:
    """The role of a line like "Must have: Go, Kafka" (a heading and its items on one line)."""
    head, colon, rest = line.partition(":")
    if not colon or not rest.strip() or len(head) > 40:
        return None
    heading = heading_text(head)
    if PREFERRED_HEADING_RE.match(heading):
        return PREFERRED
    if REQUIRED_HEADING_RE.match(heading):
        return REQUIRED
    return None


def line_of(lines: list[Line], position: int) -> Line:
    low, high = 0, len(lines) - 1
    while low < high:
        mid = (low + high + 1) // 2
        if lines[mid].start <= position:
            low = mid
        else:
            high = mid - 1
    return lines[low]
