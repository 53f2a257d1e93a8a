"""The text of a PDF CV in reading order, from where pypdf says each piece of text sits on the page.

A CV template often has two columns (a sidebar of contacts, skills and languages beside the career): read line by
line across the page, the two would interleave. So each page's pieces are placed, and where a vertical gutter runs
between two groups of pieces below the full-width header, the left column is read before the right one.

Refused, each with a message that says what to do: a PDF with a password, one pypdf cannot read (damaged), one of
more than ``MAX_PAGES`` pages (a CV inside a larger document), one without a text layer (a scan), and one whose
drawing instructions unpack to more than ``MAX_DOCUMENT_BYTES`` in all. That last limit is counted over the whole
document: a page can draw many Form XObjects (and each of them others, and the same one again and again), and pypdf
keeps every stream it unpacked and parses a form's stream again each time it is drawn, so a limit per stream alone
would let a small file take minutes of CPU and hundreds of MB, in a worker or in the admin page that shows its text.
"""

from __future__ import annotations

import io
import itertools
import logging
from collections import Counter
from dataclasses import dataclass

from pypdf import PdfReader, apply_configuration
from pypdf.errors import LimitReachedError, PyPdfError
from pypdf.generic import DictionaryObject, StreamObject

from ingestion.documents import ParseError

__all__ = ["ENCRYPTED_MESSAGE", "MAX_PAGES", "SCANNED_MESSAGE", "TOO_MUCH_DRAWING_MESSAGE", "pdf_text"]

MAX_PAGES = 30
# The most one stream of a CV may unpack to: a page's text and its fonts take a few hundred KB; pypdf's own limit
# (75 MB a stream, for any PDF) would let a small file hold gigabytes across its pages.
MAX_STREAM_BYTES = 16 * 1024 * 1024
# The most a whole document's drawing instructions may unpack to: each page's contents once, each form as often as it
# is drawn. A CV's pages take well under a MB each; its logos and icons a few KB each time they are drawn.
MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
# Forms a page may reach through its resources, forms within forms, and times a page may draw one: a CV template's
# icons are some dozens, nested once or twice.
MAX_FORMS_PER_PAGE = 200
MAX_FORM_DEPTH = 8
MAX_FORM_CALLS_PER_PAGE = 1000
_FONT_COST = 4096  # a font's widths and encoding, read again wherever it is used: counted as this many bytes
_LIMITS = dict.fromkeys(
    (
        "maximum_declared_stream_length",
        "array_based_stream_maximum_output_length",
        "zlib_maximum_output_length",
        "lzw_maximum_output_length",
        "run_length_maximum_output_length",
        "brotli_maximum_output_length",
        "jbig2_maximum_output_length",
        "image_maximum_buffer_size",
    ),
    MAX_STREAM_BYTES,
)
ENCRYPTED_MESSAGE = (
    "This PDF is protected by a password, so its text cannot be read. Save a copy without the password (or ask the "
    "candidate for one) and upload that."
)
SCANNED_MESSAGE = (
    "This PDF has no text layer: it is a scan or a picture of the pages, and TalentDB does not read pictures. Save the "
    "CV as a PDF with text (export it from the word processor) or as DOCX, and upload that."
)
DAMAGED_MESSAGE = (
    "This PDF is damaged and could not be read. Save it again from the program that made it, as PDF or DOCX, and "
    "upload that."
)
TOO_LARGE_MESSAGE = (
    "This PDF holds a part that unpacks to more than {limit} MB, far more than a CV's text: it was not read. Save the "
    "CV again as PDF or DOCX and upload that."
)
TOO_MUCH_DRAWING_MESSAGE = (
    "This PDF's pages draw far more than a CV's text (parts within parts, or drawn again and again, unpacking to more "
    "than {limit} MB in all): it was not read. Save the CV again as PDF or DOCX and upload that."
)
TOO_MANY_PAGES_MESSAGE = (
    "This PDF has {pages} pages; a CV is read up to {limit}. Upload the CV on its own, not the document it is part of."
)
# What pypdf raises on a file whose structure it cannot follow, besides its own errors: a damaged file, never a bug of
# ours (our own code runs outside these blocks).
_DAMAGED = (PyPdfError, ValueError, KeyError, TypeError, IndexError, AttributeError, EOFError)
_GLYPH_WIDTH = 0.5  # an average glyph's width in em: where a piece of text ends, for finding the gutter
_MIN_COLUMN_PIECES = 3
_MAX_GUTTERS_TRIED = 12


@dataclass(frozen=True, slots=True)
class _Piece:
    x: float
    y: float
    size: float
    text: str

    @property
    def end(self) -> float:
        return self.x + len(self.text) * self.size * _GLYPH_WIDTH


def pdf_text(data: bytes) -> str:
    """The text of every page, in reading order, lines separated by newlines and blocks by blank lines."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged file's every repair is a warning: not news
    try:
        with apply_configuration(**_LIMITS):
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted and not _decrypted(reader):
                raise ParseError(ENCRYPTED_MESSAGE)
            pages = len(reader.pages)
            if pages > MAX_PAGES:
                raise ParseError(TOO_MANY_PAGES_MESSAGE.format(pages=pages, limit=MAX_PAGES))
            budget = _DrawingBudget()
            page_pieces = [_pieces(page, budget) for page in reader.pages]
    except ParseError:
        raise
    except _TooMuchDrawing:
        raise ParseError(TOO_MUCH_DRAWING_MESSAGE.format(limit=MAX_DOCUMENT_BYTES // (1024 * 1024))) from None
    except LimitReachedError:
        raise ParseError(TOO_LARGE_MESSAGE.format(limit=MAX_STREAM_BYTES // (1024 * 1024))) from None
    except _DAMAGED:
        raise ParseError(DAMAGED_MESSAGE) from None
    text = "\n\n".join(_page_text(pieces) for pieces in page_pieces if pieces).strip()
    if not text:
        raise ParseError(SCANNED_MESSAGE)
    return text


def _decrypted(reader: PdfReader) -> bool:
    """Whether the PDF opens without a password (encrypted only against editing or printing)."""
    try:
        return bool(reader.decrypt(""))
    except PyPdfError:  # an encryption pypdf cannot undo without a further library: as good as a password
        return False


class _TooMuchDrawing(Exception):
    """A document past ``MAX_DOCUMENT_BYTES`` or one of the limits on forms."""


class _DrawingBudget:
    """What one document's drawing instructions have unpacked (each stream once: pypdf keeps it) and how much of them
    the text extraction has parsed (each form every time it is drawn)."""

    def __init__(self) -> None:
        self.forms: dict[int, int] = {}
        self.unpacked = 0
        self.parsed = 0

    def unpack(self, stream: StreamObject) -> int:
        """The unpacked size of ``stream`` (a page's contents, unpacked once)."""
        size = len(stream.get_data())
        self.unpacked += size
        if self.unpacked > MAX_DOCUMENT_BYTES:
            raise _TooMuchDrawing
        return size

    def unpack_form(self, form: StreamObject) -> int:
        """The unpacked size of ``form``, unpacking it the first time (pages may share it)."""
        key = id(form)  # the reader keeps each object it read, so an id stays the same object's
        if key not in self.forms:
            self.forms[key] = self.unpack(form)
        return self.forms[key]

    def parse(self, size: int) -> None:
        self.parsed += size
        if self.parsed > MAX_DOCUMENT_BYTES:
            raise _TooMuchDrawing


def _dictionary(value) -> DictionaryObject | None:
    value = value.get_object() if value is not None else None
    return value if isinstance(value, DictionaryObject) else None


def _fonts_cost(resources: DictionaryObject | None, budget: _DrawingBudget) -> int:
    """What reading the fonts of ``resources`` costs each time text is extracted with them: pypdf reads every font's
    widths and character map again for each page and each drawing of a form."""
    fonts = _dictionary(resources.get("/Font")) if resources is not None else None
    cost = 0
    for reference in (fonts or {}).values():
        font = _dictionary(reference)
        cost += _FONT_COST
        to_unicode = font.get("/ToUnicode") if font is not None else None
        to_unicode = to_unicode.get_object() if to_unicode is not None else None
        if isinstance(to_unicode, StreamObject):
            cost += budget.unpack_form(to_unicode)
    return cost


def _forms_of(page, budget: _DrawingBudget) -> dict[str, int]:
    """The page's Form XObjects by the name they are drawn by (its own and those of forms within forms), with the
    largest cost behind each name: its unpacked size and its fonts'. Each form is unpacked here, where the budget
    counts it, before the extraction parses it."""
    sizes: dict[str, int] = {}
    seen: set[int] = set()

    def walk(resources, depth: int) -> None:
        resources = _dictionary(resources)
        xobjects = _dictionary(resources.get("/XObject")) if resources is not None else None
        for name, reference in (xobjects or {}).items():
            form = reference.get_object()
            if not isinstance(form, StreamObject) or form.get("/Subtype") != "/Form":
                continue  # pictures are not read for text
            if depth > MAX_FORM_DEPTH:
                raise _TooMuchDrawing
            cost = budget.unpack_form(form) + _fonts_cost(_dictionary(form.get("/Resources")), budget)
            sizes[name] = max(sizes.get(name, 0), cost)
            if id(form) in seen:
                continue
            seen.add(id(form))
            if len(seen) > MAX_FORMS_PER_PAGE:
                raise _TooMuchDrawing
            walk(form.get("/Resources"), depth + 1)

    walk(page.get("/Resources"), 1)
    return sizes


def _pieces(page, budget: _DrawingBudget) -> list[_Piece]:
    pieces: list[_Piece] = []
    forms = _forms_of(page, budget)
    calls = 0
    over = False

    def before(operator, operands, cm, tm) -> None:
        # Called for every operator, at every depth of forms within forms. pypdf logs and skips an error raised
        # while it draws a form, so once over budget every later operator raises again: the forms being drawn stop at
        # their next operator, and the page's own next one (or the check after the extraction) ends the document.
        nonlocal calls, over
        if over:
            raise _TooMuchDrawing
        if operator == b"Do" and operands:
            calls += 1
            try:
                if calls > MAX_FORM_CALLS_PER_PAGE:
                    raise _TooMuchDrawing
                budget.parse(forms.get(operands[0], 0))
            except _TooMuchDrawing:
                over = True
                raise

    def visit(text, cm, tm, font, size) -> None:
        if not text or not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        scale = abs(tm[3] * cm[3]) or 1.0
        height = (size or 10.0) * scale
        for number, line in enumerate(text.split("\n")):
            if line.strip():
                pieces.append(_Piece(x, y - number * height * 1.2, height, line.strip()))

    contents = page.get_contents()
    if contents is not None:
        # Unpacked here, where a stream past the limits raises: text extraction would pass over it as no text. pypdf
        # keeps what it unpacked, so the extraction below does not unpack it again.
        budget.parse(budget.unpack(contents) + _fonts_cost(_dictionary(page.get("/Resources")), budget))
    page.extract_text(visitor_text=visit, visitor_operand_before=before)
    if over:
        raise _TooMuchDrawing
    return pieces


def _page_text(pieces: list[_Piece]) -> str:
    """One page's pieces in reading order: the header across the page, then each column top to bottom."""
    top_down = sorted(pieces, key=lambda p: (-p.y, p.x))
    gutter = _gutter(top_down)
    if gutter is None:
        return _lines(top_down)
    split_at, header_end = gutter
    header = [p for p in top_down if p.y > header_end]
    body = [p for p in top_down if p.y <= header_end]
    left = [p for p in body if p.x < split_at]
    right = [p for p in body if p.x >= split_at]
    return "\n\n".join(part for part in (_lines(header), _lines(left), _lines(right)) if part)


def _gutter(pieces: list[_Piece]) -> tuple[float, float] | None:
    """(x of the gutter, y where the columns start) when the pieces below the header form two columns: a start
    position no piece below the header crosses, with enough pieces on both sides."""
    counts = Counter(round(p.x) for p in pieces)
    # Only where lines start often can a column start; and a page set word by word has hundreds of such places, of
    # which the first few from the left are the columns': each is checked against every piece once.
    starts = sorted(x for x, count in counts.items() if count >= _MIN_COLUMN_PIECES)[1:_MAX_GUTTERS_TRIED]
    for start in starts:
        split_at = start - 0.5
        crossing = [p.y for p in pieces if p.x < split_at < p.end]
        header_end = min(crossing) - 0.01 if crossing else float("inf")
        body = [p for p in pieces if p.y <= header_end]
        left = sum(1 for p in body if p.x < split_at)
        if left >= _MIN_COLUMN_PIECES and len(body) - left >= _MIN_COLUMN_PIECES:
            return split_at, header_end
    return None


def _lines(pieces: list[_Piece]) -> str:
    """Pieces (top to bottom) as lines: those at one height joined left to right, a blank line where the gap to the
    next line is wider than a line's."""
    out: list[str] = []
    line: list[_Piece] = []
    previous_y: float | None = None
    previous_size = 10.0
    for piece in pieces:
        if line and abs(piece.y - line[0].y) <= 0.4 * max(piece.size, line[0].size):
            line.append(piece)
            continue
        if line:
            out.append(_joined(line))
            previous_y, previous_size = line[0].y, line[0].size
        if previous_y is not None and previous_y - piece.y > 1.9 * max(piece.size, previous_size):
            out.append("")
        line = [piece]
    if line:
        out.append(_joined(line))
    return "\n".join(out).strip()


def _joined(line: list[_Piece]) -> str:
    ordered = sorted(line, key=lambda p: p.x)
    text = ordered[0].text
    for before, piece in itertools.pairwise(ordered):
        gap = piece.x - before.end
        text += ("   " if gap > 2 * piece.size else " ") + piece.text
    return text
