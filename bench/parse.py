"""Parsing CPU per profile, in this process: the first pass over N synthetic profiles (every cache of the parsers
cold, as a worker's first files) and a second pass over the same files (caches warm).

    DEBUG=1 .venv/bin/python bench/parse.py [--count 2000]

CPU time, not wall time, so that it stays comparable on a busy machine; the vocabulary is the seeded one of a fresh
database ``talentdb_bench_parse``. ``bench/ingest.py`` measures the pipeline end to end.
"""

from __future__ import annotations

import argparse
import contextlib
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _django

DATABASE = "talentdb_bench_parse"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--database", default=DATABASE, help="dropped and created afresh: one of its own for each concurrent run"
    )
    args = parser.parse_args()

    _django.fresh_database(args.database)
    from devtools.synthetic import write_profiles
    from ingestion.documents import ParseError
    from ingestion.parsers import parse
    from profiles.vocabulary_copy import skill_vocabulary

    folder = Path(tempfile.mkdtemp(prefix="talentdb-parse-"))
    write_profiles(folder, args.count, seed=args.seed)
    blobs = [path.read_bytes() for path in sorted(folder.iterdir())]
    vocabulary = skill_vocabulary().words
    for label in ("first pass (caches cold)", "second pass (caches warm)"):
        started = time.process_time()
        for blob in blobs:
            with contextlib.suppress(ParseError):
                parse(blob, vocabulary=vocabulary)
        print(f"{label:<28} {1000 * (time.process_time() - started) / len(blobs):6.3f} ms CPU per profile")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
