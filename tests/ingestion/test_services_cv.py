"""CVs through the whole pipeline (receive, parse, normalise, load), with the identity rules of every import: a CV of
someone already in TalentDB updates them, hand edits stay, an erased person's CV is refused, and a file that cannot
be read fails alone with its message while its bytes are kept."""

import dataclasses
import json

import pytest

from devtools.cvs import FictionalCv, cv_docx, cv_pdf, cv_plain_text, pdf_without_text, sample_cv
from ingestion.models import SourceFile
from ingestion.parsers.cv import files
from privacy.services import candidate_erase
from profiles.contacts import candidates_with_identifiers, profile_links
from profiles.models import Candidate
from profiles.services import candidate_save_by_hand
from tests.factories import UserFactory
from tests.ingestion.imports import import_all, receive
from tests.ingestion.parsers.cv.cvs import german_cv

pytestmark = pytest.mark.django_db


def _import(*files: tuple[str, bytes]) -> dict[str, SourceFile]:
    batch = receive(*files)
    import_all(batch)
    return {source.original_name: source for source in SourceFile.objects.filter(batch=batch)}


def test_a_pdf_and_a_docx_cv_become_two_candidates_with_their_positions():
    sources = _import(("maelis.pdf", cv_pdf(sample_cv(), columns=2)), ("henrike.docx", cv_docx(german_cv())))

    assert {name: (s.format, s.status) for name, s in sources.items()} == {
        "maelis.pdf": ("cv", "imported"),
        "henrike.docx": ("cv", "imported"),
    }
    maelis = sources["maelis.pdf"].candidate
    assert (maelis.name, maelis.email, maelis.phone, maelis.country_code) == (
        "Maelis Duvernoy",
        "maelis.duvernoy@example.org",
        "+33 6 12 34 56 78",
        "FR",
    )
    assert [(p.company, p.title, p.is_current) for p in maelis.positions.order_by("order")][:2] == [
        ("Quillfeather Analytics", "Staff Software Engineer", True),
        ("Brambleworth Logistics GmbH", "Senior Backend Developer", False),
    ]
    assert list(maelis.languages.order_by("position").values_list("code", "fluency")) == [
        ("fr", "native"),
        ("en", "full_professional"),
        ("de", "limited_working"),
    ]
    assert maelis.skills.filter(skill__slug="python").get().score == 7
    henrike = sources["henrike.docx"].candidate
    assert (henrike.name, henrike.company) == ("Henrike Mospach", "Kieselgrund AG")
    assert henrike.education.get().school == "Hochschule Elsterbrück"


def test_a_cv_of_someone_already_imported_updates_them():
    first = _import(("maelis.txt", cv_plain_text(sample_cv()).encode()))["maelis.txt"].candidate
    newer = dataclasses.replace(sample_cv(), headline="Principal Engineer — data platforms")

    source = _import(("maelis-2025.pdf", cv_pdf(newer)))["maelis-2025.pdf"]

    assert source.outcome == SourceFile.Outcome.UPDATED
    assert source.candidate_id == first.pk
    assert Candidate.objects.get().headline == "Principal Engineer — data platforms"


def test_a_cv_by_the_same_email_updates_a_candidate_from_another_format():
    resume = {"basics": {"name": "Maelis Duvernoy", "email": "maelis.duvernoy@example.org", "label": "Engineer"}}
    first = _import(("maelis.json", json.dumps(resume).encode()))["maelis.json"].candidate

    source = _import(("maelis.docx", cv_docx(sample_cv())))["maelis.docx"]

    assert source.candidate_id == first.pk
    assert Candidate.objects.get().positions.count() == 4


def test_hand_edits_stay_when_the_cv_is_imported_again():
    candidate = _import(("maelis.pdf", cv_pdf(sample_cv())))["maelis.pdf"].candidate
    candidate.headline = "Distributed systems lead (checked by phone)"
    candidate_save_by_hand(candidate=candidate, user=UserFactory())
    newer = dataclasses.replace(sample_cv(), headline="Principal Engineer — data platforms")

    _import(("maelis-2025.docx", cv_docx(newer)))

    assert Candidate.objects.get().headline == "Distributed systems lead (checked by phone)"


def test_the_cv_of_an_erased_person_is_refused():
    candidate = _import(("maelis.pdf", cv_pdf(sample_cv())))["maelis.pdf"].candidate
    candidate_erase(candidate=candidate, user=UserFactory())

    (source,) = _import(("maelis-again.docx", cv_docx(sample_cv()))).values()  # its name is withheld too

    assert source.status == SourceFile.Status.FAILED
    assert "asked to be erased" in source.error
    assert bytes(source.content) == b""
    assert not Candidate.objects.exists()


def test_files_that_cannot_be_read_fail_alone_and_keep_their_bytes():
    scan, locked = pdf_without_text(), cv_pdf(sample_cv(), password="lantern-7")
    old_word = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    sources = _import(
        ("henrike.docx", cv_docx(german_cv())), ("scan.pdf", scan), ("locked.pdf", locked), ("old.doc", old_word)
    )

    assert sources["henrike.docx"].status == SourceFile.Status.IMPORTED
    for name, data, message in [
        ("scan.pdf", scan, "no text layer"),
        ("locked.pdf", locked, "protected by a password"),
        ("old.doc", old_word, "old Word document"),
    ]:
        assert sources[name].status == SourceFile.Status.FAILED
        assert message in sources[name].error
        assert bytes(sources[name].content) == data


def test_an_import_reads_a_pdfs_text_once(monkeypatch):
    reads = []
    original = files.pdf_text

    def counted(data):
        reads.append(len(data))
        return original(data)

    monkeypatch.setattr(files, "pdf_text", counted)

    sources = _import(("maelis.pdf", cv_pdf(sample_cv())))

    assert sources["maelis.pdf"].status == SourceFile.Status.IMPORTED
    assert len(reads) == 1


def test_a_cv_candidate_gets_the_years_of_their_dated_positions():
    cv = dataclasses.replace(
        sample_cv(),
        sections=[
            (
                "Experience",
                [
                    "Senior Backend Developer — Brambleworth Logistics GmbH",
                    "04/2017 - 03/2021",
                    "Moved the services onto Kubernetes.",
                    "",
                    "Software Engineer — Tinderbox Labs",
                    "January 2014 to March 2017",
                    "Built the billing service.",
                    "",
                    "Sales Assistant — Oakhollow Books",
                    "2010-2013",
                    "Sold books.",
                    "",
                ],
            ),
            ("Skills", ["Python, Go, PostgreSQL"]),
        ],
    )

    candidate = _import(("maelis.pdf", cv_pdf(cv)))["maelis.pdf"].candidate

    candidate.refresh_from_db()
    # "2010-2013" is Jan 2010 – Jan 2013 (a year alone is its January): 37 months, and Jan 2014 – Mar 2021 87 more,
    # all of them software positions.
    assert (candidate.years_employed, candidate.years_coding) == (10, 7)


def test_a_file_named_pdf_is_read_by_its_content():
    text_cv = cv_plain_text(sample_cv()).encode()
    garbage = bytes(range(256)) * 8

    sources = _import(("cv.pdf", text_cv), ("resume.pdf", garbage))

    assert (sources["cv.pdf"].format, sources["cv.pdf"].status) == ("cv", SourceFile.Status.IMPORTED)
    assert sources["cv.pdf"].candidate.name == "Maelis Duvernoy"
    assert sources["resume.pdf"].status == SourceFile.Status.FAILED
    assert sources["resume.pdf"].error == (
        "This file is not a PDF, a Word document (DOCX) or a text file, whatever its name says: TalentDB cannot read "
        "it. If it is a CV, open it in the program that made it, save it as PDF or DOCX with text, and upload that."
    )
    assert bytes(sources["resume.pdf"].content) == garbage


def _with_contacts(*contacts: str) -> FictionalCv:
    return dataclasses.replace(sample_cv(), contacts=list(contacts))


def test_a_linkedin_profile_is_one_identifier_and_one_link_however_it_is_written():
    cv = _with_contacts(
        "maelis.duvernoy@example.org",
        "Lyon, France",
        "https://www.LinkedIn.com/in/Maelis-Duvernoy/ · github.com/maelisdv",
    )

    candidate = _import(("maelis.pdf", cv_pdf(cv)))["maelis.pdf"].candidate

    identifiers = set(candidate.identifiers.exclude(kind="name").values_list("kind", "value"))
    assert identifiers == {
        ("email", "maelis.duvernoy@example.org"),
        ("linkedin", "maelis-duvernoy"),
        ("github", "maelisdv"),
    }
    links = profile_links(candidates_with_identifiers(Candidate.objects.filter(pk=candidate.pk)).get())
    assert [(link.label, link.url) for link in links] == [
        ("GitHub", "https://github.com/maelisdv"),
        ("LinkedIn", "https://www.linkedin.com/in/maelis-duvernoy"),
    ]


def test_a_second_cv_with_the_bare_linkedin_address_updates_the_same_person():
    first = _with_contacts(
        "maelis.duvernoy@example.org", "Lyon, France", "https://www.linkedin.com/in/maelis-duvernoy/"
    )
    second = _with_contacts("m.duvernoy@example.net", "Grenoble, France", "linkedin.com/in/Maelis-Duvernoy")
    candidate = _import(("first.pdf", cv_pdf(first)))["first.pdf"].candidate

    source = _import(("second.docx", cv_docx(second)))["second.docx"]

    assert (source.outcome, source.candidate_id) == (SourceFile.Outcome.UPDATED, candidate.pk)
    assert Candidate.objects.get().city == "Grenoble"
    profiles = Candidate.objects.get().identifiers.filter(kind__in=["linkedin", "url"])
    assert list(profiles.values_list("kind", "value")) == [("linkedin", "maelis-duvernoy")]


# Each a skill of its own: a skill the section names twice ("Hilt", "Dagger Hilt") is kept once, under its first label.
ANDROID_SKILLS = {
    "Kotlin": "kotlin",
    "Coroutines": "kotlin-coroutines",
    "Kotlin Flow": "kotlin-flow",
    "Room": "android-room",
    "Hilt": "dagger-hilt",
    "Jetpack Compose": "jetpack-compose",
    "WorkManager": "android-workmanager",
    "LiveData": "android-livedata",
    "Jetpack Navigation": "android-navigation",
    "Koin": "koin",
    "Ktor": "ktor",
    "Moshi": "moshi",
    "Glide": "android-glide",
    "Coil": "coil",
    "Espresso": "android-espresso",
    "LeakCanary": "leakcanary",
    "Kotlin Multiplatform": "kotlin-multiplatform",
    "Play Console": "google-play-console",
}


def test_an_android_cv_lists_skills_the_shipped_vocabulary_knows():
    cv = dataclasses.replace(sample_cv(), sections=[*sample_cv().sections[:3], ("Skills", [", ".join(ANDROID_SKILLS)])])

    candidate = _import(("maelis.docx", cv_docx(cv)))["maelis.docx"].candidate

    found = {row.label: row.skill.slug for row in candidate.skills.select_related("skill").filter(section="skill")}
    assert {label: found.get(label) for label in ANDROID_SKILLS} == ANDROID_SKILLS


def test_compose_alone_on_an_android_cv_is_jetpack_compose_not_a_misspelt_composer():
    cv = dataclasses.replace(sample_cv(), sections=[*sample_cv().sections[:3], ("Skills", ["Kotlin, Compose, Room"])])

    candidate = _import(("maelis.docx", cv_docx(cv)))["maelis.docx"].candidate

    listed = dict(candidate.skills.filter(label__in=["Kotlin", "Compose", "Room"]).values_list("label", "skill__slug"))
    assert listed == {"Kotlin": "kotlin", "Compose": "jetpack-compose", "Room": "android-room"}
    assert not candidate.skills.filter(skill__slug="composer").exists()


@pytest.mark.parametrize(
    ("listed", "expected"),
    [
        ("Kotlin, Jetpack Compose, Room", {"Jetpack Compose": "jetpack-compose", "Room": "android-room"}),
        ("Android SDK, Compose, Room", {"Compose": "jetpack-compose", "Room": "android-room"}),
        # "Compose" and "Room" are English words, or name another platform's tool: beside Docker, Docker Compose.
        ("Docker, Compose, Kubernetes", {"Compose": "docker-compose"}),
        ("Excel, Compose, Room", {"Compose": None, "Room": None}),
    ],
)
def test_compose_and_room_on_a_cv_name_the_skill_of_the_platform_the_list_names(listed, expected):
    cv = dataclasses.replace(sample_cv(), sections=[*sample_cv().sections[:3], ("Skills", [listed])])

    candidate = _import(("maelis.docx", cv_docx(cv)))["maelis.docx"].candidate

    found = dict(candidate.skills.filter(label__in=list(expected)).values_list("label", "skill__slug"))
    assert {label: found.get(label) for label in expected} == expected
    assert not candidate.skills.filter(skill__slug__in=["composer", "room"]).exists()
