"""A CV's lines, and its sections found by their headings in English, German, French, Spanish, Portuguese and Italian.

A heading is a short line that is, once its decoration is gone (Markdown ``#``, a colon, capitals, a rule under it), one
of the words below. What comes before the first heading is the header: the name, the headline and the contact lines.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

__all__ = [
    "BULLET",
    "CONTACT",
    "EDUCATION",
    "EXPERIENCE",
    "LANGUAGES",
    "PROJECTS",
    "SKILLS",
    "SUMMARY",
    "Sections",
    "cv_lines",
    "heading_kind",
    "is_bullet",
    "plain",
    "sections_of",
]

EXPERIENCE = "experience"
EDUCATION = "education"
SKILLS = "skills"
LANGUAGES = "languages"
PROJECTS = "projects"
SUMMARY = "summary"
CONTACT = "contact"
OTHER = "other"  # a section this reader does not read (certificates, interests): it ends the one before

_HEADINGS: dict[str, tuple[str, ...]] = {
    EXPERIENCE: (
        "experience", "work experience", "professional experience", "employment", "employment history",
        "work history", "career", "career history", "professional background", "relevant experience",
        "berufserfahrung", "berufliche erfahrung", "beruflicher werdegang", "werdegang", "erfahrung",
        "praxiserfahrung", "berufspraxis",
        "expérience", "expériences", "expérience professionnelle", "expériences professionnelles",
        "parcours professionnel",
        "experiencia", "experiencia laboral", "experiencia profesional", "historial laboral",
        "experiência", "experiência profissional", "experiências", "experiências profissionais",
        "esperienza", "esperienze", "esperienza professionale", "esperienze professionali",
        "esperienza lavorativa", "esperienze lavorative",
    ),
    EDUCATION: (
        "education", "academic background", "education and training", "qualifications", "academic education",
        "ausbildung", "bildung", "bildungsweg", "studium", "akademischer werdegang", "schulbildung",
        "formation", "formations", "études", "parcours académique", "formation académique",
        "educación", "formación", "formación académica", "estudios",
        "educação", "formação", "formação académica", "formação acadêmica",
        "istruzione", "formazione", "istruzione e formazione", "studi", "percorso di studi",
    ),
    SKILLS: (
        "skills", "technical skills", "core skills", "key skills", "competencies", "core competencies",
        "technologies", "tech stack", "tools", "tools and technologies", "expertise", "it skills",
        "kenntnisse", "fähigkeiten", "fachkenntnisse", "it-kenntnisse", "technische kenntnisse", "kompetenzen",
        "edv-kenntnisse", "technologien",
        "compétences", "compétences techniques", "savoir-faire", "technologies maîtrisées",
        "habilidades", "competencias", "conocimientos", "conocimientos técnicos", "habilidades técnicas",
        "competências", "competências técnicas", "conhecimentos", "habilidades técnicas",
        "competenze", "competenze tecniche", "conoscenze", "abilità", "competenze informatiche",
    ),
    LANGUAGES: (
        "languages", "spoken languages", "language skills",
        "sprachen", "sprachkenntnisse", "fremdsprachen",
        "langues", "compétences linguistiques", "langues parlées",
        "idiomas", "lenguas",
        "línguas", "linguas",
        "lingue", "conoscenze linguistiche", "competenze linguistiche", "lingue straniere",
    ),
    PROJECTS: (
        "projects", "personal projects", "side projects", "open source", "selected projects",
        "projekte", "projets", "projets personnels", "proyectos", "projetos", "progetti", "progetti personali",
    ),
    SUMMARY: (
        "summary", "profile", "about", "about me", "professional summary", "objective", "career objective",
        "profil", "zusammenfassung", "über mich", "kurzprofil", "résumé", "à propos", "à propos de moi",
        "perfil", "resumen", "sobre mí", "resumo", "sobre mim", "perfil profissional", "profilo", "sommario",
        "chi sono", "profilo professionale",
    ),
    CONTACT: (
        "contact", "contact details", "contact information", "personal details", "kontakt", "persönliche daten",
        "kontaktdaten", "coordonnées", "contacto", "datos personales", "contato", "dados pessoais", "contatti",
        "dati personali",
    ),
    OTHER: (
        "certifications", "certificates", "awards", "publications", "interests", "hobbies", "references",
        "volunteering", "achievements", "courses", "trainings", "honors", "honours",
        "zertifikate", "zertifizierungen", "interessen", "hobbys", "referenzen", "weiterbildung", "auszeichnungen",
        "certificats", "centres d'intérêt", "loisirs", "distinctions", "publicaciones", "certificaciones",
        "intereses", "cursos", "certificações", "interesses", "prêmios", "certificazioni", "interessi", "corsi",
        "pubblicazioni", "premi",
    ),
}  # fmt: skip
# What a CV calls itself at its top, in the six languages ("Résumé" there is no summary's heading).
_DOCUMENT_TITLES = frozenset(
    {
        "curriculum vitae", "cv", "resume", "résumé", "lebenslauf", "tabellarischer lebenslauf", "currículum vitae",
        "curriculum", "currículo", "curriculo", "curriculum vitæ",
    }
)  # fmt: skip
_KIND_OF_HEADING = {heading: kind for kind, headings in _HEADINGS.items() for heading in headings}
_MAX_HEADING_CHARS = 45
_WRAPPED_LINE_CHARS = 40
# Words a sentence does not end on, in the six languages: a line that ends on one goes on in the next.
_JOINING_WORDS = frozenset(
    " ".join(
        (
            "and or of the a an in on at to for with by from as",
            "und oder der die das den dem des ein eine mit für von zu im auf bei",
            "et ou le la les un une des du de avec pour dans sur par",
            "y o el los las con para en por del",
            "e ou os as um uma com em no na do da",
            "di il lo gli per nel della dei delle con su",
        )
    ).split(" ")
)
_DECORATION_RE = re.compile(r"^[#=*_\s\-–—|•·▪►]+|[\s:：#=*_\-–—|•·▪►]+$")
# A bullet item's line starts with this, whatever bullet the CV used ("-", "*", "▪", "1."): an item of a list is never
# an entry's heading.
BULLET = "\u2022 "
_MARKDOWN_HEADING_RE = re.compile(r"^#{1,6}\s+")
_BULLET_RE = re.compile(r"^\s*(?:[-*•·▪►‣◦–—]|\d{1,2}[.)])\s+")
_RULE_RE = re.compile(r"^[\s=\-_–—*#~.·]{3,}$")  # a line that only underlines or separates
_MARKDOWN_RE = re.compile(r"\*\*|__|`|\[([^\]\n]{0,200})\]\(([^)\s]{0,500})\)")


@dataclass(slots=True)
class Sections:
    header: list[str] = field(default_factory=list)
    bodies: dict[str, list[str]] = field(default_factory=dict)  # the lines of each kind, sections of a kind joined

    def of(self, kind: str) -> list[str]:
        return self.bodies.get(kind, [])


def _markdown_plain(match: re.Match) -> str:
    if match.group(0).startswith("["):
        label, target = match.group(1), match.group(2)
        return label if target in label else f"{label} {target}"
    return ""


def cv_lines(text: str) -> list[str]:
    """The text's lines without Markdown's marks and bullets, separator rules as blank lines; "" between blocks."""
    lines = []
    for raw in text.split("\n"):
        line = raw.strip()
        if _RULE_RE.match(line):
            line = ""
        line = _MARKDOWN_RE.sub(_markdown_plain, _MARKDOWN_HEADING_RE.sub("", line))
        line, bullets = _BULLET_RE.subn("", line)
        line = BULLET + line.strip() if bullets and line.strip() else line.strip()
        if lines and _continues(lines[-1], line):
            lines[-1] = f"{lines[-1]} {line}"
            continue
        lines.append(line)
    return lines


def is_bullet(line: str) -> bool:
    return line.startswith(BULLET)


def plain(line: str) -> str:
    """The line without its bullet."""
    return line.removeprefix(BULLET)


def _continues(previous: str, line: str) -> bool:
    """Whether ``line`` is the rest of a long line the layout wrapped (a PDF's column): after a line long enough to
    have been cut, which ends inside a sentence (with a comma or a word such as "and", or before a word in lower
    case), a line that starts with a word (not an address or a link)."""
    if len(previous) < _WRAPPED_LINE_CHARS or not line.split(" ", 1)[0].rstrip(",;:.!?").isalpha():
        return False
    if heading_kind(previous) or heading_kind(line):
        return False
    last_word = previous.rsplit(" ", 1)[-1].casefold()
    return previous.endswith(",") or last_word in _JOINING_WORDS or (line[:1].islower() and previous[-1:].isalpha())


def _document_title(line: str) -> bool:
    key = _DECORATION_RE.sub("", line).casefold()
    return key in _DOCUMENT_TITLES


def heading_kind(line: str) -> str:
    """The kind of section ``line`` heads, or ""."""
    if not line or len(line) > _MAX_HEADING_CHARS:
        return ""
    key = unicodedata.normalize("NFC", _DECORATION_RE.sub("", line)).casefold().replace("&", "and")
    key = re.sub(r"\s+", " ", key)
    return _KIND_OF_HEADING.get(key, "")


def sections_of(lines: list[str]) -> Sections:
    sections = Sections()
    current = sections.header
    for line in lines:
        if not any(sections.header) and not sections.bodies and _document_title(line):
            continue  # "Curriculum Vitae" or "Résumé" over the name: a title, not the summary's heading
        kind = heading_kind(line)
        if kind:
            current = sections.bodies.setdefault(kind, [])
            if current:
                current.append("")
            continue
        current.append(line)
    return sections
