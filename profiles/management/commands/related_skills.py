"""Recompute the related skills now, as Beat does every RELATED_SKILLS_REFRESH_INTERVAL_SECONDS."""

from django.core.management.base import BaseCommand

from profiles.services import related_skills_refresh


class Command(BaseCommand):
    help = "Recompute which skills go together (co-occurrence over the candidates' skills, with lift and support)."

    def add_arguments(self, parser):
        parser.add_argument("--min-score", type=int, help="a candidate's skill counts from this score (0-10)")
        parser.add_argument("--min-support", type=int, help="candidates a pair needs")
        parser.add_argument("--min-lift", type=float, help="lift a pair needs (1.0 is chance)")
        parser.add_argument("--per-skill", type=int, help="related skills kept per skill")

    def handle(self, *args, **options):
        result = related_skills_refresh(
            min_score=options["min_score"],
            min_support=options["min_support"],
            min_lift=options["min_lift"],
            per_skill=options["per_skill"],
        )
        self.stdout.write(result.line())
