"""Fictional CVs of the tests, in each language the reader knows (invented people and companies)."""

from devtools.cvs import FictionalCv


def _cv(person: list[str], *sections: tuple[str, ...]) -> FictionalCv:
    """A CV of a name, a headline and contact lines (``person``), and sections of an experience (heading, title and
    company, dates, what was done), an education (heading, school, degree, dates), skills (heading, the list) and
    languages (heading, one line each)."""
    name, headline, *contacts = person
    (experience, job, job_dates, done), (education, school, degree, school_dates), skills, (languages, *spoken) = (
        sections
    )
    return FictionalCv(
        name=name,
        headline=headline,
        contacts=contacts,
        sections=[
            (experience, [job, job_dates, done, ""]),
            (education, [school, degree, school_dates, ""]),
            (skills[0], [skills[1]]),
            (languages, spoken),
        ],
    )


def german_cv() -> FictionalCv:
    return _cv(
        [
            "Henrike Mospach",
            "Backend-Entwicklerin",
            "henrike.mospach@example.de",
            "Telefon: +49 170 5550123",
            "Leipzig, Deutschland",
        ],
        ("Berufserfahrung", "Senior Entwicklerin bei Kieselgrund AG", "04/2020 - heute", "Go und PostgreSQL."),
        ("Ausbildung", "Hochschule Elsterbrück", "M.Sc. Informatik", "2014 - 2016"),
        ("Kenntnisse", "Go, PostgreSQL, Docker"),
        ("Sprachen", "Deutsch (Muttersprache)", "Englisch (C1)"),
    )


def french_cv() -> FictionalCv:
    return _cv(
        ["Anouk Verlaine-Tissot", "Ingénieure logiciel", "anouk.tissot@example.fr · 06 11 22 33 44", "Nantes, France"],
        (
            "Expérience professionnelle",
            "Ingénieure logiciel — Brumeval SAS",
            "janv. 2019 – aujourd'hui",
            "Services en Kotlin.",
        ),
        ("Formation", "École Supérieure de Gerlande", "Master Informatique", "2016 – 2018"),
        ("Compétences", "Kotlin, Java, Kafka"),
        ("Langues", "Français : langue maternelle", "Anglais : courant"),
    )


def spanish_cv() -> FictionalCv:
    return _cv(
        ["Rocío Albarrán Quesada", "Desarrolladora full-stack", "rocio.albarran@example.es", "Sevilla, España"],
        ("Experiencia", "Desarrolladora — Olivarda Software", "marzo 2018 - actualidad", "Aplicaciones en React."),
        ("Educación", "Universidad de Tarsela", "Grado en Ingeniería Informática", "2013 - 2017"),
        ("Habilidades", "React, TypeScript, Node.js"),
        ("Idiomas", "Español: nativo", "Inglés: B2"),
    )


def portuguese_cv() -> FictionalCv:
    return _cv(
        ["Joaquim Serrão Baptista", "Engenheiro de dados", "joaquim.baptista@example.pt", "Porto, Portugal"],
        (
            "Experiência profissional",
            "Engenheiro de dados — Maresia Dados Lda",
            "setembro 2019 - atual",
            "Pipelines em Scala.",
        ),
        ("Formação", "Universidade de Vilarejo", "Mestrado em Estatística", "2015 - 2017"),
        ("Competências", "Scala, Spark, Python"),
        ("Línguas", "Português — nativo", "Inglês — fluente"),
    )


def italian_cv() -> FictionalCv:
    return _cv(
        [
            "Ludovica Fenaroli",
            "Sviluppatrice mobile",
            "ludovica.fenaroli@example.it",
            "Cellulare: +39 345 555 0199",
            "Bologna, Italia",
        ],
        ("Esperienza", "Sviluppatrice — Cortevecchia Srl", "2020 – oggi", "App in Swift."),
        ("Istruzione", "Politecnico di Valtorre", "Laurea in Informatica", "2015 – 2019"),
        ("Competenze", "Swift, Kotlin, Firebase"),
        ("Lingue", "Italiano madrelingua", "Inglese fluente"),
    )
