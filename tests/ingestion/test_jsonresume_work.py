"""Issue 14 (first part): a JSON Resume file's whole work history, its dates, its identifiers and the near-miss files.

The fictional résumés under tests/fixtures/jsonresume/ each reproduce a defect the issue observed on real files. Those
that warn, break the schema or are not strict JSON live in subfolders (work/, near_miss/), which the whole-file tests
(tests/ingestion/test_jsonresume_parser.py, the ingest command's) treat as broken files; those in the folder itself
import cleanly. The corpus's real files are an extra layer. No database.
"""

import json
from datetime import date

import pytest

from ingestion.documents import ParseError, PositionEntry
from ingestion.parsers import detect_format, parse
from ingestion.parsers.jsonresume import parse_jsonresume
from ingestion.parsers.progai import parse_progai
from tests.fixtures import JSONRESUME_DIR, PROGAI_DIR, corpus_params, corpus_path

TODAY = date(2026, 6, 15)
WORK = JSONRESUME_DIR / "work"
NEAR_MISS = JSONRESUME_DIR / "near_miss"


def work_fixture(name: str, today: date = TODAY):
    folder = WORK if (WORK / name).exists() else JSONRESUME_DIR
    return parse_jsonresume((folder / name).read_text(encoding="utf-8"), today=today)


# --- Work: every entry is a position -------------------------------------------------------------------------------


def test_every_work_entry_becomes_a_position_legacy_keys_included():
    """Issue 14, "work history is thrown away": a file of several jobs kept one company and nothing else."""
    document = work_fixture("ilse-marchetti.work-history.json")

    assert document.positions == [
        PositionEntry(
            company="Northwind Labs",
            title="Site Reliability Engineer",
            location="Bologna, Italy",
            start="2021-03",
            end=None,
            is_current=True,
            summary="Keeps the payment APIs up.",
            highlights=["Halved the pager load", "Wrote the incident handbook"],
            url="https://northwind-labs.example.com",
            order=0,
        ),
        PositionEntry(  # legacy "company" and "website"
            company="Lanternfish GmbH",
            title="Platform Engineer",
            start="2017-01",
            end="2021-02",
            url="https://lanternfish.example.de",
            order=1,
        ),
        PositionEntry(company="Salina Bikes", title="Part-time Mentor", start="2019-06", is_current=True, order=2),
        PositionEntry(company="Lanternfish GmbH", title="Junior Developer", start="2015-01", end="2016-12", order=3),
        PositionEntry(company="Trattoria Digitale", title="Intern", start="2014-06", end="2014-09", order=4),
    ]
    assert document.warnings == []


def test_the_current_company_is_the_latest_open_ended_position():
    """Issue 14: the database kept the oldest open-ended company; the latest open-ended one is the current one."""
    document = work_fixture("ilse-marchetti.work-history.json")
    assert document.company == "Northwind Labs"


def test_the_title_is_not_doubled_when_the_label_ends_in_at_company():
    """Issue 14, "the title is doubled": "Site Reliability Engineer at Northwind Labs at Northwind Labs"."""
    document = work_fixture("ilse-marchetti.work-history.json")
    assert document.title == "Site Reliability Engineer"
    assert document.headline == "Site Reliability Engineer at Northwind Labs"  # the label, as written
    assert " at ".join(part for part in (document.title, document.company) if part) == document.headline


def test_an_ended_job_never_gives_the_current_company():
    """Issue 14: no job is current, yet the company was set to one that ended in 2025."""
    document = work_fixture("jonas-breit.no-current-job.json")
    assert document.company == ""
    assert not any(position.is_current for position in document.positions)
    assert document.title == "Backend Engineer"  # the label without "at Copperleaf", a job's company
    assert document.headline == "Backend Engineer at Copperleaf"


def test_a_label_naming_another_company_is_kept_whole():
    data = {"basics": {"name": "A", "label": "Writer at Large"}, "work": [{"name": "Acme", "position": "Dev"}]}
    document = parse_jsonresume(json.dumps(data), today=TODAY)
    assert (document.title, document.company) == ("Dev", "Acme")  # the current position's title
    data["work"] = [{"name": "Acme", "startDate": "2020-01"}]
    document = parse_jsonresume(json.dumps(data), today=TODAY)
    assert (document.title, document.company) == ("Writer at Large", "Acme")


def test_an_inverted_range_is_kept_with_a_warning_naming_the_entry():
    """Issue 14: a start after the end (2025-11-06 -> 2025-01-25) passed without a warning."""
    document = work_fixture("jonas-breit.no-current-job.json")
    copperleaf = document.positions[0]
    assert (copperleaf.company, copperleaf.start, copperleaf.end) == ("Copperleaf", "2025-11", "2025-01")
    assert (
        "work[0] (Backend Engineer at Copperleaf): starts (2025-11) after it ends (2025-01); "
        "stored the other way round." in document.warnings
    )


def test_dates_in_the_future_are_kept_with_a_warning_naming_the_entry():
    document = work_fixture("jonas-breit.no-current-job.json")
    starling = document.positions[3]
    assert (starling.start, starling.end, starling.is_current) == ("2031-02", "2031-08", False)
    assert "work[3] (Future Lead at Starlingworks): the start date 2031-02 is in the future; kept." in document.warnings
    assert "work[3] (Future Lead at Starlingworks): the end date 2031-08 is in the future; kept." in document.warnings
    assert len(document.warnings) == 3


def test_an_open_ended_job_that_has_not_started_is_not_current():
    data = {"basics": {"name": "A"}, "work": [{"name": "Soon", "startDate": "2027-01"}]}
    document = parse_jsonresume(json.dumps(data), today=TODAY)
    assert (document.positions[0].is_current, document.company) == (False, "")


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        ("2014", "2015-06", ("2014-01", "2015-06", False)),
        ("2014-6", "2015-6-30", ("2014-06", "2015-06", False)),
        ("2014-06-02", "", ("2014-06", None, True)),
        ("", "Present", (None, None, True)),
        (None, None, (None, None, True)),
        ("2014-06", "2016-13", ("2014-06", None, False)),  # not a date: no end, and not current either
    ],
)
def test_dates_as_files_write_them(start, end, expected):
    job = {"name": "Acme", **({"startDate": start} if start is not None else {}), **({"endDate": end} if end else {})}
    document = parse_jsonresume(json.dumps({"basics": {"name": "A"}, "work": [job]}), today=TODAY)
    position = document.positions[0]
    assert (position.start, position.end, position.is_current) == expected
    assert document.warnings == []  # a date read (YYYY-M-D too) or "Present" is not a schema problem worth a warning


def test_education_gets_its_start_and_end():
    """Issue 14: "Education gains a start and an end" (in the document; not stored yet)."""
    data = {
        "basics": {"name": "A"},
        "education": [{"institution": "ETH", "studyType": "MSc", "startDate": "2012-9-1", "endDate": "2014"}],
    }
    [entry] = parse_jsonresume(json.dumps(data), today=TODAY).education
    assert (entry.school, entry.start, entry.end) == ("ETH", "2012-09", "2014-01")


def test_entries_that_are_not_objects_or_hold_nothing_are_not_positions():
    data = {"basics": {"name": "A"}, "work": ["Acme", {}, {"summary": "   "}, {"position": "Dev"}]}
    document = parse_jsonresume(json.dumps(data), today=TODAY)
    assert [(p.company, p.title, p.order) for p in document.positions] == [("", "Dev", 3)]


# --- Years employed ------------------------------------------------------------------------------------------------


def test_years_employed_count_overlapping_positions_once():
    """Issue 14: years employed counted from the earliest start to today, not the time actually worked."""
    # 2014-06..09 (4 months), 2015-01..2016-12 (24), 2017-01..today 2026-06 (114, the three later jobs overlap)
    assert work_fixture("ilse-marchetti.work-history.json").years_employed == 11  # 142 months; 12 before
    # Quillmark 36 months (the evening job within it), Copperleaf's inverted range 11, the future job none
    assert work_fixture("jonas-breit.no-current-job.json").years_employed == 3  # 47 months; 6 before


def test_years_coding_count_the_software_positions_as_a_cv_s_do():
    data = {
        "basics": {"name": "Wren Halloway"},
        "work": [
            {"name": "Fernwick", "position": "Staff Data Engineer", "startDate": "2021-01"},
            {"name": "Fernwick", "position": "Senior Data Engineer", "startDate": "2016-07", "endDate": "2020-12"},
            {
                "name": "Gallowmere Estates",
                "position": "Property Developer",
                "startDate": "2012-01",
                "endDate": "2016-06",
            },
        ],
    }

    document = parse_jsonresume(json.dumps(data), today=TODAY)

    assert (document.years_employed, document.years_coding) == (14, 10)  # 174 months, of which the data jobs' 120


def test_a_resume_without_software_positions_states_no_years_coding():
    data = {"basics": {"name": "A"}, "work": [{"name": "Acme", "position": "Sales Manager", "startDate": "2019-01"}]}

    assert parse_jsonresume(json.dumps(data), today=TODAY).years_coding is None


def test_no_dated_position_gives_no_years_employed():
    data = {"basics": {"name": "A"}, "work": [{"name": "Acme"}]}
    assert parse_jsonresume(json.dumps(data), today=TODAY).years_employed is None


# --- Identifiers ---------------------------------------------------------------------------------------------------


def test_identifiers_from_profiles_and_basics_website():
    """Issue 14, "identifiers are missed": GitHub in basics.website, LinkedIn's slug, a second GitHub, Twitter."""
    document = work_fixture("noor-rahimi.identifiers.json")
    ids = document.identifiers
    assert ids.github == "noor-at-work"
    assert ids.more_github == ["noor-rahimi"]  # from basics.website
    assert ids.linkedin == "noor-rahimi-4a7b"  # the URL's slug, not "Noor Rahimi"
    assert ids.twitter == "noorcodes"
    assert ids.gitlab == "noorr"
    assert ids.stackoverflow == "4412345"
    assert "https://noor.example.dev" in ids.urls
    assert document.website == "https://github.com/noor-rahimi"  # the only site the basics give


def test_x_handle_github_from_basics_url_and_the_personal_site():
    document = work_fixture("pia-solberg.x-and-url.json")
    ids = document.identifiers
    assert (ids.github, ids.more_github, ids.twitter) == ("piasolberg", [], "pia_builds")
    assert document.website == "https://pia.example.no"  # the personal site, not the GitHub page
    assert {"https://github.com/piasolberg", "https://pia.example.no", "https://x.com/pia_builds"} <= set(ids.urls)


def test_a_linkedin_display_name_is_no_identifier():
    data = {"basics": {"name": "A", "profiles": [{"network": "LinkedIn", "username": "Ada Quill"}]}}
    assert parse_jsonresume(json.dumps(data)).identifiers.linkedin == ""
    data["basics"]["profiles"][0]["username"] = "ada-quill"
    assert parse_jsonresume(json.dumps(data)).identifiers.linkedin == "ada-quill"


# --- Near-miss files -----------------------------------------------------------------------------------------------


def test_a_trailing_comma_is_repaired_with_a_warning():
    """Issue 14: one trailing comma ("XML",]) rejected a whole résumé with "Expecting value"."""
    document = parse((NEAR_MISS / "trailing-comma.json").read_bytes())
    assert (document.name, document.title) == ("Bram Oosterhuis", "Backend Developer")
    assert document.warnings == [
        "The JSON was repaired: a trailing comma at line 4, column 33 (which JSON does not allow) was ignored."
    ]


def test_comments_and_a_trailing_comma_in_a_list_are_repaired_with_a_warning():
    document = parse((NEAR_MISS / "comments.json").read_bytes())
    assert (document.name, document.title) == ("Karin Lutz", "QA Engineer")
    assert "XML" in [skill.label for skill in document.skills]
    assert document.warnings == [
        "The JSON was repaired: a comment at line 2, column 3, a comment at line 4, column 27 and a trailing comma "
        "at line 7, column 64 (which JSON does not allow) were ignored."
    ]


def test_json_that_no_repair_of_commas_and_comments_mends_is_still_refused():
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line 1, column 2: Expecting property name"):
        parse(b'{basics: {"name": "A"},}')
    with pytest.raises(ParseError, match=r"^The JSON is not valid: line 1, column 26: Expecting property name"):
        parse(b'{"basics": {"name": "A", name: 1},}')


def test_misspelt_top_level_keys_are_read_with_a_warning():
    """Issue 14: a file with "basic" instead of "basics" said "No name found in basics.name"."""
    document = parse((NEAR_MISS / "misspelt-keys.json").read_bytes())
    assert (document.name, document.title) == ("Tomas Okafor", "Data Engineer")
    assert [p.company for p in document.positions] == ["Riverbank Analytics"]
    assert [s.label for s in document.skills] == ["Airflow"]
    assert document.warnings == [
        'The key "basic" was read as "basics" (the JSON Resume schema\'s name).',
        'The key "wrok" was read as "work" (the JSON Resume schema\'s name).',
        'The key "skill" was read as "skills" (the JSON Resume schema\'s name).',
    ]


def test_a_misspelt_key_beside_the_right_one_is_left_alone():
    document = parse_jsonresume(json.dumps({"basics": {"name": "A"}, "basic": {"name": "B"}}))
    assert (document.name, document.warnings) == ("A", [])


def test_another_resume_shape_is_refused_with_what_it_has():
    """Issue 14: files of another generator's format (profile.name) got "No name found in basics.name."."""
    with pytest.raises(ParseError) as caught:
        parse((NEAR_MISS / "another-generator.json").read_bytes())
    assert str(caught.value) == (
        "This is not a JSON Resume file: it has profile.name (expected basics.name). "
        "Export it as JSON Resume (jsonresume.org) or as a Prog.AI text profile."
    )


def test_another_resume_shape_is_detected_as_unknown():
    """The import detail showed such a file's format as "jsonresume"."""
    assert detect_format((NEAR_MISS / "another-generator.json").read_bytes()) == "unknown"
    assert detect_format(json.dumps({"personalInfo": {"fullName": "Ada"}}).encode()) == "unknown"


@pytest.mark.parametrize(
    "data",
    [
        b'{"basics": {"name": "Ada"}}',
        b'{"bio": {"name": "Ada"}}',  # pre-1.0
        b'{"basic": {"name": "Ada"}}',  # a misspelt key the parser reads
        b"{}",  # no name at all: a JSON Resume without one, and the parser says so
        b'{"basics": {"name": "Ada"},}',  # repaired by the parser
    ],
)
def test_json_resume_files_are_still_detected_as_json_resume(data):
    assert detect_format(data) == "jsonresume"


@pytest.mark.parametrize(
    ("data", "has"),
    [
        ({"name": "Ada", "info": {"label": "Dev"}, "employment": {}}, "name"),  # FRESH (HackMyResume)
        ({"personalInfo": {"fullName": "Ada"}}, "personalInfo.fullName"),
        ({"header": {"firstName": "Ada", "lastName": "Q"}}, "header.firstName"),
    ],
)
def test_other_shapes_name_what_they_have(data, has):
    with pytest.raises(ParseError, match=rf"^This is not a JSON Resume file: it has {has} \(expected basics\.name\)"):
        parse_jsonresume(json.dumps(data))


# --- Prog.AI: the headline is the current position -----------------------------------------------------------------


def test_progai_headline_becomes_the_current_position_without_dates():
    """Issue 14, Prog.AI: the headline's title and company become the current position; declared years stay."""
    document = parse_progai((PROGAI_DIR / "ingrid-valtonen.txt").read_text(encoding="utf-8"))
    assert document.positions == [
        PositionEntry(company="Lumivaara", title="Principal Compiler Engineer", is_current=True, order=0)
    ]
    assert document.years_employed == 9  # as declared


def test_progai_headline_without_a_company_gives_no_position():
    text = (PROGAI_DIR / "ingrid-valtonen.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[1] = "Principal Compiler Engineer"
    document = parse_progai("\n".join(lines))
    assert (document.title, document.company, document.positions) == ("Principal Compiler Engineer", "", [])


# --- The corpus ----------------------------------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params("jsonresume"))
def test_every_corpus_resume_has_all_its_work_entries_as_positions(path):
    """Issue 14, done when: every JSON Resume file of the corpus parses with all its work[] entries as positions."""
    data = json.loads(path.read_text(encoding="utf-8"))
    work = [job for job in data.get("work") or [] if isinstance(job, dict)]
    document = parse(path.read_bytes())
    assert [(p.company, p.title) for p in document.positions] == [
        ((job.get("name") or job.get("company") or "").strip(), (job.get("position") or "").strip()) for job in work
    ]
    current = [p for p in document.positions if p.is_current]
    assert document.company == (max(current, key=lambda p: p.start or "").company if current else "")


@pytest.mark.parametrize("key", ["preferences", "projekt", "language", "interest", "Meta"])
def test_keys_near_a_schema_key_but_not_misspelt_are_left_alone_or_read(key):
    """Extension keys of real files ("preferences") are not misspellings; "language" and "Meta" are read."""
    document = parse_jsonresume(json.dumps({"basics": {"name": "A"}, key: {}}))
    renamed = {"language": "languages", "interest": "interests", "Meta": "meta"}
    if key in renamed:
        assert document.warnings[0].startswith(f'The key "{key}" was read as "{renamed[key]}"')
    else:
        assert not any(w.startswith("The key") for w in document.warnings)


@pytest.mark.parametrize(
    ("profile", "github"),
    [
        ({"url": "https://github.com/features/copilot"}, ""),  # a page of GitHub's, nobody's account
        ({"url": "https://copilot.github.com/docs"}, ""),  # a product site on a subdomain
        ({"network": "GitHub", "username": "https://github.com/ada-q"}, "ada-q"),  # a URL in the username
        ({"network": "GitHub", "username": "@ada-q"}, "ada-q"),
        ({"network": "GitHub", "username": "Ada Q", "url": "https://github.com/adaq"}, "adaq"),
    ],
)
def test_github_accounts_are_accounts(profile, github):
    document = parse_jsonresume(json.dumps({"basics": {"name": "A", "profiles": [profile]}}))
    assert document.identifiers.github == github


def test_network_pages_on_regional_and_mobile_hosts():
    profiles = [{"url": "https://uk.linkedin.com/in/ada-q"}, {"url": "https://mobile.twitter.com/adaq"}]
    ids = parse_jsonresume(json.dumps({"basics": {"name": "A", "profiles": profiles}})).identifiers
    assert (ids.linkedin, ids.twitter) == ("ada-q", "adaq")


@pytest.mark.corpus
def test_the_corpus_seed_profile_has_one_current_position():
    """Issue 14, done when: the seed profile's parse has one current position, Google, Staff Software Engineer."""
    document = parse_progai(corpus_path("progai", "jinliang-wei.txt").read_text(encoding="utf-8"))
    assert document.positions == [
        PositionEntry(company="Google", title="Staff Software Engineer", is_current=True, order=0)
    ]
    assert document.years_employed == 12  # as declared
