"""Fictional CVs of the tests, in each language the reader knows (invented people and companies)."""

from devtools.cvs import FictionalCv


def german_cv() -> FictionalCv:
    return FictionalCv(
        name="Henrike Mospach",
        headline="Backend-Entwicklerin",
        contacts=["henrike.mospach@example.de", "Telefon: +49 170 5550123", "Leipzig, Deutschland"],
        sections=[
            (
                "Berufserfahrung",
                ["Senior Entwicklerin bei Kieselgrund AG", "04/2020 - heute", "Go und PostgreSQL.", ""],
            ),
            ("Ausbildung", ["Hochschule Elsterbrück", "M.Sc. Informatik", "2014 - 2016", ""]),
            ("Kenntnisse", ["Go, PostgreSQL, Docker"]),
            ("Sprachen", ["Deutsch (Muttersprache)", "Englisch (C1)"]),
        ],
    )


def french_cv() -> FictionalCv:
    return FictionalCv(
        name="Anouk Verlaine-Tissot",
        headline="Ingénieure logiciel",
        contacts=["anouk.tissot@example.fr · 06 11 22 33 44", "Nantes, France"],
        sections=[
            (
                "Expérience professionnelle",
                ["Ingénieure logiciel — Brumeval SAS", "janv. 2019 – aujourd'hui", "Services en Kotlin.", ""],
            ),
            ("Formation", ["École Supérieure de Gerlande", "Master Informatique", "2016 – 2018", ""]),
            ("Compétences", ["Kotlin, Java, Kafka"]),
            ("Langues", ["Français : langue maternelle", "Anglais : courant"]),
        ],
    )


def spanish_cv() -> FictionalCv:
    return FictionalCv(
        name="Rocío Albarrán Quesada",
        headline="Desarrolladora full-stack",
        contacts=["rocio.albarran@example.es", "Sevilla, España"],
        sections=[
            (
                "Experiencia",
                ["Desarrolladora — Olivarda Software", "marzo 2018 - actualidad", "Aplicaciones en React.", ""],
            ),
            ("Educación", ["Universidad de Tarsela", "Grado en Ingeniería Informática", "2013 - 2017", ""]),
            ("Habilidades", ["React, TypeScript, Node.js"]),
            ("Idiomas", ["Español: nativo", "Inglés: B2"]),
        ],
    )


def portuguese_cv() -> FictionalCv:
    return FictionalCv(
        name="Joaquim Serrão Baptista",
        headline="Engenheiro de dados",
        contacts=["joaquim.baptista@example.pt", "Porto, Portugal"],
        sections=[
            (
                "Experiência profissional",
                ["Engenheiro de dados — Maresia Dados Lda", "setembro 2019 - atual", "Pipelines em Scala.", ""],
            ),
            ("Formação", ["Universidade de Vilarejo", "Mestrado em Estatística", "2015 - 2017", ""]),
            ("Competências", ["Scala, Spark, Python"]),
            ("Línguas", ["Português — nativo", "Inglês — fluente"]),
        ],
    )


def italian_cv() -> FictionalCv:
    return FictionalCv(
        name="Ludovica Fenaroli",
        headline="Sviluppatrice mobile",
        contacts=["ludovica.fenaroli@example.it", "Cellulare: +39 345 555 0199", "Bologna, Italia"],
        sections=[
            ("Esperienza", ["Sviluppatrice — Cortevecchia Srl", "2020 – oggi", "App in Swift.", ""]),
            ("Istruzione", ["Politecnico di Valtorre", "Laurea in Informatica", "2015 – 2019", ""]),
            ("Competenze", ["Swift, Kotlin, Firebase"]),
            ("Lingue", ["Italiano madrelingua", "Inglese fluente"]),
        ],
    )
