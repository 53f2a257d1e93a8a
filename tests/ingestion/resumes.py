"""Fictional JSON Resume files built in the test, for what one file can do to an import (issue 15, holes 3 and 9)."""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterable


def resume(name: str, *, summary: str = "", keywords: Iterable[str] = (), projects: Iterable[dict] = ()) -> bytes:
    return json.dumps(
        {
            "basics": {"name": name, "label": "Engineer", "summary": summary, "location": {"city": "Porto"}},
            "skills": [{"name": "Python", "level": "Expert", "keywords": list(keywords)}],
            "projects": list(projects),
        }
    ).encode()


def project(owner: str, name: str, *keywords: str, summary: str = "") -> dict:
    """A project on GitHub, which the parser reads as a contribution to ``owner/name`` with these topics."""
    return {"name": name, "url": f"https://github.com/{owner}/{name}", "keywords": list(keywords), "summary": summary}


def random_words(count: int, seed: int = 15) -> str:
    rnd = random.Random(seed)
    return " ".join("".join(rnd.choices(string.ascii_lowercase, k=rnd.randint(3, 10))) for _ in range(count))


def skill_label_bomb(name: str, *, pieces: int = 60_000) -> bytes:
    """A small JSON Resume (about 300 KB) whose one skill name is "html/html/…" in ``pieces`` pieces: splitting such a
    label once cost time quadratic in its pieces, and held a whole chunk of files for the task's time limit."""
    return json.dumps(
        {
            "basics": {"name": name, "label": "Engineer", "location": {"city": "Porto"}},
            "skills": [{"name": "/".join(["html"] * pieces), "level": "Expert"}],
        }
    ).encode()
