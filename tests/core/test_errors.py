"""The application's one error type, raised by services and shown as-is by the API and the admin."""

import subprocess
import sys
from pathlib import Path

from core.errors import ApplicationError

ROOT = Path(__file__).resolve().parents[2]


def test_an_application_error_carries_its_message_a_code_and_details():
    error = ApplicationError("A candidate of this merge no longer exists.", code="gone", details={"ids": [7]})

    assert (str(error), error.message, error.code, error.details) == (
        "A candidate of this merge no longer exists.",
        "A candidate of this merge no longer exists.",
        "gone",
        {"ids": [7]},
    )


def test_an_application_error_is_invalid_with_no_details_unless_told():
    first, second = ApplicationError("one"), ApplicationError("two")

    assert (first.code, first.details) == ("invalid", {})
    first.details["x"] = 1
    assert second.details == {}


def test_the_error_type_needs_no_django():
    # core is the plain library every layer may import; raising its error must not pull Django in.
    probe = "import sys, core.errors; print('django' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)

    assert result.stdout.strip() == "False"
