"""The JSON Resume parser, against the project's fictional résumés, the corpus files and hand-made edge cases.

tests/fixtures/jsonresume holds fictional people written for this project: a complete v1 résumé, legacy keys
(``website``, ``company``, a pre-1.0 ``bio``), extension keys, an empty ``endDate`` for a current job, CJK text,
profiles given by URL only; ``invalid/`` is not JSON, ``schema_invalid/`` breaks the schema. The corpus's real files
(marked ``corpus``) are an extra layer when they are there. No database.
"""

import json
import re
from datetime import date
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingestion.documents import ParseError
from ingestion.parsers import detect_format, jsonresume, parse
from ingestion.parsers.jsonresume import SCHEMA, level_score, parse_jsonresume
from tests.fixtures import CORPUS_DIR, JSONRESUME_DIR, corpus_path

RESUMES = CORPUS_DIR / "jsonresume"
TODAY = date(2025, 6, 15)


def corpus_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def resume_params(subfolder: str = "") -> list:
    """The fixture files of a folder, then the corpus's (marked ``corpus``) when the corpus is there."""
    return [
        *(pytest.param(p, id=f"fixture/{p.name}") for p in corpus_files(JSONRESUME_DIR / subfolder)),
        *(pytest.param(p, id=f"corpus/{p.name}", marks=pytest.mark.corpus) for p in corpus_files(RESUMES / subfolder)),
    ]


def fixture(name: str) -> str:
    return (JSONRESUME_DIR / name).read_text(encoding="utf-8")


def read(name: str) -> str:
    return corpus_path("jsonresume", name).read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------------------------------------
# Whole files: the fixtures, and the corpus when it is there
# --------------------------------------------------------------------------------------------------------------------


def expected_name(data: dict) -> str:
    basics = data.get("basics") or data["bio"]  # pre-1.0 résumés
    return basics.get("name") or f"{basics['firstName']} {basics['lastName']}"


@pytest.mark.parametrize("path", resume_params(), ids=str)
def test_every_resume_parses_with_a_name(path):
    data = path.read_bytes()
    assert detect_format(data) == "jsonresume"
    document = parse(data)
    assert document.format == "jsonresume"
    assert document.name.strip()
    assert document.name == expected_name(json.loads(data))


def test_the_fixtures_are_there():
    assert len(corpus_files(JSONRESUME_DIR)) >= 6
    assert corpus_files(JSONRESUME_DIR / "invalid")
    assert corpus_files(JSONRESUME_DIR / "schema_invalid")


@pytest.mark.corpus
def test_the_corpus_is_there():
    assert len(corpus_files(RESUMES)) >= 9


@pytest.mark.parametrize("path", resume_params("invalid"), ids=str)
def test_invalid_json_gives_a_clear_error_with_line_and_column(path):
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line \d+, column \d+: "):
        parse(path.read_bytes())


@pytest.mark.parametrize("path", resume_params("schema_invalid"), ids=str)
def test_schema_invalid_files_give_an_error_or_warnings(path):
    data = path.read_bytes()
    basics = json.loads(data).get("basics")
    if isinstance(basics, dict) and isinstance(basics.get("name"), str) and basics["name"].strip():
        assert parse(data).warnings
    else:
        with pytest.raises(ParseError, match=r"^No name found in basics\.name"):
            parse(data)


def test_the_broken_fixtures_say_what_is_wrong():
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line 1, column 2: Expecting property name"):
        parse((JSONRESUME_DIR / "invalid" / "unquoted-key.json").read_bytes())
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line 4, column 16: Unterminated string"):
        parse((JSONRESUME_DIR / "invalid" / "cut-short.json").read_bytes())
    with pytest.raises(ParseError, match=r"^No name found in basics\.name"):
        parse((JSONRESUME_DIR / "schema_invalid" / "basics-is-an-array.json").read_bytes())
    with pytest.raises(ParseError, match=r"^No name found in basics\.name"):
        parse((JSONRESUME_DIR / "schema_invalid" / "no-name-and-a-bad-email.json").read_bytes())
    document = parse((JSONRESUME_DIR / "schema_invalid" / "wrong-types-with-a-name.json").read_bytes())
    assert (document.name, document.email, document.location.country_code) == ("Väinö Kallio", "", "FI")
    warnings = "\n".join(document.warnings)
    assert len(document.warnings) == 5
    assert "basics.email: 'vaino(at)example.fi' is not a valid email" in warnings
    assert "basics.location: expected an object, found a string" in warnings
    assert "basics.profiles: expected an array, found an object" in warnings
    assert "work: expected an array, found a string" in warnings
    assert "education[0].startDate: '2012-09-011' is not a date" in warnings


# --------------------------------------------------------------------------------------------------------------------
# The fixtures, field by field
# --------------------------------------------------------------------------------------------------------------------


def test_complete_resume_mapped_values():
    document = parse_jsonresume(fixture("tove-lindqvist.complete.json"), today=TODAY)
    assert (document.name, document.headline, document.title, document.company) == (
        "Tove Lindqvist",
        "Site Reliability Engineer",
        "Site Reliability Engineer",
        "Harbourlight AB",  # the job without endDate
    )
    location = document.location
    assert (location.city, location.region, location.country, location.country_code) == (
        "Gothenburg",
        "Västra Götaland",
        "Sweden",
        "SE",
    )
    assert document.email == document.identifiers.email == "tove.lindqvist@example.org"
    assert document.website == "https://tove.example.org"
    assert document.identifiers.github == "tovelq"
    assert "https://fosstodon.example/@tove" in document.identifiers.urls
    assert document.summary.startswith("Tove keeps a fleet of small services boring to operate.")
    assert [(e.degree, e.field, e.school) for e in document.education] == [
        ("Master", "Computer Engineering", "Chalmers University of Technology")
    ]
    assert [(s.label, s.score, s.category) for s in document.skills] == [  # keywords at their group's level
        ("Prometheus", 9, "Observability"),  # the group's name is their category, not a skill (issue 14)
        ("OpenTelemetry", 9, "Observability"),
        ("Go", 8, ""),  # empty keywords: the name is the skill
        ("Kubernetes", 6, ""),
    ]
    assert document.spoken_languages == ["Swedish", "English"]
    assert [(lang.code, lang.name, lang.fluency) for lang in document.languages] == [
        ("sv", "Swedish", "native"),
        ("en", "English", "full_professional"),
    ]
    [project] = document.contributions  # the runbooks are not on GitHub: ignored, without a warning
    assert (project.repository, project.repository_description, project.role) == (
        "tovelq/lighthouse-probe",
        "A tiny HTTP prober that exports its results as Prometheus metrics",
        "Maintainer",
    )
    assert (project.start, project.end, project.is_current) == ("2021-03", None, True)
    assert project.topics == ["monitoring", "golang"]
    assert document.years_employed == 11  # 2014-02 to 2025-06
    assert document.years_coding == 5  # the Site Reliability Engineer's months, not the Systems Administrator's
    assert document.warnings == []  # $schema, volunteer, interests and meta are not worth a warning


def test_legacy_keys_company_and_website():
    document = parse_jsonresume(fixture("bram-oosterhuis.legacy-keys.json"), today=TODAY)
    # The job ended in 2024: a position, never the current company (issue 14)
    assert (document.company, document.title) == ("", "Backend Developer")
    [job] = document.positions
    assert (job.company, job.title, job.url, job.start, job.end) == (
        "Tulpwerk B.V.",
        "Backend Developer",
        "http://tulpwerk.example.nl",
        "2016-03",
        "2024-12",
    )
    assert document.website == "http://bram-oosterhuis.example.net"
    assert document.identifiers.urls == ["http://bram-oosterhuis.example.net"]  # a profile with an empty url
    assert document.spoken_languages == ["Dutch", "English"]  # "name" instead of "language"
    assert [(e.degree, e.school) for e in document.education] == [("Bachelor", "Hanze University of Applied Sciences")]
    assert document.years_employed == 8  # 2016-03 to 2024-12, when the job ended (issue 14), not to today
    assert document.warnings == []


def test_pre_1_0_bio_with_first_and_last_name():
    document = parse_jsonresume(fixture("amara-nwosu.pre-1.0-bio.json"), today=TODAY)
    assert document.name == "Amara Nwosu"
    assert (document.title, document.company, document.headline) == (
        "Android Developer",
        "Fieldnote Labs",
        "Android Developer at Fieldnote Labs",
    )
    assert (document.location.city, document.location.country, document.location.country_code) == (
        "Lagos",
        "Nigeria",
        "NG",
    )
    assert document.email == ""  # an object of emails: not a string, not guessed
    assert document.skills == []
    assert document.warnings == ["skills: expected an array, found an object; ignored."]


def test_current_job_with_empty_end_date_cjk_text_and_extension_keys():
    document = parse_jsonresume(fixture("misaki-sato.current-job-cjk.json"), today=TODAY)
    assert document.name == "佐藤 美咲"
    assert document.company == "ミライ物流データ株式会社"
    assert document.title == "シニアデータエンジニア"  # the current job's, not the label's (issue 14)
    assert (document.location.country, document.location.country_code, document.location.city) == (
        "Japan",
        "JP",
        "札幌市",
    )
    assert document.identifiers.github == "misaki-sato"
    assert document.identifiers.linkedin == "misakisato"
    assert document.spoken_languages == ["Japanese", "English"]  # English names (issue 14), not 日本語, 英語
    assert [(lang.code, lang.fluency, lang.raw) for lang in document.languages] == [
        ("ja", "native", "日本語 (ネイティブ)"),
        ("en", "professional_working", "英語 (ビジネスレベル)"),
    ]
    assert [(s.label, s.score) for s in document.skills] == [("Python", 8), ("PostgreSQL", 6)]  # 上級, 中級
    assert [(e.degree, e.field, e.school) for e in document.education] == [("修士", "情報科学", "北海道大学")]
    assert document.years_employed == 10  # 2015-04
    assert document.warnings == []  # an empty endDate is not a schema problem worth a warning


def test_title_from_the_current_job_when_label_is_missing():
    document = parse_jsonresume(fixture("dalia-haddad.no-label.json"), today=TODAY)
    assert (document.title, document.company) == ("Release Engineer", "Orchard Systems Ltd.")
    assert document.headline == "Release Engineer at Orchard Systems Ltd."
    assert document.identifiers.github == "dalia-builds"
    assert document.years_employed == 4
    assert document.contributions == []  # a project without a GitHub URL; sideProjects is an extension key
    assert document.warnings == []


def test_profiles_with_url_only():
    document = parse_jsonresume(fixture("vaino-kallio.url-only-profiles.json"))
    assert document.identifiers.linkedin == "vainokallio"
    assert document.identifiers.github == ""  # codeberg is not GitHub
    assert "https://codeberg.example/vkallio" in document.identifiers.urls
    assert document.company == "Pohjoisvalo Security Oy"  # the job without endDate
    assert document.name == "Väinö Kallio"


# --------------------------------------------------------------------------------------------------------------------
# The corpus, field by field
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_bad_json_message():
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line 1, column 2: Expecting property name"):
        parse(
            corpus_path("jsonresume", "invalid", "jsonresume__resume-cli__test-resources-resume_bad.json").read_bytes()
        )


def test_bad_json_message_points_at_the_line_and_column():
    with pytest.raises(ParseError, match=r"line 3, column 5: Expecting ','"):
        parse_jsonresume('{"basics": {\n  "name": "A"\n    "label": "B"}}')


@pytest.mark.corpus
def test_sample_resume_mapped_values():
    document = parse_jsonresume(read("jsonresume__resume-schema__sample.resume.json"), today=TODAY)
    assert (document.name, document.headline, document.title, document.company) == (
        "Richard Hendriks",
        "Programmer",
        "Programmer",
        "",  # Pied Piper ended in 2014: a position, not the current company (issue 14)
    )
    assert [(p.company, p.start, p.end, p.is_current) for p in document.positions] == [
        ("Pied Piper", "2013-12", "2014-12", False)
    ]
    location = document.location
    assert (location.city, location.region, location.country, location.country_code) == (
        "San Francisco",
        "California",
        "United States",
        "US",
    )
    assert document.email == document.identifiers.email == "richard.hendriks@mail.com"
    assert document.website == "http://richardhendricks.example.com"
    assert document.summary.startswith("Richard hails from Tulsa.")
    assert [(e.degree, e.field, e.school) for e in document.education] == [
        ("Bachelor", "Information Technology", "University of Oklahoma")
    ]
    assert [(s.label, s.score, s.category) for s in document.skills] == [  # the groups' names are no skills
        ("HTML", 9, "Web Development"),
        ("CSS", 9, "Web Development"),
        ("Javascript", 9, "Web Development"),
        ("Mpeg", 9, "Compression"),
        ("MP4", 9, "Compression"),
        ("GIF", 9, "Compression"),
    ]
    assert document.spoken_languages == ["English"]
    assert document.contributions == []  # the only project is not on GitHub: ignored, without a warning
    assert document.years_employed == 1  # the months of the one job (issue 14), not 2013-12 to 2025-06
    assert document.years_coding is None
    assert document.warnings == []


@pytest.mark.corpus
def test_corpus_legacy_keys_company_and_website():
    document = parse_jsonresume(read("jsonresume__resume-cli__test-resume.json"))
    assert [p.company for p in document.positions] == ["Pied Piper"]  # legacy "company"; ended, so not current
    assert document.website == "http://richardhendricks.com"


@pytest.mark.corpus
def test_rirekisho_current_job_with_empty_end_date_and_cjk_text():
    document = parse_jsonresume(read("DorskFR__jsonresume-theme-rirekisho.json"), today=TODAY)
    assert document.name == "田中 花子"
    assert document.company == "テックイノベーション株式会社"
    assert document.title == "シニアバックエンドエンジニア"  # the current job's, not the label's (issue 14)
    assert (document.location.country, document.location.country_code, document.location.city) == (
        "Japan",
        "JP",
        "渋谷区",
    )
    assert document.identifiers.github == "hanako-tanaka"
    assert document.identifiers.linkedin == "hanakotanaka"
    assert document.spoken_languages == ["Japanese", "English"]
    assert [(lang.code, lang.fluency) for lang in document.languages] == [
        ("ja", "native"),
        ("en", "professional_working"),
    ]
    assert ("Ruby on Rails", 8) in [(s.label, s.score) for s in document.skills]  # 上級: advanced
    assert ("MySQL", 6) in [(s.label, s.score) for s in document.skills]  # 中級: intermediate
    assert document.years_employed == 11  # 2014-04
    assert document.warnings == []  # an empty endDate is not a schema problem worth a warning


@pytest.mark.corpus
def test_class_theme_github_project_becomes_a_contribution():
    document = parse_jsonresume(read("jsonresume__jsonresume-theme-class__test-fixture.resume.json"))
    assert document.headline == "Open Sourcerer 🧙\u200d♂️"
    assert document.identifiers.github == "SethFalco"
    assert (document.location.country, document.location.country_code) == ("United Kingdom", "GB")
    [project] = document.contributions
    assert project.repository == "jsonresume/jsonresume-theme-class"
    assert (project.start, project.end, project.is_current) == ("2022-07", None, True)
    assert project.repository_description == "Suspendisse at nulla vitae ligula interdum pretium. Donec."


@pytest.mark.corpus
def test_corpus_title_from_the_current_job_when_label_is_missing():
    document = parse_jsonresume(read("0-o0__resume.json"), today=TODAY)
    assert (document.title, document.company) == ("AI Pair Programmer", "GitHub, Inc.")
    assert document.identifiers.github == "github-copilot"
    assert document.years_employed == 4
    assert document.contributions == []  # a project without a GitHub URL


@pytest.mark.corpus
def test_corpus_profiles_with_url_only():
    document = parse_jsonresume(read("8-bit-sheep__jsonresume-theme-8-bit-sheep.json"))
    assert document.identifiers.linkedin == "paissivillanen"
    assert document.identifiers.github == ""  # gitplace.com is not GitHub
    assert "https://gitplace.com/pvillanen" in document.identifiers.urls
    assert document.company == "CyberSec Finland"  # the job without endDate
    assert document.name == "Pässi Villanen"


# --------------------------------------------------------------------------------------------------------------------
# Schema warnings and wrong shapes
# --------------------------------------------------------------------------------------------------------------------


def test_invalid_email_with_a_name_is_a_warning():
    document = parse_jsonresume(json.dumps({"basics": {"name": "Ada", "email": "not-an-email"}}))
    assert document.name == "Ada"
    assert document.email == ""
    assert "basics.email: 'not-an-email' is not a valid email" in document.warnings


def test_wrong_types_are_warnings_when_there_is_a_name():
    data = {
        "basics": {"name": "Ada", "location": "Berlin, Germany", "profiles": {}, "summary": 42},
        "work": "everywhere",
        "skills": [{"name": "Python", "level": "Expert", "keywords": "django"}],
        "education": [{"institution": "ETH", "startDate": "2013-12-021"}],
    }
    document = parse_jsonresume(json.dumps(data))
    assert (document.location.city, document.location.country_code) == ("Berlin", "DE")
    assert [(s.label, s.score) for s in document.skills] == [("Python", 9)]
    warnings = "\n".join(document.warnings)
    assert "basics.location: expected an object, found a string" in warnings
    assert "basics.profiles: expected an array, found an object" in warnings
    assert "work: expected an array, found a string" in warnings
    assert "education[0].startDate: '2013-12-021' is not a date" in warnings


@pytest.mark.parametrize(
    ("text", "kind"),
    [("[1, 2, 3]", "an array"), ('"resume"', "a string"), ("42", "a number"), ("null", "null")],
)
def test_json_that_is_not_an_object(text, kind):
    with pytest.raises(ParseError, match=f"^The JSON is valid but is not a résumé object \\(it is {kind}\\)"):
        parse(text.encode())


@pytest.mark.parametrize(
    "data",
    [{}, {"basics": "Ada"}, {"basics": {"name": ""}}, {"basics": {"name": "   "}}, {"basics": {"name": ["Ada"]}}],
)
def test_no_usable_name(data):
    with pytest.raises(ParseError, match=r"^No name found in basics\.name"):
        parse_jsonresume(json.dumps(data))


def test_deeply_nested_json_is_a_parse_error():
    with pytest.raises(ParseError, match="nested too deeply"):
        parse(b'{"basics": {"name": "A", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}")
    with pytest.raises(ParseError):
        parse(b"[" * 100_000)


def test_moderately_nested_extension_key_is_ignored():
    document = parse(b'{"basics": {"name": "A"}, "x": ' + b"[" * 400 + b"]" * 400 + b"}")
    assert document.name == "A"
    assert document.warnings == []


def test_country_code_holding_a_country_name():
    document = parse_jsonresume(json.dumps({"basics": {"name": "A", "location": {"countryCode": "Germany"}}}))
    assert (document.location.country, document.location.country_code) == ("Germany", "DE")


def test_github_projects_and_current_job_selection():
    data = {
        "basics": {"name": "A"},
        "work": [
            {"company": "Old", "position": "Dev", "startDate": "2010-01", "endDate": "2012-01"},
            {"name": "Later", "position": "Lead", "startDate": "2012-02", "endDate": "2015-01"},
        ],
        "projects": [
            {
                "name": "x",
                "url": "https://github.com/owner/repo.git",
                "description": "A tool",
                "startDate": "2019-05-01",
                "endDate": "2020-02",
                "roles": ["Maintainer", "Author"],
                "keywords": ["Machine Learning", "python"],
            },
            {"name": "y", "url": "https://github.com/features/copilot"},
            {"name": "z", "url": "https://example.com/owner/repo"},
        ],
    }
    document = parse_jsonresume(json.dumps(data), today=TODAY)
    # Both jobs ended: no current company or title (issue 14); five years worked, not 2010 to today
    assert (document.company, document.title, document.headline) == ("", "", "")
    assert [(p.company, p.title) for p in document.positions] == [("Old", "Dev"), ("Later", "Lead")]
    assert document.years_employed == 5
    [project] = document.contributions
    assert (project.repository, project.repository_description, project.role) == (
        "owner/repo",
        "A tool",
        "Maintainer, Author",
    )
    assert (project.start, project.end, project.is_current) == ("2019-05", "2020-02", False)
    assert project.topics == ["machine-learning", "python"]
    assert document.warnings == []
    assert (project.commits, project.comments) == (0, 0)  # the file gives no count


def _project(**fields) -> dict:
    return {"name": "x", "url": "https://github.com/owner/repo", **fields}


@pytest.mark.parametrize(
    ("project", "counts"),
    [
        (_project(highlights=["88 commits, 15 comments"]), (88, 15)),  # it showed as "0 commits"
        (_project(highlights=["41 commits"]), (41, 0)),
        (_project(description="Kubernetes operator; 1,204 commits and 3 comments"), (1204, 3)),
        (_project(keywords=["go", "7 commits"]), (7, 0)),
        (_project(commits=12, comments=2, highlights=["99 commits"]), (12, 2)),  # an extension key's number first
        (_project(highlights=["Cut the build from 20 minutes to 4"]), (0, 0)),
        (_project(highlights=["99999999999 commits"]), (0, 0)),  # a misreading, not a number
    ],
)
def test_a_projects_commit_and_comment_counts_are_read_from_its_text(project, counts):
    document = parse_jsonresume(json.dumps({"basics": {"name": "A"}, "projects": [project]}), today=TODAY)
    [contribution] = document.contributions
    assert (contribution.commits, contribution.comments) == counts


def test_awards_are_kept_with_their_awarder_date_and_summary():
    awards = [
        {"title": "Rockstar", "awarder": "Prog.AI"},
        {"title": "Best Paper", "awarder": "ACM", "date": "2019-06-01", "summary": "For the work on caches."},
        {"name": "Hackathon winner", "date": "2021"},  # the legacy key
        {"title": "Speaker", "date": "someday"},  # not a date: left out
        {"title": "Rockstar", "awarder": "Prog.AI"},  # twice: kept once
        {"awarder": "Nobody"},  # no title: left out
        "Not an object",
    ]
    document = parse_jsonresume(json.dumps({"basics": {"name": "A"}, "awards": awards}), today=TODAY)
    assert [award.line() for award in document.awards] == [
        "Rockstar (Prog.AI)",
        "Best Paper (ACM, 2019-06-01): For the work on caches.",
        "Hackathon winner (2021)",
        "Speaker",
    ]


def test_a_count_alone_is_neither_the_summary_nor_a_topic():
    project = _project(highlights=["88 commits, 15 comments", "Wrote the controller"], keywords=["go", "7 commits"])
    document = parse_jsonresume(json.dumps({"basics": {"name": "A"}, "projects": [project]}), today=TODAY)
    [contribution] = document.contributions
    assert (contribution.summary, contribution.topics) == ("Wrote the controller", ["go"])


@pytest.mark.parametrize(
    ("level", "score"),
    [
        ("Master", 9),
        ("expert", 9),
        ("Advanced", 8),
        ("Intermediate", 6),
        ("Beginner", 3),
        ("Novice", 3),
        ("Basic", 3),
        ("", 5),
        (None, 5),
        ("Wizard", 5),
        (4, 8),
        ("4/5", 8),
        ("80%", 8),
        (7, 7),
        ("0.9", 9),
        (True, 5),
        ([], 5),
    ],
)
def test_level_score(level, score):
    assert level_score(level) == score


@pytest.mark.corpus
def test_embedded_schema_reports_what_the_corpus_schema_reports():
    """The parser carries its own copy of the schema's relevant parts: it must agree with the real schema."""
    schema_path = corpus_path("schema", "jsonresume.schema.json")
    full = jsonschema.Draft4Validator(json.loads(schema_path.read_text()), format_checker=jsonschema.FormatChecker())
    ours = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    paths = [
        *corpus_files(JSONRESUME_DIR),
        *corpus_files(JSONRESUME_DIR / "schema_invalid"),
        *corpus_files(RESUMES),
        *corpus_files(RESUMES / "schema_invalid"),
    ]
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        expected = sorted(
            (list(e.absolute_path), e.validator)
            for e in full.iter_errors(data)
            if e.validator != "additionalProperties"
        )
        assert sorted((list(e.absolute_path), e.validator) for e in ours.iter_errors(data)) == expected, path.name
    for section in SCHEMA["properties"]:
        assert section in full.schema["properties"], section


SCHEMA_EDGE_CASES = (
    [{"basics": {"name": "Ada", "email": email}} for email in ["ada@example.com", "a@b", "not-an-email", "@", ""]]
    + [
        {"basics": {"name": "Ada", "url": url, "profiles": [{"url": url}]}}
        for url in ["https://a.dev", "not a url", ""]
    ]
    + [
        {"basics": {"name": "Ada"}, "work": [{"startDate": date, "endDate": date}]}
        for date in [
            "2014",
            "2014-06",
            "2014-06-29",
            "",
            " ",
            "\t\n",
            "\u00a0",
            "2014\n",
            "\n2014",
            "2014-6",
            "٢٠١٤",
            2014,
        ]
    ]
    + [
        {"basics": {"name": "Ada"}, "skills": value}
        for value in [[{"name": 1}], [{"keywords": "x"}], [{"keywords": [1, None, "a"]}], [[]], {}, None, 1.5, 10**40]
    ]
    + [
        {"basics": {"name": "Ada", "\ud800": 1}},  # a key jsonschema-rs cannot take: the Python validator answers
        {"basics": {"name": "Ada"}, "work": [{"startDate": str(i), "highlights": [i]} for i in range(30)]},
    ]
)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(json.loads(param.values[0].read_text(encoding="utf-8")), id=param.id, marks=param.marks)
        for param in resume_params() + resume_params("schema_invalid")
    ]
    + SCHEMA_EDGE_CASES,
)
def test_fast_schema_check_gives_the_warnings_of_the_python_validator(data, monkeypatch):
    """jsonschema-rs only answers "nothing to report": whenever it does, the Python validator has nothing either."""
    fast = jsonresume.schema_warnings(data)
    monkeypatch.setattr("ingestion.parsers.jsonresume.schema.schema_valid", lambda _data: False)
    assert fast == jsonresume.schema_warnings(data)


@pytest.mark.parametrize("path", resume_params(), ids=str)
def test_fast_schema_check_passes_the_valid_resumes(path):
    """Including their empty endDates, which the Python validator reports and the parser ignores."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "basics" in data:  # a pre-1.0 résumé has no basics, which the schema does not require either
        assert jsonresume.schema_valid(data), path.name


def test_numbers_too_large_for_a_float_are_read_as_text_or_ignored():
    huge = "9" * 400
    data = f'{{"basics": {{"name": "Ada Quill", "phone": {huge}}}, "skills": [{{"name": "Go", "level": {huge}}}]}}'

    doc = parse(data.encode())

    assert doc.name == "Ada Quill"
    assert [(s.label, s.score) for s in doc.skills] == [("Go", 5)]


_EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")  # clear, and quadratic over a domain of many dots


@settings(max_examples=3000, derandomize=True, deadline=None)
@given(st.text(alphabet="ab.@ -", max_size=14))
def test_an_email_is_checked_as_the_pattern_it_replaced(text):
    assert jsonresume.is_email(text) == bool(_EMAIL_PATTERN.match(text))
