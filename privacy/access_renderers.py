"""How the access report shows the rows of tables other apps own: renderers the apps above this one register.

``privacy.access`` gives every column of every row that refers to the person, as the database holds it. Some columns
are not for a person to read as they are: a stored PDF's bytes are its PDF source, not the CV's text, and only the
app that reads the file (``ingestion``, which this app may not import) knows its text. Such an app registers, in its
``AppConfig.ready``, a renderer for its access-report section: a function given the section's rows (JSON-ready dicts,
every column) that returns them as the report shows them. Registering a section again replaces its renderer (an
app's ``ready`` may run twice in tests).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["SectionRenderer", "access_renderer_register", "access_renderers"]

SectionRenderer = Callable[[list[dict]], list[dict]]
_RENDERERS: dict[str, SectionRenderer] = {}


def access_renderer_register(section: str, render: SectionRenderer) -> None:
    """Show the rows of the access report's ``section`` as ``render`` returns them."""
    _RENDERERS[section] = render


def access_renderers() -> dict[str, SectionRenderer]:
    """Every registered renderer, by the access report's section name."""
    return dict(_RENDERERS)
