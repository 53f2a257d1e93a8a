"""Column lengths, read from the models: text clipped to them (with a warning), and labels that fit the alias
column."""

from __future__ import annotations

import functools

from django.db.models import Model

from profiles.models import SkillAlias

__all__ = ["clip", "clip_all", "max_length", "usable"]


@functools.cache
def max_length(model: type[Model], field_name: str) -> int | None:
    """The column's length, read from the model: a column widened in a migration is clipped at its new length."""
    target = model._meta.get_field(field_name)
    return getattr(target, "base_field", target).max_length  # an array's elements have the length


def clip(model: type[Model], field_name: str, value: str, warnings: list[str], what: str = "") -> str:
    limit = max_length(model, field_name)
    if limit and len(value) > limit:
        subject = what or f"{model._meta.verbose_name} {field_name}"
        warnings.append(f"{subject} was {len(value)} characters; cut to {limit}.")
        return value[:limit]
    return value


def clip_all(model: type[Model], field_name: str, values: list[str], warnings: list[str], what: str) -> list[str]:
    return [clip(model, field_name, value, warnings, what) for value in values]


def usable(key: str) -> bool:
    """A label key the alias table can hold: not empty, and not longer than its column."""
    return bool(key) and len(key) <= max_length(SkillAlias, "label")
