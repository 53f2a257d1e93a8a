"""``manage.py build_vocabulary`` (issue 29): the shipped vocabulary built from the public lists, the same bytes each
time; ``--check`` says whether the committed table is current; a missing folder is a plain error. No database."""

from __future__ import annotations

import csv
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from devtools.vocabulary.build import build, render
from profiles.shipped_vocabulary import read_rows
from tests.fixtures import CORPUS_DIR, VOCAB_DIR


def _small_corpus(folder, tags: list[tuple[str, int]]):
    """The tests' own GitHub and Linguist lists, and a Stack Overflow tag list written here."""
    for path in VOCAB_DIR.glob("*.t*"):
        (folder / path.name).write_bytes(path.read_bytes())
    with (folder / "stackoverflow_tags.tsv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["tag", "questions"])
        writer.writerows(tags)
    return folder


TAGS = [
    ("reactjs", 9000),  # a synonym of a known skill: an alias
    ("arrays", 8000),  # a generic programming word: left out
    ("sorting", 7000),  # a common English word: left out
    ("python-3.x", 6000),  # a version: an alias
    ("frobnicate-studio", 5000),  # a tool only Stack Overflow names: a skill
    ("amazon-zorblet", 4000),  # a vendor's product: also known without the vendor
    ("spring", 3000),  # a common word the rules keep: a skill that needs context
    ("for-loop", 2000),  # only words: left out
    ("tinytool", 10),  # below the threshold: left out
]


def test_stack_overflow_tags_are_filtered_into_technologies(tmp_path):
    rows = {row.slug: row for row in build(_small_corpus(tmp_path, TAGS))}

    assert "reactjs" in rows["react"].aliases
    assert "python-3.x" in rows["python"].aliases
    assert rows["frobnicate-studio"].name == "Frobnicate Studio"
    assert rows["amazon-zorblet"].aliases == ("zorblet",)
    assert rows["spring"].needs_context == ("spring",)
    assert not {"arrays", "sorting", "for-loop", "tinytool"} & rows.keys()


def test_the_command_writes_the_same_bytes_each_time_and_checks_them(tmp_path):
    corpus, out = _small_corpus(tmp_path, TAGS), tmp_path / "vocabulary.tsv"

    call_command("build_vocabulary", corpus=corpus, out=out, stdout=StringIO())
    first = out.read_bytes()
    call_command("build_vocabulary", corpus=corpus, out=out, stdout=StringIO())
    stdout = StringIO()
    call_command("build_vocabulary", corpus=corpus, out=out, check=True, stdout=stdout)

    assert out.read_bytes() == first == render(build(corpus)).encode()
    assert "is up to date" in stdout.getvalue()
    assert {row.slug for row in read_rows(out)} >= {"frobnicate-studio", "react", "python"}


def test_check_fails_when_the_table_differs(tmp_path):
    corpus, out = _small_corpus(tmp_path, TAGS), tmp_path / "vocabulary.tsv"
    out.write_text("slug\tname\tkind\taliases\tneeds_context\tsources\n", encoding="utf-8")

    with pytest.raises(CommandError, match="not what the build gives"):
        call_command("build_vocabulary", corpus=corpus, out=out, check=True, stdout=StringIO())


def test_a_folder_without_the_lists_is_an_error(tmp_path):
    with pytest.raises(CommandError, match=r"No stackoverflow_tags\.tsv"):
        call_command("build_vocabulary", corpus=tmp_path / "missing", out=tmp_path / "v.tsv", stdout=StringIO())


@pytest.mark.corpus
def test_the_committed_table_is_current():
    call_command("build_vocabulary", corpus=CORPUS_DIR / "vocab", check=True, stdout=StringIO())
