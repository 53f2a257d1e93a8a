"""Per-file caps: a document held to ``Limits`` before anything of it is looked up in the database (the lookups
create the skills and repositories every profile shares, which one file must not flood)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ingestion.documents import ParseError, PositionEntry, ProfileDocument
from ingestion.normalise.skills import document_label_keys

__all__ = ["Limits", "apply_limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one file may hold (the service builds it from the ``INGEST_MAX_*`` settings).

    Past a cap on what becomes shared rows (``skills``: the different skill, language and topic labels, each of which
    may become a skill every profile shares; ``contributions``: the repositories) the file fails: a list that long is
    no one person's profile, and its first entries would pass a wrong profile for a true one. Past a cap on what only
    the profile holds (``entries``: education, badges, awards, spoken languages, profile URLs, jobs and each job's
    highlights; ``text_chars``: a summary, a contribution's or a job's summary, a highlight, a repository's
    description) the rest is cut, with a warning.
    """

    skills: int
    contributions: int
    entries: int
    text_chars: int


def apply_limits(document: ProfileDocument, limits: Limits) -> ProfileDocument:
    """``document`` fitted to ``limits`` (a copy; cuts are warnings), or ``ParseError`` for a file past a count cap.

    Run before the document's labels and repositories are looked up: those lookups create the shared rows.
    """
    skill_keys, topic_keys = document_label_keys([document])
    if (labels := len(skill_keys | topic_keys)) > limits.skills:
        raise ParseError(
            f"The profile names {labels:,} different skills, programming languages and topics; at most "
            f"{limits.skills:,} are accepted per file."
        )
    if (repositories := len(document.contributions)) > limits.contributions:
        raise ParseError(
            f"The profile lists {repositories:,} repositories; at most {limits.contributions:,} are accepted per file."
        )
    warnings = list(document.warnings)
    lists = {}
    for name, what in (
        ("education", "education entries"),
        ("badges", "badges"),
        ("awards", "awards"),
        ("spoken_languages", "spoken languages"),
        ("positions", "jobs"),
    ):
        entries = getattr(document, name)
        if len(entries) > limits.entries:
            warnings.append(f"The profile lists {len(entries):,} {what}; the first {limits.entries:,} were kept.")
            lists[name] = entries[: limits.entries]
    if len(document.languages) > limits.entries:  # the entries behind spoken_languages, cut with them (one warning)
        lists["languages"] = document.languages[: limits.entries]
    identifiers = document.identifiers
    if len(identifiers.urls) > limits.entries:  # each is an identity key, looked up and locked by every load
        warnings.append(
            f"The profile lists {len(identifiers.urls):,} profile URLs; the first {limits.entries:,} were kept."
        )
        identifiers = dataclasses.replace(identifiers, urls=identifiers.urls[: limits.entries])
    cap = limits.text_chars
    summary = document.summary
    if len(summary) > cap:
        warnings.append(f"The summary was {len(summary):,} characters; cut to {cap:,}.")
        summary = summary[:cap]
    contributions, cut = [], 0
    for entry in document.contributions:
        if len(entry.summary) > cap or len(entry.repository_description) > cap:
            cut += (len(entry.summary) > cap) + (len(entry.repository_description) > cap)
            entry = dataclasses.replace(
                entry, summary=entry.summary[:cap], repository_description=entry.repository_description[:cap]
            )
        contributions.append(entry)
    if cut:
        warnings.append(
            f"{cut:,} contribution summaries or repository descriptions were longer than {cap:,} characters; "
            f"each was cut to {cap:,}."
        )
    positions = _positions_within(lists.get("positions", document.positions), limits, warnings)
    if len(warnings) == len(document.warnings):
        return document
    return dataclasses.replace(
        document,
        summary=summary,
        contributions=contributions,
        identifiers=identifiers,
        warnings=warnings,
        **{**lists, "positions": positions},
    )


def _positions_within(positions: list[PositionEntry], limits: Limits, warnings: list[str]) -> list[PositionEntry]:
    """The jobs with at most ``limits.entries`` highlights each and texts of at most ``limits.text_chars``."""
    cap, out, cut, long_lists = limits.text_chars, [], 0, 0
    for entry in positions:
        highlights = entry.highlights
        if len(highlights) > limits.entries:
            long_lists += 1
            highlights = highlights[: limits.entries]
        texts = [entry.summary, *highlights]
        if any(len(text) > cap for text in texts) or highlights is not entry.highlights:
            cut += any(len(text) > cap for text in texts)
            entry = dataclasses.replace(
                entry, summary=entry.summary[:cap], highlights=[text[:cap] for text in highlights]
            )
        out.append(entry)
    if cut:
        warnings.append(
            f"{cut:,} job summaries or highlights were longer than {cap:,} characters; each was cut to {cap:,}."
        )
    if long_lists:
        warnings.append(
            f"{long_lists:,} jobs list more than {limits.entries:,} highlights; the first {limits.entries:,} of each "
            "were kept."
        )
    return out
