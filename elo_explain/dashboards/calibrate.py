"""Dashboard 8, *Calibrate the curve*: does ÷400 describe real games?

Every Elo-type system predicts a player ``d`` points above the opponent to score
``E(d) = 1 / (1 + 10 ** (-d / divisor))``. The model fits the divisor to the bundled
Lichess games (:func:`elo_explain.calibration.fit_divisor`, maximum likelihood, draws as half
points, 95 % profile-likelihood interval) or to a reader's own results (a CSV of
``rating, opponent, score`` read by :func:`elo_explain.results_csv.parse_results_csv`, every
bad row reported by number and reason), and shows the calibration table: actual mean score
by difference bucket, against the chess curve ÷400 and the fitted curve.

:class:`CalibrateModel` holds the state and computes every number shown (no widgets);
:class:`CalibrateView` builds the widgets; :func:`calibrate_dashboard` returns its root.

Numbers are formatted with the minus sign U+2212 ("−"), as the documents print it.
"""

from __future__ import annotations

import html
import math
from functools import lru_cache

import ipywidgets as widgets
import numpy as np
from matplotlib.collections import LineCollection

from elo_explain import calibration, lichess, results_csv
from elo_explain.ui import (MINUS, FigureView, app_root, fmt_pct, fmt_signed, guarded, table_html,
                            value_html)

__all__ = [
    "CalibrateModel",
    "CalibrateView",
    "calibrate_dashboard",
    "MAX_UPLOAD_BYTES",
    "MAX_SHOWN_ERRORS",
    "EXAMPLE_CSV",
]

#: Largest file (or pasted text) accepted, in bytes.
MAX_UPLOAD_BYTES = 2_000_000
#: How many bad-row messages are listed; the rest are counted.
MAX_SHOWN_ERRORS = 12
#: Allowed bucket widths (rating points) and minimum games per shown bucket.
BUCKET_RANGE = (25, 200)
MIN_GAMES_RANGE = (1, 300)
#: A small example a reader can paste (one row is deliberately bad).
EXAMPLE_CSV = """rating,opponent,score
1620,1500,1
1620,1710,0
1620,1580,0.5
1620,1450,1
1620,1800,0
1620,1620,1
1620,1390,1
1620,1700,1
1620,abc,1
1620,1550,0
1620,1660,0.5
1620,1480,1
"""

SOURCES = ("lichess", "upload")
#: Compact rows in the scrolling table (widgets' HTML has a tall default line height).
TABLE_STYLE = ("<style>.ee-calibration-table .widget-html-content, .ee-upload-report "
               ".widget-html-content {line-height: 1.35;}</style>")


def thousands(n: int) -> str:
    """``15467`` → ``'15,467'`` (the documents' grouping)."""
    return f"{int(n):,}"


def _p_value(p: float) -> str:
    """A p-value for readers: ``p = 0.034``, ``p < 0.001`` or ``p < 1e−120``.

    >>> _p_value(0.0341), _p_value(0.0004), _p_value(4.9e-121), _p_value(0.0)
    ('p = 0.034', 'p < 0.001', 'p < 1e−120', 'p < 1e−300')
    """
    if p >= 1e-3:
        return f"p = {p:.3f}"
    if p >= 1e-10:
        return "p < 0.001"
    exponent = math.floor(math.log10(p)) + 1 if p > 0 else -300
    return f"p < 1e{MINUS}{max(-exponent, 0) if exponent > -300 else 300}"


@lru_cache(maxsize=1)
def _lichess_arrays():
    """The bundled games, loaded once: differences, results and the filter columns."""
    g = lichess.load_games()
    arrays = {
        "difference": g.difference.astype(float),
        "result": g.result.astype(float),
        "rated": g.rated,
        "clock": g.time_control,
        "speed": g.speed,
    }
    for a in arrays.values():
        a.setflags(write=False)
    return arrays


def time_control_options(top: int = 8):
    """Dropdown choices ``(label, key)``: all games, the Lichess speed classes with at least
    100 games, then the ``top`` most common exact clocks (key ``"10+0"``...).

    >>> opts = time_control_options()
    >>> [key for _, key in opts][:5]
    ['all', 'rapid', 'classical', '10+0', '15+0']
    """
    a = _lichess_arrays()
    out = [("All time controls", "all")]
    names, counts = np.unique(a["speed"], return_counts=True)
    per_speed = dict(zip(names.tolist(), counts.tolist()))
    hints = {"bullet": "under 3 min", "blitz": "3 to 8 min", "rapid": "8 to 25 min",
             "classical": "25 min and more"}
    for speed in lichess.SPEEDS:
        if per_speed.get(speed, 0) >= 100:
            out.append((f"{speed.capitalize()} (Lichess class, {hints.get(speed, '')})", speed))
    clocks, counts = np.unique(a["clock"], return_counts=True)
    order = np.lexsort((clocks, -counts))[:top]
    for i in order:
        out.append((f"{clocks[i]} only (minutes + increment)", str(clocks[i])))
    return out


class CalibrateModel:
    """State and every computed number of the *Calibrate the curve* dashboard (no widgets).

    Attributes (plain, set them and read the properties): ``source`` (``"lichess"`` or
    ``"upload"``), ``rated_only`` (bool), ``time_control`` (a key of
    :meth:`time_control_options`), ``bucket`` (25..200 rating points), ``min_games`` (1..300
    games a bucket needs to be shown), ``white_advantage`` (fit white's first-move offset on
    the Lichess games).

    >>> m = CalibrateModel()
    >>> m.n_games                      # rated, deduplicated (lichess/SOURCE.md)
    15467
    >>> 500 < m.fit.divisor < 600
    True
    >>> m.source = "upload"
    >>> m.load_csv("rating,opponent,score\\n1600,1500,1\\n1600,1700,1\\n1600,x,0\\n1600,1650,0\\n")
    >>> m.upload_summary
    '4 rows read, 1 rejected'
    >>> m.upload_errors
    ["row 4: opponent 'x' is not a number"]
    """

    def __init__(self, *, source="lichess", rated_only=True, time_control="all", bucket=100,
                 min_games=30, white_advantage=False):
        self.source = source
        self.rated_only = rated_only
        self.time_control = time_control
        self.bucket = bucket
        self.min_games = min_games
        self.white_advantage = white_advantage
        self.uploaded: results_csv.UploadedResults | None = None
        self.upload_errors: list[str] = []
        self.upload_name = ""
        self.upload_rows_read = 0
        self._options = time_control_options()
        self._fits: dict = {}

    # ------------------------------------------------------------------ inputs
    def time_control_options(self):
        """``(label, key)`` pairs for the time-control filter."""
        return list(self._options)

    def _check(self):
        if self.source not in SOURCES:
            raise ValueError(f"source must be one of {', '.join(SOURCES)}, got {self.source!r}")
        keys = [k for _, k in self._options]
        if self.time_control not in keys:
            raise ValueError(f"time control must be one of {', '.join(keys)}, "
                             f"got {self.time_control!r}")
        for name, value, (lo, hi) in (("bucket width", self.bucket, BUCKET_RANGE),
                                      ("minimum games per bucket", self.min_games,
                                       MIN_GAMES_RANGE)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or not lo <= value <= hi:
                raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
        for name, value in (("rated only", self.rated_only),
                            ("white advantage", self.white_advantage)):
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {value!r}")

    def load_csv(self, data, name: str = "pasted text") -> None:
        """Read a reader's results (CSV text or bytes) and switch to them.

        Nothing is silently dropped: every rejected row is in :attr:`upload_errors` as
        ``"row N: reason"``. Files over :data:`MAX_UPLOAD_BYTES` are refused with a message.

        >>> m = CalibrateModel()
        >>> m.load_csv(b"x" * (MAX_UPLOAD_BYTES + 1), "big.csv")
        >>> m.upload_errors
        ['big.csv is 2.0 MB; the limit is 2 MB: split it or keep the rating, opponent and score columns only']
        """
        size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
        self.upload_name = name
        self.source = "upload"
        self._fits.pop("upload", None)
        if size > MAX_UPLOAD_BYTES:
            self.uploaded, self.upload_rows_read = None, 0
            self.upload_errors = [
                f"{name} is {size / 1e6:.1f} MB; the limit is {MAX_UPLOAD_BYTES / 1e6:g} MB: "
                "split it or keep the rating, opponent and score columns only"]
            return
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = bytes(data)
        try:
            ok, errors = results_csv.parse_results_csv(data)
        except ValueError as exc:
            self.uploaded, self.upload_rows_read = None, 0
            self.upload_errors = [f"{name}: {exc}"]
            return
        self.uploaded, self.upload_errors = ok, list(errors)
        # rows that reached a verdict (accepted or rejected as a data row); a header problem
        # or an empty file is an error about the file, not a row
        header_problem = len(ok) == 0 and len(errors) == 1 and (
            "header" in errors[0] or "empty" in errors[0])
        self.upload_rows_read = 0 if header_problem else len(ok) + len(errors)

    # ------------------------------------------------------------------ data
    def games(self):
        """``(differences, scores)`` of the current source and filters."""
        self._check()
        if self.source == "upload":
            if self.uploaded is None or len(self.uploaded) == 0:
                return np.zeros(0), np.zeros(0)
            return self.uploaded.difference, self.uploaded.score
        a = _lichess_arrays()
        mask = a["rated"].copy() if self.rated_only else np.ones(a["rated"].shape, bool)
        if self.time_control in lichess.SPEEDS:
            mask &= a["speed"] == self.time_control
        elif self.time_control != "all":
            mask &= a["clock"] == self.time_control
        return a["difference"][mask], a["result"][mask]

    @property
    def n_games(self) -> int:
        """Games in the current selection."""
        return int(self.games()[0].size)

    def _key(self):
        if self.source == "upload":
            return "upload"
        return ("lichess", bool(self.rated_only), self.time_control, bool(self.white_advantage))

    def _fit(self):
        key = self._key()
        if key not in self._fits:
            d, s = self.games()
            if d.size == 0:
                result = ValueError("no games to fit: upload or paste results first"
                                    if self.source == "upload" else
                                    "no games match these filters")
            else:
                try:
                    result = calibration.fit_divisor(
                        d, s, white_advantage=bool(self.white_advantage)
                        and self.source == "lichess")
                except ValueError as exc:
                    result = exc
            self._fits[key] = result
        return self._fits[key]

    @property
    def fit(self) -> calibration.DivisorFit | None:
        """The fit on the current selection (``None`` if it cannot be fitted, see
        :attr:`fit_error`). Cached per selection, so moving a slider does not refit."""
        result = self._fit()
        return None if isinstance(result, Exception) else result

    @property
    def fit_error(self) -> str | None:
        """Why the current selection cannot be fitted, or ``None``."""
        result = self._fit()
        return str(result) if isinstance(result, Exception) else None

    @property
    def calibration(self) -> calibration.Calibration | None:
        """Buckets of :attr:`bucket` points against the fitted curve (all non-empty buckets)."""
        self._check()
        fit = self.fit
        if fit is not None:
            return fit.calibrate(bucket=self.bucket)
        d, s = self.games()
        if d.size == 0:
            return None
        return calibration.calibrate(d, s, bucket=self.bucket)

    def shown(self, calib=None) -> np.ndarray:
        """Boolean mask of the buckets with at least :attr:`min_games` games."""
        calib = self.calibration if calib is None else calib
        if calib is None:
            return np.zeros(0, dtype=bool)
        return calib.count >= self.min_games

    # ------------------------------------------------------------------ text
    def divisor_text(self) -> str:
        """``'÷543 (95 % interval 518 to 570)'``, or what an unusual fit means.

        The interval comes from the slope ln 10 / divisor, which may cross 0 (a flat curve)
        when the games say little: then the divisor's interval runs to infinity.
        """
        fit = self.fit
        if fit is None:
            return "no fit"
        b_lo, b_hi = fit.slope_interval
        lo = f"{math.log(10) / b_hi:.0f}" if b_hi > 0 else ""
        if fit.divisor > 0 and not math.isinf(fit.divisor):
            if b_lo > 0:
                return f"÷{fit.divisor:.0f} (95 % interval {lo} to {math.log(10) / b_lo:.0f})"
            return (f"÷{fit.divisor:.0f} (95 % interval {lo} to ∞: a flat curve, ratings "
                    "predicting nothing, cannot be excluded)")
        if math.isinf(fit.divisor):
            return "÷∞ (a flat curve: ratings predict nothing here)"
        text = f"negative ({fmt_signed(fit.divisor, 0)}): the higher-rated side scored less here"
        if b_hi > 0:
            text += f"; the 95 % interval still includes ÷{lo} to ∞ (flat)"
        return text

    def verdict(self) -> str:
        """Whether ÷400 is consistent with the selection (likelihood-ratio test)."""
        fit = self.fit
        if fit is None:
            return ""
        stat, p = fit.lr_test(400)
        lo, hi = fit.interval
        if lo <= 400 <= hi:
            return f"÷400 fits these games (inside the interval; {_p_value(p)})."
        side = "flatter" if fit.divisor > 400 else "steeper"
        return (f"÷400 does not fit: these games follow a {side} curve "
                f"(likelihood ratio {stat:.0f}, {_p_value(p)}).")

    def at_200(self) -> str:
        """What the two curves expect of a player 200 points up."""
        fit = self.fit
        e400 = 1 / (1 + 10 ** (-200 / 400))
        if fit is None:
            return f"A player 200 points up: ÷400 expects {fmt_pct(100 * e400)}."
        return (f"A player 200 points up: ÷400 expects {fmt_pct(100 * e400)}, "
                f"the fitted curve {fmt_pct(100 * float(fit.expected(200)))}.")

    def headline_html(self) -> str:
        """The summary block: games, divisor with interval, verdict, white advantage."""
        n = self.n_games
        what = ("your results" if self.source == "upload" else
                ("rated " if self.rated_only else "") + "Lichess games"
                + ("" if self.time_control == "all" else f" ({self._label()})"))
        parts = [value_html("Games:", f"{thousands(n)} {what}")]
        if self.fit is None:
            parts.append(f'<span class="ee-fit-error">Cannot fit: {html.escape(self.fit_error)}'
                         "</span>")
        else:
            parts.append(value_html("Fitted divisor:", self.divisor_text(), big=True,
                                    css="ee-divisor"))
            parts.append(html.escape(self.verdict()))
            parts.append(html.escape(self.at_200()))
            fit = self.fit
            if fit.fits_white_advantage:
                lo, hi = fit.white_advantage_interval
                parts.append(value_html(
                    "White's first-move advantage:",
                    f"{fmt_signed(fit.white_advantage, 0)} points "
                    f"(95 % {fmt_signed(lo, 0)} to {fmt_signed(hi, 0)})"))
        return "<br>".join(parts)

    def _label(self) -> str:
        if "+" in self.time_control:
            return self.time_control          # an exact clock: "10+0"
        for label, key in self._options:
            if key == self.time_control:
                return label.split(" (")[0]
        return self.time_control

    def table_rows(self):
        """Rows of the calibration table (shown buckets only)."""
        calib = self.calibration
        if calib is None:
            return []
        keep = self.shown(calib)
        return [
            [fmt_signed(c, 0), thousands(n), fmt_pct(100 * a), fmt_pct(100 * e4), fmt_pct(100 * ef)]
            for c, n, a, e4, ef in zip(calib.center[keep], calib.count[keep],
                                       calib.actual[keep], calib.expected_400[keep],
                                       calib.expected[keep])
        ]

    TABLE_COLUMNS = ("Difference", "Games", "Actual score", "Expected ÷400",
                     "Expected (fit)")

    def table_html(self) -> str:
        calib = self.calibration
        rows = self.table_rows()
        if calib is None:
            return ""
        hidden = ~self.shown(calib)
        caption = (f"Buckets of {self.bucket} points (by their centre) with at least "
                   f"{self.min_games} games")
        note = ""
        if hidden.any():
            note = (f'<div class="ee-note">{int(hidden.sum())} buckets with fewer games '
                    f"({thousands(calib.count[hidden].sum())} games) not shown; all games "
                    "count in the fit.</div>")
        return table_html(self.TABLE_COLUMNS, rows, caption=caption) + note

    def upload_report(self) -> tuple[str, list[str], int]:
        """``(summary, shown error messages, number of further errors)``."""
        shown = self.upload_errors[:MAX_SHOWN_ERRORS]
        return self.upload_summary, shown, len(self.upload_errors) - len(shown)

    @property
    def upload_summary(self) -> str:
        """``'N rows read, M rejected'`` for the last upload (``''`` before any)."""
        if self.uploaded is None and not self.upload_errors:
            return ""
        rejected = len(self.upload_errors) if self.upload_rows_read else 0
        return f"{self.upload_rows_read} rows read, {rejected} rejected"

    UPLOAD_HELP = (
        "<h3>Your own results</h3><div class='ee-note'>A CSV file with the columns "
        "<code>rating, opponent, score</code> (a header row naming them; score 1, 0.5 or 0, "
        f"also win / draw / loss), at most {MAX_UPLOAD_BYTES // 1_000_000} MB, or the same rows "
        "pasted below. Every row that cannot be used is listed with its row number (the header "
        "is row 1).</div>")

    def upload_report_html(self) -> str:
        """Help text, then ``'N rows read, M rejected'`` and the capped list of reasons."""
        return self.UPLOAD_HELP + self._upload_result_html()

    def _upload_result_html(self) -> str:
        summary, shown, more = self.upload_report()
        if not summary:
            return ('<div class="ee-note ee-upload-summary">No results loaded yet: choose a CSV '
                    "file or paste rows below.</div>")
        items = "".join(f"<li>{html.escape(e)}</li>" for e in shown)
        if more:
            items += f"<li>… and {more} more rejected rows</li>"
        name = html.escape(self.upload_name)
        body = f'<div class="ee-upload-summary"><b>{name}:</b> {html.escape(summary)}</div>'
        if items:
            body += f'<ul class="ee-row-errors">{items}</ul>'
        return body

    # ------------------------------------------------------------------ plot data
    def curves(self, x: np.ndarray):
        """``(E ÷400, E fitted or None, (lower, upper) band or None)`` at differences ``x``."""
        e400 = 1 / (1 + 10 ** (-x / 400))
        fit = self.fit
        if fit is None:
            return e400, None, None
        ef = np.asarray(fit.expected(x), dtype=float)
        w = fit.white_advantage
        band = []
        for div in fit.interval:
            if math.isinf(div):
                band.append(np.full_like(x, 0.5))
            else:
                band.append(1 / (1 + 10 ** (-(x + w) / div)))
        return e400, ef, (np.minimum(*band), np.maximum(*band))


class CalibrateView:
    """The widgets of dashboard 8, linked to a :class:`CalibrateModel`; ``.root`` is shown."""

    def __init__(self, model: CalibrateModel | None = None):
        self.model = model = model or CalibrateModel()
        self.status = widgets.HTML()
        self.status.add_class("ee-error")
        self.status.add_class("ee-status")
        wide = {"description_width": "initial"}

        self.source = widgets.ToggleButtons(
            options=[("Bundled Lichess games", "lichess"), ("Your results", "upload")],
            value=model.source, style={"button_width": "13em"},
            tooltips=["About 19,000 real games from lichess.org (CC0)",
                      "The CSV you upload or paste below"])
        self.source.add_class("ee-source")
        self.rated = widgets.Checkbox(value=model.rated_only, description="Rated games only",
                                      indent=False, layout=widgets.Layout(width="13em"))
        self.rated.add_class("ee-rated")
        self.time_control = widgets.Dropdown(
            options=model.time_control_options(), value=model.time_control,
            description="Time control:", style=wide, layout=widgets.Layout(width="26em"))
        self.time_control.add_class("ee-time-control")
        self.white = widgets.Checkbox(value=model.white_advantage, indent=False,
                                      description="Fit white's first-move advantage",
                                      layout=widgets.Layout(width="20em"))
        self.white.add_class("ee-white")
        self.bucket = widgets.IntSlider(
            value=model.bucket, min=BUCKET_RANGE[0], max=BUCKET_RANGE[1], step=25,
            description="Bucket width", style=wide, continuous_update=False)
        self.bucket.add_class("ee-bucket")
        self.min_games = widgets.IntSlider(
            value=model.min_games, min=MIN_GAMES_RANGE[0], max=MIN_GAMES_RANGE[1],
            description="Min. games per bucket", style=wide, continuous_update=False)
        self.min_games.add_class("ee-min-games")

        self.headline = widgets.HTML()
        self.headline.add_class("ee-headline")
        self.table = widgets.HTML(layout=widgets.Layout(height="520px", overflow="auto",
                                                        width="430px", flex="0 0 430px"))
        self.table.add_class("ee-calibration-table")

        # the figure: calibration on top, games per bucket below
        self.view = FigureView(figsize=(6.4, 5.0), width="650px",
                                   margins=dict(left=0.14, right=0.97, bottom=0.1, top=0.92,
                                                hspace=0.08))
        fig = self.view.fig
        fig.delaxes(self.view.ax)
        self.ax, self.ax_n = fig.subplots(2, 1, sharex=True, height_ratios=[3, 1],
                                          gridspec_kw=self.view.margins)
        ax, axn = self.ax, self.ax_n
        self.band = ax.fill_between([0, 1], [0, 0], [0, 0], color="#d62728", alpha=0.15,
                                    linewidth=0, label="fit, 95 % interval")
        self.line_400, = ax.plot([], [], color="#1f77b4", lw=1.8, label="chess curve ÷400")
        self.line_fit, = ax.plot([], [], color="#d62728", lw=1.8, label="fitted curve")
        self.bars = LineCollection([], colors="#333333", linewidths=1.2)
        ax.add_collection(self.bars)
        self.points, = ax.plot([], [], "o", color="#333333", ms=4.5,
                               label="actual mean score (±1.96 SE)")
        ax.set_ylim(0, 1)
        ax.set_ylabel("Mean score of the higher side")
        ax.yaxis.set_major_formatter(lambda y, _: f"{100 * y:.0f} %")
        ax.grid(alpha=0.3)
        self._legend()
        self.counts = axn.stairs([1], [0, 1], fill=True, color="#9ecae1", baseline=0.8)
        self.min_line = axn.axhline(model.min_games, color="#b00020", lw=1, ls="--")
        axn.set_yscale("log")
        axn.yaxis.set_major_formatter(lambda y, _: f"{y:,.0f}")
        axn.set_ylabel("Games")
        self.view.dynamic(self.band, self.line_400, self.line_fit, self.bars, self.points,
                          self.counts, self.min_line)
        axn.grid(alpha=0.3)
        self.xlabel = axn.set_xlabel("")

        self.upload = widgets.FileUpload(accept=".csv,text/csv,text/plain", multiple=False,
                                         description="Choose CSV file")
        self.upload.add_class("ee-upload")
        self.paste = widgets.Textarea(
            placeholder="rating,opponent,score\n1620,1500,1\n1620,1710,0\n1620,1580,0.5",
            layout=widgets.Layout(width="30em", height="9em"))
        self.paste.add_class("ee-paste")
        self.fit_button = widgets.Button(description="Fit pasted results",
                                         button_style="primary")
        self.fit_button.add_class("ee-fit-pasted")
        self.example_button = widgets.Button(description="Paste an example")
        self.example_button.add_class("ee-example")
        self.report = widgets.HTML()
        self.report.add_class("ee-upload-report")

        self._update = guarded(self.status)(self.update)
        for w in (self.rated, self.time_control, self.white, self.bucket, self.min_games,
                  self.source):
            w.observe(self._on_input, names="value")
        self.upload.observe(guarded(self.status)(self._on_upload), names="value")
        self.fit_button.on_click(guarded(self.status)(self._on_paste))
        self.example_button.on_click(guarded(self.status)(self._on_example))

        self.root = app_root([
            widgets.GridBox([self.source, self.rated, self.white,
                             self.time_control, self.bucket, self.min_games],
                            layout=widgets.Layout(grid_template_columns="27em 22em 25em",
                                                  align_items="center")),
            self.status,
            self.headline,
            widgets.HBox([self.view.out, self.table]),
            self.report,
            widgets.HBox([self.paste, widgets.VBox([self.upload, self.fit_button,
                                                    self.example_button])]),
        ])
        self._update()

    def _legend(self):
        """The key above the plot (outside the data: it is part of the static background)."""
        self.ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01), ncols=2, fontsize=8,
                       frameon=False, borderaxespad=0, handlelength=1.6)

    # -------------------------------------------------------------- callbacks
    def _on_input(self, change=None):
        m = self.model
        m.source = self.source.value
        m.rated_only = self.rated.value
        m.time_control = self.time_control.value
        m.white_advantage = self.white.value
        m.bucket = int(self.bucket.value)
        m.min_games = int(self.min_games.value)
        self._update()

    def _on_upload(self, change):
        files = change["new"]
        if not files:
            return
        item = files[0]
        name = item.get("name", "upload") if isinstance(item, dict) else getattr(item, "name")
        content = item["content"] if isinstance(item, dict) else item.content
        self.model.load_csv(bytes(content), name)
        self.upload.value = ()  # so that choosing the same file again reloads it
        self._after_load()

    def _on_paste(self, _button=None):
        self.model.load_csv(self.paste.value, "pasted text")
        self._after_load()

    def _on_example(self, _button=None):
        self.paste.value = EXAMPLE_CSV

    def _after_load(self):
        if self.source.value != "upload":
            self.source.value = "upload"  # triggers update
        else:
            self._update()

    # -------------------------------------------------------------- drawing
    def update(self):
        """Recompute from the model and mutate the artists (no new figure)."""
        m = self.model
        lichess_source = m.source == "lichess"
        for w in (self.rated, self.time_control, self.white):
            w.disabled = not lichess_source
        self.headline.value = m.headline_html()
        self.table.value = TABLE_STYLE + m.table_html()
        self.report.value = TABLE_STYLE + m.upload_report_html()
        calib = m.calibration
        if calib is None:
            lo, hi = -400.0, 400.0
            keep = np.zeros(0, dtype=bool)
        else:
            keep = m.shown(calib)
            centers = calib.center[keep] if keep.any() else calib.center
            lo = float(centers.min() - calib.bucket)
            hi = float(centers.max() + calib.bucket)
            if hi - lo < 400:
                mid = (hi + lo) / 2
                lo, hi = mid - 200, mid + 200
            # whole hundreds: most slider moves keep the axes, so only the data is redrawn
            lo, hi = math.floor(lo / 100) * 100, math.ceil(hi / 100) * 100
        x = np.linspace(lo, hi, 200)
        e400, ef, band = m.curves(x)
        self.line_400.set_data(x, e400)
        if ef is None:
            self.line_fit.set_data([], [])
            self.band.set_verts([np.zeros((0, 2))])
            self.line_fit.set_label("fitted curve")
        else:
            self.line_fit.set_data(x, ef)
            verts = np.concatenate([np.column_stack([x, band[0]]),
                                    np.column_stack([x[::-1], band[1][::-1]])])
            self.band.set_verts([verts])
            self.line_fit.set_label(f"fitted curve ÷{m.fit.divisor:.0f}"
                                    if m.fit.divisor > 0 else "fitted curve")
        if calib is not None and keep.any():
            xs = calib.mean_difference[keep]
            ys = calib.actual[keep]
            err = 1.96 * calib.actual_se[keep]
            self.points.set_data(xs, ys)
            self.bars.set_segments([[(a, b - e), (a, b + e)] for a, b, e in zip(xs, ys, err)])
        else:
            self.points.set_data([], [])
            self.bars.set_segments([])
        self._legend()
        if calib is not None:
            # every bucket from the first to the last non-empty one (empty ones count 0)
            first = calib.center[0]
            index = np.rint((calib.center - first) / calib.bucket).astype(np.int64)
            full = np.zeros(int(index[-1]) + 1)
            full[index] = calib.count
            edges = first - calib.bucket / 2 + calib.bucket * np.arange(full.size + 1)
            self.counts.set_data(full, edges)
            top = 10.0 ** max(1, math.ceil(math.log10(float(calib.count.max()) * 2)))
        else:
            self.counts.set_data([0.0], [lo, hi])
            top = 10.0
        self.ax_n.set_ylim(0.8, top)
        self.min_line.set_ydata([m.min_games, m.min_games])
        self.ax.set_xlim(lo, hi)
        self.xlabel.set_text("Rating difference, white − black (points)" if lichess_source
                             else "Your rating − opponent's rating (points)")
        self.ax.set_ylabel("Mean score of white" if lichess_source else "Your mean score")
        self.view.refresh()


def calibrate_dashboard() -> widgets.VBox:
    """The root widget of dashboard 8 (what the notebook's last cell returns)."""
    return CalibrateView().root
