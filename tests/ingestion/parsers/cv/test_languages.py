"""CVs in German, French, Spanish, Portuguese and Italian: their section headings, date forms, degrees and the
levels of their spoken languages ("Muttersprache", "langue maternelle", "nativo", "madrelingua", CEFR)."""

import pytest

from devtools.cvs import cv_docx, cv_pdf, cv_plain_text
from ingestion.parsers import parse
from tests.ingestion.parsers.cv.cvs import french_cv, german_cv, italian_cv, portuguese_cv, spanish_cv

EXPECTED = {
    "de": (
        german_cv,
        {
            "name": "Henrike Mospach",
            "email": "henrike.mospach@example.de",
            "phone": "+49 170 5550123",
            "country_code": "DE",
            "position": ("Senior Entwicklerin", "Kieselgrund AG", "2020-04", None, True),
            "education": ("Hochschule Elsterbrück", "M.Sc.", "Informatik", "2014", "2016"),
            "languages": [("de", "native"), ("en", "full_professional")],
            "skills": ["Go", "PostgreSQL", "Docker"],
        },
    ),
    "fr": (
        french_cv,
        {
            "name": "Anouk Verlaine-Tissot",
            "email": "anouk.tissot@example.fr",
            "phone": "06 11 22 33 44",
            "country_code": "FR",
            "position": ("Ingénieure logiciel", "Brumeval SAS", "2019-01", None, True),
            "education": ("École Supérieure de Gerlande", "Master", "Informatique", "2016", "2018"),
            "languages": [("fr", "native"), ("en", "full_professional")],
            "skills": ["Kotlin", "Java", "Kafka"],
        },
    ),
    "es": (
        spanish_cv,
        {
            "name": "Rocío Albarrán Quesada",
            "email": "rocio.albarran@example.es",
            "phone": "",
            "country_code": "ES",
            "position": ("Desarrolladora", "Olivarda Software", "2018-03", None, True),
            "education": ("Universidad de Tarsela", "Grado", "Ingeniería Informática", "2013", "2017"),
            "languages": [("es", "native"), ("en", "professional_working")],
            "skills": ["React", "TypeScript", "Node.js"],
        },
    ),
    "pt": (
        portuguese_cv,
        {
            "name": "Joaquim Serrão Baptista",
            "email": "joaquim.baptista@example.pt",
            "phone": "",
            "country_code": "PT",
            "position": ("Engenheiro de dados", "Maresia Dados Lda", "2019-09", None, True),
            "education": ("Universidade de Vilarejo", "Mestrado", "Estatística", "2015", "2017"),
            "languages": [("pt", "native"), ("en", "full_professional")],
            "skills": ["Scala", "Spark", "Python"],
        },
    ),
    "it": (
        italian_cv,
        {
            "name": "Ludovica Fenaroli",
            "email": "ludovica.fenaroli@example.it",
            "phone": "+39 345 555 0199",
            "country_code": "IT",
            "position": ("Sviluppatrice", "Cortevecchia Srl", "2020-01", None, True),
            "education": ("Politecnico di Valtorre", "Laurea", "Informatica", "2015", "2019"),
            "languages": [("it", "native"), ("en", "full_professional")],
            "skills": ["Swift", "Kotlin", "Firebase"],
        },
    ),
}
WRITERS = {"text": lambda cv: cv_plain_text(cv).encode(), "docx": cv_docx, "pdf": cv_pdf}


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_each_language_is_read_field_by_field(language, writer):
    make, expected = EXPECTED[language]
    document = parse(WRITERS[writer](make()))

    assert document.format == "cv"
    assert document.name == expected["name"]
    assert document.email == expected["email"]
    assert document.phone == expected["phone"]
    assert document.location.country_code == expected["country_code"]
    assert [(p.title, p.company, p.start, p.end, p.is_current) for p in document.positions] == [expected["position"]]
    assert [(e.school, e.degree, e.field, e.start, e.end) for e in document.education] == [expected["education"]]
    assert [(language.code, language.fluency) for language in document.languages] == expected["languages"]
    assert [skill.label for skill in document.skills] == expected["skills"]
