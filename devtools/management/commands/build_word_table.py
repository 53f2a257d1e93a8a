"""Write the English word table of the glued-topic splitter (core/data/) from the pinned wordsegment package.

    python manage.py build_word_table [--out core/data]

Run it after upgrading wordsegment and commit the two files; tests/core/test_word_table.py fails until they match.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from core import topics


class Command(BaseCommand):
    help = "Write wordsegment's unigram counts as the word table core.topics reads (a marisa trie and its counts)."
    requires_system_checks: list[str] = []  # no database, no models

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", type=Path, default=topics.WORD_TABLE_DIR, help="folder to write into")

    def handle(self, *args, **options) -> None:
        topics.build_word_table(options["out"])
        for name in (topics.WORD_TRIE_FILE, topics.WORD_COUNTS_FILE):
            path = options["out"] / name
            self.stdout.write(f"{path} ({path.stat().st_size:,} bytes)")
