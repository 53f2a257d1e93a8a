"""The text beside a stored CV's parsed record: as an admin page reads it, kept or read again from the PDF.

    DEBUG=1 .venv/bin/python bench/cv_text_page.py [--runs 20]

Stores a two-page and a thirty-page fictional PDF CV (``devtools.cvs``) in a fresh database
``talentdb_bench_cv_text``, imports them, and times ``ingestion.selectors.source_file_text`` (what the file's page and
its text page call) with the text kept at the import, then with the kept text deleted, as for a file parsed before
texts were kept, which reads the PDF again: wall time in this process, the median of the runs. A reader with the
permission to see contact details reads the text whole; one without, with them withheld (a pass of the contact
patterns over the text).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _django

DATABASE = "talentdb_bench_cv_text"


def _median_ms(function, runs: int, before=None) -> float:
    times = []
    for _ in range(runs):
        if before:
            before()
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    _django.fresh_database(DATABASE)

    from devtools.cvs import cv_pdf, sample_cv
    from ingestion import services
    from ingestion.models import SourceFile, SourceFileText
    from ingestion.parsers import registry
    from ingestion.selectors import source_file_text

    cv = sample_cv()
    other = cv_pdf(dataclasses.replace(cv, name="Oskar Fenwright"))
    files = []
    for repeat in (1, 21):
        longer = dataclasses.replace(
            cv, sections=[(h, lines * repeat if h == "Experience" else lines) for h, lines in cv.sections]
        )
        files.append(services.IncomingFile(f"cv-{repeat}.pdf", cv_pdf(longer, columns=2)))
    batch = services.batch_create(origin="cli")
    services.batch_receive(batch=batch, files=files, enqueue=False)
    claim = f"bench-{time.time_ns()}"
    services.source_files_import(file_ids=list(batch.files.values_list("pk", flat=True)), token=claim)

    from django.contrib.auth.models import User

    recruiter = User.objects.create(username=f"bench-{claim}", is_superuser=True, is_staff=True)
    print("| PDF | reader | text kept at the import | read again from the PDF |")
    print("|---|---|---|---|")
    for source in SourceFile.objects.filter(batch=batch).order_by("size"):
        kept = {
            user: _median_ms(lambda source=source, user=user: source_file_text(source=source, user=user), args.runs)
            for user in (recruiter, None)
        }
        SourceFileText.objects.filter(source_file=source).delete()

        for user, who in ((recruiter, "sees contact details"), (None, "contact details withheld")):
            # Another file read between runs: the registry no longer holds this one's text, as in a web process.
            again = _median_ms(
                lambda source=source, user=user: source_file_text(source=source, user=user),
                args.runs,
                before=lambda: registry.reader_text(other),
            )
            print(f"| {source.size:,} bytes | {who} | {kept[user]:.1f} ms | {again:.1f} ms |")


if __name__ == "__main__":
    main()
