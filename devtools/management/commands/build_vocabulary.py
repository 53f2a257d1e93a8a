"""Build the shipped vocabulary (profiles/data/vocabulary.tsv) from the openly licensed lists of a folder laid out like
shared/corpus/vocab, offline:

    python manage.py build_vocabulary [--corpus ../shared/corpus/vocab] [--out profiles/data/vocabulary.tsv] [--check]

Commit the table it writes; tests/profiles/test_shipped_vocabulary.py fails until the committed table is what this
builds. ``--check`` writes nothing and fails when the table differs.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from devtools.vocabulary.build import build, curated_agrees, render
from profiles.shipped_vocabulary import SHIPPED_FILE


class Command(BaseCommand):
    help = "Build profiles/data/vocabulary.tsv from GitHub topics, Linguist languages and Stack Overflow tags."
    requires_system_checks: list[str] = []  # no database, no models

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--corpus",
            type=Path,
            default=settings.BASE_DIR.parent / "shared" / "corpus" / "vocab",
            help="folder with the public lists (default: ../shared/corpus/vocab)",
        )
        parser.add_argument("--out", type=Path, default=SHIPPED_FILE, help="the table to write")
        parser.add_argument("--check", action="store_true", help="write nothing; fail if the table differs")

    def handle(self, *args, corpus: Path, out: Path, check: bool, **options) -> None:
        if not (corpus / "stackoverflow_tags.tsv").is_file():
            raise CommandError(f"No stackoverflow_tags.tsv in {corpus}: give the folder of the public lists (--corpus)")
        rows = build(corpus)
        if disagreeing := curated_agrees(rows):
            raise CommandError(f"The curated table's labels lead elsewhere: {', '.join(disagreeing)}")
        text = render(rows)
        if check:
            if not out.is_file() or out.read_text(encoding="utf-8") != text:
                raise CommandError(f"{out} is not what the build gives: run build_vocabulary and commit it")
            self.stdout.write(f"{out} is up to date ({len(rows)} skills)")
            return
        out.write_text(text, encoding="utf-8", newline="\n")
        aliases = sum(len(row.aliases) for row in rows)
        self.stdout.write(f"{out}: {len(rows)} skills, {aliases} aliases")
