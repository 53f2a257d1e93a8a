"""The CV reader on generated text: CV-like lines in any order and amount (headings of every language, date ranges,
contact details, bullets, stray words). It returns a document whose values are well formed, or refuses the text with
a message; nothing else. A fixed seed: the same examples on every run."""

import re

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from ingestion.documents import ParseError
from ingestion.parsers.cv import parse_cv

LINES = st.sampled_from(
    [
        "Experience", "Berufserfahrung", "Expérience professionnelle", "EDUCATION", "## Competenze", "Idiomas:",
        "Languages", "Skills", "Maelis Duvernoy", "Staff Engineer — Quillfeather", "Mar 2021 – Present",
        "04/2020 - heute", "2016-2020", "seit 2019", "2020 – oggi", "maelis@example.org", "+33 6 12 34 56 78",
        "github.com/maelisdv", "linkedin.com/in/", "https://", "Lyon, France", "Deutsch (Muttersprache)",
        "English — C1", "Python, Go, , ,", "- ", "• Built it in Kafka.", "", "Universität Elsterbrück",
        "M.Sc. Informatik", "(", "—", "2019", "Location:", "and", "Senior Developer at", "|||", "\t",
    ]
)  # fmt: skip
TEXT = st.lists(st.one_of(LINES, st.text(max_size=40)), max_size=60).map("\n".join)
MONTH_RE = re.compile(r"^\d{4}-\d{2}$")


@seed(32)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
def test_generated_text_is_read_or_refused_with_a_message(text):
    try:
        document = parse_cv(text, vocabulary=frozenset({"python", "kafka", "go"}))
    except ParseError as exc:
        error = str(exc)
    else:
        error = None
    if error is not None:
        assert error.strip(), "a refusal says why"
        return
    assert document.format == "cv"
    assert document.name.strip()
    for skill in document.skills:
        assert 0 <= skill.score <= 10
        assert skill.label.strip()
    for entry in [*document.positions, *document.education]:
        assert entry.start is None or MONTH_RE.match(entry.start)
        assert entry.end is None or MONTH_RE.match(entry.end)
    for position in document.positions:
        assert not (position.is_current and position.end)
    for language in document.languages:
        assert language.code
        assert language.name
