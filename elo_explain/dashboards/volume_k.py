"""Dashboard 5, K against weekly volume: the K rule (:func:`elo_explain.gammon42.k_for`), the
K 32 vs K 16 table, two players with different K, a busy player's rolling 7-day window
(:func:`elo_explain.gammon42.recent_ranked_games`) and the weekly swing at K 32 and K 16 by
rule of thumb and by simulation (:func:`elo_explain.simulate.weekly_swing`). The notebook's
tables and the K sentence are declared results: they follow the view's four parts."""

from __future__ import annotations

import functools
import html
import math

import ipywidgets as widgets
import numpy as np
import traitlets

from elo_explain import gammon42 as g42
from elo_explain import simulate, tables
from elo_explain._validate import integer
from elo_explain.formats import fmt_number, fmt_pair, fmt_pct, fmt_plain, fmt_readout, fmt_signed
from elo_explain.i18n import N_, _, language, ngettext, pgettext
from elo_explain.interactive.figures import FigureView, place_text, steady_limits, update_limits
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box, table_html
from elo_explain.interactive.traits import FieldError, Number, Whole, checked, shown_label
from elo_explain.interactive.view import DashboardView
from elo_explain.rounding import round_half_away

__all__ = ["VolumeModel", "VolumeView", "SWING_GAMES", "WEEKS"]

WEEKS = 4  # weeks in the busy player's schedule; a day's games are spread over 18:00-24:00
SESSION = (18 * 60, 24 * 60)
START = np.datetime64("2026-10-05T00:00")  # a Monday after 1.3.1 came out
SWING_GAMES = np.asarray(simulate.SWING_GAMES)  # games per week simulated (one run covers all)
DOC_GAMES = 300  # the document's heavy week (docs/sources.md#greek G10)
SWING_PLAYERS = simulate.SWING_WEEKS  # simulated weeks per (K, games)
SWING_KS = simulate.SWING_KS
# 64-point bins: each holds as many attainable sums (steps of 32 at K 32, 16 at K 16)
BIN_EDGES = np.arange(-1600, 1601, 64) + 16.0
PAIR = lambda p: fmt_pair(*p)  # noqa: E731


def _points(value) -> str:
    whole = abs(round_half_away(float(value)))
    return ngettext("{n} point", "{n} points", whole if math.isfinite(whole) else 0).format(
        n=fmt_number(value, 0)
    )


def _points_below(value) -> str:
    """``value`` percentage points below the expected win rate (the document's "2 or 3
    percentage points below"), in words: the plural form of the count, or a fraction's.

    >>> _points_below(1), _points_below(2.0), _points_below(2.5)
    ('1 point below', '2 points below', '2.5 points below')
    """
    if float(value).is_integer():
        return ngettext("{n} point below", "{n} points below", int(value)).format(
            n=fmt_plain(value)
        )
    # TRANSLATORS: {n} is a fraction of percentage points (2.5): the form a fraction takes.
    return pgettext("a fraction", "{n} points below").format(n=fmt_plain(value))


def _games_in_a_week(games) -> str:
    return ngettext("{games} game in a week", "{games} games in a week", games).format(
        games=fmt_plain(games)
    )


def _text(text: str) -> str:
    """Translated words for HTML text (``&``, ``<``, ``>`` escaped; English has none)."""
    return html.escape(text, quote=False)


@functools.lru_cache(maxsize=2)
def _swing(feedback: bool) -> simulate.WeeklySwing:
    return simulate.luck_only_weeks(feedback)  # the same run as 09's


class PerDay(traitlets.List):
    """Games per day in each of the :data:`WEEKS` weeks, each 0..40."""

    def validate(self, obj, value):
        if len(value) != WEEKS:
            raise FieldError(
                _("{label} must hold {weeks} numbers (one per week), got {got}").format(
                    label=shown_label(self), weeks=fmt_plain(WEEKS), got=fmt_plain(len(value))
                )
            )
        # each week named as its slider names it ("Week 2")
        return [
            checked(integer, _("Week {n}").format(n=fmt_plain(i + 1)), n, lo=0, hi=40)
            for i, n in enumerate(value)
        ]


class Tens(Whole):
    def validate(self, obj, value):
        if super().validate(obj, value) % 10:
            raise FieldError(
                _("{name} must be a multiple of 10 from 10 to 500, got {value}").format(
                    name=shown_label(self), value=fmt_plain(value)
                )
            )
        return int(value)


class Flag(traitlets.Bool):
    def validate(self, obj, value):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{self.name} must be True or False, got {value!r}")
        return bool(value)


class VolumeModel(DashboardModel):
    """The K rule at ``games``; players A and B (both 1500) with ``games_a`` / ``games_b``
    games this week; a busy player's ``per_day`` games in each week; the weekly swing at
    ``swing_games`` games and ``shortfall`` points below the expected win rate, the rating
    moved game by game when ``feedback`` (else the week rated from its start, as the document).

    >>> m = VolumeModel()
    >>> m.k, m.asymmetric()          # 60 games vs 10: +8 / −16 and +16 / −8
    (32, ((8, -16), (16, -8)))
    >>> m.rule_of_thumb().rows[0]    # 2 points short at 300 games: K 32 and K 16
    (2.0, 192.0, 96.0)
    """

    params = ("games", "games_a", "games_b", "per_day", "swing_games", "shortfall", "feedback")
    games = Whole(0, 0, 300, label=N_("Ranked games in the last 7 days"))
    # the link settings' labels: the words of their sliders and box
    games_a = Whole(60, 0, 300, label=N_("Player A's games this week"))
    games_b = Whole(10, 0, 300, label=N_("Player B's games this week"))
    per_day = PerDay([3, 12, 2, 9]).tag(label=N_("The busy player's games per day in each week"))
    swing_games = Tens(300, 10, 500, label=N_("Ranked games in the week"))
    shortfall = Number(2.5, 0, 10, label=N_("Points below expected win rate"))
    feedback = Flag(False).tag(
        label=N_("Move the rating game by game, as the server does (not once for the whole week)")
    )

    @property
    def k(self) -> int:
        """K for a player with :attr:`games` ranked games in the last 7 days."""
        return int(g42.k_for(self.games))

    @depends("games")
    def your_k(self) -> tables.Sentence:
        """:attr:`k` in words (the server's rule), its value the K.

        >>> print(VolumeModel(games=60).your_k())
        K 16: 60 ranked games in the last 7 days, 50 or more, so every change is halved.
        """
        n, k = self.games, self.k
        why = (
            _("50 or more, so every change is halved")
            if k == g42.HEAVY_VOLUME_K
            else _("fewer than 50, so the full K")
        )
        text = ngettext(
            "K {k}: {n} ranked game in the last 7 days, {why}.",
            "K {k}: {n} ranked games in the last 7 days, {why}.",
            n,
        )
        return tables.Sentence(text.format(k=fmt_plain(k), n=fmt_plain(n), why=why), k)

    @staticmethod
    def k_table() -> tables.Table:
        """The document's K 32 vs K 16 table: ``(difference, (win, loss) at K 32, at K 16)``."""
        t = tables.k_comparison()
        return tables.Table(
            (
                _("Rating difference"),
                _("K = 32: favourite wins / loses"),
                _("K = 16: favourite wins / loses"),
            ),
            [(r[0], r[1:3], r[3:5]) for r in t.rows],
            _("The favourite's change with K 32 and K 16, cube 1 (the document's table, fixed)"),
            (None, PAIR, PAIR),
        )

    @depends("games_a", "games_b")
    def asymmetric(self):
        """``((A, B) when A wins, (B, A) when B wins)``: the changes of two players at 1500."""
        ka, kb = self.ks_ab()
        r = g42.STARTING
        return (
            g42.change(r, r, winner_k=ka, loser_k=kb),
            g42.change(r, r, winner_k=kb, loser_k=ka),
        )

    @depends("games_a", "games_b")
    def ks_ab(self) -> tuple[int, int]:
        """The K of players A and B (from :attr:`games_a` and :attr:`games_b`)."""
        return int(g42.k_for(self.games_a)), int(g42.k_for(self.games_b))

    @depends("games_a", "games_b")
    def asymmetric_table(self) -> tables.Table:
        """:meth:`asymmetric` as the document prints it (winner / loser).

        >>> VolumeModel().asymmetric_table().cells()
        [['A (K 16) wins', '+8 / −16'], ['B (K 32) wins', '+16 / −8']]
        """
        (ka, kb), (a_wins, b_wins) = self.ks_ab(), self.asymmetric()
        return tables.Table(
            (_("Result"), _("Winner / loser")),
            [
                (_("A (K {k}) wins").format(k=fmt_plain(ka)), a_wins),
                (_("B (K {k}) wins").format(k=fmt_plain(kb)), b_wins),
            ],
            _("{a} vs {b} games this week").format(
                a=fmt_plain(self.games_a), b=fmt_plain(self.games_b)
            ),
            (None, PAIR),
        )

    @depends("per_day")
    def schedule(self) -> np.ndarray:
        """Times of the busy player's games (``datetime64[m]``): day ``d`` of week ``w`` has
        ``per_day[w]`` games spread evenly over 18:00–24:00.

        >>> VolumeModel(per_day=(1, 0, 0, 2)).schedule()[:2]
        array(['2026-10-05T21:00', '2026-10-06T21:00'], dtype='datetime64[m]')
        """
        daily = np.repeat(np.asarray(self.per_day, dtype=np.int64), 7)
        day = np.repeat(np.arange(daily.size), daily)
        j = np.arange(day.size) - np.repeat(np.cumsum(daily) - daily, daily)
        minutes = (
            day * 1440 + SESSION[0] + np.floor((j + 0.5) * (SESSION[1] - SESSION[0]) / daily[day])
        )
        return START + minutes.astype("timedelta64[m]")

    @depends("per_day")
    def window(self):
        """``(days, counts, ks)`` per game: days from the start, ranked games in the 7 days
        before the game, and the K it gets."""
        times = self.schedule()
        counts = np.atleast_1d(g42.recent_ranked_games(times, times))
        return (times - START) / np.timedelta64(1, "D"), counts, np.atleast_1d(g42.k_for(counts))

    @depends("per_day")
    def switches(self) -> list[tuple]:
        """Every game at which K changes (from K 32 before the first): ``(game number, time,
        games in window, new K)``.

        >>> [(n, k) for n, _, c, k in VolumeModel().switches()]
        [(61, 16), (113, 32), (166, 16)]
        """
        times, (_, counts, ks) = self.schedule(), self.window()
        idx = np.flatnonzero(ks != np.concatenate(([g42.K], ks[:-1])))
        return [(int(i) + 1, times[i], int(counts[i]), int(ks[i])) for i in idx]

    @depends("per_day")
    def switch_table(self) -> tables.Table:
        """:meth:`switches` as the reader reads them (the day of the schedule and the time)."""
        rows = [
            (
                n,
                _("day {day} ({date}), {time}").format(
                    day=fmt_plain(int((t - START) / np.timedelta64(1, "D")) + 1),
                    date=str(t)[:10],
                    time=str(t)[11:16],
                ),
                c,
                f"K {fmt_plain(k)}",
            )
            for n, t, c, k in self.switches()
        ]
        return tables.Table(
            (_("Game"), _("When"), _("Games in the 7 days before"), _("K from this game on")),
            rows or [("—", _("K never switches in these four weeks"), "", "K 32")],
            ngettext(
                "The moments K switches ({games} game in four weeks)",
                "The moments K switches ({games} games in four weeks)",
                sum(self.per_day) * 7,
            ).format(games=fmt_plain(sum(self.per_day) * 7)),
        )

    @property
    def swing_index(self) -> int:
        return int(np.searchsorted(SWING_GAMES, self.swing_games))

    def swing(self) -> simulate.WeeklySwing:
        """The simulation for every games-per-week value (one per ``feedback``, cached)."""
        return _swing(bool(self.feedback))

    @depends("swing_games", "shortfall", "feedback")
    def rule_of_thumb(self) -> tables.Table:
        """K × games × shortfall at :attr:`swing_games` for 2, 3 and :attr:`shortfall` points."""
        rows = [
            (s, *map(float, self.swing().rule_of_thumb(s / 100)[:, self.swing_index]))
            for s in (2.0, 3.0, float(self.shortfall))
        ]
        return tables.Table(
            (
                _games_in_a_week(self.swing_games),
                _("K 32: K × games × shortfall"),
                _("K 16: K × games × shortfall"),
            ),
            rows,
            _(
                "The rule of thumb (the document: 300 games, 2–3 points "
                "short → about 200 points at K 32)"
            ),
            (_points_below, _points, _points),
        )

    @depends("swing_games", "feedback")
    def spread(self) -> dict:
        """The simulated week at :attr:`swing_games`, each ``(K 32, K 16)``: ``std``, the 5 %
        and 95 % quantiles ``q05`` / ``q95``, the share moving 200 points or more."""
        sw, i = self.swing(), self.swing_index
        q = sw.quantile([0.05, 0.95])[:, :, i]
        return {
            "std": sw.std[:, i],
            "q05": q[0],
            "q95": q[1],
            "beyond200": sw.share_beyond(200)[:, i],
        }

    @depends("swing_games", "feedback")
    def histogram(self) -> np.ndarray:
        """Share of simulated weeks (%) per :data:`BIN_EDGES` bin, rows K 32 and K 16."""
        change = self.swing().change[:, self.swing_index]
        return 100 * np.stack([np.histogram(c, BIN_EDGES)[0] for c in change]) / change.shape[1]


class VolumeView(DashboardView):
    """Four parts, each declared with the settings it shows (run when one of them changes).

    >>> v = VolumeView(VolumeModel())
    >>> v.week_sliders[1].value = 5
    >>> v.model.per_day
    [3, 5, 2, 9]
    """

    docked = ("games", "games_a", "games_b", "swing_games", "feedback")
    key_target = "ee-k"

    def key_result(self) -> str:
        """The K for the games of the last 7 days."""
        return f"K {fmt_plain(self.model.k)}"

    def build(self) -> list:
        m, wide = self.model, dict(style={"description_width": "17em"}, layout={"width": "36em"})
        self.k_html, self.asym_html, self.window_html, self.swing_html = (
            html_box(css) for css in ("ee-k", "ee-asymmetric", "ee-window", "ee-swing")
        )
        games = self.slider("games", label_width="17em")
        ab = [
            self._linked(
                f"games_{p}",
                widgets.IntSlider(
                    getattr(m, f"games_{p}"),
                    min=0,
                    max=300,
                    description=_("Player {player}'s games this week").format(player=p.upper()),
                    continuous_update=False,
                    **wide,
                ),
            )
            for p in "ab"
        ]
        self.week_sliders = [self._week_slider(w, n) for w, n in enumerate(m.per_day)]
        for w, s in enumerate(self.week_sliders):
            s.add_class(f"ee-week{w + 1}")
            s.observe(
                self.guard(
                    lambda c, w=w: setattr(
                        m, "per_day", [c["new"] if i == w else n for i, n in enumerate(m.per_day)]
                    )
                ),
                names="value",
            )
        m.observe(self._show_weeks, names="per_day")
        swing = [
            self._linked(
                "swing_games",
                widgets.IntSlider(
                    m.swing_games,
                    min=10,
                    max=500,
                    step=10,
                    description=_("Ranked games in the week"),
                    continuous_update=False,
                    **wide,
                ),
            ),
            self._shortfall_slider(wide),
            self.checkbox(
                "feedback",
                label=_(
                    "Move the rating game by game, as the server does (not once for the whole week)"
                ),
            ),
        ]
        swing[-1].layout.width = "auto"
        self._window_figure()
        self._swing_figure()

        def h(heading, note=""):
            return widgets.HTML(
                f"<h2>{_text(heading)}</h2>"
                + (f"<p class='ee-note'>{_text(note)}</p>" if note else "")
            )

        return [
            h(_("1. Games this week decide K")),
            games,
            self.k_html,
            h(_("2. Each player has their own K")),
            *ab,
            self.asym_html,
            h(
                _("3. The window moves with the player"),
                _("The busy player's games per day in each week:"),
            ),
            widgets.HBox(self.week_sliders, layout={"flex_flow": "row wrap"}),
            self.window_html,
            self.window_fig.out,
            h(_("4. Why K halves: the weekly swing")),
            *swing,
            self.swing_html,
            self.swing_fig.out,
        ]

    @staticmethod
    def _week_slider(week: int, games: int) -> widgets.IntSlider:
        """Week ``week``'s games per day; its label's room grows with a longer translation
        ("Εβδομάδα 1"), the slider keeps its length ("Week 1": 5.5em, as before)."""
        label = _("Week {n}").format(n=fmt_plain(week + 1))
        room = max(5.5, round(0.75 * len(label), 1))
        return widgets.IntSlider(
            games,
            min=0,
            max=40,
            description=label,
            continuous_update=False,
            layout={"width": f"{10.5 + room:g}em"},
            style={"description_width": f"{room:g}em"},
        )

    def _shortfall_slider(self, wide: dict) -> widgets.Widget:
        """The shortfall's slider (0..10, step 0.5); in a language other than English its
        readout is the page's own (``fmt_readout``: "2,5"), as ipywidgets formats in en-US."""
        m = self.model
        slider = self._linked(
            "shortfall",
            widgets.FloatSlider(
                m.shortfall,
                min=0,
                max=10,
                step=0.5,
                readout_format=".1f",
                description=_("Points below expected win rate"),
                continuous_update=False,
                **wide,
            ),
        )
        if language() == "en":
            return slider
        slider.readout = False
        readout = html_box("ee-readout ee-shortfall-readout", fmt_readout(m.shortfall, 0.5))
        m.observe(
            lambda c: setattr(readout, "value", fmt_readout(c["new"], 0.5)), names="shortfall"
        )
        return widgets.HBox([slider, readout])

    def _show_weeks(self, change) -> None:
        for slider, n in zip(self.week_sliders, change["new"]):
            slider.value = n

    def _window_figure(self) -> None:
        self.window_fig = FigureView(
            figsize=(11, 3.4),
            height="350px",
            margins=dict(left=0.06, right=0.98, bottom=0.15, top=0.9),
        )
        ax = self.window_ax = self.window_fig.ax
        self.count_line = ax.step(
            [],
            [],
            where="post",
            color="#1f77b4",
            lw=1.5,
            label=_("ranked games in the 7 days before each game"),
        )[0]
        ax.axhline(
            g42.HEAVY_VOLUME_GAMES, color="#d62728", ls="--", lw=1, label=_("50 games: K 32 → K 16")
        )
        self.k16_span = ax.stairs(
            [0.0], [0.0, 1.0], baseline=0, fill=True, color="#fff3c4", zorder=0, label="K 16"
        )
        self.switch_marks = ax.plot([], [], "v", color="black", ms=8, label=_("K switches"))[0]
        self.switch_labels = [
            ax.text(0, 0, "", fontsize=8, ha="center", va="bottom") for _i in range(12)
        ]
        ax.set_xlim(0, 7 * WEEKS)
        ax.set_xticks(
            np.arange(0, 7 * WEEKS + 1, 7),
            [
                _("week {n}").format(n=fmt_plain(i + 1)) if i < WEEKS else ""
                for i in range(WEEKS + 1)
            ],
            ha="left",
        )
        ax.set_xticks(np.arange(0, 7 * WEEKS + 1), minor=True)
        ax.set(xlabel=_("Days since the start of the schedule"), ylabel=_("Games in the window"))
        ax.grid(alpha=0.3)
        ax.grid(alpha=0.15, which="minor")
        ax.legend(fontsize=8, loc="upper left", ncols=2)
        self.switch_at: list[tuple[float, float]] = []  # each switch's (day, games) drawn
        self.window_top = 60.0  # the games the panel shows at least (show_window)
        self.window_fig.layout_hooks.append(self._place_switch_labels)

    def _place_switch_labels(self) -> None:
        """Each switch's label in free space beside its mark, as the labels measure in the
        figure's layout: above the mark, else to its right or left, else higher up, clear of
        the curve, the marks, the legend and the labels placed before it (on a phone "→ K 32
        day 18, 22:30" was printed over "day 27, 19:00" and over the curve); where they do
        not all fit, the panel is made taller (a phone's labels take more of it)."""
        ax = self.window_ax
        legend = ax.get_legend()
        renderer = self.window_fig.fig.canvas.get_renderer()
        for grow in (1.0, 1.15, 1.3, 1.5, 1.75):
            top = self.window_top * grow
            update_limits(ax, y=(0, top))
            taken = [legend.get_window_extent(renderer)] if legend.get_visible() else []
            placed = True
            for label, (x, y) in zip(self.switch_labels, self.switch_at):
                levels = [y + top * (0.07 + 0.06 * i) for i in range(12)]
                ha = "right" if x > 7 * WEEKS - 2 else "left" if x < 2 else "center"
                candidates = [(x, levels[0], ha)] + [
                    (x + dx, level, side)
                    for level in levels
                    for dx, side in ((0, "center"), (0.4, "left"), (-0.4, "right"))
                ]
                box = place_text(
                    label, candidates, avoid=[self.count_line, self.switch_marks], boxes=taken
                )
                placed = placed and box is not None
                taken.append(box or label.get_window_extent(renderer))
            if placed:
                break

    def _swing_figure(self) -> None:
        self.swing_fig = FigureView(
            figsize=(11, 3.6),
            height="370px",
            ncols=2,
            margins=dict(left=0.06, right=0.98, bottom=0.14, top=0.91, wspace=0.2),
        )
        left, right = self.swing_axes = self.swing_fig.axes
        zero, colors = np.zeros(SWING_GAMES.size), ("#d62728", "#1f77b4")
        self.std_lines = [
            left.plot(
                SWING_GAMES, zero, color=c, label=_("K {k}: simulated SD").format(k=fmt_plain(k))
            )[0]
            for k, c in zip(SWING_KS, colors)
        ]
        self.thumb_lines = [
            left.plot(
                SWING_GAMES,
                zero,
                color=c,
                ls=":",
                label=_("K {k} × games × shortfall").format(k=fmt_plain(k)),
            )[0]
            for k, c in zip(SWING_KS, colors)
        ]
        self.std_vline = left.axvline(0, color="grey", lw=0.8)
        self.std_marks = left.plot([], [], "o", color="black")[0]
        left.set(
            xlim=(0, SWING_GAMES[-1]),
            xlabel=_("Ranked games in the week"),
            ylabel=_("Rating points"),
        )
        left.set_title(_("Weekly swing from luck alone, by games per week"), fontsize=10.5)
        left.legend(fontsize=8, loc="upper left")
        self.hists = [
            right.stairs(
                np.zeros(BIN_EDGES.size - 1), BIN_EDGES, color=c, lw=1.5, label=f"K {fmt_plain(k)}"
            )
            for k, c in zip(SWING_KS, colors)
        ]
        self.hist_title = right.set_title("", fontsize=10.5)
        right.set(
            xlabel=_("Rating change over the week"),
            ylabel=_("Share of simulated weeks (% per 64 points)"),
        )
        right.axvline(0, color="black", lw=0.6)
        right.legend(fontsize=8, loc="upper right")
        for ax in (left, right):
            ax.grid(alpha=0.3)
        # drawn on a saved background (FigureView.dynamic); the limits change rarely
        self.swing_fig.dynamic(
            *self.std_lines,
            *self.thumb_lines,
            self.std_vline,
            self.std_marks,
            *self.hists,
            self.hist_title,
        )

    @depends(VolumeModel.your_k)
    def show_k(self) -> None:
        k = self.model.k
        why = (
            _("50 or more games in the last 7 days: every change is halved")
            if k == 16
            else _("fewer than 50 games in the last 7 days: the full K")
        )
        self.k_html.value = (
            f"<p><span class='ee-value ee-big ee-k-value'>K {fmt_plain(k)}</span>"
            f" <span class='ee-note'>({_text(why)})</span></p>"
        )

    @depends(VolumeModel.asymmetric)
    def show_asymmetric(self) -> None:
        m = self.model
        (ka, kb), (a_wins, b_wins) = m.ks_ab(), m.asymmetric()
        mirror = _("mirror images: same K") if ka == kb else _("not mirror images: different K")
        a, b = (
            _text(_(t).format(k=fmt_plain(k)))
            for t, k in ((N_("A (K {k}) wins"), ka), (N_("B (K {k}) wins"), kb))
        )
        note = _text(_("winner / loser; {mirror}").format(mirror=mirror))
        self.asym_html.value = (
            f"<p>{a}: <span class='ee-value ee-big ee-a-wins'>{fmt_pair(*a_wins)}"
            f"</span> &nbsp; {b}: <span class='ee-value ee-big ee-b-wins'>"
            f"{fmt_pair(*b_wins)}</span> <span class='ee-note'>({note})</span></p>"
        )

    @depends(VolumeModel.window)
    def show_window(self) -> None:
        m, ax = self.model, self.window_ax
        days, counts, ks = m.window()
        ymax = max(60, int(counts.max(initial=0) * 1.25) + 5)
        if days.size:
            x = np.concatenate((days, [7 * WEEKS]))
            self.count_line.set_data(x, np.concatenate((counts, counts[-1:])))
            self.k16_span.set_data(np.where(ks == g42.HEAVY_VOLUME_K, ymax, 0.0), x)
        else:
            self.count_line.set_data([], [])
            self.k16_span.set_data([0.0], [0.0, 1.0])
        switches = m.switches()
        sx, sy = [days[n - 1] for n, *_rest in switches], [row[2] for row in switches]
        self.switch_marks.set_data(sx, [y + ymax * 0.03 for y in sy])
        self.switch_at = list(zip(sx, sy))  # (placed by _place_switch_labels)
        for i, label in enumerate(self.switch_labels):
            label.set_visible(i < len(switches))
            if i < len(switches):
                label.set_text(
                    _("→ K {k}\nday {day}, {time}").format(
                        k=fmt_plain(switches[i][3]),
                        day=fmt_plain(int(sx[i]) + 1),
                        time=str(switches[i][1])[11:16],
                    )
                )
        self.window_top = ymax
        ax.set_ylim(0, ymax)
        self.window_fig.refresh()  # (the labels: _place_switch_labels)
        n = [fmt_plain(n) for n, *_rest in switches]
        at = (
            _("K stays 32")
            if not n
            else _("K switches at game {game}").format(game=n[0])
            if len(n) == 1
            else _("K switches at games {games} and {last}").format(
                games=", ".join(n[:-1]), last=n[-1]
            )
        )
        four = ngettext(
            "{games} game in four weeks", "{games} games in four weeks", sum(m.per_day) * 7
        ).format(games=fmt_plain(sum(m.per_day) * 7))
        self.window_html.value = f"<p><span class='ee-value'>{_text(four)}</span>: {_text(at)}</p>"

    @depends(VolumeModel.rule_of_thumb)
    def show_swing(self) -> None:
        m, g, i = self.model, self.model.swing_games, self.model.swing_index
        spread, std, thumbs = m.spread(), m.swing().std, m.swing().rule_of_thumb(m.shortfall / 100)
        beyond = spread["beyond200"]
        between = [
            _("{low} and {high}").format(
                low=fmt_signed(int(lo), 0),  # toward zero
                high=fmt_signed(int(hi), 0),
            )
            for lo, hi in zip(spread["q05"], spread["q95"])
        ]
        mode = (
            _("rating moves game by game")
            if m.feedback
            else _("every game rated from the week's starting rating")
        )
        thumb = [
            f"{fmt_plain(s)} → <span class='ee-value'>{_text(_points(a))}</span> "
            f"({fmt_number(b, 0)})"
            for s, a, b in m.rule_of_thumb().rows
        ]
        simulated = table_html(
            [
                ngettext(
                    "Simulated, {games} game, luck only ({mode})",
                    "Simulated, {games} games, luck only ({mode})",
                    g,
                ).format(games=fmt_plain(g), mode=mode),
                "K 32",
                "K 16",
            ],
            [
                [_("Standard deviation of the week's change"), *(_points(s) for s in std[:, i])],
                [_("{pct} of weeks between").format(pct=fmt_pct(90, 0)), *between],
                [_("Weeks moving 200 points or more"), *(fmt_pct(100 * s) for s in beyond)],
            ],
            caption=_(
                "By simulation: weekly_swing, {weeks} weeks per K, opponents rated "
                "correctly, cube 1"
            ).format(weeks=fmt_plain(SWING_PLAYERS)),
        )
        games = _text(_games_in_a_week(g))
        games = f"<span class='ee-value'>{games}</span>"
        self.swing_html.value = (
            "<p>"
            + _text(
                _(
                    "Points short → K × games × shortfall at K 32 (K 16), {games}: "
                    "{first}, {second}, your {yours}"
                )
            ).format(games=games, first=thumb[0], second=thumb[1], yours=thumb[2])
            + (
                " " + _text(_("— the document's figure for them: “about 200”"))
                if g == DOC_GAMES
                else ""
            )
            + "</p>"
            + simulated
        )
        for line, y in zip(self.std_lines + self.thumb_lines, [*std, *thumbs]):
            line.set_ydata(y)
        self.std_vline.set_xdata([g, g])
        self.std_marks.set_data([g, g], std[:, i])
        left, right = self.swing_axes
        top = max(std.max(), thumbs.max())
        update_limits(left, y=(0, steady_limits(left.get_ylim(), 0, top)[1]))
        hist = m.histogram()
        for stairs, h in zip(self.hists, hist):
            stairs.set_data(h)
        half = max(4 * float(spread["std"][0]), 120)
        update_limits(
            right,
            x=steady_limits(right.get_xlim(), -half, half, margin=0),
            y=(0, steady_limits(right.get_ylim(), 0, float(hist.max()) * 1.1 + 0.1)[1]),
        )
        self.hist_title.set_text(
            ngettext(
                "Weekly change at {games} game: K 32 vs K 16",
                "Weekly change at {games} games: K 32 vs K 16",
                g,
            ).format(games=fmt_plain(g))
        )
        self.swing_fig.refresh()
