"""Dashboard 9, *Simulate a ladder*: a season under each rule set, and the weekly swing.

:class:`LadderModel` simulates a season (:func:`elo_explain.simulate.simulate_season`) and the
weekly-swing experiment (:func:`elo_explain.simulate.weekly_swing`); :class:`LadderView`
shows ratings over the season, the spread, the favourites' score against the expected one,
and the swing. A season costs about players x games per week x weeks:
:meth:`LadderModel.estimated_seconds` predicts it; up to :data:`AUTO_SECONDS` it runs on
every change, up to :data:`MAX_SECONDS` it waits for the Run button, beyond it is refused.
Seasons are cached, and fewer weeks are the start of a longer season (:func:`first_weeks`).
The season shown is a trait (:attr:`LadderModel.shown`): a run -- automatic or the Run
button -- is an ordinary change, which the notebook's tables and the view's plots follow.
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections import OrderedDict
from functools import lru_cache

import ipywidgets as widgets
import numpy as np
import traitlets
from matplotlib.ticker import MaxNLocator, MultipleLocator

from elo_explain import simulate
from elo_explain.formats import fmt_number, fmt_pct, fmt_plain
from elo_explain.i18n import N_, _, ngettext
from elo_explain.interactive.figures import FigureView, update_limits
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box, value_html
from elo_explain.interactive.traits import Choice, Whole
from elo_explain.interactive.view import DashboardView
from elo_explain.rounding import round_half_away
from elo_explain.tables import Table

__all__ = ["LadderModel", "LadderView", "first_weeks", "AUTO_SECONDS", "MAX_SECONDS", "SWING_GAMES"]

DEFAULT_RULES = "Gammon42 1.3.1 (÷1200, volume K)"
#: The game's true curve: the rule's own, or a divisor.
TRUE_CURVES = (
    (N_("the rule's own curve"), "own"),
    (N_("÷400 (chess-like)"), "400"),
    ("÷800", "800"),
    (N_("÷1200 (Gammon42 1.3.1)"), "1200"),
    (N_("÷2000 (FIBS, one-point matches)"), "2000"),
)
#: The rule sets' names (:data:`elo_explain.simulate.RULE_SETS`' keys, the link's values).
RULE_NAMES = {
    N_("FIDE (table, 400 cap, K 20)"),
    N_("FIDE (formula, no cap, K 20)"),
    N_("Elo per game (K 20, ÷400)"),
    N_("Gammon42 1.0.5 (÷400)"),
    N_("Gammon42 1.2.0 (÷800)"),
    N_("Gammon42 1.3.1 (÷1200, volume K)"),
    N_("FIBS (1-point matches)"),
    N_("Lichess Glicko-2"),
}
#: Settings estimated to take at most this long run on every change (seconds).
AUTO_SECONDS = 0.25
#: Settings estimated to take longer than this are refused.
MAX_SECONDS = 3.0
#: Cost of one round of games, ms: (fixed, per player); about twice the CPU time measured on
#: the project's 2-CPU machine (100 and 1,000 players, 100 rounds), to cover a busy server.
ROUND_COST_MS = {
    simulate.FideElo: (0.1, 0.0003),
    simulate.Elo: (0.25, 0.0003),
    simulate.Gammon42: (1.0, 0.001),
    simulate.Fibs: (0.6, 0.0003),
    simulate.LichessGlicko2: (1.4, 0.0012),
}
#: The weekly-swing experiment: games a week, the two K, simulated weeks per cell.
SWING_GAMES = (20, 50, 100, 150, 200, 250, 300)
SWING_K = simulate.SWING_KS
SWING_WEEKS = simulate.SWING_WEEKS
#: Histogram bins 64 points wide centred on multiples of 64: a week's change at K 32 is a
#: multiple of 32 (K 16: 16), so every bin holds as many possible values (no comb pattern).
SWING_BINS = np.arange(-1248.0, 1249.0, 64.0)
#: The sample players: quantiles of the true strengths, names and colours.
SAMPLE_QUANTILES = (0.95, 0.75, 0.5, 0.25, 0.05)
SAMPLE_NAMES = (
    N_("strong (top 5 %)"),
    N_("good (top 25 %)"),
    N_("median"),
    N_("weak (bottom 25 %)"),
    N_("weakest (bottom 5 %)"),
)
SAMPLE_COLOURS = ("#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd")
LEGEND_ABOVE = dict(
    loc="lower left",
    bbox_to_anchor=(0, 1.01),
    ncols=3,
    fontsize=8,
    frameon=False,
    borderaxespad=0,
    handlelength=1.6,
    columnspacing=1.0,
)


def _legend_above(ax):
    """:data:`LEGEND_ABOVE`, in as many columns (3, 2 or 1) as fit above ``ax``: a
    translated legend may be longer than the English one (Greek ran past the figure)."""
    renderer = ax.figure.canvas.get_renderer()
    width = ax.get_window_extent(renderer).width
    for ncols in (3, 2, 1):
        legend = ax.legend(**{**LEGEND_ABOVE, "ncols": ncols})
        if legend.get_window_extent(renderer).width <= width:
            break
    return legend


STYLE = (
    "<style>.ee-summary .widget-html-content, .ee-swing .widget-html-content "
    "{line-height: 1.4;} .ee-run-message {background: #fff3c4; padding: 2px 6px; "
    "font-weight: 600;}</style>"
)


def first_weeks(season: simulate.Season, weeks: int) -> simulate.Season:
    """The first ``weeks`` weeks of ``season``: the same numbers a shorter run gives (the
    strengths are drawn first, then each week in order); ``games_played`` is scaled.

    >>> long = simulate.simulate_season(simulate.Elo(), players=20, weeks=6, games_per_week=2)
    >>> short = simulate.simulate_season(simulate.Elo(), players=20, weeks=4, games_per_week=2)
    >>> bool(np.array_equal(first_weeks(long, 4).ratings, short.ratings))
    True
    """
    if not 1 <= weeks <= season.weeks:
        raise ValueError(f"weeks must be from 1 to {season.weeks}, got {weeks!r}")
    if weeks == season.weeks:
        return season
    cut = {
        name: getattr(season, name)[: weeks + 1]
        for name in ("ratings", "spread", "correlation", "rd")
        if getattr(season, name) is not None
    }
    for name in ("favourite_games", "favourite_score", "favourite_expected", "favourite_true"):
        cut[name] = getattr(season, name)[:weeks]
    cut["games_played"] = np.rint(season.games_played * weeks / season.weeks).astype(np.int64)
    return dataclasses.replace(season, **cut)


def _weighted(values: np.ndarray, weights: np.ndarray) -> float:
    ok = np.isfinite(values) & (weights > 0)
    return float(np.average(values[ok], weights=weights[ok])) if ok.any() else float("nan")


@lru_cache(maxsize=2)
def _swing(feedback: bool) -> simulate.WeeklySwing:
    return simulate.luck_only_weeks(feedback).select(SWING_GAMES)  # the same run as 05's


#: The traits a season is simulated from (:meth:`LadderModel.settings`).
SETTINGS = ("rules", "players", "games_per_week", "spread", "seed", "true_curve", "weeks")


class LadderModel(DashboardModel):
    """A season's settings and numbers, and the weekly-swing experiment.

    >>> m = LadderModel()                           # small: simulated at once
    >>> m.mode, m.shown.ratings.shape, m.up_to_date  # 20 weeks + the start, 100 players
    ('auto', (21, 100), True)
    >>> m.apply({"players": 1000, "games_per_week": 50, "weeks": 104})
    >>> m.mode, m.up_to_date                         # refused: the last season stays shown
    ('too big', False)
    """

    params = (
        "rules",
        "true_curve",
        "players",
        "games_per_week",
        "weeks",
        "spread",
        "seed",
        "swing_games",
        "feedback",
    )
    rules = Choice(DEFAULT_RULES, simulate.RULE_SETS, label=N_("Rule set"))
    true_curve = Choice("own", [key for _, key in TRUE_CURVES], label=N_("True curve"))
    players = Whole(100, 10, 1000, label=N_("Players"))
    games_per_week = Whole(5, 1, 50, label=N_("Games per week"))
    weeks = Whole(20, 1, 104, label=N_("Weeks"))
    spread = Whole(200, 0, 400, label=N_("True strengths: SD"))
    seed = Whole(1, 0, 99_999, label=N_("Seed"))
    swing_games = Choice(300, SWING_GAMES, label=N_("Games a week (swing)"))
    feedback = traitlets.Bool(False).tag(label=N_("Ratings move game by game (feedback)"))
    shown = traitlets.Instance(simulate.Season, allow_none=True)
    """The season shown (the last one simulated), ``None`` before any."""
    shown_settings = traitlets.Tuple(default_value=None, allow_none=True)
    """The :meth:`settings` of :attr:`shown`."""

    def __init__(self, **kw):
        self._seasons: OrderedDict = OrderedDict()
        super().__init__(**kw)
        if self.mode == "auto":
            self.season()

    def settle(self, names: frozenset) -> None:
        """New settings that run on every change (:attr:`mode` ``'auto'``) are simulated
        at once, in the same change."""
        if names & set(SETTINGS) and self.mode == "auto":
            self.season()

    def settings(self) -> tuple:
        """The season's settings (the cache key, then the weeks)."""
        return (
            self.rules,
            self.players,
            self.games_per_week,
            self.spread,
            self.seed,
            self.true_curve,
            self.weeks,
        )

    def _cached(self):
        season = self._seasons.get(self.settings()[:-1])
        return season if season is not None and season.weeks >= self.weeks else None

    def estimated_seconds(self) -> float:
        """Predicted time to simulate the season (0 when it is cached).

        >>> m = LadderModel(rules="Lichess Glicko-2", players=1000, games_per_week=50, weeks=52)
        >>> round(m.estimated_seconds(), 1)             # 2,600 rounds x (1.4 + 1.2) ms
        6.8
        """
        if self._cached() is not None:
            return 0.0
        fixed, per_player = ROUND_COST_MS[type(simulate.RULE_SETS[self.rules])]
        return self.games_per_week * self.weeks * (fixed + per_player * self.players) / 1000

    @property
    def mode(self) -> str:
        """``'auto'`` (runs on a change), ``'run'`` (waits for Run) or ``'too big'``."""
        t = self.estimated_seconds()
        return "auto" if t <= AUTO_SECONDS else "run" if t <= MAX_SECONDS else "too big"

    def mode_message(self) -> str:
        """What to tell the reader about running the current settings (``''`` if automatic)."""
        t, mode = self.estimated_seconds(), self.mode
        if mode == "run":
            return _(
                "These settings take about {seconds} s: press Run to simulate them "
                "(the plots still show the last run)."
            ).format(seconds=fmt_number(t, 1))
        return (
            ""
            if mode == "auto"
            else _(
                "Too big: about {seconds} s. Keep players × games per week × weeks smaller "
                "(at most about {limit} s of simulation)."
            ).format(seconds=fmt_number(t, 0), limit=fmt_plain(MAX_SECONDS))
        )

    def season(self, *, run: bool = False) -> simulate.Season:
        """The season for the current settings, simulated if needed: without ``run`` only in
        :attr:`mode` ``'auto'`` (or cached), with it also ``'run'``; else ``ValueError``."""
        if self.up_to_date:
            return self.shown
        cached = self._cached()
        if cached is None:
            if self.mode == "too big" or (self.mode == "run" and not run):
                raise ValueError(self.mode_message())
            cached = simulate.simulate_season(
                simulate.RULE_SETS[self.rules],
                players=self.players,
                weeks=self.weeks,
                games_per_week=self.games_per_week,
                spread=float(self.spread),
                true_divisor=None if self.true_curve == "own" else float(self.true_curve),
                seed=self.seed,
            )
            self._seasons[self.settings()[:-1]] = cached
            while len(self._seasons) > 6:
                self._seasons.popitem(last=False)
        with self.batch():  # one change: the season and its settings
            self.shown, self.shown_settings = first_weeks(cached, self.weeks), self.settings()
        return self.shown

    @property
    def up_to_date(self) -> bool:
        """Whether the shown season has the current settings."""
        return self.shown is not None and self.shown_settings == self.settings()

    def true_spread_on_rule_scale(self, season=None) -> float:
        """SD of the true strengths in the rule's points: ratings settle where the rule's curve
        reproduces the results, so a true curve ÷T seen through a rule ÷D stretches by D / T."""
        season = season or self.shown
        return float(season.true_strength.std() * season.rules.divisor / season.true_divisor)

    def sample_players(self, season=None):
        """``(indices, true strengths)`` of the players at :data:`SAMPLE_QUANTILES` of the
        true strengths, on the rule's scale and centred like the ratings."""
        s = season or self.shown
        order = np.argsort(s.true_strength)
        idx = order[np.round(np.array(SAMPLE_QUANTILES) * (order.size - 1)).astype(int)]
        theta = s.true_strength[idx] - s.true_strength.mean()
        return idx, s.ratings[0].mean() + theta * s.rules.divisor / s.true_divisor

    @depends("shown")
    def season_table(self, season=None) -> Table:
        """A season's summary numbers (default: the season shown, simulated if none is)."""
        s = season or self.shown or self.season(run=True)
        return Table(
            (
                _("Players"),
                _("Weeks"),
                _("Games per week"),
                _("Mean rating"),
                _("Rating spread (SD)"),
                _("True strengths' SD, rule's scale"),
                _("Correlation with true strengths"),
            ),
            [
                (
                    s.true_strength.size,
                    s.weeks,
                    s.games_per_week,
                    float(s.ratings[-1].mean()),
                    float(s.spread[-1]),
                    self.true_spread_on_rule_scale(s),
                    float(s.correlation[-1]),
                )
            ],
            ngettext("{rules} after {weeks} week", "{rules} after {weeks} weeks", s.weeks).format(
                rules=rule_label(s.rules), weeks=fmt_plain(s.weeks)
            ),
            ("{:,}", None, None, "{:.0f}", "{:.0f}", "{:.0f}", fmt_number),
        )

    @depends("shown")
    def favourite_table(self, season=None) -> Table:
        """How often the favourite (the higher-rated player) won, against what was expected."""
        s = season or self.shown or self.season(run=True)
        g, half = s.favourite_games.astype(float), slice(s.weeks // 2, s.weeks)
        rows = [
            (
                label,
                100 * values[0],
                100 * _weighted(values[half], g[half]),
                100 * _weighted(values, g),
            )
            for label, values in (
                (_("Favourites won"), s.favourite_score),
                (_("The rule's curve expected"), s.favourite_expected),
                (_("Their true strengths gave"), s.favourite_true),
            )
        ]
        return Table(
            (
                _("Games won by the higher-rated player"),
                _("Week 1"),
                _("Second half"),
                _("Whole season"),
            ),
            rows,
            _("How often the favourite won, and what was expected"),
            (None, fmt_pct, fmt_pct, fmt_pct),
        )

    def swing(self) -> simulate.WeeklySwing:
        """The weekly-swing experiment (with or without :attr:`feedback`)."""
        return _swing(bool(self.feedback))

    @depends("swing_games", "feedback")
    def swing_histograms(self) -> list:
        """Share of weeks per :data:`SWING_BINS` bin at :attr:`swing_games`, one per K (the
        outermost bins hold anything beyond them)."""
        change = self.swing().change[:, SWING_GAMES.index(self.swing_games)]
        counts = [
            np.histogram(np.clip(c, SWING_BINS[0], SWING_BINS[-1]), SWING_BINS)[0] for c in change
        ]
        return [c / c.sum() for c in counts]

    @depends("feedback")
    def swing_table(self) -> Table:
        """Typical weekly change (SD) and share of weeks moving 200 or more, by games a week."""
        sd, big = self.swing().std, 100 * self.swing().share_beyond(200)
        return Table(
            (
                _("Games a week"),
                _("K 32: typical swing (SD)"),
                _("K 32: weeks moving ≥ 200"),
                _("K 16: typical swing (SD)"),
                _("K 16: weeks moving ≥ 200"),
            ),
            [(g, sd[0, i], big[0, i], sd[1, i], big[1, i]) for i, g in enumerate(SWING_GAMES)],
            _("Luck alone: correctly rated players, one week"),
            (None, "±{:.0f}", fmt_pct, "±{:.0f}", fmt_pct),
        )

    @depends("swing_games", "feedback")
    def rule_of_thumb_table(self) -> Table:
        """The document's K × games × shortfall at :attr:`swing_games` games a week."""
        i = SWING_GAMES.index(self.swing_games)
        low, high = (self.swing().rule_of_thumb(s)[:, i] for s in (0.02, 0.03))
        return Table(
            ("K", _("Games a week"), _("2 points short"), _("3 points short")),
            [(k, self.swing_games, float(a), float(b)) for k, a, b in zip(SWING_K, low, high)],
            _("A week's loss: K × games × shortfall"),
            (None, None, "{:.0f}", "{:.0f}"),
        )


def rule_label(rules: simulate.RuleSet) -> str:
    """A rule set's short description (its ``label``) in the page's language."""
    if isinstance(rules, simulate.FideElo):
        k = _("K by rule 8.3.3") if rules.k == "fide" else f"K {fmt_plain(rules.k)}"
        return _("FIDE {k}, {how}, {cap}").format(
            k=k,
            how=_("table") if rules.use_table else _("formula"),
            cap=_("400 cap") if rules.cap_400 else _("no cap"),
        )
    if isinstance(rules, simulate.Fibs):
        # TRANSLATORS: English has one form; a language whose "{length}-point" declines has more.
        return ngettext(
            "FIBS {length}-point matches", "FIBS {length}-point matches", rules.match_length
        ).format(length=fmt_plain(rules.match_length))
    if isinstance(rules, simulate.LichessGlicko2):
        return f"Lichess Glicko-2 (τ {fmt_plain(rules.config.tau)})"
    if isinstance(rules, simulate.Gammon42):
        return f"Gammon42 {rules.version} (÷{fmt_plain(rules.divisor)})"
    return f"Elo K {fmt_plain(rules.k)} ÷{fmt_plain(rules.divisor)}"


class LadderView(DashboardView):
    """Season settings, Run, the season's summary and plots; the weekly swing below."""

    docked = ("rules", "players", "swing_games", "feedback")
    key_target = "ee-summary"

    def build(self):
        m = self.model
        self.rule = self.dropdown(
            "rules",
            tuple((_(name), name) for name in simulate.RULE_SETS),
            label=_("Rule set:"),
            width="24em",
        )
        self.true_curve = self.dropdown(
            "true_curve",
            tuple((_(t), key) for t, key in TRUE_CURVES),
            label=_("True results follow:"),
            width="24em",
        )
        self.seed = self.number("seed", width="9em")
        sliders = dict(width="28em", label_width="11em")
        self.players = self.slider("players", step=10, **sliders)
        self.games = self.slider("games_per_week", **sliders)
        self.weeks = self.slider("weeks", **sliders)
        self.spread = self.slider("spread", step=10, **sliders)
        self.run = widgets.Button(
            description=_("Run"),
            icon="play",
            layout={"width": "7em"},
            tooltip=_("Simulate the chosen season"),
        )
        self.run.add_class("ee-run")
        self.run.on_click(self.guard(self._run))
        self.summary = html_box("ee-summary", width="auto")
        self.swing_games = widgets.SelectionSlider(
            options=SWING_GAMES,
            value=m.swing_games,
            description=_("Weekly swing: games a week"),
            style={"description_width": "initial"},
            continuous_update=False,
            layout={"width": "32em"},
        )
        widgets.link((m, "swing_games"), (self.swing_games, "value"))
        self.swing_games.add_class("ee-swing-games")
        self.controls["swing_games"] = self.swing_games
        self.feedback = self.checkbox("feedback", label=_("Ratings move game by game (feedback)"))
        self.swing_text = html_box("ee-swing", width="auto")
        self._build_season_figure()
        self._build_swing_figure()
        return [
            widgets.HBox([self.rule, self.true_curve, self.seed]),
            widgets.GridBox(
                [self.players, self.games, self.weeks, self.spread],
                layout={"grid_template_columns": "37em 37em"},
            ),
            self.run,
            self.summary,
            self.season_view.out,
            self.swing_games,
            self.feedback,
            self.swing_text,
            self.swing_view.out,
        ]

    def _build_season_figure(self):
        self.season_view = view = FigureView(
            figsize=(10.5, 6.6),
            margins=dict(left=0.075, right=0.985, bottom=0.075, top=0.985, hspace=0.3, wspace=0.2),
        )
        view.fig.delaxes(view.ax)
        axes = view.fig.subplot_mosaic(
            [["ratings", "ratings"], ["spread", "favourite"]],
            height_ratios=[1.25, 1],
            gridspec_kw=view.margins,
        )
        self.ax_r, self.ax_s, self.ax_f = ax, axs, axf = [
            axes[k] for k in ("ratings", "spread", "favourite")
        ]
        self.band = ax.fill_between(
            [0, 1], [0, 0], [0, 0], color="#bbbbbb", alpha=0.45, linewidth=0
        )
        (self.median,) = ax.plot([], [], color="#555555", lw=1.2, ls="--")
        self.samples = [ax.plot([], [], color=c, lw=1.6)[0] for c in SAMPLE_COLOURS]
        self.trues = [ax.plot([], [], color=c, lw=1.0, ls=":")[0] for c in SAMPLE_COLOURS]
        ax.set_ylabel(_("Rating"))
        (self.spread_line,) = axs.plot(
            [], [], color="#1f77b4", lw=1.8, label=_("rating spread (SD)")
        )
        (self.true_spread_line,) = axs.plot(
            [], [], color="#1f77b4", lw=1.0, ls=":", label=_("true strengths' SD, rule's scale")
        )
        axs.set_ylabel(_("Rating points"))
        (self.fav_actual,) = axf.plot(
            [], [], "o-", color="#333333", ms=3, lw=1, label=_("favourites won")
        )
        (self.fav_expected,) = axf.plot([], [], color="#d62728", lw=1.8, label=_("curve expected"))
        (self.fav_true,) = axf.plot(
            [], [], color="#2ca02c", lw=1.2, ls="--", label=_("true strengths gave")
        )
        axf.set_ylabel(_("Favourite's score"))
        axf.yaxis.set_major_formatter(lambda y, _pos: fmt_pct(100 * y, 0))
        for a in (axs, axf):
            a.set_xlabel(_("Week"))
            _legend_above(a)
        for a in (ax, axs, axf):  # few ticks: text is most of the drawing time
            a.grid(alpha=0.3)
            a.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
            a.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10]))
        axf.yaxis.set_major_locator(MultipleLocator(0.1))
        view.dynamic(
            self.band,
            self.median,
            *self.samples,
            *self.trues,
            self.spread_line,
            self.true_spread_line,
            self.fav_actual,
            self.fav_expected,
            self.fav_true,
        )

    def _build_swing_figure(self):
        self.swing_view = view = FigureView(
            figsize=(10.5, 3.6),
            ncols=2,
            margins=dict(left=0.075, right=0.985, bottom=0.17, top=0.91, wspace=0.22),
        )
        self.ax_w, self.ax_h = ax, axh = view.axes
        self.swing_bands, self.swing_sd, self.hists = [], [], []
        for k, colour in zip(SWING_K, ("#d62728", "#1f77b4")):
            self.swing_bands.append(
                ax.fill_between(
                    [0, 1],
                    [0, 0],
                    [0, 0],
                    color=colour,
                    alpha=0.18,
                    linewidth=0,
                    label=_("K {k}: 90 % of weeks").format(k=k),
                )
            )
            self.swing_sd.append(
                ax.plot(
                    [],
                    [],
                    color=colour,
                    lw=1.8,
                    marker="o",
                    ms=3,
                    label=_("K {k}: ±1 SD").format(k=k),
                )[0]
            )
            self.hists.append(
                axh.stairs(
                    np.zeros(SWING_BINS.size - 1), SWING_BINS, color=colour, lw=1.6, label=f"K {k}"
                )
            )
        self.swing_marker = ax.axvline(300, color="#555555", lw=1, ls=":")
        ax.axhline(0, color="#999999", lw=0.8)
        ax.set(
            xlabel=_("Ranked games in the week"),
            ylabel=_("Rating change over the week"),
            xlim=(0, 320),
        )
        ax.set_title(_("Weekly change from luck alone"), fontsize=10)
        ax.legend(loc="upper left", fontsize=8, ncols=2)
        axh.set(
            xlim=(-1000, 1000),
            xlabel=_("Rating change over the week"),
            ylabel=_("Share of weeks (per 64 points)"),
        )
        axh.yaxis.set_major_formatter(lambda y, _pos: fmt_pct(100 * y, 0))
        axh.legend(loc="upper right", fontsize=8)
        for a in (ax, axh):
            a.grid(alpha=0.3)
            a.xaxis.set_major_locator(MaxNLocator(nbins=6))
            a.yaxis.set_major_locator(MaxNLocator(nbins=5))
        self.title_h = axh.set_title("", fontsize=10)
        view.dynamic(
            *self.swing_bands, *self.swing_sd, self.swing_marker, *self.hists, self.title_h
        )

    def _run(self, _button=None):
        self.model.season(run=True)  # a new season shown: an ordinary change

    def linked(self) -> None:
        """A link's settings are simulated even when they would wait for Run: the link
        reproduces the page it was made from (refused settings stay refused)."""
        if self.model.mode == "run":
            self.model.season(run=True)

    # ------------------------------------------------------------------ rendering
    @depends("shown")
    def draw_season(self):
        if self.model.shown is not None:
            self._draw_season(self.model.shown)

    @depends(*SETTINGS, "shown")
    def show_season(self):
        """The Run button's state, the run message and the season's summary."""
        m = self.model
        mode = "done" if m.up_to_date else m.mode
        self.run.disabled = mode in ("too big", "done", "auto")
        self.run.button_style = "warning" if mode == "run" else ""
        message = "" if mode == "done" else m.mode_message()
        self.summary.value = (
            STYLE
            + (f'<div class="ee-run-message">{html.escape(message)}</div>' if message else "")
            + (self._summary(m.shown) if m.shown is not None else "")
        )

    def _summary(self, s) -> str:
        m = self.model
        divisor = fmt_plain(s.true_divisor)
        true_text = (
            _("true results follow the rule's own ÷{divisor}")
            if s.true_divisor == s.rules.divisor
            else _("true results follow ÷{divisor}")
        ).format(divisor=divisor)
        corr = s.correlation[-1]
        key = "".join(
            f'<span style="color:{c}; white-space:nowrap; margin-right:1.2em">'
            "&#9473;&#9473; "
            + html.escape(
                _("{player}, true {strength}").format(player=_(name), strength=fmt_number(t, 0))
            )
            + "</span>"
            for c, name, t in zip(SAMPLE_COLOURS, SAMPLE_NAMES, m.sample_players(s)[1])
        )
        games = s.games_per_week * s.weeks
        won, expected, true = (row[3] for row in m.favourite_table(s).rows)
        key_text = html.escape(
            _(
                "of five players (solid; dotted: their true strength), the "
                "middle 80 % of all players (grey) and the median (dashed):"
            ),
            quote=False,
        )
        return "<br>".join(
            [
                value_html(
                    _("Season:"),
                    _(
                        "{rules}, {players} players, {weeks} weeks × {games} games (about {total} games "
                        "each); {true}"
                    ).format(
                        rules=rule_label(s.rules),
                        players=fmt_number(s.true_strength.size, 0, grouping=True),
                        weeks=fmt_plain(s.weeks),
                        games=fmt_plain(s.games_per_week),
                        total=fmt_number(games, 0, grouping=True),
                        true=true_text,
                    ),
                    css="ee-season",
                ),
                value_html(
                    _("Rating spread after the season:"),
                    ngettext(
                        "{spread} point (true strengths on this rule's scale: {true})",
                        "{spread} points (true strengths on this rule's scale: {true})",
                        round_half_away(float(s.spread[-1])),
                    ).format(
                        spread=fmt_number(s.spread[-1], 0),
                        true=fmt_number(m.true_spread_on_rule_scale(s), 0),
                    ),
                    css="ee-final-spread",
                ),
                value_html(
                    _("Correlation of ratings with true strengths:"),
                    fmt_number(corr),
                    css="ee-corr",
                ),
                value_html(
                    _("Favourites won:"),
                    _(
                        "{won} of their games over the season (the rule's curve expected {expected}, "
                        "their true strengths gave {true})"
                    ).format(won=fmt_pct(won), expected=fmt_pct(expected), true=fmt_pct(true)),
                    css="ee-favourites",
                ),
            ]
        ) + (
            '<div class="ee-key ee-note"><b>'
            + html.escape(_("Ratings over the season"))
            + f"</b> {key_text}<br>{key}</div>"
        )

    def _draw_season(self, s):
        m, weeks, fw = self.model, np.arange(s.weeks + 1), np.arange(1, s.weeks + 1)
        p10, p50, p90 = np.percentile(s.ratings, [10, 50, 90], axis=1)
        self.band.set_verts(
            [
                np.concatenate(
                    [np.column_stack([weeks, p10]), np.column_stack([weeks[::-1], p90[::-1]])]
                )
            ]
        )
        self.median.set_data(weeks, p50)
        idx, true = m.sample_players(s)
        for line, dotted, i, t in zip(self.samples, self.trues, idx, true):
            line.set_data(weeks, s.ratings[:, i])
            dotted.set_data([0, s.weeks], [t, t])
        # limits from the settings (1500 ± 2.2 true SD), in whole hundreds unless the ratings
        # go further: neighbouring settings keep the axes, so only the data is drawn again
        ts = m.true_spread_on_rule_scale(s)
        half, start = max(150.0, 2.2 * ts), float(s.ratings[0].mean())
        lo = min(start - half, p10.min(), s.ratings[:, idx].min())
        hi = max(start + half, p90.max(), s.ratings[:, idx].max())
        update_limits(
            self.ax_r,
            x=(0, max(1, s.weeks)),
            y=(math.floor(lo / 100) * 100, math.ceil(hi / 100) * 100),
        )
        self.spread_line.set_data(weeks, s.spread)
        self.true_spread_line.set_data([0, s.weeks], [ts, ts])
        top = max(50.0, 1.5 * ts, 1.1 * float(s.spread.max()))
        update_limits(self.ax_s, x=(0, max(1, s.weeks)), y=(0, math.ceil(top / 50) * 50))
        self.fav_actual.set_data(fw, s.favourite_score)
        self.fav_expected.set_data(fw, s.favourite_expected)
        self.fav_true.set_data(fw, s.favourite_true)
        vals = np.concatenate([s.favourite_score, s.favourite_expected, s.favourite_true])
        vals = vals[np.isfinite(vals)]
        lo, hi = (vals.min(), vals.max()) if vals.size else (0.5, 0.5)
        update_limits(
            self.ax_f,
            x=(0.5, max(1.5, s.weeks + 0.5)),
            y=(min(0.4, math.floor(lo * 10) / 10), max(0.8, math.ceil(hi * 10) / 10)),
        )
        self.season_view.refresh()

    @depends("swing_games", "feedback")
    def draw_swing(self):
        m, g = self.model, np.asarray(SWING_GAMES, float)
        sw = m.swing()
        q05, q95 = sw.quantile([0.05, 0.95])
        for band, sd_line, lo, hi, sd in zip(self.swing_bands, self.swing_sd, q05, q95, sw.std):
            band.set_verts(
                [np.concatenate([np.column_stack([g, lo]), np.column_stack([g[::-1], hi[::-1]])])]
            )
            sd_line.set_data(np.concatenate([g, [np.nan], g]), np.concatenate([sd, [np.nan], -sd]))
        top = float(np.abs(np.concatenate([q05.ravel(), q95.ravel()])).max()) * 1.15
        update_limits(self.ax_w, y=(-top, top * 1.45))
        self.swing_marker.set_xdata([m.swing_games, m.swing_games])
        dens = m.swing_histograms()
        for h, d in zip(self.hists, dens):
            h.set_data(d, SWING_BINS)
        update_limits(self.ax_h, y=(0, math.ceil(max(float(np.max(dens)) * 1.1, 0.01) * 10) / 10))
        self.title_h.set_text(
            ngettext(
                "Weekly changes at {games} game a week",
                "Weekly changes at {games} games a week",
                m.swing_games,
            ).format(games=fmt_plain(m.swing_games))
        )
        self.swing_view.refresh()
        i = SWING_GAMES.index(m.swing_games)
        sd, big = sw.std[:, i], sw.share_beyond(200)[:, i]
        (_k, g_, lo32, hi32), (_k2, _g2, lo16, hi16) = m.rule_of_thumb_table().rows
        at = (
            ngettext(
                "At {games} game a week, game by game:",
                "At {games} games a week, game by game:",
                g_,
            )
            if m.feedback
            else ngettext("At {games} game a week:", "At {games} games a week:", g_)
        ).format(games=fmt_plain(g_))
        now = value_html(
            at,
            _(
                "typical swing ±{sd32} at K 32, ±{sd16} at K 16; {big32} and {big16} of weeks moved "
                "200 or more"
            ).format(
                sd32=fmt_number(sd[0], 0),
                sd16=fmt_number(sd[1], 0),
                big32=fmt_pct(100 * big[0]),
                big16=fmt_pct(100 * big[1]),
            ),
            css="ee-swing-now",
        )
        thumb = value_html(
            _("A week 2–3 points below the expected win rate:"),
            ngettext(
                "32 × {games} × 2 % = {low32} to 32 × {games} × 3 % = {high32} point at "
                "K 32, {low16} to {high16} at K 16",
                "32 × {games} × 2 % = {low32} to 32 × {games} × 3 % = {high32} points at "
                "K 32, {low16} to {high16} at K 16",
                round_half_away(float(hi32)),
            ).format(
                games=fmt_plain(g_),
                low32=fmt_number(lo32, 0),
                high32=fmt_number(hi32, 0),
                low16=fmt_number(lo16, 0),
                high16=fmt_number(hi16, 0),
            ),
            css="ee-thumb",
        )
        self.swing_text.value = f"{STYLE}{now}<br>{thumb}"
