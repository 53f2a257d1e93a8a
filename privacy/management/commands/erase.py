from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from privacy import services
from profiles.models import Candidate


class Command(BaseCommand):
    help = (
        "Erase candidates: delete everything held about them and keep suppression records, so later files about them "
        "are refused. Prints the counts of what went, never a name."
    )

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="+", type=int, help="Candidate ids.")
        parser.add_argument(
            "--by", metavar="USERNAME", help="Who erases (recorded); a privacy officer or a superuser. Default: nobody."
        )

    def handle(self, *args, ids, by, **options):
        user = None
        if by:
            user = get_user_model().objects.filter(username=by).first()
            if user is None:
                raise CommandError(f"No user named {by!r}.")
            if not user.is_active or not user.has_perm("privacy.erase_candidate"):
                raise CommandError(f"{by} may not erase candidates (a privacy officer or a superuser may).")
        candidates = {candidate.pk: candidate for candidate in Candidate.objects.filter(pk__in=ids)}
        missing = sorted(set(ids) - set(candidates))
        if missing:
            raise CommandError(f"No candidate with id {', '.join(map(str, missing))}; nothing was erased.")
        for pk in dict.fromkeys(ids):
            event = services.candidate_erase(candidate=candidates[pk], user=user)
            counts = ", ".join(f"{name.replace('_', ' ')} {count}" for name, count in event.counts.items())
            self.stdout.write(f"Erased candidate #{pk}: {counts}.")
            to_review = event.to_review.get("source_files", [])
            if to_review:
                files = ", ".join(f"#{file_id}" for file_id in to_review)
                self.stdout.write(f"  Failed files naming them that may be someone else's, to look at: {files}.")
