"""Dashboard 6, "Elo vs Glicko": one game under Elo (÷400, the player's K) and Lichess Glicko-2.

:class:`EloVsGlickoModel` takes every number from :mod:`elo_explain.elo` and
:mod:`elo_explain.glicko`: the RD at the game (grown over idle days), the provisional "?",
the interval rating ± 2·RD, the changes for a win, a draw and a loss, the Glicko-2 change
across RD, and Glickman's worked examples (the notebook's tables and sentences, declared:
they follow the view); :class:`EloVsGlickoView` shows them with a plot of the change
against RD and of the intervals.

>>> m = EloVsGlickoModel()                 # two new Lichess players (lila's own test)
>>> m.display_before, m.provisional
('1500?', True)
>>> m.after_table().column("Lichess shows")
('1741?', '1500?', '1258?')
>>> m.apply({"rd": 45, "opponent_rd": 45, "k": 20}); m.elo_changes.tolist(), m.provisional
([10.0, 0.0, -10.0], False)
"""

from __future__ import annotations

import html
from functools import partial

import ipywidgets as widgets
import numpy as np

from elo_explain import elo, glicko
from elo_explain.formats import fmt_number, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, ngettext
from elo_explain.interactive.figures import (
    CARD,
    FigureView,
    place_text,
    steady_limits,
    update_limits,
)
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Choice, Number, Whole
from elo_explain.interactive.view import DashboardView
from elo_explain.tables import Sentence, Table

__all__ = [
    "RESULTS",
    "RD_GRID",
    "PAPER_GLICKO1",
    "PAPER_GLICKO2",
    "PRESETS",
    "EloVsGlickoModel",
    "EloVsGlickoView",
]

#: The three results of a game, from the player's side: (label, score).
RESULTS = ((N_("Win"), 1.0), (N_("Draw"), 0.5), (N_("Loss"), 0.0))
_SCORES = np.array([s for _, s in RESULTS])
_RD = (int(glicko.LICHESS.min_rd), int(glicko.LICHESS.max_rd))  # Lichess keeps RD in 45…500
#: RD values of the change-vs-RD plot.
RD_GRID = np.arange(_RD[0], _RD[1] + 0.5, 5.0)
_VOLATILITY = (0.02, glicko.LICHESS.max_volatility)
Z = 2.0  # Glickman's "95 %" interval: rating ± 2·RD

#: Glickman's worked examples as printed: "The Glicko system" and "Example of the Glicko-2
#: system" (1500 / RD 200 / σ 0.06, τ 0.5, beats 1400/30, loses to 1550/100 and 1700/300).
PAPER_GLICKO1 = {"rating": "1464", "rd": "151.4"}
PAPER_GLICKO2 = {"rating": "1464.06", "rd": "151.52", "volatility": "0.05999"}
_PAPER_GAMES = ((1400, 30, 1), (1550, 100, 0), (1700, 300, 0))

_PARAMS = (
    "rating",
    "rd",
    "volatility",
    "days_away",
    "k",
    "opponent",
    "opponent_rd",
    "opponent_volatility",
)
#: Examples: name → trait values, in the order of ``_PARAMS``.
PRESETS: dict[str, dict] = {
    name: dict(zip(_PARAMS, values))
    for name, values in {
        N_("Two new Lichess players (lila's own test)"): (1500, 500, 0.09, 0, 40, 1500, 500, 0.09),
        N_("A new player against a regular 1500"): (1500, 500, 0.09, 0, 40, 1500, 60, 0.06),
        N_("Two regulars (RD 60)"): (1500, 60, 0.06, 0, 20, 1500, 60, 0.06),
        N_("A regular back after a year away"): (1500, 60, 0.06, 365, 20, 1500, 60, 0.06),
        N_("Settled player (RD 45) against a 1700"): (1500, 45, 0.06, 0, 20, 1700, 45, 0.06),
        N_("scalachess's test: 1400 (RD 79) against 1550 (RD 110)"): (
            1400,
            79,
            0.06,
            0,
            20,
            1550,
            110,
            0.065,
        ),
    }.items()
}


def _interval(low: float, high: float) -> str:
    return f"{fmt_number(low, 0)} … {fmt_number(high, 0)}"


def _printed(text: str) -> str:
    """A number printed in a paper (``"151.4"``), in the page's language (``"151,4"``)."""
    return fmt_number(float(text), len(text.partition(".")[2]))


def _plain_html(text: str) -> str:
    """A translated sentence as HTML text (its fields are filled with markup after)."""
    return html.escape(text, quote=False)


_one = partial(fmt_number, places=1)
#: What the RD at the game comes from.
_NOW = ("rd", "volatility", "days_away")
#: The opponent, as Glicko-2 sees them.
_OPP = ("opponent", "opponent_rd", "opponent_volatility")


class EloVsGlickoModel(DashboardModel):
    """One game of a player (``rating``, ``rd`` at the last game, ``volatility``,
    ``days_away`` without games since, Elo ``k``) against an ``opponent``."""

    params, presets = _PARAMS, PRESETS
    rating = Whole(1500, 400, 3200, label=N_("Your rating"))
    rd = Whole(500, *_RD, label=N_("Your RD (last game)"))
    volatility = Number(0.09, *_VOLATILITY, label=N_("Your volatility σ"))
    days_away = Whole(0, 0, 1095, label=N_("Days without games"))
    k = Choice(40, elo.K_CHOICES, label=N_("Elo K"))
    opponent = Whole(1500, 400, 3200, label=N_("Opponent's rating"))
    opponent_rd = Whole(500, *_RD, label=N_("Opponent's RD"))
    opponent_volatility = Number(0.09, *_VOLATILITY, label=N_("Opponent's volatility σ"))

    # before the game
    @property
    @depends(*_NOW)
    def rd_now(self) -> float:
        """The RD at this game: the last RD grown over ``days_away`` (Lichess's liveDeviation)."""
        return glicko.lichess_live_rd(self.rd, self.volatility, self.days_away)

    @property
    def provisional(self) -> bool:
        return glicko.is_provisional(self.rd_now)

    @property
    def display_before(self) -> str:
        return glicko.lichess_display(self.rating, self.rd_now)

    @property
    def interval_before(self) -> tuple[float, float]:
        return glicko.confidence_interval(self.rating, self.rd_now, Z)

    @property
    def elo_expected(self) -> float:
        return elo.expected_score(self.rating, self.opponent)

    # after the game (win, draw, loss)
    @property
    @depends("rating", "opponent", "k")
    def elo_changes(self) -> np.ndarray:
        """``K·(S − E)`` for a win, a draw and a loss (unrounded)."""
        return np.asarray(elo.rating_change(_SCORES, self.elo_expected, self.k))

    def _lichess(self, rd, scores):
        new, _old = glicko.lichess_game(
            (self.rating, rd, self.volatility),
            (self.opponent, self.opponent_rd, self.opponent_volatility),
            scores,
        )
        return tuple(np.asarray(x) for x in new)

    @property
    @depends("rating", *_NOW, *_OPP)
    def glicko_after(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(rating, rd, volatility)`` after a win, a draw, a loss."""
        return self._lichess(self.rd_now, _SCORES)

    @depends("rating", "volatility", *_OPP)
    def change_curves(self, rd_grid=RD_GRID) -> np.ndarray:
        """Glicko-2 change for win/draw/loss (rows) at each RD of ``rd_grid`` (columns)."""
        grid = np.asarray(rd_grid, dtype=float)
        return self._lichess(grid[None, :], _SCORES[:, None])[0] - self.rating

    def intervals_after(self) -> tuple[np.ndarray, np.ndarray]:
        r, rd, _vol = self.glicko_after
        return tuple(np.asarray(x) for x in glicko.confidence_interval(r, rd, Z))

    # tables and sentences
    @depends("rating", *_NOW, "k", "opponent", "opponent_rd")
    def before_table(self) -> Table:
        grown = _one(self.rd_now)
        if self.days_away:
            grown = ngettext(
                "{rd} ({last} + {days} idle day)",
                "{rd} ({last} + {days} idle days)",
                self.days_away,
            ).format(rd=grown, last=fmt_plain(self.rd), days=fmt_plain(self.days_away))
        note = _("provisional (RD ≥ 110)") if self.provisional else _("not provisional (RD < 110)")
        return Table(
            (_("System"), _("Rating shown"), "RD", _("95 % interval"), "E", _("Note")),
            [
                (
                    _("Elo (÷400, FIDE K)"),
                    fmt_plain(self.rating),
                    _("none"),
                    "—",
                    self.elo_expected,
                    f"K {self.k}",
                ),
                (
                    _("Glicko-2 (Lichess)"),
                    self.display_before,
                    grown,
                    _interval(*self.interval_before),
                    glicko.expected_score(self.rating, self.opponent, self.opponent_rd),
                    note,
                ),
            ],
            _("Before the game (E: expected points per game, not a win chance)"),
            (None, None, None, None, "{:.2f}", None),
        )

    @depends(*_PARAMS)
    def after_table(self) -> Table:
        r, rd, _vol = self.glicko_after
        low, high = self.intervals_after()
        shown = glicko.lichess_display(r, rd)
        rows = [
            (
                _(label),
                e,
                self.rating + e,
                r[i] - self.rating,
                shown[i],
                rd[i],
                _interval(low[i], high[i]),
            )
            for i, ((label, _score), e) in enumerate(zip(RESULTS, self.elo_changes))
        ]
        return Table(
            (
                _("Result"),
                _("Elo change"),
                _("Elo new rating"),
                _("Glicko-2 change"),
                _("Lichess shows"),
                _("RD after"),
                _("95 % interval after"),
            ),
            rows,
            _("After the game (Elo: K {k}, ÷400; Glicko-2: Lichess settings)").format(
                k=fmt_plain(self.k)
            ),
            (None, fmt_signed, _one, fmt_signed, None, _one, None),
        )

    @depends("rating", "volatility", "k", *_OPP)
    def rd_table(self, rds=(45, 60, 100, 110, 200, 350, 500)) -> Table:
        """The same game at several RDs: what Lichess shows before it, and the changes."""
        grid = np.asarray(rds, dtype=float)
        curves = self.change_curves(grid)
        low, high = glicko.confidence_interval(self.rating, grid, Z)
        shown = glicko.lichess_display(self.rating, grid)
        elo_w, elo_d, elo_l = self.elo_changes
        rows = [
            (rd, shown[i], _interval(low[i], high[i]), *curves[:, i], elo_w, elo_d, elo_l)
            for i, rd in enumerate(rds)
        ]
        return Table(
            (
                _("Your RD"),
                _("Lichess shows"),
                "± 2·RD",
                _("Glicko-2 win"),
                _("Glicko-2 draw"),
                _("Glicko-2 loss"),
                _("Elo win"),
                _("Elo draw"),
                _("Elo loss"),
            ),
            rows,
            _(
                "{rating} against {opponent} (RD {opponent_rd}) as your RD grows; "
                "Elo K {k} knows no RD"
            ).format(
                rating=fmt_plain(self.rating),
                opponent=fmt_plain(self.opponent),
                opponent_rd=fmt_plain(self.opponent_rd),
                k=fmt_plain(self.k),
            ),
            (None, None, None, *[fmt_signed] * 6),
        )

    @depends(*_NOW)
    def rd_growth(self) -> Sentence:
        """The RD after days without games: Lichess's own figure (fixed), then yours.

        >>> print(EloVsGlickoModel(rd=60, volatility=0.06, days_away=365).rd_growth())
        Lichess's figure: a regular's RD 60 (σ 0.06) grows to 110.0 in a year away (fixed).
        Yours: RD 60 after 365 days without games is 110.0 at this game.
        """
        year = glicko.lichess_live_rd(60, 0.06, 365)
        return Sentence(
            _(
                "Lichess's figure: a regular's RD {rd} (σ {volatility}) grows to {grown} in a year "
                "away (fixed)."
            ).format(rd=fmt_plain(60), volatility=fmt_plain(0.06), grown=_one(year))
            + "\n"
            + ngettext(
                "Yours: RD {rd} after {days} day without games is {now} at this game.",
                "Yours: RD {rd} after {days} days without games is {now} at this game.",
                self.days_away,
            ).format(rd=fmt_plain(self.rd), days=fmt_plain(self.days_away), now=_one(self.rd_now)),
            self.rd_now,
        )

    @depends("rating", *_NOW)
    def intervals(self) -> Sentence:
        """Rating ± 2·RD: Glickman's example in both papers (fixed), then yours.

        >>> print(EloVsGlickoModel(rd=60).intervals())
        Glickman's example (fixed): 1850 ± 2 × 50 is 1750 to 1950.
        Yours: 1500 ± 2 × 60.0 is 1380 to 1620.
        """
        low, high = glicko.confidence_interval(1850, 50)
        mine = glicko.confidence_interval(self.rating, self.rd_now)
        return Sentence(
            _("Glickman's example (fixed): {rating} ± 2 × {rd} is {low} to {high}.").format(
                rating=fmt_plain(1850),
                rd=fmt_plain(50),
                low=fmt_number(low, 0),
                high=fmt_number(high, 0),
            )
            + "\n"
            + _("Yours: {rating} ± 2 × {rd} is {low} to {high}.").format(
                rating=fmt_plain(self.rating),
                rd=_one(self.rd_now),
                low=fmt_number(mine[0], 0),
                high=fmt_number(mine[1], 0),
            ),
            mine,
        )

    @staticmethod
    def paper_table() -> Table:
        """Glickman's worked examples: the printed values beside this package's results."""
        r1, rd1 = glicko.glicko1_update(1500, 200, _PAPER_GAMES)
        r2, rd2, vol2 = glicko.glicko2_update(1500, 200, 0.06, _PAPER_GAMES)
        printed = {
            k: _printed(v)
            for k, v in {**PAPER_GLICKO1, **{f"2{k}": v for k, v in PAPER_GLICKO2.items()}}.items()
        }
        return Table(
            (
                _("Glickman's worked example"),
                _("printed in the paper"),
                _("computed here"),
                _("Note"),
            ),
            [
                (
                    _("Glicko-1, rating"),
                    printed["rating"],
                    fmt_number(r1, 2),
                    _("printed to the unit"),
                ),
                (_("Glicko-1, RD"), printed["rd"], fmt_number(rd1, 2), _("printed to 0.1")),
                (
                    _("Glicko-2 (τ 0.5), rating"),
                    printed["2rating"],
                    fmt_number(r2, 2),
                    _("printed from the rounded μ′ −0.2069: 173.7178 × (−0.2069) + 1500 = 1464.06"),
                ),
                (_("Glicko-2, RD"), printed["2rd"], fmt_number(rd2, 2), _("the same to 0.01")),
                (
                    _("Glicko-2, volatility"),
                    printed["2volatility"],
                    fmt_number(vol2, 6),
                    _(
                        "from the paper's rounded steps (v 1.7785, Δ −0.4834); unrounded it prints "
                        "0.06000"
                    ),
                ),
            ],
            _(
                "Check against the papers (fixed): 1500 / RD 200 / σ 0.06 beats 1400 (RD 30), "
                "loses to 1550 (RD 100) and 1700 (RD 300)"
            ),
        )


_COLOURS = ("#1b7837", "#7f7f7f", "#b2182b")  # win, draw, loss


def _slashed(values) -> str:
    return " / ".join(values)


class EloVsGlickoView(DashboardView):
    """The controls, a two-line live summary and the two plots of an :class:`EloVsGlickoModel`
    (the tables are the notebook's cells above)."""

    docked = ("rating", "rd", "days_away", "k", "opponent")
    key_target = "ee-results"

    def key_result(self) -> str:
        """A win, a draw and a loss under Elo and Glicko-2."""
        m = self.model
        r_after, _rd, _vol = m.glicko_after
        return _("Win / draw / loss: Elo {elo}; Glicko-2 {glicko}").format(
            elo=_slashed(map(fmt_signed, m.elo_changes)),
            glicko=_slashed(fmt_signed(r - m.rating) for r in r_after),
        )

    def build(self) -> list:
        you = widgets.VBox(
            [
                widgets.HTML("<b>" + html.escape(_("You")) + "</b>"),
                self.number("rating", width="15em"),
                self.slider("rd"),
                self.slider("days_away"),
                self.slider("volatility", step=0.005),
                self.toggles("k", list(elo.K_CHOICES)),
            ]
        )
        opponent = widgets.VBox(
            [
                widgets.HTML("<b>" + html.escape(_("Your opponent")) + "</b>"),
                self.number("opponent", width="17em"),
                self.number("opponent_rd", width="17em"),
            ]
        )
        self.summary, self.results = html_box("ee-summary"), html_box("ee-results")
        self._figure()
        return [
            self.preset_menu(),
            widgets.HBox([you, opponent]),
            self.summary,
            self.results,
            self.figure.out,
        ]

    def _figure(self) -> None:
        fv = self.figure = FigureView(
            figsize=(10.5, 3.9),
            height="400px",
            ncols=2,
            gridspec_kw={"width_ratios": [1.35, 1]},
            margins=dict(left=0.07, right=0.985, bottom=0.13, top=0.92, wspace=0.3),
        )
        ax, bx = fv.axes
        shade = ax.axvspan(
            glicko.LICHESS.provisional_rd,
            _RD[1],
            color="#fff3c4",
            zorder=0,
            label=_("Lichess shows ? (RD ≥ 110)"),
        )
        self.lines, self.flat, self.dots = [], [], []
        for (label, _score), colour in zip(RESULTS, _COLOURS):
            result = _(label).lower()
            self.lines += ax.plot(
                RD_GRID,
                0 * RD_GRID,
                color=colour,
                lw=2,
                label=_("Glicko-2: {result}").format(result=result),
            )
            self.flat += ax.plot(
                RD_GRID[[0, -1]],
                [0, 0],
                color=colour,
                lw=1.2,
                ls="--",
                label=_("Elo: {result}").format(result=result),
            )
            self.dots += ax.plot([0], [0], "o", color=colour, ms=7, clip_on=False, zorder=5)
        ax.axhline(0, color="black", lw=0.6)
        ax.set(
            xlim=RD_GRID[[0, -1]], xlabel=_("your RD before the game"), ylabel=_("rating change")
        )
        ax.set_title(_("Change for one game: Glicko-2 (solid) vs Elo (dashed)"), fontsize=10)
        ax.legend(handles=[*self.lines, shade, *self.flat], fontsize=7.5, ncol=2, loc="upper left")
        self.rd_text = ax.text(
            0.99, 0.03, "", transform=ax.transAxes, ha="right", fontsize=8, bbox=CARD
        )  # over the curves
        labels = [
            _("You, before"),
            _("after a win"),
            _("after a draw"),
            _("after a loss"),
            _("Opponent"),
        ]
        self.bars, self.centres = [], []
        for i, colour in enumerate(["#2166ac", *_COLOURS, "#762a83"]):
            self.bars += bx.plot(
                [0, 0], [i, i], color=colour, lw=6, alpha=0.45, solid_capstyle="butt"
            )
            self.centres += bx.plot([0], [i], "|", color=colour, ms=14, mew=2)
        (self.elo_marks,) = bx.plot(
            [0, 0, 0], [1, 2, 3], "x", color="black", ms=6, label=_("Elo's new rating")
        )
        bx.set_yticks(range(5), labels, fontsize=8.5)
        bx.set(ylim=(4.5, -0.5), xlabel=_("rating"))
        bx.set_title(_('rating ± 2·RD (the "95 % interval")'), fontsize=10)
        bx.legend(fontsize=7.5, loc="lower right")
        fv.dynamic(
            *self.lines,
            *self.flat,
            *self.dots,
            self.rd_text,
            *self.bars,
            *self.centres,
            self.elo_marks,
        )  # blitted on a saved background
        fv.layout_hooks.append(self._place_rd_text)

    def _place_rd_text(self) -> None:
        """The RD note in a lower corner, or higher on the right, where no point of the
        current RD lies under it (a point at the lowest change covered its "500")."""
        place_text(
            self.rd_text,
            [
                (0.99, 0.03, "right"),
                (0.01, 0.03, "left"),
                (0.99, 0.2, "right"),
                (0.99, 0.5, "right"),
            ],
            avoid=self.dots,
        )

    @depends(*_PARAMS)
    def show_numbers(self) -> None:
        """The two summary lines: before the game, and after a win, a draw and a loss."""
        m = self.model
        elo_changes, now = m.elo_changes, m.rd_now
        r_after, rd_after, _vol = m.glicko_after
        g_expected = glicko.expected_score(m.rating, m.opponent, m.opponent_rd)
        self.summary.value = _plain_html(
            _(
                "Before the game: Elo {elo} (E {elo_expected}); Glicko-2 {glicko}, RD {rd}, "
                "interval {interval} (E {glicko_expected})"
            )
        ).format(
            elo=f"<b>{fmt_plain(m.rating)}</b>",
            elo_expected=fmt_number(m.elo_expected),
            glicko=f"<b>{m.display_before}</b>",
            rd=_one(now),
            interval=_interval(*m.interval_before),
            glicko_expected=fmt_number(g_expected),
        )
        self.results.value = _plain_html(
            _(
                "After a win / draw / loss: Elo {elo}; Glicko-2 {glicko}, Lichess shows {shown}, "
                "RD after {rd}"
            )
        ).format(
            elo=_slashed(map(fmt_signed, elo_changes)),
            glicko=_slashed(fmt_signed(r - m.rating) for r in r_after),
            shown=f"<b>{_slashed(glicko.lichess_display(r_after, rd_after))}</b>",
            rd=_slashed(dict.fromkeys(map(_one, rd_after))),
        )

    @depends(*_PARAMS)
    def draw(self) -> None:
        m = self.model
        curves, elo_changes, now = m.change_curves(), m.elo_changes, m.rd_now
        r_after, rd_after, _vol = m.glicko_after
        for i in range(len(RESULTS)):
            self.lines[i].set_ydata(curves[i])
            self.flat[i].set_ydata([elo_changes[i]] * 2)
            self.dots[i].set_data([now], [r_after[i] - m.rating])
        ax, bx = self.figure.axes
        span = max(np.abs(curves).max(), np.abs(elo_changes).max(), 5.0) * 1.12
        update_limits(ax, y=steady_limits(ax.get_ylim(), -span, span, margin=0))
        self.rd_text.set_text(_("your RD now: {rd}").format(rd=fmt_number(now, 0)))
        low_a, high_a = m.intervals_after()
        o_low, o_high = glicko.confidence_interval(m.opponent, m.opponent_rd, Z)
        lows = [m.interval_before[0], *low_a, o_low]
        highs = [m.interval_before[1], *high_a, o_high]
        for bar, centre, lo, hi, c in zip(
            self.bars, self.centres, lows, highs, [m.rating, *r_after, m.opponent]
        ):
            bar.set_xdata([lo, hi])
            centre.set_xdata([c])
        self.elo_marks.set_xdata(m.rating + elo_changes)
        update_limits(bx, x=steady_limits(bx.get_xlim(), min(lows), max(highs), margin=0.05))
        self.figure.refresh()
