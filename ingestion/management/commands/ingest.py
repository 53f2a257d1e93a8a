import json
import time
import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from ingestion import services
from ingestion.documents import ParseError
from ingestion.file_budget import file_budget
from ingestion.loaders import preview_outcomes
from ingestion.models import ImportBatch, SourceFile
from ingestion.privacy import documents_refused
from profiles.vocabulary_copy import skill_vocabulary


class Command(BaseCommand):
    help = (
        "Import profile files (Prog.AI text exports, JSON Resume) from files or folders (recursive). "
        "Ends with: imported N, updated N, unchanged N, failed N."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path)
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--sync", action="store_true", help="Import in this process, without a broker or worker.")
        mode.add_argument(
            "--dry-run", action="store_true", help="Write nothing; print each file's parsed document as one JSON line."
        )
        parser.add_argument("--no-progress", action="store_true", help="Do not draw a progress bar.")
        parser.add_argument("--timeout", type=float, default=0, help="Stop waiting for workers after N seconds.")

    def handle(self, *args, paths, sync, dry_run, no_progress, timeout, **options):
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise CommandError(f"No such file or folder: {', '.join(missing)}")
        # A link may point anywhere (a shell's inbox/* hands planted ones over), a FIFO would block the read, a device
        # is not a profile: refused here; inside a folder they are skipped.
        links = [str(p) for p in paths if p.is_symlink()]
        if links:
            raise CommandError(f"A link, not a regular file or a folder (name its target instead): {', '.join(links)}")
        special = [str(p) for p in paths if not (p.is_dir() or p.is_file())]
        if special:
            raise CommandError(f"Not a regular file or a folder: {', '.join(special)}")
        if dry_run:
            return self._dry_run(paths)
        batch = services.batch_create(origin=ImportBatch.Origin.CLI)  # labelled by its size and time, not the paths
        batch = services.batch_receive(batch=batch, files=services.iter_folder(paths), enqueue=not sync)
        if sync:
            self._import_here(batch, no_progress)
        else:
            self._wait(batch, no_progress, timeout)
        summary = services.batch_summary(batch=batch)
        for name, error in summary.errors:
            self.stderr.write(f"{name}: {error}")
        self.stdout.write(summary.line())
        if summary.failed:
            raise SystemExit(1)

    def _import_here(self, batch: ImportBatch, no_progress: bool) -> None:
        token = uuid.uuid4().hex
        ids = list(batch.files.filter(status=SourceFile.Status.PENDING).order_by("pk").values_list("pk", flat=True))
        with tqdm(total=batch.total_files, initial=batch.duplicates, disable=no_progress, unit="file") as bar:
            for start in range(0, len(ids), 200):
                chunk = ids[start : start + 200]
                services.source_files_import(file_ids=chunk, token=token)
                bar.update(len(chunk))
        services.batch_finish_if_done(batch_id=batch.pk)

    def _wait(self, batch: ImportBatch, no_progress: bool, timeout: float) -> None:
        started = time.monotonic()
        with tqdm(total=batch.total_files, disable=no_progress, unit="file") as bar:
            while True:
                batch.refresh_from_db()
                progress = services.batch_progress(batch=batch)
                bar.update(progress["processed"] - bar.n)
                if progress["finished"]:
                    return
                if timeout and time.monotonic() - started > timeout:
                    raise CommandError(
                        f"Batch {batch.pk} is still running after {timeout:.0f} s "
                        f"({progress['processed']}/{progress['total']}); is a worker running?"
                    )
                time.sleep(0.5)

    def _dry_run(self, paths: list[Path]) -> None:
        vocabulary = skill_vocabulary()
        profiles, failed = [], 0
        for incoming in services.iter_folder(paths):
            budget = file_budget()  # as an import's: a file that reads too slowly fails with its message
            try:
                doc = services.document_parse(incoming.data, vocabulary, budget=budget)
                profile = services.document_normalise(doc, vocabulary, budget=budget)
            except ParseError as exc:
                failed += 1
                self.stdout.write(json.dumps({"file": incoming.name, "error": str(exc)}, ensure_ascii=False))
                continue
            # A file about an erased person is refused as the import would refuse it, and not printed.
            [refused] = documents_refused([doc])
            if refused:
                failed += 1
                self.stdout.write(json.dumps({"file": incoming.name, "error": refused}, ensure_ascii=False))
                continue
            profiles.append(profile)
            self.stdout.write(json.dumps({"file": incoming.name, **doc.to_dict()}, ensure_ascii=False))
        outcomes = preview_outcomes(profiles)
        self.stdout.write(
            f"imported {outcomes['created']}, updated {outcomes['updated']}, "
            f"unchanged {outcomes['unchanged']}, failed {failed}"
        )
        if failed:
            raise SystemExit(1)
