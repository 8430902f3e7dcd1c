"""Dashboard 8, *Calibrate the curve*: the divisor that real games imply.

:class:`CalibrateModel` selects games -- the bundled Lichess games (rated only, a time
control) or a reader's results read by :func:`elo_explain.results_csv.parse_results_csv`
(every bad row kept as ``"row N: reason"``) -- fits the divisor to them
(:func:`elo_explain.calibration.fit_divisor`) and buckets them by rating difference
(:meth:`~elo_explain.calibration.DivisorFit.calibrate`). A reader's upload is an ordinary
trait (:attr:`CalibrateModel.upload`, an :class:`Upload`), so the notebook's fit and
calibration tables follow it as they follow the filters. :class:`CalibrateView` shows the
fit, the calibration plot and the upload / paste box.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from functools import lru_cache

import ipywidgets as widgets
import numpy as np
import traitlets
from matplotlib.collections import LineCollection

from elo_explain import calibration, lichess, results_csv
from elo_explain.formats import MINUS, fmt_number, fmt_pct, fmt_plain, fmt_signed, symbols
from elo_explain.i18n import N_, _, language, ngettext
from elo_explain.interactive.budget import DEFAULT_BUDGET, set_budget
from elo_explain.interactive.figures import FigureView, update_limits
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box, value_html
from elo_explain.interactive.traits import FieldError, Whole, shown_label
from elo_explain.interactive.view import DashboardView
from elo_explain.rounding import round_half_away
from elo_explain.tables import Table

__all__ = [
    "CalibrateModel",
    "CalibrateView",
    "Upload",
    "time_control_options",
    "MAX_UPLOAD_BYTES",
    "MAX_SHOWN_ERRORS",
    "EXAMPLE_CSV",
]

#: Largest file (or pasted text) accepted, in bytes.
MAX_UPLOAD_BYTES = 2_000_000
#: a file or paste over the limit ({name}: the file's name or "pasted text"; {size}: MB, to
#: 0.1; {limit}: :data:`MAX_UPLOAD_BYTES` in MB), translated where shown (:func:`too_big`)
TOO_BIG = N_(
    "{name} is {size} MB; the limit is {limit} MB: split it or keep the rating, "
    "opponent and score columns only"
)
#: the names the page's script gives a paste and a file it refuses (as :meth:`Upload.read`)
PASTED_TEXT, THE_FILE = N_("pasted text"), N_("the file")


def too_big(name: str = "{name}", size: str = "{size}") -> str:
    """:data:`TOO_BIG` in the page's language, with the limit filled in (by default the
    ``{name}`` and ``{size}`` fields are kept, for the page's script).

    >>> too_big("big.csv", "2.3")
    'big.csv is 2.3 MB; the limit is 2 MB: split it or keep the rating, opponent and score columns only'
    """
    return _(TOO_BIG).format(name=name, size=size, limit=fmt_plain(MAX_UPLOAD_BYTES / 1e6))


def upload_limit() -> str:
    """The limit's marker on the published page, in the page's language: the page template's
    script reads ``.ee-limit`` and shows its ``data-message`` (:func:`too_big`, its ``{name}``
    and ``{size}`` filled in) before anything is sent, so a file of any size gets the
    kernel's own words; ``data-pasted`` and ``data-file`` are the names it gives a paste and
    an unnamed file, ``data-decimal`` the decimal symbol of ``{size}``."""
    attrs = {
        "data-bytes": str(MAX_UPLOAD_BYTES),
        "data-message": too_big(),
        "data-pasted": _(PASTED_TEXT),
        "data-file": _(THE_FILE),
        "data-decimal": symbols().decimal,
    }
    shown = " ".join(f'{k}="{html.escape(v)}"' for k, v in attrs.items())
    return f'<span class="ee-limit ee-error" {shown}></span>'


#: How many bad-row messages are listed; the rest are counted.
MAX_SHOWN_ERRORS = 12
#: A small example a reader can paste (row 10 is deliberately bad).
EXAMPLE_CSV = "rating,opponent,score\n" + "".join(
    f"1620,{row}\n"
    for row in (
        "1500,1",
        "1710,0",
        "1580,0.5",
        "1450,1",
        "1800,0",
        "1620,1",
        "1390,1",
        "1700,1",
        "abc,1",
        "1550,0",
        "1660,0.5",
        "1480,1",
    )
)


def upload_help() -> str:
    """What the upload box takes, in the page's language."""
    what = html.escape(_("a CSV with the header row {header}, at most {size} MB."), quote=False)
    return (
        "<div class='ee-note'><b>"
        + html.escape(_("Your results:"), quote=False)
        + "</b> "
        + what.format(
            header="<code>rating,opponent,score</code>",
            size=fmt_plain(MAX_UPLOAD_BYTES // 1_000_000),
        )
        + "</div>"
    )


#: Compact lines in the report (widgets' HTML has a tall default line height).
STYLE = "<style>.ee-upload-report .widget-html-content {line-height: 1.35;}</style>"
PASTE_NAME = N_("Your results to paste, one game a line: rating,opponent,score")


def _p_value(p: float) -> str:
    """A p-value for readers.

    >>> _p_value(0.0341), _p_value(0.0004), _p_value(4.9e-121), _p_value(0.0)
    ('p = 0.034', 'p < 0.001', 'p < 1e−120', 'p < 1e−300')
    """
    if p >= 1e-3:
        return f"p = {fmt_number(p, 3)}"
    if p >= 1e-10:
        return f"p < {fmt_number(0.001, 3)}"
    return f"p < 1e{MINUS}{min(-math.floor(math.log10(p)) - 1, 300) if p > 0 else 300}"


@lru_cache(maxsize=1)
def _lichess_columns() -> dict:
    g = lichess.load_games()
    return {
        "difference": g.difference.astype(float),
        "result": g.result.astype(float),
        "rated": g.rated,
        "clock": g.time_control,
        "speed": g.speed,
    }


#: Lichess's speed classes as the page names them, and their clocks.
SPEED_NAMES = {
    "bullet": N_("Bullet"),
    "blitz": N_("Blitz"),
    "rapid": N_("Rapid"),
    "classical": N_("Classical"),
}
SPEED_HINTS = {
    "bullet": N_("under 3 min"),
    "blitz": N_("3 to 8 min"),
    "rapid": N_("8 to 25 min"),
    "classical": N_("25 min and more"),
}


def _speed_name(speed: str) -> str:
    return _(SPEED_NAMES[speed]) if speed in SPEED_NAMES else speed.capitalize()


@lru_cache(maxsize=1)
def _time_control_keys(top: int = 8) -> tuple:
    """``(speeds, clocks)``: the speed classes with at least 100 games, the ``top`` most
    common exact clocks."""
    a = _lichess_columns()
    speeds = tuple(s for s in lichess.SPEEDS if np.count_nonzero(a["speed"] == s) >= 100)
    clocks, counts = np.unique(a["clock"], return_counts=True)
    return speeds, tuple(str(clocks[i]) for i in np.lexsort((clocks, -counts))[:top])


def time_control_options(top: int = 8) -> tuple:
    """``(label, key)`` choices: all games, the Lichess speed classes with at least 100
    games, then the ``top`` most common exact clocks (key ``"10+0"``...); the labels in the
    page's language.

    >>> [key for _, key in time_control_options()][:5]
    ['all', 'rapid', 'classical', '10+0', '15+0']
    >>> time_control_options()[1][0]
    'Rapid (Lichess class, 8 to 25 min)'
    """
    speeds, clocks = _time_control_keys(top)
    out = [(_("All time controls"), "all")]
    out += [
        (
            _("{speed} (Lichess class, {clock})").format(
                speed=_speed_name(s), clock=_(SPEED_HINTS[s]) if s in SPEED_HINTS else ""
            ),
            s,
        )
        for s in speeds
    ]
    out += [(_("{clock} only (minutes + increment)").format(clock=c), c) for c in clocks]
    return tuple(out)


@lru_cache(maxsize=32)
def _lichess_games(rated_only: bool, time_control: str):
    a = _lichess_columns()
    mask = a["rated"].copy() if rated_only else np.ones(a["rated"].shape, bool)
    if time_control != "all":
        mask &= a["speed" if time_control in lichess.SPEEDS else "clock"] == time_control
    d, s = a["difference"][mask], a["result"][mask]
    d.setflags(write=False), s.setflags(write=False)
    return d, s


def _fit(d, s, white_advantage: bool, empty: str):
    """``(DivisorFit, None)``, or ``(None, why it cannot be fitted)``."""
    if d.size == 0:
        return None, empty
    try:
        return calibration.fit_divisor(d, s, white_advantage=white_advantage), None
    except ValueError as exc:
        return None, str(exc)


@lru_cache(maxsize=32)
def _lichess_fit(rated_only: bool, time_control: str, white_advantage: bool, lang: str):
    """The fit of the bundled games (``lang``: the page's language, that of the message)."""
    return _fit(
        *_lichess_games(rated_only, time_control),
        white_advantage,
        _("no games match these filters"),
    )


NO_UPLOAD = N_("no games to fit: upload or paste results first")


@dataclass(frozen=True, eq=False)
class Upload:
    """A reader's results as read (one value of :attr:`CalibrateModel.upload`): the file's
    ``name``, the rows read (``results``, ``None`` if none could be), every rejected row
    (``errors``, ``"row N: reason"``), the number of rows that reached a verdict
    (``rows_read``), the games as ``(differences, scores)`` and their fit ``(fit, why not)``."""

    name: str
    results: results_csv.UploadedResults | None
    errors: tuple
    rows_read: int
    games: tuple
    fit: tuple

    @classmethod
    def read(cls, data, name: str) -> Upload:
        """Read CSV text or bytes; a file over :data:`MAX_UPLOAD_BYTES` is refused."""
        size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
        results, rows_read = None, 0
        if size > MAX_UPLOAD_BYTES:
            errors = [too_big(name, fmt_number(size / 1e6, 1))]
        else:
            try:
                results, errors = results_csv.parse_results_csv(
                    data if isinstance(data, str) else bytes(data)
                )
                errors = list(errors)
            except ValueError as exc:
                errors = [f"{name}: {exc}"]
            # rows that reached a verdict; a header problem or an empty file is about the file
            n = 0 if results is None else len(results)
            about_file = (
                n == 0 and len(errors) == 1 and isinstance(errors[0], results_csv.FileProblem)
            )
            rows_read = 0 if about_file else n + len(errors)
        games = (
            (results.difference, results.score)
            if results is not None and len(results)
            else (np.zeros(0), np.zeros(0))
        )
        return cls(
            name, results, tuple(errors), rows_read, games, _fit(*games, False, _(NO_UPLOAD))
        )


#: What the games are: the source, the bundled games' filters, the reader's upload.
GAMES = ("source", "rated_only", "time_control", "upload")


class CalibrateModel(DashboardModel):
    """The games chosen, the divisor fitted to them and their calibration table.

    >>> m = CalibrateModel()
    >>> m.n_games                      # rated, deduplicated (lichess/SOURCE.md)
    15467
    >>> 500 < m.fit.divisor < 600
    True
    >>> m.load_csv("rating,opponent,score\\n1600,1500,1\\n1600,1700,1\\n1600,x,0\\n1600,1650,0\\n")
    >>> m.source, m.upload_summary, m.upload_errors
    ('upload', '4 rows read, 1 rejected', ["row 4: opponent 'x' is not a number"])
    """

    params = ("rated_only", "time_control", "bucket", "min_games", "white_advantage")
    source = traitlets.Enum(("lichess", "upload"), default_value="lichess")
    upload = traitlets.Instance(Upload, allow_none=True)
    """The reader's last upload or paste (``None`` before any)."""
    rated_only = traitlets.Bool(True).tag(label=N_("Rated games only"))
    # (its dropdown's words, "Time control:", without the colon)
    time_control = traitlets.Unicode("all").tag(label=N_("Time control"))
    bucket = Whole(100, 25, 200, label=N_("Bucket width"))
    min_games = Whole(30, 1, 300, label=N_("Min. games per bucket"))
    white_advantage = traitlets.Bool(False).tag(label=N_("Fit white's first-move advantage"))

    @traitlets.validate("time_control")
    def _valid_time_control(self, proposal):
        keys = [k for _, k in time_control_options()]
        if proposal.value not in keys:
            raise FieldError(
                _("{label} must be one of {values}, got {value}").format(
                    label=shown_label(proposal.trait),
                    values=", ".join(keys),
                    value=repr(proposal.value),
                )
            )
        return proposal.value

    def load_csv(self, data, name: str | None = None) -> None:
        """Read a reader's results (CSV text or bytes) and switch to them, in one change;
        every rejected row is in :attr:`upload_errors`, a file over :data:`MAX_UPLOAD_BYTES`
        is refused.

        >>> m = CalibrateModel(); m.load_csv(b"x" * (MAX_UPLOAD_BYTES + 1), "big.csv")
        >>> m.upload_errors
        ['big.csv is 2.0 MB; the limit is 2 MB: split it or keep the rating, opponent and score columns only']
        """
        with self.batch():
            self.upload = Upload.read(data, _(PASTED_TEXT) if name is None else name)
            self.source = "upload"

    # the last upload, as read
    @property
    def uploaded(self) -> results_csv.UploadedResults | None:
        return None if self.upload is None else self.upload.results

    @property
    def upload_errors(self) -> list[str]:
        return [] if self.upload is None else list(self.upload.errors)

    @property
    def upload_name(self) -> str:
        return "" if self.upload is None else self.upload.name

    @property
    def upload_rows_read(self) -> int:
        return 0 if self.upload is None else self.upload.rows_read

    @property
    def upload_summary(self) -> str:
        """``'N rows read, M rejected'`` for the last upload (``''`` before any)."""
        if self.uploaded is None and not self.upload_errors:
            return ""
        rejected = len(self.upload_errors) if self.upload_rows_read else 0
        return ngettext(
            "{read} row read, {rejected} rejected",
            "{read} rows read, {rejected} rejected",
            self.upload_rows_read,
        ).format(read=fmt_plain(self.upload_rows_read), rejected=fmt_plain(rejected))

    @depends(*GAMES)
    def games(self):
        """``(differences, scores)`` of the current source and filters."""
        if self.source == "upload":
            return (np.zeros(0), np.zeros(0)) if self.upload is None else self.upload.games
        return _lichess_games(bool(self.rated_only), self.time_control)

    @property
    def n_games(self) -> int:
        return int(self.games()[0].size)

    @depends(*GAMES, "white_advantage")
    def _fit_and_error(self):
        if self.source == "upload":
            return (None, _(NO_UPLOAD)) if self.upload is None else self.upload.fit
        return _lichess_fit(
            bool(self.rated_only), self.time_control, bool(self.white_advantage), language()
        )

    @property
    def fit(self) -> calibration.DivisorFit | None:
        """The fit on the current games (``None`` if they cannot be fitted: :attr:`fit_error`)."""
        return self._fit_and_error()[0]

    @property
    def fit_error(self) -> str | None:
        return self._fit_and_error()[1]

    @property
    @depends(*GAMES, "white_advantage", "bucket")
    def calibration(self) -> calibration.Calibration | None:
        """Buckets of :attr:`bucket` points against the fitted curve (all non-empty ones)."""
        fit = self.fit
        if fit is not None:
            return fit.calibrate(bucket=self.bucket)
        d, s = self.games()
        return calibration.calibrate(d, s, bucket=self.bucket) if d.size else None

    @depends(_fit_and_error)
    def fit_table(self) -> Table:
        """The fitted divisor, its 95 % interval and the chess curve's likelihood-ratio test."""
        fit = self.fit
        if fit is None:
            raise ValueError(
                _("No divisor can be fitted to these games: {why}").format(why=self.fit_error)
            )
        lo, hi = fit.interval
        stat, p = fit.lr_test(400)
        row = [
            self.n_games,
            fit.divisor,
            lo,
            hi,
            _("yes") if lo <= 400 <= hi else _("no"),
            _p_value(p),
        ]
        columns = [
            _("Games"),
            _("Fitted divisor"),
            _("95 % interval from"),
            _("to"),
            _("÷400 inside?"),
            _("÷400 against the fit"),
        ]
        if fit.fits_white_advantage:
            row.append(fit.white_advantage)
            columns.append(_("White's first-move advantage (points)"))
        return Table(
            columns,
            [row],
            _("The divisor these games imply (maximum likelihood)"),
            ("{:,}", "÷{:.1f}", "{:.1f}", "{:.1f}", None, None, "{:+.0f}")[: len(row)],
        )

    @depends(*GAMES, "white_advantage", "bucket", "min_games")
    def table(self) -> Table:
        """The calibration table: buckets with at least :attr:`min_games` games (none when
        there are no games)."""
        calib = self.calibration
        columns = (
            _("Difference"),
            _("Games"),
            _("Actual score"),
            _("Expected ÷400"),
            _("Expected (fit)"),
        )
        if calib is None:
            return Table(columns, [], _("No games to put in buckets"))
        keep = calib.count >= self.min_games
        rows = zip(
            calib.center[keep].tolist(),
            calib.count[keep].tolist(),
            *(100 * a[keep] for a in (calib.actual, calib.expected_400, calib.expected)),
        )
        if self.source == "upload":
            caption = ngettext(
                "Buckets of {bucket} points (by their centre) with at least "
                "{games} game: your results",
                "Buckets of {bucket} points (by their centre) with at least "
                "{games} games: your results",
                self.min_games,
            )
        else:
            caption = ngettext(
                "Buckets of {bucket} points (by their centre) with at least "
                "{games} game: the Lichess games chosen",
                "Buckets of {bucket} points (by their centre) with at least "
                "{games} games: the Lichess games chosen",
                self.min_games,
            )
        return Table(
            columns,
            rows,
            caption.format(bucket=fmt_plain(self.bucket), games=fmt_plain(self.min_games)),
            (lambda c: fmt_signed(c, 0), "{:,}", fmt_pct, fmt_pct, fmt_pct),
        )

    @depends(*GAMES, "white_advantage")
    def curves(self, x: np.ndarray):
        """``(E ÷400, E fitted or None, (lower, upper) band or None)`` at differences ``x``."""
        e400 = calibration.expected_curve(x)
        fit = self.fit
        if fit is None:
            return e400, None, None
        band = [calibration.expected_curve(x, div, fit.white_advantage) for div in fit.interval]
        return e400, np.asarray(fit.expected(x), float), (np.minimum(*band), np.maximum(*band))


class CalibrateView(DashboardView):
    """The filters, the fit, the calibration plot and the upload / paste box."""

    docked = ("rated_only", "white_advantage", "bucket", "min_games")
    key_target = "ee-headline"

    def key_result(self) -> str:
        """The fitted divisor."""
        fit = self.model.fit
        return "" if fit is None else f"{_('Fitted divisor:')} {self._divisor_text(fit)}"

    def build(self):
        self.source = self.toggles(
            "source",
            [(_("Bundled Lichess games"), "lichess"), (_("Your results"), "upload")],
            label="",
        )
        self.source.tooltips = [
            _("{all} real games from lichess.org, {rated} of them rated (CC0)").format(
                all=fmt_number(19113, 0, grouping=True), rated=fmt_number(15467, 0, grouping=True)
            ),
            _("The CSV you upload or paste below"),
        ]
        self.rated = self.checkbox("rated_only", label=_("Rated games only"))
        self.white = self.checkbox("white_advantage", label=_("Fit white's first-move advantage"))
        self.time_control = self.dropdown(
            "time_control", time_control_options(), label=_("Time control:"), width="24em"
        )
        self.bucket = self.slider("bucket", step=25, width="30em", label_width="12em")
        self.min_games = self.slider("min_games", width="30em", label_width="12em")
        self.headline = html_box("ee-headline", width="auto")
        self.report = html_box("ee-upload-report", width="auto")
        self.upload = widgets.FileUpload(
            accept=".csv,text/csv,text/plain", multiple=False, description=_("Choose CSV file")
        )
        self.paste = widgets.Textarea(
            placeholder="rating,opponent,score\n1620,1500,1\n1620,1710,0\n1620,1580,0.5",
            tooltip=_(PASTE_NAME),
            layout={"width": "30em", "height": "9em"},
        )
        self.fit_button = widgets.Button(
            description=_("Fit pasted results"), button_style="primary"
        )
        self.example_button = widgets.Button(description=_("Paste an example"))
        for w in (self.upload, self.paste):  # a file or a paste up to the limit, in the kernel
            set_budget(w, MAX_UPLOAD_BYTES + DEFAULT_BUDGET)
        for w, css in (
            (self.upload, "ee-upload"),
            (self.paste, "ee-paste"),
            (self.fit_button, "ee-fit-pasted"),
            (self.example_button, "ee-example"),
        ):
            w.add_class(css)
        self.upload.observe(self.guard(self._on_upload), names="value")
        self.fit_button.on_click(
            self.guard(lambda _b: self._load(self.paste.value, _(PASTED_TEXT)))
        )
        self.example_button.on_click(lambda _b: setattr(self.paste, "value", EXAMPLE_CSV))
        self._build_figure()
        return [
            widgets.HBox([self.source, self.rated, self.white]),
            self.time_control,
            widgets.HBox([self.bucket, self.min_games]),
            self.headline,
            self.view.out,
            self.report,
            self._limited(),
        ]

    def _limited(self) -> widgets.Box:
        """The paste box and the upload button with their size limit, which the published
        page checks before sending (the page template's script reads ``.ee-limit``: a file or
        paste over it is never sent, at any size, and gets the same message as
        :meth:`CalibrateModel.load_csv`)."""
        limit = html_box("ee-limit-box", upload_limit())
        box = widgets.HBox(
            [self.paste, widgets.VBox([self.upload, self.fit_button, self.example_button, limit])]
        )
        box.add_class("ee-limited")
        return box

    def _build_figure(self):
        """Calibration on top, games per bucket below; the data artists are blitted."""
        self.view = FigureView(
            figsize=(6.4, 5.0),
            width="650px",
            margins=dict(left=0.14, right=0.97, bottom=0.1, top=0.92, hspace=0.08),
        )
        fig = self.view.fig
        fig.delaxes(self.view.ax)
        self.ax, self.ax_n = ax, axn = fig.subplots(
            2, 1, sharex=True, height_ratios=[3, 1], gridspec_kw=self.view.margins
        )
        self.band = ax.fill_between(
            [0, 1],
            [0, 0],
            [0, 0],
            color="#d62728",
            alpha=0.15,
            linewidth=0,
            label=_("fit, 95 % interval"),
        )
        (self.line_400,) = ax.plot([], [], color="#1f77b4", lw=1.8, label=_("chess curve ÷400"))
        (self.line_fit,) = ax.plot([], [], color="#d62728", lw=1.8, label=_("fitted curve"))
        self.bars = ax.add_collection(LineCollection([], colors="#333333", linewidths=1.2))
        (self.points,) = ax.plot(
            [], [], "o", color="#333333", ms=4.5, label=_("actual mean score (±1.96 SE)")
        )
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(lambda y, _pos: fmt_pct(100 * y, 0))
        self.counts = axn.stairs([1], [0, 1], fill=True, color="#9ecae1", baseline=0.8)
        self.min_line = axn.axhline(self.model.min_games, color="#b00020", lw=1, ls="--")
        axn.set_yscale("log")
        axn.yaxis.set_major_formatter(lambda y, _pos: fmt_number(y, 0, grouping=True))
        axn.set_ylabel(_("Games"))
        for a in (ax, axn):
            a.grid(alpha=0.3)
        self.view.dynamic(
            self.band,
            self.line_400,
            self.line_fit,
            self.bars,
            self.points,
            self.counts,
            self.min_line,
        )

    def _on_upload(self, change):
        if change["new"]:
            item = change["new"][0]
            name = item.get("name", _(THE_FILE)) if isinstance(item, dict) else item.name
            content = item["content"] if isinstance(item, dict) else item.content
            self.upload.value = ()  # so that choosing the same file again reloads it
            self._load(bytes(content), name)

    def _load(self, data, name):
        self.model.load_csv(data, name)  # a new upload, and the source: one change

    # ------------------------------------------------------------------ rendering
    @depends("source")
    def show_source(self):
        """The bundled games' filters are off while the reader's results are shown."""
        for w in (self.rated, self.time_control, self.white):
            w.disabled = self.model.source == "upload"

    @depends(CalibrateModel.table)
    def show_headline(self):
        self.headline.value = self._headline(self.model.calibration)

    @depends("upload")
    def show_report(self):
        self.report.value = STYLE + upload_help() + self._report()

    @depends(CalibrateModel.table)
    def draw(self):
        self._draw(self.model.calibration)

    def _headline(self, calib) -> str:
        m, fit = self.model, self.model.fit
        n, count = fmt_number(m.n_games, 0, grouping=True), m.n_games
        if m.source == "upload":
            what = _("{games} your results").format(games=n)
        elif m.time_control == "all":
            what = (
                ngettext("{games} rated Lichess game", "{games} rated Lichess games", count)
                if m.rated_only
                else ngettext("{games} Lichess game", "{games} Lichess games", count)
            ).format(games=n)
        else:
            clock = m.time_control if "+" in m.time_control else _speed_name(m.time_control)
            what = (
                ngettext(
                    "{games} rated Lichess game ({clock})",
                    "{games} rated Lichess games ({clock})",
                    count,
                )
                if m.rated_only
                else ngettext(
                    "{games} Lichess game ({clock})", "{games} Lichess games ({clock})", count
                )
            ).format(games=n, clock=clock)
        parts = [value_html(_("Games:"), what)]
        if calib is not None:
            hidden = calib.count < m.min_games
            shown = _("{buckets} shown").format(buckets=fmt_plain(int((~hidden).sum())))
            if hidden.any():
                shown = _(
                    "{buckets} shown; {fewer} with fewer ({games} games) not shown, all "
                    "games count in the fit"
                ).format(
                    buckets=fmt_plain(int((~hidden).sum())),
                    fewer=fmt_plain(int(hidden.sum())),
                    games=fmt_number(int(calib.count[hidden].sum()), 0, grouping=True),
                )
            parts.append(
                value_html(
                    ngettext(
                        "Buckets of {bucket} points (by their centre) with at least {games} game:",
                        "Buckets of {bucket} points (by their centre) with at least {games} games:",
                        m.min_games,
                    ).format(bucket=fmt_plain(m.bucket), games=fmt_plain(m.min_games)),
                    shown,
                    css="ee-buckets",
                )
            )
        e400 = fmt_pct(100 * float(calibration.expected_curve(200)))
        if fit is None:
            return "<br>".join(
                parts
                + [
                    '<span class="ee-fit-error">'
                    + html.escape(_("Cannot fit: {why}").format(why=m.fit_error))
                    + "</span>",
                    _("A player 200 points up: ÷400 expects {e400}.").format(e400=e400),
                ]
            )
        lo, hi = fit.interval
        stat, p = fit.lr_test(400)
        if lo <= 400 <= hi:
            verdict = _("÷400 fits these games (inside the interval; {p}).").format(p=_p_value(p))
        else:
            verdict = (
                _(
                    "÷400 does not fit: these games follow a flatter curve (likelihood "
                    "ratio {ratio}, {p})."
                )
                if fit.divisor > 400
                else _(
                    "÷400 does not fit: these games follow a steeper curve (likelihood "
                    "ratio {ratio}, {p})."
                )
            ).format(ratio=fmt_number(stat, 0), p=_p_value(p))
        parts += [
            value_html(_("Fitted divisor:"), self._divisor_text(fit), big=True, css="ee-divisor"),
            html.escape(verdict),
            _("A player 200 points up: ÷400 expects {e400}, the fitted curve {fitted}.").format(
                e400=e400, fitted=fmt_pct(100 * float(fit.expected(200)))
            ),
        ]
        if fit.fits_white_advantage:
            wlo, whi = fit.white_advantage_interval
            parts.append(
                value_html(
                    _("White's first-move advantage:"),
                    ngettext(
                        "{points} point (95 % {low} to {high})",
                        "{points} points (95 % {low} to {high})",
                        abs(round_half_away(fit.white_advantage)),
                    ).format(
                        points=fmt_signed(fit.white_advantage, 0),
                        low=fmt_signed(wlo, 0),
                        high=fmt_signed(whi, 0),
                    ),
                )
            )
        return "<br>".join(parts)

    @staticmethod
    def _divisor_text(fit) -> str:
        """``'÷543 (95 % interval 518 to 570)'``, or what an unusual fit means: the slope
        ln 10 / divisor may cross 0 (a flat curve) when the games say little."""
        b_lo, b_hi = fit.slope_interval
        lo = fmt_number(math.log(10) / b_hi, 0) if b_hi > 0 else ""
        if math.isinf(fit.divisor):
            return _("÷∞ (a flat curve: ratings predict nothing here)")
        divisor = fmt_number(fit.divisor, 0)
        if fit.divisor > 0 and b_lo > 0:
            return _("÷{divisor} (95 % interval {low} to {high})").format(
                divisor=divisor, low=lo, high=fmt_number(math.log(10) / b_lo, 0)
            )
        if fit.divisor > 0:
            return _(
                "÷{divisor} (95 % interval {low} to ∞: a flat curve, ratings predicting "
                "nothing, cannot be excluded)"
            ).format(divisor=divisor, low=lo)
        if b_hi > 0:
            return _(
                "negative ({divisor}): the higher-rated side scored less here; the 95 % "
                "interval still includes ÷{low} to ∞ (flat)"
            ).format(divisor=fmt_signed(fit.divisor, 0), low=lo)
        return _("negative ({divisor}): the higher-rated side scored less here").format(
            divisor=fmt_signed(fit.divisor, 0)
        )

    def _report(self) -> str:
        m = self.model
        if not m.upload_summary:
            return (
                '<div class="ee-note ee-upload-summary">'
                + html.escape(
                    _("No results loaded yet: choose a CSV file or paste rows below."), quote=False
                )
                + "</div>"
            )
        items = "".join(f"<li>{html.escape(e)}</li>" for e in m.upload_errors[:MAX_SHOWN_ERRORS])
        if len(m.upload_errors) > MAX_SHOWN_ERRORS:
            left = len(m.upload_errors) - MAX_SHOWN_ERRORS
            more = ngettext(
                "… and {count} more rejected row", "… and {count} more rejected rows", left
            ).format(count=fmt_plain(left))
            items += f"<li>{html.escape(more, quote=False)}</li>"
        return (
            f'<div class="ee-upload-summary"><b>{html.escape(m.upload_name)}:</b> '
            f"{html.escape(m.upload_summary)}</div>"
            + (f'<ul class="ee-row-errors">{items}</ul>' if items else "")
        )

    def _draw(self, calib):
        m = self.model
        lo, hi, keep = -400.0, 400.0, np.zeros(0, bool)
        if calib is not None:
            keep = calib.count >= m.min_games
            centers = calib.center[keep] if keep.any() else calib.center
            lo, hi = float(centers.min() - calib.bucket), float(centers.max() + calib.bucket)
            if hi - lo < 400:
                lo, hi = (hi + lo) / 2 - 200, (hi + lo) / 2 + 200
            # whole hundreds: most moves keep the axes, so only the data is redrawn
            lo, hi = math.floor(lo / 100) * 100, math.ceil(hi / 100) * 100
        x = np.linspace(lo, hi, 200)
        e400, ef, band = m.curves(x)
        self.line_400.set_data(x, e400)
        self.line_fit.set_data(([], []) if ef is None else (x, ef))
        self.band.set_verts(
            [
                np.zeros((0, 2))
                if band is None
                else np.concatenate(
                    [np.column_stack([x, band[0]]), np.column_stack([x[::-1], band[1][::-1]])]
                )
            ]
        )
        xs, ys, err = (
            (calib.mean_difference[keep], calib.actual[keep], 1.96 * calib.actual_se[keep])
            if keep.any()
            else ([], [], [])
        )
        self.points.set_data(xs, ys)
        self.bars.set_segments([[(a, b - e), (a, b + e)] for a, b, e in zip(xs, ys, err)])
        fit_label = (
            _("fitted curve ÷{divisor}").format(divisor=fmt_number(m.fit.divisor, 0))
            if m.fit and m.fit.divisor > 0
            else _("fitted curve")
        )
        if self.line_fit.get_label() != fit_label or not self.ax.get_legend():
            self.line_fit.set_label(fit_label)  # the key is part of the background
            self.ax.legend(
                loc="lower left",
                bbox_to_anchor=(0, 1.01),
                ncols=2,
                fontsize=8,
                frameon=False,
                borderaxespad=0,
                handlelength=1.6,
            )
        top = 10.0
        if calib is not None:  # every bucket from the first to the last (empty ones count 0)
            index = np.rint((calib.center - calib.center[0]) / calib.bucket).astype(np.int64)
            full = np.zeros(int(index[-1]) + 1)
            full[index] = calib.count
            self.counts.set_data(
                full, calib.center[0] - calib.bucket / 2 + calib.bucket * np.arange(full.size + 1)
            )
            top = 10.0 ** max(1, math.ceil(math.log10(float(calib.count.max()) * 2)))
        else:
            self.counts.set_data([0.0], [lo, hi])
        self.min_line.set_ydata([m.min_games, m.min_games])
        update_limits(self.ax, x=(lo, hi))
        update_limits(self.ax_n, y=(0.8, top))
        lichess_source = m.source == "lichess"
        for label, text in (
            (
                self.ax_n.xaxis.label,
                _("Rating difference, white − black (points)")
                if lichess_source
                else _("Your rating − opponent's rating (points)"),
            ),
            (
                self.ax.yaxis.label,
                _("Mean score of white") if lichess_source else _("Your mean score"),
            ),
        ):
            if label.get_text() != text:
                label.set_text(text)
        self.view.refresh()
