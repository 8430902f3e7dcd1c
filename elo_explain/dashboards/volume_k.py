"""Dashboard 5: K against weekly volume -- why busy Gammon42 players get K 16 (``seeds/004_*``).

From version 1.3.1 the server counts, before every ranked game, how many ranked
games each player played in the 7 days before it (the game itself not counted;
the window moves with the player). Fewer than 50: K = 32; 50 or more: K = 16,
so every change, up or down, is halved. Each player has their own K, so the
two changes of one game are mirror images only when both K are equal.

The reason: a week's movement is roughly K × games × shortfall. At 300 ranked
games a week and K 32, a win rate only 2–3 percentage points below the expected
one -- ordinary luck -- cost about 200 points in a week. With half K a heavy
week swings about as much as a normal one.

The dashboard shows the K rule, the document's K 32 vs K 16 table, the
60-vs-10-games example, a busy player's rolling window over four weeks (from a
generated schedule, counted with :func:`elo_explain.gammon42.recent_ranked_games`)
with the moments K switches, the rule of thumb, and -- by simulation
(:func:`elo_explain.simulate.weekly_swing`) -- the spread of weekly swings at K 32
and K 16. :class:`VolumeModel` computes everything; :class:`VolumeView` shows it.
Negative numbers use the minus sign U+2212 ("−16"), like the document.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from elo_explain import gammon42 as g42
from elo_explain import simulate, tables
from elo_explain._validate import in_range, integer
from elo_explain.ui import FigureView, SliderField, app_root, fmt_pair, fmt_signed, guarded
from elo_explain.ui import steady_limits, table_html, update_limits, widget

__all__ = ["VolumeModel", "VolumeView", "volume_dashboard", "SWING_GAMES", "WEEKS"]

WEEKS = 4
"""Weeks in the busy player's generated schedule."""
SESSION = (18 * 60, 24 * 60)
"""A day's games are spread evenly over the evening, 18:00 to 24:00 (minutes)."""
START = np.datetime64("2026-10-05T00:00")
"""The schedule's first day (a Monday after 1.3.1 came out, October 2026)."""
SWING_GAMES = np.arange(10, 501, 10)
"""Games per week for which the weekly-swing simulation is run (one run covers all)."""
SWING_PLAYERS = 2000
"""Simulated weeks per (K, games) cell."""
SWING_KS = (g42.K, g42.HEAVY_VOLUME_K)
BIN_EDGES = np.arange(-1600, 1601, 64) + 16.0
"""Histogram bins of 64 points (each holds the same number of attainable whole-point sums:
a week's change moves in steps of 32 at K 32 and 16 at K 16 against equal opponents)."""
GAMES_RANGE = (0, 300)
PER_DAY_RANGE = (0, 40)


def _check(name, value, lo, hi):
    return integer(name, value, lo=lo, hi=hi)


class VolumeModel:
    """Everything dashboard 5 shows.

    State (plain attributes, validated by :meth:`validate`, which every computation calls):

    * ``games`` -- ranked games in the last 7 days (0..300) for the K rule;
    * ``games_a``, ``games_b`` -- the two players' weekly games in the asymmetric example
      (same rating, 1500);
    * ``per_day`` -- the busy player's games per day in weeks 1..4 (each 0..40);
    * ``swing_games`` -- games in the week of the weekly-swing argument (10..500, step 10);
    * ``shortfall`` -- percentage points below the expected win rate (0..10);
    * ``feedback`` -- whether the simulation moves the rating game by game (as the server
      does) instead of rating the whole week from its starting rating (the document's rule).

    >>> m = VolumeModel()
    >>> m.k, m.asymmetric()          # 60 games vs 10: +8 / −16 and +16 / −8
    (32, ((8, -16), (16, -8)))
    >>> m.rule_of_thumb_rows()[0]    # 2 points short at 300 games: K 32 and K 16
    (2.0, 192.0, 96.0)
    """

    def __init__(self, games=0, games_a=60, games_b=10, per_day=(3, 12, 2, 9), swing_games=300,
                 shortfall=2.5, feedback=False):
        self.games = games
        self.games_a = games_a
        self.games_b = games_b
        self.per_day = tuple(per_day)
        self.swing_games = swing_games
        self.shortfall = shortfall
        self.feedback = feedback
        self._swings: dict = {}
        self.validate()

    def validate(self) -> None:
        """Check the state; ``ValueError`` naming the attribute and its range."""
        _check("games", self.games, *GAMES_RANGE)
        _check("games_a", self.games_a, *GAMES_RANGE)
        _check("games_b", self.games_b, *GAMES_RANGE)
        if len(self.per_day) != WEEKS:
            raise ValueError(f"per_day must hold {WEEKS} numbers (one per week), "
                             f"got {len(self.per_day)}")
        for i, n in enumerate(self.per_day):
            _check(f"per_day[{i}]", n, *PER_DAY_RANGE)
        g = _check("swing_games", self.swing_games, int(SWING_GAMES[0]), int(SWING_GAMES[-1]))
        if g % 10:
            raise ValueError(f"swing_games must be a multiple of 10 from 10 to 500, got {g}")
        in_range("shortfall", self.shortfall, 0, 10)
        if not isinstance(self.feedback, (bool, np.bool_)):
            raise TypeError(f"feedback must be True or False, got {self.feedback!r}")

    # --- the K rule and the document's tables ----------------------------------------------
    @property
    def k(self) -> int:
        """K for a player with :attr:`games` ranked games in the last 7 days."""
        self.validate()
        return int(g42.k_for(self.games))

    @staticmethod
    def k_table_rows() -> list[tuple]:
        """The document's K 32 vs K 16 table: ``(difference, (win, loss) at K 32, at K 16)``.

        >>> VolumeModel.k_table_rows()[1]
        (150, (14, -18), (7, -9))
        """
        return [(r[0], (r[1], r[2]), (r[3], r[4])) for r in tables.k_comparison().rows]

    def asymmetric(self):
        """Same rating (1500), A with ``games_a`` and B with ``games_b`` games this week.

        Returns ``((A's change, B's change) when A wins, (B's change, A's change) when B wins)``.
        """
        self.validate()
        ka, kb = int(g42.k_for(self.games_a)), int(g42.k_for(self.games_b))
        r = g42.STARTING
        return (g42.change(r, r, winner_k=ka, loser_k=kb),
                g42.change(r, r, winner_k=kb, loser_k=ka))

    # --- the rolling window ------------------------------------------------------------------
    def schedule(self) -> np.ndarray:
        """Times of the busy player's ranked games (``datetime64[m]``), in order.

        Day ``d`` of week ``w`` has ``per_day[w]`` games spread evenly over 18:00–24:00.

        >>> VolumeModel(per_day=(1, 0, 0, 2)).schedule()[:2]
        array(['2026-10-05T21:00', '2026-10-06T21:00'], dtype='datetime64[m]')
        """
        self.validate()
        daily = np.repeat(np.asarray(self.per_day, dtype=np.int64), 7)
        day = np.repeat(np.arange(daily.size), daily)
        first = np.repeat(np.cumsum(daily) - daily, daily)
        j = np.arange(day.size) - first
        length = SESSION[1] - SESSION[0]
        minutes = day * 1440 + SESSION[0] + np.floor((j + 0.5) * length / daily[day])
        return START + minutes.astype("timedelta64[m]")

    def window(self):
        """``(days, counts, ks)`` per game: time in days from the start, ranked games in the
        7 days before the game (:func:`gammon42.recent_ranked_games`), and the K it gets."""
        times = self.schedule()
        counts = np.atleast_1d(g42.recent_ranked_games(times, times))
        ks = np.atleast_1d(g42.k_for(counts))
        days = (times - START) / np.timedelta64(1, "D")
        return days, counts, ks

    def switches(self) -> list[tuple]:
        """Every game at which K changes: ``(game number, time, games in window, new K)``.

        The first game counts as a switch only if it does not start at K 32.

        >>> [(n, k) for n, _, c, k in VolumeModel().switches()]
        [(61, 16), (113, 32), (166, 16)]
        """
        times = self.schedule()
        days, counts, ks = self.window()
        previous = np.concatenate(([g42.K], ks[:-1]))
        idx = np.flatnonzero(ks != previous)
        return [(int(i) + 1, times[i], int(counts[i]), int(ks[i])) for i in idx]

    # --- the weekly swing ---------------------------------------------------------------------
    @property
    def swing_index(self) -> int:
        self.validate()
        return int(np.searchsorted(SWING_GAMES, self.swing_games))

    def swing(self) -> simulate.WeeklySwing:
        """The simulation for every games-per-week value (cached per ``feedback``)."""
        self.validate()
        key = bool(self.feedback)
        if key not in self._swings:
            self._swings[key] = simulate.weekly_swing(
                k=SWING_KS, games_per_week=SWING_GAMES, players=SWING_PLAYERS,
                feedback=key, seed=0)
        return self._swings[key]

    def rule_of_thumb(self, shortfall=None) -> np.ndarray:
        """K × games × shortfall at :attr:`swing_games` for K 32 and K 16 (points)."""
        s = self.shortfall if shortfall is None else shortfall
        return self.swing().rule_of_thumb(s / 100)[:, self.swing_index]

    def rule_of_thumb_curves(self) -> np.ndarray:
        """K × games × shortfall for every :data:`SWING_GAMES` value, rows K 32 and K 16."""
        return self.swing().rule_of_thumb(self.shortfall / 100)

    def rule_of_thumb_rows(self) -> list[tuple]:
        """``(shortfall in points, K 32 swing, K 16 swing)`` for 2, 3 and the chosen shortfall."""
        out = []
        for s in (2.0, 3.0, float(self.shortfall)):
            a, b = self.rule_of_thumb(s)
            out.append((s, float(a), float(b)))
        return out

    def spread(self) -> dict:
        """Simulated weekly change at :attr:`swing_games`: SD, 5 % and 95 % quantiles,
        share of weeks moving 200 points or more either way -- each ``(K 32, K 16)``."""
        sw, i = self.swing(), self.swing_index
        q = sw.quantile([0.05, 0.95])[:, :, i]
        return {
            "std": sw.std[:, i],
            "q05": q[0],
            "q95": q[1],
            "beyond200": sw.share_beyond(200)[:, i],
        }

    def histogram(self) -> np.ndarray:
        """Share of simulated weeks (%) per :data:`BIN_EDGES` bin, rows K 32 and K 16."""
        change = self.swing().change[:, self.swing_index]
        counts = np.stack([np.histogram(c, BIN_EDGES)[0] for c in change])
        return 100 * counts / change.shape[1]

    def std_curves(self) -> np.ndarray:
        """SD of the weekly change for every :data:`SWING_GAMES` value, rows K 32 and K 16."""
        return self.swing().std


# --- the view -----------------------------------------------------------------------------
def _hm(t) -> str:
    return str(t)[11:16]


class VolumeView:
    """Widgets for :class:`VolumeModel`; ``.root`` is the dashboard.

    >>> import matplotlib.pyplot as plt
    >>> before = len(plt.get_fignums())
    >>> v = VolumeView()
    >>> v.week_sliders[1].value = 5
    >>> len(plt.get_fignums()) == before, v.model.per_day
    (True, (3, 5, 2, 9))
    """

    def __init__(self, model: VolumeModel | None = None):
        self.model = model or VolumeModel()
        m = self.model
        self.status = widget(widgets.HTML, css="ee-error ee-status")
        update = guarded(self.status)(self._apply)
        slider = dict(continuous_update=False, style={"description_width": "17em"},
                      layout={"width": "36em"})

        # 1. games -> K, and the K 32 vs K 16 table
        self.games = SliderField("Ranked games in the last 7 days", m.games, lo=GAMES_RANGE[0],
                                 hi=GAMES_RANGE[1], css="ee-games", label_width="17em")
        self.games.on_change(lambda v: update(games=v))
        self.k_html = widget(widgets.HTML, css="ee-k")
        # 2. the 60-vs-10 example
        self.games_a = widget(widgets.IntSlider, m.games_a, min=GAMES_RANGE[0],
                              max=GAMES_RANGE[1], description="Player A's games this week",
                              css="ee-games-a", **slider)
        self.games_b = widget(widgets.IntSlider, m.games_b, min=GAMES_RANGE[0],
                              max=GAMES_RANGE[1], description="Player B's games this week",
                              css="ee-games-b", **slider)
        self.games_a.observe(lambda ch: update(games_a=ch["new"]), names="value")
        self.games_b.observe(lambda ch: update(games_b=ch["new"]), names="value")
        self.asym_html = widget(widgets.HTML, css="ee-asymmetric")
        # 3. the rolling window
        self.week_sliders = []
        for w, n in enumerate(m.per_day):
            s = widget(widgets.IntSlider, n, min=PER_DAY_RANGE[0], max=PER_DAY_RANGE[1],
                       description=f"Week {w + 1}", continuous_update=False,
                       style={"description_width": "5.5em"}, layout={"width": "16em"},
                       css=f"ee-week{w + 1}")
            s.observe(lambda ch, w=w: update(per_day_week=(w, ch["new"])), names="value")
            self.week_sliders.append(s)
        self.window_html = widget(widgets.HTML, css="ee-window")
        # 4. the weekly swing
        self.swing_games = widget(widgets.IntSlider, m.swing_games, min=int(SWING_GAMES[0]),
                                  max=int(SWING_GAMES[-1]), step=10,
                                  description="Ranked games in the week", css="ee-swing-games",
                                  **slider)
        self.shortfall = widget(widgets.FloatSlider, m.shortfall, min=0, max=10, step=0.5,
                                description="Points below expected win rate",
                                readout_format=".1f", css="ee-shortfall", **slider)
        self.feedback = widget(widgets.Checkbox, m.feedback, indent=False,
                               description="Move the rating game by game, as the "
                                           "server does (not once for the whole week)",
                               layout={"width": "auto"}, css="ee-feedback")
        self.swing_games.observe(lambda ch: update(swing_games=ch["new"]), names="value")
        self.shortfall.observe(lambda ch: update(shortfall=ch["new"]), names="value")
        self.feedback.observe(lambda ch: update(feedback=ch["new"]), names="value")
        self.swing_html = widget(widgets.HTML, css="ee-swing")

        self._build_window_figure()
        self._build_swing_figure()
        self._render_all()  # the first draws, with the real data: FigureView lays out then

        self.root = app_root([
            widget(widgets.HTML, "<h3>1. Games this week decide K</h3>"),
            self.games, self.k_html,
            widget(widgets.HTML, "<h3>2. Each player has their own K</h3>"),
            self.games_a, self.games_b, self.asym_html,
            widget(widgets.HTML,
                   "<h3>3. The window moves with the player</h3>"
                   "<p class='ee-note'>A busy player's four weeks: games per day in each "
                   "week, played 18:00–24:00. Before every game the server counts the "
                   "games of the 7 days before it.</p>"),
            widget(widgets.HBox, self.week_sliders, layout={"flex_flow": "row wrap"}),
            self.window_fig.out, self.window_html,
            widget(widgets.HTML, "<h3>4. Why K halves: the weekly swing</h3>"),
            self.swing_games, self.shortfall, self.feedback, self.swing_html,
            self.swing_fig.out,
            self.status,
        ])

    # --- figures, made once -----------------------------------------------------------------
    def _build_window_figure(self) -> None:
        self.window_fig = FigureView(figsize=(11, 3.4), height="350px",
                                     margins=dict(left=0.06, right=0.98, bottom=0.15, top=0.9))
        ax = self.window_fig.ax
        (self.count_line,) = ax.step([], [], where="post", color="#1f77b4", lw=1.5,
                                     label="ranked games in the 7 days before each game")
        ax.axhline(g42.HEAVY_VOLUME_GAMES, color="#d62728", ls="--", lw=1,
                   label="50 games: K 32 → K 16")
        self.k16_span = ax.stairs([0.0], [0.0, 1.0], baseline=0, fill=True, color="#fff3c4",
                                  zorder=0, label="K 16")
        (self.switch_marks,) = ax.plot([], [], "v", color="black", ms=8,
                                       label="K switches")
        self.switch_labels = [ax.text(0, 0, "", fontsize=8, ha="center", va="bottom")
                              for _ in range(12)]
        ax.set_xlim(0, 7 * WEEKS)
        ax.set_xticks(np.arange(0, 7 * WEEKS + 1, 7),
                      [f"week {i + 1}" if i < WEEKS else "" for i in range(WEEKS + 1)],
                      ha="left")
        ax.set_xticks(np.arange(0, 7 * WEEKS + 1), minor=True)
        ax.set_xlabel("Days since the start of the schedule")
        ax.set_ylabel("Games in the window")
        ax.grid(alpha=0.3)
        ax.grid(alpha=0.15, which="minor")
        ax.legend(fontsize=8, loc="upper left", ncols=2)
        self.window_ax = ax

    def _build_swing_figure(self) -> None:
        m = self.model
        self.swing_fig = FigureView(figsize=(11, 3.6), height="370px", ncols=2,
                                    margins=dict(left=0.06, right=0.98, bottom=0.14, top=0.91,
                                                 wspace=0.2))
        left, right = self.swing_fig.axes
        colors = ("#d62728", "#1f77b4")
        self.std_lines = [left.plot(SWING_GAMES, np.zeros(SWING_GAMES.size), color=c,
                                    label=f"K {k}: simulated SD")[0]
                          for k, c in zip(SWING_KS, colors)]
        self.thumb_lines = [left.plot(SWING_GAMES, np.zeros(SWING_GAMES.size), color=c, ls=":",
                                      label=f"K {k} × games × shortfall")[0]
                            for k, c in zip(SWING_KS, colors)]
        self.std_vline = left.axvline(m.swing_games, color="grey", lw=0.8)
        (self.std_marks,) = left.plot([], [], "o", color="black")
        left.set_xlim(0, SWING_GAMES[-1])
        left.set_xlabel("Ranked games in the week")
        left.set_ylabel("Rating points")
        left.set_title("Weekly swing from luck alone, by games per week", fontsize=10.5)
        left.grid(alpha=0.3)
        left.legend(fontsize=8, loc="upper left")
        self.hists = [right.stairs(np.zeros(BIN_EDGES.size - 1), BIN_EDGES, color=c, lw=1.5,
                                   label=f"K {k}")
                      for k, c in zip(SWING_KS, colors)]
        self.hist_title = right.set_title("", fontsize=10.5)
        right.set_xlabel("Rating change over the week")
        right.set_ylabel("Share of simulated weeks (% per 64 points)")
        right.axvline(0, color="black", lw=0.6)
        right.grid(alpha=0.3)
        right.legend(fontsize=8, loc="upper right")
        self.swing_axes = (left, right)
        # drawn on a saved background (FigureView.dynamic); the limits change rarely
        self.swing_fig.dynamic(*self.std_lines, *self.thumb_lines, self.std_vline, self.std_marks,
                               *self.hists, self.hist_title)

    # --- updates ------------------------------------------------------------------------------
    def _apply(self, **state) -> None:
        m = self.model
        old = dict(vars(m))
        try:
            for name, value in state.items():
                if name == "per_day_week":
                    week, n = value
                    per_day = list(m.per_day)
                    per_day[week] = n
                    m.per_day = tuple(per_day)
                else:
                    setattr(m, name, value)
            m.validate()
        except Exception:
            vars(m).update(old)  # keep the last good state
            raise
        parts = set(state)
        if parts & {"games"}:
            self._render_k()
        if parts & {"games_a", "games_b"}:
            self._render_asymmetric()
        if parts & {"per_day_week"}:
            self._render_window()
        if parts & {"swing_games", "shortfall", "feedback"}:
            self._render_swing()

    def _render_all(self) -> None:
        self._render_k()
        self._render_asymmetric()
        self._render_window()
        self._render_swing()

    def _render_k(self) -> None:
        m = self.model
        k = m.k
        why = ("50 or more games in the last 7 days: every change is halved" if k == 16
               else "fewer than 50 games in the last 7 days: the full K")
        rows = m.k_table_rows()
        self.k_html.value = (
            f"<p><span class='ee-value ee-big ee-k-value'>K {k}</span> "
            f"<span class='ee-note'>({html.escape(why)})</span></p>"
            + table_html(["Rating difference", "K = 32: favourite wins / loses",
                          "K = 16: favourite wins / loses"],
                         [[str(d), fmt_pair(*a), fmt_pair(*b)] for d, a, b in rows],
                         caption="The favourite's change with K 32 and K 16 (cube 1)")
        )

    def _render_asymmetric(self) -> None:
        m = self.model
        (a_win, b_lose), (b_win, a_lose) = m.asymmetric()
        ka, kb = int(g42.k_for(m.games_a)), int(g42.k_for(m.games_b))
        mirror = ("Both have the same K, so the winner gains exactly what the loser loses."
                  if ka == kb else
                  "Different K: the two changes are not mirror images.")
        self.asym_html.value = (
            "<p class='ee-note'>Two players with the same rating (1500). "
            f"Player A: {m.games_a} games this week → K {ka}; "
            f"player B: {m.games_b} games → K {kb}.</p>"
            + table_html(["Result", "Winner / loser"],
                         [["A wins (A / B)", fmt_pair(a_win, b_lose)],
                          ["B wins (B / A)", fmt_pair(b_win, a_lose)]],
                         caption="60 vs 10 games this week")
            .replace(f"<td>{fmt_pair(a_win, b_lose)}</td>",
                     f"<td class='ee-a-wins'>{fmt_pair(a_win, b_lose)}</td>", 1)
            .replace(f"<td>{fmt_pair(b_win, a_lose)}</td>",
                     f"<td class='ee-b-wins'>{fmt_pair(b_win, a_lose)}</td>", 1)
            + f"<p class='ee-note'>{html.escape(mirror)}</p>"
        )

    def _render_window(self) -> None:
        m = self.model
        days, counts, ks = m.window()
        ax = self.window_ax
        ymax = max(60, int(counts.max(initial=0) * 1.25) + 5)
        if days.size:
            x = np.concatenate((days, [7 * WEEKS]))
            y = np.concatenate((counts, counts[-1:]))
            self.count_line.set_data(x, y)
            self.k16_span.set_data(np.where(ks == g42.HEAVY_VOLUME_K, ymax, 0.0), x)
        else:
            self.count_line.set_data([], [])
            self.k16_span.set_data([0.0], [0.0, 1.0])
        switches = m.switches()
        sx = [days[n - 1] for n, *_ in switches]
        sy = [c for _, _, c, _ in switches]
        self.switch_marks.set_data(sx, [y + ymax * 0.03 for y in sy])
        for i, label in enumerate(self.switch_labels):
            if i < len(switches):
                n, t, c, k = switches[i]
                label.set_position((sx[i], sy[i] + ymax * 0.07))
                label.set_horizontalalignment("right" if sx[i] > 7 * WEEKS - 2 else
                                              "left" if sx[i] < 2 else "center")
                label.set_text(f"→ K {k}\nday {int(sx[i]) + 1}, {_hm(t)}")
                label.set_visible(True)
            else:
                label.set_visible(False)
        ax.set_ylim(0, ymax)
        self.window_fig.refresh()
        rows = [[str(n), f"day {int((t - START) / np.timedelta64(1, 'D')) + 1} ({str(t)[:10]}), "
                 f"{_hm(t)}", str(c), f"K {k}"] for n, t, c, k in switches]
        if not rows:
            rows = [["—", "K never switches in these four weeks", "", "K 32"]]
        self.window_html.value = table_html(
            ["Game", "When", "Games in the 7 days before", "K from this game on"], rows,
            caption=f"The moments K switches ({days.size} games in four weeks)")

    def _render_swing(self) -> None:
        m = self.model
        spread = m.spread()
        thumb = m.rule_of_thumb_rows()
        g = m.swing_games
        rows = [[f"{s:g} points below", f"{a:.0f} points", f"{b:.0f} points"]
                for s, a, b in thumb]
        rows[-1][0] = f"{thumb[-1][0]:g} points below (your choice)"
        # quantiles cut to whole points (toward zero)
        between = [f"{fmt_signed(int(lo), 0)} and {fmt_signed(int(hi), 0)}"
                   for lo, hi in zip(spread["q05"], spread["q95"])]
        mode = ("rating moves game by game" if m.feedback
                else "every game rated from the week's starting rating")
        self.swing_html.value = (
            table_html([f"{g} games in a week", "K 32: K × games × shortfall",
                        "K 16: K × games × shortfall"], rows,
                       caption="The rule of thumb (the document: 300 games, 2–3 points short "
                               "→ about 200 points at K 32)", highlight=len(rows) - 1)
            + table_html(
                [f"Simulated, {g} games, luck only ({mode})", "K 32", "K 16"],
                [["Standard deviation of the week's change",
                  f"{spread['std'][0]:.0f} points", f"{spread['std'][1]:.0f} points"],
                 ["90 % of weeks between"] + between,
                 ["Weeks moving 200 points or more",
                  f"{100 * spread['beyond200'][0]:.0f} %",
                  f"{100 * spread['beyond200'][1]:.0f} %"]],
                caption=f"By simulation: {simulate.weekly_swing.__name__}, "
                        f"{SWING_PLAYERS} weeks per K, opponents rated correctly, cube 1")
        )
        # figure
        left, right = self.swing_axes
        std = m.std_curves()
        i = m.swing_index
        for line, y in zip(self.std_lines, std):
            line.set_ydata(y)
        thumbs = m.rule_of_thumb_curves()
        for line, y in zip(self.thumb_lines, thumbs):
            line.set_ydata(y)
        self.std_vline.set_xdata([g, g])
        self.std_marks.set_data([g, g], std[:, i])
        top = max(float(std.max()), float(thumbs.max()))
        update_limits(left, y=(0, steady_limits(left.get_ylim(), 0, top)[1]))
        hist = m.histogram()
        for stairs, h in zip(self.hists, hist):
            stairs.set_data(h)
        half = max(4 * float(spread["std"][0]), 120)
        update_limits(right, x=steady_limits(right.get_xlim(), -half, half, margin=0),
                      y=(0, steady_limits(right.get_ylim(), 0, float(hist.max()) * 1.1 + 0.1)[1]))
        self.hist_title.set_text(f"Weekly change at {g} games: K 32 vs K 16")
        self.swing_fig.refresh()


def volume_dashboard() -> widgets.VBox:
    """The dashboard's root widget (what the notebook's last cell returns)."""
    return VolumeView().root
