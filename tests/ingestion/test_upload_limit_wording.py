"""The per-file limit reads the same everywhere: the upload form, the refusals and the configuration guide write sizes
in powers of 1024 with their IEC names, "5 MiB", never "5.2 MB" in one place and "5 MB" in another."""

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from core.text import human_size
from ingestion.documents import ParseError
from ingestion.services import document_parse, upload_refusals
from profiles.vocabulary_copy import skill_vocabulary

CONFIGURATION = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


@dataclass
class Sent:
    name: str
    size: int


def readme_default(variable: str) -> str:
    [default] = re.findall(rf"^\| `{variable}` \| ([^|]+) \|", CONFIGURATION.read_text(encoding="utf-8"), re.MULTILINE)
    return default.strip()


def test_the_defaults_are_5_mib_a_file_and_100_mib_an_upload():
    assert human_size(settings.INGEST_MAX_FILE_BYTES) == "5 MiB"
    assert human_size(settings.INGEST_MAX_UPLOAD_BYTES) == "100 MiB"


@pytest.mark.parametrize("variable", ["INGEST_MAX_FILE_BYTES", "INGEST_MAX_UPLOAD_BYTES"])
def test_the_configuration_guide_writes_each_size_limit_as_the_product_does(variable):
    assert readme_default(variable) == human_size(getattr(settings, variable))


def test_the_upload_form_states_the_limit_in_the_same_words(admin_client):
    page = admin_client.get(reverse("admin:ingestion_importbatch_add")).content.decode()

    assert f"(each up to {human_size(settings.INGEST_MAX_FILE_BYTES)})" in page
    assert "(each up to 5 MiB)" in page


def test_a_refusal_names_the_file_and_both_sizes_in_the_same_unit():
    assert upload_refusals(files=[Sent("big.json", 6 << 20), Sent("fine.json", 1000)]) == [
        "big.json is 6 MiB; files up to 5 MiB are accepted."
    ]


def test_a_file_a_byte_over_the_limit_is_refused_in_bytes_rather_than_as_5_mib_against_5_mib(db):
    over = settings.INGEST_MAX_FILE_BYTES + 1

    assert upload_refusals(files=[Sent("big.json", over)]) == [
        "big.json is 5,242,881 bytes; files up to 5,242,880 bytes are accepted."
    ]
    with pytest.raises(ParseError, match=r"^The file is 5,242,881 bytes; files up to 5,242,880 bytes are accepted\.$"):
        document_parse(b" " * over, skill_vocabulary())
