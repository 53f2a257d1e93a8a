"""List the skills imports created (labels no vocabulary knew), the most used first, for a curator to alias them."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from profiles.selectors import skills_created_by_imports
from profiles.vocabulary import CURATED_SKILLS, read_vocabulary


class Command(BaseCommand):
    help = (
        "List the skills that imports created for labels no vocabulary knew, by the number of candidates naming "
        "them, with the labels as files wrote them; merge one into the right skill in the admin (Skills, action "
        "'Merge the selected skill into another')."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--vocab", type=Path, default=settings.VOCAB_DIR, help="The seeded vocabulary's folder (default: VOCAB_DIR)"
        )
        parser.add_argument("--limit", type=int, default=100, help="At most this many skills (default 100; 0: all)")

    def handle(self, *args, vocab: Path, limit: int, **options):
        files = read_vocabulary(vocab)
        seeded = {slug for slug, _, _ in files.skills} | set(CURATED_SKILLS)
        created = skills_created_by_imports(seeded_slugs=seeded, limit=limit or None)
        if not created:
            self.stdout.write("No skill was created by imports: every label seen maps to a seeded skill.")
            return
        self.stdout.write(f"{'candidates':>10} {'repos':>5}  skill (kind): labels seen (candidates)")
        for skill in created:
            labels = ", ".join(f"{label!r} ({n})" for label, n in skill.labels) or "-"
            self.stdout.write(f"{skill.candidates:>10} {skill.repositories:>5}  {skill.slug} ({skill.kind}): {labels}")
