"""A generated corpus of malformed and adversarial profile files, the same on every run (seeded).

Each entry is ``(category, name, data)``. The categories say what a file attacks: truncations of a real profile at
every line and inside every line, random bytes, huge lines, deep JSON nesting, wrong encodings, score overflow,
control characters, HTML/JavaScript and SQL-looking strings in every field, path-like and hostile file names, and
JSON of the wrong shape.
"""

from __future__ import annotations

import codecs
import json
from dataclasses import dataclass
from pathlib import Path
from random import Random

from devtools.synthetic import generate_documents, render_jsonresume, render_progai

CORPUS_DIR = Path(__file__).resolve().parents[3] / "shared" / "corpus"
XSS = "<script>alert(1)</script>"
XSS_PAYLOADS = (
    XSS,
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(document.cookie)",
    "<svg/onload=alert('xss')>",
    "{{7*7}} {% debug %} ${7*7}",
)
SQL_PAYLOADS = (
    "Robert'); DROP TABLE profiles_candidate;--",
    "' OR '1'='1' --",
    "1; SELECT pg_sleep(10); --",
    "admin'/*",
    '"; TRUNCATE ingestion_sourcefile CASCADE; --',
    "' UNION SELECT password FROM auth_user --",
)
FORMULA_PAYLOADS = ('=HYPERLINK("http://evil.example","x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,1)")
MARKUP_FILE_NAME = "<img src=x onerror=alert(1)>.txt"
PATH_NAMES = (
    "../../etc/passwd",
    "..\\..\\windows\\system32\\config\\sam",
    "/etc/shadow",
    "C:\\Users\\Public\\profile.txt",
    "./../../../../var/lib/postgresql/data/pg_hba.conf",
    "profile.txt\x00.exe",
    "line\nbreak\r\nname.txt",
    "~/.ssh/id_rsa",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "",
    "..",
    "/",
    "a" * 1000 + ".txt",
    "\u202egnp.exe",
    "<script>alert(1)</script>.txt",
    MARKUP_FILE_NAME,
)


@dataclass(frozen=True, slots=True)
class HostileFile:
    category: str
    name: str
    data: bytes


def _base_documents():
    """A rich synthetic person (skills, languages, contributions, education) to attack."""
    for doc in generate_documents(50, seed=2024):
        if doc.contributions and doc.education and len(doc.skills) > 5:
            return doc
    raise AssertionError("no rich synthetic profile among the first 50")


def _variant(doc, index: int):
    """The same person under another name, so variants do not all update one candidate."""
    from dataclasses import replace

    from ingestion.documents import Identifiers

    copy = replace(doc)
    copy.name = f"{doc.name.split()[0]} Variant{index:04d}"
    copy.identifiers = Identifiers()
    copy.email = ""
    return copy


def hostile_files() -> list[HostileFile]:
    rnd = Random(20250601)
    doc = _base_documents()
    progai = render_progai(doc)
    resume = render_jsonresume(doc)
    files: list[HostileFile] = []

    def add(category: str, name: str, data: bytes | str) -> None:
        files.append(HostileFile(category, name, data.encode() if isinstance(data, str) else data))

    # --- Truncations: after every line and in the middle of every line (every section is cut somewhere).
    lines = progai.split("\n")
    for n in range(1, len(lines)):
        add("truncated", f"cut-after-line-{n:03d}.txt", "\n".join(lines[:n]))
    for n, line in enumerate(lines):
        if len(line) > 1:
            add("truncated", f"cut-inside-line-{n:03d}.txt", "\n".join([*lines[:n], line[: len(line) // 2]]))
    for i in range(1, 40):
        add("truncated", f"cut-resume-{i:02d}.json", resume[: len(resume) * i // 40])
    # The real export the format was designed from (shared corpus), cut after every line, when it is there.
    real = CORPUS_DIR / "progai" / "jinliang-wei.txt"
    if real.is_file():
        real_lines = real.read_text(encoding="utf-8").split("\n")
        for n in range(1, len(real_lines)):
            add("truncated", f"real-cut-after-line-{n:03d}.txt", "\n".join(real_lines[:n]))
    # Section headers without bodies, and bodies without headers.
    add("truncated", "headers-only.txt", "\n".join(line for line in lines if "(" in line and line.endswith(")")))
    add("truncated", "no-name.txt", "\n".join(lines[1:]))

    # --- Random bytes.
    for i, size in enumerate((1, 2, 7, 64, 512, 4096, 65536, 300_000)):
        add("random-bytes", f"random-{i}.bin", rnd.randbytes(size))
    for i in range(6):  # printable noise that is neither format
        add("random-bytes", f"noise-{i}.txt", "".join(rnd.choice('abc XYZ019\n{}[]:,"') for _ in range(2000 + i)))
    add("random-bytes", "zeros.bin", bytes(10_000))
    add("random-bytes", "empty.txt", b"")
    add("random-bytes", "whitespace.txt", b" \n\t\r\n   \n")
    add("random-bytes", "png-magic.png", b"\x89PNG\r\n\x1a\n" + rnd.randbytes(2000))
    add("random-bytes", "zip-magic.zip", b"PK\x03\x04" + rnd.randbytes(2000))
    add("random-bytes", "pdf-magic.pdf", b"%PDF-1.7\n" + rnd.randbytes(3000))

    # --- Huge lines and files.
    add("huge", "huge-name.txt", progai.replace(doc.name, "N" * 200_000, 1))
    add("huge", "huge-summary.txt", progai.replace("Summary\n", "Summary\n" + "word " * 200_000, 1))
    add("huge", "huge-skill-line.txt", progai.replace("Github Skills", "x" * 300_000 + "10\nGithub Skills", 1))
    add(
        "huge",
        "many-skills.txt",
        progai.replace("Github Skills", "\n".join(f"skill{i}7" for i in range(5_000)) + "\nGithub Skills", 1),
    )
    add("huge", "huge-line-no-newline.txt", "a" * 1_000_000)
    add("huge", "over-the-size-limit.txt", progai + "\n" + "z" * (6 * 1024 * 1024))
    big = json.loads(resume)
    big["basics"]["summary"] = "s" * 2_000_000
    add("huge", "huge-json-string.json", json.dumps(big))
    big = json.loads(resume)
    big["skills"] = [{"name": f"skill-{i}", "level": "Expert"} for i in range(5_000)]
    add("huge", "huge-json-array.json", json.dumps(big))

    # --- Deep JSON nesting.
    add("deep-json", "deep-array.json", "[" * 100_000 + "]" * 100_000)
    add("deep-json", "deep-object.json", '{"a":' * 50_000 + "1" + "}" * 50_000)
    add(
        "deep-json",
        "deep-basics.json",
        '{"basics": {"name": "Deep Nest", "location": ' + '{"x":' * 20_000 + "1" + "}" * 20_000 + "}}",
    )
    add("deep-json", "deep-unclosed.json", "[" * 200_000)
    for depth in (300, 400):  # around the JSON decoder's recursion limit: nested profiles inside a real résumé
        nested = '{"network": "GitHub", "username": "x", "more": ' * depth + "{}" + "}" * depth
        add("deep-json", f"deep-profiles-{depth}.json", resume.replace('"profiles": [', f'"profiles": [{nested}, ', 1))

    # --- Wrong encodings.
    accented = _variant(doc, 1)
    accented.name = "Zoë Ångström-Müller"
    accented.location = type(doc.location)(city="Zürich", region="Zürich", country="Switzerland", country_code="CH")
    text = render_progai(accented)
    add("encoding", "utf16-le-bom.txt", codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    add("encoding", "utf16-be-bom.txt", codecs.BOM_UTF16_BE + text.encode("utf-16-be"))
    add("encoding", "utf16-le-no-bom.txt", text.encode("utf-16-le"))
    add("encoding", "utf32-bom.txt", text.encode("utf-32"))
    add("encoding", "latin1.txt", text.encode("latin-1", errors="replace"))
    add("encoding", "cp1252.txt", text.replace("’", "'").encode("cp1252", errors="replace"))
    add("encoding", "utf8-bom.txt", codecs.BOM_UTF8 + text.encode())
    add("encoding", "mixed-invalid-utf8.txt", text.encode()[:500] + b"\xff\xfe\xc3\x28\xa0\xa1" + text.encode()[500:])
    add("encoding", "utf16-odd-length.txt", codecs.BOM_UTF16_LE + text.encode("utf-16-le") + b"\x00")
    add("encoding", "resume-utf16.json", codecs.BOM_UTF16_LE + render_jsonresume(accented).encode("utf-16-le"))
    add("encoding", "resume-latin1.json", render_jsonresume(accented).encode("latin-1", errors="replace"))
    add("encoding", "lone-surrogate.json", json.dumps({"basics": {"name": "Lone \ud800 Surrogate"}}))

    # --- Score and number overflow.
    skill_line = next(line for line in lines if line and line[-1].isdigit() and not line[0].isdigit())
    label = skill_line.rstrip("0123456789")
    for i, score in enumerate(("99", "-1", "11", "100", "999999999999999999999999", "1e5", "10.5", "０", "٩", "⁹")):
        person = render_progai(_variant(doc, 100 + i))
        add("score-overflow", f"score-{i}.txt", person.replace(skill_line, f"{label}{score}", 1))
    person = render_progai(_variant(doc, 120))
    add("score-overflow", "years-overflow.txt", person.replace(" years of coding", "99999999999 years of coding", 1))
    add("score-overflow", "commits-overflow.txt", person.replace(" commits", "99999999999999999999 commits"))
    add("score-overflow", "declared-overflow.txt", person.replace("Github Skills (", "Github Skills (9999999999999"))
    add("score-overflow", "months-overflow.txt", person.replace(" months", "9999999999 months"))
    add("score-overflow", "year-9999.txt", person.replace(" 20", " 99", 3))
    huge_int = "1" + "0" * 5000  # beyond Python's int-from-string limit
    add(
        "score-overflow",
        "resume-huge-int.json",
        f'{{"basics": {{"name": "Big Int"}}, "skills": [{{"level": {huge_int}}}]}}',
    )
    for i, value in enumerate((-1, 1e308, "NaN", 2**63, None, 10**40)):
        data = json.loads(render_jsonresume(_variant(doc, 130 + i)))
        data["skills"] = [{"name": "python", "level": value, "rating": value}]
        data["work"] = [{"name": "ACME", "startDate": value, "endDate": "2020-13-45"}]
        add("score-overflow", f"resume-number-{i}.json", json.dumps(data))
    add(
        "score-overflow",
        "json-infinity.json",
        '{"basics": {"name": "Inf Nan"}, "skills": [{"level": Infinity}, {"level": NaN}]}',
    )

    # --- Control characters.
    controls = (
        "\x00",
        "\x07",
        "\x1b[31mred\x1b[0m",
        "\x7f",
        "\u202e",
        "\u200b\u200d\ufeff",
        "\x0b\x0c",
        "\x85",
        "\ud7ff\ue000",
        "\U0010ffff",
    )
    for i, ch in enumerate(controls):
        person = _variant(doc, 200 + i)
        person.name = f"Ctl{ch}Person {i}"
        person.headline = f"Engineer{ch}at{ch}Corp"
        add("control-chars", f"controls-{i}.txt", render_progai(person).encode("utf-8", errors="surrogatepass"))
        add("control-chars", f"controls-{i}.json", render_jsonresume(person).encode("utf-8", errors="surrogatepass"))

    # --- HTML / JavaScript in every field, and SQL-looking strings (both formats).
    for i, payload in enumerate(XSS_PAYLOADS + SQL_PAYLOADS + FORMULA_PAYLOADS):
        category = "html-js" if payload in XSS_PAYLOADS else "sql" if payload in SQL_PAYLOADS else "formula"
        person = _poisoned(doc, payload, 300 + i)
        add(category, f"{category}-{i}.txt", render_progai(person))
        add(category, f"{category}-{i}.json", render_jsonresume(person))

    # --- Path-like and hostile file names (valid content, each a person of its own).
    for i, name in enumerate(PATH_NAMES):
        add("path-name", name, render_progai(_variant(doc, 400 + i)))

    # --- JSON of the wrong shape.
    for i, text in enumerate(
        (
            "null",
            "[]",
            '"a string"',
            "123",
            "{}",
            "true",
            '{"basics": null}',
            '{"basics": []}',
            '{"basics": {"name": 123}}',
            '{"basics": {"name": ["a", "b"]}}',
            '{"basics": {"name": {"first": "x"}}}',
            '{"basics": {"name": ""}}',
            '{"basics": {"name": "   "}}',
            '{"basics": {"name": "Wrong Types", "location": "nowhere", "profiles": "x", "email": 5}, "work": "x", '
            '"skills": {"a": 1}, "education": [1, 2, null], "projects": [null, "x", {"name": 5}], "languages": 7}',
            '{"basics": {"name": "Dup Key"}, "basics": {"name": "Dup Key Two"}}',
            '{"basics": {"name": "Bad Dates"}, '
            '"work": [{"name": "A", "startDate": "2020-99-99", "endDate": "yesterday"}],'
            ' "projects": [{"name": "p", "url": "https://github.com/a/b", "startDate": "0000-00", "endDate": "-1"}]}',
            '{"basics": {"name": "Bad Repo"}, "projects": [{"name": "../../etc", "url": "https://github.com/../../x"}]}',
            '\ufeff{"basics": {"name": "Bom Json"}}',
            '{"basics": {"name": "Trailing"}} garbage',
            "{'basics': {'name': 'Single Quotes'}}",
        )
    ):
        add("json-shape", f"shape-{i:02d}.json", text)
    return files


def _poisoned(doc, payload: str, index: int):
    """Every text field of the document carries the payload."""
    from dataclasses import replace

    from ingestion.documents import ContributionEntry, EducationEntry, Identifiers, Location, SkillEntry

    person = replace(doc)
    person.name = f"{payload} Person{index}"
    person.headline = f"{payload} Engineer at {payload}"
    person.title = f"{payload} Engineer"
    person.company = payload
    person.location = Location(city=payload, region=payload, country="Germany", country_code="DE")
    person.summary = f"{person.name} writes {payload} every day."
    person.badges = [payload]
    person.spoken_languages = [payload, "English"]
    person.email = ""
    person.identifiers = Identifiers()
    person.website = f"https://example.com/{payload}"
    person.education = [EducationEntry(degree=payload, field=payload, minor=payload, school=payload)]
    person.skills = [SkillEntry(label=f"{payload}", score=9), *doc.skills[:3]]
    person.programming_languages = [SkillEntry(label=payload, score=5)]
    person.contributions = [
        ContributionEntry(
            repository=f"evil{index}/{payload}".replace(" ", "-"),
            repository_description=payload,
            start="2020-01",
            end="2021-02",
            role=payload,
            commits=3,
            summary=payload,
            topics=[payload],
            topics_raw=payload,
        ),
        *doc.contributions[:2],
    ]
    return person
