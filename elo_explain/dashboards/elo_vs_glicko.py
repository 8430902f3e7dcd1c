"""Dashboard 6, "Elo vs Glicko": the same game under Elo and under Lichess's Glicko-2.

Elo knows one number per player, so a game moves every player by at most K
points, however little the system knows about them. Mark Glickman's Glicko adds
a second number, the *rating deviation* RD: how unsure the system is about the
rating. A new player (RD 500 on Lichess) or a player back after a long break
(RD grows with every idle day) moves a lot per game; a regular player (RD near
the floor of 45) moves little. The reader moves the RD and sees:

* the change for a win, a draw and a loss under FIDE-style Elo (÷400 formula, the
  player's K) and under Glicko-2 with the Lichess settings
  (:func:`elo_explain.glicko.lichess_game`);
* the rating as Lichess shows it, with the provisional "?" while RD ≥ 110;
* the interval ``rating ± 2·RD`` (Glickman's "95 % confidence interval",
  :func:`elo_explain.glicko.confidence_interval`) before and after the game;
* a plot of the change against RD with Elo's change as flat reference lines.

Every number comes from :mod:`elo_explain.elo` and :mod:`elo_explain.glicko`;
this module only arranges and formats them. Signs use the true minus "−"
(U+2212), as :mod:`elo_explain.tables` does.

Chess.com uses Glicko (not Glicko-2) with parameters it does not publish, so
there is no Chess.com preset here (see :data:`CHESS_COM_NOTE`).

>>> m = EloVsGlicko()                      # two new Lichess players (lila's own test)
>>> m.display_before, m.provisional
('1500?', True)
>>> [row[4] for row in m.table_rows()]     # Lichess shows 1741? after a win
['1741?', '1500?', '1258?']
>>> m.set(rd=45, opponent_rd=45, k=20)
>>> m.elo_changes.tolist(), m.provisional
([10.0, 0.0, -10.0], False)
"""

from __future__ import annotations

import html

import numpy as np

from elo_explain import _validate as V
from elo_explain import elo, glicko
from elo_explain.ui import FigureView, NumberField, PresetMixin, app_root, fmt_number
from elo_explain.ui import fmt_signed, steady_limits, table_html, update_limits, widget

__all__ = [
    "RESULTS",
    "PRESETS",
    "RD_GRID",
    "RATING_RANGE",
    "DAYS_MAX",
    "Z",
    "PAPER_GLICKO2",
    "PAPER_GLICKO1",
    "CHESS_COM_NOTE",
    "EloVsGlicko",
    "EloVsGlickoView",
    "elo_vs_glicko",
]

#: The three results of a game, from the player's side: (label, score).
RESULTS: tuple[tuple[str, float], ...] = (("Win", 1.0), ("Draw", 0.5), ("Loss", 0.0))
_SCORES = np.array([s for _, s in RESULTS])
#: RD values of the change-vs-RD plot: Lichess keeps RD within 45…500.
RD_GRID = np.arange(glicko.LICHESS.min_rd, glicko.LICHESS.max_rd + 0.5, 5.0)
#: Ratings a reader may type (Lichess's floor is 400).
RATING_RANGE = (400.0, 3200.0)
#: Longest break the "days without games" slider offers (three years).
DAYS_MAX = 1095
#: Width of the interval in RDs: Glickman's "95 %" interval is rating ± 2·RD.
Z = 2.0
#: The volatility slider's range (Lichess caps the volatility at 0.1).
VOLATILITY_RANGE = (0.02, glicko.LICHESS.max_volatility)

#: Glickman, "Example of the Glicko-2 system" (glicko.net): player 1500 / RD 200 /
#: σ 0.06, τ 0.5, against 1400/30 (win), 1550/100 (loss), 1700/300 (loss). The
#: paper prints these values (rounded mid-way, hence 1464.06 where full precision
#: gives 1464.05).
PAPER_GLICKO2 = {"rating": "1464.06", "rd": "151.52", "volatility": "0.05999"}
#: Glickman, "The Glicko system": the same three games, Glicko-1; printed r' ≈ 1464, RD' ≈ 151.4.
PAPER_GLICKO1 = {"rating": "1464", "rd": "151.4"}
_PAPER_GAMES = ((1400, 30, 1), (1550, 100, 0), (1700, 300, 0))

CHESS_COM_NOTE = (
    "Chess.com uses Glicko too, but publishes no exact parameters (its starting rating "
    "depends on the level you declare), so this page offers no Chess.com preset rather "
    "than an invented one."
)

#: Presets: name → the model's attributes.
PRESETS: dict[str, dict] = {
    "Two new Lichess players (lila's own test)": dict(
        rating=1500, rd=500, volatility=0.09, days_away=0, k=40,
        opponent_rating=1500, opponent_rd=500, opponent_volatility=0.09),
    "A new player against a regular 1500": dict(
        rating=1500, rd=500, volatility=0.09, days_away=0, k=40,
        opponent_rating=1500, opponent_rd=60, opponent_volatility=0.06),
    "Two regulars (RD 60)": dict(
        rating=1500, rd=60, volatility=0.06, days_away=0, k=20,
        opponent_rating=1500, opponent_rd=60, opponent_volatility=0.06),
    "A regular back after a year away": dict(
        rating=1500, rd=60, volatility=0.06, days_away=365, k=20,
        opponent_rating=1500, opponent_rd=60, opponent_volatility=0.06),
    "Settled player (RD 45) against a 1700": dict(
        rating=1500, rd=45, volatility=0.06, days_away=0, k=20,
        opponent_rating=1700, opponent_rd=45, opponent_volatility=0.06),
    "scalachess's test: 1400 (RD 79) against 1550 (RD 110)": dict(
        rating=1400, rd=79, volatility=0.06, days_away=0, k=20,
        opponent_rating=1550, opponent_rd=110, opponent_volatility=0.065),
}


# --------------------------------------------------------------------------- formatting
def _interval(low: float, high: float) -> str:
    return f"{fmt_number(low, 0)} … {fmt_number(high, 0)}"


# --------------------------------------------------------------------------- the model
class EloVsGlicko:
    """The state of the dashboard and everything it shows (no widgets).

    Attributes (set them with :meth:`set`, which validates): ``rating``, ``rd``
    (the RD at the player's last game, 45…500), ``volatility``, ``days_away``
    (days without games before this one: the RD grows as Lichess's
    ``liveDeviation`` does), ``k`` (the player's Elo K: 40, 20 or 10),
    ``opponent_rating``, ``opponent_rd``, ``opponent_volatility``.

    >>> m = EloVsGlicko(**PRESETS["A regular back after a year away"])
    >>> round(m.rd_now, 1), m.display_before
    (110.0, '1500?')
    """

    _BOUNDS = {
        "rating": RATING_RANGE,
        "opponent_rating": RATING_RANGE,
        "rd": (glicko.LICHESS.min_rd, glicko.LICHESS.max_rd),
        "opponent_rd": (glicko.LICHESS.min_rd, glicko.LICHESS.max_rd),
        "volatility": VOLATILITY_RANGE,
        "opponent_volatility": VOLATILITY_RANGE,
        "days_away": (0, DAYS_MAX),
    }

    def __init__(self, **state):
        self.rating = 1500.0
        self.rd = 500.0
        self.volatility = 0.09
        self.days_away = 0
        self.k = 40
        self.opponent_rating = 1500.0
        self.opponent_rd = 500.0
        self.opponent_volatility = 0.09
        self.set(**state)

    def set(self, **state) -> None:
        """Change some of the state; ``ValueError`` naming the field if a value is out of range.

        >>> EloVsGlicko().set(rd=20)
        Traceback (most recent call last):
        ...
        ValueError: rd must be between 45 and 500, got 20.0
        """
        for name, value in state.items():
            if name == "k":
                self.k = V.choice("k", value, elo.K_CHOICES)
            elif name == "days_away":
                self.days_away = V.integer("days_away", value, lo=0, hi=DAYS_MAX)
            elif name in self._BOUNDS:
                lo, hi = self._BOUNDS[name]
                setattr(self, name, V.in_range(name, value, lo, hi))
            else:
                raise TypeError(f"unknown setting {name!r}; allowed: k, {', '.join(self._BOUNDS)}")

    # -- before the game ----------------------------------------------------------------
    @property
    def rd_now(self) -> float:
        """The player's RD at this game: the last RD grown over ``days_away`` idle days."""
        return glicko.lichess_live_rd(self.rd, self.volatility, self.days_away)

    @property
    def provisional(self) -> bool:
        """Whether Lichess shows the rating with "?" (RD ≥ 110) before the game."""
        return glicko.is_provisional(self.rd_now)

    @property
    def display_before(self) -> str:
        """The rating as Lichess shows it before the game, e.g. ``"1500?"``."""
        return glicko.lichess_display(self.rating, self.rd_now)

    @property
    def interval_before(self) -> tuple[float, float]:
        """``rating ± 2·RD`` before the game."""
        return glicko.confidence_interval(self.rating, self.rd_now, Z)

    @property
    def opponent_interval(self) -> tuple[float, float]:
        return glicko.confidence_interval(self.opponent_rating, self.opponent_rd, Z)

    @property
    def elo_expected(self) -> float:
        """Elo's expected score (÷400 formula)."""
        return elo.expected_score(self.rating, self.opponent_rating)

    @property
    def glicko_expected(self) -> float:
        """Glicko's expected score in the update: the opponent's RD flattens the curve."""
        return glicko.expected_score(self.rating, self.opponent_rating, self.opponent_rd)

    # -- after the game -----------------------------------------------------------------
    @property
    def elo_changes(self) -> np.ndarray:
        """Elo changes for win, draw, loss: ``K·(S − E)`` (unrounded)."""
        return np.asarray(elo.rating_change(_SCORES, self.elo_expected, self.k))

    def _lichess(self, rd, scores):
        player = (self.rating, rd, self.volatility)
        opponent = (self.opponent_rating, self.opponent_rd, self.opponent_volatility)
        new, _ = glicko.lichess_game(player, opponent, scores)
        return new

    @property
    def glicko_after(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(rating, rd, volatility)`` after a win, a draw, a loss (Lichess Glicko-2)."""
        r, rd, vol = self._lichess(self.rd_now, _SCORES)
        return np.asarray(r), np.asarray(rd), np.asarray(vol)

    @property
    def glicko_changes(self) -> np.ndarray:
        """Glicko-2 changes for win, draw, loss."""
        return self.glicko_after[0] - self.rating

    def change_curves(self, rd_grid=RD_GRID) -> np.ndarray:
        """Glicko-2 change for win/draw/loss (rows) at every RD of ``rd_grid`` (columns)."""
        rd_grid = np.asarray(rd_grid, dtype=float)
        r, _, _ = self._lichess(rd_grid[None, :], _SCORES[:, None])
        return np.asarray(r) - self.rating

    def intervals_after(self) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` arrays of ``rating ± 2·RD`` after a win, a draw, a loss."""
        r, rd, _ = self.glicko_after
        low, high = glicko.confidence_interval(r, rd, Z)
        return np.asarray(low), np.asarray(high)

    # -- text ---------------------------------------------------------------------------
    TABLE_COLUMNS = ("Result", "Elo change", "Elo new rating", "Glicko-2 change",
                     "Lichess shows", "RD after", "95 % interval after")

    def table_rows(self) -> list[list[str]]:
        """One row per result, as display strings (see :data:`TABLE_COLUMNS`)."""
        r, rd, _ = self.glicko_after
        low, high = self.intervals_after()
        shown = glicko.lichess_display(r, rd)
        rows = []
        for i, (label, _) in enumerate(RESULTS):
            rows.append([
                label,
                fmt_signed(self.elo_changes[i], 1),
                fmt_number(self.rating + self.elo_changes[i], 1),
                fmt_signed(r[i] - self.rating, 1),
                shown[i],
                fmt_number(rd[i], 1),
                _interval(low[i], high[i]),
            ])
        return rows

    def summary_rows(self) -> list[list[str]]:
        """The before-the-game comparison: one row for Elo, one for Glicko-2."""
        low, high = self.interval_before
        grown = fmt_number(self.rd_now, 1)
        if self.days_away:
            grown += f" ({fmt_number(self.rd, 0)} + {self.days_away} idle days)"
        return [
            ["Elo (÷400, FIDE K)", fmt_number(self.rating, 0), "none", "—",
             f"{self.elo_expected:.2f}", f"K {self.k}"],
            ["Glicko-2 (Lichess)", self.display_before, grown, _interval(low, high),
             f"{self.glicko_expected:.2f}",
             "provisional (RD ≥ 110)" if self.provisional else "not provisional (RD < 110)"],
        ]

    SUMMARY_COLUMNS = ("System", "Rating shown", "RD", "95 % interval", "E", "Note")

    @staticmethod
    def paper_rows() -> list[list[str]]:
        """Glickman's worked examples: printed values next to this package's results."""
        r1, rd1 = glicko.glicko1_update(1500, 200, _PAPER_GAMES)
        r2, rd2, vol2 = glicko.glicko2_update(1500, 200, 0.06, _PAPER_GAMES)
        return [
            ["Glicko-1, rating", PAPER_GLICKO1["rating"], f"{r1:.2f}"],
            ["Glicko-1, RD", PAPER_GLICKO1["rd"], f"{rd1:.2f}"],
            ["Glicko-2 (τ 0.5), rating", PAPER_GLICKO2["rating"], f"{r2:.2f}"],
            ["Glicko-2, RD", PAPER_GLICKO2["rd"], f"{rd2:.2f}"],
            ["Glicko-2, volatility", PAPER_GLICKO2["volatility"], f"{vol2:.6f}"],
        ]


# --------------------------------------------------------------------------- the view
_EXPLAIN = """
<style>
.ee-elo-vs-glicko table.ee-table td:first-child { text-align: left; }
.ee-elo-vs-glicko table.ee-table td, .ee-elo-vs-glicko table.ee-table th { white-space: nowrap; }
</style>
<div class="ee-note">
<p><b>Glickman's idea.</b> Elo gives each player one number and moves it by at most K per
game, whether the system has seen 3 or 3000 of your games. Mark Glickman's Glicko adds a
second number, the <i>rating deviation</i> RD: how unsure the system is. A large RD (a new
player, or one back after a break) means each game moves the rating a lot; every game
shrinks the RD, and idle time grows it again. Lichess (Glicko-2, which also tracks a
<i>volatility</i> σ) starts everyone at 1500 with RD 500 and shows the rating with a
<b>?</b> while RD ≥ 110. The interval rating ± 2·RD is where the system believes the true
strength lies (Glickman's "95 % confidence interval").</p>
<p><b>Numbers from different pools do not compare.</b> 1500 on Lichess, 1500 on Chess.com
and 1500 on the FIDE list are three different levels (the FIDE list starts at 1400).
{chess_com}</p>
<p>Lichess settings used: τ 0.75, each game its own rating period without RD growth, RD
kept in 45…500, volatility at most 0.1. Idle days grow RD as Lichess's
<code>liveDeviation</code> does (0.21436 rating periods a day: a typical RD 60 reaches 110
after a year). Glicko-1 grows RD between periods instead by √(RD² + c²t) with a constant c
(63.2 here). Minus signs are shown as −.</p>
</div>
""".replace("{chess_com}", html.escape(CHESS_COM_NOTE))

_COLOURS = ("#1b7837", "#7f7f7f", "#b2182b")  # win, draw, loss


class EloVsGlickoView(PresetMixin):
    """The widgets of dashboard 6, linked to an :class:`EloVsGlicko` model; ``.root`` is shown."""

    def __init__(self, model: EloVsGlicko | None = None):
        import ipywidgets as W

        g = self._preset_view(model or EloVsGlicko(), PRESETS, width="26em")
        m = self.model

        self.rating = NumberField("Your rating", m.rating, lo=RATING_RANGE[0], hi=RATING_RANGE[1],
                                  integer=True, width="15em", on_change=g(self._changed))
        self.rating.add_class("ee-rating")
        slider = dict(continuous_update=True, style={"description_width": "12em"},
                      layout={"width": "34em"})
        self.rd = widget(W.IntSlider, value=int(m.rd), min=45, max=500, step=1,
                         description="Your RD (last game)", css="ee-rd", **slider)
        self.days = widget(W.IntSlider, value=m.days_away, min=0, max=DAYS_MAX, step=1,
                           description="Days without games", css="ee-days", **slider)
        self.volatility = widget(W.FloatSlider, value=m.volatility, min=VOLATILITY_RANGE[0],
                                 max=VOLATILITY_RANGE[1], step=0.005, readout_format=".3f",
                                 description="Your volatility σ", css="ee-volatility", **slider)
        self.k = widget(W.ToggleButtons, options=list(elo.K_CHOICES), value=m.k,
                        description="Elo K", css="ee-k",
                        style={"description_width": "initial", "button_width": "4em"})
        self.opponent_rating = NumberField("Opponent's rating", m.opponent_rating,
                                           lo=RATING_RANGE[0], hi=RATING_RANGE[1], integer=True,
                                           width="17em", on_change=g(self._changed))
        self.opponent_rating.add_class("ee-opponent-rating")
        self.opponent_rd = NumberField("Opponent's RD", m.opponent_rd, lo=45, hi=500,
                                       integer=True, width="17em", on_change=g(self._changed))
        self.opponent_rd.add_class("ee-opponent-rd")

        for control in (self.rd, self.days, self.volatility, self.k):
            control.observe(g(self._changed), names="value")

        self.summary = widget(W.HTML, css="ee-summary")
        self.table = widget(W.HTML, css="ee-results")
        self.paper = widget(W.HTML, table_html(
            ["Glickman's worked example", "printed in the paper", "computed here"],
            m.paper_rows(),
            caption="Check against the papers: 1500 / RD 200 / σ 0.06 beats 1400 (RD 30), "
                    "loses to 1550 (RD 100) and 1700 (RD 300)"), css="ee-paper")

        self._build_figure()
        you = widget(W.VBox, [widget(W.HTML, "<b>You</b>"), self.rating, self.rd, self.days,
                              self.volatility, self.k])
        opp = widget(W.VBox, [widget(W.HTML, "<b>Your opponent</b>"), self.opponent_rating,
                              self.opponent_rd])
        self.root = app_root(
            [self.preset, widget(W.HBox, [you, opp]), self.status, self.summary, self.table,
             self.figure.out, self.paper, widget(W.HTML, _EXPLAIN)],
        )
        self.root.add_class("ee-elo-vs-glicko")
        self.redraw()  # the first draw, with the real data: FigureView lays out then

    # -- figure -------------------------------------------------------------------------
    def _build_figure(self) -> None:
        fv = FigureView(figsize=(10.5, 3.9), height="400px", ncols=2,
                        gridspec_kw={"width_ratios": [1.35, 1]})
        self.figure = fv
        ax, bx = fv.axes
        shade = ax.axvspan(glicko.LICHESS.provisional_rd, glicko.LICHESS.max_rd,
                           color="#fff3c4", zorder=0, label="Lichess shows ? (RD ≥ 110)")
        self.glicko_lines, self.elo_lines, self.dots = [], [], []
        for (label, _), colour in zip(RESULTS, _COLOURS):
            line, = ax.plot(RD_GRID, np.zeros_like(RD_GRID), color=colour, lw=2,
                            label=f"Glicko-2: {label.lower()}")
            flat, = ax.plot([RD_GRID[0], RD_GRID[-1]], [0, 0], color=colour, lw=1.2, ls="--",
                            label=f"Elo: {label.lower()}")
            dot, = ax.plot([0], [0], "o", color=colour, ms=7, clip_on=False, zorder=5)
            self.glicko_lines.append(line)
            self.elo_lines.append(flat)
            self.dots.append(dot)
        ax.axhline(0, color="black", lw=0.6)
        ax.set_xlim(RD_GRID[0], RD_GRID[-1])
        ax.set_xlabel("your RD before the game")
        ax.set_ylabel("rating change")
        ax.set_title("Change for one game: Glicko-2 (solid) vs Elo (dashed)", fontsize=10)
        ax.legend(handles=[*self.glicko_lines, shade, *self.elo_lines], fontsize=7.5, ncol=2,
                  loc="upper left")
        self.rd_text = ax.text(0.99, 0.03, "", transform=ax.transAxes, ha="right", fontsize=8)

        labels = ["You, before", "after a win", "after a draw", "after a loss", "Opponent"]
        self.bars, self.centres = [], []
        colours = ["#2166ac", *_COLOURS, "#762a83"]
        for i, colour in enumerate(colours):
            bar, = bx.plot([0, 0], [i, i], color=colour, lw=6, alpha=0.45, solid_capstyle="butt")
            centre, = bx.plot([0], [i], "|", color=colour, ms=14, mew=2)
            self.bars.append(bar)
            self.centres.append(centre)
        self.elo_marks, = bx.plot([0, 0, 0], [1, 2, 3], "x", color="black", ms=6,
                                  label="Elo's new rating")
        bx.set_yticks(range(len(labels)), labels, fontsize=8.5)
        bx.set_ylim(len(labels) - 0.5, -0.5)
        bx.set_xlabel("rating")
        bx.set_title("rating ± 2·RD (the \"95 % interval\")", fontsize=10)
        bx.legend(fontsize=7.5, loc="lower right")
        # drawn on a saved background (FigureView.dynamic); the limits change rarely
        fv.dynamic(*self.glicko_lines, *self.elo_lines, *self.dots, self.rd_text, *self.bars,
                   *self.centres, self.elo_marks)

    def redraw(self) -> None:
        m = self.model
        cols = m.SUMMARY_COLUMNS
        self.summary.value = table_html(
            cols, m.summary_rows(),
            caption="Before the game (E: expected points per game, not a win chance)")
        self.table.value = table_html(
            m.TABLE_COLUMNS, m.table_rows(),
            caption=f"After the game (Elo: K {m.k}, ÷400; Glicko-2: Lichess settings)")

        curves = m.change_curves()
        elo_changes = m.elo_changes
        now = m.rd_now
        glicko_changes = m.glicko_changes
        for i in range(len(RESULTS)):
            self.glicko_lines[i].set_ydata(curves[i])
            self.elo_lines[i].set_ydata([elo_changes[i], elo_changes[i]])
            self.dots[i].set_data([now], [glicko_changes[i]])
        ax, bx = self.figure.axes
        span = max(np.abs(curves).max(), np.abs(elo_changes).max(), 5.0) * 1.12
        update_limits(ax, y=steady_limits(ax.get_ylim(), -span, span, margin=0))
        self.rd_text.set_text(f"your RD now: {now:.0f}")

        low_b, high_b = m.interval_before
        low_a, high_a = m.intervals_after()
        r_after = m.glicko_after[0]
        o_low, o_high = m.opponent_interval
        lows = [low_b, *low_a, o_low]
        highs = [high_b, *high_a, o_high]
        centres = [m.rating, *r_after, m.opponent_rating]
        for i, (lo, hi, c) in enumerate(zip(lows, highs, centres)):
            self.bars[i].set_xdata([lo, hi])
            self.centres[i].set_xdata([c])
        self.elo_marks.set_xdata(m.rating + elo_changes)
        update_limits(bx, x=steady_limits(bx.get_xlim(), min(lows), max(highs), margin=0.05))
        self.figure.refresh()

    # -- callbacks ----------------------------------------------------------------------
    def _read(self) -> None:
        self.model.set(rating=self.rating.value, rd=self.rd.value, days_away=self.days.value,
                       volatility=self.volatility.value, k=self.k.value,
                       opponent_rating=self.opponent_rating.value,
                       opponent_rd=self.opponent_rd.value)

    def _show_preset(self, name: str) -> None:
        state = PRESETS[name]
        self.rating.set(state["rating"])
        self.rd.value = int(state["rd"])
        self.days.value = int(state["days_away"])
        self.volatility.value = state["volatility"]
        self.k.value = state["k"]
        self.opponent_rating.set(state["opponent_rating"])
        self.opponent_rd.set(state["opponent_rd"])
        self.model.set(opponent_volatility=state["opponent_volatility"])  # no widget for it


def elo_vs_glicko():
    """Build dashboard 6 and return its root widget (the notebook's last cell)."""
    return EloVsGlickoView().root
