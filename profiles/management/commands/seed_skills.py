from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from profiles.models import Skill, SkillAlias
from profiles.services import skill_aliases_correct, skills_apply_curated, skills_seed_curated, skills_upsert
from profiles.shipped_vocabulary import SHIPPED_FILE, read_shipped
from profiles.vocabulary import contested_labels, read_vocabulary
from profiles.vocabulary_copy import skill_vocabulary_changed


class Command(BaseCommand):
    help = (
        "Seed canonical skills and aliases: the curated table (profiles/data/curated_skills.tsv), then the shipped "
        "vocabulary (profiles/data/vocabulary.tsv), or with --vocab the GitHub topics and Linguist languages of a "
        "folder; skills made of a curated label are merged into the curated skill."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--vocab",
            type=Path,
            default=None,
            help="Folder with github_topics_explore_defly.tsv, github_topic_aliases.tsv and linguist_languages.tsv "
            f"to seed instead of the shipped vocabulary ({SHIPPED_FILE.name})",
        )

    def handle(self, *args, vocab: Path | None, **options):
        if vocab is None:
            vocabulary = read_shipped()
        elif not vocab.is_dir():
            raise CommandError(f"--vocab {vocab}: no such folder (leave --vocab out to seed the shipped vocabulary)")
        else:
            vocabulary = read_vocabulary(vocab)
            if not vocabulary.skills:
                raise CommandError(
                    f"--vocab {vocab}: no github_topics_explore_defly.tsv, github_topics.txt or linguist_languages.tsv"
                )
        skills_seed_curated()
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
