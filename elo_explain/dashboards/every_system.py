"""Dashboard 7, "Every system, one game": one game rated by every system side by side.

:class:`EverySystemModel` rates the game with the package's functions: FIDE
(:func:`elo_explain.fide.rate_period`, table 8.1.2 or the ÷400 formula, with or without the
400-point rule in force on the chosen date), the Telugu and Ukrainian calculators as the
documents describe them (:func:`elo_explain.elo.telugu_calculator`,
:func:`elo_explain.elo.ukrainian_calculator`), every Gammon42 version of
:data:`elo_explain.gammon42.VERSIONS`, FIBS (:func:`elo_explain.fibs.change`) and Lichess
Glicko-2 (:func:`elo_explain.glicko.lichess_game`); one :class:`SystemRow` per system, its
numbers in named fields. :class:`EverySystemView` shows a summary line and a bar chart of both
players' changes; the notebook's three tables (chess, backgammon, Lichess) are declared, each
with its own inputs, and follow the view. Tables and view format the numbers when they show
them, in the page's language (:mod:`elo_explain.formats`); their words are the page's
language's (:mod:`elo_explain.i18n`).

>>> m = EverySystemModel()                  # two established players at 1500, a win
>>> g42 = {r.key: r for r in m.rows()}["g42-1.3.1"]
>>> g42.change_a, g42.change_b, g42.new_a
(16.0, -16.0, 1516.0)
>>> m.table("fibs").cells()[0][2:4], m.table("fibs").cells(locale="uk")[0][2:4]
(['+2.00', '−2.00'], ['+2,00', '−2,00'])
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
import traitlets

from elo_explain import elo, fibs, fide, gammon42, glicko
from elo_explain.formats import fmt_number, fmt_pattern, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, gettext, ngettext
from elo_explain.interactive.figures import FigureView, steady_limits, update_limits
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Choice, Number, Whole
from elo_explain.interactive.view import DashboardView
from elo_explain.rounding import round_half_away
from elo_explain.tables import RowTable

__all__ = [
    "RESULTS",
    "DATES",
    "PRESETS",
    "NO_DRAWS",
    "COLUMNS",
    "SystemRow",
    "row_cells",
    "EverySystemModel",
    "EverySystemView",
]

# Every text below is English, shown in the page's language (``_(...)`` where shown).
#: The result, from the player's side: value → (label, score).
RESULTS = {"win": (N_("You win"), 1.0), "draw": (N_("Draw"), 0.5), "loss": (N_("You lose"), 0.0)}
#: The result in the tables' caption ("1500 against 1500: you win").
_RESULT_WORDS = {"win": N_("you win"), "draw": N_("draw"), "loss": N_("you lose")}
#: The 400-point rule's two regimes: a date inside each → label.
DATES = {
    "2025-10-01": N_("from 2025-10-01 (no cap for 2650+)"),
    "2025-09-30": N_("2024-03-01 to 2025-09-30 (cap for all)"),
}
_RATING = (400, 3500)
_RD = (int(glicko.LICHESS.min_rd), int(glicko.LICHESS.max_rd))
_VOLATILITY = (0.02, glicko.LICHESS.max_volatility)
NO_DRAWS = N_("no draws in backgammon")
COLUMNS = (
    N_("System"),
    N_("E for you"),
    N_("Your change"),
    N_("Opponent's change"),
    N_("You now"),
    N_("Opponent now"),
    N_("How"),
)

#: What each family's rows are computed from.
GAME = ("rating", "opponent", "result")
CHESS = (*GAME, "k", "opponent_k", "date")
BACKGAMMON = (
    *GAME,
    "cube",
    "recent",
    "opponent_recent",
    "match_length",
    "experience",
    "opponent_experience",
)
LICHESS = (*GAME, "rd", "opponent_rd", "volatility", "opponent_volatility")

_NEW = dict(
    k=40,
    opponent_k=40,
    experience=0,
    opponent_experience=0,
    rd=500,
    opponent_rd=500,
    volatility=0.09,
    opponent_volatility=0.09,
)
_EXAMPLES = {  # name (English, shown in the page's language) → the values that differ
    N_("Two established players at 1500, you win"): {},
    N_("Two new players at 1500, you win"): _NEW,
    N_("Underdog 300 below wins (Gammon42 versions)"): dict(rating=1500, opponent=1800),
    N_("You busy (60 ranked games this week), opponent not (10)"): dict(
        recent=60, opponent_recent=10
    ),
    N_("1500 beats 1000 (the 400-point rule)"): dict(rating=1500, opponent=1000),
    N_("2700 draws with 2200 (the 2650 exemption)"): dict(
        rating=2700, opponent=2200, result="draw", k=10, opponent_k=20
    ),
    N_("Equal players, cube 64"): dict(cube=64),
}


def _exact_then_applied(exact: float, applied: int, *, locale: str | None = None) -> str:
    """``"+1.8 → +2"``: the exact change with as few decimals (1 to 3) as keep it rounding
    the way the applied change does (−4.468 is "−4.47 → −4", not "−4.5 → −4").

    >>> _exact_then_applied(1.818, 2), _exact_then_applied(-4.468, -4, locale="el")
    ('+1.8 → +2', '−4,47 → −4')
    """
    decimals = next((d for d in (1, 2) if round_half_away(round_half_away(exact, d)) == applied), 3)
    return f"{fmt_signed(exact, decimals, locale=locale)} → {fmt_signed(applied, 0, locale=locale)}"


@dataclass(frozen=True)
class SystemRow:
    """One system's verdict, in numbers: ``key``, ``family`` (fide, calculator, gammon42,
    fibs, lichess), ``label`` (English; shown in the page's language), ``expected_a`` (the
    player's E; for FIBS the chance to win the match), ``change_a`` / ``change_b`` (applied;
    ``None`` when the system has no draws) with ``places`` decimals as shown; ``new_a`` /
    ``new_b`` (the ratings after the game, ``None`` with no draws) with ``new_places``;
    ``exact_a`` / ``exact_b`` (FIDE: the change before its one rounding, else ``None``);
    ``rd_a`` / ``rd_b`` (Lichess: the deviations after the game, which decide its "?");
    ``how`` (how the system got there, in words, in the page's language)."""

    key: str
    family: str
    label: str
    expected_a: float
    change_a: float | None
    change_b: float | None
    new_a: float | None = None
    new_b: float | None = None
    places: int = 0
    new_places: int = 0
    exact_a: float | None = None
    exact_b: float | None = None
    rd_a: float | None = None
    rd_b: float | None = None
    how: str = ""

    def values(self) -> tuple:
        """The table's row (:data:`COLUMNS`): the system's name in the page's language, then
        numbers (``None`` where the system has no draws) and the words of ``how``."""
        return (
            _(self.label),
            self.expected_a,
            self.change_a,
            self.change_b,
            self.new_a,
            self.new_b,
            self.how,
        )

    def formats(self) -> tuple:
        """How each cell of :meth:`values` is shown (``Table.formats``, for this row): E
        with two decimals, the changes signed ("exact → applied" for FIDE), the new
        ratings with their decimals (Lichess: as Lichess shows them, "?" while provisional)."""
        if self.change_a is None:
            return (None, "{:.2f}", _no_draws, _dash, _dash, _dash, None)

        def change(exact):
            if exact is None:
                return lambda v, locale=None: fmt_signed(v, self.places, locale=locale)
            return lambda v, locale=None: _exact_then_applied(exact, v, locale=locale)

        def new(rd):
            if rd is None:
                return lambda v, locale=None: fmt_number(v, self.new_places, locale=locale)
            return lambda v, locale=None: glicko.lichess_display(v, rd)  # whole: no decimals

        return (
            None,
            "{:.2f}",
            change(self.exact_a),
            change(self.exact_b),
            new(self.rd_a),
            new(self.rd_b),
            None,
        )


def _dash(value, locale=None) -> str:
    return "—"


def _no_draws(value, locale=None) -> str:
    return gettext(NO_DRAWS, lang=locale)


def row_cells(row: SystemRow) -> list[str]:
    """``row`` as the table shows it, in the page's language.

    >>> row_cells(SystemRow("fibs", "fibs", "FIBS", 0.5, 2.0, -2.0, 1502, 1498, 2, 2))
    ['FIBS', '0.50', '+2.00', '−2.00', '1502.00', '1498.00', '']
    """
    return RowTable(COLUMNS, [row.values()], row_formats=[row.formats()]).cells()[0]


class EverySystemModel(DashboardModel):
    """One game of ``rating`` against ``opponent`` with ``result`` (win, draw, loss), and
    each system's own inputs: FIDE ``k`` / ``opponent_k`` and ``date``; Gammon42 ``cube``
    and ``recent`` / ``opponent_recent`` (ranked games in 7 days); FIBS ``match_length`` and
    ``experience`` / ``opponent_experience``; Lichess ``rd``, ``volatility`` and the
    opponent's."""

    params = (
        "rating",
        "opponent",
        "result",
        "k",
        "opponent_k",
        "date",
        "cube",
        "recent",
        "opponent_recent",
        "match_length",
        "experience",
        "opponent_experience",
        "rd",
        "opponent_rd",
        "volatility",
        "opponent_volatility",
    )
    presets: dict[str, dict] = {}  # set below: the examples with every other value at its default
    rating = Whole(1500, *_RATING, label=N_("Your rating"))
    opponent = Whole(1500, *_RATING, label=N_("Opponent's rating"))
    result = traitlets.Enum(tuple(RESULTS), default_value="win").tag(label=N_("Result"))
    k = Choice(20, elo.K_CHOICES, label=N_("Your K"))
    opponent_k = Choice(20, elo.K_CHOICES, label=N_("Opponent's K"))
    date = traitlets.Enum(tuple(DATES), default_value="2025-10-01").tag(label=N_("Rated"))
    cube = Choice(1, gammon42.CUBE_VALUES, label=N_("Cube"))
    recent = Whole(0, 0, 300, label=N_("Your games in 7 days"))
    opponent_recent = Whole(0, 0, 300, label=N_("Opponent's games in 7 days"))
    match_length = Whole(1, 1, 25, label=N_("Match length (points)"))
    experience = Whole(400, 0, 1000, label=N_("Your experience"))
    opponent_experience = Whole(400, 0, 1000, label=N_("Opponent's experience"))
    rd = Whole(60, *_RD, label=N_("Your RD"))
    opponent_rd = Whole(60, *_RD, label=N_("Opponent's RD"))
    volatility = Number(0.06, *_VOLATILITY, label=N_("Your volatility σ"))
    opponent_volatility = Number(0.06, *_VOLATILITY, label=N_("Opponent's volatility σ"))

    @property
    def score(self) -> float:
        return RESULTS[self.result][1]

    def _row(self, key, family, label, e, a, b, places, how, new=None, new_places=None, **more):
        """A row from the changes ``a`` and ``b`` (``None``: no draws in this system); the
        new ratings are ``new`` or the ratings plus the changes, shown with ``new_places``
        decimals (default: ``places``)."""
        if a is None:
            return SystemRow(key, family, label, e, None, None, places=places, how=how)
        new_a, new_b = new or (self.rating + a, self.opponent + b)
        return SystemRow(
            key,
            family,
            label,
            e,
            float(a),
            float(b),
            float(new_a),
            float(new_b),
            places,
            places if new_places is None else new_places,
            how=how,
            **more,
        )

    def _fide(self, key, label, use_table, cap):
        a, b = (
            fide.rate_period(r, [(o, s)], k=k, on=self.date, use_table=use_table, cap_400=cap)
            for r, o, s, k in (
                (self.rating, self.opponent, self.score, self.k),
                (self.opponent, self.rating, 1 - self.score, self.opponent_k),
            )
        )
        used = (
            _("differences used: {own} / {other}").format(
                own=fmt_number(a.differences[0], 0), other=fmt_number(b.differences[0], 0)
            )
            if cap
            else _("real difference")
        )
        how = _("{method}, {used}; K {k} / {opponent_k}, rounded once").format(
            method=_("table 8.1.2") if use_table else _("÷400 formula"),
            used=used,
            k=fmt_plain(a.k),
            opponent_k=fmt_plain(b.k),
        )
        return self._row(
            key,
            "fide",
            label,
            float(a.expected[0]),
            a.rounded_change,
            b.rounded_change,
            0,
            how,
            exact_a=a.change,
            exact_b=b.change,
        )

    def _calculator(self, key, label, how):
        """A document's calculator as it describes itself (``docs/sources.md``): the Telugu
        one with its 400-point switch on (its default; for any rating) and a whole-number new
        rating, the Ukrainian one with no cap and the unrounded rating; each side with its K."""
        if key == "telugu":
            a, b = (
                elo.telugu_calculator(r, [(o, s)], k=k, cap_400=True)
                for r, o, s, k in (
                    (self.rating, self.opponent, self.score, self.k),
                    (self.opponent, self.rating, 1 - self.score, self.opponent_k),
                )
            )
            places = 0
        else:
            a, b = (
                elo.ukrainian_calculator(r, o, s, k=k)
                for r, o, s, k in (
                    (self.rating, self.opponent, self.score, self.k),
                    (self.opponent, self.rating, 1 - self.score, self.opponent_k),
                )
            )
            places = 2
        return self._row(
            key,
            "calculator",
            label,
            float(a.expected[0]),
            a.change,
            b.change,
            1,
            f"{_(how)}; K {self.k} / {self.opponent_k}",
            new=(a.new_rating, b.new_rating),
            new_places=places,
        )

    def _gammon42(self, version, rules):
        e = float(rules.expected_score(self.rating, self.opponent))
        cube = (
            _("cube {cube} × {factor}").format(
                cube=self.cube,
                factor=fmt_pattern(float(rules.cube_multiplier(self.cube)), "{:.2f}"),
            )
            if rules.cube_mode == "coefficient"
            else _("cube × points ({cube})").format(cube=self.cube)
        )
        how = (
            f"÷{fmt_plain(rules.divisor)}, K {rules.k_for(self.recent)} / "
            f"{rules.k_for(self.opponent_recent)}, {cube}"
        )
        a = b = None
        if self.result == "win":
            a, b = rules.change(
                self.rating,
                self.opponent,
                cube=self.cube,
                winner_recent=self.recent,
                loser_recent=self.opponent_recent,
            )
        elif self.result == "loss":
            b, a = rules.change(
                self.opponent,
                self.rating,
                cube=self.cube,
                winner_recent=self.opponent_recent,
                loser_recent=self.recent,
            )
        return self._row(f"g42-{version}", "gammon42", f"Gammon42 {version}", e, a, b, 0, how)

    def _fibs(self):
        n, mine, theirs = self.match_length, self.experience, self.opponent_experience
        e = float(fibs.win_probability(self.rating, self.opponent, n))
        # TRANSLATORS: English has one form; a language whose "{n}-point" declines has more.
        how = ngettext(
            "{n}-point match, you win it with {e}; K {k} / {opponent_k} (experience "
            "{mine} / {theirs})",
            "{n}-point match, you win it with {e}; K {k} / "
            "{opponent_k} (experience {mine} / {theirs})",
            n,
        ).format(
            n=n,
            e=fmt_pattern(e, "{:.2f}"),
            k=fmt_plain(fibs.experience_factor(mine)),
            opponent_k=fmt_plain(fibs.experience_factor(theirs)),
            mine=mine,
            theirs=theirs,
        )
        a = b = None
        if self.result == "win":
            a, b = fibs.change(
                self.rating,
                self.opponent,
                match_length=n,
                winner_experience=mine,
                loser_experience=theirs,
            )
        elif self.result == "loss":
            b, a = fibs.change(
                self.opponent,
                self.rating,
                match_length=n,
                winner_experience=theirs,
                loser_experience=mine,
            )
        return self._row("fibs", "fibs", "FIBS", e, a, b, 2, how)

    def _lichess(self):
        (ra, rda, va), (rb, rdb, vb) = glicko.lichess_game(
            (self.rating, self.rd, self.volatility),
            (self.opponent, self.opponent_rd, self.opponent_volatility),
            self.score,
        )
        e = float(glicko.expected_score(self.rating, self.opponent, self.opponent_rd))
        how = (
            f"RD {self.rd} → {fmt_pattern(rda, '{:.1f}')} / {self.opponent_rd} → "
            f"{fmt_pattern(rdb, '{:.1f}')}, σ {fmt_pattern(va, '{:.4f}')} / "
            f"{fmt_pattern(vb, '{:.4f}')}, τ {fmt_plain(glicko.LICHESS.tau)}"
        )
        return self._row(
            "lichess",
            "lichess",
            "Lichess Glicko-2",
            e,
            ra - self.rating,
            rb - self.opponent,
            1,
            how,
            new=(ra, rb),
            rd_a=float(rda),
            rd_b=float(rdb),
        )

    @depends(*CHESS)
    def chess_rows(self) -> list[SystemRow]:
        """FIDE (table and formula, with and without the cap) and the two calculators."""
        return [
            self._fide("fide-table-cap", N_("FIDE table, 400-point rule"), True, True),
            self._fide("fide-table", N_("FIDE table, no cap"), True, False),
            self._fide("fide-formula-cap", N_("FIDE ÷400 formula, 400-point rule"), False, True),
            self._fide("fide-formula", N_("FIDE ÷400 formula, no cap"), False, False),
            self._calculator(
                "telugu",
                N_("Telugu calculator"),
                N_("÷400 formula, 400-point rule on (any rating), whole new rating"),
            ),
            self._calculator(
                "ukrainian",
                N_("Ukrainian calculator"),
                N_("the same ÷400 formula, no cap, unrounded"),
            ),
        ]

    @depends(*BACKGAMMON)
    def backgammon_rows(self) -> list[SystemRow]:
        """Every Gammon42 version, then FIBS."""
        return [*(self._gammon42(v, rules) for v, rules in gammon42.VERSIONS.items()), self._fibs()]

    @depends(*LICHESS)
    def lichess_rows(self) -> list[SystemRow]:
        return [self._lichess()]

    def rows(self) -> list[SystemRow]:
        """Every system's row, in the table's order."""
        return [*self.chess_rows(), *self.backgammon_rows(), *self.lichess_rows()]

    @property
    def game(self) -> str:
        """The game in words, the tables' caption: ``"1500 against 1500: you win"``."""
        return _("{rating} against {opponent}: {result}").format(
            rating=self.rating, opponent=self.opponent, result=_(_RESULT_WORDS[self.result])
        )

    def _table(self, rows: list[SystemRow]) -> RowTable:
        """``rows`` as a table: numbers, each row with its formats (:meth:`SystemRow.formats`)."""
        return RowTable(
            tuple(_(c) for c in COLUMNS),
            [r.values() for r in rows],
            self.game,
            row_formats=[r.formats() for r in rows],
        )

    def table(self, *families: str) -> RowTable:
        """The rows of ``families`` (all when none is named) as a table."""
        return self._table([r for r in self.rows() if not families or r.family in families])

    @depends(chess_rows)
    def chess_table(self) -> RowTable:
        """FIDE and the calculators (the notebook's first table)."""
        return self._table(self.chess_rows())

    @depends(backgammon_rows)
    def backgammon_table(self) -> RowTable:
        """Gammon42 and FIBS."""
        return self._table(self.backgammon_rows())

    @depends(lichess_rows)
    def lichess_table(self) -> RowTable:
        return self._table(self.lichess_rows())


#: Examples: name → trait values (complete: an example never keeps a value of the last one).
PRESETS = EverySystemModel.presets = {
    name: {**EverySystemModel().state(), **values} for name, values in _EXAMPLES.items()
}

_FAMILY_COLOURS = {
    "fide": "#2166ac",
    "calculator": "#5aae61",
    "gammon42": "#e08214",
    "fibs": "#762a83",
    "lichess": "#b2182b",
}


class EverySystemView(DashboardView):
    """The controls, a summary line and the bar chart (your change, labelled with yours /
    the opponent's) of an :class:`EverySystemModel`; the tables are the notebook's."""

    docked = ("rating", "opponent", "result", "k", "cube")
    key_target = "ee-summary"

    def key_result(self) -> str:
        """The game, in words."""
        return self.model.game

    def build(self) -> list:
        def group(title, *children):
            return widgets.VBox(
                [widgets.HTML(f"<b>{html.escape(title)}</b>"), *children],
                layout={"margin": "0 1.5em 0.5em 0"},
            )

        game = widgets.HBox(
            [
                self.number("rating", width="14em"),
                self.number("opponent", width="16em"),
                self.toggles(
                    "result", [(_(t), v) for v, (t, _s) in RESULTS.items()], label=_("Result")
                ),
            ]
        )
        chess = group(
            _("Chess Elo (FIDE, calculators)"),
            self.dropdown("k", elo.K_CHOICES, width="12em"),
            self.dropdown("opponent_k", elo.K_CHOICES, width="14em"),
            self.dropdown(
                "date", [(_(t), d) for d, t in DATES.items()], label=_("Rated"), width="25em"
            ),
        )
        fibs_box = group(
            "FIBS",
            *(
                self.slider(n, width="33em", step=s)
                for n, s in (("match_length", 1), ("experience", 10), ("opponent_experience", 10))
            ),
        )
        g42 = group(
            "Gammon42",
            self.toggles("cube", gammon42.CUBE_VALUES),
            *(
                self.slider(n, width="33em", label_width="15em")
                for n in ("recent", "opponent_recent")
            ),
        )
        lichess = group(
            "Lichess",
            *(
                self.slider(n, width="33em", step=s)
                for n, s in (
                    ("rd", 1),
                    ("opponent_rd", 1),
                    ("volatility", 0.001),
                    ("opponent_volatility", 0.001),
                )
            ),
        )
        self.summary = html_box("ee-summary", width="100%")
        self._figure()
        return [
            self.preset_menu(width="30em"),
            game,
            widgets.HBox([widgets.VBox([chess, fibs_box]), widgets.VBox([g42, lichess])]),
            self.summary,
            self.figure.out,
        ]

    def _figure(self) -> None:
        rows = self.model.rows()
        self.figure = FigureView(
            figsize=(10.5, 4.6),
            height="470px",
            margins=dict(left=0.22, right=0.97, bottom=0.11, top=0.93),
        )
        ax, y = self.figure.ax, np.arange(len(rows))
        self.bars = ax.barh(
            y, np.zeros(len(rows)), height=0.62, color=[_FAMILY_COLOURS[r.family] for r in rows]
        )
        self.labels = [ax.text(0, yi, "", va="center", fontsize=8.5) for yi in y]
        ax.set_yticks(y, [_(r.label) for r in rows], fontsize=8.5)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel(_("your rating change (rating points, each system's own scale)"))
        ax.set_title(_("Your change, labelled yours / the opponent's"), fontsize=10)
        ax.grid(axis="x", color="#dddddd", lw=0.6)
        ax.set_axisbelow(True)
        self.figure.dynamic(*self.bars, *self.labels)  # blitted on a saved background
        self.x_limits = ax.get_xlim()  # the limits the changes ask for (render)
        self.label_lines = [("", "")] * len(rows)  # each label in one line and in two
        self.figure.layout_hooks.append(self._room_for_labels)

    def _room_for_labels(self) -> None:
        """The x limits wide enough for every bar's label inside the frame, as the labels
        measure in the figure's layout: a phone's narrow panel needs more room than
        :attr:`x_limits` give (the right frame crossed the minus of "−10.0"); a desktop
        keeps :attr:`x_limits`. Where one line each is too wide for the panel, each label
        is written in two lines, yours above the opponent's."""
        for lines in (1, 2):
            for text, (one, two) in zip(self.labels, self.label_lines):
                text.set_text(one if lines == 1 else two)
            limits = self._limits_for_labels()
            if limits is not None:
                break
        ax = self.figure.ax
        update_limits(
            ax,
            x=self.x_limits
            if limits == tuple(self.x_limits)
            else steady_limits(self.x_limits, *(limits or ax.get_xlim()), margin=0),
        )

    def _limits_for_labels(self) -> tuple[float, float] | None:
        """The limits (at least :attr:`x_limits`) that hold each label from its anchor
        outward, or ``None`` when the labels are too wide for the panel."""
        ax, fig = self.figure.ax, self.figure.fig
        renderer, pad = fig.canvas.get_renderer(), 4 * fig.dpi / 72  # 4 pt from the frame
        labels = [
            (text.get_position()[0], (text.get_window_extent(renderer).width + pad) / ax.bbox.width)
            for text in self.labels
            if text.get_visible() and text.get_text()
        ]
        lo, hi = self.x_limits
        for _i in range(40):  # a label from its anchor x outward, a share of the width wide
            width = hi - lo
            hi = max([self.x_limits[1]] + [x + share * width for x, share in labels if x >= 0])
            lo = min([self.x_limits[0]] + [x - share * width for x, share in labels if x < 0])
        width = hi - lo
        fits = all(
            lo - 1e-3 * width <= x - share * width
            if x < 0
            # (converged)
            else x + share * width <= hi + 1e-3 * width
            for x, share in labels
        )
        return (lo, hi) if fits else None

    @depends(*EverySystemModel.params)
    def render(self) -> None:
        m, rows = self.model, self.model.rows()
        by_key = {r.key: r for r in rows}
        lichess, formula = by_key["lichess"], by_key["ukrainian"]
        e = f"<span class='ee-value'>{fmt_pattern(formula.expected_a, '{:.2f}')}</span>"
        now = (
            f"<span class='ee-value ee-lichess-now'>"
            f"{glicko.lichess_display(lichess.new_a, lichess.rd_a)} / "
            f"{glicko.lichess_display(lichess.new_b, lichess.rd_b)}</span>"
        )
        self.summary.value = (
            f"<p><span class='ee-value ee-big ee-game'>{html.escape(m.game)}</span> &nbsp; "
            + html.escape(_("E for you (÷400 formula) {e}")).format(e=e)
            + " &nbsp; "
            + html.escape(_("Lichess now shows {ratings}")).format(ratings=now)
            + f" <span class='ee-note'>({html.escape(lichess.how)})</span></p>"
        )
        changes = np.array([np.nan if r.change_a is None else r.change_a for r in rows])
        span = max(np.nanmax(np.abs(changes), initial=0.0), 1.0)
        self.label_lines = []
        for bar, text, row, c in zip(self.bars, self.labels, rows, changes):
            y = bar.get_y() + bar.get_height() / 2
            if np.isnan(c):
                bar.set_width(0)
                self.label_lines.append((_("no draws"),) * 2)
                text.set(position=(span * 0.02, y), ha="left")
                continue
            bar.set_width(c)
            places = {"fibs": 2, "fide": 0, "gammon42": 0}.get(row.family, 1)
            gap = span * 0.015 * (1 if c >= 0 else -1)
            yours, theirs = fmt_signed(c, places), fmt_signed(row.change_b, places)
            self.label_lines.append((f"{yours} / {theirs}", f"{yours} /\n{theirs}"))
            text.set(position=(c + gap, y), ha="left" if c >= 0 else "right")
        self.x_limits = steady_limits(self.x_limits, -span * 1.35, span * 1.35, margin=0)
        self.figure.refresh()  # (the limits: _room_for_labels)
