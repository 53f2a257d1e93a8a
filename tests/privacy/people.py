"""The fictional person the erasure tests erase (tests/fixtures/jsonresume/tove-lindqvist.complete.json), what of
them must not be found anywhere afterwards, and files about her and about others."""

import json

from tests.fixtures import JSONRESUME_DIR

TOVE_FILE = JSONRESUME_DIR / "tove-lindqvist.complete.json"
# What identifies her: the name, the e-mail, the GitHub username, the profile URL.
# Her name also as file names write it (an import batch's label is the uploaded file names or paths by default).
TOVE_NEEDLES = (
    "Tove Lindqvist",
    "tove-lindqvist",
    "tove_lindqvist",
    "tove.lindqvist@example.org",
    "tovelq",
    "https://tove.example.org",
)
OTHER_FILE = JSONRESUME_DIR / "noor-rahimi.identifiers.json"


def tove_bytes() -> bytes:
    return TOVE_FILE.read_bytes()


def tove_changed(**basics) -> bytes:
    """Her file with something else in it (a new headline, or what ``basics`` says): other bytes, the same person."""
    document = json.loads(TOVE_FILE.read_text())
    document["basics"].update({"label": "Staff Site Reliability Engineer", **basics})
    return json.dumps(document).encode()
