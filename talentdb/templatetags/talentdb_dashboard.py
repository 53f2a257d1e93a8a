"""The admin index's dashboard: figures from ``talentdb.dashboard`` and server-side SVG bar charts."""

from __future__ import annotations

from django import template

from talentdb.dashboard import dashboard as dashboard_figures

register = template.Library()

BAR_AREA = 300  # px of the longest bar
ROW_HEIGHT = 22


def bar_chart(rows: list[tuple[str, int]]) -> dict:
    """Geometry of a horizontal bar chart; labels stay text for the template to escape."""
    top = max((n for _, n in rows), default=0) or 1
    bars = [
        {"label": str(label), "count": n, "width": max(1, round(BAR_AREA * n / top)), "y": i * ROW_HEIGHT}
        for i, (label, n) in enumerate(rows)
    ]
    return {"bars": bars, "height": max(ROW_HEIGHT, len(bars) * ROW_HEIGHT), "row": ROW_HEIGHT}


@register.inclusion_tag("admin/includes/dashboard.html", takes_context=True)
def dashboard(context) -> dict:
    request = context["request"]
    if not request.user.has_perm("profiles.view_candidate"):
        return {"show": False}
    figures = dashboard_figures(user=request.user)
    return {
        "show": True,
        "figures": figures,
        "skills_chart": bar_chart(figures.top_skills),
        "countries_chart": bar_chart(figures.countries),
        "can_view_imports": request.user.has_perm("ingestion.view_sourcefile"),
    }
