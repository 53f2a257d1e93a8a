"""CPU per profile of the import stages the skill resolver runs in, no database: the labels resolved before the
chunk's skills are created (``document_label_keys``) and ``normalise``; and what building the resolver costs, once per
process and vocabulary version.

    DEBUG=1 .venv/bin/python bench/skill_resolution.py [--count 2000] [--seed 42]

Generates N synthetic JSON Resume profiles (``devtools.synthetic``), parses them with the shipped vocabulary, then
times the two stages in this process (``time.process_time``). Run it in two checkouts in turn to compare code.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
    import django

    django.setup()  # the models' column lengths; no database is opened

    from devtools.synthetic import write_profiles
    from ingestion.normalise import document_label_keys, normalise
    from ingestion.parsers import parse
    from profiles.shipped_vocabulary import read_shipped
    from profiles.vocabulary import seeded_vocabulary

    out = Path(tempfile.mkdtemp(prefix="talentdb-bench-skills-"))
    write_profiles(out, args.count, seed=args.seed)
    vocabulary = seeded_vocabulary(read_shipped())
    documents = [parse(path.read_bytes(), vocabulary=vocabulary.words) for path in sorted(out.iterdir())]

    # The code before the resolver took no vocabulary here: the script runs on it too, for a comparison.
    resolving = "vocabulary" in inspect.signature(document_label_keys).parameters
    started = time.process_time()
    if resolving:
        from profiles.skill_resolver import SkillResolver

        SkillResolver(vocabulary.slugs)
    build = time.process_time() - started
    started = time.process_time()
    document_label_keys(documents, vocabulary) if resolving else document_label_keys(documents)
    keys = time.process_time() - started
    started = time.process_time()
    for document in documents:
        normalise(document, vocabulary)
    stage = time.process_time() - started
    per = 1000 / len(documents)
    print(f"{len(documents)} profiles, {len(vocabulary.slugs):,} labels in the vocabulary")
    print(f"building the resolver         {build * 1000:8.0f} ms (once per process and vocabulary version)")
    print(f"labels resolved before create {keys * per:8.3f} ms a profile (the resolver built on first use)")
    print(f"normalise                     {stage * per:8.3f} ms a profile")


if __name__ == "__main__":
    main()
