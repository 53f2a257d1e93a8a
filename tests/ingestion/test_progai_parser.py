"""The Prog.AI text export parser, against reference profiles and variants of them built by editing their text.

The reference is the project's fictional profile (tests/fixtures/progai/ingrid-valtonen.txt), written with every
quirk of the format: badges glued to the summary, education entries glued to each other, scores glued to labels,
topics glued into one word, the role on the role line or on the next one, the advertisement at the end. The tests of
the format as a whole run on the shared corpus's real export too when it is there (marked ``corpus``).

Pure: no database (no django_db mark).
"""

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from ingestion.documents import ParseError
from ingestion.parsers import detect_format, parse
from ingestion.parsers.progai import BADGES, parse_education, parse_progai, split_score
from ingestion.vocabulary import vocabulary_from_files
from tests.fixtures import CORPUS_DIR, PROGAI_DIR, VOCAB_DIR
from tests.helpers import assert_contains

BADGE_BLOCK = "🤩\nRockstar🎓\nTop SchoolIngrid Valtonen is"
EDUCATION_LINE = (
    "Bachelor's Degree Computer Engineering minor in Mathematics, Bachelor's Degree Computer Engineering minor in "
    "Mathematics at Tampere UniversityDoctor of Philosophy (Ph.D.) Computer Science, Doctor of Philosophy (Ph.D.) "
    "Computer Science at University of Helsinki"
)


@dataclass(frozen=True)
class Reference:
    """A reference export, what a correct parse of it contains, and the vocabulary folder that goes with it."""

    path: Path
    expected_path: Path
    vocab_dir: Path
    name: str

    @property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def expected(self) -> dict:
        return json.loads(self.expected_path.read_text(encoding="utf-8"))


FIXTURE = Reference(
    PROGAI_DIR / "ingrid-valtonen.txt", PROGAI_DIR / "ingrid-valtonen.expected.json", VOCAB_DIR, "Ingrid Valtonen"
)
CORPUS = Reference(
    CORPUS_DIR / "progai" / "jinliang-wei.txt",
    CORPUS_DIR / "progai" / "jinliang-wei.expected.json",
    CORPUS_DIR / "vocab",
    "Jinliang Wei",
)


@pytest.fixture(
    scope="module", params=[FIXTURE, pytest.param(CORPUS, marks=pytest.mark.corpus)], ids=["fixture", "corpus"]
)
def any_reference(request) -> Reference:
    """For tests of the format as a whole: the fixture always, the corpus's real export as well."""
    return request.param


@pytest.fixture(scope="module")
def reference() -> str:
    """The fixture's text, which the tests below edit to build variants."""
    return FIXTURE.text


def edited(text: str, old: str, new: str) -> str:
    assert old in text, f"the reference no longer contains {old!r}"
    return text.replace(old, new, 1)


# --------------------------------------------------------------------------------------------------------------------
# The reference files
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("with_vocabulary", [False, True], ids=["empty-vocabulary", "full-vocabulary"])
def test_reference_parse_equals_the_expected_document_field_by_field(any_reference, with_vocabulary):
    vocabulary = vocabulary_from_files(any_reference.vocab_dir) if with_vocabulary else frozenset()
    assert vocabulary or not with_vocabulary
    document = parse(any_reference.path.read_bytes(), vocabulary=vocabulary).to_dict()
    expected = any_reference.expected
    for key in expected:
        assert_contains(expected[key], document[key], key)
    assert document["format"] == "progai"
    assert document["warnings"] == []


def test_reference_extras(reference):
    document = parse_progai(reference)
    assert document.location.country_code == "FI"
    kestrel, lumen = document.contributions
    assert kestrel.topics_raw == "rustquery-enginecompilersql"
    assert lumen.topics_raw == "columnar-storagepythonfile-formatdatabases"
    assert (kestrel.is_current, lumen.is_current) == (False, False)
    assert "Find and Hire" not in lumen.topics_raw
    assert (document.skills_declared, len(document.skills)) == (18, 12)
    assert (document.programming_languages_declared, document.programming_languages) == (3, [])
    assert (document.contributions_declared, len(document.contributions)) == (4, 2)


@pytest.mark.corpus
def test_corpus_reference_extras():
    document = parse_progai(CORPUS.text)
    assert document.location.country_code == "US"
    xla, tensorflow = document.contributions
    assert xla.topics_raw == "compilercommunity-drivenmachine-learningmodular"
    assert tensorflow.topics_raw == "pythondata-sciencedeep-learningmlmachine-learning"
    assert (xla.is_current, tensorflow.is_current) == (False, False)
    assert "Find and Hire" not in tensorflow.topics_raw
    assert (document.skills_declared, len(document.skills)) == (20, 15)
    assert (document.programming_languages_declared, document.programming_languages) == (4, [])
    assert (document.contributions_declared, len(document.contributions)) == (5, 2)


def test_detects_the_reference_as_progai(any_reference):
    assert detect_format(any_reference.path.read_bytes()) == "progai"


# --------------------------------------------------------------------------------------------------------------------
# Badges and summary
# --------------------------------------------------------------------------------------------------------------------


def test_no_badges(reference):
    document = parse_progai(edited(reference, BADGE_BLOCK, "Ingrid Valtonen is"))
    assert document.badges == []
    assert document.summary.startswith("Ingrid Valtonen is a Principal Compiler Engineer at Lumivaara")


def test_one_badge(reference):
    document = parse_progai(edited(reference, BADGE_BLOCK, "🤩\nRockstarIngrid Valtonen is"))
    assert document.badges == ["Rockstar"]
    assert document.summary.startswith("Ingrid Valtonen is a Principal")


def test_three_badges(reference):
    text = edited(reference, BADGE_BLOCK, "🤩\nRockstar🎓\nTop School🚀\nOpen Source ContributorIngrid Valtonen is")
    document = parse_progai(text)
    assert document.badges == ["Rockstar", "Top School", "Open Source Contributor"]
    assert document.summary.startswith("Ingrid Valtonen is a Principal")


def test_unknown_badge_glued_to_the_summary_ends_where_the_name_starts(reference):
    document = parse_progai(edited(reference, BADGE_BLOCK, "🤩\nRockstar🎓\nNight OwlIngrid Valtonen is"))
    assert document.badges == ["Rockstar", "Night Owl"]
    assert document.summary.startswith("Ingrid Valtonen is a Principal")


def test_unknown_badge_ends_where_an_emoji_starts(reference):
    document = parse_progai(edited(reference, BADGE_BLOCK, "🤩\nNight Owl🎓\nTop SchoolIngrid Valtonen is"))
    assert document.badges == ["Night Owl", "Top School"]


def test_unknown_badge_before_a_summary_not_starting_with_the_name(reference):
    document = parse_progai(edited(reference, BADGE_BLOCK, "🤩\nNight OwlShe is"))
    assert document.badges == ["Night Owl"]
    assert document.summary.startswith("She is a Principal Compiler Engineer")


def test_known_badge_before_a_summary_starting_with_a_quote(reference):
    document = parse_progai(
        edited(reference, BADGE_BLOCK, '🤩\nHidden Gem"Compilers are fun," says Ingrid Valtonen, who is')
    )
    assert document.badges == ["Hidden Gem"]
    assert document.summary.startswith('"Compilers are fun," says')


def test_badges_whose_emoji_were_lost(reference):
    document = parse_progai(edited(reference, BADGE_BLOCK, "Rockstar\nTop SchoolIngrid Valtonen is"))
    assert document.badges == ["Rockstar", "Top School"]
    assert document.summary.startswith("Ingrid Valtonen is a Principal")


def test_badge_list_holds_the_known_names():
    for badge in ("Rockstar", "Top School", "Top Company", "Open Source Contributor", "Hidden Gem", "Mentor"):
        assert badge in BADGES


def test_missing_summary_text(reference):
    summary_line = next(line for line in reference.splitlines() if line.startswith("Top School"))
    document = parse_progai(edited(reference, "🤩\nRockstar🎓\n" + summary_line + "\n", ""))
    assert document.summary == ""
    assert document.badges == []
    assert document.years_coding == 11
    assert document.headline == "Principal Compiler Engineer at Lumivaara"


def test_missing_summary_heading_and_text(reference):
    summary_line = next(line for line in reference.splitlines() if line.startswith("Top School"))
    document = parse_progai(edited(reference, "Summary\n🤩\nRockstar🎓\n" + summary_line + "\n", ""))
    assert document.summary == ""
    assert document.location.city == "Tampere"
    assert document.years_employed == 9
    assert len(document.contributions) == 2


def test_html_in_the_summary_stays_literal_text(reference):
    document = parse_progai(edited(reference, "Ingrid Valtonen is a", "Ingrid Valtonen <script>alert(1)</script> is a"))
    assert "<script>alert(1)</script>" in document.summary


# --------------------------------------------------------------------------------------------------------------------
# Headline, location, years, education, languages
# --------------------------------------------------------------------------------------------------------------------


def test_headline_without_company(reference):
    document = parse_progai(
        edited(reference, "Principal Compiler Engineer at Lumivaara\n", "Principal Compiler Engineer\n")
    )
    assert (document.headline, document.title, document.company) == (
        "Principal Compiler Engineer",
        "Principal Compiler Engineer",
        "",
    )


def test_headline_split_on_the_last_at(reference):
    document = parse_progai(
        edited(reference, "Principal Compiler Engineer at Lumivaara", "Head of Data at Scale at Acme")
    )
    assert (document.title, document.company) == ("Head of Data at Scale", "Acme")


@pytest.mark.parametrize(
    ("line", "city", "region", "country", "code"),
    [
        ("Germany", "", "", "Germany", "DE"),
        ("Berlin", "Berlin", "", "", ""),
        ("Berlin, Germany", "Berlin", "", "Germany", "DE"),
        ("Austin, Texas", "Austin", "Texas", "", ""),
        ("London, England, United Kingdom", "London", "England", "United Kingdom", "GB"),
        ("Seoul, South Korea", "Seoul", "", "South Korea", "KR"),
    ],
)
def test_locations_with_one_to_three_parts(reference, line, city, region, country, code):
    document = parse_progai(edited(reference, "Tampere, Pirkanmaa, Finland", line))
    location = document.location
    assert (location.city, location.region, location.country, location.country_code) == (city, region, country, code)
    assert document.headline == "Principal Compiler Engineer at Lumivaara"


def test_headline_missing_location_kept(reference):
    document = parse_progai(edited(reference, "Principal Compiler Engineer at Lumivaara\n", ""))
    assert document.headline == ""
    assert document.location.city == "Tampere"


def test_singular_years(reference):
    text = edited(reference, "11 years of coding experience", "1 year of coding experience")
    text = edited(text, "9 years of employment as a software developer", "1 year of employment as a software developer")
    document = parse_progai(text)
    assert (document.years_coding, document.years_employed) == (1, 1)


def test_years_lines_absent(reference):
    text = edited(reference, "11 years of coding experience\n", "")
    text = edited(text, "9 years of employment as a software developer\n", "")
    document = parse_progai(text)
    assert (document.years_coding, document.years_employed) == (None, None)
    assert len(document.education) == 2


def test_no_education_line(reference):
    document = parse_progai(edited(reference, EDUCATION_LINE + "\n", ""))
    assert document.education == []
    assert document.spoken_languages == ["Finnish", "English"]
    assert document.warnings == []


def test_no_spoken_languages_line(reference):
    document = parse_progai(edited(reference, "Finnish, English\n", ""))
    assert document.spoken_languages == []
    assert len(document.education) == 2


def test_education_entries_of_many_shapes():
    line = (
        "Bachelor of Science (B.Sc.) Physics, Bachelor of Science (B.Sc.) Physics at University of California at "
        "BerkeleyMaster's Degree, Master's Degree at Stanford UniversityMaster of Business Administration (MBA) "
        "Finance minor in Economics, Master of Business Administration (MBA) Finance minor in Economics at INSEAD"
    )
    entries = parse_education(line)
    assert [(e.degree, e.field, e.minor, e.school) for e in entries] == [
        ("Bachelor of Science (B.Sc.)", "Physics", "", "University of California at Berkeley"),
        ("Master's Degree", "", "", "Stanford University"),
        ("Master of Business Administration (MBA)", "Finance", "Economics", "INSEAD"),
    ]


def test_education_entry_without_a_known_degree_uses_the_duplication():
    entries = parse_education("Computer Science, Computer Science at ETH Zurich")
    assert [(e.degree, e.field, e.school) for e in entries] == [("", "Computer Science", "ETH Zurich")]


def test_a_sentence_is_not_an_education_line():
    assert parse_education("He worked at Google, then at Meta.") is None


# --------------------------------------------------------------------------------------------------------------------
# Skills and programming languages
# --------------------------------------------------------------------------------------------------------------------


def _known(*labels):
    keys = set(labels)
    return lambda label: label.lower() in keys


@pytest.mark.parametrize(
    ("line", "known", "result"),
    [
        ("python9", (), ("python", 9)),
        ("c-language10", (), ("c-language", 10)),
        ("html510", ("html5",), ("html5", 10)),
        ("html510", (), ("html5", 10)),
        ("python310", (), ("python3", 10)),
        ("web38", ("web3",), ("web3", 8)),
        ("web38", (), ("web3", 8)),
        ("x110", ("x11",), ("x11", 0)),
        ("jupyter notebook7", (), ("jupyter notebook", 7)),
        ("python99", ("python",), "Skill line 'python99': score out of range 0-10; skipped."),
        ("python", (), "Skill line 'python': no score found; skipped."),
        ("10", (), "Skill line '10': no label found; skipped."),
    ],
)
def test_split_score(line, known, result):
    assert split_score(line, _known(*known)) == result


def test_skill_scores_glued_to_labels_ending_in_digits(reference):
    text = edited(reference, "python9\n", "html510\nweb38\npython99\npython310\npython9\n")
    document = parse_progai(text)
    pairs = [(s.label, s.score) for s in document.skills]
    assert ("html5", 10) in pairs
    assert ("web3", 8) in pairs
    assert ("python3", 10) in pairs
    assert ("python", 9) in pairs
    assert not any(label.startswith("python9") for label, _ in pairs)
    assert "Skill line 'python99': score out of range 0-10; skipped." in document.warnings
    assert document.skills_declared == 18


def test_a_skill_line_longer_than_a_label_may_be_is_skipped_with_a_warning(reference):
    line = "html/" * 300 + "html9"  # 1,505 characters: past MAX_LABEL_CHARS
    document = parse_progai(edited(reference, "python9\n", f"{line}\npython9\n"))
    assert ("python", 9) in [(s.label, s.score) for s in document.skills]
    assert not any(s.label.startswith("html/") for s in document.skills)
    assert "Skill line 'html/html/html/html/html/html/html/html…' is longer than 1,000 characters; skipped." in (
        document.warnings
    )


def test_programming_languages_listed(reference):
    text = edited(
        reference, "Programming languages (3)\n", "Programming languages (3)\nC++10\nPython9\nJupyter Notebook3\n"
    )
    document = parse_progai(text)
    assert [(s.label, s.score) for s in document.programming_languages] == [
        ("C++", 10),
        ("Python", 9),
        ("Jupyter Notebook", 3),
    ]
    assert len(document.skills) == 12


def test_missing_skills_header_gives_none_declared_and_no_skills(reference):
    document = parse_progai(edited(reference, "Github Skills (18)\n", ""))
    assert document.skills_declared is None
    assert document.skills == []
    assert document.programming_languages_declared == 3


def test_missing_contributions_header_still_reads_contributions(reference):
    document = parse_progai(edited(reference, "Github contributions (4)\n", ""))
    assert document.contributions_declared is None
    assert [c.repository for c in document.contributions] == ["kestrel-db/kestrel", "lumen-format/lumen"]
    assert any("heading is missing" in w for w in document.warnings)


# --------------------------------------------------------------------------------------------------------------------
# Contributions
# --------------------------------------------------------------------------------------------------------------------


def test_present_end_date(reference):
    document = parse_progai(edited(reference, "Apr 2019 - Nov 2023", "Apr 2019 - Present"))
    kestrel = document.contributions[0]
    assert (kestrel.start, kestrel.end, kestrel.is_current) == ("2019-04", None, True)


def test_role_on_the_role_line_and_on_the_next_line(reference):
    document = parse_progai(reference)
    assert [c.role for c in document.contributions] == ["Back-end Developer", "Backend Developer"]
    same_line = edited(
        reference, "Role in this project:\nBack-end Developer\n", "Role in this project:Back-end Developer\n"
    )
    assert parse_progai(same_line).contributions[0].role == "Back-end Developer"


def test_role_only_glued_to_contributions(reference):
    document = parse_progai(edited(reference, "Role in this project:\nBack-end Developer\n", ""))
    kestrel = document.contributions[0]
    assert kestrel.role == "Back-end Developer"
    assert kestrel.repository_description == "A vectorised query engine for columnar data"


@pytest.mark.parametrize(
    ("stats", "commits", "comments", "months"),
    [
        ("1 commit in 1 month", 1, 0, 1),
        ("3 comments in 1 year", 0, 3, 12),
        ("1,204 commits, 37 comments in 4 years 2 months", 1204, 37, 50),
        ("1 commit, 1 comment in 1 year 1 month", 1, 1, 13),
        ("26 commits", 26, 0, None),
        ("99,999,999,999 commits in 99999 years", 0, 0, None),  # implausible numbers are not stored
        ("", 0, 0, None),
    ],
)
def test_commit_and_comment_counts(reference, stats, commits, comments, months):
    text = edited(reference, "Contributions:41 commits in 4 years 7 months", "Contributions:" + stats)
    kestrel = parse_progai(text).contributions[0]
    assert (kestrel.commits, kestrel.comments, kestrel.active_months) == (commits, comments, months)
    assert kestrel.role == "Back-end Developer"


def test_topics_line_absent(reference):
    document = parse_progai(edited(reference, "rustquery-enginecompilersql\n", ""))
    kestrel, lumen = document.contributions
    assert (kestrel.topics, kestrel.topics_raw) == ([], "")
    assert lumen.topics == ["columnar-storage", "python", "file-format", "databases"]


def test_contribution_without_description_and_summary(reference):
    text = edited(reference, "A vectorised query engine for columnar data\n", "")
    summary = next(line for line in text.splitlines() if line.startswith("Contributions summary:Ingrid rewrote"))
    document = parse_progai(edited(text, summary + "\n", ""))
    kestrel = document.contributions[0]
    assert (kestrel.repository_description, kestrel.summary) == ("", "")
    assert kestrel.topics == ["rust", "query-engine", "compiler", "sql"]


# --------------------------------------------------------------------------------------------------------------------
# Layout noise and broken files
# --------------------------------------------------------------------------------------------------------------------


def test_crlf_trailing_spaces_and_blank_lines_parse_the_same(any_reference):
    noisy = "\r\n\r\n".join(line + "  " for line in any_reference.text.split("\n"))
    document = parse(noisy.encode()).to_dict()
    expected = any_reference.expected
    for key in expected:
        assert_contains(expected[key], document[key], key)


def test_advertisement_on_its_own_line_or_cut_short(any_reference):
    reference = any_reference.text
    last_topics = parse_progai(reference).contributions[-1].topics_raw
    assert last_topics
    idx = reference.index("Find and Hire")
    own_line = reference[:idx] + "\n" + reference[idx:]
    cut = reference[: idx + len("Find and Hi")]
    for text in (own_line, cut, reference[:idx]):
        assert parse_progai(text).contributions[-1].topics_raw == last_topics


def test_truncated_at_every_line_boundary_raises_only_parse_error(any_reference):
    lines = any_reference.text.split("\n")
    parsed = 0
    for n in range(len(lines) + 1):
        text = "\n".join(lines[:n])
        try:
            document = parse(text.encode())
        except ParseError:
            continue
        parsed += 1
        assert document.name == any_reference.name
    assert parsed >= len(lines) - 4


def test_truncated_inside_a_contribution_warns(reference):
    cut = reference[: reference.index("Back-end DeveloperContributions:")]
    document = parse_progai(cut)
    assert document.contributions[0].repository == "kestrel-db/kestrel"
    assert any("kestrel-db/kestrel" in w and "may be cut" in w for w in document.warnings)


def test_truncated_at_every_few_characters_raises_only_parse_error(any_reference):
    reference = any_reference.text
    for n in range(0, len(reference) + 1, 3):
        with contextlib.suppress(ParseError):
            parse(reference[:n].encode())


@pytest.mark.parametrize(
    "first_line",
    [
        "x" * 201,
        "<html><body>Ingrid Valtonen</body></html>",
        "Github Skills (20)",
        "11 years of coding experience",
    ],
)
def test_no_plausible_name_raises(reference, first_line):
    with pytest.raises(ParseError, match="no name on the first line"):
        parse_progai(edited(reference, "Ingrid Valtonen\n", first_line + "\n"))


def test_json_like_first_line_is_not_a_name():
    with pytest.raises(ParseError, match="no name on the first line"):
        parse_progai('{"name": "x"}\nGithub Skills (1)\npython9')


def test_text_that_is_neither_format():
    with pytest.raises(ParseError, match=r"not a CV .*, a Prog\.AI profile export or a JSON Resume\."):
        parse(b"Dear recruiter,\nplease find my CV attached.\n")
    assert detect_format(b"Dear recruiter,\nplease find my CV attached.\n") == "unknown"


# --------------------------------------------------------------------------------------------------------------------
# Encodings, binary and empty files
# --------------------------------------------------------------------------------------------------------------------

SMALL_PROFILE = (
    "José Müller\n"
    "Ingeniero de Software at Señor Café\n"
    "München, Bavaria, Germany\n"
    "Summary\n"
    "José’s summary — with “curly” quotes and 5 €.\n"
    "3 years of coding experience\n"
    "Github Skills (1)\n"
    "python9\n"
)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom_is_converted_with_a_warning(any_reference, encoding):
    reference, expected = any_reference.text, any_reference.expected
    data = reference.encode(encoding)
    if encoding != "utf-16":
        data = ("\ufeff" + reference).encode(encoding)
    document = parse(data)
    assert document.warnings == ["The file was UTF-16 encoded; converted."]
    for key in expected:
        assert_contains(expected[key], document.to_dict()[key], key)


def test_utf16_without_bom_is_recognised():
    document = parse(SMALL_PROFILE.encode("utf-16-le"))
    assert document.name == "José Müller"
    assert document.warnings == ["The file was UTF-16 encoded; converted."]


def test_utf8_with_bom_is_read_silently(any_reference):
    document = parse(b"\xef\xbb\xbf" + any_reference.path.read_bytes())
    assert document.name == any_reference.name
    assert document.warnings == []


def test_latin1_windows_1252_is_read_with_a_warning():
    document = parse(SMALL_PROFILE.encode("cp1252"))
    assert document.name == "José Müller"
    assert document.company == "Señor Café"
    assert (document.location.city, document.location.country_code) == ("München", "DE")
    assert document.summary == "José’s summary — with “curly” quotes and 5 €."
    assert len(document.warnings) == 1
    assert document.warnings[0].startswith("The file was not UTF-8; it was read as Latin-1")
    assert parse(SMALL_PROFILE.encode("utf-8")).warnings == []


def test_unicode_is_normalised_and_control_characters_dropped():
    text = SMALL_PROFILE.replace("José Müller", "Jose\u0301 M\x07u\u0308ller\u00a0")
    document = parse(text.encode())
    assert document.name == "José Müller"


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
        b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00",
        bytes(range(256)) * 4,
        b"Ingrid Valtonen\nSummary\n" + bytes(range(1, 32)) * 20,
    ],
    ids=["png", "zip", "all-bytes", "control-characters"],
)
def test_binary_files_are_rejected(data):
    with pytest.raises(ParseError, match=r"^This file is not a PDF, a Word document \(DOCX\) or a text file"):
        parse(data)
    assert detect_format(data) == "unknown"


@pytest.mark.parametrize(
    "data",
    [b"", b"   \n\t \r\n", b"\xef\xbb\xbf", "  \n".encode("utf-16"), "\u00a0\u3000".encode()],
    ids=["empty", "whitespace", "bom-only", "utf16-whitespace", "unicode-spaces"],
)
def test_empty_files_are_rejected(data):
    with pytest.raises(ParseError, match=r"^The file is empty\.$"):
        parse(data)


def test_education_entry_without_a_school_at_the_end():
    entries = parse_education(
        "Bachelor's Degree Physics, Bachelor's Degree Physics at Purdue UniversityMaster's Degree Optics, "
        "Master's Degree Optics"
    )
    assert [(e.degree, e.field, e.school) for e in entries] == [
        ("Bachelor's Degree", "Physics", "Purdue University"),
        ("Master's Degree", "Optics", ""),
    ]


def test_education_line_in_another_position(reference):
    text = edited(reference, EDUCATION_LINE + "\n", "")
    text = edited(text, "Finnish, English\n", "Finnish, English\n" + EDUCATION_LINE + "\n")
    document = parse_progai(text)
    assert [e.school for e in document.education] == ["Tampere University", "University of Helsinki"]
    assert document.spoken_languages == ["Finnish", "English"]


# --------------------------------------------------------------------------------------------------------------------
# Issue 14: glued topics no vocabulary knows, and spoken languages with their identity
# --------------------------------------------------------------------------------------------------------------------

GLUED_TOPICS = PROGAI_DIR / "variants" / "ingrid-valtonen.glued-topics.txt"


def test_glued_topics_no_vocabulary_knows_are_cut_into_words_and_the_raw_line_kept():
    """Issue 14: ``servicemesh`` (beside the known ``observability``) was left whole, and with Linguist's "Ring" in
    the vocabulary ``data-engineeringdatabases`` came out as ``data-enginee`` + ``ring``."""
    vocabulary = vocabulary_from_files(VOCAB_DIR) | {"observability", "ring"}  # both in the seeded vocabulary
    document = parse(GLUED_TOPICS.read_bytes(), vocabulary=vocabulary)
    kestrel, lumen = document.contributions
    assert kestrel.topics == ["service", "mesh", "observability", "rust"]
    assert kestrel.topics_raw == "servicemeshobservabilityrust"
    assert lumen.topics == ["data-engineering", "databases"]
    assert lumen.topics_raw == "data-engineeringdatabases"
    assert document.warnings == []


def test_spoken_languages_get_their_code_and_english_name():
    document = parse(GLUED_TOPICS.read_bytes())
    assert document.spoken_languages == ["Finnish", "English", "Persian"]  # "Farsi" under its English name
    assert [(lang.code, lang.name, lang.raw) for lang in document.languages] == [
        ("fi", "Finnish", "Finnish"),
        ("en", "English", "English"),
        ("fa", "Persian", "Farsi"),
    ]


def test_reference_languages(any_reference):
    document = parse(any_reference.path.read_bytes())
    assert [lang.name for lang in document.languages] == any_reference.expected["spoken_languages"]
    assert all(lang.code for lang in document.languages)
