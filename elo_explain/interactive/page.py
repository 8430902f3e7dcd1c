"""A page's pieces that are not figures: its CSS, its root box, the number field that never
raises, the guard of a callback, and HTML for live numbers and tables.

* :class:`NumberField` -- a text box for a number that never raises: a bad value
  (empty, letters, ``nan``, out of range) shows a short message beside the field,
  naming the field and the allowed range, and the last good value is kept.
* :func:`guarded` -- wraps a callback so an unexpected error becomes a visible
  message instead of a traceback, and the dashboard keeps answering.
* :func:`app_root` -- a root box for a page that is not a dashboard view (the landing page).
* :func:`table_html`, :func:`value_html`, :func:`html_box`. Numbers are formatted by
  :mod:`elo_explain.formats`: one convention on every page, in every language.

CSS classes used by tests: ``ee-ready`` (root, present once rendered),
``ee-error`` (a field's message), ``ee-table`` (a rendered table),
``ee-value`` (a live number).
"""

from __future__ import annotations

import functools
import html
import numbers
from collections.abc import Callable

import ipywidgets as widgets

from elo_explain import i18n
from elo_explain.formats import fmt_input, fmt_plain, parse_number
from elo_explain.i18n import _
from elo_explain.tables import TABLE_CSS, csv_link

__all__ = ["STYLE", "NumberField", "guarded", "app_root", "value_html", "table_html", "html_box"]

STYLE = (
    """
<style>
"""
    + TABLE_CSS
    + """
.ee-app { max-width: 1100px; }
.ee-error { color: #b00020; font-size: 0.9em; min-height: 1.2em; }
.ee-number:focus-within:not(.ee-submitted) .ee-error { visibility: hidden; }
.ee-value { font-variant-numeric: tabular-nums; }
.ee-big { font-size: 1.35em; font-weight: 600; }
.ee-note { color: #444; font-size: 0.95em; }
</style>
"""
)


class NumberField(widgets.VBox):
    """A labelled text box for a bounded number with a visible error message.

    ``on_change(value)`` is called with each *valid* new value, as the viewer types (every
    keystroke that leaves a valid number); an invalid entry keeps the last valid ``value``
    and writes the message (class ``ee-error``, under the box, which has class
    ``ee-number``). A half-typed value ("15" on the way to "1500", "1500.", "") shows no
    message while the box has the focus: the page's CSS shows it once the box is left, or
    on Enter (the published template's script marks the box ``ee-submitted`` in the page
    itself, until the next keystroke: no round trip to the kernel to race the value). The
    message widget is made on the first bad entry only: most viewers never type one, and
    every widget model costs page-load time.

    >>> f = NumberField("Rating", 1500, lo=0, hi=4000)
    >>> len(f.children), f.error
    (1, '')
    >>> f.text.value = "12x"
    >>> f.valid, f.value, f.error
    (False, 1500.0, 'Rating: &#x27;12x&#x27; is not a number (allowed: 0 to 4000)')
    >>> f.text.value = "1612"
    >>> f.valid, f.value, f.message.value, len(f.children)
    (True, 1612.0, '', 2)

    ``locale``: the page's language; the box shows and reads its decimal symbol.

    >>> g = NumberField("K", 0.5, lo=0, hi=100, locale="uk")
    >>> shown = g.text.value; g.text.value = "2,5"
    >>> shown, g.value
    ('0,5', 2.5)
    """

    def __init__(
        self,
        label: str,
        value: float,
        *,
        lo: float,
        hi: float,
        integer: bool = False,
        on_change: Callable | None = None,
        width: str = "11em",
        tooltip: str | None = None,
        locale: str | None = None,
    ):
        self.label, self.lo, self.hi, self.integer = label, lo, hi, integer
        self.locale = locale
        self.value = int(value) if integer else float(value)
        self.valid = True
        self._callbacks = [on_change] if on_change else []
        self._message: widgets.HTML | None = None
        self.text = widgets.Text(
            value=fmt_input(self.value, locale=locale),
            description=label,
            continuous_update=True,
            tooltip=tooltip or self._range_tip(label, lo, hi, locale),
            style={"description_width": "initial"},
            layout={"width": width},
        )
        self.text.add_class("ee-field")
        super().__init__([self.text])
        self.add_class("ee-number")
        self.text.observe(self._on_text, names="value")

    @staticmethod
    def _range_tip(label: str, lo: float, hi: float, locale: str | None) -> str:
        """The box's tooltip: the field and its range, in the page's language and numbers."""
        english = (locale or i18n.language()) == "en"
        lo_text, hi_text = (
            (f"{lo:g}", f"{hi:g}")
            if english
            else (fmt_plain(lo, locale=locale), fmt_plain(hi, locale=locale))
        )
        return _("{label}: {lo} to {hi}").format(label=label, lo=lo_text, hi=hi_text)

    @property
    def message(self) -> widgets.HTML:
        """The message widget (class ``ee-error``), made and shown on first use."""
        if self._message is None:
            self._message = widgets.HTML("")
            self._message.add_class("ee-error")
            self.children = (*self.children, self._message)
        return self._message

    @property
    def error(self) -> str:
        """The message shown now (HTML-escaped), ``''`` when the entry is valid."""
        return "" if self._message is None else self._message.value

    def on_change(self, callback: Callable) -> None:
        self._callbacks.append(callback)

    def set(self, value: float) -> None:
        """Set a value programmatically (e.g. from a preset); a box that already reads that
        value keeps the viewer's text ("1500." while typing stays, not "1500")."""
        if self.valid and self.value == value and self.text.value.strip():
            return
        self.text.value = fmt_input(int(value) if self.integer else value, locale=self.locale)

    def _on_text(self, change) -> None:
        try:
            value = parse_number(
                self.label,
                change["new"],
                self.lo,
                self.hi,
                integer=self.integer,
                locale=self.locale,
            )
        except ValueError as exc:
            self.valid = False
            self.message.value = html.escape(str(exc))
            return
        self.valid = True
        if self._message is not None:
            self._message.value = ""
        self.value = value
        for cb in self._callbacks:
            cb(value)


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
                status.value = html.escape(_("Could not update: {error}").format(error=exc))[:300]
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


def table_html(
    columns,
    rows,
    *,
    caption: str | None = None,
    highlight=None,
    css: str = "",
    left=(),
    download: bool = True,
) -> str:
    """A ``<table class="ee-table">`` from column names and rows of cell strings, and its
    "CSV" link (:func:`elo_explain.tables.csv_link`; ``download=False``: none).

    ``highlight``: a row index or several (class ``ee-highlight``); ``css``: extra classes
    for the table; ``left``: indexes of columns aligned left (text columns, class ``ee-left``).

    >>> table_html(["d", "E"], [["0", "50.0 %"]], caption="x", download=False)
    '<table class="ee-table"><caption>x</caption><tr><th>d</th><th>E</th></tr><tr><td>0</td><td>50.0 %</td></tr></table>'
    >>> table_html(["d"], [["−1"]]).endswith('download="table.csv" title="Download this table (CSV)">CSV</a></p>')
    True
    >>> table_html(["a", "b"], [["x", "1"], ["y", "2"]], highlight=[1], css="ee-t", left=(0,),
    ...            download=False)
    '<table class="ee-table ee-t"><tr><th class="ee-left">a</th><th>b</th></tr><tr><td class="ee-left">x</td><td>1</td></tr><tr class="ee-highlight"><td class="ee-left">y</td><td>2</td></tr></table>'
    """
    marked = (
        set()
        if highlight is None
        else ({highlight} if isinstance(highlight, numbers.Integral) else set(highlight))
    )
    left = set(left)

    def cell(tag, i, c):
        cls = ' class="ee-left"' if i in left else ""
        return f"<{tag}{cls}>{html.escape(str(c))}</{tag}>"

    parts = [f'<table class="ee-table {css}">' if css else '<table class="ee-table">']
    if caption:
        parts.append(f"<caption>{html.escape(caption)}</caption>")
    parts.append("<tr>" + "".join(cell("th", i, c) for i, c in enumerate(columns)) + "</tr>")
    for j, row in enumerate(rows):
        cls = ' class="ee-highlight"' if j in marked else ""
        parts.append(f"<tr{cls}>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>")
    parts.append("</table>")
    if download:
        parts.append(csv_link(columns, rows, caption or ""))
    return "".join(parts)


def html_box(css: str, value: str = "", **layout) -> widgets.HTML:
    """An ``HTML`` widget with CSS classes ``css`` (space-separated) for a view's output."""
    w = widgets.HTML(value, **({"layout": layout} if layout else {}))
    for name in css.split():
        w.add_class(name)
    return w
