"""Figures of the pages: drawn once, then redrawn cheaply, laid out for the viewer's width.

The pattern itself (a traitlets model, a view linked to it) is
:mod:`elo_explain.interactive.view`; the page's other pieces are
:mod:`elo_explain.interactive.page`.

* :class:`FigureView` -- a matplotlib figure created once, closed from pyplot's
  registry (so the count of open figures stays flat), redrawn as a PNG into an
  ``Image`` of fixed size (so the page does not jump) after the caller mutates artists;
  artists registered with ``dynamic`` are blitted onto a saved background.
  :func:`steady_limits` and :func:`update_limits` keep axis limits still so most
  redraws can blit.
* :class:`Picture` -- a figure as a notebook cell shows it (a PNG in an ``<img>``); made by
  a declared model method it follows the model like a table (:mod:`elo_explain.interactive.live`).
* :func:`shown_state` -- what a view's figure shows, the key under which its first drawing
  is stored for every kernel (:attr:`FigureView.stored_as`).

CSS class used by tests: ``ee-plot`` (a figure's image).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import io
import math
import textwrap
import zlib
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import traitlets
from matplotlib import font_manager, ticker
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.ticker import FixedFormatter, FuncFormatter
from matplotlib.transforms import Bbox
from PIL import Image as PILImage

from elo_explain import _cache, i18n
from elo_explain.formats import MINUS, symbols
from elo_explain.i18n import _, pgettext
from elo_explain.tables import Displayable

__all__ = [
    "FigureView",
    "Picture",
    "shown_state",
    "steady_limits",
    "update_limits",
    "update_title",
    "register_fonts",
    "fonts_for_page",
    "localize_ticks",
    "describe_figure",
    "place_text",
    "CARD",
]


def _nice_step(x: float) -> float:
    """The smallest of 1, 2, 5 × a power of ten that is at least ``x`` (> 0)."""
    power = 10.0 ** math.floor(math.log10(x))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= x)


def steady_limits(
    current, lo: float, hi: float, *, shrink: float = 0.5, margin: float = 0.08
) -> tuple[float, float]:
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


def update_title(ax, text: str, **kw) -> None:
    """Set an axes' title only when its text changes (``set_title`` marks the title changed
    even with the same text and size, and a :class:`FigureView` then draws the whole figure
    again instead of blitting: 01's average-opponent slider 48 -> 8 ms a step).

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(); _ = ax.set_title("A", fontsize=10); plt.close(fig)
    >>> ax.title.stale = False
    >>> update_title(ax, "A", fontsize=10); ax.title.stale
    False
    >>> update_title(ax, "B", fontsize=10); ax.get_title(), ax.title.stale
    ('B', True)
    """
    if ax.get_title() != text:
        ax.set_title(text, **kw)


TELUGU_FONT = Path(__file__).resolve().parents[1] / "data" / "fonts" / "NotoSansTelugu-Regular.ttf"
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


def fonts_for_page() -> None:
    """The figures' text set up for the page's language (:class:`FigureView` and
    :meth:`Picture.new` call it): on a Telugu page the shipped Telugu font
    (:func:`register_fonts`); on a Greek page FreeType's auto-hinter, since matplotlib's
    default hinting drops the tonos of ί at 10 pt and 100 dpi ("φαβορί" read "φαβορ(").
    Other pages are left as they are."""
    lang = i18n.language()
    if lang == "te":
        register_fonts()
    elif lang == "el":
        plt.rcParams["text.hinting"] = "auto"


class _DecimalTicks(ticker.Formatter):
    """Matplotlib's own tick labels (a ``ScalarFormatter``'s, a ``PercentFormatter``'s...) with
    the page's decimal symbol: the numbers matplotlib chose, written as the language writes
    them ("0,5"); its minus sign (U+2212) is kept. Made by :func:`localize_ticks`."""

    def __init__(self, inner: ticker.Formatter, decimal: str):
        self.inner, self.decimal = inner, decimal
        self.axis = getattr(inner, "axis", None)

    def _local(self, text: str) -> str:
        return text.replace(".", self.decimal) if text else text

    def set_axis(self, axis):
        self.axis = axis
        self.inner.set_axis(axis)

    def set_locs(self, locs):
        self.locs = locs
        self.inner.set_locs(locs)

    def __call__(self, x, pos=None):
        return self._local(self.inner(x, pos))

    def format_ticks(self, values):
        return [self._local(t) for t in self.inner.format_ticks(values)]

    def get_offset(self):
        return self._local(self.inner.get_offset())

    def format_data(self, value):
        return self._local(self.inner.format_data(value))

    def format_data_short(self, value):
        return self._local(self.inner.format_data_short(value))


_NUMERIC_TICKS = (
    ticker.ScalarFormatter,
    ticker.PercentFormatter,
    ticker.StrMethodFormatter,
    ticker.FormatStrFormatter,
)
"""The tick formatters whose text is a number matplotlib formats (with a decimal point); a
``FuncFormatter`` or fixed labels are the dashboard's own text, left as they are."""


def localize_ticks(fig) -> int:
    """Give every axis of ``fig`` tick labels in the page's language (its decimal symbol):
    matplotlib's number formatters are wrapped (:class:`_DecimalTicks`), once; an English or
    Telugu page (a decimal point) is left exactly as it is. :class:`FigureView` and
    :class:`Picture` call it before drawing, so a dashboard need not. Returns the number of
    formatters wrapped now.

    >>> from elo_explain.i18n import set_language
    >>> pic = Picture.new((3, 2)); ax = pic.figure.axes[0]; _ = ax.set_xlim(0, 1.5)
    >>> localize_ticks(pic.figure)
    0
    >>> set_language("uk"); localize_ticks(pic.figure), localize_ticks(pic.figure)   # x and y
    (2, 0)
    >>> ax.xaxis.get_major_formatter().format_ticks([0.0, 0.5, -1.0])
    ['0,0', '0,5', '−1,0']
    >>> set_language("en")
    """
    decimal = symbols().decimal
    if decimal == ".":
        return 0
    wrapped = 0
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which in ("major", "minor"):
                ticks = getattr(axis, which)
                inner = ticks.formatter
                if isinstance(inner, _NUMERIC_TICKS):
                    formatter = _DecimalTicks(inner, decimal)
                    if which == "major":
                        axis.set_major_formatter(formatter)
                    else:
                        axis.set_minor_formatter(formatter)
                    wrapped += 1
    return wrapped


# --- the key of a stored figure ---------------------------------------------------------
def _fingerprint(value) -> str:
    """A value as text that names it exactly (arrays and bytes by their content's hash)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bytes:" + hashlib.sha256(bytes(value)).hexdigest()
    if hasattr(value, "tobytes") and hasattr(value, "dtype"):
        return f"array:{value.dtype}{value.shape}:" + hashlib.sha256(value.tobytes()).hexdigest()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(_fingerprint, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_fingerprint(v)}" for k, v in sorted(value.items())) + "}"
    return repr(value)


def shown_state(view, name: str) -> str:
    """What ``view``'s figure ``name`` shows (a dashboard view's attribute ``name``, a
    :class:`FigureView`): the view's class and every trait of its model
    (the key of its stored first drawing: :attr:`FigureView.stored_as`)."""
    traits = view.model.trait_values()
    return f"{type(view).__module__}.{type(view).__qualname__}.{name}: " + _fingerprint(traits)


class _Image(widgets.Image):
    """An ``Image`` whose tooltip (the figure's alt text, copied to ``alt`` by the page's
    script) reaches the page: ipywidgets' front end sets a tooltip as the element's title only
    beside an empty ``description``, which an ``Image`` does not have (without one, a tooltip
    breaks the image's view)."""

    description = traitlets.Unicode("").tag(sync=True)


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

    def __init__(
        self,
        *,
        figsize=(6.4, 3.6),
        height: str | None = None,
        width: str | None = None,
        ncols: int = 1,
        margins: dict | None = None,
        **kw,
    ):
        self.margins = {"left": 0.1, "right": 0.97, "bottom": 0.1, "top": 0.92, **(margins or {})}
        fonts_for_page()
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
        self.image = _Image(
            format="png",
            layout={
                "width": box_w,
                "min_width": box_w,
                "height": box_h,
                "min_height": box_h,
                "object_fit": "none",
                "object_position": "left top",
            },
        )  # never scaled
        self.image.add_class("ee-plot")
        self.out = self.image
        self.alt = ""
        self._wide: dict | None = None  # the desktop layout, kept while the figure is narrow
        self.narrow_width: float | None = None
        self._unwrapped: dict = {}  # id(text) -> (text, its own words, as wrapped)
        self._realigned: dict = {}  # id(text) -> (text, its own alignment, as aligned)
        self._thinned: dict = {}  # id(locator) -> (locator, its own number of bins)
        #: Functions run before each drawing, once the view has set its texts and limits and
        #: the layout (desktop or narrow) is made: what the view places by the measured size
        #: of its texts (room for labels, labels moved to free space).
        self.layout_hooks: list[Callable[[], None]] = []

    @classmethod
    def _laying_out(cls, fig) -> FigureView:
        """A view over a figure made elsewhere (a :class:`Picture`'s), without an ``Image``:
        only to lay it out with :meth:`fit` (drawn by its owner)."""
        fv = cls.__new__(cls)
        fv.fig, fv.axes, fv.ax = fig, list(fig.axes), fig.axes[0] if fig.axes else None
        fv._dynamic, fv._background, fv._background_key = [], None, None
        fv.full_draws = fv.restored = 0
        fv.stored_as, fv.image, fv.out, fv.alt = None, None, None, ""
        fv._wide, fv.narrow_width, fv._unwrapped, fv.layout_hooks = None, None, {}, []
        fv._realigned, fv._thinned = {}, {}
        return fv

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
            key += [
                ax.get_visible(),
                ax.get_xlim(),
                ax.get_ylim(),
                title,
                ax.xaxis.label.get_text(),
                ax.yaxis.label.get_text(),
                None
                if legend is None
                else (legend.get_visible(), tuple(t.get_text() for t in legend.texts)),
            ]
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
        localize_ticks(self.fig)
        self._wrap_free_texts()
        for hook in self.layout_hooks:
            hook()
        if self.narrow_width is not None:
            self._thin_x_ticks()
            self._keep_texts_inside()
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
            for a in sorted(
                (a for a in self._dynamic if a.axes is ax and a.get_visible()),
                key=lambda a: a.get_zorder(),
            ):
                ax.draw_artist(a)
        buf = io.BytesIO()
        PILImage.fromarray(np.asarray(canvas.buffer_rgba())).save(
            buf, format="png", compress_level=1
        )
        return buf.getvalue()

    def _stored_name(self) -> str | None:
        if self.stored_as is None or self.full_draws or self.restored:
            return None  # only a figure's first background: later ones follow its changes
        text = repr(
            (
                self.stored_as(),
                _cache.package_hash(),
                matplotlib.__version__,
                i18n.language(),
                plt.rcParams["text.hinting"],
                tuple(self.fig.get_size_inches()),
                self.fig.dpi,
            )
        )
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
        alt = self.describe()
        if alt != self.alt:  # the page's script copies the tooltip to the image's alt text
            self.alt = self.image.tooltip = alt

    # --- what the figure shows, in words (the image's text alternative) ------------------
    def describe(self) -> str:
        """The figure in words, from its artists as drawn now: each panel's title, then each
        labelled line's values at the ends and each marked point (a view may add its own
        key numbers by overriding ``describe`` on the instance: ``view.describe = fn``).

        >>> fv = FigureView(figsize=(4, 3))
        >>> _ = fv.ax.set_title("Expected score"); _ = fv.ax.set_xlabel("Rating difference")
        >>> _ = fv.ax.plot([0, 400, 800], [50, 90.9, 99.0], label="÷400")
        >>> _ = fv.ax.plot([300], [84.9], "o", label="you"); _ = fv.ax.set_xlim(0, 800)
        >>> fv.describe()
        'Expected score (Rating difference 0 to 800): ÷400 from 50 to 99; you at 300, 84.9.'

        A vertical marker (``axvline``): each curve's value where it stands.

        >>> _ = fv.ax.axvline(400); fv.describe()
        'Expected score (Rating difference 0 to 800): ÷400 90.9 at 400; you at 300, 84.9.'
        """
        return describe_figure(self.fig)

    # --- the layout for the page's width (a phone) ----------------------------------------
    def fit(self, width: float) -> bool:
        """Lay the figure out for a box ``width`` CSS px wide; returns whether it changed.

        Wider than the figure: the desktop layout, as made. Narrower: one column the box's
        width (at most :data:`NARROW_MAX_PX`), panels stacked top to bottom in reading
        order, titles and axis labels wrapped, no text under :data:`MIN_TEXT_PT`, drawn at
        :data:`SHARP` × the pixels (sharp on a high-density screen). The artists are the
        same: what the view shows does not change, only where.

        >>> fv = FigureView(figsize=(11, 4), ncols=2)
        >>> fv.fit(1200), fv.fit(390), fv.fit(390), fv.image.layout.width
        (False, True, False, '390px')
        >>> a, b = (ax.get_position() for ax in fv.axes); bool(round(a.x0, 3) == round(b.x0, 3)), bool(a.y0 > b.y1)
        (True, True)
        >>> fv.fit(1200), [float(v) for v in fv.fig.get_size_inches()], fv.image.layout.width
        (True, [11.0, 4.0], '1100px')
        """
        localize_ticks(self.fig)  # (the layout measures the tick labels as they are shown)
        natural = (
            self._wide["size"][0] * self._wide["dpi"]
            if self._wide is not None
            else self.fig.get_size_inches()[0] * self.fig.dpi
        )
        target = None if width >= natural else min(float(width), NARROW_MAX_PX)
        if target == self.narrow_width:
            return False
        if self._wide is None:
            self._wide = {
                "dpi": self.fig.dpi,
                "size": tuple(self.fig.get_size_inches()),
                "positions": [(ax, ax.get_position().frozen()) for ax in self.fig.axes],
                "layout": {}
                if self.image is None
                else {k: getattr(self.image.layout, k) for k in _BOX},
                "sizes": [(t, t.get_fontsize()) for t in self._texts()],
                # (a narrow layout hides a legend and shows a copy: :meth:`_narrow`)
                "legends": [
                    (lg, lg.get_visible())
                    for lg in (ax.get_legend() for ax in self.fig.axes)
                    if lg is not None
                ],
                "formatters": [
                    (ax.yaxis, ax.yaxis.get_major_formatter())
                    for ax in self.fig.axes
                    if _named_ticks(ax.yaxis) is not None
                ],
                "x_names": [
                    (ax.xaxis, ax.xaxis.get_major_formatter(), _named_ticks(ax.xaxis))
                    for ax in self.fig.axes
                    if _named_ticks(ax.xaxis) is not None
                ],
            }
        if target is None:
            self._restore()
        else:
            self._narrow(target)
        self.narrow_width = target
        self._background_key = None  # a new layout: the background is drawn again
        return True

    def _wrap(self, t, room: float) -> bool:
        """Break a label's lines to fit ``room`` inches (the first text is kept for the
        desktop layout); returns whether its text changed."""
        wrapped = self._wide["wrapped"]
        first = next((text for u, text, _ in wrapped if u is t), t.get_text())
        chars = max(12, int((room - 0.3) * 72 / (0.56 * t.get_fontsize())))
        lines = "\n".join(textwrap.fill(line, chars) for line in first.split("\n"))
        if not first or lines == t.get_text():
            return False
        t.set_text(lines)
        self._wide["wrapped"] = [(u, x, y) for u, x, y in wrapped if u is not t] + [
            (t, first, lines)
        ]
        return True

    def _wrap_tick_labels(self, axis, room: float) -> float:
        """Break a panel's named ticks (``set_yticks(y, names)``: a bar per system) to fit
        ``room`` inches; returns the height (inches) the names need, one under the next,
        each in as many lines as the longest (the desktop's formatter is kept to be
        restored)."""
        names = _named_ticks(axis)
        labels = axis.get_ticklabels()
        size = max([MIN_TEXT_PT] + [t.get_fontsize() for t in labels])
        chars = max(10, int(room * 72 / (0.56 * size)))
        wrapped = {
            loc: "\n".join(textwrap.wrap(str(n), chars)) or str(n) for loc, n in names.items()
        }
        if wrapped != names:
            axis.set_major_formatter(FuncFormatter(functools.partial(_format_named, wrapped)))
        lines = max([1] + [n.count("\n") + 1 for n in wrapped.values()])
        return len(wrapped) * lines * size * 1.35 / 72  # the ticks are evenly spaced

    def _wrap_x_names(self, axis, names: dict, renderer) -> None:
        """Break an x axis' named ticks (``set_xticks(x, names)``: "week 1"...) between words
        where a name is wider than the room between two ticks (the desktop's formatter is kept
        to be restored)."""
        locs = sorted(names)
        if len(locs) < 2:
            return
        lo, hi = axis.axes.get_xlim()
        step = min(b - a for a, b in zip(locs, locs[1:])) * axis.axes.bbox.width / abs(hi - lo)
        labels = axis.get_ticklabels()
        if not labels:
            return
        prop = labels[0].get_fontproperties()
        wrapped = {
            loc: _break_lines(
                str(n),
                0.92 * step,
                lambda text: renderer.get_text_width_height_descent(text, prop, ismath=False)[0],
            )
            for loc, n in names.items()
        }
        if wrapped != _named_ticks(axis):
            axis.set_major_formatter(FuncFormatter(functools.partial(_format_named, wrapped)))

    def _place(self, rows, fig_w: float) -> float:
        """Set the figure's height and each row's axes from ``[axes, top, height, bottom,
        left, right]`` (inches); returns the height."""
        fig_h = sum(top + height + bottom for _, top, height, bottom, _, _ in rows)
        self.fig.set_size_inches(fig_w, fig_h, forward=False)
        y = fig_h
        for axes, top, height, bottom, left, right in rows:
            y -= top + height
            box = [left / fig_w, y / fig_h, (fig_w - left - right) / fig_w, height / fig_h]
            for ax in axes:
                ax.set_position(box)
            y -= bottom
        return fig_h

    def _free_texts(self):
        """The texts a view placed itself (annotations, labels beside a point)."""
        return [t for ax in self.fig.axes for t in ax.texts]

    def _wrap_free_texts(self) -> None:
        """On a narrow figure, a text the view placed in a panel (:meth:`_free_texts`) wider
        than the panel is broken into lines as wide as the panel at most, between words (its
        words measured as matplotlib draws them); on a desktop it has its own lines. A text the
        view set since keeps the view's words. Only a change of lines marks the text changed."""
        renderer = self.fig.canvas.get_renderer() if self.narrow_width is not None else None
        for t in self._free_texts():
            _t, own, wrapped = self._unwrapped.pop(id(t), (None, None, None))
            text = t.get_text()
            own = own if wrapped is not None and text == wrapped else text
            lines = own
            if (
                renderer is not None
                and own
                and t.get_visible()
                and not t.get_rotation()
                and t.axes is not None
            ):
                lines = _break_lines(
                    own,
                    0.96 * t.axes.bbox.width,
                    lambda s: renderer.get_text_width_height_descent(
                        s, t.get_fontproperties(), ismath=False
                    )[0],
                )
            if lines != text:
                t.set_text(lines)
            if lines != own:
                self._unwrapped[id(t)] = (t, own, lines)

    def _thin_x_ticks(self) -> None:
        """On a narrow figure, numbered x ticks whose labels would touch ("−3000" beside
        "−2000" on 01's phone figure at the widest difference) are made fewer: matplotlib's
        locator asked for fewer steps until the labels stand apart (the desktop's number is
        restored by :meth:`_restore`). Only a change of ticks marks the axis changed."""
        renderer, gap = self.fig.canvas.get_renderer(), 2 * self.fig.dpi / 72
        for ax in self.fig.axes:
            locator = ax.xaxis.get_major_locator()
            if not ax.get_visible() or not isinstance(locator, ticker.MaxNLocator):
                continue
            was = locator._nbins
            own = self._thinned.get(id(locator), (None, was))[1]

            def crowded() -> int:
                boxes = sorted(
                    (
                        t.label1.get_window_extent(renderer)
                        for t in _drawn_ticks(ax.xaxis)
                        if t.label1.get_visible() and t.label1.get_text()
                    ),
                    key=lambda b: b.x0,
                )
                touch = any(b.x0 - a.x1 < gap for a, b in zip(boxes, boxes[1:]))
                return len(boxes) if touch else 0

            locator.set_params(nbins=own)
            n = crowded()  # labels shown, when they touch
            while n > 2:
                locator.set_params(nbins=n - 2)  # (bins: the steps between labels)
                now = crowded()
                n = min(now, n - 1) if now else 0
            if locator._nbins != own:
                self._thinned[id(locator)] = (locator, own)
            if locator._nbins != was:
                ax.xaxis.stale = True

    def _keep_texts_inside(self) -> None:
        """On a narrow figure, a text that would run past the figure's side is aligned on
        its anchor the way that keeps the most of it inside (left, centre or right, the first
        of the best): chosen from where the text is, not from its last alignment, so a text
        that fits no way does not flip at every drawing (each flip redrew the background:
        03's annotation made every slider step on a phone a full drawing)."""
        renderer, edge = self.fig.canvas.get_renderer(), self.fig.bbox

        def overflow(t) -> float:
            box = t.get_window_extent(renderer)
            return max(box.x1 - edge.x1, 0) + max(edge.x0 - box.x0, 0)

        for t in self._free_texts():
            if not t.get_visible() or not t.get_text():
                continue
            # measuring marks a text stale (an annotation places its arrow): only a change
            # of alignment is a change of the background
            was, stale = t.get_horizontalalignment(), t.stale
            _t, own, ours = self._realigned.pop(id(t), (None, None, None))
            own = own if ours is not None and was == ours else was  # the view's alignment
            t.set_horizontalalignment(own)
            best = own
            if overflow(t) > 0:
                best = min(
                    ("left", "center", "right"),
                    key=lambda ha: (t.set_horizontalalignment(ha), round(overflow(t), 1))[1],
                )
                t.set_horizontalalignment(best)
            if best != own:  # kept, to give the view's own back on a desktop
                self._realigned[id(t)] = (t, own, best)
            t.stale = stale or best != was

    def _texts(self):
        from matplotlib.text import Text

        return [t for t in self.fig.findobj(Text) if t.get_text()]

    def _labels(self):
        for ax in self.fig.axes:
            yield from (ax.title, ax.xaxis.label, ax.yaxis.label)

    def _restore(self) -> None:
        w = self._wide
        self.fig.set_dpi(w["dpi"])
        self.fig.set_size_inches(w["size"], forward=False)
        for ax, pos in w["positions"]:
            ax.set_position(pos)
        for t, size in w["sizes"]:
            t.set_fontsize(size)
        for t, text, wrapped in w.pop("wrapped", []):
            if t.get_text() == wrapped:  # (not a text the view changed since)
                t.set_text(text)
        for t, own, ours in self._realigned.values():
            if t.get_horizontalalignment() == ours:  # (not a text the view aligned since)
                t.set_horizontalalignment(own)
        self._realigned = {}
        for locator, own in self._thinned.values():
            locator.set_params(nbins=own)
        self._thinned = {}
        for copy in w.pop("copies", []):
            copy.remove()
        for legend, visible in w["legends"]:
            legend.set_visible(visible)
        for axis, formatter in w["formatters"]:
            axis.set_major_formatter(formatter)
        for axis, formatter, _names in w["x_names"]:
            axis.set_major_formatter(formatter)
        for k, v in w["layout"].items():  # (none without an Image)
            setattr(self.image.layout, k, v)

    def _narrow(self, width: float) -> None:
        w, dpi = self._wide, self._wide["dpi"]
        fig_w = width / dpi  # inches, at the page's scale (dpi CSS px per inch)
        for t, size in w["sizes"]:
            t.set_fontsize(max(size, MIN_TEXT_PT))
        wide_h = w["size"][1]
        w["wrapped"] = []
        for ax, pos in w["positions"]:
            for t, room in (
                (ax.title, fig_w),
                (ax.xaxis.label, fig_w),
                (ax.yaxis.label, min(max(pos.height * wide_h * 0.8, 1.9), 2.7)),
            ):
                self._wrap(t, room)
        tick_lines = {
            id(ax): self._wrap_tick_labels(axis, fig_w * TICK_LABEL_SHARE)
            for axis, _ in w["formatters"]
            for ax in [axis.axes]
        }
        slots: dict = {}  # panels at the same place (twins) share one slot
        for ax, pos in w["positions"]:
            slots.setdefault(tuple(round(v, 3) for v in pos.extents), []).append(ax)
        order = sorted(slots, key=lambda e: (-round(e[3], 2), e[0]))  # rows, then left to right

        def lines(text, size) -> int:
            avail = fig_w * 72 / (0.56 * size)  # characters that fit across the figure
            return (
                sum(max(1, math.ceil(len(line) / avail)) for line in text.split("\n"))
                if text
                else 0
            )

        rows = []  # [axes, top, height, bottom, left, right] (inches), estimated first
        for extents in order:
            axes = slots[extents]
            height = min(max((extents[3] - extents[1]) * wide_h * 0.8, 1.9), 2.7)
            # named rows (a bar per system): room for each name's lines
            height = max([height] + [tick_lines[id(a)] for a in axes if id(a) in tick_lines])
            title_pt = axes[0].title.get_fontsize()
            top = (
                0.15 + max(lines(a.title.get_text(), title_pt) for a in axes) * title_pt * 1.3 / 72
            )
            xlab = max(lines(a.xaxis.label.get_text(), a.xaxis.label.get_fontsize()) for a in axes)
            right = 0.7 if any(a.yaxis.get_label_position() == "right" for a in axes) else 0.18
            rows.append([axes, top, height, 0.38 + xlab * 0.2, 0.7, right])
        self._place(rows, fig_w)
        renderer = self.fig.canvas.get_renderer()
        # a legend goes under its panel (inside, it would cover most of a narrow panel)
        legends = []
        for row in rows:
            for ax in row[0]:
                legend = ax.get_legend()
                if legend is None or not legend.get_visible():
                    continue
                # a copy, one entry a line, each broken into lines as wide as the phone
                legend.set_visible(False)
                legend = _one_column(legend)
                w.setdefault("copies", []).append(legend)
                em = legend.texts[0].get_fontsize() * self.fig.dpi / 72 if legend.texts else 0
                room = fig_w * self.fig.dpi - 6 * em  # less the handles and the paddings
                for t in legend.texts:
                    t.set_text(
                        _break_lines(
                            t.get_text(),
                            room,
                            lambda text, t=t: renderer.get_text_width_height_descent(
                                text, t.get_fontproperties(), ismath=False
                            )[0],
                        )
                    )
                legend.set_loc("upper left")
                legends.append((row, ax, legend))

        def place_legends():  # under the row's labels as they are wrapped now
            for row, ax, legend in legends:
                legend.set_visible(False)
                tight = Bbox.union([a.get_tightbbox(renderer) for a in row[0]])
                legend.set_visible(True)
                inner = ax.get_window_extent(renderer)
                legend.set_bbox_to_anchor(
                    (-(inner.x0 - tight.x0) / inner.width, (tight.y0 - inner.y0) / inner.height),
                    transform=ax.transAxes,
                )

        # then measured: each row's room is what its tick labels, labels, title and legend
        # take (not the texts placed in a panel: they are broken into lines the panel's width
        # and kept inside, :meth:`_wrap_free_texts`); a label wider than its panel is wrapped
        # to the panel, and measured again
        free = [(t, t.get_in_layout()) for t in self._free_texts()]
        for t, _in in free:
            t.set_in_layout(False)
        for attempt in range(4):
            for axis, _formatter, names in w["x_names"]:
                self._wrap_x_names(axis, names, renderer)
            place_legends()
            for row in rows:
                axes = [a for a in row[0] if a.get_visible()] or row[0]
                tight = Bbox.union([a.get_tightbbox(renderer) for a in axes])
                inner = Bbox.union([a.get_window_extent(renderer) for a in axes])
                px, pad = self.fig.dpi, 0.06 * self.fig.dpi
                row[1] = max(tight.y1 - inner.y1 + pad, 0.1 * px) / px
                row[3] = max(inner.y0 - tight.y0 + pad, 0.1 * px) / px
                row[4] = max(inner.x0 - tight.x0 + pad, 0.1 * px) / px
                row[5] = max(tight.x1 - inner.x1 + pad, 0.1 * px) / px
            left = max(row[4] for row in rows)  # one left edge: the panels line up
            for row in rows:
                row[4] = left
            self._place(rows, fig_w)
            if attempt == 3:
                break
            rewrapped = False
            for axes, *_rest, left, right in rows:
                for ax in axes:
                    for t in (ax.title, ax.xaxis.label):
                        rewrapped |= self._wrap(t, fig_w - left - right + 0.3)
            if not rewrapped:
                break
        for t, was in free:
            t.set_in_layout(was)
        fig_h = self._place(rows, fig_w)
        self.fig.set_dpi(dpi * SHARP)
        if self.image is None:
            return
        box_w, box_h = f"{round(fig_w * dpi)}px", f"{round(fig_h * dpi)}px"
        for k, v in {
            "width": box_w,
            "min_width": box_w,
            "height": box_h,
            "min_height": box_h,
            "object_fit": "contain",
        }.items():
            setattr(self.image.layout, k, v)


CARD = dict(boxstyle="square,pad=0.15", facecolor="white", edgecolor="none", alpha=0.85)
"""A text's own box (``ax.text(..., bbox=CARD)``): a note in a panel where a line can pass
(a marker a slider moves, a curve) is drawn over the line, which no longer runs through its
digits. Drawn only over the lines drawn before it: register the text with
:meth:`FigureView.dynamic` when the lines are."""


def place_text(text, candidates, *, avoid=(), boxes=()) -> Bbox:
    """Put ``text`` at the first of ``candidates`` -- ``(x, y, ha)`` in its own coordinates --
    where it stays inside its axes, no line of ``avoid`` (``Line2D``: its drawn path, and a
    box the marker's size around each point) runs through it and it overlaps none of
    ``boxes`` (display pixels). Measured in the figure's layout as it is (a layout hook,
    :attr:`FigureView.layout_hooks`); only a change of place marks the text changed.
    Returns its box, or ``None`` where no candidate is free (the text is left at the first).

    >>> pic = Picture.new((3, 2)); ax = pic.figure.axes[0]; _ = ax.set(xlim=(0, 10), ylim=(0, 10))
    >>> line, = ax.plot([0, 10], [5, 5]); t = ax.text(0, 0, "−16")
    >>> box = place_text(t, [(5, 4.5, "center"), (5, 6, "center")], avoid=[line])
    >>> t.get_position(), t.get_horizontalalignment(), box is not None
    ((5, 6), 'center', True)
    >>> place_text(t, [(5, 4.5, "center")], avoid=[line]), t.get_position()
    (None, (5, 4.5))
    """
    renderer = text.get_figure(root=True).canvas.get_renderer()
    before = (text.get_position(), text.get_horizontalalignment(), text.stale)
    inside = text.axes.bbox if text.axes is not None else text.get_figure(root=True).bbox
    paths, marks = [], list(boxes)
    for line in avoid:
        if not line.get_visible():
            continue
        trans = line.get_transform()
        if line.get_linestyle() not in ("None", "", " "):
            paths.append(trans.transform_path(line.get_path()))
        if line.get_marker() not in (None, "None", "", " ") and len(line.get_xydata()):
            h = line.get_markersize() * text.get_figure(root=True).dpi / 72 / 2
            marks += [
                Bbox.from_extents(x - h, y - h, x + h, y + h)
                for x, y in trans.transform(line.get_xydata())
            ]

    def free(box) -> bool:
        return (
            inside.x0 <= box.x0
            and box.x1 <= inside.x1
            and inside.y0 <= box.y0
            and box.y1 <= inside.y1
            and not any(p.intersects_bbox(box, filled=False) for p in paths)
            and not any(box.overlaps(b) for b in marks)
        )

    found = None
    for x, y, ha in candidates:
        text.set_position((x, y))
        text.set_horizontalalignment(ha)
        box = text.get_window_extent(renderer)
        if free(box):
            found = box
            break
    else:
        text.set_position(candidates[0][:2])
        text.set_horizontalalignment(candidates[0][2])
    if (text.get_position(), text.get_horizontalalignment()) == before[:2]:
        text.stale = before[2]
    return found


def _break_lines(text: str, room: float, width: Callable[[str], float]) -> str:
    r"""``text`` with each line broken between words into lines at most ``room`` wide (by
    ``width``, a line's width; a word wider than ``room`` stays whole on its own line).

    >>> _break_lines("what the strongest players won", 12, len)
    'what the\nstrongest\nplayers won'
    >>> _break_lines("short\nlines", 12, len)
    'short\nlines'
    """
    out = []
    for line in text.split("\n"):
        current = ""
        for word in line.split(" "):
            trial = f"{current} {word}" if current else word
            if current and width(trial) > room:
                out.append(current)
                current = word
            else:
                current = trial
        out.append(current)
    return "\n".join(out)


def _named_ticks(axis) -> dict | None:
    """An axis' tick names as ``set_yticks(locs, names)`` gave them (``{loc: name}``), or
    ``None`` for ticks that are numbers (matplotlib keeps the names in a ``FuncFormatter``
    over a dict, or, from ``set_major_formatter``, a ``FixedFormatter``)."""
    formatter = axis.get_major_formatter()
    func = getattr(formatter, "func", None)
    if (
        isinstance(func, functools.partial)
        and func.args
        and isinstance(func.args[0], dict)
        and getattr(func.func, "__name__", "") in ("_format_with_dict", "_format_named")
    ):
        return dict(func.args[0])
    if isinstance(formatter, FixedFormatter):
        return dict(zip(axis.get_majorticklocs(), formatter.seq))
    return None


def _format_named(names: dict, x, pos) -> str:
    return names.get(x, "")


def _drawn_ticks(axis) -> list:
    """The ticks ``axis`` draws now, major and minor, their places and labels up to date: those
    within its view (what matplotlib's own ``Axis._update_ticks`` picks), through public
    calls."""
    axis.get_majorticklabels(), axis.get_minorticklabels()  # (each updates its ticks)
    ticks = [
        *axis.get_major_ticks(len(axis.get_majorticklocs())),
        *axis.get_minor_ticks(len(axis.get_minorticklocs())),
    ]
    low, high = sorted(axis.get_transform().transform(np.asarray(axis.get_view_interval(), float)))
    slack = (high - low) * 1e-10  # (matplotlib's own tolerance at the view's edges)
    drawn = []
    for tick in ticks:
        try:
            at = float(axis.get_transform().transform(tick.get_loc()))
        except (AssertionError, TypeError, ValueError):  # a masked place on some scales
            continue
        if low - slack <= at <= high + slack:
            drawn.append(tick)
    return drawn


def _one_column(legend):
    """A copy of a legend with one entry a line (shown instead of it on a narrow figure)."""
    copy = Legend(
        legend.axes,
        legend.legend_handles,
        [t.get_text() for t in legend.texts],
        ncols=1,
        fontsize=legend.texts[0].get_fontsize() if legend.texts else None,
        frameon=legend.get_frame_on(),
    )
    legend.axes.add_artist(copy)
    copy.set_clip_on(False)  # add_artist clips to the axes; the copy goes under them
    return copy


NARROW_MAX_PX = 520
"""The widest a figure laid out for a narrow page gets (CSS px)."""
MIN_TEXT_PT = 7.5
"""The smallest text in a figure laid out for a narrow page: 7.5 pt at 100 CSS px per inch
is 10.4 CSS px."""
SHARP = 2
PICTURE_NARROW_PX = 360
"""A :class:`Picture`'s width on a phone (CSS px): a 390 px screen shows a cell's output
about 366 px wide."""
"""A narrow figure's PNG has this many pixels per CSS pixel (sharp on a phone's screen)."""
TICK_LABEL_SHARE = 0.42
"""On a narrow figure, named ticks (a bar per system) take at most this share of its width:
longer names are broken into lines."""
_BOX = ("width", "min_width", "height", "min_height", "object_fit")


def _num(v: float) -> str:
    """A figure's value in words: at most three significant decimals, no trailing zeros, in
    the page's language (its decimal symbol)."""
    v = float(v)
    if not math.isfinite(v):
        return _("none")
    text = f"{v:.1f}" if abs(v) < 1000 else f"{v:.0f}"
    text = (text.rstrip("0").rstrip(".") if "." in text else text).replace("-", MINUS)
    decimal = symbols().decimal
    return text if decimal == "." else text.replace(".", decimal)


def _vertical(line) -> bool:
    """Whether ``line`` is a vertical marker (``axvline``: two points at one x)."""
    xs = np.asarray(line.get_xdata(), dtype=float).ravel()
    return len(xs) == 2 and xs[0] == xs[1]


def describe_figure(fig) -> str:
    """Each visible panel of ``fig`` in words: its title (or the axis labels), the x range,
    each labelled line from its first to its last value and each single marked point."""
    panels = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        title = " ".join(ax.get_title().split()) or ax.get_ylabel()
        x0, x1 = ax.get_xlim()
        xlabel = " ".join(ax.get_xlabel().split())
        head = (
            _("{title} ({axis} {start} to {end})").format(
                title=title, axis=xlabel, start=_num(x0), end=_num(x1)
            )
            if xlabel
            else title
        )
        parts = []
        marks = [line for line in ax.get_lines() if line.get_visible() and _vertical(line)]
        at = float(np.asarray(marks[0].get_xdata(), dtype=float)[0]) if marks else None
        for line in ax.get_lines():
            label = line.get_label()
            if not line.get_visible() or not label or label.startswith("_"):
                continue
            xs, ys = (np.asarray(v, dtype=float).ravel() for v in line.get_data())
            ok = np.isfinite(xs) & np.isfinite(ys)
            xs, ys = xs[ok], ys[ok]
            if len(xs) == 1:
                parts.append(
                    _("{label} at {x}, {y}").format(label=label, x=_num(xs[0]), y=_num(ys[0]))
                )
            elif (
                len(xs) > 1 and at is not None and np.all(np.diff(xs) > 0) and xs[0] <= at <= xs[-1]
            ):  # the value where the view's marker stands
                parts.append(
                    _("{label} {value} at {x}").format(
                        label=label, value=_num(np.interp(at, xs, ys)), x=_num(at)
                    )
                )
            elif len(xs) > 1:
                parts.append(
                    _("{label} from {start} to {end}").format(
                        label=label, start=_num(ys[0]), end=_num(ys[-1])
                    )
                )
        sep = pgettext("between a figure's parts", "; ")  # Greek: ";" asks a question
        panels.append(head + (": " + sep.join(parts) if parts else ""))
    return (". ".join(p for p in panels if p) + ".") if panels else ""


def _png(fig) -> bytes:
    """``fig`` drawn on its Agg canvas and encoded by Pillow (no ``savefig`` passes)."""
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    localize_ticks(fig)
    canvas.draw()
    buf = io.BytesIO()
    PILImage.fromarray(np.asarray(canvas.buffer_rgba())).save(buf, format="png", compress_level=1)
    return buf.getvalue()


class Picture(Displayable):
    """A figure as a notebook cell shows it: ``<img class="ee-figure">`` with its PNG.

    ``Picture.new(figsize, margins)`` makes the figure without pyplot (so nothing is left
    open in pyplot's registry); ``alt`` says what it shows, for a reader who cannot see it.

    A figure wider than a phone comes in a ``<picture>`` with a second drawing for a narrow
    screen (the browser picks it where the page is narrower than the figure): laid out as
    :meth:`FigureView.fit` lays a view's figure out, :data:`PICTURE_NARROW_PX` CSS px wide,
    no text under :data:`MIN_TEXT_PT`, at :data:`SHARP` × its pixels. A desktop shows the
    same ``<img>`` as before, with the same pixels.

    >>> pic = Picture.new((2, 1), alt="A line")
    >>> _ = pic.figure.axes[0].plot([0, 1], [0, 1])
    >>> pic.to_html().startswith('<img class="ee-figure" alt="A line" src="data:image/png;base64,')
    True
    >>> pic.plain()
    'Figure: A line'
    >>> wide = Picture.new((5.6, 2.8), alt="A line"); _ = wide.figure.axes[0].plot([0, 1])
    >>> wide.to_html().startswith('<picture><source media="(max-width: 599.9px)" srcset="data:image/png;base64,')
    True
    """

    def __init__(self, figure, *, alt: str = ""):
        self.figure, self.alt = figure, alt

    @classmethod
    def new(cls, figsize, *, margins: dict | None = None, alt: str = "") -> Picture:
        fonts_for_page()
        fig = Figure(figsize=figsize)
        FigureCanvasAgg(fig)
        fig.subplots_adjust(**(margins or {}))
        fig.add_subplot()
        return cls(fig, alt=alt)

    def png(self) -> bytes:
        return _png(self.figure)

    def narrow_png(self) -> bytes | None:
        """The figure laid out for a phone (:data:`PICTURE_NARROW_PX` CSS px wide, at
        :data:`SHARP` × the pixels), or ``None`` when it is no wider than that; the figure
        is left as made."""
        layout = FigureView._laying_out(self.figure)
        if not layout.fit(PICTURE_NARROW_PX):
            return None
        try:
            return _png(self.figure)
        finally:
            layout.fit(math.inf)

    def to_html(self) -> str:
        data = base64.b64encode(self.png()).decode("ascii")
        img = (
            f'<img class="ee-figure" alt="{html.escape(self.alt)}" '
            f'src="data:image/png;base64,{data}">'
        )
        narrow = self.narrow_png()
        if narrow is None:
            return img
        wide_px = self.figure.get_size_inches()[0] * self.figure.dpi
        small = base64.b64encode(narrow).decode("ascii")
        return (
            f'<picture><source media="(max-width: {wide_px + 40 - 0.1:.1f}px)" '
            f'srcset="data:image/png;base64,{small} {SHARP}x">{img}</picture>'
        )

    def plain(self) -> str:
        return _("Figure: {alt}").format(alt=self.alt)
