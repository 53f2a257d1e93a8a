"""The formats of profile files, one entry each: how a file is told to be of it by its content, how its text is read,
and which parser reads that text.

Detection, parsing, the text shown beside a parsed record, the stored file's format and its choices in the admin and
the API all read ``FORMATS``. A new format is one more ``FileFormat`` here (with its parser package beside the
others, and the migration ``makemigrations`` writes for the new choice of ``SourceFile.format``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ingestion.documents import ParseError, ProfileDocument
from ingestion.parsers.cv import cv_file_kind, cv_file_text, looks_like_cv, parse_cv
from ingestion.parsers.decoding import BINARY_MESSAGE, decode_bytes
from ingestion.parsers.jsonresume import looks_like_json, names_another_format, parse_jsonresume
from ingestion.parsers.progai import looks_like_progai, parse_progai

__all__ = [
    "FORMATS",
    "NEITHER_FORMAT",
    "NO_FORMAT_BINARY",
    "UNKNOWN",
    "BinaryFiles",
    "FileFormat",
    "ReadFile",
    "binary_kind",
    "detect_format",
    "extracted_text",
    "format_choices",
    "formats_in_words",
    "one_reading",
    "parse",
    "read_file",
    "reader_text",
    "text_is_extracted",
]

UNKNOWN = "unknown"  # the stored format of a file no format reads
NEITHER_FORMAT = (
    "This file is text, but no profile TalentDB reads: not a CV (no name with headings such as Experience, Education "
    "or Skills was found), a Prog.AI profile export or a JSON Resume. If it is a CV, save it as PDF or DOCX with its "
    "headings, and upload that."
)
# A file of no format that is not text either: what a file renamed to .pdf or .docx is, whose content is neither.
NO_FORMAT_BINARY = (
    "This file is not a PDF, a Word document (DOCX) or a text file, whatever its name says: TalentDB cannot read it. "
    "If it is a CV, open it in the program that made it, save it as PDF or DOCX with text, and upload that."
)


def _disowns_nothing(text: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class BinaryFiles:
    """Files of a format that are not text (a PDF, a Word document): told by their first bytes, their text read out."""

    kind: Callable[[bytes], str]  # the file's kind by its first bytes ("pdf", "docx"); "" when none of them
    text: Callable[[bytes, str], str]  # the text of a file of that kind; ParseError, saying what to do, when none
    refused: frozenset[str] = frozenset()  # kinds recognised only to be refused (an old .doc): detected as unknown


@dataclass(frozen=True, slots=True)
class FileFormat:
    name: str  # the stored file's format (``SourceFile.format``, at most 12 characters)
    label: str  # what the admin and the API call it
    parse: Callable[..., ProfileDocument]  # (text, *, vocabulary) -> the document; ParseError when it holds none
    claims: Callable[[str], bool]  # whether a text file is of this format; the formats are asked in order
    # A text it claims whose parser refuses it for being of another format (a résumé of another JSON schema):
    # detected as unknown, and the parser's message says how to export it.
    disowns: Callable[[str], bool] = _disowns_nothing
    binary: BinaryFiles | None = None
    # Whether ``parse`` takes ``today`` (the day of the import, which ends the current positions): its parser reads no
    # clock, the registry gives it.
    dated: bool = False


FORMATS: tuple[FileFormat, ...] = (
    FileFormat(
        name="jsonresume",
        label="JSON Resume",
        parse=parse_jsonresume,
        claims=looks_like_json,
        disowns=names_another_format,
        dated=True,
    ),
    FileFormat(name="progai", label="Prog.AI text export", parse=parse_progai, claims=looks_like_progai),
    # Last among the text formats: a text file is a CV only when neither of the others claims it.
    FileFormat(
        name="cv",
        label="CV (PDF, Word or text)",
        parse=parse_cv,
        claims=looks_like_cv,
        binary=BinaryFiles(kind=cv_file_kind, text=cv_file_text, refused=frozenset({"doc"})),
        dated=True,
    ),
)


def format_choices() -> list[tuple[str, str]]:
    """(name, label) of every format, the unknown one first: the stored file's choices."""
    return [(UNKNOWN, "Unknown"), *((fmt.name, fmt.label) for fmt in FORMATS)]


def formats_in_words() -> str:
    """The formats' labels in a sentence, for what an upload accepts: "JSON Resume, Prog.AI text export or CV"."""
    labels = [fmt.label for fmt in FORMATS]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


@dataclass(frozen=True, slots=True)
class ReadFile:
    document: ProfileDocument
    # The text read out of a binary file (a PDF's, a DOCX's), which the parser worked from; None for a text file,
    # whose bytes are its text.
    extracted_text: str | None


def _binary_format(data: bytes) -> tuple[FileFormat, str] | None:
    for fmt in FORMATS:
        if fmt.binary is not None and (kind := fmt.binary.kind(data)):
            return fmt, kind
    return None


def _text_format(text: str) -> FileFormat | None:
    return next((fmt for fmt in FORMATS if fmt.claims(text)), None)


def detect_format(data: bytes) -> str:
    """The name of the file's format, or "unknown" (also for empty or binary data, a binary kind its format refuses,
    and a text its format disowns)."""
    found = _binary_format(data)
    if found:
        fmt, kind = found
        return UNKNOWN if kind in fmt.binary.refused else fmt.name
    try:
        text, _ = decode_bytes(data)
    except ParseError:
        return UNKNOWN
    fmt = _text_format(text)
    return UNKNOWN if fmt is None or fmt.disowns(text) else fmt.name


# The text read out of a binary file within ``one_reading``, with the file's bytes: None outside one, so that no
# process keeps a file's bytes or text past the call that read it (a web worker's neither, nor after an erasure).
_reading: ContextVar[list[tuple[bytes, str]] | None] = ContextVar("ingestion_file_reading", default=None)


@contextmanager
def one_reading() -> Iterator[None]:
    """Within it, a binary file's text is read out of it once however often it is asked for (a parse, then the text
    to keep beside the parsed record); left, the text and the bytes are dropped."""
    token = _reading.set([])
    try:
        yield
    finally:
        _reading.reset(token)


def _binary_text(fmt: FileFormat, kind: str, data: bytes) -> str:
    """The text of a binary file; the one ``one_reading`` holds for these very bytes, when inside one."""
    held = _reading.get()
    if held is None:
        return fmt.binary.text(data, kind)
    if held and held[0][0] == data:
        return held[0][1]
    text = fmt.binary.text(data, kind)
    held[:] = [(data, text)]
    return text


def read_file(data: bytes, *, vocabulary: frozenset[str] = frozenset(), today: dt.date | None = None) -> ReadFile:
    """``parse``, with the text the parser read out of a binary file (for it to be kept beside the parsed record),
    read once."""
    with one_reading():
        return ReadFile(document=parse(data, vocabulary=vocabulary, today=today), extracted_text=extracted_text(data))


def _parsed(fmt: FileFormat, text: str, vocabulary: frozenset[str], today: dt.date | None) -> ProfileDocument:
    if not fmt.dated:
        return fmt.parse(text, vocabulary=vocabulary)
    return fmt.parse(text, vocabulary=vocabulary, today=today or dt.datetime.now(tz=dt.UTC).date())


def parse(data: bytes, *, vocabulary: frozenset[str] = frozenset(), today: dt.date | None = None) -> ProfileDocument:
    """Parse the bytes of a file of any format into a ProfileDocument.

    ``today`` (default: the current date) ends the current positions, for the years of experience a format reads from
    them. Warnings about the encoding come first in ``document.warnings``. Raises ParseError (and nothing else) when
    the file is empty, binary, of no known format, or holds no usable profile.
    """
    found = _binary_format(data)
    if found:
        fmt, kind = found
        return _parsed(fmt, _binary_text(fmt, kind, data), vocabulary, today)
    try:
        text, warnings = decode_bytes(data)
    except ParseError as exc:
        if str(exc) == BINARY_MESSAGE:  # no binary format's signature either: say which files are read
            raise ParseError(NO_FORMAT_BINARY) from None
        raise
    fmt = _text_format(text)
    if fmt is None:
        raise ParseError(NEITHER_FORMAT)
    document = _parsed(fmt, text, vocabulary, today)
    document.warnings = warnings + document.warnings
    return document


def binary_kind(data: bytes) -> str:
    """The kind of binary file a format knows the bytes for ("pdf", "docx", "doc"), by their first bytes; "" for any
    other file."""
    found = _binary_format(data)
    return found[1] if found else ""


def text_is_extracted(data: bytes) -> bool:
    """Whether the text a parser works from is read out of the file (a PDF, a DOCX) rather than its bytes decoded."""
    found = _binary_format(data)
    return found is not None and found[1] not in found[0].binary.refused


def extracted_text(data: bytes) -> str | None:
    """The text read out of a binary file (a PDF's, a DOCX's), which its parser works from; None for a text file,
    whose bytes are its text. ParseError when the file has none (the file's own message)."""
    found = _binary_format(data)
    return None if found is None else _binary_text(*found, data)


def reader_text(data: bytes) -> str:
    """The text a parser works from: a binary file's extracted text, a text file's decoded text. ParseError when
    there is none (the file's own message). For a recruiter to check the parsed fields against."""
    text = extracted_text(data)
    return decode_bytes(data)[0] if text is None else text
