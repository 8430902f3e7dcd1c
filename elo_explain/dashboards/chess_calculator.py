"""Dashboard 1, "Chess Elo calculator": one game, a listed period, or an average opponent.

:class:`CalculatorModel` first computes what the documents' calculators compute
(:meth:`~CalculatorModel.calculator`: :func:`elo_explain.elo.telugu_calculator` for one game
and a listed period, :func:`elo_explain.elo.ukrainian_calculator` for the average opponent,
with the K the reader chose or typed), then FIDE's way beside it with each difference named
(:meth:`~CalculatorModel.beside`, :func:`elo_explain.fide.beside_calculator`). It also rates
with :func:`elo_explain.fide.rate_period` (K from the choice or
:func:`~elo_explain.fide.k_factor_rule`, the 700 rule, the ÷400 formula or table 8.1.2, the
400-point rule) for the tables, and compares the average-opponent shortcut with the per-game
sum (:meth:`~CalculatorModel.averaging`); :class:`CalculatorView` shows it. The notebook's
tables and its averaging figure are the model's declared results: they follow the calculator.

>>> m = CalculatorModel()                 # 1500 draws against 1700, K 20
>>> p = m.period(); fmt_number(p.expected[0]), fmt_signed(p.change), p.new_rating
('0.24', '+5.2', 1505.0)
>>> m.apply({"mode": "average", "k": 40, "average": 1600, "n_games": 20, "points": 10})
>>> round(m.calculator().new_rating, 2), m.beside().fide.new_rating  # docs/sources.md#ukrainian
(1612.05, 1598.0)
"""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import numpy as np
import traitlets

from elo_explain import elo, fide
from elo_explain.formats import fmt_number, fmt_pct, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, language, ngettext, pgettext
from elo_explain.interactive.budget import fits
from elo_explain.interactive.chess import (
    CSS,
    K_TRAITS,
    ProfileK,
    expected_axes,
    period_options,
    period_trait,
)
from elo_explain.interactive.figures import FigureView, Picture, update_limits, update_title
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import NumberField, html_box
from elo_explain.interactive.traits import FieldError, Number, Whole, shown_label
from elo_explain.interactive.view import DashboardView
from elo_explain.rounding import round_half_away
from elo_explain.tables import RowTable, Table

__all__ = ["CalculatorModel", "CalculatorView", "MODES", "RESULTS"]

MODES = {"single": N_("One game"), "games": N_("Several games"), "average": N_("Average opponent")}
RESULTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
METHODS = {N_("÷400 formula"): "formula", N_("FIDE table 8.1.2"): "table"}
#: The buttons: who each K is for, as the Telugu document lists FIDE's K (docs/sources.md#telugu
#: T11-T14: new players and juniors, rated below 2400, published rating reached 2400).
K_OPTIONS = [
    (N_("K 40: new and young players"), 40),
    (N_("K 20: most players, below 2400"), 20),
    (N_("K 10: 2400 and above"), 10),
    (N_("From a player profile"), "profile"),
]
K_LO, K_HI = 1, 100  # a K the reader types
LO, HI, MAX_ROWS = 100, 3500, 100
#: A pasted result: the words, or the score.
RESULT_WORDS = {
    "win": "win",
    "1": "win",
    "1.0": "win",
    "draw": "draw",
    "0.5": "draw",
    ".5": "draw",
    "½": "draw",
    "1/2": "draw",
    "=": "draw",
    "loss": "loss",
    "0": "loss",
    "0.0": "loss",
}
SPREADS = np.arange(0, 801, 10)  # the averaging plot's spreads (rating points)
AVERAGING_MARGINS = dict(left=0.12, right=0.97, bottom=0.17, top=0.95)

_K20 = {"k": 20, "method": "formula", "cap_400": True}


def result_label(result: str) -> str:
    """A result's name as a button, a row or a table shows it ("Win"), in the page's language."""
    return {"win": _("Win"), "draw": _("Draw"), "loss": _("Loss")}[result]


def result_word(result: str) -> str:
    """A result's word in a sentence or a pasted list ("win"), in the page's language."""
    return {
        "win": pgettext("result", "win"),
        "draw": pgettext("result", "draw"),
        "loss": pgettext("result", "loss"),
    }[result]


def result_words() -> dict:
    """What a pasted result may be: :data:`RESULT_WORDS` and the page's own words."""
    return {**RESULT_WORDS, **{result_word(r).lower(): r for r in RESULTS}}


def _cell(fmt):
    """A table cell's format: ``fmt`` for a number, nothing for ``None``."""
    return lambda v, **kw: "" if v is None else fmt(v, **kw)


def _rating_cell(v, **kw) -> str:
    return fmt_number(v, 0, **kw)


def _game_cell(v) -> str:
    return _("Total") if v == "total" else str(v)


def _result_or_points(v) -> str:
    return fmt_number(v, 1) if isinstance(v, (int, float)) else result_label(v)


def _result_or_e(v, **_kw) -> str:
    return "E" if v == "E" else result_label(v)


#: What decides K: the choice, or the player's profile (FIDE's rule), and the period's date.
#: What the listed period is rated from (the averaging comparison: no cap, ÷400 formula).
LISTED = ("opponents", "results", *K_TRAITS)
#: What the documents' calculators compute from (and FIDE beside them).
CALCULATOR = (
    *LISTED,
    "mode",
    "opponent",
    "result",
    "average",
    "n_games",
    "points",
    "cap_400",
    "on",
    "method",
)
#: Everything a period of the current mode is rated from.
PERIOD = (
    *LISTED,
    "mode",
    "opponent",
    "result",
    "average",
    "n_games",
    "points",
    "method",
    "cap_400",
)


def _rating(default, label):
    return Whole(default, LO, HI, label=label)


class KValue(traitlets.TraitType):
    """K: a whole number from 1 to 100 (chosen or typed), or ``"profile"`` (FIDE's rule for
    the player's profile); a link's text ``"25"`` reads as 25.

    >>> class M(traitlets.HasTraits):
    ...     k = KValue(20).tag(label="K-factor")
    >>> m = M(); m.k = "25"; m.k
    25
    >>> m.k = 101
    Traceback (most recent call last):
    ...
    elo_explain.interactive.traits.FieldError: K-factor must be a whole number between 1 and 100, or 'profile', got 101
    """

    def validate(self, obj, value):
        if value == "profile":
            return value
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not K_LO <= value <= K_HI:
            raise FieldError(
                _(
                    "{label} must be a whole number between {lo} and {hi}, or "
                    "'profile', got {value}"
                ).format(label=shown_label(self, "K"), lo=K_LO, hi=K_HI, value=repr(value))
            )
        return value


def parse_games(text: str) -> tuple[list[int], list[str]]:
    """A pasted period: "opponent result" per game, on lines or separated by commas or
    semicolons; a result is win / draw / loss or 1 / 0.5 (½) / 0. ``ValueError`` names the
    row and what it takes.

    >>> parse_games("1400 win, 1600 ½; 1550 0")
    ([1400, 1600, 1550], ['win', 'draw', 'loss'])
    >>> parse_games("1400 won")
    Traceback (most recent call last):
    ...
    ValueError: Games, row 1 ('1400 won'): the result must be win, draw or loss (or 1, 0.5, 0), got 'won'
    >>> parse_games("1600 win, " * 10_000)
    Traceback (most recent call last):
    ...
    ValueError: at most 100 games can be listed
    """
    if not fits(text, MAX_ROWS):  # before splitting: a long text costs only its length
        raise ValueError(_("at most {most} games can be listed").format(most=MAX_ROWS))
    rows = [r.strip() for r in re.split(r"[,;\n]", text or "") if r.strip()]
    if not 1 <= len(rows) <= MAX_ROWS:
        raise ValueError(
            _(
                'Games: there must be 1 to {most} games, one per line ("1600 win"), got {count}'
            ).format(most=MAX_ROWS, count=len(rows))
        )
    opponents, results, words = [], [], result_words()
    for i, row in enumerate(rows, 1):
        where = _("Games, row {row} ({text})").format(row=i, text=repr(row[:30]))
        parts = row.split()
        if len(parts) != 2:
            raise ValueError(
                _("{where}: write the opponent's rating and the result, e.g. 1600 win").format(
                    where=where
                )
            )
        if not re.fullmatch(r"\d{1,4}", parts[0]) or not LO <= int(parts[0]) <= HI:
            raise ValueError(
                _(
                    "{where}: the opponent's rating must be a whole number from {lo} "
                    "to {hi}, got {got}"
                ).format(where=where, lo=LO, hi=HI, got=repr(parts[0][:20]))
            )
        if parts[1].lower() not in words:
            raise ValueError(
                _("{where}: the result must be win, draw or loss (or 1, 0.5, 0), got {got}").format(
                    where=where, got=repr(parts[1][:20])
                )
            )
        opponents.append(int(parts[0]))
        results.append(words[parts[1].lower()])
    return opponents, results


class CalculatorModel(ProfileK, DashboardModel):
    """The calculators' three modes, rated as FIDE rates a period."""

    params = (
        "rating",
        "opponent",
        "result",
        "k",
        "mode",
        "opponents",
        "results",
        "average",
        "n_games",
        "points",
        "rated_games",
        "birth_year",
        "reached_2400",
        "method",
        "cap_400",
        "on",
    )
    presets = {  # the Telugu document's examples
        N_("1500 vs 1700: a draw gains"): {
            "mode": "single",
            "rating": 1500,
            "opponent": 1700,
            "result": "draw",
            **_K20,
        },
        N_("Period 1500 → 1501"): {
            "mode": "games",
            "rating": 1500,
            "opponents": [1400, 1600, 1550],
            "results": ["win", "draw", "loss"],
            **_K20,
        },
        N_("1500 beats 1000, 400-point rule on"): {
            "mode": "single",
            "rating": 1500,
            "opponent": 1000,
            "result": "win",
            **_K20,
        },
        N_("1500 beats 1000, rule off"): {
            "mode": "single",
            "rating": 1500,
            "opponent": 1000,
            "result": "win",
            **{**_K20, "cap_400": False},
        },
    }

    rating = _rating(1500, N_("Your rating"))
    opponent = _rating(1700, N_("Opponent"))
    # the link settings' labels: the words of their controls (the K buttons' "K-factor", the
    # games table's "Result"), else a word of their own ("Mode", "Results")
    result = traitlets.Enum(list(RESULTS), default_value="draw").tag(label=N_("Result"))
    k = KValue(20).tag(label=N_("K-factor"))
    mode = traitlets.Enum(list(MODES), default_value="single").tag(label=N_("Mode"))
    opponents = traitlets.List(
        _rating(1500, N_("Opponent")), [1400, 1600, 1550], minlen=1, maxlen=MAX_ROWS
    ).tag(label=N_("Opponents"))
    results = traitlets.List(
        traitlets.Enum(list(RESULTS)), ["win", "draw", "loss"], minlen=1, maxlen=MAX_ROWS
    ).tag(label=N_("Results"))
    average = Number(1600, LO, HI, label=N_("Average opponent"))
    n_games = Whole(5, 1, 50, label=N_("Games G"))
    points = Number(3.0, 0, 50, label=N_("Points"))
    rated_games = Whole(80, 0, 1000, label=N_("Rated games"))
    birth_year = Whole(1995, 1900, 2025, label=N_("Birth year"))
    reached_2400 = traitlets.Bool(False).tag(label=N_("Published rating has reached 2400"))
    method = traitlets.Enum(list(METHODS.values()), default_value="formula").tag(label=N_("E from"))
    cap_400 = traitlets.Bool(True).tag(label=N_("400-point rule"))
    on = period_trait().tag(label=N_("Rating period"))

    def listed(self) -> list[tuple[int, float]]:
        """The listed period's games as ``(opponent, score)``."""
        if len(self.opponents) != len(self.results):
            raise ValueError("opponents and results must have the same length")
        return [(o, RESULTS[r]) for o, r in zip(self.opponents, self.results)]

    def games(self) -> list[tuple[float, float]]:
        """The games of the current mode as ``(opponent, score)`` pairs."""
        if self.mode == "single":
            return [(self.opponent, RESULTS[self.result])]
        if self.mode == "games":
            return self.listed()
        if 2 * self.points != int(2 * self.points) or self.points > self.n_games:
            raise ValueError(
                _(
                    "Points must be a multiple of 0.5 from 0 to the games G ({games}), got {points}"
                ).format(games=self.n_games, points=fmt_plain(self.points))
            )
        wins, draw = int(self.points), int(self.points % 1 > 0)  # only the sum matters
        scores = [1.0] * wins + [0.5] * draw + [0.0] * (self.n_games - wins - draw)
        return [(self.average, s) for s in scores]

    @depends(*PERIOD)
    def period(self, *, cap_400=None, games=None) -> fide.FidePeriod:
        """The period (or ``games``) rated by :func:`elo_explain.fide.rate_period`."""
        return fide.rate_period(
            self.rating,
            self.games() if games is None else games,
            k=self.k_base,
            on=self.on,
            use_table=self.method == "table",
            cap_400=self.cap_400 if cap_400 is None else cap_400,
        )

    @depends(*PERIOD)
    def cap_applies(self) -> bool:
        """Whether the 400-point rule changes a difference used in this period."""
        p = self.period()
        return bool(np.any(p.differences != p.rating - p.opponents))

    # the documents' calculators, and FIDE beside them
    @depends(*CALCULATOR)
    def calculator(self) -> elo.CalculatorResult:
        """What the document's calculator shows for this mode, with the K chosen or typed
        (nothing lowers it): the Telugu calculator for one game and a listed period (its
        400-point switch is the page's), the Ukrainian one for the average opponent
        (Ra + K·(points − G·E), no cap, unrounded)."""
        if self.mode == "average":
            self.games()  # the points' check, in the page's words
            return elo.ukrainian_calculator(
                self.rating, self.average, self.points, k=self.k_base, games=self.n_games
            )
        return elo.telugu_calculator(self.rating, self.games(), k=self.k_base, cap_400=self.cap_400)

    @depends(calculator)
    def beside(self) -> fide.CalculatorVsFide:
        """FIDE's result for the same games (its 700 rule, its 400-point rule, E from the
        method chosen, the change rounded once), each difference named."""
        return fide.beside_calculator(
            self.calculator(), on=self.on, use_table=self.method == "table"
        )

    # tables
    @depends("opponent", "method", "cap_400", *K_TRAITS)
    def outcomes_table(self) -> RowTable:
        """One game: E and every result, with and without the cap when it applies.

        The rows hold numbers (the first row E, then each result's change and new rating)
        and the results' keys; the table formats them when shown, each row its own way.

        >>> t = CalculatorModel().outcomes_table()      # docs/sources.md#telugu: 1500 vs 1700, E 0.24
        >>> [(r[0], round(r[1], 2), r[2]) for r in t.rows]
        [('E', 0.24, None), ('win', 15.19, 1515.0), ('draw', 5.19, 1505.0), ('loss', -4.81, 1495.0)]
        >>> from elo_explain.i18n import set_language
        >>> set_language("uk"); t.cells()[:2]; set_language("en")
        [['E', '0,24', ''], ['Перемога', '+15,2', '1515']]
        """
        variants = (
            [
                (
                    True,
                    _("Change (400-point rule applied)"),
                    _("New rating (400-point rule applied)"),
                ),
                (False, _("Change (real difference)"), _("New rating (real difference)")),
            ]
            if self.cap_applies()
            else [(self.cap_400, _("Change"), _("New rating"))]
        )
        cols, rows, e_row = [_("Result")], {r: [r] for r in RESULTS}, ["E"]
        for cap, change, new in variants:
            cols += [change, new]
            for r, score in RESULTS.items():
                q = self.period(cap_400=cap, games=[(self.opponent, score)])
                rows[r] += [float(q.change), float(q.new_rating)]
            e_row += [float(q.expected[0]), None]
        rating = _cell(_rating_cell)
        e_formats = [_result_or_e] + [_cell(fmt_number), rating] * len(variants)
        formats = [_result_or_e] + [_cell(fmt_signed), rating] * len(variants)
        return RowTable(
            cols,
            [e_row, *rows.values()],
            _("{rating} against {opponent}: every result").format(
                rating=fmt_plain(self.rating), opponent=fmt_plain(self.opponent)
            ),
            row_formats=[e_formats] + [formats] * len(RESULTS),
        )

    @depends(*LISTED, "method", "cap_400")
    def games_table(self) -> Table:
        """The listed period game by game, from the starting ratings, and the total."""
        p = self.period(games=self.listed())
        rows = [
            (i + 1, int(o), r, int(d), float(e), float(p.k * dr))
            for i, (o, r, d, e, dr) in enumerate(
                zip(p.opponents, self.results, p.differences, p.expected, p.delta)
            )
        ]
        rows.append(
            ("total", None, float(p.points), None, float(p.expected_points), float(p.change))
        )
        return Table(
            (_("Game"), _("Opponent"), _("Result"), _("Difference used"), "E", _("Change")),
            rows,
            _(
                "{rating}: every game from the starting ratings, changes summed (new rating {new})"
            ).format(rating=fmt_plain(self.rating), new=fmt_number(p.new_rating, 0)),
            (
                _game_cell,
                _cell(_rating_cell),
                _result_or_points,
                _cell(lambda d: fmt_signed(d, 0)),
                fmt_number,
                fmt_signed,
            ),
        )

    # the average-opponent shortcut against the per-game sum (÷400 formula, no cap)
    @depends(*LISTED)
    def averaging(self) -> dict:
        """The listed period rated game by game and by the shortcut R + K·(points − G·E(ā)).

        K is the period's (after the 700 rule); ``error`` is shortcut − per-game sum;
        ``spread`` the standard deviation of the opponents' ratings.
        """
        games = self.listed()
        opps = np.array([o for o, _s in games], dtype=float)
        points = sum(s for _o, s in games)
        k = fide.k_with_700_rule(self.k_base, len(games))
        per_game = elo.rating_period(self.rating, games, k=k).total_change
        shortcut = elo.multi_game(self.rating, opps.mean(), len(games), points, k) - self.rating
        return {
            "k": k,
            "average": float(opps.mean()),
            "spread": float(opps.std()),
            "per_game": per_game,
            "shortcut": shortcut,
            "error": shortcut - per_game,
        }

    @depends(*LISTED)
    def averaging_error(self, spreads=SPREADS) -> np.ndarray:
        """The shortcut's error (points) for the listed number of games against opponents at
        ā − s and ā + s (half each; one at ā if odd), ā the list's average, s in ``spreads``."""
        a = self.averaging()
        fields = elo.spread_opponents(a["average"], len(self.opponents), spreads)
        return elo.averaging_error(self.rating, fields, a["k"])

    @depends(*LISTED)
    def averaging_figure(self) -> Picture:
        """The shortcut's error against the spread, and this list (the notebook's figure)."""
        a = self.averaging()
        pic = Picture.new(
            (5.6, 2.8),
            margins=AVERAGING_MARGINS,
            alt=_(
                "The shortcut's error against the spread of the opponents' ratings; the listed "
                "games: spread {spread}, error {error}"
            ).format(spread=fmt_number(a["spread"], 0), error=fmt_signed(a["error"], 2)),
        )
        ax = pic.figure.axes[0]
        averaging_axes(
            ax,
            ax.plot(SPREADS, self.averaging_error())[0],
            ax.plot([a["spread"]], [a["error"]], "o")[0],
        )
        return pic

    @depends(*LISTED)
    def averaging_table(self) -> Table:
        a = self.averaging()
        return Table(
            (_("Listed period, ÷400 formula, no cap"), _("Change"), _("New rating")),
            [
                (_("FIDE: every game, changes summed"), a["per_game"], self.rating + a["per_game"]),
                (
                    _("Shortcut: G games against the average {average}").format(
                        average=fmt_number(a["average"], 1)
                    ),
                    a["shortcut"],
                    self.rating + a["shortcut"],
                ),
                (_("Shortcut − sum"), a["error"], None),
            ],
            _("Average opponent vs game by game (opponents' spread ±{spread})").format(
                spread=fmt_number(a["spread"], 0)
            ),
            (None, lambda x: fmt_signed(x, 2), _cell(lambda x: fmt_number(x, 2))),
        )


def averaging_axes(ax, line, mark) -> None:
    """The look of the averaging plot: the curve ``line``, the reader's list ``mark``."""
    line.set(color="C0", label=_("opponents at ā − s and ā + s"))
    mark.set(color="C3", zorder=5, label=_("your list"), marker="o", linestyle="none")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set(
        xlabel=_("Spread of the opponents' ratings s (standard deviation)"),
        ylabel=_("Shortcut − sum (points)"),
    )
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)


def _wide(english: str, other: str) -> str:
    """A width: ``english`` on an English page (as it always was), ``other`` for the longer
    words of the other languages."""
    return english if language() == "en" else other


def _text(text: str) -> str:
    """Text put into a page's HTML (``<``, ``>``, ``&`` escaped; quotes kept, as before)."""
    return html.escape(text, quote=False)


def _box(children, **layout) -> widgets.VBox:
    return widgets.VBox(children, layout=layout)


class CalculatorView(DashboardView):
    """The calculator page: inputs on the left; the numbers and the E curve on the right
    (the listed games' averaging figure is the notebook's, above)."""

    docked = ("rating", "opponent", "result", "k")
    key_target = "ee-summary"

    def key_result(self) -> str:
        """The calculator's new rating (what the document's calculator shows)."""
        c = self.model.calculator()
        places = 2 if c.document == "ukrainian" else 0
        return f"{_('New rating')} {fmt_number(c.new_rating, places)}"

    def build(self):
        m = self.model
        self.summary = html_box("ee-summary", width="600px")
        self.fig = FigureView(
            figsize=(5.6, 3.5),
            height="360px",
            width="580px",
            margins=dict(left=0.12, right=0.97, bottom=0.14, top=0.92),
        )
        self.fig.out.add_class("ee-plot-curve")
        self._build_plot()
        self.rows: list = []  # the listed games, one row each (made as the list grows)
        self.rows_box = _box([])
        self.add, self.remove = (
            widgets.Button(description=d, icon=i, layout={"width": "auto"})
            for d, i in ((_("Add a game"), "plus"), (_("Remove the last"), "minus"))
        )
        self.add.add_class("ee-add")
        self.remove.add_class("ee-remove")
        self.add.on_click(self.guard(lambda _click: self._resize(+1)))
        self.remove.on_click(self.guard(lambda _click: self._resize(-1)))
        # the same games as a list: pasted, or typed ("1600 win" per line)
        self.games_text = widgets.Textarea(
            self._games_text(),
            description=_("Games"),
            rows=4,
            continuous_update=True,
            placeholder=_("1400 win, 1600 draw, 1550 loss … or one game per line"),
            layout={"width": "24em"},
            style={"description_width": "initial"},
        )
        self.games_text.add_class("ee-games-text")
        self.games_text.add_class("ee-field")
        self.games_error = html_box("ee-error ee-games-error")
        self.games_text.observe(self.guard(self._pasted), names="value")
        self.games_box = _box(
            [
                self.rows_box,
                widgets.HBox([self.add, self.remove]),
                _box([self.games_text, self.games_error]),
            ]
        )
        self.single_box = _box(
            [
                self.number("opponent"),
                self.toggles("result", [(result_label(r), r) for r in RESULTS], label=""),
            ]
        )
        self.average_box = _box(
            [
                self.number("average", width="16em"),
                self.slider("n_games"),
                self.slider("points", step=0.5),
            ]
        )
        points = self.controls["points"].slider
        points.max = m.n_games
        m.observe(lambda c: setattr(points, "max", c["new"]), names="n_games")  # clamps points
        self.profile_box = _box(
            [
                self.slider("rated_games"),
                self.number("birth_year"),
                self.checkbox("reached_2400", label=_("Published rating has reached 2400")),
            ]
        )
        left = _box(
            [
                self.number("rating"),
                self.toggles("mode", [(_(v), k) for k, v in MODES.items()], label=""),
                self.single_box,
                self.games_box,
                self.average_box,
                self._k_controls(),
                self.profile_box,
                self.toggles("method", [(_(k), v) for k, v in METHODS.items()], label=_("E from")),
                self.checkbox("cap_400", label=_("400-point rule")),
                self.dropdown("on", period_options(), label=_("Rating period")),
            ],
            width="440px",
            margin="0 24px 0 0",
        )
        right = _box([self.summary, self.fig.out], width="600px")
        return [
            self.preset_menu(),
            widgets.HBox([left, right], layout={"align_items": "flex-start"}),
        ]

    # K: a button (who each K is for) or a K of one's own
    def _k_controls(self) -> widgets.VBox:
        m, values = self.model, [k for _label, k in K_OPTIONS]
        buttons = widgets.ToggleButtons(
            options=[(_(label), k) for label, k in K_OPTIONS],
            value=m.k if m.k in values else None,
            description=_("K-factor"),
            style={"description_width": "initial", "button_width": "auto"},
        )
        buttons.observe(
            self.guard(lambda c: c["new"] is not None and setattr(m, "k", c["new"])), names="value"
        )
        own = NumberField(
            _("Or type your K (1 to 100)"),
            20 if m.k == "profile" else m.k,
            lo=K_LO,
            hi=K_HI,
            integer=True,
            width=_wide("16em", "22em"),
        )
        own.add_class("ee-k-own")
        own.on_change(self.guard(lambda v: setattr(m, "k", v)))

        def follow(change):  # a button, a typed K, a preset or a link
            k = change["new"]
            buttons.value = k if k in values else None
            if k != "profile" and (own.value != k or not own.valid):
                own.set(k)

        m.observe(follow, names="k")
        self.controls["k"], self.k_own = self._css(buttons, "k"), own
        return _box([buttons, own])

    # the listed games, one row each, or pasted
    def _games_text(self) -> str:
        return "\n".join(
            f"{o} {result_word(r)}" for o, r in zip(self.model.opponents, self.model.results)
        )

    def _pasted(self, change) -> None:
        self.apply_pasted(parse_games, change["new"], self.games_error, ("opponents", "results"))

    def _resize(self, step):
        m, n = self.model, len(self.model.opponents) + step
        if n > MAX_ROWS:
            raise ValueError(_("at most {most} games can be listed").format(most=MAX_ROWS))
        if n < 1:
            raise ValueError(_("the list needs at least one game"))
        self.apply({"opponents": (m.opponents + [1500])[:n], "results": (m.results + ["win"])[:n]})

    def _set_row(self, i, name, value):
        values = list(getattr(self.model, name))
        values[i] = value
        setattr(self.model, name, values)

    @depends("opponents", "results")
    def show_rows(self):
        """One row per listed game (a row is made when the list first grows to it)."""
        m = self.model
        while len(self.rows) < len(m.opponents):
            i = len(self.rows)
            field = NumberField(
                _("Game {number}: opponent").format(number=i + 1),
                1500,
                lo=LO,
                hi=HI,
                integer=True,
                width="15em",
            )
            field.add_class(f"ee-row-{i + 1}")
            result = widgets.Dropdown(
                options=[(result_label(r), r) for r in RESULTS],
                value="win",
                layout={"width": _wide("6em", "8.5em")},
            )
            result.add_class(f"ee-row-result-{i + 1}")
            field.on_change(self.guard(lambda v, i=i: self._set_row(i, "opponents", v)))
            result.observe(
                self.guard(lambda c, i=i: self._set_row(i, "results", c["new"])), names="value"
            )
            self.rows.append((field, result, widgets.HBox([field, result])))
        for (field, result, _row), opp, res in zip(self.rows, m.opponents, m.results):
            if field.value != opp or not field.valid:
                field.set(opp)
            result.value = res
        self.rows_box.children = [box for _f, _r, box in self.rows[: len(m.opponents)]]
        try:  # the list box follows the rows (a half-typed list stays as typed)
            typed = parse_games(self.games_text.value)
        except ValueError:
            typed = None
        if typed != (list(m.opponents), list(m.results)):
            self.games_text.value = self._games_text()
            self.games_error.value = ""
        self.add.disabled, self.remove.disabled = (
            len(m.opponents) >= MAX_ROWS,
            len(m.opponents) <= 1,
        )

    @depends("mode", "k")
    def show_inputs(self):
        """The inputs of the chosen mode (and the profile when K comes from it)."""
        m = self.model
        for box, shown in (
            (self.single_box, m.mode == "single"),
            (self.games_box, m.mode == "games"),
            (self.average_box, m.mode == "average"),
            (self.profile_box, m.k == "profile"),
        ):
            box.layout.display = "" if shown else "none"

    # the expected-score curve, made once
    def _build_plot(self):
        ax, x = self.fig.ax, np.arange(LO - HI, HI - LO + 1)
        self.x, self.e = (
            x,
            {"formula": elo.expected_score(x, 0), "table": fide.table_expected_score(x)},
        )
        self.line = {
            "formula": ax.plot(x, self.e["formula"], color="C0", label=_("÷400 formula"))[0],
            "table": ax.plot(
                x, self.e["table"], color="C1", drawstyle="steps-post", label=_("FIDE table 8.1.2")
            )[0],
        }
        (self.line_capped,) = ax.plot(
            [], [], color="grey", ls="--", lw=1, label=_("with the 400-point rule")
        )
        (self.marks,) = ax.plot([], [], "o", color="C3", ms=7, zorder=5, label=_("this game"))
        (self.mark_free,) = ax.plot([], [], "o", mfc="none", mec="C3", ms=7, zorder=5)
        self.mark_text = ax.text(
            0.97, 0.05, "", transform=ax.transAxes, ha="right", va="bottom", fontsize=9, color="C3"
        )
        ax.axhline(0.5, color="grey", lw=0.5)
        ax.axvline(0, color="grey", lw=0.5)
        expected_axes(ax, _("Rating difference: yours − opponent's"))
        self.fig.dynamic(self.line_capped, self.marks, self.mark_free, self.mark_text)

    # showing the model
    @depends(CalculatorModel.period, CalculatorModel.beside)
    def show_numbers(self):
        """The document's calculator first (E, the change, the new rating), FIDE's way beside
        it with each difference named, the detail of the mode and the rules used."""
        p, b = self.model.period(), self.model.beside()
        self.summary.value = (
            CSS + self._summary(b.calculator) + self._fide(b) + self._detail(p) + self._settings(p)
        )

    @depends(CalculatorModel.period)
    def draw(self):
        self._render_plot(self.model.period())

    def _summary(self, c) -> str:
        """What the document's calculator shows (``c``, an :class:`elo.CalculatorResult`)."""
        k = fmt_number(c.k, 0 if float(c.k).is_integer() else 2)
        who = (
            _("The Ukrainian calculator (its multi-game mode, Ra + K·(points − G·E))")
            if c.document == "ukrainian"
            else _("The Telugu calculator")
        )
        if self.model.mode == "single":
            e = float(c.expected[0])
            head = (
                _text(_("Expected score E")) + ' <span class="ee-value ee-big ee-e">'
                f'{fmt_number(e)}</span> <span class="ee-note">'
                + _text(
                    ngettext(
                        "= {points} point from 100 such games, draws counting ½ — expected "
                        "points, not a {chance} chance of winning.",
                        "= {points} points from 100 such games, draws counting ½ — expected "
                        "points, not a {chance} chance of winning.",
                        round_half_away(100 * e),
                    ).format(points=fmt_number(100 * e, 0), chance=fmt_pct(100 * e, 0))
                )
                + "</span>"
            )
            formula = f"K {k} × ({fmt_plain(c.scores[0])} − {fmt_number(e)})"
        else:
            per_game = ", ".join(
                fmt_number(x) for x in c.expected[: 1 if c.document == "ukrainian" else None]
            )
            head = _text(
                ngettext(
                    "Expected points {expected} from {games} game (E per game: "
                    "{per_game}); scored {points}",
                    "Expected points {expected} from {games} games (E per game: "
                    "{per_game}); scored {points}",
                    c.games,
                )
            ).format(
                expected=f'<span class="ee-value ee-big ee-e">{fmt_number(c.expected_points)}'
                "</span>",
                games=c.games,
                per_game=per_game,
                points=f'<span class="ee-value ee-points">{fmt_number(c.points, 1)}</span>',
            )
            formula = f"K {k} × ({fmt_plain(c.points)} − {fmt_number(c.expected_points)})"
        if c.document == "ukrainian":
            value = fmt_number(c.new_rating, 2)
            note = _("(unrounded, as the Ukrainian calculator shows it)")
        else:
            value = fmt_number(c.new_rating, 0)
            note = _(
                "(a whole number, as the Telugu calculator shows it; {unrounded} unrounded)"
            ).format(unrounded=fmt_number(c.unrounded_rating, 1))
        change, new = _text(_("Change")), _text(_("New rating"))
        return (
            f'<div class="ee-note ee-who">{html.escape(who)}, K {k}:</div>'
            f'<div>{head}</div><div>{change} <span class="ee-value ee-big '
            f'ee-change">{fmt_signed(c.change)}</span> <span class="ee-note">= '
            f"{html.escape(formula)}</span></div><div>{new} "
            f'<span class="ee-value ee-big ee-new">{value}</span> '
            f'<span class="ee-note">{_text(note)}</span></div>'
        )

    @staticmethod
    def _fide(b) -> str:
        """FIDE's result for the same games, each difference named (or: the same)."""
        f = b.fide
        new = f'<span class="ee-value ee-fide-new">{fmt_number(f.new_rating, 0)}</span>'
        if b.differences:
            why = "; ".join(b.differences)
            text = _text(
                _("FIDE rates these games differently: new rating {rating}. Why: {why}.")
            ).format(rating=new, why=html.escape(why))
        else:
            text = _text(_("FIDE rates these games the same: new rating {rating}.")).format(
                rating=new
            )
        return f'<div class="ee-fide">{text}</div>'

    def _detail(self, p) -> str:
        """The live numbers of the notebook's table for this mode: every result of one game
        (with the real difference too when the 400-point rule applies), or the listed games'
        changes and the average-opponent shortcut against their sum."""
        m, line = self.model, '<div class="ee-note {}">{}</div>'.format
        if m.mode == "single":

            def results(cap):
                return " · ".join(
                    f"{result_word(r)} "
                    f"{fmt_signed(m.period(cap_400=cap, games=[(m.opponent, s)]).change)}"
                    for r, s in RESULTS.items()
                )

            if m.cap_applies():
                text = _("Every result: {results}; with the real difference: {real}").format(
                    results=results(m.cap_400), real=results(False)
                )
            else:
                text = _("Every result: {results}").format(results=results(m.cap_400))
            return line("ee-outcomes", _text(text))
        if m.mode == "games":
            a, sign = m.averaging(), lambda x: fmt_signed(x, 2)
            changes = ", ".join(fmt_signed(p.k * d) for d in p.delta)
            return line(
                "ee-per-game", _text(_("Change per game: {changes}").format(changes=changes))
            ) + line(
                "ee-averaging",
                _text(
                    _(
                        "Average-opponent shortcut {shortcut} vs per-game sum {per_game} "
                        "(÷400, no cap): error {error}"
                    ).format(
                        shortcut=sign(a["shortcut"]),
                        per_game=sign(a["per_game"]),
                        error=sign(a["error"]),
                    )
                ),
            )
        return ""

    def _settings(self, p) -> str:
        m = self.model
        k = m.k_decision().text if m.k == "profile" else _("K {k} chosen by hand.").format(k=m.k)
        rule = fide.rule_700(p.k_requested, p.games)
        if rule.lowered:
            k += " " + _("700 rule: {rule}, so K {k} for this period.").format(
                rule=rule.text, k=rule.k_used
            )
        cap = _("400-point rule off: the real difference is used in every game.")
        if m.cap_400:  # the decision for the game with the largest difference
            cap = _("400-point rule: {reason}").format(
                reason=max(
                    (fide.cap_decision(m.rating, o, on=m.on) for o in p.opponents),
                    key=lambda d: abs(d.difference),
                ).reason
            )
        return "".join(
            f'<div class="ee-note {c}">{html.escape(t)}</div>'
            for c, t in (("ee-k-text", k), ("ee-cap-text", cap))
        )

    def _render_plot(self, p):
        m = self.model
        xs, es = p.rating - p.opponents, np.asarray(p.expected)
        for name, line in self.line.items():
            line.set_linewidth(2.2 if name == m.method else 1.0)
        # the curve with the differences this player uses (fide.effective_difference)
        used = (
            fide.effective_difference(m.rating, m.rating - self.x, on=m.on) if m.cap_400 else self.x
        )
        capped = bool(np.any(used != self.x))
        self.line_capped.set_data(
            *((self.x, self.e[m.method][used.astype(int) + HI - LO]) if capped else ([], []))
        )
        self.line_capped.set_drawstyle("steps-post" if m.method == "table" else "default")
        self.marks.set_data(xs, es)
        update_limits(self.fig.ax, x=(-(lim := max(800.0, float(np.abs(xs).max()) + 60)), lim))
        text, free = "", ([], [])
        if m.mode == "single":
            text = _("this game: E {e}").format(e=fmt_number(es[0]))
            if m.cap_applies():  # hollow point: the same game without the cap
                q = m.period(cap_400=False)
                free = (xs, q.expected)
                text += "\n" + _("without the cap (hollow): {e}").format(
                    e=fmt_number(q.expected[0])
                )
        self.mark_free.set_data(*free)
        self.mark_text.set_text(text)
        label = _({v: k for k, v in METHODS.items()}[m.method])
        update_title(
            self.fig.ax,
            _("{method}, 400-point rule").format(method=label) if capped else label,
            fontsize=10,
        )
        self.fig.refresh()
