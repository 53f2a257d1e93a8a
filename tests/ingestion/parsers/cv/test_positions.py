"""The layouts in which CVs write a position's title, company and dates, each read into the same two positions."""

import pytest

from ingestion.parsers.cv import parse_cv

LAYOUTS = {
    "title at company, place (dates)": [
        "Software Engineer at Globex Corp, Berlin (Jan 2019 - Present)",
        "Built things.",
        "",
        "Intern at Initech, Austin (Jun 2017 - Dec 2018)",
        "Tested things.",
    ],
    "company over title over dates": [
        "Globex Corp — Berlin",
        "Software Engineer",
        "Jan 2019 - Present",
        "Built things.",
        "",
        "Initech",
        "Intern",
        "Jun 2017 - Dec 2018",
        "Tested things.",
    ],
    "dates first, with bars": [
        "Jan 2019 - Present | Software Engineer | Globex Corp",
        "Built things.",
        "Jun 2017 - Dec 2018 | Intern | Initech",
        "Tested things.",
    ],
    "dates on a line of their own, first": [
        "Jan 2019 - Present",
        "Software Engineer",
        "Globex Corp",
        "Built things.",
        "",
        "Jun 2017 - Dec 2018",
        "Intern",
        "Initech",
        "Tested things.",
    ],
    "bullets without full stops, no blank lines": [
        "Software Engineer, Globex Corp",
        "Jan 2019 - Present",
        "- Built things",
        "- Ran things",
        "Intern, Initech",
        "Jun 2017 - Dec 2018",
        "- Tested things",
    ],
    "every line a bullet (Markdown)": [
        "- Software Engineer — Globex Corp",
        "- Jan 2019 - Present",
        "- Built things.",
        "",
        "- Intern — Initech",
        "- Jun 2017 - Dec 2018",
        "- Tested things.",
    ],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_each_layout_of_a_position(layout):
    text = "Ada Quill\nada.quill@example.org\n\nExperience\n" + "\n".join(LAYOUTS[layout]) + "\n\nSkills\nGo\n"

    positions = parse_cv(text).positions

    assert [(p.title, p.company, p.start, p.end, p.is_current) for p in positions] == [
        ("Software Engineer", "Globex Corp", "2019-01", None, True),
        ("Intern", "Initech", "2017-06", "2018-12", False),
    ]
    assert positions[1].highlights[-1].startswith("Tested things")
