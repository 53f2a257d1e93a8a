"""How well job posts are read: required-skill recall and precision, years and country, over a folder of posts.

    .venv/bin/python bench/job_posts.py FOLDER [FOLDER ...] [--vocab DIR] [--verbose]

Each ``NAME.txt`` with a ``NAME.expected.json`` beside it (the format of ``shared/corpus/jobs/README.md``) is read by
``jobs.criteria.extract_criteria`` with the shipped vocabulary (``profiles/data/vocabulary.tsv``; ``--vocab``: a
folder of vocabulary files as ``seed_skills --vocab`` reads them) and the cities of ``tests.jobs.helpers.CITIES``.
No database. Printed per folder and over all:

- required recall: the expected required skills found as required, and counting those found as preferred;
- precision: the skills found as required that the expected file names (required, preferred or an area);
- non-skills: words of ``not_skills`` that came out as a skill (required or preferred);
- years and country: posts where ``min_years`` and the country are right. An expected file may give
  ``countries`` (a list) instead of ``country`` for a post open in several countries.

``--verbose`` lists each post's mistakes.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


@dataclass
class Score:
    posts: int = 0
    required: int = 0
    found_required: int = 0
    found_any: int = 0
    extracted: int = 0
    correct: int = 0
    non_skills: int = 0
    years_right: int = 0
    country_right: int = 0
    mistakes: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for name in ("posts", "required", "found_required", "found_any", "extracted", "correct", "non_skills"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.years_right += other.years_right
        self.country_right += other.country_right

    def line(self, label: str) -> str:
        def ratio(part: int, whole: int) -> str:
            return f"{part / whole:.2f}" if whole else "-"

        return (
            f"| {label} | {self.posts} | {ratio(self.found_required, self.required)} | "
            f"{ratio(self.found_any, self.required)} | {ratio(self.correct, self.extracted)} | {self.non_skills} | "
            f"{self.years_right}/{self.posts} | {self.country_right}/{self.posts} |"
        )


def expected_countries(expected: dict) -> list[str]:
    if "countries" in expected:
        return sorted(expected["countries"])
    return [expected["country"]] if expected.get("country") else []


def score_post(criteria, expected: dict, name: str) -> Score:
    score = Score(posts=1)
    required = [slug for slug, _ in criteria.required]
    named = set(required) | set(criteria.preferred)
    for group in expected["required"]:
        score.required += 1
        if set(group) & set(required):
            score.found_required += 1
            score.found_any += 1
        elif set(group) & named:
            score.found_any += 1
            score.mistakes.append(f"{name}: required {group[0]} read as preferred")
        else:
            score.mistakes.append(f"{name}: required {group[0]} missed")
    known = {slug for group in expected["required"] + expected["preferred"] for slug in group}
    known |= set(expected.get("areas", []))
    for slug in required:
        score.extracted += 1
        if slug in known:
            score.correct += 1
        else:
            score.mistakes.append(f"{name}: {slug} required, not expected")
    for slug in expected["not_skills"]:
        if slug in named:
            score.non_skills += 1
            score.mistakes.append(f"{name}: {slug} is no skill")
    if criteria.min_years_coding == expected["min_years"]:
        score.years_right = 1
    else:
        score.mistakes.append(f"{name}: years {criteria.min_years_coding}, expected {expected['min_years']}")
    if sorted(criteria.countries) == expected_countries(expected):
        score.country_right = 1
    else:
        score.mistakes.append(f"{name}: countries {list(criteria.countries)}, expected {expected_countries(expected)}")
    return score


def vocabulary_for(vocab_dir: Path | None):
    from profiles.shipped_vocabulary import read_shipped
    from profiles.vocabulary import read_vocabulary, seeded_vocabulary

    return seeded_vocabulary(read_vocabulary(vocab_dir) if vocab_dir else read_shipped())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--vocab", type=Path, help="a folder of vocabulary files (default: the shipped vocabulary)")
    parser.add_argument("--verbose", action="store_true", help="list each post's mistakes")
    args = parser.parse_args()

    from jobs.criteria import extract_criteria
    from tests.jobs.helpers import CITIES

    vocabulary = vocabulary_for(args.vocab)
    total = Score()
    print("| folder | posts | required recall | counting preferred | precision | non-skills | years | country |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    mistakes = []
    for folder in args.folders:
        score = Score()
        for path in sorted(folder.glob("*.txt")):
            expected_path = path.with_suffix(".expected.json")
            if not expected_path.exists():
                continue
            expected = json.loads(expected_path.read_text(encoding="utf-8"))
            criteria = extract_criteria(path.read_text(encoding="utf-8"), vocabulary, cities=CITIES)
            post = score_post(criteria, expected, path.stem)
            score.add(post)
            mistakes += post.mistakes
        print(score.line(str(folder)))
        total.add(score)
    if len(args.folders) > 1:
        print(total.line("all"))
    if args.verbose:
        print("\n" + "\n".join(mistakes))


if __name__ == "__main__":
    main()
