"""CVs: PDF and Word (DOCX) files by their content, plain-text and Markdown CVs, read into a ProfileDocument.

``cv_file_kind`` tells a PDF, a DOCX and an old Word document apart by their first bytes; ``cv_file_text`` is the
text the reader works from (the admin shows it beside the parsed record); ``parse_cv`` reads that text.
"""

from ingestion.parsers.cv.files import OLD_WORD_MESSAGE, cv_file_kind, cv_file_text
from ingestion.parsers.cv.reader import NOT_A_CV_MESSAGE, looks_like_cv, parse_cv

__all__ = ["NOT_A_CV_MESSAGE", "OLD_WORD_MESSAGE", "cv_file_kind", "cv_file_text", "looks_like_cv", "parse_cv"]
