"""Dashboard 2, "FIDE rules": the K decision, the 700 rule, the 400-point rule, table vs formula.

:class:`FideRulesModel` holds the state and returns the decisions of :mod:`elo_explain.fide`
(:func:`~elo_explain.fide.k_factor_rule`, :func:`~elo_explain.fide.rule_700`,
:func:`~elo_explain.fide.cap_decision`) and tables (declared: the notebook's tables follow
the view); :class:`FideRulesView` shows them, each section redrawn when its own settings change.
Every word the page shows is in the page's language (:mod:`elo_explain.i18n`), every number
in its format (:mod:`elo_explain.formats`).

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
from elo_explain.formats import fmt_number, fmt_pattern, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, ngettext
from elo_explain.interactive.chess import CSS, PERIOD_OPTIONS, expected_axes, period_trait
from elo_explain.interactive.figures import FigureView, update_limits, update_title
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Choice, Whole
from elo_explain.interactive.view import DashboardView
from elo_explain.rounding import round_half_away
from elo_explain.tables import RowTable, Table, k_rules_table

__all__ = ["FideRulesModel", "FideRulesView", "DOC_700_CASES"]

#: The 700 rule's cases printed by the Telugu document, plus two "exactly 700" cases
#: (labels in English, shown in the page's language).
DOC_700_CASES = (
    (N_("Junior, K 40, 20 games in a month (Telugu document)"), 40, 20),
    (N_("Adult, K 20, 40 games (Telugu document)"), 20, 40),
    (N_("K 20, 35 games: exactly 700, not reduced"), 20, 35),
    (N_("K 10, 70 games: exactly 700, not reduced"), 10, 70),
)
#: Differences in the table-vs-formula table (400 is the documents' point).
COMPARE_DIFFERENCES = (0, 100, 200, 300, 400, 500, 600, 736)
#: The two ways to get E: label (English, shown in the page's language) → value.
METHODS = {N_("FIDE table 8.1.2"): "table", N_("÷400 formula"): "formula"}


def _method_label(method: str) -> str:
    """``"table"`` or ``"formula"`` in words, in the page's language."""
    return _({v: k for k, v in METHODS.items()}[method])


class FideRulesModel(DashboardModel):
    """The FIDE rules: a player's K, the 700 rule, one game under the 400-point rule, table vs formula.

    >>> a, b = FideRulesModel().sides()
    >>> a["decision"].used, b["decision"].used, fmt_number(a["e"]), fmt_number(b["e"])
    (500.0, -400.0, '0.96', '0.08')
    """

    params = (
        "rating",
        "rated_games",
        "birth_year",
        "reached_2400",
        "on",
        "games",
        "rating_a",
        "rating_b",
        "k",
        "method",
        "difference",
    )
    presets = {  # names in English (the menu's values), shown in the page's language
        N_("New player, 12 games (K 40)"): {"rating": 1800, "rated_games": 12},
        N_("Junior born 2008, 2100 (K 40)"): {
            "rating": 2100,
            "rated_games": 80,
            "birth_year": 2008,
            "reached_2400": False,
        },
        N_("Reached 2400, now 2350 (K 10)"): {
            "rating": 2350,
            "rated_games": 300,
            "reached_2400": True,
        },
        N_("2700 vs 2200 since October 2025"): {
            "rating_a": 2700,
            "rating_b": 2200,
            "on": "2025-10-01",
        },
    }
    GAMES_MAX, DIFF_MAX = 80, 800

    rating = Whole(1800, 1000, 3000, label=N_("Published rating"))
    rated_games = Whole(80, 0, 1000, label=N_("Rated games"))
    birth_year = Whole(1995, 1900, 2025, label=N_("Birth year"))
    reached_2400 = traitlets.Bool(False).tag(label=N_("Published rating has reached 2400"))
    on = period_trait().tag(label=N_("Rules of"))
    games = Whole(20, 1, GAMES_MAX, label=N_("Games in the period"))
    rating_a = Whole(2700, 1000, 3000, label=N_("Player A"))
    rating_b = Whole(2200, 1000, 3000, label=N_("Player B"))
    k = Choice(20, [40, 20, 10], label="K")
    # (its toggles have no label here: 01's words for the same choice)
    method = traitlets.Enum(list(METHODS.values()), default_value="table").tag(label=N_("E from"))
    difference = Whole(400, 0, DIFF_MAX, label=N_("Difference D"))

    # K and the 700 rule
    @depends("rating", "rated_games", "on", "birth_year", "reached_2400")
    def k_decision(self) -> fide.KFactor:
        return fide.k_factor_rule(
            self.rating,
            rated_games=self.rated_games,
            on=self.on,
            birth_year=self.birth_year,
            reached_2400=self.reached_2400,
        )

    @depends(k_decision)
    def k_rules(self) -> Table:
        """Rule 8.3.3 tried from the top, the rule that applies marked, the decision as
        the caption (:func:`~elo_explain.tables.k_rules_table`)."""
        return k_rules_table(self.k_decision())

    @depends("games")
    def rules_700(self) -> list[fide.Rule700]:
        """The 700 rule for K 40, 20 and 10 with this period's games."""
        return [fide.rule_700(k, self.games) for k in elo.K_CHOICES]

    @depends("games")
    def table_700(self) -> Table:
        """The documents' cases (fixed), then the reader's (K 40, 20, 10 with ``games``),
        each with what the rule does."""
        cases = [(_(label), fide.rule_700(k, g)) for label, k, g in DOC_700_CASES]
        cases += [
            (
                ngettext(
                    "Your period: K {k}, {games} game", "Your period: K {k}, {games} games", r.games
                ).format(k=r.k, games=r.games),
                r,
            )
            for r in self.rules_700()
        ]
        return Table(
            (
                _("Case"),
                "K",
                _("Games"),
                _("K × games"),
                _("K for the period"),
                _("What the rule does"),
            ),
            [(label, r.k, r.games, r.k * r.games, r.k_used, r.text) for label, r in cases],
            _("The 700 rule: the documents' cases, then your period's games"),
        )

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
                return fide.rate_period(
                    own,
                    [(opp, score)],
                    k=self.k,
                    on=self.on,
                    use_table=self.method == "table",
                    cap_400=cap,
                )

            out.append(
                {
                    "rating": own,
                    "decision": fide.cap_decision(own, opp, on=self.on),
                    "e": float(rate(1).expected[0]),
                    "e_real": float(rate(1, cap=False).expected[0]),
                    "changes": tuple(rate(s).change for s in (1, 0.5, 0)),
                }
            )
        return out

    @depends(sides)
    def cap_table(self) -> RowTable:
        """Both players of one game, one row per quantity: numbers (the ratings, the real
        and the used difference, E without and with the cap, the changes for a win, a
        draw and a loss) and the cap's reason; formatted when shown, per row."""
        a, b = self.sides()
        whole, two = fmt_plain, fmt_number

        def signed0(x, **kw):
            return fmt_signed(x, 0, **kw)

        rows = [
            (_("Rating"), a["rating"], b["rating"], whole),
            (
                _("Real difference (own − opponent)"),
                a["decision"].difference,
                b["decision"].difference,
                signed0,
            ),
            (_("Difference used"), a["decision"].used, b["decision"].used, signed0),
            (_("Why"), a["decision"].reason, b["decision"].reason, None),
            (_("E without the cap"), a["e_real"], b["e_real"], two),
            (_("E used"), a["e"], b["e"], two),
        ]
        changes = (
            _("Change for a win, K {k}"),
            _("Change for a draw, K {k}"),
            _("Change for a loss, K {k}"),
        )
        rows += [
            (label.format(k=self.k), a["changes"][i], b["changes"][i], fmt_signed)
            for i, label in enumerate(changes)
        ]
        columns = (
            "",
            _("Player A ({rating})").format(rating=fmt_plain(a["rating"])),
            _("Player B ({rating})").format(rating=fmt_plain(b["rating"])),
        )
        return RowTable(
            columns,
            [row[:3] for row in rows],
            _("One game, both sides ({method})").format(method=_method_label(self.method)),
            row_formats=[(None, row[3], row[3]) for row in rows],
        )

    # table vs formula
    @depends("difference")
    def table_and_formula(self, difference=None) -> tuple[float, float]:
        """(FIDE table PD, ÷400 formula E to two decimals) for ``difference``."""
        d = self.difference if difference is None else difference
        return (float(fide.table_expected_score(d)), round_half_away(elo.expected_score(d, 0), 2))

    @staticmethod
    def compare_table() -> Table:
        """Table 8.1.2 against the formula at fixed differences (400: 0.92 vs 0.91)."""
        rows = [
            (d, float(fide.table_expected_score(d)), round_half_away(elo.expected_score(d, 0), 2))
            for d in COMPARE_DIFFERENCES
        ]
        rows = [(d, t, f, round_half_away(100 * (t - f))) for d, t, f in rows]
        return Table(
            (
                _("Difference"),
                _("FIDE table"),
                _("÷400 formula"),
                _("Table − formula ({unit})").format(unit=fmt_number(0.01)),
            ),
            rows,
            _(
                "Higher-rated player's expected score at fixed differences (the "
                "documents' 400 among them; the last section below takes any difference)"
            ),
            (None, fmt_number, fmt_number, lambda x: fmt_signed(x, 0)),
        )

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

    docked = ("rating", "rated_games", "games", "rating_a", "rating_b", "difference")
    key_target = "ee-k-out"

    def key_result(self) -> str:
        """The player's K."""
        return _("K for this player {k}").format(k=self.model.k_decision().k)

    def build(self):
        self.k_out = html_box("ee-k-out", width="620px")
        self.out_700 = html_box("", width="460px")
        self.out_cap = html_box("", width="520px")
        self.out_cmp = html_box("")
        self.fig_700 = FigureView(
            figsize=(5.6, 3.3),
            height="340px",
            width="560px",
            margins=dict(left=0.09, right=0.96, bottom=0.14, top=0.92),
        )
        self.fig_cap = FigureView(
            figsize=(5.6, 3.4),
            height="350px",
            width="560px",
            margins=dict(left=0.11, right=0.96, bottom=0.14, top=0.92),
        )
        self.fig_cmp = FigureView(
            figsize=(6.6, 3.1),
            height="320px",
            width="660px",
            ncols=2,
            margins=dict(left=0.1, right=0.98, bottom=0.15, top=0.91, wspace=0.3),
        )
        for fig, css in (
            (self.fig_700, "ee-plot-700"),
            (self.fig_cap, "ee-plot-cap"),
            (self.fig_cmp, "ee-plot-cmp"),
        ):
            fig.out.add_class(css)
        self._build_700()
        self._build_cap()
        self._build_cmp()
        k_box = widgets.VBox(
            [
                self.number("rating", width="16em"),
                self.slider("rated_games", width="300px", label_width="7em"),
                self.number("birth_year"),
                self.checkbox("reached_2400", label=_("Published rating has reached 2400")),
            ],
            layout={"width": "430px"},
        )
        periods = [(_(text), on) for text, on in PERIOD_OPTIONS]
        return [
            widgets.HTML(CSS),
            _row(
                self.preset_menu(), self.dropdown("on", periods, label=_("Rules of"), width="18em")
            ),
            _heading(_("1. Which K applies")),
            _row(k_box, self.k_out),
            _heading(_("2. The 700 rule")),
            self.slider("games", width="480px"),
            _row(self.fig_700.out, self.out_700),
            _heading(_("3. The 400-point rule")),
            _row(
                widgets.VBox([self.number("rating_a"), self.number("rating_b")]),
                widgets.VBox(
                    [
                        self.toggles("method", [(_(t), m) for t, m in METHODS.items()], label=""),
                        self.toggles("k", [("K 40", 40), ("K 20", 20), ("K 10", 10)], label=""),
                    ]
                ),
            ),
            _row(self.fig_cap.out, self.out_cap),
            _heading(_("4. FIDE's table vs the ÷400 formula")),
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
        for _case, k, games in DOC_700_CASES[:2]:
            r = fide.rule_700(k, games)
            ax.annotate(
                ngettext(
                    "K {k}, {games} game → {used}", "K {k}, {games} games → {used}", games
                ).format(k=k, games=games, used=r.k_used),
                (games, r.k_used),
                xytext=(12, 10),
                textcoords="offset points",
                fontsize=8,
                arrowprops={"arrowstyle": "-"},
            )
        (self.marks_700,) = ax.plot([], [], "o", color="C3", zorder=5, label=_("your games"))
        self.vline_700 = ax.axvline(self.model.games, color="C3", lw=0.8, ls=":")
        self.fig_700.dynamic(self.marks_700, self.vline_700)
        ax.set(
            xlabel=_("Games in the rating period"),
            ylabel=_("K for the period"),
            xlim=(0, self.model.GAMES_MAX + 1),
            ylim=(0, 45),
        )
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left", fontsize=8)
        ax.set_title(
            _("The 700 rule: K × games ≤ {max}").format(max=fide.MAX_K_TIMES_GAMES), fontsize=10
        )

    def _build_cap(self):
        ax = self.fig_cap.ax
        (self.line_real,) = ax.plot([], [], color="C0", label=_("real difference (no cap)"))
        (self.line_capped,) = ax.plot(
            [], [], color="C1", ls="--", label=_("difference capped at ±{cap}").format(cap=fide.CAP)
        )
        (self.mark_a,) = ax.plot([], [], "o", color="C3", ms=7, zorder=5, label=_("player A"))
        (self.mark_b,) = ax.plot([], [], "s", color="C4", ms=7, zorder=5, label=_("player B"))
        for s in (-fide.CAP, fide.CAP):
            ax.axvline(s, color="grey", lw=0.6, ls=":")
        expected_axes(ax, _("Difference own − opponent"))
        self.fig_cap.dynamic(self.line_real, self.line_capped, self.mark_a, self.mark_b)

    def _build_cmp(self):
        ax1, ax2 = self.fig_cmp.axes
        self.cmp_x, self.cmp_table, self.cmp_formula = x, table, formula = self.model.curves()
        for ax in (ax1, ax2):
            ax.plot(x, formula, color="C0", label=_("÷400 formula"))
            ax.step(x, table, where="post", color="C1", label=_("FIDE table 8.1.2"))
            ax.set_xlabel(_("Rating difference D"))
            ax.grid(alpha=0.3)
        t400, f400 = self.model.table_and_formula(400)
        ax1.annotate(
            _("{d}: table {table}, formula {formula}").format(
                d=400, table=fmt_number(t400), formula=fmt_number(f400)
            ),
            (400, 0.915),
            xytext=(0.97, 0.33),
            textcoords="axes fraction",
            ha="right",
            fontsize=8,
            arrowprops={"arrowstyle": "->"},
        )  # under the curves, where no line goes
        ax1.set(ylabel=_("Higher-rated player's E"), ylim=(0.45, 1.02))
        ax1.legend(loc="lower right", fontsize=8)
        (self.cmp_marks,) = ax1.plot([], [], "o", color="C3", zorder=5)
        (self.cmp_zoom_marks,) = ax2.plot([], [], "o", color="C3", zorder=5)
        self.fig_cmp.dynamic(self.cmp_marks, self.cmp_zoom_marks)

    # showing the model: each section is a part, run when its own settings change
    @depends(FideRulesModel.k_decision)
    def show_k(self):
        d = self.model.k_decision()
        k = f'<span class="ee-value ee-big ee-k-value">{d.k}</span>'
        line = html.escape(_("K for this player {k}")).format(k=k)
        self.k_out.value = f'<div>{line}</div><div class="ee-k-reason">{html.escape(d.text)}</div>'

    @depends(FideRulesModel.rules_700)
    def render_700(self):
        m, rules = self.model, self.model.rules_700()
        lines = [
            (
                ngettext(
                    "K {k} × {games} game = {product} > {max}: K becomes {used} ({used} × "
                    "{games} = {used_product}).",
                    "K {k} × {games} games = {product} > {max}: K becomes {used} ({used} × "
                    "{games} = {used_product}).",
                    r.games,
                )
                if r.lowered
                else ngettext(
                    "K {k} × {games} game = {product} ≤ {max}: K stays {k}.",
                    "K {k} × {games} games = {product} ≤ {max}: K stays {k}.",
                    r.games,
                )
            ).format(
                k=r.k,
                games=r.games,
                product=r.k * r.games,
                max=fide.MAX_K_TIMES_GAMES,
                used=r.k_used,
                used_product=r.k_used * r.games,
            )
            for r in rules
        ]
        self.out_700.value = "".join(
            f'<div class="ee-700-line">{html.escape(s)}</div>' for s in lines
        )
        self.marks_700.set_data([m.games] * 3, [r.k_used for r in rules])
        self.vline_700.set_xdata([m.games, m.games])
        self.fig_700.refresh()

    @depends(FideRulesModel.sides)
    def render_cap(self):
        m = self.model
        a, b = m.sides()
        total = a["e"] + b["e"]
        note = (
            _("The two E's add up to 1: the game is zero-sum.")
            if abs(total - 1) < 1e-9
            else _(
                "The two E's add up to {total}, not 1: with different differences one "
                "player's gain is no longer the other's loss."
            ).format(total=fmt_number(total))
        )
        line = html.escape(
            _(
                "{player} {rating}: difference used {used}, E {e}; K {k}: win "
                "{win}, draw {draw}, loss {loss}"
            )
        )
        sides = "".join(
            f'<div class="ee-cap-{n.lower()}">'
            + line.format(
                player=n,
                rating=s["rating"],
                used=fmt_signed(s["decision"].used, 0),
                e=f'<span class="ee-value">{fmt_number(s["e"])}</span>',
                k=m.k,
                win=fmt_signed(s["changes"][0]),
                draw=fmt_signed(s["changes"][1]),
                loss=fmt_signed(s["changes"][2]),
            )
            + "</div>"
            for n, s in (("A", a), ("B", b))
        )
        self.out_cap.value = sides + f'<div class="ee-cap-sum">{html.escape(note)}</div>'

    @depends("rating_a", "rating_b", "method", "on")
    def draw_cap(self):
        """The curves with and without the cap and both players (K changes neither)."""
        m = self.model
        a, b = m.sides()
        e = (
            fide.table_expected_score
            if m.method == "table"
            else (lambda d: elo.expected_score(d, 0))
        )
        lim = max(800.0, abs(a["decision"].difference) + 50)
        update_limits(self.fig_cap.ax, x=(-lim, lim))
        x = np.arange(-int(lim), int(lim) + 1)
        for line, xs in ((self.line_real, x), (self.line_capped, np.clip(x, -fide.CAP, fide.CAP))):
            line.set_data(x, e(xs))
            line.set_drawstyle("steps-post" if m.method == "table" else "default")
        self.mark_a.set_data([a["decision"].difference], [a["e"]])
        self.mark_b.set_data([b["decision"].difference], [b["e"]])
        period = _({v: k for k, v in PERIOD_OPTIONS}[m.on])
        update_title(
            self.fig_cap.ax,
            _("{method}, rules of {period}").format(method=_method_label(m.method), period=period),
            fontsize=10,
        )
        self.fig_cap.refresh()

    @depends(FideRulesModel.table_and_formula)
    def render_cmp(self):
        m, d = self.model, self.model.difference
        t, f = m.table_and_formula()
        f_exact = float(elo.expected_score(d, 0))
        line = html.escape(_("At a difference of {d}: FIDE table {table}, ÷400 formula {formula}"))
        unrounded = html.escape(
            _("(unrounded {value})").format(value=fmt_pattern(f_exact, "{:.4f}"))
        )
        self.out_cmp.value = (
            "<div>"
            + line.format(
                d=f'<span class="ee-value ee-cmp-d">{d}</span>',
                table=f'<span class="ee-value ee-big ee-cmp-fide">{fmt_number(t)}</span>',
                formula=f'<span class="ee-value ee-big ee-cmp-formula">{fmt_number(f)}</span>',
            )
            + f' <span class="ee-note">{unrounded}</span></div>'
        )
        self.cmp_marks.set_data([d, d], [t, f_exact])
        self.cmp_zoom_marks.set_data([d, d], [t, f_exact])
        ax2 = self.fig_cmp.axes[1]
        lo, hi = max(0, d - 50), min(m.DIFF_MAX, d + 50)
        ys = np.concatenate([self.cmp_table[lo : hi + 1], self.cmp_formula[lo : hi + 1]])
        update_limits(ax2, x=(lo, hi), y=(ys.min() - 0.005, ys.max() + 0.005))
        update_title(ax2, _("Zoom: D from {lo} to {hi}").format(lo=lo, hi=hi), fontsize=10)
        self.fig_cmp.refresh()
