"""Dashboard 7, "Every system, one game": one game rated by every system side by side.

:class:`EverySystemModel` rates the game with the package's functions: FIDE
(:func:`elo_explain.fide.rate_period`, table 8.1.2 or the ÷400 formula, with or without the
400-point rule in force on the chosen date), the Telugu and Ukrainian calculators as the
documents describe them (:func:`elo_explain.elo.telugu_calculator`,
:func:`elo_explain.elo.ukrainian_calculator`), every Gammon42 version of
:data:`elo_explain.gammon42.VERSIONS`, FIBS (:func:`elo_explain.fibs.change`) and Lichess
Glicko-2 (:func:`elo_explain.glicko.lichess_game`); one :class:`SystemRow` per system.
:class:`EverySystemView` shows a summary line and a bar chart of both players' changes; the
notebook's three tables (chess, backgammon, Lichess) are declared, each with its own inputs,
and follow the view.

>>> m = EverySystemModel()                  # two established players at 1500, a win
>>> {r.key: r.cells[2:4] for r in m.rows()}["g42-1.3.1"]
('+16', '−16')
>>> {r.key: r.cells[2:4] for r in m.rows()}["fibs"]
('+2.00', '−2.00')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import ipywidgets as widgets
import numpy as np
import traitlets

from elo_explain import elo, fibs, fide, gammon42, glicko
from elo_explain.dashboards.base import (Choice, DashboardModel, DashboardView, Number, Whole,
                                         depends, html_box)
from elo_explain.tables import Table
from elo_explain.ui import FigureView, fmt_number, fmt_signed, round_half_away, steady_limits
from elo_explain.ui import update_limits

__all__ = ["RESULTS", "DATES", "PRESETS", "NO_DRAWS", "COLUMNS", "SystemRow",
           "EverySystemModel", "EverySystemView"]

#: The result, from the player's side: value → (label, score).
RESULTS = {"win": ("You win", 1.0), "draw": ("Draw", 0.5), "loss": ("You lose", 0.0)}
#: The 400-point rule's two regimes: a date inside each → label.
DATES = {"2025-10-01": "from 2025-10-01 (no cap for 2650+)",
         "2025-09-30": "2024-03-01 to 2025-09-30 (cap for all)"}
_RATING = (400, 3500)
_RD = (int(glicko.LICHESS.min_rd), int(glicko.LICHESS.max_rd))
_VOLATILITY = (0.02, glicko.LICHESS.max_volatility)
NO_DRAWS = "no draws in backgammon"
COLUMNS = ("System", "E for you", "Your change", "Opponent's change", "You now",
           "Opponent now", "How")

#: What each family's rows are computed from.
GAME = ("rating", "opponent", "result")
CHESS = (*GAME, "k", "opponent_k", "date")
BACKGAMMON = (*GAME, "cube", "recent", "opponent_recent", "match_length", "experience",
              "opponent_experience")
LICHESS = (*GAME, "rd", "opponent_rd", "volatility", "opponent_volatility")

_NEW = dict(k=40, opponent_k=40, experience=0, opponent_experience=0, rd=500, opponent_rd=500,
            volatility=0.09, opponent_volatility=0.09)
_EXAMPLES = {  # name → the trait values that differ from the defaults
    "Two established players at 1500, you win": {},
    "Two new players at 1500, you win": _NEW,
    "Underdog 300 below wins (Gammon42 versions)": dict(rating=1500, opponent=1800),
    "You busy (60 ranked games this week), opponent not (10)": dict(recent=60,
                                                                    opponent_recent=10),
    "1500 beats 1000 (the 400-point rule)": dict(rating=1500, opponent=1000),
    "2700 draws with 2200 (the 2650 exemption)": dict(rating=2700, opponent=2200,
                                                      result="draw", k=10, opponent_k=20),
    "Equal players, cube 64": dict(cube=64),
}


def _exact_then_applied(exact: float, applied: int) -> str:
    """``"+1.8 → +2"``: the exact change with as few decimals (1 to 3) as keep it rounding
    the way the applied change does (−4.468 is "−4.47 → −4", not "−4.5 → −4").

    >>> _exact_then_applied(1.818, 2), _exact_then_applied(-4.468, -4)
    ('+1.8 → +2', '−4.47 → −4')
    """
    decimals = next((d for d in (1, 2) if round_half_away(round_half_away(exact, d)) == applied), 3)
    return f"{fmt_signed(exact, decimals)} → {fmt_signed(applied, 0)}"


@dataclass(frozen=True)
class SystemRow:
    """One system's verdict: ``key``, ``family`` (fide, calculator, gammon42, fibs, lichess),
    ``label``, ``expected_a`` (the player's E; for FIBS the chance to win the match),
    ``change_a`` / ``change_b`` (applied; ``None`` when the system has no draws) and
    ``cells``, the table row as text (see :data:`COLUMNS`)."""

    key: str
    family: str
    label: str
    expected_a: float
    change_a: float | None
    change_b: float | None
    cells: tuple


class EverySystemModel(DashboardModel):
    """One game of ``rating`` against ``opponent`` with ``result`` (win, draw, loss), and
    each system's own inputs: FIDE ``k`` / ``opponent_k`` and ``date``; Gammon42 ``cube``
    and ``recent`` / ``opponent_recent`` (ranked games in 7 days); FIBS ``match_length`` and
    ``experience`` / ``opponent_experience``; Lichess ``rd``, ``volatility`` and the
    opponent's."""

    params = ("rating", "opponent", "result", "k", "opponent_k", "date", "cube", "recent",
              "opponent_recent", "match_length", "experience", "opponent_experience", "rd",
              "opponent_rd", "volatility", "opponent_volatility")
    presets: dict[str, dict] = {}  # set below: the examples with every other value at its default
    rating = Whole(1500, *_RATING, label="Your rating")
    opponent = Whole(1500, *_RATING, label="Opponent's rating")
    result = traitlets.Enum(tuple(RESULTS), default_value="win")
    k = Choice(20, elo.K_CHOICES, label="Your K")
    opponent_k = Choice(20, elo.K_CHOICES, label="Opponent's K")
    date = traitlets.Enum(tuple(DATES), default_value="2025-10-01")
    cube = Choice(1, gammon42.CUBE_VALUES, label="Cube")
    recent = Whole(0, 0, 300, label="Your games in 7 days")
    opponent_recent = Whole(0, 0, 300, label="Opponent's games in 7 days")
    match_length = Whole(1, 1, 25, label="Match length (points)")
    experience = Whole(400, 0, 1000, label="Your experience")
    opponent_experience = Whole(400, 0, 1000, label="Opponent's experience")
    rd = Whole(60, *_RD, label="Your RD")
    opponent_rd = Whole(60, *_RD, label="Opponent's RD")
    volatility = Number(0.06, *_VOLATILITY, label="Your volatility σ")
    opponent_volatility = Number(0.06, *_VOLATILITY, label="Opponent's volatility σ")

    @property
    def score(self) -> float:
        return RESULTS[self.result][1]

    def _row(self, key, family, label, e, a, b, places, how, new=None):
        """A row from the changes ``a`` and ``b`` (``None``: no draws in this system)."""
        if a is None:
            return SystemRow(key, family, label, e, None, None,
                             (label, f"{e:.2f}", NO_DRAWS, "—", "—", "—", how))
        new_a, new_b = new or (fmt_number(self.rating + a, places),
                               fmt_number(self.opponent + b, places))
        return SystemRow(key, family, label, e, float(a), float(b),
                         (label, f"{e:.2f}", fmt_signed(a, places), fmt_signed(b, places),
                          new_a, new_b, how))

    def _fide(self, key, label, use_table, cap):
        a, b = (fide.rate_period(r, [(o, s)], k=k, on=self.date, use_table=use_table, cap_400=cap)
                for r, o, s, k in ((self.rating, self.opponent, self.score, self.k),
                                   (self.opponent, self.rating, 1 - self.score, self.opponent_k)))
        used = (f"differences used: {fmt_number(a.differences[0], 0)} / "
                f"{fmt_number(b.differences[0], 0)}" if cap else "real difference")
        how = (f"{'table 8.1.2' if use_table else '÷400 formula'}, {used}; "
               f"K {a.k:g} / {b.k:g}, rounded once")
        row = self._row(key, "fide", label, float(a.expected[0]), a.rounded_change,
                        b.rounded_change, 0, how)
        return replace(row, cells=(label, row.cells[1],
                                   _exact_then_applied(a.change, a.rounded_change),
                                   _exact_then_applied(b.change, b.rounded_change), *row.cells[4:]))

    def _calculator(self, key, label, how):
        """A document's calculator as it describes itself (``docs/sources.md``): the Telugu
        one with its 400-point switch on (its default; for any rating) and a whole-number new
        rating, the Ukrainian one with no cap and the unrounded rating; each side with its K."""
        if key == "telugu":
            a, b = (elo.telugu_calculator(r, [(o, s)], k=k, cap_400=True)
                    for r, o, s, k in ((self.rating, self.opponent, self.score, self.k),
                                       (self.opponent, self.rating, 1 - self.score,
                                        self.opponent_k)))
            new = (fmt_number(a.new_rating, 0), fmt_number(b.new_rating, 0))
        else:
            a, b = (elo.ukrainian_calculator(r, o, s, k=k)
                    for r, o, s, k in ((self.rating, self.opponent, self.score, self.k),
                                       (self.opponent, self.rating, 1 - self.score,
                                        self.opponent_k)))
            new = (fmt_number(a.new_rating, 2), fmt_number(b.new_rating, 2))
        return self._row(key, "calculator", label, float(a.expected[0]), a.change, b.change, 1,
                         f"{how}; K {self.k} / {self.opponent_k}", new=new)

    def _gammon42(self, version, rules):
        e = float(rules.expected_score(self.rating, self.opponent))
        cube = (f"cube {self.cube} × {rules.cube_multiplier(self.cube):.2f}"
                if rules.cube_mode == "coefficient" else f"cube × points ({self.cube})")
        how = (f"÷{rules.divisor:g}, K {rules.k_for(self.recent)} / "
               f"{rules.k_for(self.opponent_recent)}, {cube}")
        a = b = None
        if self.result == "win":
            a, b = rules.change(self.rating, self.opponent, cube=self.cube,
                                winner_recent=self.recent, loser_recent=self.opponent_recent)
        elif self.result == "loss":
            b, a = rules.change(self.opponent, self.rating, cube=self.cube,
                                winner_recent=self.opponent_recent, loser_recent=self.recent)
        return self._row(f"g42-{version}", "gammon42", f"Gammon42 {version}", e, a, b, 0, how)

    def _fibs(self):
        n, mine, theirs = self.match_length, self.experience, self.opponent_experience
        e = float(fibs.win_probability(self.rating, self.opponent, n))
        how = (f"{n}-point match, you win it with {e:.2f}; K {fibs.experience_factor(mine):g} / "
               f"{fibs.experience_factor(theirs):g} (experience {mine} / {theirs})")
        a = b = None
        if self.result == "win":
            a, b = fibs.change(self.rating, self.opponent, match_length=n,
                               winner_experience=mine, loser_experience=theirs)
        elif self.result == "loss":
            b, a = fibs.change(self.opponent, self.rating, match_length=n,
                               winner_experience=theirs, loser_experience=mine)
        return self._row("fibs", "fibs", "FIBS", e, a, b, 2, how)

    def _lichess(self):
        (ra, rda, va), (rb, rdb, vb) = glicko.lichess_game(
            (self.rating, self.rd, self.volatility),
            (self.opponent, self.opponent_rd, self.opponent_volatility), self.score)
        e = float(glicko.expected_score(self.rating, self.opponent, self.opponent_rd))
        how = (f"RD {self.rd} → {rda:.1f} / {self.opponent_rd} → {rdb:.1f}, "
               f"σ {va:.4f} / {vb:.4f}, τ 0.75")
        return self._row("lichess", "lichess", "Lichess Glicko-2", e, ra - self.rating,
                         rb - self.opponent, 1, how,
                         new=(glicko.lichess_display(ra, rda), glicko.lichess_display(rb, rdb)))

    @depends(*CHESS)
    def chess_rows(self) -> list[SystemRow]:
        """FIDE (table and formula, with and without the cap) and the two calculators."""
        return [
            self._fide("fide-table-cap", "FIDE table, 400-point rule", True, True),
            self._fide("fide-table", "FIDE table, no cap", True, False),
            self._fide("fide-formula-cap", "FIDE ÷400 formula, 400-point rule", False, True),
            self._fide("fide-formula", "FIDE ÷400 formula, no cap", False, False),
            self._calculator("telugu", "Telugu calculator",
                             "÷400 formula, 400-point rule on (any rating), whole new rating"),
            self._calculator("ukrainian", "Ukrainian calculator",
                             "the same ÷400 formula, no cap, unrounded"),
        ]

    @depends(*BACKGAMMON)
    def backgammon_rows(self) -> list[SystemRow]:
        """Every Gammon42 version, then FIBS."""
        return [*(self._gammon42(v, rules) for v, rules in gammon42.VERSIONS.items()),
                self._fibs()]

    @depends(*LICHESS)
    def lichess_rows(self) -> list[SystemRow]:
        return [self._lichess()]

    def rows(self) -> list[SystemRow]:
        """Every system's row, in the table's order."""
        return [*self.chess_rows(), *self.backgammon_rows(), *self.lichess_rows()]

    @property
    def game(self) -> str:
        """The game in words, the tables' caption: ``"1500 against 1500: you win"``."""
        return f"{self.rating} against {self.opponent}: {RESULTS[self.result][0].lower()}"

    def table(self, *families: str) -> Table:
        """The rows of ``families`` (all when none is named) as a table."""
        cells = [r.cells for r in self.rows() if not families or r.family in families]
        return Table(COLUMNS, cells, self.game)

    @depends(chess_rows)
    def chess_table(self) -> Table:
        """FIDE and the calculators (the notebook's first table)."""
        return Table(COLUMNS, [r.cells for r in self.chess_rows()], self.game)

    @depends(backgammon_rows)
    def backgammon_table(self) -> Table:
        """Gammon42 and FIBS."""
        return Table(COLUMNS, [r.cells for r in self.backgammon_rows()], self.game)

    @depends(lichess_rows)
    def lichess_table(self) -> Table:
        return Table(COLUMNS, [r.cells for r in self.lichess_rows()], self.game)


#: Examples: name → trait values (complete: an example never keeps a value of the last one).
PRESETS = EverySystemModel.presets = {name: {**EverySystemModel().state(), **values}
                                      for name, values in _EXAMPLES.items()}

_FAMILY_COLOURS = {"fide": "#2166ac", "calculator": "#5aae61", "gammon42": "#e08214",
                   "fibs": "#762a83", "lichess": "#b2182b"}


class EverySystemView(DashboardView):
    """The controls, a summary line and the bar chart (your change, labelled with yours /
    the opponent's) of an :class:`EverySystemModel`; the tables are the notebook's."""

    def build(self) -> list:
        def group(title, *children):
            return widgets.VBox([widgets.HTML(f"<b>{title}</b>"), *children],
                                layout={"margin": "0 1.5em 0.5em 0"})

        game = widgets.HBox([self.number("rating", width="14em"),
                             self.number("opponent", width="16em"),
                             self.toggles("result", [(t, v) for v, (t, _) in RESULTS.items()])])
        chess = group("Chess Elo (FIDE, calculators)", self.dropdown("k", elo.K_CHOICES, width="12em"),
                      self.dropdown("opponent_k", elo.K_CHOICES, width="14em"),
                      self.dropdown("date", [(t, d) for d, t in DATES.items()], label="Rated",
                                    width="25em"))
        fibs_box = group("FIBS", *(self.slider(n, width="33em", step=s) for n, s in (
            ("match_length", 1), ("experience", 10), ("opponent_experience", 10))))
        g42 = group("Gammon42", self.toggles("cube", gammon42.CUBE_VALUES),
                    *(self.slider(n, width="33em", label_width="15em")
                      for n in ("recent", "opponent_recent")))
        lichess = group("Lichess", *(self.slider(n, width="33em", step=s) for n, s in (
            ("rd", 1), ("opponent_rd", 1), ("volatility", 0.001), ("opponent_volatility", 0.001))))
        self.summary = html_box("ee-summary", width="100%")
        self._figure()
        return [self.preset_menu(width="30em"), game,
                widgets.HBox([widgets.VBox([chess, fibs_box]), widgets.VBox([g42, lichess])]),
                self.summary, self.figure.out]

    def _figure(self) -> None:
        rows = self.model.rows()
        self.figure = FigureView(figsize=(10.5, 4.6), height="470px", margins=dict(
            left=0.22, right=0.97, bottom=0.11, top=0.93))
        ax, y = self.figure.ax, np.arange(len(rows))
        self.bars = ax.barh(y, np.zeros(len(rows)), height=0.62,
                            color=[_FAMILY_COLOURS[r.family] for r in rows])
        self.labels = [ax.text(0, yi, "", va="center", fontsize=8.5) for yi in y]
        ax.set_yticks(y, [r.label for r in rows], fontsize=8.5)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("your rating change (rating points, each system's own scale)")
        ax.set_title("Your change, labelled yours / the opponent's", fontsize=10)
        ax.grid(axis="x", color="#dddddd", lw=0.6)
        ax.set_axisbelow(True)
        self.figure.dynamic(*self.bars, *self.labels)  # blitted on a saved background

    @depends(*EverySystemModel.params)
    def render(self) -> None:
        m, rows = self.model, self.model.rows()
        by_key = {r.key: r for r in rows}
        lichess = by_key["lichess"].cells
        self.summary.value = (
            f"<p><span class='ee-value ee-big ee-game'>{m.game}</span> &nbsp; E for you (÷400 "
            f"formula) <span class='ee-value'>{by_key['ukrainian'].cells[1]}</span> &nbsp; Lichess "
            f"now shows <span class='ee-value ee-lichess-now'>{lichess[4]} / {lichess[5]}"
            f"</span> <span class='ee-note'>({lichess[6]})</span></p>")
        changes = np.array([np.nan if r.change_a is None else r.change_a for r in rows])
        span = max(np.nanmax(np.abs(changes), initial=0.0), 1.0)
        for bar, text, row, c in zip(self.bars, self.labels, rows, changes):
            y = bar.get_y() + bar.get_height() / 2
            if np.isnan(c):
                bar.set_width(0)
                text.set(text="no draws", position=(span * 0.02, y), ha="left")
                continue
            bar.set_width(c)
            places = {"fibs": 2, "fide": 0, "gammon42": 0}.get(row.family, 1)
            gap = span * 0.015 * (1 if c >= 0 else -1)
            text.set(text=f"{fmt_signed(c, places)} / {fmt_signed(row.change_b, places)}",
                     position=(c + gap, y), ha="left" if c >= 0 else "right")
        ax = self.figure.ax
        update_limits(ax, x=steady_limits(ax.get_xlim(), -span * 1.35, span * 1.35, margin=0))
        self.figure.refresh()
