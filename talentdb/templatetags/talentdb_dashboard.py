"""The admin index's dashboard: figures from ``talentdb.dashboard`` and server-side SVG bar charts."""

from __future__ import annotations

import datetime as dt

from django import template

from talentdb.dashboard import dashboard as dashboard_figures

register = template.Library()

BAR_AREA = 300  # px of the longest bar, where a chart has a fixed width
LABELS_END, BARS_START, BARS_SPAN = 34, 36, 54  # percent of a bar chart's width
ROW_HEIGHT = 22


def bar_chart(rows: list[tuple[str, int]]) -> dict:
    """Geometry of a horizontal bar chart; labels stay text for the template to escape."""
    top = max((n for _, n in rows), default=0) or 1
    bars = [
        {
            "label": str(label),
            "count": n,
            "width": max(1, round(BAR_AREA * n / top)),
            # As shares of the chart's width, which is its box's: the labels end at LABELS_END, the bars start at
            # BARS_START and the longest spans BARS_SPAN, the count follows its bar.
            "share": round(100 * n / top),
            "bar_width": f"{max(0.3, BARS_SPAN * n / top):.1f}",
            "count_x": f"{BARS_START + BARS_SPAN * n / top:.1f}",
            "y": i * ROW_HEIGHT,
        }
        for i, (label, n) in enumerate(rows)
    ]
    return {
        "bars": bars,
        "height": max(ROW_HEIGHT, len(bars) * ROW_HEIGHT),
        "row": ROW_HEIGHT,
        "labels_end": LABELS_END,
        "bars_start": BARS_START,
    }


# The stacked chart of files per day: one column a day, imported or unchanged at the bottom, failed on top.
COLUMN_WIDTH = 16  # px a day takes, its bar and the gap after it
COLUMN_BAR = 12
PLOT_LEFT = 40  # room for the values of the vertical axis
PLOT_TOP = 10
PLOT_HEIGHT = 140
DAY_LABEL_EVERY = 7  # days between two dates written under the axis, counted back from today


def stacked_day_chart(days: list[tuple[dt.date, int, int]]) -> dict:
    """Geometry of the files-per-day chart (``days``: (day, imported or unchanged, failed), oldest first). A count
    above zero is at least a pixel high, so a day with one failed file among thousands still shows it."""
    top = max((done + failed for _, done, failed in days), default=0) or 1

    def height(n: int) -> int:
        return max(1, round(PLOT_HEIGHT * n / top)) if n else 0

    baseline = PLOT_TOP + PLOT_HEIGHT
    columns = []
    for i, (day, done, failed) in enumerate(days):
        done_height, failed_height = height(done), height(failed)
        columns.append(
            {
                "day": day,
                "done": done,
                "failed": failed,
                "x": PLOT_LEFT + i * COLUMN_WIDTH,
                "done_y": baseline - done_height,
                "done_height": done_height,
                "failed_y": baseline - done_height - failed_height,
                "failed_height": failed_height,
                "labelled": (len(days) - 1 - i) % DAY_LABEL_EVERY == 0,
            }
        )
    width = PLOT_LEFT + len(days) * COLUMN_WIDTH + 8
    return {
        "columns": columns,
        "top": top,
        "bar": COLUMN_BAR,
        "width": width,
        "height": baseline + 56,  # the dates, the axis' name and the legend below the plot
        "plot_top": PLOT_TOP,
        "plot_left": PLOT_LEFT,
        "plot_height": PLOT_HEIGHT,
        "plot_right": width - 4,
        "baseline": baseline,
        "total_done": sum(done for _, done, _ in days),
        "total_failed": sum(failed for _, _, failed in days),
    }


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
        "imports_chart": stacked_day_chart(figures.imports_by_day),
        "years_chart": bar_chart(figures.years_coding),
        "pipeline_chart": bar_chart(figures.pipeline) if figures.pipeline is not None else None,
        "can_view_imports": request.user.has_perm("ingestion.view_sourcefile"),
    }
