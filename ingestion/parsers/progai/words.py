"""The names the export writes: badges, degrees, and the labels whose trailing digits are their own."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Badge names Prog.AI shows above the summary, each after an emoji. Longest names are tried first.
BADGES: tuple[str, ...] = (
    "Rockstar",
    "Top School",
    "Top Company",
    "Open Source Contributor",
    "Influencer",
    "Hidden Gem",
    "Fast Learner",
    "Team Player",
    "Top Contributor",
    "Rising Star",
    "Expert",
    "Mentor",
    "Top Talent",
    "Top Performer",
    "Top Developer",
    "Top Open Source Contributor",
    "Open Source Maintainer",
    "Core Contributor",
    "Prolific Contributor",
    "Early Adopter",
    "Polyglot",
    "Problem Solver",
    "Community Leader",
    "Veteran",
    "Thought Leader",
)


def _by_initial(names: Iterable[str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Lower-cased first letter -> (name, lower-cased name) of the names starting with it, longest first: the only
    names worth trying at a position of a text."""
    longest_first = sorted(names, key=len, reverse=True)
    return {
        initial: tuple((name, name.lower()) for name in longest_first if name.lower().startswith(initial))
        for initial in {name.lower()[0] for name in longest_first}
    }


BADGES_BY_INITIAL = _by_initial(BADGES)

# Degree names as Prog.AI (LinkedIn) writes them; matched case-insensitively at the start of an education entry.
DEGREES: tuple[str, ...] = (
    "Doctor of Philosophy (Ph.D.)",
    "Doctor of Philosophy (PhD)",
    "Doctor of Philosophy",
    "Doctor of Science (D.Sc.)",
    "Doctor of Medicine (M.D.)",
    "Doctor of Engineering (D.Eng.)",
    "Juris Doctor (J.D.)",
    "Doctorate",
    "Doctoral Degree",
    "Ph.D.",
    "PhD",
    "Master's Degree",
    "Masters Degree",
    "Master Degree",
    "Master of Science (M.Sc.)",
    "Master of Science (M.S.)",
    "Master of Science (MS)",
    "Master of Science",
    "Master of Arts (M.A.)",
    "Master of Arts",
    "Master of Business Administration (MBA)",
    "Master of Business Administration (M.B.A.)",
    "Master of Business Administration",
    "Master of Engineering (M.Eng.)",
    "Master of Engineering (ME)",
    "Master of Engineering",
    "Master of Technology (M.Tech.)",
    "Master of Technology",
    "Master of Computer Applications (MCA)",
    "Master of Philosophy (M.Phil.)",
    "Master of Fine Arts (MFA)",
    "Master of Applied Science (M.A.Sc.)",
    "Bachelor's Degree",
    "Bachelors Degree",
    "Bachelor Degree",
    "Bachelor of Science (B.Sc.)",
    "Bachelor of Science (B.S.)",
    "Bachelor of Science (BS)",
    "Bachelor of Science",
    "Bachelor of Arts (B.A.)",
    "Bachelor of Arts (BA)",
    "Bachelor of Arts",
    "Bachelor of Engineering (B.E.)",
    "Bachelor of Engineering (BE)",
    "Bachelor of Engineering (B.Eng.)",
    "Bachelor of Engineering",
    "Bachelor of Technology (B.Tech.)",
    "Bachelor of Technology (BTech)",
    "Bachelor of Technology",
    "Bachelor of Computer Applications (BCA)",
    "Bachelor of Business Administration (BBA)",
    "Bachelor of Fine Arts (BFA)",
    "Bachelor of Applied Science (B.A.Sc.)",
    "Associate's Degree",
    "Associates Degree",
    "Associate Degree",
    "Associate of Science (A.S.)",
    "Associate of Arts (A.A.)",
    "Associate of Applied Science (A.A.S.)",
    "High School Diploma",
    "Postgraduate Degree",
    "Postgraduate Diploma",
    "Graduate Certificate",
    "Engineer's Degree",
    "Specialist Degree",
    "Professional Degree",
    "Licentiate Degree",
    "Diploma",
    "Certificate",
    "MBA",
    "B.Sc.",
    "B.S.",
    "BSc",
    "B.A.",
    "B.E.",
    "B.Tech.",
    "B.Tech",
    "M.Sc.",
    "M.S.",
    "MSc",
    "M.A.",
    "M.Eng.",
    "M.Tech.",
    "M.Tech",
)
_DEGREES_LONGEST_FIRST = tuple(sorted(DEGREES, key=len, reverse=True))
DEGREES_BY_INITIAL = _by_initial(DEGREES)
LONG_DEGREES_LOWER = tuple(d.lower() for d in _DEGREES_LONGEST_FIRST if len(d) >= 6)
GENERIC_DEGREE_RE = re.compile(
    r"(?:Bachelor|Master|Doctor|Associate)(?:'s|\u2019s)?\s+(?:[Dd]egree|of\s+[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}"
    r"\s*\([^()]{1,20}\))"
)

# Labels whose trailing digits belong to the label, and common bare labels. Only used to tell "html510" (html5 / 10)
# from "python99" (python / 99: out of range) when the caller's vocabulary does not know the label.
DIGIT_LABELS = frozenset(
    {
        "html5", "css3", "web3", "web2", "python2", "python3", "es5", "es6", "es2015", "vue2", "vue3", "angular2",
        "d3", "s3", "ec2", "k8s", "3d", "2d", "ipv4", "ipv6", "http2", "http3", "oauth2", "mp3", "mp4", "x86",
        "x64", "arm64", "h264", "h265", "i18n", "l10n", "a11y", "base64", "sha256", "p2p", "gpt2", "gpt3", "gpt4",
        "yolov5", "yolov8", "resnet50", "php7", "php8", "java8", "java11", "java17", "qt5", "qt6", "gtk3", "gtk4",
        "opengl3", "directx11", "directx12", "unity3d", "cocos2d", "box2d", "log4j", "c99", "c11", "cpp11", "cpp14",
        "cpp17", "cpp20", "c++11", "c++14", "c++17", "c++20", "fortran90", "z80", "6502", "stm32", "esp32",
        "esp8266", "sqlite3", "win32", "e2e", "web3js", "three.js", "k3s", "s3fs", "bs4", "pix2pix", "word2vec",
        "seq2seq", "doc2vec", "node2vec", "llama2", "llama3", "t5", "g5", "m1", "m2", "ps4", "n64",
    }
)  # fmt: skip
COMMON_LABELS = frozenset(
    {
        "python", "java", "javascript", "typescript", "go", "golang", "rust", "ruby", "php", "c", "cpp", "c++",
        "csharp", "c#", "kotlin", "swift", "scala", "perl", "haskell", "html", "css", "sql", "shell", "bash", "r",
        "matlab", "lua", "dart", "elixir", "erlang", "clojure", "julia", "objective-c", "react", "vue", "angular",
        "node", "nodejs", "docker", "kubernetes", "linux", "git", "aws", "fortran", "cobol", "assembly", "opengl",
        "directx", "unity", "qt", "gtk", "http",
    }
)  # fmt: skip
