"""Dashboard 1, "Chess Elo calculator": the Telugu and Ukrainian documents' calculators, FIDE-style.

Three modes, as the two documents' calculators offer them:

* one game (win / draw / loss);
* several games listed one by one -- every game computed from the *starting* ratings and
  the changes summed, as FIDE rates a period (Telugu document);
* G games against an opponent of *average* rating with the total points
  (``new = R + K·(points − G·E)``, Ukrainian document).

K is 40, 20 or 10 (the calculators' choice) or derived from a player profile by FIDE rule
8.3.3; the 700 rule reduces it when K × games exceeds 700. E comes from the ÷400 formula
(the documents' calculators; the default) or FIDE's table 8.1.2; the 400-point rule (with
the 2650 exemption since 1 October 2025) can be switched on or off. Every number comes
from :func:`elo_explain.fide.rate_period` (which sums the period and rounds the change
once, 0.5 away from zero, as FIDE does); this module only formats it.

:class:`CalculatorModel` is the state and the numbers (no widgets); :class:`CalculatorView`
is the page. Negative numbers are shown with the minus sign "−" (U+2212).

>>> m = CalculatorModel()                 # 1500 draws against 1700, K 20 (Telugu document)
>>> m.e_text(), m.change_text(), m.new_rating_text()
('0.24', '+5.2', '1505')
>>> m.load_preset("period")
>>> m.change_text(), m.new_rating_text()
('+1.4', '1501')
"""

from __future__ import annotations

import datetime as dt
import html

import numpy as np

from elo_explain import elo, fide
from elo_explain.dashboards.fide_rules import (
    CSS, DEFAULT_PERIOD, PERIODS, cap_example, cap_rule_text, expected_axes, k_decision,
    period_date,
)
from elo_explain.ui import fmt_number, fmt_signed, table_html, update_limits

__all__ = [
    "MODES",
    "RESULTS",
    "METHODS",
    "K_SOURCES",
    "PRESETS",
    "CalculatorModel",
    "CalculatorView",
    "calculator",
]

#: Calculator modes: key -> label.
MODES = {"single": "One game", "games": "Several games", "average": "Average opponent"}
#: Results of one game: label -> score.
RESULTS = {"Win": 1.0, "Draw": 0.5, "Loss": 0.0}
#: How E is computed: label -> ``use_table`` of :func:`elo_explain.fide.rate_period`.
METHODS = {"÷400 formula": False, "FIDE table 8.1.2": True}
#: K choices: the calculators' 40 / 20 / 10, or FIDE's rule 8.3.3 from a player profile.
K_SOURCES = {"K 40": 40, "K 20": 20, "K 10": 10, "From a player profile": "profile"}

RATING_LO, RATING_HI = 100, 3500
MAX_ROWS = 10
MAX_GAMES = 50

_K20 = dict(k_source="K 20", method="÷400 formula", cap_400=True)
#: The documents' examples (Telugu document, ``seeds/000_*``): key -> (button label, state).
PRESETS: dict[str, tuple[str, dict]] = {
    "draw_up": ("1500 vs 1700: a draw gains", dict(
        mode="single", rating=1500, opponent=1700, result="Draw", **_K20)),
    "period": ("Period 1500 → 1501", dict(
        mode="games", rating=1500, games=[(1400, "Win"), (1600, "Draw"), (1550, "Loss")], **_K20)),
    "cap_on": ("1500 beats 1000, 400-point rule on", dict(
        mode="single", rating=1500, opponent=1000, result="Win", **_K20)),
    "cap_off": ("1500 beats 1000, rule off", dict(
        mode="single", rating=1500, opponent=1000, result="Win", **{**_K20, "cap_400": False})),
}


def _esc(text) -> str:
    return html.escape(str(text))


def _split_points(games: int, points: float) -> list[float]:
    """Scores of ``games`` games adding up to ``points`` (wins, one draw, losses).

    Only the sum matters: FIDE's ΣΔR = points − ΣE whatever the order of results.

    >>> _split_points(5, 3.5)
    [1.0, 1.0, 1.0, 0.5, 0.0]
    """
    wins = int(points)
    draw = 1 if points - wins else 0
    return [1.0] * wins + [0.5] * draw + [0.0] * (games - wins - draw)


class CalculatorModel:
    """State and numbers of the calculator (no widgets; set the attributes directly).

    ``mode`` (a key of :data:`MODES`), ``rating``; one game: ``opponent``, ``result`` (a
    key of :data:`RESULTS`); several games: ``games`` (list of ``(opponent, result)``);
    average mode: ``average_opponent``, ``n_games``, ``points``; ``k_source`` (a key of
    :data:`K_SOURCES`) and the profile ``rated_games``, ``birth_year``, ``reached_2400``;
    ``method`` (a key of :data:`METHODS`), ``cap_400`` and ``period`` (a key of
    :data:`elo_explain.dashboards.fide_rules.PERIODS`: which rules are in force).

    >>> m = CalculatorModel()
    >>> m.load_preset("cap_on"); m.e_text(), m.change_text()
    ('0.91', '+1.8')
    >>> m.cap_400 = False; m.e_text(), m.change_text()
    ('0.95', '+1.1')
    """

    def __init__(self):
        self.mode = "single"
        self.rating = 1500
        self.opponent = 1700
        self.result = "Draw"
        self.games = [(1400, "Win"), (1600, "Draw"), (1550, "Loss")]
        self.average_opponent = 1600
        self.n_games = 5
        self.points = 3.0
        self.k_source = "K 20"
        self.rated_games = 80
        self.birth_year = 1995
        self.reached_2400 = False
        self.method = "÷400 formula"
        self.cap_400 = True
        self.period = DEFAULT_PERIOD

    # --- inputs ----------------------------------------------------------------------
    def load_preset(self, key: str) -> None:
        """Load one of the documents' examples (:data:`PRESETS`)."""
        if key not in PRESETS:
            raise ValueError(f"preset must be one of {', '.join(PRESETS)}, got {key!r}")
        for attr, value in PRESETS[key][1].items():
            setattr(self, attr, list(value) if isinstance(value, list) else value)

    @property
    def on(self) -> dt.date:
        return period_date(self.period)

    def results(self) -> list[tuple[float, float]]:
        """The period's games as ``(opponent, score)`` pairs for the current mode."""
        if self.mode == "single":
            return [(self.opponent, RESULTS[self.result])]
        if self.mode == "games":
            return [(opp, RESULTS[res]) for opp, res in self.games]
        if self.mode == "average":
            if not 0 <= self.points <= self.n_games:
                raise ValueError(f"points must be from 0 to the number of games ({self.n_games})")
            return [(self.average_opponent, s) for s in _split_points(self.n_games, self.points)]
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")

    # --- K ---------------------------------------------------------------------------
    def k_profile(self):
        return k_decision(self.rating, rated_games=self.rated_games, birth_year=self.birth_year,
                          reached_2400=self.reached_2400, on=self.on)

    @property
    def k_base(self) -> int:
        """K before the 700 rule: the chosen 40/20/10 or FIDE's rule for the profile."""
        source = K_SOURCES[self.k_source]
        return self.k_profile().k if source == "profile" else source

    def k_text(self) -> str:
        """Which K is used and why (and the 700 rule if it reduces K)."""
        if K_SOURCES[self.k_source] == "profile":
            text = self.k_profile().reason
        else:
            text = (f"K {self.k_base} chosen by hand (the calculators offer 40 for new or young "
                    f"players, 20 for most club players, 10 for masters).")
        p = self.period_result()
        if p.k != p.k_requested:
            text += (f" 700 rule: {int(p.k_requested)} × {p.games} games = "
                     f"{int(p.k_requested) * p.games} > 700, so K {int(p.k)} for this period.")
        return text

    # --- results ---------------------------------------------------------------------
    def period_result(self, *, cap_400: bool | None = None, results=None) -> fide.FidePeriod:
        """The period rated by :func:`elo_explain.fide.rate_period` with the current settings."""
        return fide.rate_period(
            self.rating, self.results() if results is None else results, k=self.k_base,
            on=self.on, use_table=METHODS[self.method],
            cap_400=self.cap_400 if cap_400 is None else cap_400)

    def cap_applies(self) -> bool:
        """Whether the 400-point rule changes a difference used in this period."""
        p = self.period_result()
        return bool(np.any(p.differences != p.rating - p.opponents))

    def e_text(self) -> str:
        """E of the (first) game, two decimals."""
        return fmt_number(self.period_result().expected[0])

    def change_text(self) -> str:
        """The period's change K × ΣΔR, one decimal, signed (unrounded, as the documents print)."""
        return fmt_signed(self.period_result().change)

    def new_rating_text(self) -> str:
        """The new rating: the start plus the change rounded once (FIDE), a whole number."""
        return fmt_number(self.period_result().new_rating, 0)

    def cap_text(self) -> str:
        if not self.cap_400:
            return "400-point rule off: the real difference is used in every game."
        text = cap_rule_text(self.on)
        if self.on >= fide.CAP_EXEMPTION_FROM and self.rating >= fide.CAP_EXEMPT_FROM:
            text += f" Rated {self.rating}, this player is exempt."
        return text

    def summary_html(self) -> str:
        """The live numbers: E, change, new rating, and how they were computed."""
        p = self.period_result()
        k = int(p.k) if float(p.k).is_integer() else p.k
        unrounded = p.rating + p.change
        parts = []
        if self.mode == "single":
            e = float(p.expected[0])
            parts.append(
                f'<div>Expected score E <span class="ee-value ee-big ee-e">{fmt_number(e)}</span> '
                f'<span class="ee-note">= {fmt_number(100 * e, 0)} points from 100 such games, '
                f"draws counting ½ — expected points, not a {fmt_number(100 * e, 0)} % chance "
                f"of winning.</span></div>")
            formula = f"K {k} × ({p.scores[0]:g} − {fmt_number(e)})"
        else:
            per_game = (fmt_number(p.expected[0]) if self.mode == "average"
                        else ", ".join(fmt_number(x) for x in p.expected))
            parts.append(
                f'<div>Expected points <span class="ee-value ee-big ee-e">'
                f'{fmt_number(p.expected_points)}</span> from {p.games} games '
                f'(E per game: {per_game}); '
                f'scored <span class="ee-value ee-points">{fmt_number(p.points, 1)}</span></div>')
            formula = f"K {k} × ({p.points:g} − {fmt_number(p.expected_points)})"
        parts.append(
            f'<div>Change <span class="ee-value ee-big ee-change">{fmt_signed(p.change)}</span> '
            f'<span class="ee-note">= {_esc(formula)}</span></div>')
        parts.append(
            f'<div>New rating <span class="ee-value ee-big ee-new">{fmt_number(p.new_rating, 0)}'
            f'</span> <span class="ee-note">({fmt_number(unrounded, 1)} unrounded; FIDE rounds '
            f'the period\'s change once, 0.5 away from zero: {fmt_signed(p.rounded_change, 0)})'
            f"</span></div>")
        return "".join(parts)

    def detail_html(self) -> str:
        """A table under the numbers: all three results (one game) or game by game."""
        p = self.period_result()
        if self.mode == "single":
            cols = ["Result"]
            variants = [(True, "400-point rule applied"), (False, "real difference")] \
                if self.cap_applies() else [(self.cap_400, "")]
            rows = {name: [name] for name in RESULTS}
            e_row = ["E"]
            for cap, label in variants:
                cols += [f"Change ({label})" if label else "Change",
                         f"New rating ({label})" if label else "New rating"]
                for name, score in RESULTS.items():
                    q = self.period_result(cap_400=cap, results=[(self.opponent, score)])
                    rows[name] += [fmt_signed(q.change), fmt_number(q.new_rating, 0)]
                e_row += [fmt_number(q.expected[0]), ""]
            body = [e_row] + [rows[n] for n in RESULTS]
            hl = 1 + list(RESULTS).index(self.result)
            return table_html(cols, body, highlight=hl, css="ee-outcomes", left=(0,),
                              caption=f"{self.rating} against {self.opponent}: every result")
        if self.mode == "games":
            names = {v: k for k, v in RESULTS.items()}
            body = [(i + 1, fmt_number(o, 0), names[s], fmt_signed(d, 0), fmt_number(e),
                     fmt_signed(p.k * dr))
                    for i, (o, s, d, e, dr) in enumerate(zip(p.opponents, p.scores, p.differences,
                                                             p.expected, p.delta))]
            body.append(("Total", "", fmt_number(p.points, 1), "", fmt_number(p.expected_points),
                         fmt_signed(p.change)))
            return table_html(("Game", "Opponent", "Result", "Difference used", "E", "Change"),
                              body, highlight=len(body) - 1, css="ee-games-table", left=(0,),
                              caption="Every game from the starting ratings, changes summed")
        e = float(p.expected[0])
        body = [("E per game", fmt_number(e)), ("Expected points G·E", fmt_number(p.expected_points)),
                ("Points scored", fmt_number(p.points, 1)),
                ("points − G·E", fmt_signed(p.points - p.expected_points, 2))]
        return table_html(("Average-opponent mode", ""), body, css="ee-average-table", left=(0,),
                          caption=f"{p.games} games against an average of "
                                  f"{float(self.average_opponent):g}")

    def settings_html(self) -> str:
        method = ("E from the ÷400 formula, as the documents' calculators compute it."
                  if not METHODS[self.method] else
                  "E from FIDE's table 8.1.2 (two decimals), as FIDE rates.")
        return "".join(f'<div class="ee-note {c}">{_esc(t)}</div>' for c, t in (
            ("ee-k-text", self.k_text()), ("ee-method-text", method), ("ee-cap-text", self.cap_text())))

    # --- the documents' examples -----------------------------------------------------
    def examples_html(self) -> str:
        """The Telugu document's examples, computed by the package (÷400 formula, K 20)."""
        on = self.on
        rows = []
        one = fide.rate_period(1500, [(1700, 0.5)], k=20, on=on, use_table=False)
        rows.append(("1500 draws against 1700", fmt_number(one.expected[0]), fmt_signed(one.change),
                     "a draw against a stronger player gains"))
        per = fide.rate_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20, on=on,
                               use_table=False)
        for (label, e, dr) in zip(("win against 1400", "draw against 1600", "loss against 1550"),
                                  per.expected, per.delta):
            rows.append((f"Period 1500: {label}", fmt_number(e), fmt_signed(20 * dr), ""))
        rows.append(("Period 1500: total", "", fmt_signed(per.change),
                     f"new rating {fmt_number(per.new_rating, 0)}"))
        ex = cap_example(on=on)
        for cap, label in ((False, "real difference 500"), (True, "capped at 400")):
            e, win, loss = ex[cap]
            rows.append((f"1500 beats 1000, {label}", fmt_number(e), fmt_signed(win),
                         f"a loss: {fmt_signed(loss)}"))
        rows.append(("400 points up: FIDE table vs ÷400 formula",
                     f"{fmt_number(fide.table_expected_score(400))} vs "
                     f"{fmt_number(elo.expected_score(400, 0))}", "", "FIDE rates with the table"))
        return table_html(("Telugu document's example (K 20, ÷400 formula)", "E", "Change", ""),
                          rows, css="ee-examples", caption="The documents' examples, computed live",
                          left=(0, 3))

    # --- the plot --------------------------------------------------------------------
    def curve_points(self):
        """For the plot: (real differences, E used) of the period's games, and whether the
        cap applies to this player (then the capped curve is drawn)."""
        p = self.period_result()
        capped = self.cap_400 and not (self.on >= fide.CAP_EXEMPTION_FROM
                                       and self.rating >= fide.CAP_EXEMPT_FROM)
        return p.rating - p.opponents, np.asarray(p.expected), capped


# ----------------------------------------------------------------------------------- view
class CalculatorView:
    """The calculator page; ``.root`` is the widget to show."""

    X_MAX = RATING_HI - RATING_LO

    def __init__(self, model: CalculatorModel | None = None):
        import ipywidgets as w

        from elo_explain.ui import FigureView, NumberField, app_root, guarded, widget

        self._w, self._NumberField, self._widget = w, NumberField, widget
        self.model = m = model or CalculatorModel()
        self.status = widget(w.HTML, "", css="ee-error")
        self.g = g = guarded(self.status)
        self._syncing = False
        wide = {"description_width": "initial"}
        buttons = {"button_width": "auto", **wide}

        # the documents' examples: one button each (a ToggleButtons reset after loading)
        self.presets = widget(w.ToggleButtons,
                              options=[(label, key) for key, (label, _) in PRESETS.items()],
                              value=None, description="Load an example:", style=buttons,
                              css="ee-presets")
        self.presets.observe(g(self._on_preset), names="value")

        self.mode = widget(w.ToggleButtons, options=[(v, k) for k, v in MODES.items()],
                           value=m.mode, style={"button_width": "auto"}, css="ee-mode")
        self.rating = NumberField("Your rating", m.rating, lo=RATING_LO, hi=RATING_HI, integer=True)
        self.rating.add_class("ee-rating")
        # one game (the mode and profile boxes keep their own Layout: update() hides them)
        self.opponent = NumberField("Opponent", m.opponent, lo=RATING_LO, hi=RATING_HI, integer=True)
        self.opponent.add_class("ee-opponent")
        self.result = widget(w.ToggleButtons, options=list(RESULTS), value=m.result,
                             style={"button_width": "70px"}, css="ee-result")
        self.single_box = w.VBox([self.opponent, self.result])
        # several games: the section (about 20 widget models) is made when that mode is
        # first chosen (see _build_games), its rows on demand, at most MAX_ROWS
        self.rows: list[tuple] = []
        self.rows_box = self.add = self.remove = None
        self.games_box = w.VBox([])
        # average opponent
        self.average = NumberField("Average opponent", m.average_opponent, lo=RATING_LO, hi=RATING_HI,
                                   width="16em")
        self.average.add_class("ee-average")
        self.n_games = widget(w.IntSlider, m.n_games, min=1, max=MAX_GAMES, description="Games G",
                              style=wide, css="ee-n-games")
        self.points = widget(w.FloatSlider, m.points, min=0, max=m.n_games, step=0.5,
                             description="Points", readout_format=".1f", style=wide,
                             css="ee-points-slider")
        self.average_box = w.VBox([self.average, self.n_games, self.points])
        # K, method, rules
        self.k_source = widget(w.ToggleButtons, options=list(K_SOURCES), value=m.k_source,
                               description="K-factor", style=buttons, css="ee-k-source")
        self.rated_games = widget(w.IntSlider, m.rated_games, min=0, max=200,
                                  description="Rated games", style=wide, css="ee-rated-games")
        self.birth = NumberField("Birth year", m.birth_year, lo=1900, hi=2025, integer=True)
        self.birth.add_class("ee-birth")
        self.reached = widget(w.Checkbox, m.reached_2400, indent=False, css="ee-reached",
                              description="Published rating has reached 2400")
        self.profile_box = w.VBox([self.rated_games, self.birth, self.reached])
        self.method = widget(w.ToggleButtons, options=list(METHODS), value=m.method,
                             description="E from", style=buttons, css="ee-method")
        self.cap = widget(w.Checkbox, m.cap_400, description="400-point rule", indent=False,
                          css="ee-cap")
        self.period = widget(w.Dropdown, options=list(PERIODS), value=m.period,
                             description="Rating period", style=wide, css="ee-period")

        self.summary = widget(w.HTML, css="ee-summary")
        self.detail = widget(w.HTML)
        self.examples = widget(w.HTML)
        self.fig = FigureView(figsize=(5.6, 3.5), height="360px", width="580px")
        self._build_plot()

        # wiring
        def on(attr):
            return g(lambda ch: self._changed(attr, ch["new"]))

        self.rating.on_change(g(lambda v: self._changed("rating", v)))
        self.opponent.on_change(g(lambda v: self._changed("opponent", v)))
        self.average.on_change(g(lambda v: self._changed("average_opponent", v)))
        self.birth.on_change(g(lambda v: self._changed("birth_year", v)))
        for control, attr in ((self.mode, "mode"), (self.result, "result"),
                              (self.points, "points"), (self.k_source, "k_source"),
                              (self.rated_games, "rated_games"), (self.reached, "reached_2400"),
                              (self.method, "method"), (self.cap, "cap_400"),
                              (self.period, "period")):
            control.observe(on(attr), names="value")
        self.n_games.observe(g(self._on_n_games), names="value")

        left = widget(w.VBox, [
            self.rating, self.mode, self.single_box, self.games_box, self.average_box,
            self.k_source, self.profile_box, self.method, self.cap, self.period,
        ], layout={"width": "440px", "margin": "0 24px 0 0"})
        self.fig.out.add_class("ee-plot-curve")
        right = widget(w.VBox, [self.summary, self.fig.out, self.detail],
                       layout={"width": "600px"})
        intro = widget(
            w.HTML,
            CSS + "<div class='ee-note ee-intro'><b>E is expected points per game</b> (win 1, draw ½, "
            "loss 0), not a chance of winning, although the Ukrainian calculator labels it so. A "
            "<b>draw against a stronger player gains points</b>, because E is below 0.5.</div>")
        children = [
            intro,
            self.presets,
            widget(w.HBox, [left, right], layout={"align_items": "flex-start"}),
            self.examples,
            self.status,
        ]
        self.root = app_root(children)
        self.sync_widgets()  # the first draw, with the real data: FigureView lays out then

    # --- rows of the several-games mode ------------------------------------------------
    def _build_games(self):
        """Make the several-games section, with a row per game of the model."""
        w, widget, g = self._w, self._widget, self.g
        self.rows_box = widget(w.VBox)
        self.add = widget(w.Button, description="Add a game", icon="plus",
                          layout={"width": "auto"}, css="ee-add")
        self.remove = widget(w.Button, description="Remove the last", icon="minus",
                             layout={"width": "auto"}, css="ee-remove")
        self.add.on_click(g(lambda _b: self._add_row()))
        self.remove.on_click(g(lambda _b: self._remove_row()))
        self.games_box.children = (self.rows_box, widget(w.HBox, [self.add, self.remove]))
        self._fill_rows()

    def _fill_rows(self):
        """Show the model's games in the rows (quietly: the caller updates)."""
        self._syncing, was = True, self._syncing
        try:
            self.rows_box.children = ()
            for opp, res in self.model.games:
                self._add_row(opp, res, update=False)
            self._rows_changed()
        finally:
            self._syncing = was

    def _add_row(self, opponent=1500, result="Win", *, update=True):
        n = len(self.rows_box.children)
        if n >= MAX_ROWS:
            raise ValueError(f"at most {MAX_ROWS} games can be listed")
        if n < len(self.rows):  # reuse a hidden row
            field, res, box = self.rows[n]
            self._syncing, was = True, self._syncing
            try:
                field.set(opponent)
                res.value = result
            finally:
                self._syncing = was
        else:
            w, widget = self._w, self._widget
            field = self._NumberField(f"Game {n + 1}: opponent", opponent, lo=RATING_LO,
                                      hi=RATING_HI, integer=True, width="15em")
            field.add_class(f"ee-row-{n + 1}")
            res = widget(w.Dropdown, options=list(RESULTS), value=result,
                         layout={"width": "6em"}, css=f"ee-row-result-{n + 1}")
            box = widget(w.HBox, [field, res])
            field.on_change(self.g(lambda _v: self._rows_changed()))
            res.observe(self.g(lambda _ch: self._rows_changed()), names="value")
            self.rows.append((field, res, box))
        self.rows_box.children = tuple(self.rows_box.children) + (box,)
        if update:
            self._rows_changed()

    def _remove_row(self):
        if len(self.rows_box.children) <= 1:
            raise ValueError("the list needs at least one game")
        self.rows_box.children = tuple(self.rows_box.children)[:-1]
        self._rows_changed()

    def _rows_changed(self):
        n = len(self.rows_box.children)
        self.model.games = [(field.value, res.value) for field, res, _ in self.rows[:n]]
        self.add.disabled = n >= MAX_ROWS
        self.remove.disabled = n <= 1
        if not self._syncing:
            self.update()

    # --- model <-> widgets ---------------------------------------------------------------
    def _changed(self, attr, value):
        setattr(self.model, attr, value)
        if not self._syncing:
            self.update()

    def _on_n_games(self, change):
        self.model.n_games = change["new"]
        self._syncing, was = True, self._syncing
        try:
            self.points.max = change["new"]  # clamps the points slider
            self.model.points = self.points.value
        finally:
            self._syncing = was
        if not self._syncing:
            self.update()

    def _on_preset(self, change):
        if change["new"] is None or self._syncing:
            return
        self.load(change["new"])
        self._syncing = True
        try:
            self.presets.value = None  # so the same example can be loaded again
        finally:
            self._syncing = False

    def load(self, key: str):
        """Load a preset into the model and the widgets."""
        self.model.load_preset(key)
        self.sync_widgets()

    def sync_widgets(self):
        """Show the model's state in the widgets, then update once."""
        m = self.model
        self._syncing = True
        try:
            self.mode.value = m.mode
            self.rating.set(m.rating)
            self.opponent.set(m.opponent)
            self.result.value = m.result
            if self.rows_box is not None:
                self._fill_rows()
            self.average.set(m.average_opponent)
            self.n_games.value = m.n_games
            self.points.max = m.n_games
            self.points.value = m.points
            self.k_source.value = m.k_source
            self.rated_games.value = m.rated_games
            self.birth.set(m.birth_year)
            self.reached.value = m.reached_2400
            self.method.value = m.method
            self.cap.value = m.cap_400
            self.period.value = m.period
        finally:
            self._syncing = False
        self.update()

    # --- output ------------------------------------------------------------------------
    def _build_plot(self):
        ax = self.fig.ax
        x = np.arange(-self.X_MAX, self.X_MAX + 1)
        self.x = x
        self.e_formula = elo.expected_score(x, 0)
        self.e_table = fide.table_expected_score(x)
        self.line_formula, = ax.plot(x, self.e_formula, color="C0", label="÷400 formula")
        self.line_table, = ax.plot(x, self.e_table, color="C1", drawstyle="steps-post",
                                   label="FIDE table 8.1.2")
        self.line_capped, = ax.plot([], [], color="grey", ls="--", lw=1,
                                    label="with the 400-point rule")
        self.marks, = ax.plot([], [], "o", color="C3", ms=7, zorder=5, label="this game")
        self.mark_free, = ax.plot([], [], "o", mfc="none", mec="C3", ms=7, zorder=5)
        self.mark_text = ax.text(0.97, 0.05, "", transform=ax.transAxes, ha="right", va="bottom",
                                 fontsize=9, color="C3")
        ax.axhline(0.5, color="grey", lw=0.5)
        ax.axvline(0, color="grey", lw=0.5)
        expected_axes(ax, "Rating difference: yours − opponent's")
        # drawn on a saved background (FigureView.dynamic): what most updates change
        self.fig.dynamic(self.line_capped, self.marks, self.mark_free, self.mark_text)

    def update(self):
        m = self.model
        if m.mode == "games" and self.rows_box is None:
            self._build_games()
        self.single_box.layout.display = "" if m.mode == "single" else "none"
        self.games_box.layout.display = "" if m.mode == "games" else "none"
        self.average_box.layout.display = "" if m.mode == "average" else "none"
        self.profile_box.layout.display = "" if K_SOURCES[m.k_source] == "profile" else "none"
        self.summary.value = m.summary_html() + m.settings_html()
        self.detail.value = m.detail_html()
        self.examples.value = m.examples_html()
        # plot
        xs, es, capped = m.curve_points()
        use_table = METHODS[m.method]
        self.line_table.set_linewidth(2.2 if use_table else 1.0)
        self.line_formula.set_linewidth(1.0 if use_table else 2.2)
        if capped:
            base = self.e_table if use_table else self.e_formula
            clipped = np.clip(self.x, -fide.CAP, fide.CAP) + self.X_MAX
            self.line_capped.set_data(self.x, base[clipped])
            self.line_capped.set_drawstyle("steps-post" if use_table else "default")
        else:
            self.line_capped.set_data([], [])
        self.marks.set_data(xs, es)
        lim = max(800.0, float(np.max(np.abs(xs))) + 60)
        update_limits(self.fig.ax, x=(-lim, lim))
        self.mark_free.set_data([], [])
        if m.mode == "single":
            self.mark_text.set_text(f"this game: E {fmt_number(es[0])}")
            if m.cap_applies():  # hollow point: the same game without the cap
                free = m.period_result(cap_400=False)
                self.mark_free.set_data(xs, free.expected)
                self.mark_text.set_text(f"this game: E {fmt_number(es[0])}\n"
                                        f"without the cap (hollow): {fmt_number(free.expected[0])}")
        else:
            self.mark_text.set_text("")
        self.fig.ax.set_title(f"{m.method}" + (", 400-point rule" if capped else ""), fontsize=10)
        self.fig.refresh()


def calculator():
    """The calculator's root widget (the notebook's last cell)."""
    return CalculatorView().root
