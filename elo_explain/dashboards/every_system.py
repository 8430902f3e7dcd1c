"""Dashboard 7, "Every system, one game": one game rated by every system side by side.

Two players A and B, a result, and what each system would do with it:

* FIDE with table 8.1.2 and with the ÷400 formula, each with and without the
  400-point rule (:func:`elo_explain.fide.rate_period`: the change is
  K × (score − PD), rounded once to a whole number, 0.5 away from zero; the cap
  follows the rule in force on the chosen date, so from 2025-10-01 a player rated
  2650 or more uses the real difference);
* the Telugu and the Ukrainian calculators (the same ÷400 formula,
  :func:`elo_explain.elo.rating_change`, unrounded, with each player's K);
* Gammon42, every version in :data:`elo_explain.gammon42.VERSIONS` (before 1.0.5,
  1.0.5, 1.2.0, 1.3.1) with the doubling cube and, in 1.3.1, each player's K from
  their ranked games in the last 7 days;
* FIBS (:func:`elo_explain.fibs.change`) for an n-point match, each player's K from
  their experience;
* Lichess Glicko-2 (:func:`elo_explain.glicko.lichess_game`) with each player's RD
  and volatility.

Backgammon has no draws: on a draw the backgammon rows say so instead of a number.
Chess.com is left out on purpose: it publishes no exact parameters.

Every number is computed by the package's rating modules; this module only
arranges them. Negative numbers use the true minus sign "−" (U+2212), as
:mod:`elo_explain.tables` does.

>>> m = EverySystem()                       # two established players at 1500, A wins
>>> {r.key: (r.cells[2], r.cells[3]) for r in m.rows()}["g42-1.3.1"]
('+16', '−16')
>>> {r.key: (r.cells[2], r.cells[3]) for r in m.rows()}["fibs"]
('+2.00', '−2.00')
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np

from elo_explain import _validate as V
from elo_explain import elo, fibs, fide, gammon42, glicko
from elo_explain.ui import FigureView, NumberField, PresetMixin, app_root, fmt_number
from elo_explain.ui import fmt_signed, round_half_away, steady_limits, table_html, update_limits
from elo_explain.ui import widget

__all__ = [
    "RESULTS",
    "DATES",
    "PRESETS",
    "RATING_RANGE",
    "SystemRow",
    "EverySystem",
    "EverySystemView",
    "every_system",
]

#: The result choices: label → A's score.
RESULTS: dict[str, float] = {"A wins": 1.0, "Draw": 0.5, "B wins": 0.0}
#: The 400-point rule's two regimes: label → a date inside it.
DATES: dict[str, str] = {
    "from 2025-10-01 (no cap for 2650+)": "2025-10-01",
    "2024-03-01 to 2025-09-30 (cap for all)": "2025-09-30",
}
#: Ratings a reader may type.
RATING_RANGE = (400, 3500)
RECENT_MAX = 300
EXPERIENCE_MAX = 1000
MATCH_LENGTH_MAX = 25
VOLATILITY_RANGE = (0.02, glicko.LICHESS.max_volatility)
NO_DRAWS = "no draws in backgammon"

#: Examples: name → the model's attributes (anything not named keeps its default).
PRESETS: dict[str, dict] = {
    "Two established players at 1500, A wins": {},
    "Two new players at 1500, A wins": dict(
        k_a=40, k_b=40, experience_a=0, experience_b=0, rd_a=500, rd_b=500,
        volatility_a=0.09, volatility_b=0.09),
    "Underdog 300 below wins (Gammon42 versions)": dict(rating_a=1500, rating_b=1800),
    "Busy A (60 ranked games this week) vs B (10)": dict(recent_a=60, recent_b=10),
    "1500 beats 1000 (the 400-point rule)": dict(rating_a=1500, rating_b=1000),
    "2700 draws with 2200 (the 2650 exemption)": dict(
        rating_a=2700, rating_b=2200, result="Draw", k_a=10, k_b=20),
    "Equal players, cube 64": dict(cube=64),
}

_DEFAULTS = dict(
    rating_a=1500, rating_b=1500, result="A wins", k_a=20, k_b=20,
    date=next(iter(DATES)), cube=1, recent_a=0, recent_b=0, match_length=1,
    experience_a=400, experience_b=400, rd_a=60, rd_b=60, volatility_a=0.06, volatility_b=0.06,
)


# --------------------------------------------------------------------------- formatting
def _exact_then_applied(exact: float, applied: int) -> str:
    """``"+1.8 → +2"``: the exact change with as few decimals (1 to 3) as keep the shown
    number rounding the same way as the exact one (−4.468 is "−4.47 → −4", not "−4.5 → −4").

    >>> _exact_then_applied(1.818, 2), _exact_then_applied(-4.468, -4)
    ('+1.8 → +2', '−4.47 → −4')
    """
    for decimals in (1, 2, 3):
        if round_half_away(round_half_away(exact, decimals)) == applied:
            break
    return f"{fmt_signed(exact, decimals)} → {fmt_signed(applied, 0)}"


@dataclass(frozen=True)
class SystemRow:
    """One system's verdict on the game.

    ``key`` (stable id), ``family`` (``"fide"``, ``"calculator"``, ``"gammon42"``,
    ``"fibs"``, ``"lichess"``), ``label``; ``expected_a`` (A's expected score, or for
    FIBS A's chance to win the match); ``change_a``/``change_b`` (the change applied,
    ``None`` when the system has no such result); ``cells`` (the table row as text:
    system, E for A, change A, change B, new A, new B, how) .
    """

    key: str
    family: str
    label: str
    expected_a: float
    change_a: float | None
    change_b: float | None
    cells: tuple


COLUMNS = ("System", "E for A", "Change A", "Change B", "New A", "New B", "How")


# --------------------------------------------------------------------------- the model
class EverySystem:
    """The game and every system's result (no widgets).

    Attributes (set with :meth:`set`, which validates): ``rating_a``, ``rating_b``;
    ``result`` ("A wins", "Draw", "B wins"); ``k_a``, ``k_b`` (FIDE K, 40/20/10, used by
    every chess Elo row); ``date`` (a key of :data:`DATES`); ``cube`` (1…64);
    ``recent_a``, ``recent_b`` (ranked games in the last 7 days, Gammon42);
    ``match_length`` (FIBS, points); ``experience_a``, ``experience_b`` (FIBS);
    ``rd_a``, ``rd_b``, ``volatility_a``, ``volatility_b`` (Lichess).

    >>> m = EverySystem(**PRESETS["1500 beats 1000 (the 400-point rule)"])
    >>> rows = {r.key: r for r in m.rows()}
    >>> rows["fide-formula-cap"].cells[1:3], rows["fide-formula"].cells[1:3]
    (('0.91', '+1.8 → +2'), ('0.95', '+1.1 → +1'))
    >>> rows["fide-table-cap"].cells[1:3]
    ('0.92', '+1.6 → +2')
    """

    def __init__(self, **state):
        for name, value in _DEFAULTS.items():
            setattr(self, name, value)
        self.set(**state)

    def set(self, **state) -> None:
        """Change some of the state; ``ValueError`` naming the field for a bad value.

        >>> EverySystem().set(cube=3)
        Traceback (most recent call last):
        ...
        ValueError: cube must be one of 1, 2, 4, 8, 16, 32, 64, got 3
        """
        for name, value in state.items():
            if name in ("rating_a", "rating_b"):
                value = V.in_range(name, value, *RATING_RANGE)
            elif name == "result":
                value = V.choice("result", value, tuple(RESULTS))
            elif name in ("k_a", "k_b"):
                value = V.choice(name, value, elo.K_CHOICES)
            elif name == "date":
                value = V.choice("date", value, tuple(DATES))
            elif name == "cube":
                value = V.choice("cube", value, gammon42.CUBE_VALUES)
            elif name in ("recent_a", "recent_b"):
                value = V.integer(name, value, lo=0, hi=RECENT_MAX)
            elif name == "match_length":
                value = V.integer(name, value, lo=1, hi=MATCH_LENGTH_MAX)
            elif name in ("experience_a", "experience_b"):
                value = V.integer(name, value, lo=0, hi=EXPERIENCE_MAX)
            elif name in ("rd_a", "rd_b"):
                value = V.in_range(name, value, glicko.LICHESS.min_rd, glicko.LICHESS.max_rd)
            elif name in ("volatility_a", "volatility_b"):
                value = V.in_range(name, value, *VOLATILITY_RANGE)
            else:
                raise TypeError(f"unknown setting {name!r}; allowed: {', '.join(_DEFAULTS)}")
            setattr(self, name, value)

    @property
    def score_a(self) -> float:
        return RESULTS[self.result]

    # -- chess ------------------------------------------------------------------------------
    def _fide(self, key, label, use_table, cap):
        on = DATES[self.date]
        a = fide.rate_period(self.rating_a, [(self.rating_b, self.score_a)], k=self.k_a, on=on,
                             use_table=use_table, cap_400=cap)
        b = fide.rate_period(self.rating_b, [(self.rating_a, 1 - self.score_a)], k=self.k_b,
                             on=on, use_table=use_table, cap_400=cap)
        how = ("table 8.1.2" if use_table else "÷400 formula") + ", "
        if cap:
            how += (f"differences used: A {fmt_number(a.differences[0], 0)}, B "
                    f"{fmt_number(b.differences[0], 0)}; ")
        else:
            how += "real difference; "
        how += f"K {a.k:g} / {b.k:g}, rounded once"
        return SystemRow(
            key, "fide", label, float(a.expected[0]), float(a.rounded_change),
            float(b.rounded_change),
            (label, f"{a.expected[0]:.2f}",
             _exact_then_applied(a.change, a.rounded_change),
             _exact_then_applied(b.change, b.rounded_change),
             fmt_number(a.new_rating, 0), fmt_number(b.new_rating, 0), how))

    def _calculator(self, key, label, how):
        ea = elo.expected_score(self.rating_a, self.rating_b)
        eb = elo.expected_score(self.rating_b, self.rating_a)
        ca = elo.rating_change(self.score_a, ea, self.k_a)
        cb = elo.rating_change(1 - self.score_a, eb, self.k_b)
        return SystemRow(
            key, "calculator", label, ea, ca, cb,
            (label, f"{ea:.2f}", fmt_signed(ca, 1), fmt_signed(cb, 1),
             fmt_number(self.rating_a + ca, 1), fmt_number(self.rating_b + cb, 1),
             f"{how}; K {self.k_a} / {self.k_b}, unrounded"))

    # -- backgammon -------------------------------------------------------------------------
    def _gammon42(self, version: str, rules) -> SystemRow:
        label = f"Gammon42 {version}"
        ea = float(rules.expected_score(self.rating_a, self.rating_b))
        ka, kb = rules.k_for(self.recent_a), rules.k_for(self.recent_b)
        cube = (f"cube {self.cube} × {rules.cube_multiplier(self.cube):.2f}"
                if rules.cube_mode == "coefficient"
                else f"cube × points ({self.cube})")
        how = f"÷{rules.divisor:g}, K {ka} / {kb}, {cube}"
        if self.result == "Draw":
            return SystemRow(f"g42-{version}", "gammon42", label, ea, None, None,
                             (label, f"{ea:.2f}", NO_DRAWS, "—", "—", "—", how))
        if self.result == "A wins":
            da, db = rules.change(self.rating_a, self.rating_b, cube=self.cube,
                                  winner_recent=self.recent_a, loser_recent=self.recent_b)
        else:
            db, da = rules.change(self.rating_b, self.rating_a, cube=self.cube,
                                  winner_recent=self.recent_b, loser_recent=self.recent_a)
        return SystemRow(
            f"g42-{version}", "gammon42", label, ea, float(da), float(db),
            (label, f"{ea:.2f}", fmt_signed(da, 0), fmt_signed(db, 0),
             fmt_number(self.rating_a + da, 0), fmt_number(self.rating_b + db, 0), how))

    def _fibs(self) -> SystemRow:
        n = self.match_length
        label = "FIBS"
        pa = float(fibs.win_probability(self.rating_a, self.rating_b, n))
        ka = float(fibs.experience_factor(self.experience_a))
        kb = float(fibs.experience_factor(self.experience_b))
        how = (f"{n}-point match, A wins it with {pa:.2f}; K {ka:g} / {kb:g} "
               f"(experience {self.experience_a} / {self.experience_b})")
        if self.result == "Draw":
            return SystemRow("fibs", "fibs", label, pa, None, None,
                             (label, f"{pa:.2f}", NO_DRAWS, "—", "—", "—", how))
        if self.result == "A wins":
            da, db = fibs.change(self.rating_a, self.rating_b, match_length=n,
                                 winner_experience=self.experience_a,
                                 loser_experience=self.experience_b)
        else:
            db, da = fibs.change(self.rating_b, self.rating_a, match_length=n,
                                 winner_experience=self.experience_b,
                                 loser_experience=self.experience_a)
        return SystemRow(
            "fibs", "fibs", label, pa, float(da), float(db),
            (label, f"{pa:.2f}", fmt_signed(da, 2), fmt_signed(db, 2),
             fmt_number(self.rating_a + da, 2), fmt_number(self.rating_b + db, 2), how))

    # -- Lichess ----------------------------------------------------------------------------
    def _lichess(self) -> SystemRow:
        label = "Lichess Glicko-2"
        a = (self.rating_a, self.rd_a, self.volatility_a)
        b = (self.rating_b, self.rd_b, self.volatility_b)
        (ra, rda, va), (rb, rdb, vb) = glicko.lichess_game(a, b, self.score_a)
        ea = float(glicko.expected_score(self.rating_a, self.rating_b, self.rd_b))
        da, db = ra - self.rating_a, rb - self.rating_b
        how = (f"RD {self.rd_a:.0f} → {rda:.1f} / {self.rd_b:.0f} → {rdb:.1f}, "
               f"σ {va:.4f} / {vb:.4f}, τ 0.75")
        return SystemRow(
            "lichess", "lichess", label, ea, float(da), float(db),
            (label, f"{ea:.2f}", fmt_signed(da, 1), fmt_signed(db, 1),
             glicko.lichess_display(ra, rda), glicko.lichess_display(rb, rdb), how))

    # -- all --------------------------------------------------------------------------------
    def rows(self) -> list[SystemRow]:
        """Every system's row, in the order of the table."""
        out = [
            self._fide("fide-table-cap", "FIDE table, 400-point rule", True, True),
            self._fide("fide-table", "FIDE table, no cap", True, False),
            self._fide("fide-formula-cap", "FIDE ÷400 formula, 400-point rule", False, True),
            self._fide("fide-formula", "FIDE ÷400 formula, no cap", False, False),
            self._calculator("telugu", "Telugu calculator", "÷400 formula, no cap"),
            self._calculator("ukrainian", "Ukrainian calculator",
                             "the same ÷400 formula, no cap"),
        ]
        out += [self._gammon42(v, rules) for v, rules in gammon42.VERSIONS.items()]
        out += [self._fibs(), self._lichess()]
        return out

    def table_rows(self) -> list[tuple]:
        return [r.cells for r in self.rows()]


# --------------------------------------------------------------------------- the view
_FAMILY_COLOURS = {"fide": "#2166ac", "calculator": "#5aae61", "gammon42": "#e08214",
                   "fibs": "#762a83", "lichess": "#b2182b"}

_NOTES = """
<style>
.ee-every-system table.ee-table td:first-child,
.ee-every-system table.ee-table td:last-child { text-align: left; }
.ee-every-system table.ee-table td:last-child { font-size: 0.85em; color: #444; }
</style>
<div class="ee-note">
<p><b>How to read the table.</b> "E for A" is A's expected score (points per game, a draw
counting half) under each curve: ÷400 in chess, the FIDE table's two-decimal values,
÷400 / ÷800 / ÷1200 for the Gammon42 versions; for FIBS it is A's chance to win the whole
n-point match (÷2000, times √n); for Lichess it is Glicko's E, flattened by B's RD. FIDE
rounds K × (score − E) once to a whole number (shown "exact → applied"); Gammon42 rounds
each side to a whole number; FIBS, the calculators and Lichess keep decimals (the "New"
column for Lichess is what Lichess shows: the whole part of the rating, with "?" while
RD ≥ 110). Different K (or experience, or RD) on the two
sides means the changes are no longer mirror images.</p>
<p><b>Not comparable across pools.</b> A chess 1500 and a backgammon 1500 are different
things, and so are 1500 on Lichess, Chess.com and the FIDE list. Chess.com is left out: it
uses Glicko with parameters it does not publish. Minus signs are shown as −.</p>
</div>
"""


class EverySystemView(PresetMixin):
    """The widgets of dashboard 7 linked to an :class:`EverySystem` model; ``.root`` is shown."""

    def __init__(self, model: EverySystem | None = None):
        import ipywidgets as W

        g = self._preset_view(model or EverySystem(), PRESETS, width="30em")
        m = self.model
        init = dict(style={"description_width": "initial"})
        wide = dict(style={"description_width": "12em"}, layout={"width": "33em"})

        self.rating_a = NumberField("Rating of A", m.rating_a, lo=RATING_RANGE[0],
                                    hi=RATING_RANGE[1], integer=True, width="14em",
                                    on_change=g(self._changed))
        self.rating_a.add_class("ee-rating-a")
        self.rating_b = NumberField("Rating of B", m.rating_b, lo=RATING_RANGE[0],
                                    hi=RATING_RANGE[1], integer=True, width="14em",
                                    on_change=g(self._changed))
        self.rating_b.add_class("ee-rating-b")
        self.result = widget(W.ToggleButtons, options=list(RESULTS), value=m.result,
                             description="Result", css="ee-result",
                             style={"description_width": "initial", "button_width": "6em"})

        # chess
        self.k_a = widget(W.Dropdown, options=list(elo.K_CHOICES), value=m.k_a,
                          description="K of A", layout={"width": "12em"}, css="ee-k-a", **init)
        self.k_b = widget(W.Dropdown, options=list(elo.K_CHOICES), value=m.k_b,
                          description="K of B", layout={"width": "12em"}, css="ee-k-b", **init)
        self.date = widget(W.Dropdown, options=list(DATES), value=m.date, description="Rated",
                           layout={"width": "25em"}, css="ee-date", **init)
        # Gammon42
        self.cube = widget(W.SelectionSlider, options=list(gammon42.CUBE_VALUES), value=m.cube,
                           description="Cube", css="ee-cube", **wide)
        self.recent_a = widget(W.IntSlider, value=m.recent_a, min=0, max=RECENT_MAX,
                               description="A: games in 7 days", css="ee-recent-a", **wide)
        self.recent_b = widget(W.IntSlider, value=m.recent_b, min=0, max=RECENT_MAX,
                               description="B: games in 7 days", css="ee-recent-b", **wide)
        # FIBS
        self.match_length = widget(W.IntSlider, value=m.match_length, min=1,
                                   max=MATCH_LENGTH_MAX, description="Match length (points)",
                                   css="ee-match-length", **wide)
        self.experience_a = widget(W.IntSlider, value=m.experience_a, min=0, max=EXPERIENCE_MAX,
                                   step=10, description="A's experience", css="ee-experience-a",
                                   **wide)
        self.experience_b = widget(W.IntSlider, value=m.experience_b, min=0, max=EXPERIENCE_MAX,
                                   step=10, description="B's experience", css="ee-experience-b",
                                   **wide)
        # Lichess
        rd = dict(min=int(glicko.LICHESS.min_rd), max=int(glicko.LICHESS.max_rd))
        self.rd_a = widget(W.IntSlider, value=int(m.rd_a), description="A's RD", css="ee-rd-a",
                           **rd, **wide)
        self.rd_b = widget(W.IntSlider, value=int(m.rd_b), description="B's RD", css="ee-rd-b",
                           **rd, **wide)
        vol = dict(min=VOLATILITY_RANGE[0], max=VOLATILITY_RANGE[1], step=0.001,
                   readout_format=".3f")
        self.volatility_a = widget(W.FloatSlider, value=m.volatility_a,
                                   description="A's volatility σ", css="ee-volatility-a",
                                   **vol, **wide)
        self.volatility_b = widget(W.FloatSlider, value=m.volatility_b,
                                   description="B's volatility σ", css="ee-volatility-b",
                                   **vol, **wide)

        self._controls = {
            "result": self.result, "k_a": self.k_a, "k_b": self.k_b, "date": self.date,
            "cube": self.cube, "recent_a": self.recent_a, "recent_b": self.recent_b,
            "match_length": self.match_length, "experience_a": self.experience_a,
            "experience_b": self.experience_b, "rd_a": self.rd_a, "rd_b": self.rd_b,
            "volatility_a": self.volatility_a, "volatility_b": self.volatility_b,
        }
        for control in self._controls.values():
            control.observe(g(self._changed), names="value")

        self.table = widget(W.HTML, css="ee-results")
        self._build_figure()

        def group(title, *children):
            return widget(W.VBox, [widget(W.HTML, f"<b>{html.escape(title)}</b>"), *children],
                          layout={"margin": "0 1.5em 0.5em 0"})

        game = widget(W.HBox, [self.rating_a, self.rating_b, self.result],
                      layout={"align_items": "flex-start", "grid_gap": "1.5em"})
        options = widget(W.HBox, [
            widget(W.VBox, [group("Chess Elo (FIDE, calculators)", self.k_a, self.k_b, self.date),
                            group("FIBS", self.match_length, self.experience_a,
                                  self.experience_b)]),
            widget(W.VBox, [group("Gammon42", self.cube, self.recent_a, self.recent_b),
                            group("Lichess", self.rd_a, self.rd_b, self.volatility_a,
                                  self.volatility_b)]),
        ])
        self.root = app_root([self.preset, game, options, self.status, self.table,
                              self.figure.out, widget(W.HTML, _NOTES)])
        self.root.add_class("ee-every-system")
        self.redraw()  # the first draw, with the real data: FigureView lays out then

    # -- figure -------------------------------------------------------------------------
    def _build_figure(self) -> None:
        rows = self.model.rows()
        self.figure = FigureView(figsize=(10.5, 4.6), height="470px")
        ax = self.figure.ax
        y = np.arange(len(rows))
        self.bars = ax.barh(y, np.zeros(len(rows)), height=0.62,
                            color=[_FAMILY_COLOURS[r.family] for r in rows])
        self.labels = [ax.text(0, yi, "", va="center", fontsize=8.5) for yi in y]
        ax.set_yticks(y, [r.label for r in rows], fontsize=8.5)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("rating change of A (rating points, each system's own scale)")
        self.title = ax.set_title("Change of A", fontsize=10)  # text set by redraw()
        ax.grid(axis="x", color="#dddddd", lw=0.6)
        ax.set_axisbelow(True)
        # drawn on a saved background (FigureView.dynamic); the limits change rarely
        self.figure.dynamic(*self.bars, *self.labels, self.title)

    def redraw(self) -> None:
        m = self.model
        rows = m.rows()
        self.table.value = table_html(
            COLUMNS, [r.cells for r in rows],
            caption=f"A {m.rating_a:g} vs B {m.rating_b:g}, result: {m.result}")
        changes = np.array([np.nan if r.change_a is None else r.change_a for r in rows])
        span = max(np.nanmax(np.abs(changes)) if np.isfinite(changes).any() else 0.0, 1.0)
        for bar, text, row, c in zip(self.bars, self.labels, rows, changes):
            if np.isnan(c):
                bar.set_width(0)
                text.set_text("no draws")
                text.set_position((span * 0.02, bar.get_y() + bar.get_height() / 2))
                text.set_ha("left")
                continue
            bar.set_width(c)
            decimals = 2 if row.family == "fibs" else (0 if row.family in ("fide", "gammon42")
                                                       else 1)
            text.set_text(fmt_signed(c, decimals))
            gap = span * 0.015
            text.set_position((c + gap if c >= 0 else c - gap,
                               bar.get_y() + bar.get_height() / 2))
            text.set_ha("left" if c >= 0 else "right")
        ax = self.figure.ax
        update_limits(ax, x=steady_limits(ax.get_xlim(), -span * 1.2, span * 1.2, margin=0))
        self.title.set_text(f"Change of A ({m.rating_a:g}) against B ({m.rating_b:g}), "
                            f"result: {m.result}")
        self.figure.refresh()

    # -- callbacks ----------------------------------------------------------------------
    def _read(self) -> None:
        state = {name: w.value for name, w in self._controls.items()}
        state.update(rating_a=self.rating_a.value, rating_b=self.rating_b.value)
        self.model.set(**state)

    def _show_preset(self, name: str) -> None:
        state = {**_DEFAULTS, **PRESETS[name]}
        self.rating_a.set(state["rating_a"])
        self.rating_b.set(state["rating_b"])
        for key, control in self._controls.items():
            control.value = state[key]


def every_system():
    """Build dashboard 7 and return its root widget (the notebook's last cell)."""
    return EverySystemView().root
