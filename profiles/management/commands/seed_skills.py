from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from profiles.models import Skill, SkillAlias
from profiles.selectors import skill_vocabulary_changed
from profiles.services import skill_aliases_correct, skills_apply_curated, skills_seed_curated, skills_upsert
from profiles.vocabulary import contested_labels, read_vocabulary


class Command(BaseCommand):
    help = (
        "Seed canonical skills and aliases: the curated table (profiles/data/curated_skills.tsv) plus GitHub topics "
        "and Linguist languages; skills made of a curated label are merged into the curated skill."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--vocab",
            type=Path,
            default=settings.VOCAB_DIR,
            help="Folder with github_topics_explore_defly.tsv, github_topic_aliases.tsv and "
            "linguist_languages.tsv (default: VOCAB_DIR)",
        )

    def handle(self, *args, vocab: Path, **options):
        skills_seed_curated()
        vocabulary = read_vocabulary(vocab)
        if not vocabulary.skills:
            self.stderr.write(f"No vocabulary files in {vocab}; seeded the curated aliases only.")
        skills_upsert(skills=vocabulary.skills, aliases=vocabulary.aliases)
        # Existing rows win over a seed, except where an older seed took a label for the wrong skill.
        contests = contested_labels(vocabulary)
        moved = skill_aliases_correct(
            corrections=[(c.label, wrong, c.slug) for c in contests if c.reason for wrong in c.others]
        )
        # Last, so that the curated table's names and aliases win over the files' (it says so where it names a label).
        curated = skills_apply_curated()
        skill_vocabulary_changed()
        self.stdout.write(f"{Skill.objects.count()} skills, {SkillAlias.objects.count()} aliases")
        if moved:
            self.stdout.write(f"{moved} aliases that led to the wrong skill now lead to the right one")
        if curated.merged:
            merged = ", ".join(f"{source} → {target}" for source, target in curated.merged)
            self.stdout.write(f"Merged into their curated skill: {merged}")
        if curated.aliases or curated.renamed:
            self.stdout.write(
                f"Curated table: {curated.aliases} aliases now lead to their skill, {curated.renamed} skills renamed"
            )
