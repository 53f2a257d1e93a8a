"""The lines under the name: the headline (title at company), the location, the badges and the summary."""

from __future__ import annotations

from core.countries import is_country_name
from core.text import clean_text
from ingestion.parsers.progai.layout import Warnings, is_emoji_char
from ingestion.parsers.progai.words import BADGES_BY_INITIAL


def split_headline(headline: str) -> tuple[str, str]:
    """ "Staff Software Engineer at Google" -> (title, company), split on the last " at "."""
    for sep in (" at ", " @ "):
        idx = headline.rfind(sep)
        if idx > 0:
            return headline[:idx].strip(), headline[idx + len(sep) :].strip()
    return headline.strip(), ""


def looks_like_location(line: str) -> bool:
    parts = [p.strip() for p in line.split(",") if p.strip()]
    if not parts or " at " in line or len(line) > 120:
        return False
    return is_country_name(parts[-1]) or (len(parts) >= 2 and all(len(p.split()) <= 4 for p in parts))


def _badge_at(text: str, pos: int, after_emoji: bool) -> tuple[str, int] | None:
    """A known badge name starting at ``pos`` and ending where a word cannot go on."""
    for badge, lowered in BADGES_BY_INITIAL.get(text[pos : pos + 1].lower()[:1], ()):
        end = pos + len(badge)
        if text[pos:end].lower() != lowered:
            continue
        if end >= len(text):
            return badge, end
        nxt = text[end]
        if nxt == "\n" or is_emoji_char(nxt) or nxt.isupper():
            return badge, end
        if after_emoji and not nxt.isalpha() and nxt != " ":
            return badge, end
    return None


def _summary_start(text: str, pos: int, name: str) -> int | None:
    """Where the summary starts inside ``text[pos:]`` when an unknown badge is glued to it."""
    window = text[pos : pos + 60]
    tokens = name.split()
    candidates = [name]
    if tokens and len(tokens[0]) >= 2:
        candidates.append(tokens[0])
    for cand in candidates:
        idx = window.find(cand, 1)
        if 0 < idx <= 45:
            return pos + idx
    for i in range(pos + 1, min(len(text), pos + 45)):
        if text[i - 1].islower() and text[i].isupper():
            return i
    return None


def split_badges(text: str, name: str, warnings: Warnings) -> tuple[list[str], str]:
    """Separate the badges (each after an emoji, glued together and to the summary) from the summary text."""
    badges: list[str] = []
    pos, n = 0, len(text)
    line_end = -1  # the end of the line ``pos`` is on, found again only once ``pos`` has passed it
    while pos < n:
        while pos < n and text[pos].isspace():
            pos += 1
        emoji_start = pos
        while pos < n and (is_emoji_char(text[pos]) or (pos > emoji_start and text[pos] == " ")):
            pos += 1
        after_emoji = pos > emoji_start
        while pos < n and text[pos] in " \n":
            pos += 1
        found = _badge_at(text, pos, after_emoji)
        if found:
            badges.append(found[0])
            pos = found[1]
            continue
        if not after_emoji:
            break
        # An emoji announced a badge we do not know: it ends at the next emoji, at the end of a short line, or where
        # the summary (usually starting with the person's name) begins.
        if line_end < pos:
            line_end = text.find("\n", pos)
            line_end = n if line_end < 0 else line_end
        emoji_at = next((i for i in range(pos, min(line_end, pos + 41)) if is_emoji_char(text[i])), None)
        if emoji_at is not None and emoji_at > pos:
            badges.append(clean_text(text[pos:emoji_at]))
            pos = emoji_at
            continue
        if 0 < line_end - pos <= 40 and line_end < n:
            badges.append(clean_text(text[pos:line_end]))
            pos = line_end
            continue
        start = _summary_start(text, pos, name)
        if start is not None:
            badge = clean_text(text[pos:start])
            if badge:
                badges.append(badge)
            pos = start
        elif pos < n:
            warnings.add("A badge could not be told apart from the summary; it was left in the summary.")
        break
    badges = [b for b in badges if b]
    return badges, text[pos:].strip()
