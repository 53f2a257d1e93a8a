"""List what a curator of the skills should look at: the skills imports created (labels no vocabulary knew), the most
used first, and the pairs of skills that look like one technology ("vue" and "vuejs"), for a curator to alias or merge
them."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from profiles.selectors import skills_created_by_imports
from profiles.skill_pairs import PairedSkill, skill_pairs, vocabulary_slugs
from profiles.vocabulary import read_vocabulary


def _described(skill: PairedSkill) -> str:
    candidates = f"{skill.candidates} candidate" + ("" if skill.candidates == 1 else "s")
    return f"{skill.slug} ({candidates}{', in the vocabulary' if skill.in_vocabulary else ''})"


class Command(BaseCommand):
    help = (
        "List the skills that imports created for labels no vocabulary knew, by the number of candidates naming "
        "them, with the labels as files wrote them, then the pairs of skills that look like one technology (vue and "
        "vuejs, travis and travis-ci), each with the skill it would be merged into. Merge in the admin: Skills, "
        "'Look-alike skills' for the pairs, or the action 'Merge the selected skills into another'."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--vocab", type=Path, default=settings.VOCAB_DIR, help="The seeded vocabulary's folder (default: VOCAB_DIR)"
        )
        parser.add_argument("--limit", type=int, default=100, help="At most this many skills (default 100; 0: all)")

    def handle(self, *args, vocab: Path, limit: int, **options):
        self._created(vocab, limit)
        self._pairs(limit)

    def _created(self, vocab: Path, limit: int) -> None:
        # The product's vocabulary, and the folder's when there is one (``seed_skills --vocab``).
        seeded = set(vocabulary_slugs())
        if vocab.is_dir():
            seeded |= {slug for slug, _, _ in read_vocabulary(vocab).skills}
        created = skills_created_by_imports(seeded_slugs=seeded, limit=limit or None)
        if not created:
            self.stdout.write("No skill was created by imports: every label seen maps to a seeded skill.")
            return
        self.stdout.write(f"{'candidates':>10} {'repos':>5}  skill (kind): labels seen (candidates)")
        for skill in created:
            labels = ", ".join(f"{label!r} ({n})" for label, n in skill.labels) or "-"
            self.stdout.write(f"{skill.candidates:>10} {skill.repositories:>5}  {skill.slug} ({skill.kind}): {labels}")

    def _pairs(self, limit: int) -> None:
        pairs = skill_pairs()
        self.stdout.write("")  # the pairs are a section of their own, after the skills imports created
        if not pairs:
            self.stdout.write("No two skills look like one technology.")
            return
        self.stdout.write(f"Skills that look like one technology ({len(pairs)}): skill → the skill it would become")
        for pair in pairs[: limit or None]:
            self.stdout.write(f"  {_described(pair.source)} → {_described(pair.target)}")
        if limit and len(pairs) > limit:
            self.stdout.write(f"  … and {len(pairs) - limit} more (--limit 0 lists them all)")
