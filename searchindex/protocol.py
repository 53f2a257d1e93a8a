"""The JSON lines between a web process (searchindex.client) and the index process (searchindex.server): a ranking
request's query and cut, written and read back. Its own module, so that asking the index loads no more than the
request's types: the index's builder and its text engine stay in the index process."""

from __future__ import annotations

import dataclasses
import datetime as dt

from searchindex.rank import Cut, Formula, Preferred, RankQuery, Required


def encode_query(query: RankQuery) -> dict:
    data = dataclasses.asdict(query)
    data["today"] = query.today.isoformat()
    return data


def decode_query(data: dict) -> RankQuery:
    return RankQuery(
        formula=Formula(**data["formula"]),
        required=tuple(
            Required(r["skill_id"], r["min_score"], tuple(r["stand_ins"]), r["short_credit"]) for r in data["required"]
        ),
        preferred=tuple(Preferred(p["skill_id"], tuple(p["stand_ins"])) for p in data["preferred"]),
        excluded=tuple(data["excluded"]),
        topics=tuple(data["topics"]),
        keywords=tuple(data["keywords"]),
        min_years=data["min_years"],
        countries=tuple(data["countries"]),
        place=tuple(data["place"]),
        strict=data["strict"],
        today=dt.date.fromisoformat(data["today"]),
        exclude_ids=tuple(data["exclude_ids"]),
    )


def encode_cut(cut: Cut) -> dict:
    return dataclasses.asdict(cut)


def decode_cut(data: dict) -> Cut:
    after = tuple(data["after"]) if data.get("after") is not None else None
    return Cut(limit=data["limit"], offset=data.get("offset", 0), after=after, before=data.get("before", False))
