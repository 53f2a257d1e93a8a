from django.core.management.base import BaseCommand, CommandError

from profiles.skills_reresolve import BATCH_SIZE, skills_reresolve, skills_reresolve_undo
from profiles.vocabulary_copy import skill_vocabulary_changed


class Command(BaseCommand):
    help = (
        "Read the skill labels already stored again with the skill resolver, without reparsing any file: a label on "
        "a skill an import made ('Usage with Docker') moves to the known skill it names, one that is no technology "
        "('Teamwork') to the candidate's other skills as text; misspellings ('Svelt') are only listed, for a curator. "
        "Skills a curator created or edited are left alone. Every move is recorded: --undo puts them all back. "
        "--dry-run prints what would change."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="print what would change and change nothing")
        parser.add_argument("--undo", action="store_true", help="put back every move the recorded runs made")
        parser.add_argument(
            "--batch-size", type=int, default=BATCH_SIZE, help=f"candidates per transaction (default {BATCH_SIZE})"
        )

    def handle(self, *args, dry_run: bool, undo: bool, batch_size: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        if undo:
            if dry_run:
                raise CommandError("--undo has no dry run")
            self.stdout.write(f"{skills_reresolve_undo(batch_size=batch_size)} moves undone.")
            skill_vocabulary_changed()
            return
        summary = skills_reresolve(
            dry_run=dry_run, batch_size=batch_size, progress=None if dry_run else self.stderr.write
        )
        for line in summary.changes if dry_run else ():
            self.stdout.write(line)
        if summary.for_curator:
            self.stdout.write(
                "Not moved, for a curator to merge in the admin where the reading is right (misspellings, phrases "
                "naming several skills):"
            )
            for line, candidates in summary.for_curator.items():
                self.stdout.write(f"  {line}: {candidates} candidate{'' if candidates == 1 else 's'}")
        verb = "would change" if dry_run else "changed"
        self.stdout.write(
            f"{summary.candidates} candidates {verb}: {summary.moved} labels to a known skill, "
            f"{summary.to_text} kept as text, {len(summary.for_curator)} listed for a curator."
        )
        if summary.candidates and not dry_run:
            skill_vocabulary_changed()
