"""Dashboard 9, *Simulate a ladder*: watch ratings evolve under each rule set.

A population with hidden true strengths (1500 + spread x N(0, 1)) plays a ladder for some
weeks under one of the rule sets of :data:`elo_explain.simulate.RULE_SETS` (FIDE Elo, plain
Elo, the Gammon42 versions 1.0.5 / 1.2.0 / 1.3.1 with the cube and volume K, FIBS,
Lichess's Glicko-2), simulated by :func:`elo_explain.simulate.simulate_season`. Shown: a few
players' ratings over the season with the 10-90 % band of everyone, the rating spread week
by week, and how often the favourite (the higher-rated player) won against how often the
rule's own curve expected it to. The second part is the Gammon42 document's weekly-swing
experiment (:func:`elo_explain.simulate.weekly_swing`): K 32 against K 16 at 20 ... 300
games a week, luck alone.

Speed: a season is simulated round by round, so its cost grows with players x games per
week x weeks. :meth:`LadderModel.estimated_seconds` predicts it; settings that stay under
:data:`AUTO_SECONDS` run as soon as a slider is released, bigger ones wait for the Run
button, and anything over :data:`MAX_SECONDS` is refused with a message. Seasons are
cached, and a shorter season with otherwise equal settings is the first weeks of a longer
one (same seed, same draws), so moving the weeks slider down is instant.

:class:`LadderModel` holds the state and computes what is shown (no widgets);
:class:`LadderView` builds the widgets; :func:`ladder_dashboard` returns the root.
Negative numbers use the minus sign U+2212 ("−").
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections import OrderedDict

import ipywidgets as widgets
import numpy as np
from matplotlib.ticker import MaxNLocator, MultipleLocator

from elo_explain import simulate
from elo_explain.ui import (MINUS, FigureView, NumberField, app_root, fmt_pct, fmt_signed, guarded,
                            table_html, value_html)

__all__ = [
    "LadderModel",
    "LadderView",
    "ladder_dashboard",
    "first_weeks",
    "AUTO_SECONDS",
    "MAX_SECONDS",
    "SWING_GAMES",
]

#: Rule sets offered (the keys of :data:`elo_explain.simulate.RULE_SETS`).
RULES = tuple(simulate.RULE_SETS)
DEFAULT_RULE = "Gammon42 1.3.1 (÷1200, volume K)"
#: Bounds of the season's sliders: (min, max, step).
PLAYERS = (10, 1000, 10)
GAMES_PER_WEEK = (1, 50, 1)
WEEKS = (1, 104, 1)
SPREAD = (0, 400, 10)
SEED = (0, 99_999)
#: The true curve of the game: ``"own"`` = the rule's own divisor (model: ``None``).
TRUE_CURVES = (("the rule's own curve", "own"), ("÷400 (chess-like)", 400.0),
               ("÷800", 800.0), ("÷1200 (Gammon42 1.3.1)", 1200.0),
               ("÷2000 (FIBS, one-point matches)", 2000.0))
#: Settings estimated to take at most this long run on every slider release.
AUTO_SECONDS = 0.25
#: Settings estimated to take longer than this are refused (reduce the sizes).
MAX_SECONDS = 3.0
#: Cost model of one round of games, milliseconds: (fixed, per player). About twice the CPU
#: time measured on the project's 2-CPU machine (100 and 1,000 players, 100 rounds), to
#: cover a busy server.
ROUND_COST_MS = {
    simulate.FideElo: (0.1, 0.0003),
    simulate.Elo: (0.25, 0.0003),
    simulate.Gammon42: (1.0, 0.001),
    simulate.Fibs: (0.6, 0.0003),
    simulate.LichessGlicko2: (1.4, 0.0012),
}
#: The weekly-swing experiment: games a week, the two K and simulated weeks per cell.
SWING_GAMES = (20, 50, 100, 150, 200, 250, 300)
SWING_K = (32, 16)
SWING_WEEKS = 2000
#: Histogram bins 64 points wide, centred on multiples of 64: without feedback a week's
#: change at K 32 is a multiple of 32 (K 16: of 16), so every bin holds the same number
#: of possible values and the histogram shows no comb pattern.
SWING_BINS = np.arange(-1248.0, 1249.0, 64.0)
#: Where the sample players sit among the true strengths (quantiles).
SAMPLE_QUANTILES = (0.95, 0.75, 0.5, 0.25, 0.05)
SAMPLE_NAMES = ("strong (top 5 %)", "good (top 25 %)", "median", "weak (bottom 25 %)",
                "weakest (bottom 5 %)")
SAMPLE_COLOURS = ("#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd")
#: Legends sit above their axes, outside the data (they are part of the static background).
LEGEND_ABOVE = dict(loc="lower left", bbox_to_anchor=(0, 1.01), ncols=3, fontsize=8,
                    frameon=False, borderaxespad=0, handlelength=1.6, columnspacing=1.0)
#: Compact lines in the HTML blocks (widgets' HTML has a tall default line height).
TEXT_STYLE = ("<style>.ee-summary .widget-html-content, .ee-swing .widget-html-content "
              "{line-height: 1.4;} .ee-run-message {background: #fff3c4; padding: 2px 6px; "
              "font-weight: 600;}</style>")


def first_weeks(season: simulate.Season, weeks: int) -> simulate.Season:
    """The first ``weeks`` weeks of ``season`` (the same numbers a shorter run gives).

    :func:`~elo_explain.simulate.simulate_season` draws the strengths first and then each
    week's pairings and results in order, so a season of ``weeks`` weeks equals the start
    of a longer one with the same seed and settings. ``games_played`` is scaled to the
    shorter season (every player's share stays the same on average).

    >>> long = simulate.simulate_season(simulate.Elo(), players=20, weeks=6, games_per_week=2)
    >>> short = simulate.simulate_season(simulate.Elo(), players=20, weeks=4, games_per_week=2)
    >>> bool(np.array_equal(first_weeks(long, 4).ratings, short.ratings))
    True
    """
    if not 1 <= weeks <= season.weeks:
        raise ValueError(f"weeks must be from 1 to {season.weeks}, got {weeks!r}")
    if weeks == season.weeks:
        return season
    cut = {"ratings": season.ratings[: weeks + 1], "spread": season.spread[: weeks + 1],
           "correlation": season.correlation[: weeks + 1]}
    if season.rd is not None:
        cut["rd"] = season.rd[: weeks + 1]
    for name in ("favourite_games", "favourite_score", "favourite_expected", "favourite_true"):
        cut[name] = getattr(season, name)[:weeks]
    cut["games_played"] = np.rint(season.games_played * weeks / season.weeks).astype(np.int64)
    return dataclasses.replace(season, **cut)


def _weighted(values: np.ndarray, weights: np.ndarray) -> float:
    ok = np.isfinite(values) & (weights > 0)
    if not ok.any():
        return float("nan")
    return float(np.average(values[ok], weights=weights[ok]))


class LadderModel:
    """State and every computed number of the *Simulate a ladder* dashboard (no widgets).

    Season settings (plain attributes): ``rule`` (a key of
    :data:`elo_explain.simulate.RULE_SETS`), ``players`` (10..1000), ``games_per_week``
    (1..50), ``weeks`` (1..104), ``spread`` (0..400, standard deviation of the true
    strengths), ``seed`` (0..99,999), ``true_divisor`` (``None`` = the rule's own curve, or
    a divisor for the game's true curve). Weekly swing: ``swing_games`` (one of
    :data:`SWING_GAMES`) and ``feedback`` (ratings move game by game).

    >>> m = LadderModel()
    >>> m.estimated_seconds() <= AUTO_SECONDS, m.mode
    (True, 'auto')
    >>> season = m.season()
    >>> season.ratings.shape                        # 20 weeks + the start, 100 players
    (21, 100)
    >>> m.players = 1000; m.games_per_week = 50; m.weeks = 104
    >>> m.mode
    'too big'
    """

    def __init__(self, *, rule=DEFAULT_RULE, players=100, games_per_week=5, weeks=20,
                 spread=200, seed=1, true_divisor=None, swing_games=300, feedback=False):
        self.rule = rule
        self.players = players
        self.games_per_week = games_per_week
        self.weeks = weeks
        self.spread = spread
        self.seed = seed
        self.true_divisor = true_divisor
        self.swing_games = swing_games
        self.feedback = feedback
        self._seasons: OrderedDict = OrderedDict()
        self._swings: dict = {}
        self.shown: simulate.Season | None = None
        self.shown_settings: tuple | None = None

    # ------------------------------------------------------------------ settings
    def _check(self):
        if self.rule not in simulate.RULE_SETS:
            raise ValueError(f"rule set must be one of {', '.join(RULES)}, got {self.rule!r}")
        for name, value, (lo, hi) in (
                ("players", self.players, PLAYERS[:2]),
                ("games per week", self.games_per_week, GAMES_PER_WEEK[:2]),
                ("weeks", self.weeks, WEEKS[:2]),
                ("seed", self.seed, SEED)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or not lo <= value <= hi:
                raise ValueError(f"{name} must be a whole number from {lo} to {hi}, got {value!r}")
        if isinstance(self.spread, bool) or not isinstance(self.spread, (int, float, np.number)) \
                or not SPREAD[0] <= self.spread <= SPREAD[1]:
            raise ValueError(f"spread must be a number from {SPREAD[0]} to {SPREAD[1]}, "
                             f"got {self.spread!r}")
        allowed = [None] + [d for _, d in TRUE_CURVES if d != "own"]
        if self.true_divisor not in allowed:
            raise ValueError(f"true curve must be one of {allowed}, got {self.true_divisor!r}")
        if self.swing_games not in SWING_GAMES:
            raise ValueError(f"games a week (swing) must be one of {SWING_GAMES}, "
                             f"got {self.swing_games!r}")
        if not isinstance(self.feedback, (bool, np.bool_)):
            raise TypeError(f"feedback must be True or False, got {self.feedback!r}")

    @property
    def rules(self):
        """The rule set object of :attr:`rule`."""
        self._check()
        return simulate.RULE_SETS[self.rule]

    def settings(self) -> tuple:
        """The season's settings as a tuple (the cache key plus the weeks)."""
        self._check()
        return (self.rule, int(self.players), int(self.games_per_week), float(self.spread),
                int(self.seed), self.true_divisor, int(self.weeks))

    def estimated_seconds(self) -> float:
        """Predicted time to simulate the season (0 when it is cached).

        >>> m = LadderModel(rule="Lichess Glicko-2", players=1000, games_per_week=50, weeks=52)
        >>> round(m.estimated_seconds(), 1)             # 2,600 rounds x (1.4 + 1.2) ms
        6.8
        """
        if self._cached() is not None:
            return 0.0
        fixed, per_player = ROUND_COST_MS[type(self.rules)]
        rounds = self.games_per_week * self.weeks
        return rounds * (fixed + per_player * self.players) / 1000.0

    @property
    def mode(self) -> str:
        """``'auto'`` (runs on a slider move), ``'run'`` (waits for Run) or ``'too big'``."""
        t = self.estimated_seconds()
        if t <= AUTO_SECONDS:
            return "auto"
        if t <= MAX_SECONDS:
            return "run"
        return "too big"

    def mode_message(self) -> str:
        """What the Run button area says for the current settings."""
        t = self.estimated_seconds()
        mode = self.mode
        if mode == "auto":
            return ""
        if mode == "run":
            return (f"These settings take about {t:.1f} s: press Run to simulate them "
                    "(the plots still show the last run).")
        return (f"Too big: about {t:.0f} s. Keep players × games per week × weeks smaller "
                f"(at most about {MAX_SECONDS:g} s of simulation).")

    def _cached(self):
        key = self.settings()[:-1]
        season = self._seasons.get(key)
        if season is not None and season.weeks >= self.weeks:
            return season
        return None

    # ------------------------------------------------------------------ the season
    def season(self, *, run: bool = False) -> simulate.Season:
        """The season for the current settings, simulated if needed.

        Without ``run`` only settings in :attr:`mode` ``'auto'`` (or cached) are simulated;
        ``run=True`` also allows ``'run'``; ``'too big'`` always raises ``ValueError``.
        """
        self._check()
        cached = self._cached()
        if cached is None:
            mode = self.mode
            if mode == "too big" or (mode == "run" and not run):
                raise ValueError(self.mode_message())
            key = self.settings()[:-1]
            cached = simulate.simulate_season(
                self.rules, players=int(self.players), weeks=int(self.weeks),
                games_per_week=int(self.games_per_week), spread=float(self.spread),
                true_divisor=self.true_divisor, seed=int(self.seed))
            self._seasons[key] = cached
            self._seasons.move_to_end(key)
            while len(self._seasons) > 6:
                self._seasons.popitem(last=False)
        season = first_weeks(cached, int(self.weeks))
        self.shown, self.shown_settings = season, self.settings()
        return season

    @property
    def up_to_date(self) -> bool:
        """Whether the shown season has the current settings."""
        return self.shown is not None and self.shown_settings == self.settings()

    def rule_divisor(self, season=None) -> float:
        """The divisor of the rule's own curve."""
        season = season or self.shown
        return float(season.rules.divisor)

    def true_spread_on_rule_scale(self, season=None) -> float:
        """SD of the true strengths expressed in the rule's rating points.

        Ratings settle where the rule's curve reproduces the true results, so a true curve
        ÷T seen through a rule ÷D stretches strengths by D / T.
        """
        season = season or self.shown
        return float(season.true_strength.std() * self.rule_divisor(season)
                     / season.true_divisor)

    def sample_players(self, season=None) -> np.ndarray:
        """Indices of the sample players: true strength at :data:`SAMPLE_QUANTILES`."""
        season = season or self.shown
        order = np.argsort(season.true_strength)
        n = order.size
        return order[np.minimum(n - 1, np.round(np.array(SAMPLE_QUANTILES) * (n - 1))
                                .astype(int))]

    def band(self, season=None):
        """10th, 50th and 90th percentile of the ratings, week by week."""
        season = season or self.shown
        return np.percentile(season.ratings, [10, 50, 90], axis=1)

    def favourite_rows(self, season=None):
        """Rows (label, first week, second half, whole season) of the favourites table."""
        season = season or self.shown
        w = season.weeks
        g = season.favourite_games.astype(float)
        half = slice(w // 2, w)
        rows = []
        for label, values in (("Favourites won", season.favourite_score),
                              ("The rule's curve expected", season.favourite_expected),
                              ("Their true strengths gave", season.favourite_true)):
            rows.append([label, fmt_pct(100 * values[0]),
                         fmt_pct(100 * _weighted(values[half], g[half])),
                         fmt_pct(100 * _weighted(values, g))])
        return rows

    FAVOURITE_COLUMNS = ("Games won by the higher-rated player", "Week 1",
                         "Second half", "Whole season")

    def summary_html(self, season=None) -> str:
        """The season's summary: settings, spread and correlation, and the favourites table."""
        season = season or self.shown
        if season is None:
            return ""
        n = season.true_strength.size
        games = season.games_per_week * season.weeks
        rule_div = self.rule_divisor(season)
        true_text = (f"the rule's own ÷{rule_div:g}" if season.true_divisor == rule_div
                     else f"÷{season.true_divisor:g}")
        corr = season.correlation[-1]
        parts = [
            value_html("Season:", f"{season.rules.label}, {n:,} players, {season.weeks} weeks "
                       f"× {season.games_per_week} games (about {games:,} games each); "
                       f"true results follow {true_text}", css="ee-season"),
            value_html("Rating spread after the season:",
                       f"{season.spread[-1]:.0f} points (true strengths on this rule's "
                       f"scale: {self.true_spread_on_rule_scale(season):.0f})",
                       css="ee-spread"),
            value_html("Correlation of ratings with true strengths:",
                       "–" if not np.isfinite(corr) else f"{corr:.2f}", css="ee-corr"),
        ]
        table = table_html(self.FAVOURITE_COLUMNS, self.favourite_rows(season),
                           caption="How often the favourite won, and what was expected")
        return "<br>".join(parts) + table + self.key_html(season)

    def sample_key(self, season=None):
        """``(colour, name, true strength on the rule's scale)`` of each sample player."""
        season = season or self.shown
        theta = season.true_strength
        scale = self.rule_divisor(season) / season.true_divisor
        shown_true = season.ratings[0].mean() + (theta - theta.mean()) * scale
        return [(c, name, float(shown_true[i])) for c, name, i in
                zip(SAMPLE_COLOURS, SAMPLE_NAMES, self.sample_players(season))]

    def key_html(self, season=None) -> str:
        """The plot's key for the sample players (HTML: cheaper than a matplotlib legend)."""
        items = "".join(
            f'<span style="color:{c}; white-space:nowrap; margin-right:1.2em">&#9473;&#9473; '
            f"{html.escape(name)}, true {true:.0f}</span>"
            for c, name, true in self.sample_key(season))
        return (f'<div class="ee-key ee-note"><b>Ratings over the season</b> of five players '
                f"(solid; dotted: their true strength), the middle 80 % of all players (grey) "
                f"and the median (dashed):<br>{items}</div>")


    # ------------------------------------------------------------------ weekly swing
    def swing(self) -> simulate.WeeklySwing:
        """The weekly-swing experiment (cached per ``feedback``)."""
        self._check()
        key = bool(self.feedback)
        if key not in self._swings:
            self._swings[key] = simulate.weekly_swing(
                k=SWING_K, games_per_week=SWING_GAMES, players=SWING_WEEKS, feedback=key,
                seed=0)
        return self._swings[key]

    def swing_histograms(self):
        """Share of weeks in each 64-point bin of :data:`SWING_BINS` at :attr:`swing_games`,
        one array per K (the outermost bins also hold anything beyond them)."""
        sw = self.swing()  # checks the settings
        i = SWING_GAMES.index(self.swing_games)
        out = []
        for k in range(len(SWING_K)):
            counts, _ = np.histogram(np.clip(sw.change[k, i], SWING_BINS[0], SWING_BINS[-1]),
                                     bins=SWING_BINS)
            out.append(counts / counts.sum())
        return out

    SWING_COLUMNS = ("Games a week", "K 32: typical swing (SD)", "K 32: weeks moving ≥ 200",
                     "K 16: typical swing (SD)", "K 16: weeks moving ≥ 200")

    def swing_rows(self):
        """The table of the experiment: SD of the weekly change and share of big weeks."""
        sw = self.swing()
        sd = sw.std
        big = sw.share_beyond(200)
        return [[f"{g}", f"±{sd[0, i]:.0f}", fmt_pct(100 * big[0, i]), f"±{sd[1, i]:.0f}",
                 fmt_pct(100 * big[1, i])] for i, g in enumerate(SWING_GAMES)]

    def swing_rule_text(self) -> str:
        """The document's rule of thumb, K × games × shortfall, at 300 games a week."""
        sw = self.swing()
        i = SWING_GAMES.index(300)
        lo, hi = sw.rule_of_thumb(0.02)[:, i], sw.rule_of_thumb(0.03)[:, i]
        return (f"K × games × shortfall: at 300 games a week, a win rate 2 to 3 points below "
                f"the expected one costs 32 × 300 × 2 % = {lo[0]:.0f} to 32 × 300 × 3 % = "
                f"{hi[0]:.0f} points at K 32 (the document's “about 200”), "
                f"{lo[1]:.0f} to {hi[1]:.0f} at K 16.")

    SWING_INTRO = (
        "<h3>The weekly swing (Gammon42 document)</h3><div class='ee-note'>A player rated "
        "exactly at their true strength plays a week of ranked games against correctly rated "
        "opponents, cube 1, ÷1200. Every result is drawn at the expected rate, so all movement "
        "is luck: why Gammon42 halves K (32 → 16) for players with 50 or more games a week."
        "</div>")

    def swing_html(self) -> str:
        """The experiment's text and table (the intro, rule of thumb, table)."""
        self._check()
        i = SWING_GAMES.index(self.swing_games)
        sw = self.swing()
        big = sw.share_beyond(200)[:, i]
        mode = ("ratings move game by game (feedback pulls a drifting rating back)"
                if self.feedback else "every game rated from the week's starting rating")
        return (self.SWING_INTRO
                + f'<div class="ee-note">{html.escape(self.swing_rule_text())}</div>'
                + value_html(f"At {self.swing_games} games a week:",
                             f"{fmt_pct(100 * big[0])} of K 32 weeks and {fmt_pct(100 * big[1])} of K 16 "
                             f"weeks moved a rating by 200 or more ({SWING_WEEKS:,} simulated "
                             f"weeks each; {mode}).", css="ee-swing-now")
                + table_html(self.SWING_COLUMNS, self.swing_rows(),
                             caption="Luck alone: correctly rated players, one week",
                             highlight=i))


class LadderView:
    """The widgets of dashboard 9, linked to a :class:`LadderModel`; ``.root`` is shown."""

    def __init__(self, model: LadderModel | None = None):
        self.model = model = model or LadderModel()
        self.status = widgets.HTML()
        self.status.add_class("ee-error")
        self.status.add_class("ee-status")
        wide = {"description_width": "initial"}

        def slider(label, value, bounds, css, cls=widgets.IntSlider):
            w = cls(value=value, min=bounds[0], max=bounds[1], step=bounds[2],
                    description=label, style=wide, continuous_update=False,
                    layout=widgets.Layout(width="22em"))
            w.add_class(css)
            return w

        self.rule = widgets.Dropdown(options=RULES, value=model.rule, description="Rule set:",
                                     style=wide, layout=widgets.Layout(width="24em"))
        self.rule.add_class("ee-rule")
        self.true_curve = widgets.Dropdown(options=TRUE_CURVES,
                                           value="own" if model.true_divisor is None
                                           else model.true_divisor,
                                           description="True results follow:", style=wide,
                                           layout=widgets.Layout(width="24em"))
        self.true_curve.add_class("ee-true-curve")
        self.players = slider("Players", model.players, PLAYERS, "ee-players")
        self.games = slider("Games per week", model.games_per_week, GAMES_PER_WEEK, "ee-games")
        self.weeks = slider("Weeks", model.weeks, WEEKS, "ee-weeks")
        self.spread = slider("True strengths: SD", model.spread, SPREAD, "ee-spread-slider")
        self.seed = NumberField("Seed", model.seed, lo=SEED[0], hi=SEED[1], integer=True,
                                width="9em")
        self.seed.add_class("ee-seed")
        self.run = widgets.Button(description="Run", icon="play",
                                  tooltip="Simulate the chosen season",
                                  layout=widgets.Layout(width="7em"))
        self.run.add_class("ee-run")
        self.summary = widgets.HTML()
        self.summary.add_class("ee-summary")

        self._build_season_figure()
        self._build_swing_figure()
        self.swing_games = widgets.SelectionSlider(
            options=SWING_GAMES, value=model.swing_games, description="Games a week",
            style=wide, continuous_update=False, layout=widgets.Layout(width="26em"))
        self.swing_games.add_class("ee-swing-games")
        self.feedback = widgets.Checkbox(value=model.feedback, indent=False,
                                         description="Ratings move game by game (feedback)",
                                         layout=widgets.Layout(width="24em"))
        self.feedback.add_class("ee-feedback")
        self.swing_text = widgets.HTML()
        self.swing_text.add_class("ee-swing")

        guard = guarded(self.status)
        for w in (self.rule, self.true_curve, self.players, self.games, self.weeks, self.spread):
            w.observe(guard(self._on_setting), names="value")
        self.seed.on_change(guard(self._on_setting))
        self.run.on_click(guard(self._on_run))
        self.swing_games.observe(guard(self._on_swing), names="value")
        self.feedback.observe(guard(self._on_swing), names="value")

        controls = widgets.GridBox(
            [self.rule, self.true_curve, self.seed, self.players, self.games, self.weeks,
             self.spread, self.run],
            layout=widgets.Layout(grid_template_columns="25em 25em 25em",
                                  grid_gap="2px 10px", align_items="center"))
        self.root = app_root([
            controls,
            self.status,
            self.summary,
            self.season_view.out,
            self.swing_text,
            self.swing_games,
            self.feedback,
            self.swing_view.out,
        ])
        guard(self._initial)()

    # -------------------------------------------------------------- figures
    def _build_season_figure(self):
        self.season_view = FigureView(
            figsize=(10.5, 6.6),
            margins=dict(left=0.075, right=0.985, bottom=0.075, top=0.985, hspace=0.3,
                         wspace=0.2))
        fig = self.season_view.fig
        fig.delaxes(self.season_view.ax)
        axes = fig.subplot_mosaic([["ratings", "ratings"], ["spread", "favourite"]],
                                  height_ratios=[1.25, 1], gridspec_kw=self.season_view.margins)
        self.ax_r, self.ax_s, self.ax_f = axes["ratings"], axes["spread"], axes["favourite"]
        ax = self.ax_r
        self.band = ax.fill_between([0, 1], [0, 0], [0, 0], color="#bbbbbb", alpha=0.45,
                                    linewidth=0, label="10–90 % of all players")
        self.median, = ax.plot([], [], color="#555555", lw=1.2, ls="--", label="median rating")
        self.samples, self.trues = [], []
        for colour in SAMPLE_COLOURS:
            line, = ax.plot([], [], color=colour, lw=1.6)
            true, = ax.plot([], [], color=colour, lw=1.0, ls=":")
            self.samples.append(line)
            self.trues.append(true)
        ax.set_ylabel("Rating")
        ax.grid(alpha=0.3)
        ax = self.ax_s
        self.spread_line, = ax.plot([], [], color="#1f77b4", lw=1.8, label="rating spread (SD)")
        self.true_spread_line, = ax.plot([], [], color="#1f77b4", lw=1.0, ls=":",
                                         label="true strengths' SD, rule's scale")
        ax.set_xlabel("Week")
        ax.set_ylabel("Rating points")
        ax.grid(alpha=0.3)
        ax.legend(**LEGEND_ABOVE)
        ax = self.ax_f
        self.fav_actual, = ax.plot([], [], "o-", color="#333333", ms=3, lw=1,
                                   label="favourites won")
        self.fav_expected, = ax.plot([], [], color="#d62728", lw=1.8,
                                     label="curve expected")
        self.fav_true, = ax.plot([], [], color="#2ca02c", lw=1.2, ls="--",
                                 label="true strengths gave")
        ax.set_xlabel("Week")
        ax.set_ylabel("Favourite's score")
        ax.yaxis.set_major_formatter(lambda y, _: f"{100 * y:.0f} %")
        ax.grid(alpha=0.3)
        ax.legend(**LEGEND_ABOVE)

        self.season_view.dynamic(self.band, self.median, *self.samples, *self.trues,
                                 self.spread_line, self.true_spread_line, self.fav_actual,
                                 self.fav_expected, self.fav_true)
        # few ticks: text is most of the drawing time
        for a in (self.ax_r, self.ax_s, self.ax_f):
            a.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
            a.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10]))
        self.ax_f.yaxis.set_major_locator(MultipleLocator(0.1))

    def _build_swing_figure(self):
        self.swing_view = FigureView(
            figsize=(10.5, 3.6), ncols=2,
            margins=dict(left=0.075, right=0.985, bottom=0.17, top=0.91, wspace=0.22))
        ax, axh = self.swing_view.axes
        self.ax_w, self.ax_h = ax, axh
        self.swing_bands, self.swing_sd = [], []
        for k, colour in zip(SWING_K, ("#d62728", "#1f77b4")):
            band = ax.fill_between([0, 1], [0, 0], [0, 0], color=colour, alpha=0.18, linewidth=0,
                                   label=f"K {k}: 90 % of weeks")
            sd, = ax.plot([], [], color=colour, lw=1.8, marker="o", ms=3,
                          label=f"K {k}: ±1 SD")
            self.swing_bands.append(band)
            self.swing_sd.append(sd)
        self.swing_marker = ax.axvline(300, color="#555555", lw=1, ls=":")
        ax.axhline(0, color="#999999", lw=0.8)
        ax.set_xlabel("Ranked games in the week")
        ax.set_ylabel("Rating change over the week")
        ax.set_title("Weekly change from luck alone", fontsize=10)
        ax.set_xlim(0, 320)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8, ncols=2)
        self.hists = []
        for k, colour in zip(SWING_K, ("#d62728", "#1f77b4")):
            h = axh.stairs(np.zeros(SWING_BINS.size - 1), SWING_BINS, color=colour, lw=1.6,
                           label=f"K {k}")
            self.hists.append(h)
        axh.set_xlim(-1000, 1000)
        for a in (ax, axh):
            a.xaxis.set_major_locator(MaxNLocator(nbins=6))
            a.yaxis.set_major_locator(MaxNLocator(nbins=5))
        axh.set_xlabel("Rating change over the week")
        axh.set_ylabel("Share of weeks (per 64 points)")
        axh.yaxis.set_major_formatter(lambda y, _: f"{100 * y:.0f} %")
        axh.grid(alpha=0.3)
        axh.legend(loc="upper right", fontsize=8)
        self.title_h = axh.set_title("", fontsize=10)
        self.swing_view.dynamic(*self.swing_bands, *self.swing_sd, self.swing_marker,
                                *self.hists, self.title_h)

    # -------------------------------------------------------------- callbacks
    def _initial(self):
        self._on_setting()
        self._on_swing()

    def _read(self):
        m = self.model
        m.rule = self.rule.value
        m.true_divisor = None if self.true_curve.value == "own" else self.true_curve.value
        m.players = int(self.players.value)
        m.games_per_week = int(self.games.value)
        m.weeks = int(self.weeks.value)
        m.spread = int(self.spread.value)
        m.seed = int(self.seed.value)

    def _on_setting(self, change=None):
        self._read()
        m = self.model
        if m.mode == "auto":
            m.season()
            self.draw_season()
        self._show_mode()

    def _on_run(self, _button=None):
        self._read()
        if self.model.mode == "too big":
            self._show_mode()
            return
        self.model.season(run=True)
        self.draw_season()
        self._show_mode()

    def _show_mode(self):
        m = self.model
        mode = "done" if m.up_to_date else m.mode
        self.run.disabled = mode in ("too big", "done", "auto")
        self.run.button_style = "warning" if mode == "run" else ""
        message = "" if mode == "done" else m.mode_message()
        self.summary.value = (TEXT_STYLE + (f'<div class="ee-run-message">{html.escape(message)}'
                                            "</div>" if message else "")
                              + (m.summary_html() if m.shown is not None else ""))

    def _on_swing(self, change=None):
        m = self.model
        m.swing_games = self.swing_games.value
        m.feedback = bool(self.feedback.value)
        self.draw_swing()

    # -------------------------------------------------------------- drawing
    def draw_season(self):
        """Mutate the season figure's artists from the model's shown season."""
        m = self.model
        season = m.shown
        weeks = np.arange(season.weeks + 1)
        p10, p50, p90 = m.band(season)
        verts = np.concatenate([np.column_stack([weeks, p10]),
                                np.column_stack([weeks[::-1], p90[::-1]])])
        self.band.set_verts([verts])
        self.median.set_data(weeks, p50)
        idx = m.sample_players(season)
        # true strengths on the rule's scale, centred like the ratings
        shown_true = np.zeros(season.true_strength.size)
        shown_true[idx] = [t for _, _, t in m.sample_key(season)]
        for line, true, i in zip(self.samples, self.trues, idx):
            line.set_data(weeks, season.ratings[:, i])
            true.set_data([0, season.weeks], [shown_true[i], shown_true[i]])
        # limits from the settings (true strengths: 1500 ± 2.2 SD on the rule's scale), widened
        # in whole hundreds only if the ratings go further: neighbouring settings keep the
        # axes, so only the data is redrawn (FigureView.dynamic)
        half = max(150.0, 2.2 * m.true_spread_on_rule_scale(season))
        start = float(season.ratings[0].mean())
        lo = min(start - half, p10.min(), season.ratings[:, idx].min())
        hi = max(start + half, p90.max(), season.ratings[:, idx].max())
        self.ax_r.set_ylim(math.floor(lo / 100) * 100, math.ceil(hi / 100) * 100)
        self.ax_r.set_xlim(0, max(1, season.weeks))
        self.spread_line.set_data(weeks, season.spread)
        ts = m.true_spread_on_rule_scale(season)
        self.true_spread_line.set_data([0, season.weeks], [ts, ts])
        self.ax_s.set_xlim(0, max(1, season.weeks))
        top = max(50.0, 1.5 * ts, 1.1 * float(season.spread.max()))
        self.ax_s.set_ylim(0, math.ceil(top / 50) * 50)
        fw = np.arange(1, season.weeks + 1)
        self.fav_actual.set_data(fw, season.favourite_score)
        self.fav_expected.set_data(fw, season.favourite_expected)
        self.fav_true.set_data(fw, season.favourite_true)
        vals = np.concatenate([season.favourite_score, season.favourite_expected,
                               season.favourite_true])
        vals = vals[np.isfinite(vals)]
        lo, hi = (0.5, 0.5) if vals.size == 0 else (vals.min(), vals.max())
        self.ax_f.set_ylim(min(0.4, math.floor(lo * 10) / 10), max(0.8, math.ceil(hi * 10) / 10))
        self.ax_f.set_xlim(0.5, max(1.5, season.weeks + 0.5))
        self.season_view.refresh()

    def draw_swing(self):
        """Mutate the weekly-swing figure from the model's experiment."""
        m = self.model
        sw = m.swing()
        g = np.asarray(SWING_GAMES, dtype=float)
        q05, q95 = sw.quantile([0.05, 0.95])
        sd = sw.std
        for k in range(len(SWING_K)):
            verts = np.concatenate([np.column_stack([g, q05[k]]),
                                    np.column_stack([g[::-1], q95[k][::-1]])])
            self.swing_bands[k].set_verts([verts])
            self.swing_sd[k].set_data(np.concatenate([g, [np.nan], g]),
                                      np.concatenate([sd[k], [np.nan], -sd[k]]))
        top = float(np.abs(np.concatenate([q05.ravel(), q95.ravel()])).max()) * 1.15
        self.ax_w.set_ylim(-top, top * 1.45)
        self.swing_marker.set_xdata([m.swing_games, m.swing_games])
        dens = m.swing_histograms()
        for h, d in zip(self.hists, dens):
            h.set_data(d, SWING_BINS)
        self.ax_h.set_ylim(0, math.ceil(max(float(np.max(dens)) * 1.1, 0.01) * 10) / 10)
        self.title_h.set_text(f"Weekly changes at {m.swing_games} games a week")
        self.swing_text.value = TEXT_STYLE + m.swing_html()
        self.swing_view.refresh()


def ladder_dashboard() -> widgets.VBox:
    """The root widget of dashboard 9 (what the notebook's last cell returns)."""
    return LadderView().root
