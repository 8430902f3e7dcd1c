"""Widget helpers and number formats shared by every dashboard.

The pattern itself (a traitlets model, a view linked to it) is
:mod:`elo_explain.dashboards.base`; these are its pieces:

* :class:`NumberField` -- a text box for a number that never raises: a bad value
  (empty, letters, ``nan``, out of range) shows a short message beside the field,
  naming the field and the allowed range, and the last good value is kept.
* :class:`FigureView` -- a matplotlib figure created once, closed from pyplot's
  registry (so the count of open figures stays flat), redrawn as a PNG into an
  ``Image`` of fixed size (so the page does not jump) after the caller mutates artists;
  artists registered with ``dynamic`` are blitted onto a saved background.
  :func:`steady_limits` and :func:`update_limits` keep axis limits still so most
  redraws can blit.
* :class:`Picture` -- a figure as a notebook cell shows it (a PNG in an ``<img>``); made by
  a declared model method it follows the model like a table (:mod:`elo_explain.dashboards.live`).
* :func:`guarded` -- wraps a callback so an unexpected error becomes a visible
  message instead of a traceback, and the dashboard keeps answering.
* :func:`app_root` -- a root box for a page that is not a dashboard view (the landing page).
* :func:`table_html`, :func:`value_html`; the number formats :func:`fmt_number`,
  :func:`fmt_signed`, :func:`fmt_pct`, :func:`fmt_pair`, :func:`round_half_away` and
  :func:`parse_number` (with :data:`MINUS`) are :mod:`elo_explain.formats`'s, here too:
  one convention on every page, in every language.

CSS classes used by tests: ``ee-ready`` (root, present once rendered),
``ee-error`` (a field's message), ``ee-table`` (a rendered table),
``ee-value`` (a live number), ``ee-plot`` (a figure's image).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import io
import math
import numbers
import zlib
from pathlib import Path
from typing import Callable

import ipywidgets as widgets

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image as PILImage

from elo_explain import _cache, i18n
from elo_explain.formats import (MINUS, NO_NUMBER, fmt_input, fmt_number, fmt_pair,  # noqa: F401
                                  fmt_pct, fmt_readout, fmt_signed, parse_number,
                                  round_half_away)
from elo_explain.tables import TABLE_CSS, Displayable

__all__ = [
    "MINUS",
    "NumberField",
    "FigureView",
    "Picture",
    "steady_limits",
    "update_limits",
    "guarded",
    "app_root",
    "value_html",
    "table_html",
    "parse_number",
    "round_half_away",
    "fmt_number",
    "fmt_signed",
    "fmt_pct",
    "fmt_pair",
    "fmt_readout",
    "register_fonts",
]

STYLE = """
<style>
""" + TABLE_CSS + """
.ee-app { max-width: 1100px; }
.ee-error { color: #b00020; font-size: 0.9em; min-height: 1.2em; }
.ee-value { font-variant-numeric: tabular-nums; }
.ee-big { font-size: 1.35em; font-weight: 600; }
.ee-note { color: #444; font-size: 0.95em; }
</style>
"""


class NumberField(widgets.VBox):
    """A labelled text box for a bounded number with a visible error message.

    ``on_change(value)`` is called with each *valid* new value; an invalid entry
    shows the message (class ``ee-error``, under the box, which has class
    ``ee-number``) and keeps the last valid ``value``.  The message widget is made
    on the first bad entry only: most viewers never type one, and every widget
    model costs page-load time.

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

    def __init__(self, label: str, value: float, *, lo: float, hi: float,
                 integer: bool = False, on_change: Callable | None = None,
                 width: str = "11em", tooltip: str | None = None, locale: str = "en"):
        self.label, self.lo, self.hi, self.integer = label, lo, hi, integer
        self.locale = locale
        self.value = int(value) if integer else float(value)
        self.valid = True
        self._callbacks = [on_change] if on_change else []
        self._message: widgets.HTML | None = None
        self.text = widgets.Text(
            value=fmt_input(self.value, locale=locale), description=label, continuous_update=False,
            tooltip=tooltip or f"{label}: {lo:g} to {hi:g}",
            style={"description_width": "initial"}, layout={"width": width},
        )
        self.text.add_class("ee-field")
        super().__init__([self.text])
        self.add_class("ee-number")
        self.text.observe(self._on_text, names="value")

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
        """Set a value programmatically (e.g. from a preset)."""
        self.text.value = fmt_input(int(value) if self.integer else value, locale=self.locale)

    def _on_text(self, change) -> None:
        try:
            value = parse_number(self.label, change["new"], self.lo, self.hi, integer=self.integer,
                                 locale=self.locale)
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


def _nice_step(x: float) -> float:
    """The smallest of 1, 2, 5 × a power of ten that is at least ``x`` (> 0)."""
    power = 10.0 ** math.floor(math.log10(x))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= x)


def steady_limits(current, lo: float, hi: float, *, shrink: float = 0.5,
                  margin: float = 0.08) -> tuple[float, float]:
    """Axis limits that change only when they must, so most redraws can blit.

    ``current`` (the axis's limits now) is kept while the data range ``lo`` … ``hi`` lies
    inside it and fills at least ``shrink`` of it; otherwise the new limits are the data
    range widened by ``margin`` of its width on each side, rounded outward to a step of
    1, 2 or 5 × a power of ten near a twentieth of it (a symmetric range stays symmetric).

    >>> steady_limits((-50, 50), -31, 31)          # fits and fills 62 %: unchanged
    (-50, 50)
    >>> steady_limits((-50, 50), -12, 12)          # too small now: zoom in, step 2
    (-14.0, 14.0)
    >>> steady_limits((-50, 50), -60, 75)          # too big: zoom out, step 10
    (-80.0, 90.0)
    """
    a, b = current
    if a <= lo and hi <= b and (hi - lo) >= shrink * (b - a):
        return current
    pad = margin * max(hi - lo, 1e-9)
    step = _nice_step((hi - lo + 2 * pad) / 20)
    return math.floor((lo - pad) / step) * step, math.ceil((hi + pad) / step) * step


def update_limits(ax, *, x=None, y=None) -> None:
    """Set an axes' x and/or y limits, only where they change.

    Setting limits marks the axis as changed even when they are the same, and a
    :class:`FigureView` then draws the whole figure again instead of blitting.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(); ax.set_xlim(0, 10); plt.close(fig); ax.xaxis.stale = False
    (0.0, 10.0)
    >>> update_limits(ax, x=(0, 10)); ax.xaxis.stale
    False
    >>> update_limits(ax, x=(0, 20)); [float(v) for v in ax.get_xlim()], ax.xaxis.stale
    ([0.0, 20.0], True)
    """
    if x is not None and tuple(ax.get_xlim()) != tuple(map(float, x)):
        ax.set_xlim(x)
    if y is not None and tuple(ax.get_ylim()) != tuple(map(float, y)):
        ax.set_ylim(y)


TELUGU_FONT = Path(__file__).resolve().parent / "data" / "fonts" / "NotoSansTelugu-Regular.ttf"
"""Noto Sans Telugu (SIL Open Font License 1.1), shipped with the package: no Telugu font
needs to be installed for the figures (``data/fonts/SOURCE.md``)."""


def register_fonts() -> str:
    """Add the shipped Telugu font to matplotlib as a fallback after the current fonts.

    Glyphs the current font (DejaVu Sans) has are drawn as before, so English, Greek and
    Ukrainian figures do not change; Telugu text falls through to Noto Sans Telugu, which
    matplotlib (3.11 or later) shapes. Idempotent; :class:`FigureView` calls it on a Telugu
    page (elsewhere every bold label would log that the Telugu font has no bold).

    >>> register_fonts()
    'Noto Sans Telugu'
    >>> import matplotlib.pyplot as plt
    >>> plt.rcParams["font.family"][-1]
    'Noto Sans Telugu'
    """
    path = str(TELUGU_FONT)
    if not any(f.fname == path for f in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)
    name = font_manager.FontProperties(fname=path).get_name()
    families = list(plt.rcParams["font.family"])
    if name not in families:
        plt.rcParams["font.family"] = [*families, name]
    return name


class FigureView:
    """A figure made once and shown as a PNG in a fixed-size box.

    Mutate the artists (``line.set_data``...) and call :meth:`refresh`; the
    figure is never re-created, and it is closed in pyplot so the number of
    open figures does not grow with slider moves.  The PNG goes into an
    ``ipywidgets.Image`` (no output area is cleared, so the page never jumps),
    drawn on the figure's own Agg canvas and encoded by Pillow, without
    ``savefig``'s extra passes.  ``margins`` (as for ``Figure.subplots_adjust``) are
    fixed: matplotlib's constrained layout would cost about 0.1 s per figure on every
    page load, before the page is ready.

    Artists registered with :meth:`dynamic` (the lines, points and bands an update
    mutates) are *blitted*: the rest of the figure -- axes, ticks, labels, titles,
    legends, grid -- is drawn once into a background image and redrawn only when an
    axis limit or a title, label or legend text changes, so most updates draw a few
    artists onto the saved background and encode the PNG (text is most of
    matplotlib's drawing time).  Legends belong to the background: keep them where
    the dynamic artists do not go.

    ``out`` (the ``Image``, CSS class ``ee-plot``) is the element to place in the page;
    ``width`` and ``height`` (CSS lengths) make its box larger than the figure.

    >>> import matplotlib.pyplot as plt
    >>> before = len(plt.get_fignums())
    >>> view = FigureView(figsize=(4, 3))
    >>> line, = view.ax.plot([0, 1], [0, 1])
    >>> view.refresh(); first = view.image.value
    >>> for _ in range(50):
    ...     line.set_ydata([1, 0]); view.refresh()
    >>> len(plt.get_fignums()) == before, view.image.value != first, view.full_draws
    (True, True, 51)

    With a dynamic artist, the figure is drawn in full once, then only when its axes change:

    >>> view = FigureView(figsize=(4, 3), margins={"left": 0.15})
    >>> line = view.dynamic(view.ax.plot([0, 1], [0, 1])[0])
    >>> other, = view.ax.plot([0, 1], [0.5, 0.5])   # not dynamic: part of the background
    >>> view.refresh(); first = view.image.value
    >>> for i in range(50):
    ...     line.set_ydata([1, i / 50]); view.refresh()
    >>> view.image.value != first, view.full_draws
    (True, 1)
    >>> _ = view.ax.set_ylim(0, 2); view.refresh(); view.full_draws   # new limits: new background
    2
    >>> other.set_color("red"); view.refresh(); view.full_draws   # a background artist changed
    3
    >>> line.set_ydata([0, 1]); view.refresh(); view.full_draws
    3
    """

    def __init__(self, *, figsize=(6.4, 3.6), height: str | None = None,
                 width: str | None = None, ncols: int = 1, margins: dict | None = None, **kw):
        self.margins = {"left": 0.1, "right": 0.97, "bottom": 0.1, "top": 0.92, **(margins or {})}
        if i18n.language() == "te":  # Telugu text in the figure: the shipped font, shaped
            register_fonts()
        with plt.ioff():
            self.fig, axes = plt.subplots(1, ncols, figsize=figsize, **kw)
        plt.close(self.fig)
        self.fig.subplots_adjust(**self.margins)
        FigureCanvasAgg(self.fig)  # a persistent canvas: its renderer is reused
        self.axes = list(axes) if ncols > 1 else [axes]
        self.ax = self.axes[0]
        self._dynamic: list = []
        self._background = None
        self._background_key = None
        self.full_draws = 0
        self.restored = 0
        #: What the figure shows at its first drawing, as text (set by the dashboard for its
        #: first render): the background drawn then is kept on disk under it and restored by
        #: the next kernel instead of drawn (:meth:`_draw_background`).
        self.stored_as: Callable[[], str] | None = None
        width_px, height_px = (round(v * self.fig.dpi) for v in figsize)
        # The Image is the page element itself (no wrapping Output): two widget models
        # fewer per figure.  Its box has the figure's size, so the page never jumps;
        # ``height`` (CSS) reserves more room below it, ``width`` more beside it.
        box_w, box_h = width or f"{width_px}px", height or f"{height_px}px"
        self.image = widgets.Image(format="png", layout={
            "width": box_w, "min_width": box_w, "height": box_h, "min_height": box_h,
            "object_fit": "none", "object_position": "left top"})  # never scaled
        self.image.add_class("ee-plot")
        self.out = self.image

    def dynamic(self, *artists):
        """Register artists that updates mutate (drawn on every refresh); returns them."""
        for a in artists:
            a.set_animated(True)
            self._dynamic.append(a)
        return artists[0] if len(artists) == 1 else artists

    def _static_key(self) -> tuple:
        """What the background shows: when it changes, the figure is drawn in full."""
        key = []
        for ax in self.fig.axes:
            legend = ax.get_legend()
            title = None if ax.title.get_animated() else ax.title.get_text()  # dynamic title
            key += [ax.get_visible(), ax.get_xlim(), ax.get_ylim(), title,
                    ax.xaxis.label.get_text(), ax.yaxis.label.get_text(),
                    None if legend is None else
                    (legend.get_visible(), tuple(t.get_text() for t in legend.texts))]
        return tuple(key)

    def _static_artists(self):
        """The artists of the background (directly in the figure or an axes)."""
        dynamic = {id(a) for a in self._dynamic}
        for parent in (self.fig, *self.fig.axes):
            for a in parent.get_children():
                if id(a) not in dynamic and a not in self.fig.axes:
                    yield a

    def _static_changed(self) -> bool:
        """Whether an artist of the background was changed since it was drawn (matplotlib
        marks a changed artist *stale*): then the background is drawn again, so an update
        that changes an artist not registered with :meth:`dynamic` is never lost."""
        return any(a.stale for a in self._static_artists())

    def png(self) -> bytes:
        """The figure as PNG bytes (as shown)."""
        canvas = self.fig.canvas
        key = self._static_key() if self._dynamic else None
        if key is None or key != self._background_key or self._static_changed():
            self._draw_background()  # everything but the dynamic artists
            if key is not None:
                self._background = canvas.copy_from_bbox(self.fig.bbox)
                self._background_key = key
                for a in self._static_artists():
                    a.stale = False  # drawn now (an invisible one keeps the flag otherwise)
        else:
            canvas.restore_region(self._background)
        for ax in self.fig.axes:
            if not ax.get_visible():
                continue
            for a in sorted((a for a in self._dynamic if a.axes is ax and a.get_visible()),
                            key=lambda a: a.get_zorder()):
                ax.draw_artist(a)
        buf = io.BytesIO()
        PILImage.fromarray(np.asarray(canvas.buffer_rgba())).save(buf, format="png",
                                                                   compress_level=1)
        return buf.getvalue()

    def _stored_name(self) -> str | None:
        if self.stored_as is None or self.full_draws or self.restored:
            return None  # only a figure's first background: later ones follow its changes
        text = repr((self.stored_as(), _cache.package_hash(), matplotlib.__version__,
                     i18n.language(), tuple(self.fig.get_size_inches()), self.fig.dpi))
        return f"figure-{hashlib.sha256(text.encode()).hexdigest()[:24]}.rgba"

    def _draw_background(self) -> None:
        """Draw the figure without its dynamic artists, or, for the first drawing of a figure
        the dashboard named (:attr:`stored_as`), restore the pixels another kernel drew for the
        same state: every viewer's page opens on the same figures, and drawing them (text
        most of all) was a third of a page view's CPU.  The pixels are the same."""
        canvas = self.fig.canvas
        name = self._stored_name()
        width, height = canvas.get_width_height(physical=True)
        data = _cache.load(name) if name else None
        if data is not None:
            try:
                pixels = np.frombuffer(zlib.decompress(data), np.uint8).reshape(height, width, 4)
            except (zlib.error, ValueError):
                pixels = None
            if pixels is not None:
                np.asarray(canvas.get_renderer().buffer_rgba())[...] = pixels
                self.restored += 1
                return
        canvas.draw()
        self.full_draws += 1
        if name:
            _cache.store(name, zlib.compress(bytes(canvas.buffer_rgba()), 1), keep=256)

    def refresh(self) -> None:
        self.image.value = self.png()


def _png(fig) -> bytes:
    """``fig`` drawn on its Agg canvas and encoded by Pillow (no ``savefig`` passes)."""
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()
    buf = io.BytesIO()
    PILImage.fromarray(np.asarray(canvas.buffer_rgba())).save(buf, format="png",
                                                               compress_level=1)
    return buf.getvalue()


class Picture(Displayable):
    """A figure as a notebook cell shows it: ``<img class="ee-figure">`` with its PNG.

    ``Picture.new(figsize, margins)`` makes the figure without pyplot (so nothing is left
    open in pyplot's registry); ``alt`` says what it shows, for a reader who cannot see it.

    >>> pic = Picture.new((2, 1), alt="A line")
    >>> _ = pic.figure.axes[0].plot([0, 1], [0, 1])
    >>> pic.to_html().startswith('<img class="ee-figure" alt="A line" src="data:image/png;base64,')
    True
    >>> pic.plain()
    'Figure: A line'
    """

    def __init__(self, figure, *, alt: str = ""):
        self.figure, self.alt = figure, alt

    @classmethod
    def new(cls, figsize, *, margins: dict | None = None, alt: str = "") -> "Picture":
        fig = Figure(figsize=figsize)
        FigureCanvasAgg(fig)
        fig.subplots_adjust(**(margins or {}))
        fig.add_subplot()
        return cls(fig, alt=alt)

    def png(self) -> bytes:
        return _png(self.figure)

    def to_html(self) -> str:
        data = base64.b64encode(self.png()).decode("ascii")
        return (f'<img class="ee-figure" alt="{html.escape(self.alt)}" '
                f'src="data:image/png;base64,{data}">')

    def plain(self) -> str:
        return f"Figure: {self.alt}"


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


def table_html(columns, rows, *, caption: str | None = None, highlight=None, css: str = "",
               left=()) -> str:
    """A ``<table class="ee-table">`` from column names and rows of cell strings.

    ``highlight``: a row index or several (class ``ee-highlight``); ``css``: extra classes
    for the table; ``left``: indexes of columns aligned left (text columns, class ``ee-left``).

    >>> table_html(["d", "E"], [["0", "50.0 %"]], caption="x")
    '<table class="ee-table"><caption>x</caption><tr><th>d</th><th>E</th></tr><tr><td>0</td><td>50.0 %</td></tr></table>'
    >>> table_html(["a", "b"], [["x", "1"], ["y", "2"]], highlight=[1], css="ee-t", left=(0,))
    '<table class="ee-table ee-t"><tr><th class="ee-left">a</th><th>b</th></tr><tr><td class="ee-left">x</td><td>1</td></tr><tr class="ee-highlight"><td class="ee-left">y</td><td>2</td></tr></table>'
    """
    marked = set() if highlight is None else (
        {highlight} if isinstance(highlight, numbers.Integral) else set(highlight))
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
    return "".join(parts)
