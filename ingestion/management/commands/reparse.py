import uuid

from django.core.management.base import BaseCommand, CommandError

from ingestion import services
from ingestion.models import SourceFile


class Command(BaseCommand):
    help = "Send stored source files through the parser and loader again (all failed ones, or the given ids)."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="Source file ids (default: every failed file).")
        parser.add_argument("--sync", action="store_true", help="Re-import in this process instead of a worker.")

    def handle(self, *args, ids, sync, **options):
        files = (
            SourceFile.objects.filter(pk__in=ids) if ids else SourceFile.objects.filter(status=SourceFile.Status.FAILED)
        )
        chosen = sorted(files.values_list("pk", flat=True))
        if ids and len(chosen) != len(set(ids)):
            raise CommandError(f"Unknown source file ids: {sorted(set(ids) - set(chosen))}")
        if sync:
            summary, token = services.ImportSummary(), uuid.uuid4().hex
            SourceFile.objects.filter(pk__in=chosen).update(status=SourceFile.Status.PENDING, claimed_by="")
            for start in range(0, len(chosen), 200):
                summary.add(services.source_files_import(file_ids=chosen[start : start + 200], token=token))
            self.stdout.write(summary.line())
        else:
            self.stdout.write(f"Queued {services.source_files_requeue(file_ids=chosen)} files for re-import.")
