from django.core.management.base import BaseCommand, CommandError

from profiles.selectors import skill_vocabulary_changed
from profiles.skills_reresolve import BATCH_SIZE, skills_reresolve


class Command(BaseCommand):
    help = (
        "Read the skill labels already stored again with the skill resolver, without reparsing any file: a label "
        "an import made a skill of ('Usage with Docker', 'Svelt') moves to the known skill it names, one that is no "
        "technology ('Teamwork') to the candidate's other skills as text. --dry-run prints what would change."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="print what would change and change nothing")
        parser.add_argument(
            "--batch-size", type=int, default=BATCH_SIZE, help=f"candidates per transaction (default {BATCH_SIZE})"
        )

    def handle(self, *args, dry_run: bool, batch_size: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        summary = skills_reresolve(
            dry_run=dry_run, batch_size=batch_size, progress=None if dry_run else self.stderr.write
        )
        for line in summary.changes if dry_run else ():
            self.stdout.write(line)
        verb = "would change" if dry_run else "changed"
        self.stdout.write(
            f"{summary.candidates} candidates {verb}: {summary.moved} labels to a known skill, "
            f"{summary.to_text} kept as text."
        )
        if summary.candidates and not dry_run:
            skill_vocabulary_changed()
