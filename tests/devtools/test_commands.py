"""``manage.py generate_profiles``: the README's flags, the generator's files, plain errors; no database."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from devtools.synthetic import write_profiles


def test_command_writes_the_files_without_a_database(tmp_path):
    out = tmp_path / "generated"
    stdout = StringIO()
    call_command("generate_profiles", count=25, out=str(out), seed=3, jsonresume_share=0.4, stdout=stdout)
    files = sorted(out.iterdir())
    assert len(files) == 25
    assert "Wrote 25 profile files" in stdout.getvalue()
    assert "files/s" in stdout.getvalue()
    again = tmp_path / "again"
    call_command("generate_profiles", "--count", "25", "--out", str(again), "--seed", "3", "--jsonresume-share",
                 "0.4", stdout=StringIO())  # fmt: skip
    assert [p.read_bytes() for p in files] == [p.read_bytes() for p in sorted(again.iterdir())]


def test_command_writes_what_the_generator_writes_for_the_seed(tmp_path):
    call_command("generate_profiles", "--count", "40", "--out", str(tmp_path / "command"), "--seed", "11",
                 stdout=StringIO())  # fmt: skip
    write_profiles(tmp_path / "direct", 40, seed=11)  # the README's default share, 0.2
    command = sorted((tmp_path / "command").iterdir())
    direct = sorted((tmp_path / "direct").iterdir())
    assert [p.name for p in command] == [p.name for p in direct]
    assert [p.read_bytes() for p in command] == [p.read_bytes() for p in direct]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"count": -1}, "--count must be 0 or more."),
        ({"count": 1, "jsonresume_share": 1.5}, "--jsonresume-share must be a number from 0 to 1."),
    ],
)
def test_command_refuses_bad_values(tmp_path, options, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("generate_profiles", out=str(tmp_path / "out"), stdout=StringIO(), **options)
    assert not (tmp_path / "out").exists()


def test_command_refuses_a_file_as_the_folder(tmp_path):
    target = tmp_path / "profiles.txt"
    target.write_text("not a folder", encoding="utf-8")
    with pytest.raises(CommandError, match="exists and is not a folder"):
        call_command("generate_profiles", count=1, out=str(target), stdout=StringIO())
    assert target.read_text(encoding="utf-8") == "not a folder"
