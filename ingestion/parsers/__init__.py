"""Pure parsers: the bytes of a developer profile file in, a typed ProfileDocument out (no database, no network).

``parse`` detects the format from the content (never the file name) and raises ParseError, with a message a
recruiter can act on, for anything that holds no usable profile. The formats, each an entry of ``registry.FORMATS``
with its parser package: a Prog.AI text export (``progai``), a JSON Resume (``jsonresume``), and a CV (``cv``): a PDF
or DOCX by its first bytes, or a text or Markdown file with a CV's section headings that is neither of the others.
"""

from ingestion.parsers.jsonresume import parse_jsonresume
from ingestion.parsers.progai import parse_progai
from ingestion.parsers.registry import (
    FORMATS,
    NEITHER_FORMAT,
    UNKNOWN,
    FileFormat,
    ReadFile,
    detect_format,
    extracted_text,
    format_choices,
    formats_in_words,
    parse,
    read_file,
    reader_text,
    text_is_extracted,
)

__all__ = [
    "FORMATS",
    "NEITHER_FORMAT",
    "UNKNOWN",
    "FileFormat",
    "ReadFile",
    "detect_format",
    "extracted_text",
    "format_choices",
    "formats_in_words",
    "parse",
    "parse_jsonresume",
    "parse_progai",
    "read_file",
    "reader_text",
    "text_is_extracted",
]
