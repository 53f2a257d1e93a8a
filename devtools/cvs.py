"""Fictional CVs written at run time, as PDF (reportlab), DOCX (python-docx) and plain text.

The tests and the benchmark make every CV they read here, from invented people and companies: the project holds no
third-party CV. ``FictionalCv`` is the content; ``cv_pdf``, ``cv_docx`` and ``cv_plain_text`` lay it out. A PDF can be
one column or two (a sidebar of contacts, skills and languages beside the career), a DOCX can put a section in a table,
as CV templates do. ``pdf_of_pages``, ``pdf_without_text`` and ``docx_with_images`` make the bad inputs.
"""

from __future__ import annotations

import dataclasses
import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "FictionalCv",
    "cv_docx",
    "cv_pdf",
    "cv_plain_text",
    "docx_with_images",
    "pdf_of_pages",
    "pdf_without_text",
    "sample_cv",
    "write_cvs",
]


@dataclass(frozen=True)
class FictionalCv:
    name: str
    headline: str = ""
    contacts: list[str] = field(default_factory=list)  # lines under the name: e-mail, phone, place, links
    sections: list[tuple[str, list[str]]] = field(default_factory=list)  # (heading, lines); "" lines end an entry
    sidebar: tuple[str, ...] = ()  # headings laid out in a PDF's left column when it has two

    def main_sections(self) -> list[tuple[str, list[str]]]:
        return [section for section in self.sections if section[0] not in self.sidebar]

    def side_sections(self) -> list[tuple[str, list[str]]]:
        return [section for section in self.sections if section[0] in self.sidebar]


def sample_cv() -> FictionalCv:
    """An invented engineer's two-page CV, in English: the benchmark's CV and the tests' reference."""
    experience = []
    for index, (company, title, dates) in enumerate(
        [
            ("Quillfeather Analytics", "Staff Software Engineer", "Mar 2021 – Present"),
            ("Brambleworth Logistics GmbH", "Senior Backend Developer", "04/2017 - 02/2021"),
            ("Tinderbox Labs", "Software Engineer", "January 2014 to March 2017"),
            ("Oakhollow Systems", "Junior Developer", "2012-2013"),
        ]
    ):
        experience += [
            f"{title} — {company}",
            dates,
            "Built the event pipeline in Python and Kafka, moved the services onto Kubernetes.",
            "Led a team of four; introduced PostgreSQL partitioning and Terraform for every environment.",
            *[f"Shipped release {index}.{n} of the routing service on time and under budget." for n in range(6)],
            "",
        ]
    return FictionalCv(
        name="Maelis Duvernoy",
        headline="Staff Software Engineer — distributed systems",
        contacts=[
            "maelis.duvernoy@example.org · +33 6 12 34 56 78",
            "Lyon, France",
            "github.com/maelisdv · linkedin.com/in/maelis-duvernoy",
        ],
        sections=[
            ("Summary", ["Backend engineer who likes queues, databases and quiet on-call rotations."]),
            ("Experience", experience),
            (
                "Education",
                ["Université Lumière Lyon 2", "MSc Computer Science", "2009 – 2011", ""],
            ),
            ("Skills", ["Python, Go, PostgreSQL, Kafka, Kubernetes, Terraform, Redis"]),
            ("Languages", ["French — native", "English — C1", "German — B1"]),
        ],
        sidebar=("Skills", "Languages"),
    )


# --- PDF ----------------------------------------------------------------------------------------------------------


def cv_pdf(cv: FictionalCv, *, columns: int = 1, password: str = "") -> bytes:
    """The CV as a PDF with a text layer: one column, or two (the sidebar's sections on the left)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    encrypt = None
    if password:
        from reportlab.lib.pdfencrypt import StandardEncryption

        encrypt = StandardEncryption(password, canPrint=1)
    canvas = Canvas(buffer, pagesize=A4, encrypt=encrypt, invariant=1)
    _, height = A4
    top = height - 60
    canvas.setFont("Helvetica-Bold", 18)
    canvas.drawString(50, top, cv.name)
    canvas.setFont("Helvetica", 11)
    y = top - 20
    for line in [cv.headline, *cv.contacts] if cv.headline else cv.contacts:
        canvas.drawString(50, y, line)
        y -= 14
    y -= 10
    if columns == 2:
        _pdf_column(canvas, cv.side_sections(), x=50, y=y, width=150, top=top)
        _pdf_column(canvas, cv.main_sections(), x=230, y=y, width=320, top=top)
    else:
        _pdf_column(canvas, cv.sections, x=50, y=y, width=500, top=top)
    canvas.save()
    return buffer.getvalue()


def _pdf_column(canvas, sections, *, x: float, y: float, width: float, top: float) -> None:
    """Sections down one column, onto a new page where the page ends (the other column's page is then finished)."""
    for heading, lines in sections:
        if y < 100:
            canvas.showPage()
            y = top
        canvas.setFont("Helvetica-Bold", 13)
        canvas.drawString(x, y, heading.upper())
        y -= 18
        canvas.setFont("Helvetica", 10)
        for line in lines:
            if y < 60:
                canvas.showPage()
                canvas.setFont("Helvetica", 10)
                y = top
            for part in _wrapped(line, width):
                canvas.drawString(x, y, part)
                y -= 13
            if not line:
                y -= 4
        y -= 10


def _wrapped(line: str, width: float) -> list[str]:
    """The line cut at spaces to fit ``width`` points of 10-point Helvetica (about 5 points a character)."""
    chars = max(int(width / 5), 10)
    parts, current = [], ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > chars:
            parts.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*parts, current] if current or not parts else parts


def pdf_of_pages(pages: int) -> bytes:
    """A PDF of ``pages`` pages of text: a book, not a CV."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    for number in range(pages):
        canvas.drawString(72, 720, f"Chapter {number + 1}: the lighthouse keeper's ledger")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def pdf_without_text() -> bytes:
    """A page of shapes and no text: what a scanner makes (an image of the page)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    for row in range(40):
        canvas.rect(72, 760 - row * 18, 300 + (row * 37) % 150, 8, fill=1)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


# --- DOCX ---------------------------------------------------------------------------------------------------------


def cv_docx(cv: FictionalCv, *, tables: tuple[str, ...] = ()) -> bytes:
    """The CV as a Word document: headings as Word headings; the sections named in ``tables`` as two-column tables
    (an entry's first line in the left cell, the rest in the right), as many CV templates lay them out."""
    from docx import Document

    document = Document()
    document.add_heading(cv.name, level=0)
    for line in [cv.headline, *cv.contacts] if cv.headline else cv.contacts:
        document.add_paragraph(line)
    for heading, lines in cv.sections:
        document.add_heading(heading, level=1)
        if heading in tables:
            table = document.add_table(rows=0, cols=2)
            for entry in _entries(lines):
                cells = table.add_row().cells
                cells[0].text = entry[0]
                cells[1].text = "\n".join(entry[1:])
        else:
            for line in lines:
                if line:
                    document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _entries(lines: list[str]) -> list[list[str]]:
    entries, current = [], []
    for line in [*lines, ""]:
        if line:
            current.append(line)
        elif current:
            entries.append(current)
            current = []
    return entries


def docx_with_images(cv: FictionalCv, images: int) -> bytes:
    """The CV's DOCX with ``images`` more picture parts packed in (tiny, identical): a file stuffed with media."""
    data = io.BytesIO(cv_docx(cv))
    with zipfile.ZipFile(data, "a", zipfile.ZIP_DEFLATED) as archive:
        for number in range(images):
            archive.writestr(f"word/media/image{number + 1}.png", b"\x89PNG\r\n\x1a\n" + bytes(64))
    return data.getvalue()


# --- Text ---------------------------------------------------------------------------------------------------------


def cv_plain_text(cv: FictionalCv, *, markdown: bool = False) -> str:
    """The CV as a text file, or as Markdown (``#`` for the name, ``##`` for the headings, ``-`` for the lines)."""
    lines = [f"# {cv.name}" if markdown else cv.name]
    lines += [cv.headline, *cv.contacts] if cv.headline else cv.contacts
    for heading, body in cv.sections:
        lines += ["", f"## {heading}" if markdown else heading.upper(), ""]
        lines += [f"- {line}" if markdown and line else line for line in body]
    return "\n".join(lines) + "\n"


# --- A folder of CVs ------------------------------------------------------------------------------------------------

_FIRST_NAMES = ("Maelis", "Oskar", "Henrike", "Idris", "Ludovica", "Anouk", "Joaquim", "Rocío", "Tamsin", "Bertil")
_LAST_NAMES = ("Duvernoy", "Fenwright", "Mospach", "Calloway", "Fenaroli", "Tissot", "Serrão", "Albarrán", "Quill")


def write_cvs(folder: Path, count: int) -> list[Path]:
    """``count`` CVs of as many invented people into ``folder``: two-column PDFs, one-column PDFs and DOCX files with
    tables, in turn (``cv-00001.pdf``...). Each is ``sample_cv`` under another name, e-mail and GitHub account."""
    paths = []
    for number in range(count):
        first = _FIRST_NAMES[number % len(_FIRST_NAMES)]
        last = _LAST_NAMES[(number // len(_FIRST_NAMES)) % len(_LAST_NAMES)]
        handle = f"{first[0]}{last}{number}".lower()
        phone = f"+33 6 12 34 {number // 100 % 100:02d} {number % 100:02d}"
        contacts = [f"{handle}@example.org · {phone}", "Lyon, France", f"github.com/{handle}"]
        cv = dataclasses.replace(sample_cv(), name=f"{first} {last}", contacts=contacts)
        kind = number % 3
        data = cv_pdf(cv, columns=2) if kind == 0 else cv_pdf(cv) if kind == 1 else cv_docx(cv, tables=("Experience",))
        path = Path(folder) / f"cv-{number:05d}.{'docx' if kind == 2 else 'pdf'}"
        path.write_bytes(data)
        paths.append(path)
    return paths
