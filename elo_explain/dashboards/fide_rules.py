"""Dashboard 2, "FIDE rules": the K decision, the 700 rule, the 400-point rule, table vs formula.

:class:`FideRulesModel` holds the state and returns the decisions of :mod:`elo_explain.fide`
(:func:`~elo_explain.fide.k_factor_rule`, :func:`~elo_explain.fide.rule_700`,
:func:`~elo_explain.fide.cap_decision`) and tables (declared: the notebook's tables follow
the view); :class:`FideRulesView` shows them, each section redrawn when its own settings change.

>>> m = FideRulesModel()
>>> m.k_decision().k, [r.k_used for r in m.rules_700()], m.table_and_formula()
(20, [35, 20, 10], (0.92, 0.91))
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np
import traitlets

from elo_explain import elo, fide
from elo_explain.dashboards.base import (Choice, DashboardModel, DashboardView, Whole, depends,
                                         html_box)
from elo_explain.dashboards.chess import (CSS, PERIOD_OPTIONS, expected_axes, k_rules_table,
                                          period_trait)
from elo_explain.tables import Table
from elo_explain.ui import (FigureView, fmt_number, fmt_signed, round_half_away, update_limits,
                            update_title)

__all__ = ["FideRulesModel", "FideRulesView", "DOC_700_CASES"]

#: The 700 rule's cases printed by the Telugu document, plus two "exactly 700" cases.
DOC_700_CASES = (
    ("Junior, K 40, 20 games in a month (Telugu document)", 40, 20),
    ("Adult, K 20, 40 games (Telugu document)", 20, 40),
    ("K 20, 35 games: exactly 700, not reduced", 20, 35),
    ("K 10, 70 games: exactly 700, not reduced", 10, 70),
)
#: Differences in the table-vs-formula table (400 is the documents' point).
COMPARE_DIFFERENCES = (0, 100, 200, 300, 400, 500, 600, 736)
METHODS = {"FIDE table 8.1.2": "table", "÷400 formula": "formula"}


class FideRulesModel(DashboardModel):
    """The FIDE rules: a player's K, the 700 rule, one game under the 400-point rule, table vs formula.

    >>> a, b = FideRulesModel().sides()
    >>> a["decision"].used, b["decision"].used, fmt_number(a["e"]), fmt_number(b["e"])
    (500.0, -400.0, '0.96', '0.08')
    """

    params = ("rating", "rated_games", "birth_year", "reached_2400", "on", "games",
              "rating_a", "rating_b", "k", "method", "difference")
    presets = {
        "New player, 12 games (K 40)": {"rating": 1800, "rated_games": 12},
        "Junior born 2008, 2100 (K 40)": {"rating": 2100, "rated_games": 80, "birth_year": 2008,
                                          "reached_2400": False},
        "Reached 2400, now 2350 (K 10)": {"rating": 2350, "rated_games": 300,
                                          "reached_2400": True},
        "2700 vs 2200 since October 2025": {"rating_a": 2700, "rating_b": 2200,
                                            "on": "2025-10-01"},
    }
    GAMES_MAX, DIFF_MAX = 80, 800

    rating = Whole(1800, 1000, 3000, label="Published rating")
    rated_games = Whole(80, 0, 1000, label="Rated games")
    birth_year = Whole(1995, 1900, 2025, label="Birth year")
    reached_2400 = traitlets.Bool(False)
    on = period_trait()
    games = Whole(20, 1, GAMES_MAX, label="Games in the period")
    rating_a = Whole(2700, 1000, 3000, label="Player A")
    rating_b = Whole(2200, 1000, 3000, label="Player B")
    k = Choice(20, [40, 20, 10], label="K")
    method = traitlets.Enum(list(METHODS.values()), default_value="table")
    difference = Whole(400, 0, DIFF_MAX, label="Difference D")

    # K and the 700 rule
    @depends("rating", "rated_games", "on", "birth_year", "reached_2400")
    def k_decision(self) -> fide.KFactor:
        return fide.k_factor_rule(self.rating, rated_games=self.rated_games, on=self.on,
                                  birth_year=self.birth_year, reached_2400=self.reached_2400)

    @depends(k_decision)
    def k_rules(self) -> Table:
        """Rule 8.3.3 tried from the top, the rule that applies marked, the decision as
        the caption (:func:`~elo_explain.dashboards.chess.k_rules_table`)."""
        return k_rules_table(self.k_decision())

    @depends("games")
    def rules_700(self) -> list[fide.Rule700]:
        """The 700 rule for K 40, 20 and 10 with this period's games."""
        return [fide.rule_700(k, self.games) for k in elo.K_CHOICES]

    @depends("games")
    def table_700(self) -> Table:
        """The documents' cases (fixed), then the reader's (K 40, 20, 10 with ``games``),
        each with what the rule does."""
        cases = [(label, fide.rule_700(k, g)) for label, k, g in DOC_700_CASES]
        cases += [(f"Your period: K {r.k}, {r.games} games", r) for r in self.rules_700()]
        return Table(("Case", "K", "Games", "K × games", "K for the period", "What the rule does"),
                     [(label, r.k, r.games, r.k * r.games, r.k_used, r.text)
                      for label, r in cases],
                     "The 700 rule: the documents' cases, then your period's games")

    def staircase(self):
        """Games 1..GAMES_MAX and, for K 40, 20, 10, the K after the 700 rule."""
        g = np.arange(1, self.GAMES_MAX + 1)
        return g, {k: fide.k_with_700_rule(k, g) for k in elo.K_CHOICES}

    # the 400-point rule
    @depends("rating_a", "rating_b", "k", "on", "method")
    def sides(self) -> list[dict]:
        """Both players of one game: the cap decision, E used and without the cap, changes."""
        out = []
        for own, opp in ((self.rating_a, self.rating_b), (self.rating_b, self.rating_a)):
            def rate(score, cap=True):
                return fide.rate_period(own, [(opp, score)], k=self.k, on=self.on,
                                        use_table=self.method == "table", cap_400=cap)
            out.append({"rating": own, "decision": fide.cap_decision(own, opp, on=self.on),
                        "e": float(rate(1).expected[0]),
                        "e_real": float(rate(1, cap=False).expected[0]),
                        "changes": tuple(rate(s).change for s in (1, 0.5, 0))})
        return out

    @depends(sides)
    def cap_table(self) -> Table:
        a, b = self.sides()
        rows = [("Rating", a["rating"], b["rating"]),
                ("Real difference (own − opponent)",
                 *(fmt_signed(s["decision"].difference, 0) for s in (a, b))),
                ("Difference used", *(fmt_signed(s["decision"].used, 0) for s in (a, b))),
                ("Why", a["decision"].reason, b["decision"].reason),
                ("E without the cap", fmt_number(a["e_real"]), fmt_number(b["e_real"])),
                ("E used", fmt_number(a["e"]), fmt_number(b["e"]))]
        rows += [(f"Change for a {label}, K {self.k}", fmt_signed(a["changes"][i]),
                  fmt_signed(b["changes"][i])) for i, label in enumerate(("win", "draw", "loss"))]
        method = {v: k for k, v in METHODS.items()}[self.method]
        return Table(("", f"Player A ({a['rating']})", f"Player B ({b['rating']})"), rows,
                     f"One game, both sides ({method})")

    # table vs formula
    @depends("difference")
    def table_and_formula(self, difference=None) -> tuple[float, float]:
        """(FIDE table PD, ÷400 formula E to two decimals) for ``difference``."""
        d = self.difference if difference is None else difference
        return (float(fide.table_expected_score(d)),
                round_half_away(elo.expected_score(d, 0), 2))

    @staticmethod
    def compare_table() -> Table:
        """Table 8.1.2 against the formula at fixed differences (400: 0.92 vs 0.91)."""
        rows = [(d, float(fide.table_expected_score(d)),
                 round_half_away(elo.expected_score(d, 0), 2)) for d in COMPARE_DIFFERENCES]
        rows = [(d, t, f, round_half_away(100 * (t - f))) for d, t, f in rows]
        return Table(("Difference", "FIDE table", "÷400 formula", "Table − formula (0.01)"), rows,
                     "Higher-rated player's expected score at fixed differences (the "
                     "documents' 400 among them; the last section below takes any difference)",
                     (None, fmt_number, fmt_number, lambda x: fmt_signed(x, 0)))

    def curves(self):
        """Differences 0..DIFF_MAX, table PD and formula E."""
        x = np.arange(0, self.DIFF_MAX + 1)
        return x, fide.table_expected_score(x), elo.expected_score(x, 0)


def _heading(title: str) -> widgets.HTML:
    return widgets.HTML(f"<h3>{html.escape(title)}</h3>")


def _row(*children) -> widgets.HBox:
    box = widgets.HBox(list(children), layout={"align_items": "flex-start"})
    box.add_class("ee-row")
    return box


class FideRulesView(DashboardView):
    """The FIDE rules page: four sections, each its controls, a live summary and a figure
    (the tables are the notebook's cells above)."""

    def build(self):
        self.k_out = html_box("ee-k-out", width="620px")
        self.out_700 = html_box("", width="460px")
        self.out_cap = html_box("", width="520px")
        self.out_cmp = html_box("")
        self.fig_700 = FigureView(figsize=(5.6, 3.3), height="340px", width="560px",
                                  margins=dict(left=0.09, right=0.96, bottom=0.14, top=0.92))
        self.fig_cap = FigureView(figsize=(5.6, 3.4), height="350px", width="560px",
                                  margins=dict(left=0.11, right=0.96, bottom=0.14, top=0.92))
        self.fig_cmp = FigureView(figsize=(6.6, 3.1), height="320px", width="660px", ncols=2,
                                  margins=dict(left=0.1, right=0.98, bottom=0.15, top=0.91,
                                               wspace=0.3))
        for fig, css in ((self.fig_700, "ee-plot-700"), (self.fig_cap, "ee-plot-cap"),
                         (self.fig_cmp, "ee-plot-cmp")):
            fig.out.add_class(css)
        self._build_700()
        self._build_cap()
        self._build_cmp()
        k_box = widgets.VBox([self.number("rating", width="16em"),
                              self.slider("rated_games", width="300px", label_width="7em"),
                              self.number("birth_year"),
                              self.checkbox("reached_2400", label="Published rating has reached 2400")],
                             layout={"width": "430px"})
        return [
            widgets.HTML(CSS),
            _row(self.preset_menu(), self.dropdown("on", PERIOD_OPTIONS, label="Rules of",
                                                   width="18em")),
            _heading("1. Which K applies"),
            _row(k_box, self.k_out),
            _heading("2. The 700 rule"),
            self.slider("games", width="480px"),
            _row(self.fig_700.out, self.out_700),
            _heading("3. The 400-point rule"),
            _row(widgets.VBox([self.number("rating_a"), self.number("rating_b")]),
                 widgets.VBox([self.toggles("method", list(METHODS.items()), label=""),
                               self.toggles("k", [("K 40", 40), ("K 20", 20), ("K 10", 10)],
                                            label="")])),
            _row(self.fig_cap.out, self.out_cap),
            _heading("4. FIDE's table vs the ÷400 formula"),
            self.slider("difference", width="480px"),
            self.out_cmp,
            self.fig_cmp.out,
        ]

    # figures, made once
    def _build_700(self):
        ax = self.fig_700.ax
        g, ks = self.model.staircase()
        for k, color in zip(elo.K_CHOICES, ("C0", "C1", "C2")):
            ax.step(g, ks[k], where="mid", color=color, label=f"K {k}")
        for _, k, games in DOC_700_CASES[:2]:
            r = fide.rule_700(k, games)
            ax.annotate(f"K {k}, {games} games → {r.k_used}", (games, r.k_used), xytext=(12, 10),
                        textcoords="offset points", fontsize=8, arrowprops={"arrowstyle": "-"})
        self.marks_700, = ax.plot([], [], "o", color="C3", zorder=5, label="your games")
        self.vline_700 = ax.axvline(self.model.games, color="C3", lw=0.8, ls=":")
        self.fig_700.dynamic(self.marks_700, self.vline_700)
        ax.set(xlabel="Games in the rating period", ylabel="K for the period",
               xlim=(0, self.model.GAMES_MAX + 1), ylim=(0, 45))
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left", fontsize=8)
        ax.set_title("The 700 rule: K × games ≤ 700", fontsize=10)

    def _build_cap(self):
        ax = self.fig_cap.ax
        self.line_real, = ax.plot([], [], color="C0", label="real difference (no cap)")
        self.line_capped, = ax.plot([], [], color="C1", ls="--", label="difference capped at ±400")
        self.mark_a, = ax.plot([], [], "o", color="C3", ms=7, zorder=5, label="player A")
        self.mark_b, = ax.plot([], [], "s", color="C4", ms=7, zorder=5, label="player B")
        for s in (-fide.CAP, fide.CAP):
            ax.axvline(s, color="grey", lw=0.6, ls=":")
        expected_axes(ax, "Difference own − opponent")
        self.fig_cap.dynamic(self.line_real, self.line_capped, self.mark_a, self.mark_b)

    def _build_cmp(self):
        ax1, ax2 = self.fig_cmp.axes
        self.cmp_x, self.cmp_table, self.cmp_formula = x, table, formula = self.model.curves()
        for ax in (ax1, ax2):
            ax.plot(x, formula, color="C0", label="÷400 formula")
            ax.step(x, table, where="post", color="C1", label="FIDE table 8.1.2")
            ax.set_xlabel("Rating difference D")
            ax.grid(alpha=0.3)
        ax1.annotate("400: table 0.92, formula 0.91", (400, 0.915), xytext=(15, 0.965),
                     fontsize=8, arrowprops={"arrowstyle": "->"})
        ax1.set(ylabel="Higher-rated player's E", ylim=(0.45, 1.02))
        ax1.legend(loc="lower right", fontsize=8)
        self.cmp_marks, = ax1.plot([], [], "o", color="C3", zorder=5)
        self.cmp_zoom_marks, = ax2.plot([], [], "o", color="C3", zorder=5)
        self.fig_cmp.dynamic(self.cmp_marks, self.cmp_zoom_marks)

    # showing the model: each section is a part, run when its own settings change
    @depends(FideRulesModel.k_decision)
    def show_k(self):
        d = self.model.k_decision()
        self.k_out.value = (
            f'<div>K for this player <span class="ee-value ee-big ee-k-value">{d.k}</span></div>'
            f'<div class="ee-k-reason">{html.escape(d.text)}</div>')

    @depends(FideRulesModel.rules_700)
    def render_700(self):
        m, rules = self.model, self.model.rules_700()
        lines = [f"K {r.k} × {r.games} games = {r.k * r.games} > {fide.MAX_K_TIMES_GAMES}: K becomes "
                 f"{r.k_used} ({r.k_used} × {r.games} = {r.k_used * r.games})." if r.lowered else
                 f"K {r.k} × {r.games} games = {r.k * r.games} ≤ {fide.MAX_K_TIMES_GAMES}: "
                 f"K stays {r.k}." for r in rules]
        self.out_700.value = "".join(f'<div class="ee-700-line">{html.escape(s)}</div>'
                                     for s in lines)
        self.marks_700.set_data([m.games] * 3, [r.k_used for r in rules])
        self.vline_700.set_xdata([m.games, m.games])
        self.fig_700.refresh()

    @depends(FideRulesModel.sides)
    def render_cap(self):
        m = self.model
        a, b = m.sides()
        total = a["e"] + b["e"]
        note = ("The two E's add up to 1: the game is zero-sum." if abs(total - 1) < 1e-9 else
                f"The two E's add up to {fmt_number(total)}, not 1: with different differences "
                f"one player's gain is no longer the other's loss.")
        sides = "".join(
            f'<div class="ee-cap-{n.lower()}">{n} {s["rating"]}: difference used '
            f'{fmt_signed(s["decision"].used, 0)}, E <span class="ee-value">{fmt_number(s["e"])}'
            f'</span>; K {m.k}: win {fmt_signed(s["changes"][0])}, draw '
            f'{fmt_signed(s["changes"][1])}, loss {fmt_signed(s["changes"][2])}</div>'
            for n, s in (("A", a), ("B", b)))
        self.out_cap.value = sides + f'<div class="ee-cap-sum">{html.escape(note)}</div>'

    @depends("rating_a", "rating_b", "method", "on")
    def draw_cap(self):
        """The curves with and without the cap and both players (K changes neither)."""
        m = self.model
        a, b = m.sides()
        e = fide.table_expected_score if m.method == "table" else (lambda d: elo.expected_score(d, 0))
        lim = max(800.0, abs(a["decision"].difference) + 50)
        update_limits(self.fig_cap.ax, x=(-lim, lim))
        x = np.arange(-int(lim), int(lim) + 1)
        for line, xs in ((self.line_real, x), (self.line_capped, np.clip(x, -fide.CAP, fide.CAP))):
            line.set_data(x, e(xs))
            line.set_drawstyle("steps-post" if m.method == "table" else "default")
        self.mark_a.set_data([a["decision"].difference], [a["e"]])
        self.mark_b.set_data([b["decision"].difference], [b["e"]])
        label = {v: k for k, v in METHODS.items()}[m.method]
        period = {v: k for k, v in PERIOD_OPTIONS}[m.on]
        update_title(self.fig_cap.ax, f"{label}, rules of {period}", fontsize=10)
        self.fig_cap.refresh()

    @depends(FideRulesModel.table_and_formula)
    def render_cmp(self):
        m, d = self.model, self.model.difference
        t, f = m.table_and_formula()
        f_exact = float(elo.expected_score(d, 0))
        self.out_cmp.value = (
            f'<div>At a difference of <span class="ee-value ee-cmp-d">{d}</span>: FIDE table '
            f'<span class="ee-value ee-big ee-cmp-fide">{fmt_number(t)}</span>, ÷400 formula '
            f'<span class="ee-value ee-big ee-cmp-formula">{fmt_number(f)}</span> '
            f'<span class="ee-note">(unrounded {f_exact:.4f})</span></div>')
        self.cmp_marks.set_data([d, d], [t, f_exact])
        self.cmp_zoom_marks.set_data([d, d], [t, f_exact])
        ax2 = self.fig_cmp.axes[1]
        lo, hi = max(0, d - 50), min(m.DIFF_MAX, d + 50)
        ys = np.concatenate([self.cmp_table[lo:hi + 1], self.cmp_formula[lo:hi + 1]])
        update_limits(ax2, x=(lo, hi), y=(ys.min() - 0.005, ys.max() + 0.005))
        update_title(ax2, f"Zoom: D from {lo} to {hi}", fontsize=10)
        self.fig_cmp.refresh()
