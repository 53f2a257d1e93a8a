"""A skill's level as a JSON Resume writes it (a word, a number, a fluency), read as a 0-10 score."""

from __future__ import annotations

import math
import re
from typing import Any

from core.languages import (
    ELEMENTARY,
    FULL_PROFESSIONAL,
    LIMITED_WORKING,
    NATIVE,
    PROFESSIONAL_WORKING,
    fluency_level,
)
from core.text import clean_text

LEVELS: dict[str, int] = {
    "master": 9,
    "expert": 9,
    "guru": 9,
    "advanced": 8,
    "senior": 8,
    "strong": 8,
    "professional": 8,
    "proficient": 7,
    "intermediate": 6,
    "competent": 6,
    "familiar": 4,
    "junior": 4,
    "beginner": 3,
    "novice": 3,
    "basic": 3,
    "elementary": 3,
    "learning": 2,
    "上級": 8,
    "中級": 6,
    "初級": 3,
    # "Mid", "Mid-level": between junior and senior ("Mid-Senior" is the mean of its two words, below).
    "mid": 6,
    "middle": 6,
    "mid-level": 6,
    "midlevel": 6,
    # The same levels in Spanish, French, German, Portuguese and Italian.
    "experto": 9, "experta": 9, "esperto": 9, "esperta": 9, "experte": 9, "expertin": 9,
    "avanzado": 8, "avanzada": 8, "avancé": 8, "avancée": 8, "fortgeschritten": 8, "avançado": 8, "avançada": 8,
    "avanzato": 8, "avanzata": 8,
    "intermedio": 6, "intermedia": 6, "intermédiaire": 6, "intermediário": 6, "intermediária": 6,
    "mittelstufe": 6,
    "básico": 3, "básica": 3, "basico": 3, "basica": 3, "débutant": 3, "débutante": 3, "principiante": 3,
    "anfänger": 3, "grundkenntnisse": 3, "iniciante": 3,
}  # fmt: skip
_FLUENCY_SCORES = {NATIVE: 10, FULL_PROFESSIONAL: 8, PROFESSIONAL_WORKING: 7, LIMITED_WORKING: 6, ELEMENTARY: 3}
_NUMERIC_LEVEL_RE = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:(/)\s*(\d+(?:\.\d+)?)|(%)|(?:stars?|points?)?)$")


def _scale(value: float, denominator: float | None = None, percent: bool = False) -> int:
    try:
        value = float(value)
    except OverflowError:  # an integer too large for a float
        return 5
    if not math.isfinite(value) or value < 0:
        return 5
    if denominator:
        value = value / denominator * 10
    elif percent:
        value = value / 10
    elif 0 < value < 1:
        value *= 10
    elif value <= 5:
        value *= 2  # a five-point scale (stars)
    elif value > 10:
        value = value / 10 if value <= 100 else 10
    return max(0, min(10, math.floor(value + 0.5)))


def level_score(level: Any) -> int:
    """0-10 from a JSON Resume skill level: Master/Expert 9, Advanced 8, Intermediate 6, Beginner 3, numbers scaled
    (5-point, 10-point, percent, "4/5"), anything else 5."""
    if isinstance(level, bool) or level is None:
        return 5
    if isinstance(level, (int, float)):
        return _scale(level)
    if not isinstance(level, str):
        return 5
    text = clean_text(level).lower()
    if not text or len(text) > 60:
        return 5
    if text in LEVELS:
        return LEVELS[text]
    m = _NUMERIC_LEVEL_RE.match(text)
    if m:
        denominator = float(m.group(3)) if m.group(2) else None
        if denominator == 0:
            return 5
        return _scale(float(m.group(1)), denominator, percent=bool(m.group(4)))
    # The words it holds: one is its level; two, a range ("Mid-Senior", "Junior to mid"), are their mean, rounded
    # down (a range is no more than its lower end's promise plus some).
    found = [LEVELS[word] for word in re.findall(r"\w+", text) if word in LEVELS]
    if found:
        return sum(found) // len(found) if len(found) == 2 else found[0]
    # A fluency word ("Nativo", "Courant", "Muttersprache"): a level of a skill written as a language's.
    if level := fluency_level(text):
        return _FLUENCY_SCORES[level]
    return 5
