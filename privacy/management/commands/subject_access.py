import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from privacy.access import subject_access_report
from profiles.models import Candidate


class Command(BaseCommand):
    help = (
        "Answer an access request: everything stored about candidate ID (their source files' text included) as one "
        "JSON document, and a plain-text summary. With --out FILE, the JSON goes to FILE and the summary to FILE with "
        "the suffix .txt (both readable by their owner only) and is printed; without it the JSON is printed."
    )

    def add_arguments(self, parser):
        parser.add_argument("candidate_id", type=int)
        parser.add_argument("--out", type=Path, help="Where to write the JSON document.")

    def handle(self, *args, candidate_id, out, **options):
        try:
            document, summary = subject_access_report(candidate_id=candidate_id)
        except Candidate.DoesNotExist as exc:
            raise CommandError(f"No candidate {candidate_id}.") from exc
        text = json.dumps(document, indent=2, ensure_ascii=False)
        if out is None:
            self.stdout.write(text)
            return
        summary_path = out.with_suffix(".txt")
        _write_private(out, text + "\n")
        _write_private(summary_path, summary)
        self.stdout.write(summary)
        self.stderr.write(f"Wrote {out} and {summary_path}.")


def _write_private(path: Path, text: str) -> None:
    """Personal data: the file is its owner's alone (0600) from the moment it exists, not after a chmod."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # an existing file keeps its mode through O_CREAT
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
