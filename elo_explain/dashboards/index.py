"""The landing page: one link and one line per published dashboard."""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from elo_explain.dashboards import DASHBOARDS
from elo_explain.ui import app_root

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def published(notebooks_dir: Path | None = None):
    """The dashboards whose notebook exists in ``notebooks_dir`` (default: the repo's).

    >>> from elo_explain.dashboards import DASHBOARDS
    >>> set(published()) <= set(DASHBOARDS)
    True
    >>> published("/nonexistent")
    []
    """
    folder = NOTEBOOKS if notebooks_dir is None else Path(notebooks_dir)
    return [d for d in DASHBOARDS if (folder / d.notebook).exists()]


def landing() -> widgets.VBox:
    """The landing page's root widget."""
    items = "".join(
        f'<li><a href="{html.escape(d.notebook)}">{html.escape(d.title)}</a> '
        f"&mdash; {html.escape(d.line)}</li>"
        for d in published()
    )
    if not items:
        items = "<li>No dashboards are published yet.</li>"
    style = ("<style>ol.ee-index a { color: #1a5fb4; text-decoration: underline; font-weight: 600; }"
             " ol.ee-index li { margin: 0.35em 0; }</style>")
    body = widgets.HTML(f'{style}<ol class="ee-index">{items}</ol>')
    return app_root([body])
