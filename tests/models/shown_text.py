"""What a dashboard's view shows a viewer, as text: for the tests of its translated pages.

:func:`shown_text` walks the view's widgets (descriptions, labels of the options a viewer
picks from, the text of HTML widgets without their markup) and its figures (titles, axis
labels, tick labels, legends, annotations and the alt text), so that a test can assert that
no English of the catalogs is left (:func:`elo_explain.translate.english_left`).

Left out: the values behind the options (link keys, English on purpose, never shown) and the
parts of every page that ``DashboardView`` itself writes (the "Link to this view" line and the
number boxes' tooltips made from a trait's label): they belong to ``base.py`` / ``ui.py`` and
to their own tests.
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
from matplotlib.text import Text

from elo_explain.i18n import speaking as page_language  # noqa: F401 (the tests' name)
from elo_explain.ui import describe_figure

_TAG = re.compile(r"<[^>]+>")


def _widget_texts(w, view, out: list[str]) -> None:
    if w is view.link:
        return
    description = getattr(w, "description", None)
    if isinstance(description, str) and description:
        out.append(description)
    if isinstance(w, widgets.HTML) and w.value:
        out.append(html.unescape(_TAG.sub(" ", w.value)))
    labels = getattr(w, "_options_labels", None)
    if labels and not isinstance(w, widgets.SelectionSlider):
        out.extend(labels)
    for child in getattr(w, "children", ()):
        _widget_texts(child, view, out)


def figure_texts(fig) -> list[str]:
    """Every text artist of ``fig`` (titles, labels, ticks, legends, annotations) and its alt
    text."""
    fig.canvas.draw()  # tick labels exist once drawn
    texts = [t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    return texts + [describe_figure(fig)]


def shown_text(view) -> str:
    """Every text of ``view`` a viewer reads, one per line."""
    out: list[str] = []
    _widget_texts(view, view, out)
    for figure in view.figures():
        out.extend(figure_texts(figure.fig))
    return "\n".join(out)
