"""Dashboard 2, "FIDE rules": which K applies and why, the 700 rule, the 400-point rule, table vs formula.

Everything is computed by :mod:`elo_explain.fide` (FIDE Rating Regulations B.02, 1 March
2024, amended 1 October 2025) and :mod:`elo_explain.elo`; this module only chooses what
to show and formats it. :class:`FideRulesModel` holds the state (plain attributes) and
computes every number and table the page shows; :class:`FideRulesView` builds the widgets.

The module also holds the small pieces shared with the calculator dashboard
(:mod:`elo_explain.dashboards.chess_calculator`): the rating periods a reader can pick
(:data:`PERIODS`), the sentence explaining which K rule applies (:func:`k_decision`),
the Telugu document's 400-point example (:func:`cap_example`), the page CSS and the
look of an expected-score plot (:func:`expected_axes`). Numbers are formatted by
:mod:`elo_explain.ui` (:func:`~elo_explain.ui.fmt_number`, :func:`~elo_explain.ui.fmt_signed`).

Numbers are shown as the documents print them: E with two decimals, rating changes
with one decimal and a sign; negative numbers use the true minus sign "−" (U+2212)
everywhere on the page.

>>> m = FideRulesModel()
>>> m.k_decision().k, m.k_700(40), m.k_700(20)
(20, 35, 20)
>>> m.table_and_formula()
(0.92, 0.91)
"""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass

import numpy as np

from elo_explain import elo, fide
from elo_explain.ui import fmt_number, fmt_signed, round_half_away, table_html, update_limits

__all__ = [
    "PERIODS",
    "DEFAULT_PERIOD",
    "period_date",
    "cap_rule_text",
    "KDecision",
    "K_RULES",
    "k_decision",
    "cap_example",
    "expected_axes",
    "FideRulesModel",
    "FideRulesView",
    "fide_rules",
]

#: Rating periods a reader can choose: label -> the date whose rules apply. The 400-point
#: rule changed on 1 October 2025 (the 2650 exemption); the junior K depends on the year.
#: Dates before 1 March 2024 (the older "once per tournament" cap) are not modelled.
PERIODS: dict[str, dt.date] = {
    "March–December 2024": dt.date(2024, 3, 1),
    "January–September 2025": dt.date(2025, 1, 1),
    "October–December 2025": dt.date(2025, 10, 1),
    "2026": dt.date(2026, 1, 1),
    "2027": dt.date(2027, 1, 1),
    "2028": dt.date(2028, 1, 1),
}
DEFAULT_PERIOD = "2026"


def _esc(text) -> str:
    return html.escape(str(text))


# ------------------------------------------------------------------------------- periods
def period_date(label: str) -> dt.date:
    """The date whose rules apply for a period label of :data:`PERIODS`.

    >>> period_date("2026")
    datetime.date(2026, 1, 1)
    >>> period_date("1999")
    Traceback (most recent call last):
    ...
    ValueError: period must be one of 'March–December 2024', 'January–September 2025', 'October–December 2025', '2026', '2027', '2028', got '1999'
    """
    if label not in PERIODS:
        allowed = ", ".join(repr(p) for p in PERIODS)
        raise ValueError(f"period must be one of {allowed}, got {label!r}")
    return PERIODS[label]


def cap_rule_text(on: dt.date) -> str:
    """One sentence: the 400-point rule in force on date ``on`` (FIDE B.02 8.3.1).

    >>> cap_rule_text(dt.date(2025, 1, 1))[:60]
    'From 1 March 2024 to 30 September 2025 a difference of more '
    >>> "2650" in cap_rule_text(dt.date(2026, 1, 1))
    True
    """
    if on >= fide.CAP_EXEMPTION_FROM:
        return (f"Since 1 October 2025 a difference of more than {fide.CAP} points counts as "
                f"{fide.CAP} only for players rated below {fide.CAP_EXEMPT_FROM}; players rated "
                f"{fide.CAP_EXEMPT_FROM} or more use the real difference.")
    return (f"From 1 March 2024 to 30 September 2025 a difference of more than {fide.CAP} "
            f"points counts as {fide.CAP} for every player, in every game.")


# --------------------------------------------------------------------------------- K rule
#: FIDE rule 8.3.3, in the order :func:`elo_explain.fide.k_factor` applies it: (K, short name).
K_RULES: tuple[tuple[int, str], ...] = (
    (fide.K_NEW, f"New to the list: fewer than {fide.NEW_PLAYER_GAMES} rated games"),
    (fide.K_HIGH, f"The published rating has reached {fide.HIGH_FROM} (for good)"),
    (fide.K_JUNIOR, f"Junior (to the end of the year of the 18th birthday), rated under "
                    f"{fide.JUNIOR_BELOW}"),
    (fide.K_STANDARD, f"Everyone else: rated under {fide.HIGH_FROM}"),
)


@dataclass(frozen=True)
class KDecision:
    """The K of rule 8.3.3 (from :func:`elo_explain.fide.k_factor`), the rule (index into
    :data:`K_RULES`) and a sentence saying why."""

    k: int
    rule: int
    reason: str


def k_decision(rating, *, rated_games, birth_year, reached_2400, on: dt.date) -> KDecision:
    """Which K rule applies to a player, and why.

    K itself comes from :func:`elo_explain.fide.k_factor`; this function only names the
    rule that gave it (the rules are tried in the order of :data:`K_RULES`), and checks
    that the rule's K agrees with ``k_factor``.

    >>> k_decision(1800, rated_games=12, birth_year=1990, reached_2400=False, on=dt.date(2026, 1, 1)).k
    40
    >>> d = k_decision(2350, rated_games=300, birth_year=1990, reached_2400=True, on=dt.date(2026, 1, 1))
    >>> d.k, d.rule
    (10, 1)
    >>> k_decision(2100, rated_games=80, birth_year=2008, reached_2400=False, on=dt.date(2026, 1, 1)).reason
    'K 40: born 2008, a junior until the end of 2026, and rated 2100, under 2300.'
    """
    k = fide.k_factor(rating, rated_games=rated_games, birth_year=birth_year,
                      reached_2400=bool(reached_2400), on=on)
    r = int(rating) if float(rating).is_integer() else float(rating)
    games, year = int(rated_games), on.year
    junior_until = None if birth_year is None else int(birth_year) + 18
    is_junior = junior_until is not None and year <= junior_until
    if games < fide.NEW_PLAYER_GAMES:
        rule = 0
        reason = (f"K {k}: {games} rated games — a player new to the list keeps K {fide.K_NEW} "
                  f"until they have completed events with at least {fide.NEW_PLAYER_GAMES} games.")
    elif reached_2400 or rating >= fide.HIGH_FROM:
        rule = 1
        if rating >= fide.HIGH_FROM:
            reason = (f"K {k}: rated {r}, which has reached {fide.HIGH_FROM}; K stays "
                      f"{fide.K_HIGH} even if the rating later drops below {fide.HIGH_FROM}.")
        else:
            reason = (f"K {k}: the published rating once reached {fide.HIGH_FROM}, so K stays "
                      f"{fide.K_HIGH} for good, even at {r}.")
    elif is_junior and rating < fide.JUNIOR_BELOW:
        rule = 2
        reason = (f"K {k}: born {birth_year}, a junior until the end of {junior_until}, "
                  f"and rated {r}, under {fide.JUNIOR_BELOW}.")
    else:
        rule = 3
        if is_junior:
            why = (f"born {birth_year} is still a junior in {year}, but the rating {r} is not "
                   f"under {fide.JUNIOR_BELOW}")
        elif junior_until is not None:
            why = f"born {birth_year}: the junior K {fide.K_JUNIOR} ended with {junior_until}"
        else:
            why = "no birth year given"
        reason = f"K {k}: rated {r}, under {fide.HIGH_FROM}, {games} rated games; {why}."
    if K_RULES[rule][0] != k:  # the explanation must never disagree with fide.k_factor
        raise RuntimeError(f"K rule text ({K_RULES[rule][0]}) disagrees with fide.k_factor ({k})")
    return KDecision(k=int(k), rule=rule, reason=reason)


# ---------------------------------------------------------------------- 400-point example
def cap_example(rating=1500, opponent=1000, *, k=20, on: dt.date = PERIODS[DEFAULT_PERIOD],
                use_table=False) -> dict:
    """The Telugu document's 400-point example: E, win and loss change, without and with the cap.

    Returns ``{False: (E, win change, loss change), True: (...)}`` keyed by ``cap_400``.
    The documents' calculators use the ÷400 formula (``use_table=False``).

    >>> ex = cap_example()
    >>> [fmt_number(x, 2) for x in ex[False]], [fmt_number(x, 2) for x in ex[True]]
    (['0.95', '1.06', '−18.94'], ['0.91', '1.82', '−18.18'])
    """
    out = {}
    for cap in (False, True):
        win = fide.rate_period(rating, [(opponent, 1)], k=k, on=on, use_table=use_table,
                               cap_400=cap)
        loss = fide.rate_period(rating, [(opponent, 0)], k=k, on=on, use_table=use_table,
                                cap_400=cap)
        out[cap] = (float(win.expected[0]), win.change, loss.change)
    return out


#: Page CSS added by both dashboards (on top of :data:`elo_explain.ui.STYLE`): readable
#: line height in HTML widgets, section headings, spacing of the K reason and cap note.
CSS = """<style>
.ee-app .widget-html-content { line-height: 1.45; }
.ee-app h3 { margin: 0.8em 0 0.1em 0; }
.ee-app .ee-k-reason, .ee-app .ee-cap-sum { margin: 0.3em 0; }
.ee-app .ee-row { gap: 24px; }
</style>"""


def expected_axes(ax, xlabel: str) -> None:
    """Label an expected-score plot (both dashboards): E from 0 to 1, grid, legend."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Expected score E")
    ax.set_ylim(-0.03, 1.03)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)


# ---------------------------------------------------------------------------------- model
METHODS = {"FIDE table 8.1.2": True, "÷400 formula": False}

#: The 700 rule's cases printed by the Telugu document, plus the two "exactly 700" cases.
DOC_700_CASES = (
    ("Junior, K 40, 20 games in a month (Telugu document)", 40, 20),
    ("Adult, K 20, 40 games (Telugu document)", 20, 40),
    ("K 20, 35 games: exactly 700, not reduced", 20, 35),
    ("K 10, 70 games: exactly 700, not reduced", 10, 70),
)

#: Differences shown in the table-vs-formula table (400 is the documents' point).
COMPARE_DIFFERENCES = (0, 100, 200, 300, 400, 500, 600, 736)


class FideRulesModel:
    """State and computations of the FIDE rules dashboard (no widgets).

    Attributes (plain, set them directly): the K profile ``rating``, ``rated_games``,
    ``birth_year``, ``reached_2400``, ``period`` (a key of :data:`PERIODS`); the 700
    rule's ``games``; the 400-point rule's ``rating_a``, ``rating_b``, ``cap_period``,
    ``method`` (a key of :data:`METHODS`), ``k``; the table-vs-formula ``difference``.

    >>> m = FideRulesModel()
    >>> a, b = m.sides()
    >>> a["used"], b["used"], fmt_number(a["e"]), fmt_number(b["e"])
    (500.0, -400.0, '0.96', '0.08')
    """

    GAMES_MAX = 80
    DIFF_MAX = 800

    def __init__(self):
        self.rating = 1800
        self.rated_games = 80
        self.birth_year = 1995
        self.reached_2400 = False
        self.period = DEFAULT_PERIOD
        self.games = 20
        self.rating_a = 2700
        self.rating_b = 2200
        self.cap_period = DEFAULT_PERIOD
        self.method = "FIDE table 8.1.2"
        self.k = 20
        self.difference = 400

    # --- K rule ----------------------------------------------------------------------
    def k_decision(self) -> KDecision:
        return k_decision(self.rating, rated_games=self.rated_games, birth_year=self.birth_year,
                          reached_2400=self.reached_2400, on=period_date(self.period))

    def k_html(self) -> str:
        d = self.k_decision()
        rows = [(name, f"K {k}", "◀ applies" if i == d.rule else "")
                for i, (k, name) in enumerate(K_RULES)]
        return (
            f'<div>K for this player <span class="ee-value ee-big ee-k-value">{d.k}</span></div>'
            f'<div class="ee-k-reason">{_esc(d.reason)}</div>'
            + table_html(("FIDE rule 8.3.3, tried from the top", "K", ""), rows,
                         highlight=d.rule, caption="The first rule that matches gives K",
                         css="ee-k-rules", left=(0,))
        )

    # --- 700 rule --------------------------------------------------------------------
    def k_700(self, k, games=None) -> int:
        """K for the period after the 700 rule (``games`` defaults to ``self.games``)."""
        return fide.k_with_700_rule(k, self.games if games is None else games)

    def staircase(self):
        """Games 1..GAMES_MAX and, for K 40, 20, 10, the K after the 700 rule."""
        g = np.arange(1, self.GAMES_MAX + 1)
        return g, {k: fide.k_with_700_rule(k, g) for k in elo.K_CHOICES}

    def rule_700_html(self) -> str:
        g = int(self.games)
        rows, hl = [], []
        for i, (label, k, games) in enumerate(DOC_700_CASES):
            rows.append((label, k, games, k * games, self.k_700(k, games)))
        for k in elo.K_CHOICES:
            after = self.k_700(k)
            rows.append((f"Your choice: K {k}, {g} games", k, g, k * g, after))
            hl.append(len(rows) - 1)
        lines = []
        for k in elo.K_CHOICES:
            after = self.k_700(k)
            if after != k:
                lines.append(f"K {k} × {g} games = {k * g} > {fide.MAX_K_TIMES_GAMES}: "
                             f"K becomes {after} ({after} × {g} = {after * g}).")
            else:
                lines.append(f"K {k} × {g} games = {k * g} ≤ {fide.MAX_K_TIMES_GAMES}: "
                             f"K stays {k}.")
        text = "".join(f'<div class="ee-700-line">{_esc(s)}</div>' for s in lines)
        return text + table_html(("Case", "K", "Games", "K × games", "K for the period"), rows,
                                 highlight=hl, caption="The 700 rule", css="ee-700-table",
                                 left=(0,))

    # --- 400-point rule --------------------------------------------------------------
    def sides(self):
        """Both players of one game: what each uses under the 400-point rule on ``cap_period``."""
        on = period_date(self.cap_period)
        use_table = METHODS[self.method]
        out = []
        for own, opp in ((self.rating_a, self.rating_b), (self.rating_b, self.rating_a)):
            capped = {s: fide.rate_period(own, [(opp, s)], k=self.k, on=on, use_table=use_table,
                                          cap_400=True) for s in (1, 0.5, 0)}
            free = fide.rate_period(own, [(opp, 1)], k=self.k, on=on, use_table=use_table,
                                    cap_400=False)
            real = float(own - opp)
            used = float(capped[1].differences[0])
            if used != real:
                why = f"rated {own}, below {fide.CAP_EXEMPT_FROM}: the difference counts as {fmt_number(used, 0)}"
                if on < fide.CAP_EXEMPTION_FROM and own >= fide.CAP_EXEMPT_FROM:
                    why = f"before 1 October 2025 the cap applies to everyone: {fmt_number(used, 0)}"
            elif abs(real) > fide.CAP:
                why = f"rated {own}, {fide.CAP_EXEMPT_FROM} or more: the real difference counts"
            else:
                why = f"the difference is within ±{fide.CAP}: nothing to cap"
            out.append({
                "rating": own, "opponent": opp, "real": real, "used": used, "why": why,
                "e": float(capped[1].expected[0]), "e_real": float(free.expected[0]),
                "changes": tuple(capped[s].change for s in (1, 0.5, 0)),
            })
        return out

    def cap_html(self) -> str:
        a, b = self.sides()
        on = period_date(self.cap_period)
        rows = [
            ("Rating", str(a["rating"]), str(b["rating"])),
            ("Real difference (own − opponent)", fmt_signed(a["real"], 0), fmt_signed(b["real"], 0)),
            ("Difference used", fmt_signed(a["used"], 0), fmt_signed(b["used"], 0)),
            ("Why", a["why"], b["why"]),
            ("E without the cap", fmt_number(a["e_real"]), fmt_number(b["e_real"])),
            ("E used", fmt_number(a["e"]), fmt_number(b["e"])),
        ]
        for label, i in (("win", 0), ("draw", 1), ("loss", 2)):
            rows.append((f"Change for a {label}, K {self.k}", fmt_signed(a["changes"][i]),
                         fmt_signed(b["changes"][i])))
        total = a["e"] + b["e"]
        note = ("The two E's add up to 1: the game is zero-sum." if abs(total - 1) < 1e-9 else
                f"The two E's add up to {fmt_number(total)}, not 1: with different differences "
                f"one player's gain is no longer the other's loss.")
        return (f'<div class="ee-note ee-cap-rule">{_esc(cap_rule_text(on))}</div>'
                + table_html(("", f"Player A ({a['rating']})", f"Player B ({b['rating']})"),
                             rows, highlight=[5], caption=f"One game, both sides ({self.method})",
                             css="ee-cap-table", left=(0, 1, 2))
                + f'<div class="ee-cap-sum">{_esc(note)}</div>')

    def cap_example_html(self) -> str:
        ex = cap_example(on=period_date(self.cap_period))
        rows = [
            ("Real difference 500 (no cap)", fmt_number(ex[False][0]), fmt_signed(ex[False][1]),
             fmt_signed(ex[False][2])),
            ("Difference capped at 400", fmt_number(ex[True][0]), fmt_signed(ex[True][1]),
             fmt_signed(ex[True][2])),
        ]
        return table_html(("1500 against 1000, K 20, ÷400 formula", "E", "Win", "Loss"), rows,
                          caption="The Telugu document's example", css="ee-cap-example",
                          left=(0,))

    # --- table vs formula ------------------------------------------------------------
    def table_and_formula(self, difference=None):
        """(FIDE table PD, ÷400 formula E), both rounded to two decimals, for ``difference``."""
        d = self.difference if difference is None else difference
        table = fide.table_expected_score(d)
        formula = elo.expected_score(d, 0)
        return float(table), round_half_away(formula, 2)

    def compare_html(self) -> str:
        d = int(self.difference)
        t, f = self.table_and_formula()
        f_exact = elo.expected_score(d, 0)
        head = (f'<div>At a difference of <span class="ee-value ee-cmp-d">{d}</span>: FIDE table '
                f'<span class="ee-value ee-big ee-cmp-fide">{fmt_number(t)}</span>, ÷400 formula '
                f'<span class="ee-value ee-big ee-cmp-formula">{fmt_number(f)}</span> '
                f'<span class="ee-note">(unrounded {f_exact:.4f})</span></div>')
        diffs = list(COMPARE_DIFFERENCES)
        rows = []
        for x in diffs:
            tx, fx = self.table_and_formula(x)
            rows.append((x, fmt_number(tx), fmt_number(fx), fmt_signed(100 * (tx - fx), 0)))
        return head + table_html(
            ("Difference", "FIDE table", "÷400 formula", "Table − formula (0.01)"), rows,
            highlight=diffs.index(400), css="ee-cmp-table",
            caption="Higher-rated player's expected score", left=(0,))

    def curves(self):
        """Differences 0..DIFF_MAX with the table PD, the formula E and table − formula."""
        x = np.arange(0, self.DIFF_MAX + 1)
        table = fide.table_expected_score(x)
        formula = elo.expected_score(x, 0)
        return x, table, formula


# ----------------------------------------------------------------------------------- view
class FideRulesView:
    """The widgets of the FIDE rules dashboard; ``.root`` is the page."""

    def __init__(self, model: FideRulesModel | None = None):
        import ipywidgets as w

        from elo_explain.ui import FigureView, NumberField, app_root, guarded, widget

        self.model = m = model or FideRulesModel()
        self.status = widget(w.HTML, "", css="ee-error")
        g = guarded(self.status)
        initial = {"description_width": "initial"}

        # --- K rule
        self.rating = NumberField("Published rating", m.rating, lo=1000, hi=3000, integer=True,
                                  width="16em")
        self.rating.add_class("ee-k-rating")
        self.birth = NumberField("Birth year", m.birth_year, lo=1900, hi=2025, integer=True)
        self.birth.add_class("ee-birth")
        self.rated_games = widget(w.IntSlider, m.rated_games, min=0, max=200,
                                  description="Rated games", style=initial, css="ee-rated-games")
        self.reached = widget(w.Checkbox, m.reached_2400, indent=False, css="ee-reached",
                              description="Published rating has reached 2400")
        self.period = widget(w.Dropdown, options=list(PERIODS), value=m.period,
                             description="Rating period", style=initial, css="ee-period")
        self.k_out = widget(w.HTML, css="ee-k-out", layout={"width": "620px"})

        # --- 700 rule
        self.games = widget(w.IntSlider, m.games, min=1, max=m.GAMES_MAX,
                            description="Games in the period", style=initial,
                            layout={"width": "480px"}, css="ee-games")
        self.out_700 = widget(w.HTML, layout={"width": "500px"})
        self.fig_700 = FigureView(figsize=(5.6, 3.3), height="340px", width="560px",
                                  margins=dict(left=0.09, right=0.96, bottom=0.14, top=0.92))
        self._build_700()

        # --- 400-point rule
        self.rating_a = NumberField("Player A", m.rating_a, lo=1000, hi=3000, integer=True)
        self.rating_a.add_class("ee-rating-a")
        self.rating_b = NumberField("Player B", m.rating_b, lo=1000, hi=3000, integer=True)
        self.rating_b.add_class("ee-rating-b")
        self.cap_period = widget(w.Dropdown, options=list(PERIODS), value=m.cap_period,
                                 description="Rules of", style=initial, css="ee-cap-period")
        buttons = {"button_width": "auto"}
        self.method = widget(w.ToggleButtons, options=list(METHODS), value=m.method,
                             style=buttons, css="ee-method")
        self.k = widget(w.ToggleButtons, options=[("K 40", 40), ("K 20", 20), ("K 10", 10)],
                        value=m.k, style=buttons, css="ee-cap-k")
        self.out_cap = widget(w.HTML, layout={"width": "500px"})
        self.example = widget(w.HTML, layout={"width": "500px"})
        self.fig_cap = FigureView(figsize=(5.6, 3.4), height="350px", width="560px",
                                  margins=dict(left=0.11, right=0.96, bottom=0.14, top=0.92))
        self._build_cap()

        # --- table vs formula
        self.difference = widget(w.IntSlider, m.difference, min=0, max=m.DIFF_MAX,
                                 description="Difference D", style=initial,
                                 layout={"width": "480px"}, css="ee-difference")
        self.out_cmp = widget(w.HTML, layout={"width": "400px"})
        self.fig_cmp = FigureView(figsize=(6.6, 3.1), height="320px", width="660px", ncols=2,
                                  margins=dict(left=0.1, right=0.98, bottom=0.15, top=0.91,
                                               wspace=0.3))
        self._build_cmp()

        # --- wiring: every callback guarded
        self.rating.on_change(g(lambda v: self._set("rating", v, self.update_k)))
        self.birth.on_change(g(lambda v: self._set("birth_year", v, self.update_k)))
        for control, attr in ((self.rated_games, "rated_games"), (self.reached, "reached_2400"),
                              (self.period, "period")):
            control.observe(g(lambda ch, a=attr: self._set(a, ch["new"], self.update_k)),
                            names="value")
        self.games.observe(g(lambda ch: self._set("games", ch["new"], self.update_700)),
                           names="value")
        self.rating_a.on_change(g(lambda v: self._set("rating_a", v, self.update_cap)))
        self.rating_b.on_change(g(lambda v: self._set("rating_b", v, self.update_cap)))
        for control, attr in ((self.cap_period, "cap_period"), (self.method, "method"),
                              (self.k, "k")):
            control.observe(g(lambda ch, a=attr: self._set(a, ch["new"], self.update_cap)),
                            names="value")
        self.difference.observe(g(lambda ch: self._set("difference", ch["new"], self.update_cmp)),
                                names="value")

        def section(title, text):
            return widget(w.HTML, f"<h3>{_esc(title)}</h3><div class='ee-note'>{text}</div>")

        def box(*children, **layout):
            return widget(w.VBox, list(children), layout=layout)

        def row(*children):  # 24px between the children (CSS gap: no Layout per child)
            return widget(w.HBox, list(children), layout={"align_items": "flex-start"},
                          css="ee-row")

        self.fig_700.out.add_class("ee-plot-700")
        self.fig_cap.out.add_class("ee-plot-cap")
        self.fig_cmp.out.add_class("ee-plot-cmp")
        children = [
            widget(w.HTML, CSS + "<div class='ee-note'>FIDE Rating Regulations B.02 (1 March 2024, "
                   "amended 1 October 2025), as the Telugu and Ukrainian documents explain them. "
                   "Every number is computed by <code>elo_explain.fide</code>.</div>"),
            section("1. Which K applies, and why",
                    "K decides how far one game moves a rating. FIDE tries four rules in order; the "
                    "first that matches gives K (40 for new players and juniors, 20 for most, 10 once "
                    "the published rating has reached 2400)."),
            row(box(self.rating, self.rated_games, self.birth, self.reached, self.period,
                    width="430px"), self.k_out),
            section("2. The 700 rule",
                    "If K × games in one rating period exceeds 700, K for that period becomes the "
                    "largest whole number with K × games ≤ 700. Exactly 700 is not reduced."),
            self.games,
            row(self.fig_700.out, self.out_700),
            section("3. The 400-point rule and the 2650 exemption",
                    "A difference of more than 400 counts as 400. Since 1 October 2025 only players "
                    "rated below 2650 get the cap; it is applied per player, so the two sides of one "
                    "game can use different differences."),
            row(box(self.rating_a, self.rating_b), box(self.cap_period, self.method, self.k)),
            row(self.fig_cap.out, box(self.out_cap, self.example, width="500px")),
            section("4. FIDE's table vs the ÷400 formula",
                    "FIDE rates with its conversion table 8.1.2, not the formula. The values are nearly "
                    "the same, but at a 400-point difference the table gives 0.92 where the formula "
                    "gives 0.91."),
            self.difference,
            row(self.out_cmp, self.fig_cmp.out),
            self.status,
        ]
        self.root = app_root(children)
        self.update_k()  # the first draws, with the real data: FigureView lays out then
        self.update_700()
        self.update_cap()
        self.update_cmp()

    def _set(self, attr, value, then):
        setattr(self.model, attr, value)
        then()

    # --- figures -------------------------------------------------------------------
    def _build_700(self):
        ax = self.fig_700.ax
        g, ks = self.model.staircase()
        for k, color in zip(elo.K_CHOICES, ("C0", "C1", "C2")):
            ax.step(g, ks[k], where="mid", color=color, label=f"K {k}")
        for label, k, games in DOC_700_CASES[:2]:
            after = fide.k_with_700_rule(k, games)
            ax.annotate(f"K {k}, {games} games → {after}", (games, after), xytext=(12, 10),
                        textcoords="offset points", fontsize=8, arrowprops={"arrowstyle": "-"})
        self.marks_700, = ax.plot([], [], "o", color="C3", zorder=5, label="your games")
        self.vline_700 = ax.axvline(self.model.games, color="C3", lw=0.8, ls=":")
        self.fig_700.dynamic(self.marks_700, self.vline_700)  # drawn on a saved background
        ax.set_xlabel("Games in the rating period")
        ax.set_ylabel("K for the period")
        ax.set_xlim(0, self.model.GAMES_MAX + 1)
        ax.set_ylim(0, 45)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left", fontsize=8)
        ax.set_title("The 700 rule: K × games ≤ 700", fontsize=10)

    def _build_cap(self):
        ax = self.fig_cap.ax
        x = np.arange(-800, 801)
        self.cap_x = x
        self.line_real, = ax.plot([], [], color="C0", label="real difference (no cap)")
        self.line_capped, = ax.plot([], [], color="C1", ls="--", label="difference capped at ±400")
        self.mark_a, = ax.plot([], [], "o", color="C3", ms=7, zorder=5, label="player A")
        self.mark_b, = ax.plot([], [], "s", color="C4", ms=7, zorder=5, label="player B")
        self.text_ab = ax.text(0.97, 0.05, "", transform=ax.transAxes, ha="right", va="bottom",
                               fontsize=9)
        for s in (-400, 400):
            ax.axvline(s, color="grey", lw=0.6, ls=":")
        expected_axes(ax, "Difference own − opponent")
        # drawn on a saved background (FigureView.dynamic)
        self.fig_cap.dynamic(self.line_real, self.line_capped, self.mark_a, self.mark_b,
                             self.text_ab)

    def _build_cmp(self):
        ax1, ax2 = self.fig_cmp.axes
        x, table, formula = self.model.curves()
        ax1.plot(x, formula, color="C0", label="÷400 formula")
        ax1.step(x, table, where="post", color="C1", label="FIDE table 8.1.2")
        ax1.annotate("400: table 0.92, formula 0.91", (400, 0.915), xytext=(15, 0.965),
                     fontsize=8, arrowprops={"arrowstyle": "->"})
        self.cmp_marks, = ax1.plot([], [], "o", color="C3", zorder=5)
        ax1.set_xlabel("Rating difference D")
        ax1.set_ylabel("Higher-rated player's E")
        ax1.set_ylim(0.45, 1.02)
        ax1.grid(alpha=0.3)
        ax1.legend(loc="lower right", fontsize=8)
        # right: a zoom around the chosen difference, where the steps are visible
        ax2.plot(x, formula, color="C0")
        ax2.step(x, table, where="post", color="C1")
        self.cmp_zoom_marks, = ax2.plot([], [], "o", color="C3", zorder=5)
        self.cmp_zoom_text = ax2.text(0.97, 0.04, "", transform=ax2.transAxes, ha="right",
                                      va="bottom", fontsize=9)
        ax2.set_xlabel("Rating difference D")
        ax2.grid(alpha=0.3)
        self.cmp_x, self.cmp_table, self.cmp_formula = x, table, formula
        # drawn on a saved background (FigureView.dynamic); the zoom's limits change with D,
        # which redraws that figure in full
        self.fig_cmp.dynamic(self.cmp_marks, self.cmp_zoom_marks, self.cmp_zoom_text)

    # --- updates -------------------------------------------------------------------
    def update_k(self):
        self.k_out.value = self.model.k_html()

    def update_700(self):
        m = self.model
        self.out_700.value = m.rule_700_html()
        g = int(m.games)
        self.marks_700.set_data([g] * 3, [m.k_700(k) for k in elo.K_CHOICES])
        self.vline_700.set_xdata([g, g])
        self.fig_700.refresh()

    def update_cap(self):
        m = self.model
        self.out_cap.value = m.cap_html()
        self.example.value = m.cap_example_html()
        use_table = METHODS[m.method]
        x = self.cap_x
        e = (lambda d: fide.table_expected_score(d)) if use_table else (lambda d: elo.expected_score(d, 0))
        self.line_real.set_data(x, e(x))
        self.line_capped.set_data(x, e(np.clip(x, -fide.CAP, fide.CAP)))
        ds = "steps-post" if use_table else "default"
        self.line_real.set_drawstyle(ds)
        self.line_capped.set_drawstyle(ds)
        a, b = m.sides()
        lim = max(800.0, abs(a["real"]) + 50)
        update_limits(self.fig_cap.ax, x=(-lim, lim))
        if lim > 800:  # extend the curves to the wider range
            xx = np.arange(-int(lim), int(lim) + 1)
            self.line_real.set_data(xx, e(xx))
            self.line_capped.set_data(xx, e(np.clip(xx, -fide.CAP, fide.CAP)))
        self.mark_a.set_data([a["real"]], [a["e"]])
        self.mark_b.set_data([b["real"]], [b["e"]])
        self.text_ab.set_text(
            f"A {a['rating']}: difference {fmt_signed(a['used'], 0)}, E {fmt_number(a['e'])}\n"
            f"B {b['rating']}: difference {fmt_signed(b['used'], 0)}, E {fmt_number(b['e'])}")
        self.fig_cap.ax.set_title(f"{m.method}, rules of {m.cap_period}", fontsize=10)
        self.fig_cap.refresh()

    def update_cmp(self):
        m = self.model
        self.out_cmp.value = m.compare_html()
        t, f = m.table_and_formula()
        d = int(m.difference)
        f_exact = float(elo.expected_score(d, 0))
        self.cmp_marks.set_data([d, d], [t, f_exact])
        self.cmp_zoom_marks.set_data([d, d], [t, f_exact])
        ax2 = self.fig_cmp.axes[1]
        lo, hi = max(0, d - 50), min(m.DIFF_MAX, d + 50)
        window = slice(lo, hi + 1)
        ys = np.concatenate([self.cmp_table[window], self.cmp_formula[window]])
        update_limits(ax2, x=(lo, hi), y=(ys.min() - 0.005, ys.max() + 0.005))
        ax2.set_title(f"Zoom: D from {lo} to {hi}", fontsize=10)
        self.cmp_zoom_text.set_text(f"D {d}: table {fmt_number(t)}, formula {f_exact:.4f}")
        self.fig_cmp.refresh()


def fide_rules():
    """The FIDE rules dashboard's root widget (the notebook's last cell)."""
    return FideRulesView().root
