"""The JSON Resume parser, against the corpus files and hand-made edge cases. No database."""

import json
from datetime import date
from pathlib import Path

import jsonschema
import pytest

from ingestion.documents import ParseError
from ingestion.parsers import detect_format, jsonresume, parse
from ingestion.parsers.jsonresume import SCHEMA, level_score, parse_jsonresume

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
RESUMES = CORPUS / "jsonresume"
TODAY = date(2025, 6, 15)


def corpus_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def read(name: str) -> str:
    path = RESUMES / name
    if not path.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module", autouse=True)
def _corpus_present():
    if not RESUMES.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")


# --------------------------------------------------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_files(RESUMES), ids=lambda p: p.name)
def test_every_corpus_resume_parses_with_a_name(path):
    data = path.read_bytes()
    assert detect_format(data) == "jsonresume"
    document = parse(data)
    assert document.format == "jsonresume"
    assert document.name.strip()
    assert document.name == json.loads(data)["basics"]["name"]


def test_the_corpus_is_there():
    assert len(corpus_files(RESUMES)) >= 9


@pytest.mark.parametrize("path", corpus_files(RESUMES / "invalid"), ids=lambda p: p.name)
def test_invalid_json_gives_a_clear_error_with_line_and_column(path):
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line \d+, column \d+: "):
        parse(path.read_bytes())


@pytest.mark.parametrize("path", corpus_files(RESUMES / "schema_invalid"), ids=lambda p: p.name)
def test_schema_invalid_files_give_an_error_or_warnings(path):
    data = path.read_bytes()
    basics = json.loads(data).get("basics")
    if isinstance(basics, dict) and isinstance(basics.get("name"), str) and basics["name"].strip():
        assert parse(data).warnings
    else:
        with pytest.raises(ParseError, match=r"^No name found in basics\.name"):
            parse(data)


def test_bad_json_message():
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line 1, column 2: Expecting property name"):
        parse((RESUMES / "invalid" / "jsonresume__resume-cli__test-resources-resume_bad.json").read_bytes())
    with pytest.raises(ParseError, match=r"line 3, column 5: Expecting ','"):
        parse_jsonresume('{"basics": {\n  "name": "A"\n    "label": "B"}}')


def test_sample_resume_mapped_values():
    document = parse_jsonresume(read("jsonresume__resume-schema__sample.resume.json"), today=TODAY)
    assert (document.name, document.headline, document.title, document.company) == (
        "Richard Hendriks",
        "Programmer",
        "Programmer",
        "Pied Piper",
    )
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
    assert [(s.label, s.score) for s in document.skills] == [
        ("Web Development", 9),
        ("HTML", 9),
        ("CSS", 9),
        ("Javascript", 9),
        ("Compression", 9),
        ("Mpeg", 9),
        ("MP4", 9),
        ("GIF", 9),
    ]
    assert document.spoken_languages == ["English"]
    assert document.contributions == []  # the only project is not on GitHub: ignored, without a warning
    assert document.years_employed == 11  # 2013-12 to 2025-06
    assert document.years_coding is None
    assert document.warnings == []


def test_legacy_keys_company_and_website():
    document = parse_jsonresume(read("jsonresume__resume-cli__test-resume.json"))
    assert document.company == "Pied Piper"
    assert document.website == "http://richardhendricks.com"


def test_rirekisho_current_job_with_empty_end_date_and_cjk_text():
    document = parse_jsonresume(read("DorskFR__jsonresume-theme-rirekisho.json"), today=TODAY)
    assert document.name == "田中 花子"
    assert document.company == "テックイノベーション株式会社"
    assert document.title == "ソフトウェアエンジニア"
    assert (document.location.country, document.location.country_code, document.location.city) == (
        "Japan",
        "JP",
        "渋谷区",
    )
    assert document.identifiers.github == "hanako-tanaka"
    assert document.identifiers.linkedin == "hanakotanaka"
    assert document.spoken_languages == ["日本語", "英語"]
    assert ("Ruby on Rails", 8) in [(s.label, s.score) for s in document.skills]  # 上級: advanced
    assert ("MySQL", 6) in [(s.label, s.score) for s in document.skills]  # 中級: intermediate
    assert document.years_employed == 11  # 2014-04
    assert document.warnings == []  # an empty endDate is not a schema problem worth a warning


def test_class_theme_github_project_becomes_a_contribution():
    document = parse_jsonresume(read("jsonresume__jsonresume-theme-class__test-fixture.resume.json"))
    assert document.headline == "Open Sourcerer 🧙\u200d♂️"
    assert document.identifiers.github == "SethFalco"
    assert (document.location.country, document.location.country_code) == ("United Kingdom", "GB")
    [project] = document.contributions
    assert project.repository == "jsonresume/jsonresume-theme-class"
    assert (project.start, project.end, project.is_current) == ("2022-07", None, True)
    assert project.repository_description == "Suspendisse at nulla vitae ligula interdum pretium. Donec."


def test_title_from_the_current_job_when_label_is_missing():
    document = parse_jsonresume(read("0-o0__resume.json"), today=TODAY)
    assert (document.title, document.company) == ("AI Pair Programmer", "GitHub, Inc.")
    assert document.identifiers.github == "github-copilot"
    assert document.years_employed == 4
    assert document.contributions == []  # a project without a GitHub URL


def test_profiles_with_url_only():
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
    assert (document.company, document.title, document.headline) == ("Later", "Lead", "Lead at Later")
    assert document.years_employed == 15
    [project] = document.contributions
    assert (project.repository, project.repository_description, project.role) == (
        "owner/repo",
        "A tool",
        "Maintainer, Author",
    )
    assert (project.start, project.end, project.is_current) == ("2019-05", "2020-02", False)
    assert project.topics == ["machine-learning", "python"]
    assert document.warnings == []


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


def test_embedded_schema_reports_what_the_corpus_schema_reports():
    """The parser carries its own copy of the schema's relevant parts: it must agree with the real schema."""
    schema_path = CORPUS / "schema" / "jsonresume.schema.json"
    if not schema_path.exists():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    full = jsonschema.Draft4Validator(json.loads(schema_path.read_text()), format_checker=jsonschema.FormatChecker())
    ours = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    paths = corpus_files(RESUMES) + corpus_files(RESUMES / "schema_invalid")
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
        json.loads(p.read_text(encoding="utf-8"))
        for p in corpus_files(RESUMES) + corpus_files(RESUMES / "schema_invalid")
    ]
    + SCHEMA_EDGE_CASES,
)
def test_fast_schema_check_gives_the_warnings_of_the_python_validator(data, monkeypatch):
    """jsonschema-rs only answers "nothing to report": whenever it does, the Python validator has nothing either."""
    fast = jsonresume._schema_warnings(data)
    monkeypatch.setattr(jsonresume, "_schema_valid", lambda _data: False)
    assert fast == jsonresume._schema_warnings(data)


def test_fast_schema_check_passes_the_valid_corpus_resumes():
    """Including their empty endDates, which the Python validator reports and the parser ignores."""
    for path in corpus_files(RESUMES):
        assert jsonresume._schema_valid(json.loads(path.read_text(encoding="utf-8"))), path.name


def test_numbers_too_large_for_a_float_are_read_as_text_or_ignored():
    huge = "9" * 400
    data = f'{{"basics": {{"name": "Ada Quill", "phone": {huge}}}, "skills": [{{"name": "Go", "level": {huge}}}]}}'

    doc = parse(data.encode())

    assert doc.name == "Ada Quill"
    assert [(s.label, s.score) for s in doc.skills] == [("Go", 5)]
