from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from privacy import retention

PAST = {retention.ERASE: "erased", retention.ANONYMISE: "anonymised"}


class Command(BaseCommand):
    help = (
        "Retire the candidates with no activity for RETENTION_DAYS who are in no open job's pipeline, as "
        "RETENTION_ACTION says (erase or anonymise); one line per candidate (id, name, last change), then the count. "
        "With --dry-run, list them and change nothing: the same list the run without it works through."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="List who would go; change nothing.")

    def handle(self, *args, dry_run, **options):
        action = retention.retention_action()
        now = timezone.now()
        expired = retention.expired_candidates(now=now)
        cutoff = retention.retention_cutoff(now)
        self.stderr.write(
            f"Retention: {settings.RETENTION_DAYS} days without activity (before {cutoff:%Y-%m-%d %H:%M %Z}), "
            f"action {action}."
        )
        listed = 0
        for pk, name, updated_at in expired.values_list("pk", "name", "updated_at").iterator(chunk_size=2000):
            self.stdout.write(f"{pk}\t{name}\t{updated_at:%Y-%m-%d}")
            listed += 1
        if dry_run:
            self.stdout.write(f"{_people(listed)} would be {PAST[action]} (dry run: nothing changed).")
            return
        # The same selection, at the same moment: what was listed is what goes, less any candidate active since.
        report = retention.retention_apply(now=now)
        done = report.counts[PAST[action]]
        self.stdout.write(f"{_people(done)} {PAST[action]}; reported as a privacy event (retention).")


def _people(n: int) -> str:
    return f"{n} candidate" if n == 1 else f"{n} candidates"
