"""Notebook-facing widget helpers shared by every dashboard.

The dashboards follow one pattern (after jupyter-widgets' tutorial and
mpl-interactions): a pure *model* class in the package holds the state and
does the computation (testable without a browser), and a thin *view* built from
these helpers shows it.  The helpers here guarantee the publishing rules:

* :class:`NumberField` -- a text box for a number that never raises: a bad value
  (empty, letters, ``nan``, out of range) shows a short message beside the field,
  naming the field and the allowed range, and the last good value is kept.
* :class:`FigureView` -- a matplotlib figure created once, closed from pyplot's
  registry (so the count of open figures stays flat), redrawn as a PNG into an
  ``Image`` of fixed size (so the page does not jump) after the caller mutates artists.
* :func:`guarded` -- wraps a callback so an unexpected error becomes a visible
  message instead of a traceback, and the dashboard keeps answering.
* :func:`app_root` -- the root box, carrying the CSS class ``ee-ready`` that the
  browser tests (and benchmarks) wait for.

CSS classes used by tests: ``ee-ready`` (root, present once rendered),
``ee-error`` (a field's message), ``ee-table`` (a rendered table),
``ee-value`` (a live number), ``ee-plot`` (a figure's output area).
"""

from __future__ import annotations

import functools
import html
import io
import math
from typing import Callable

import ipywidgets as widgets

import matplotlib.pyplot as plt

__all__ = [
    "NumberField",
    "FigureView",
    "guarded",
    "app_root",
    "value_html",
    "table_html",
    "parse_number",
]

STYLE = """
<style>
.ee-app { max-width: 1100px; }
.ee-error { color: #b00020; font-size: 0.9em; min-height: 1.2em; }
.ee-value { font-variant-numeric: tabular-nums; }
.ee-big { font-size: 1.35em; font-weight: 600; }
table.ee-table { border-collapse: collapse; margin: 0.4em 0 0.8em 0; }
table.ee-table th, table.ee-table td { border: 1px solid #ccc; padding: 2px 8px;
    text-align: right; font-variant-numeric: tabular-nums; }
table.ee-table th { background: #f3f3f3; }
table.ee-table caption { caption-side: top; text-align: left; font-weight: 600; }
table.ee-table tr.ee-highlight td { background: #fff3c4; }
.ee-note { color: #444; font-size: 0.95em; }
</style>
"""


def parse_number(label: str, text: str, lo: float, hi: float, *, integer: bool = False) -> float:
    """Parse a number a viewer typed; ``ValueError`` with a message naming the field.

    >>> parse_number("Rating", " 1500 ", 0, 4000)
    1500.0
    >>> parse_number("Games", "3", 0, 100, integer=True)
    3
    >>> parse_number("Rating", "abc", 0, 4000)
    Traceback (most recent call last):
    ...
    ValueError: Rating: 'abc' is not a number (allowed: 0 to 4000)
    >>> parse_number("Rating", "nan", 0, 4000)
    Traceback (most recent call last):
    ...
    ValueError: Rating must be a number from 0 to 4000
    """
    allowed = f"{lo:g} to {hi:g}"
    raw = (text or "").strip().replace(",", ".") if isinstance(text, str) else text
    if raw == "" or raw is None:
        raise ValueError(f"{label} is empty (allowed: {allowed})")
    if len(str(raw)) > 40:
        raise ValueError(f"{label} is too long to be a number (allowed: {allowed})")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{label}: {str(raw)[:20]!r} is not a number (allowed: {allowed})") from None
    if not math.isfinite(value) or value < lo or value > hi:
        if integer:
            raise ValueError(f"{label} must be a whole number from {allowed}")
        raise ValueError(f"{label} must be a number from {allowed}")
    if integer:
        if value != int(value):
            raise ValueError(f"{label} must be a whole number from {allowed}")
        return int(value)
    return value


class NumberField(widgets.VBox):
    """A labelled text box for a bounded number with a visible error message.

    ``on_change(value)`` is called with each *valid* new value; an invalid entry
    shows the message (class ``ee-error``) and keeps the last valid ``value``.

    >>> f = NumberField("Rating", 1500, lo=0, hi=4000)
    >>> f.text.value = "12x"
    >>> f.valid, f.value, f.message.value
    (False, 1500.0, 'Rating: &#x27;12x&#x27; is not a number (allowed: 0 to 4000)')
    >>> f.text.value = "1612"
    >>> f.valid, f.value, f.message.value
    (True, 1612.0, '')
    """

    def __init__(self, label: str, value: float, *, lo: float, hi: float,
                 integer: bool = False, on_change: Callable | None = None,
                 width: str = "11em", tooltip: str | None = None):
        self.label, self.lo, self.hi, self.integer = label, lo, hi, integer
        self.value = int(value) if integer else float(value)
        self.valid = True
        self._callbacks = [on_change] if on_change else []
        self.text = widgets.Text(
            value=str(self.value), description=label, continuous_update=False,
            tooltip=tooltip or f"{label}: {lo:g} to {hi:g}",
            style={"description_width": "initial"}, layout=widgets.Layout(width=width),
        )
        self.text.add_class("ee-field")
        self.message = widgets.HTML("")
        self.message.add_class("ee-error")
        super().__init__([self.text, self.message])
        self.text.observe(self._on_text, names="value")

    def on_change(self, callback: Callable) -> None:
        self._callbacks.append(callback)

    def set(self, value: float) -> None:
        """Set a value programmatically (e.g. from a preset)."""
        self.text.value = str(int(value) if self.integer else value)

    def _on_text(self, change) -> None:
        try:
            value = parse_number(self.label, change["new"], self.lo, self.hi, integer=self.integer)
        except ValueError as exc:
            self.valid = False
            self.message.value = html.escape(str(exc))
            return
        self.valid = True
        self.message.value = ""
        self.value = value
        for cb in self._callbacks:
            cb(value)


class FigureView:
    """A figure made once and shown as a PNG in a fixed-size box.

    Mutate the artists (``line.set_data``...) and call :meth:`refresh`; the
    figure is never re-created, and it is closed in pyplot so the number of
    open figures does not grow with slider moves.  The PNG goes into an
    ``ipywidgets.Image`` (no output area is cleared, so the page never jumps),
    rendered without the inline backend's second "tight" pass; the constrained
    layout runs on the first draw only and is then frozen (``freeze=False``
    keeps it for figures whose labels change size), halving each redraw.
    ``out`` is the box to place in the page (CSS class ``ee-plot``).

    >>> import matplotlib.pyplot as plt
    >>> before = len(plt.get_fignums())
    >>> view = FigureView(figsize=(4, 3))
    >>> line, = view.ax.plot([0, 1], [0, 1])
    >>> view.refresh(); first = view.image.value
    >>> for _ in range(50):
    ...     line.set_ydata([1, 0]); view.refresh()
    >>> len(plt.get_fignums()) == before, view.image.value != first
    (True, True)
    """

    def __init__(self, *, figsize=(6.4, 3.6), height: str | None = None, ncols: int = 1,
                 freeze: bool = True, **kw):
        with plt.ioff():
            self.fig, axes = plt.subplots(1, ncols, figsize=figsize, layout="constrained", **kw)
        plt.close(self.fig)
        self.axes = list(axes) if ncols > 1 else [axes]
        self.ax = self.axes[0]
        self._freeze = freeze
        self._laid_out = False
        width_px, height_px = (round(v * self.fig.dpi) for v in figsize)
        self.image = widgets.Image(format="png", layout=widgets.Layout(
            width=f"{width_px}px", height=f"{height_px}px"))
        # An Output holding the Image's view: callers may also clear it and display
        # something else; the box keeps its size either way.
        self.out = widgets.Output(layout=widgets.Layout(
            height=height or f"{height_px + 4}px", min_width=f"{width_px}px", overflow="hidden"))
        self.out.outputs = ({"output_type": "display_data", "metadata": {},
                             "data": self.image._repr_mimebundle_()},)
        self.out.add_class("ee-plot")

    def png(self) -> bytes:
        """The figure as PNG bytes (as shown)."""
        if self._freeze and not self._laid_out:
            # lay out once with everything the caller has added, then keep the positions
            self.fig.set_layout_engine("constrained")
            self.fig.draw_without_rendering()  # the closed figure's canvas may not draw
            self.fig.set_layout_engine("none")
            self._laid_out = True
        buf = io.BytesIO()
        self.fig.savefig(buf, format="png", dpi=self.fig.dpi, pil_kwargs={"compress_level": 1})
        return buf.getvalue()

    def refresh(self) -> None:
        self.image.value = self.png()


def guarded(status: widgets.HTML):
    """Decorator: run the callback; on any error show a short message in ``status``.

    >>> import ipywidgets as widgets
    >>> status = widgets.HTML()
    >>> @guarded(status)
    ... def update(x):
    ...     return 1 / x
    >>> update(0) is None, status.value
    (True, 'Could not update: division by zero')
    """

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            try:
                result = fn(*args, **kwargs)
            except Exception as exc:  # shown to the viewer, never a traceback
                status.value = html.escape(f"Could not update: {exc}")[:300]
                return None
            status.value = ""
            return result

        return inner

    return wrap


def app_root(children, *, title: str | None = None) -> widgets.VBox:
    """The dashboard's root box; carries ``ee-app`` and ``ee-ready`` CSS classes."""
    head = [widgets.HTML(STYLE + (f"<h2>{html.escape(title)}</h2>" if title else ""))]
    root = widgets.VBox(head + list(children))
    root.add_class("ee-app")
    root.add_class("ee-ready")
    return root


def value_html(label: str, value: str, *, big: bool = False, css: str = "") -> str:
    """HTML for one live number: ``<b>label</b> <span class="ee-value">value</span>``."""
    cls = "ee-value ee-big" if big else "ee-value"
    if css:
        cls += f" {css}"
    return f'{html.escape(label)} <span class="{cls}">{html.escape(value)}</span>'


def table_html(columns, rows, *, caption: str | None = None, highlight=None) -> str:
    """A ``<table class="ee-table">`` from column names and rows of cell strings.

    >>> table_html(["d", "E"], [["0", "50.0 %"]], caption="x")
    '<table class="ee-table"><caption>x</caption><tr><th>d</th><th>E</th></tr><tr><td>0</td><td>50.0 %</td></tr></table>'
    """
    parts = ['<table class="ee-table">']
    if caption:
        parts.append(f"<caption>{html.escape(caption)}</caption>")
    parts.append("<tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in columns) + "</tr>")
    for i, row in enumerate(rows):
        cls = ' class="ee-highlight"' if highlight is not None and i == highlight else ""
        parts.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    parts.append("</table>")
    return "".join(parts)
