"""Skill and programming-language lines: a label glued to its 0-10 score."""

from __future__ import annotations

from collections.abc import Callable

from ingestion.parsers.progai.layout import shortened

_DIGITS = "0123456789"


def _trailing_digits(line: str) -> tuple[str, str]:
    prefix = line.rstrip(_DIGITS)
    return prefix, line[len(prefix) :]


def natural_label(line: str) -> str | None:
    prefix, digits = _trailing_digits(line)
    if prefix.strip() and digits and len(digits) <= 2 and int(digits) <= 10 and (digits == "0" or digits[0] != "0"):
        return prefix
    return None


def split_score(line: str, known: Callable[[str], bool]) -> tuple[str, int] | str:
    """Split "python9" / "c-language10" / "html510" into (label, score); a warning string when it cannot.

    Scores run 0-10 and labels may end in digits. The known-label test (vocabulary) decides first; otherwise the
    score takes all the trailing digits when that is in range, else "10" when the line ends in 10, else the last
    digit. When the digit-free label is known and no longer label is, the score is simply out of range.
    """
    line = line.strip()
    prefix, digits = _trailing_digits(line)
    if not digits:
        return f"Skill line '{shortened(line, 40)}': no score found; skipped."
    if not prefix.strip() and len(digits) <= 2:
        return f"Skill line '{shortened(line, 40)}': no label found; skipped."
    ten = (line[:-2], 10) if digits.endswith("10") and line[:-2].strip() else None
    if ten is not None and known(ten[0]):
        return ten
    last = (line[:-1], int(digits[-1])) if line[:-1].strip() else None
    if last is not None and known(last[0]):
        return last
    natural = natural_label(line)
    if natural is not None:
        return natural, int(digits)
    if len(digits) > 12 or (prefix.strip() and known(prefix)) or (ten or last) is None:
        return f"Skill line '{shortened(line, 40)}': score out of range 0-10; skipped."
    return ten or last
