"""Bytes to clean text: encoding detection, binary/empty rejection, Unicode and whitespace clean-up."""

from __future__ import annotations

import codecs
import re
import unicodedata

from ingestion.documents import ParseError

__all__ = ["MAX_BYTES", "decode_bytes", "normalise_text"]

MAX_BYTES = 10 * 1024 * 1024
BINARY_MESSAGE = "This is a binary file, not a text profile."
EMPTY_MESSAGE = "The file is empty."
UTF16_WARNING = "The file was UTF-16 encoded; converted."
UTF32_WARNING = "The file was UTF-32 encoded; converted."
LATIN1_WARNING = "The file was not UTF-8; it was read as Latin-1 (Windows-1252). Check accented letters."
REPLACED_WARNING = "Some characters could not be read and were replaced with '\ufffd'."

_BINARY_RATIO = 0.10  # more than this share of unprintable characters: not a text file


def _cp1252_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for byte in range(0x80, 0xA0):
        try:
            table[byte] = bytes([byte]).decode("cp1252")
        except UnicodeDecodeError:
            continue  # undefined in cp1252: keep the Latin-1 reading (a C1 control, removed later)
    return table


_CP1252 = _cp1252_table()


def _decode_cp1252(data: bytes) -> str:
    return data.decode("latin-1").translate(_CP1252)


def _sniff_utf16(data: bytes) -> str | None:
    """Guess BOM-less UTF-16 from where the zero bytes sit (ASCII text has one zero byte per character)."""
    if len(data) < 16 or len(data) % 2:
        return None
    half = len(data) // 2
    even_zeros = data[0::2].count(0)
    odd_zeros = data[1::2].count(0)
    if odd_zeros >= 0.4 * half and even_zeros <= 0.05 * half:
        encoding = "utf-16-le"
    elif even_zeros >= 0.4 * half and odd_zeros <= 0.05 * half:
        encoding = "utf-16-be"
    else:
        return None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else encoding


def _decode_strict_or_replace(data: bytes, encoding: str, warnings: list[str]) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        warnings.append(REPLACED_WARNING)
        return data.decode(encoding, errors="replace")


_UNPRINTABLE_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd\ud800-\udfff\ue000-\uf8ff\uffff\ufffe]")


def _looks_binary(text: str) -> bool:
    """NUL characters, or more than 10% control / replacement / private-use characters."""
    if "\x00" in text:
        return True
    sample = text[:65536]
    if not sample:
        return False
    return len(_UNPRINTABLE_RE.findall(sample)) > _BINARY_RATIO * len(sample)


_LINE_BREAKS_RE = re.compile(r"\r\n|\r|\u2028|\u2029|\x85")
_CONTROLS_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\u200b\ud800-\udfff]")
_ODD_SPACES_RE = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")


# Either of the two sets above; most files hold neither, and one scan for both is cheaper than two substitutions.
_CONTROLS_OR_ODD_SPACES_RE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\u200b\ud800-\udfff\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]"
)


def normalise_text(text: str) -> str:
    """NFC, unified line breaks, control characters dropped (newline and tab kept), odd spaces made plain,
    trailing spaces removed from every line."""
    # Each substitution only runs when there is something for it to do: plain "in" tests are much faster.
    if "\r" in text or "\u2028" in text or "\u2029" in text or "\x85" in text:
        text = _LINE_BREAKS_RE.sub("\n", text)
    text = unicodedata.normalize("NFC", text)
    if _CONTROLS_OR_ODD_SPACES_RE.search(text):
        text = _CONTROLS_RE.sub("", text)
        text = _ODD_SPACES_RE.sub(" ", text)
    if " \n" in text or "\t\n" in text or text.endswith((" ", "\t")):
        # Line by line: a pattern (``[ \t]+$``) retried at every space of a long run that ends inside a line costs time
        # quadratic in the run.
        text = "\n".join(line.rstrip(" \t") for line in text.split("\n"))
    return text


def decode_bytes(data: bytes) -> tuple[str, list[str]]:
    """Decode a profile file; returns the clean text and plain-English warnings about the conversion.

    UTF-8 (with or without BOM) is read silently; UTF-16/UTF-32 with BOM (and BOM-less UTF-16) are converted with a
    warning; anything else that is not UTF-8 is read as Windows-1252/Latin-1 with a warning. Raises ParseError for
    empty, binary or oversized input.
    """
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise ParseError("The file could not be read: expected the bytes of a file.")
    if len(data) > MAX_BYTES:
        raise ParseError("The file is too large to be a profile (more than 10 MB).")
    if not data.strip():
        raise ParseError(EMPTY_MESSAGE)
    warnings: list[str] = []
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        text = _decode_strict_or_replace(data, "utf-32", warnings)
        warnings.insert(0, UTF32_WARNING)
    elif data.startswith(codecs.BOM_UTF8):
        body = data[len(codecs.BOM_UTF8) :]
        if b"\x00" in body:
            raise ParseError(BINARY_MESSAGE)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = _decode_cp1252(body)
            warnings.append(LATIN1_WARNING)
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _decode_strict_or_replace(data, "utf-16", warnings)
        warnings.insert(0, UTF16_WARNING)
    elif b"\x00" in data:
        encoding = _sniff_utf16(data)
        if encoding is None:
            raise ParseError(BINARY_MESSAGE)
        text = data.decode(encoding)
        warnings.append(UTF16_WARNING)
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = _decode_cp1252(data)
            warnings.append(LATIN1_WARNING)
    if _looks_binary(text):
        raise ParseError(BINARY_MESSAGE)
    text = normalise_text(text)
    if not text.strip():
        raise ParseError(EMPTY_MESSAGE)
    return text, warnings
