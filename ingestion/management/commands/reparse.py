import uuid

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ingestion import services
from ingestion.models import SourceFile


class Command(BaseCommand):
    help = (
        "Send stored source files through the parser and loader again (all failed ones, or the given ids); with "
        "--all, rebuild every candidate from its stored files. Ends with: imported N, updated N, unchanged N, failed N."
    )

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="Source file ids (default: every failed file).")
        parser.add_argument(
            "--all",
            action="store_true",
            dest="rebuild_all",
            help="Rebuild every candidate from all its stored files, rewriting it even when the files are unchanged "
            "(jobs, languages and study dates for data loaded by older code). Protected fields stay as edited.",
        )
        parser.add_argument("--sync", action="store_true", help="Re-import in this process instead of a worker.")

    def handle(self, *args, ids, rebuild_all, sync, **options):
        if rebuild_all:
            if ids:
                raise CommandError("Give either source file ids or --all, not both.")
            self._rebuild_all(sync=sync)
            return
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

    def _rebuild_all(self, *, sync: bool) -> None:
        candidates, total, kept = services.rebuild_totals()
        note = f"; {kept} candidates merged or edited by hand are kept as they are" if kept else ""
        self.stdout.write(f"Rebuilding {candidates} candidates from {total} stored files{note}.")
        # A chunk is INGEST_CHUNK_SIZE candidates with all their files: one transaction, or one task, each.
        chunks = services.rebuild_chunks(size=settings.INGEST_CHUNK_SIZE)
        if not sync:
            files = tasks = 0
            for chunk in chunks:
                services.source_files_rebuild_enqueue(file_ids=chunk)
                files, tasks = files + len(chunk), tasks + 1
            self.stdout.write(f"Queued {files} files of {candidates} candidates for rebuilding, in {tasks} tasks.")
            return
        summary, token, done = services.ImportSummary(), uuid.uuid4().hex, 0
        for chunk in chunks:
            summary.add(services.source_files_rebuild(file_ids=chunk, token=token))
            done += len(chunk)
            self.stdout.write(f"{done} of {total} files: {summary.line()}")
        self.stdout.write(summary.line())
        if summary.failed:
            raise SystemExit(1)
