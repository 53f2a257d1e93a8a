"""Write fictional developer profiles (Prog.AI text exports and JSON Resume files) for benchmarks and demos.

    python manage.py generate_profiles --count 100000 --out var/profiles --seed 1 [--jsonresume-share 0.2]

Needs no database: the files come from devtools.synthetic, deterministic for a seed.
"""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from devtools.synthetic import write_profiles


def _share(value: str) -> float:
    share = float(value)
    if not 0.0 <= share <= 1.0:
        raise ValueError(value)
    return share


class Command(BaseCommand):
    help = "Write N fictional developer profiles (Prog.AI text exports and JSON Resume files) into a folder."
    requires_system_checks: list[str] = []  # no database, no models: runs while the rest of the project is down

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--count", type=int, required=True, help="how many profile files to write")
        parser.add_argument("--out", type=Path, required=True, help="folder to write into (created if missing)")
        parser.add_argument("--seed", type=int, default=0, help="random seed: the same seed writes the same files")
        parser.add_argument(
            "--jsonresume-share",
            type=_share,
            default=0.2,
            help="share of the files written as JSON Resume instead of Prog.AI text, 0 to 1 (default 0.2)",
        )

    def handle(self, *args, **options) -> None:
        # call_command(count=..., out=...) skips the argparse types: convert and check here too.
        count = int(options["count"])
        if count < 0:
            raise CommandError("--count must be 0 or more.")
        try:
            share = _share(str(options["jsonresume_share"]))
        except ValueError:
            raise CommandError("--jsonresume-share must be a number from 0 to 1.") from None
        out = Path(options["out"])
        if out.exists() and not out.is_dir():
            raise CommandError(f"{out} exists and is not a folder.")
        started = time.perf_counter()
        written = write_profiles(out, count, seed=int(options["seed"]), jsonresume_share=share)
        elapsed = time.perf_counter() - started
        rate = written / elapsed if elapsed > 0 else 0.0
        self.stdout.write(f"Wrote {written} profile files to {out} in {elapsed:.2f} s ({rate:,.0f} files/s).")
