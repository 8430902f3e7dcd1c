"""Dashboard 4: how the doubling cube scales a Gammon42 rating change (``seeds/004_*``).

Since version 1.0.5 the cube multiplies the change by a coefficient from 1.0 to
2.0, each doubling adding a sixth of the way to the maximum::

    coefficient = 1 + log2(cube) / 6        (cube 1 -> 1.00, 2 -> 1.17, ... 64 -> 2.00)

Before 1.0.5 the cube multiplied the points directly, so one lucky high-cube game
could rewrite a rating. The dashboard shows the document's coefficient table with
the changes of two players at 1500 for K 32 and K 16, the coefficient plotted
against the old direct multiplier, and one game of the reader's choice (both
ratings, the cube, each player's K -- 32, 16, or from their ranked games this
week) with the whole-number change for winner and loser, exactly as the server
computes it (:func:`elo_explain.gammon42.change`, Go's rounding).

:class:`CubeModel` computes everything; :class:`CubeView` shows it. Negative
numbers use the minus sign U+2212 ("−19"), like the document.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from elo_explain import gammon42 as g42
from elo_explain import tables
from elo_explain._validate import choice, integer
from elo_explain.ui import FigureView, SliderField, app_root, fmt_number, fmt_pair, fmt_signed
from elo_explain.ui import table_html, updater, widget

__all__ = ["K_SOURCES", "CubeModel", "CubeView", "cube_dashboard"]

K_SOURCES = ("K 32", "K 16", "from games this week")
"""How a player's K is chosen: fixed 32, fixed 16, or :func:`gammon42.k_for` of their games."""

RATING_RANGE = (500, 3000)
GAMES_RANGE = (0, 300)
OLD = g42.VERSIONS["pre-1.0.5"]


class _Bounded:
    """A validated whole-number attribute (``ValueError`` naming it and its range)."""

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        return self if obj is None else obj.__dict__[self.name]

    def __set__(self, obj, value):
        obj.__dict__[self.name] = integer(self.name, value, lo=self.lo, hi=self.hi)


class _Choice:
    """A validated choice attribute."""

    def __init__(self, allowed):
        self.allowed = tuple(allowed)

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        return self if obj is None else obj.__dict__[self.name]

    def __set__(self, obj, value):
        obj.__dict__[self.name] = choice(self.name, value, self.allowed)


class CubeModel:
    """One Gammon42 game with the doubling cube, plus the document's cube table.

    State: ``winner_rating``, ``loser_rating`` (500..3000), ``cube`` (1, 2, 4 ... 64),
    and per player ``*_k_source`` (one of :data:`K_SOURCES`) and ``*_games`` (ranked
    games in the 7 days before the game, 0..300, used when the source is
    "from games this week").

    >>> m = CubeModel(cube=2)
    >>> m.coefficient_text, m.change()
    ('1.17', (19, -19))
    >>> m.winner_k_source, m.winner_games = "from games this week", 60
    >>> m.winner_k, m.change()            # a busy winner gains half
    (16, (9, -19))
    >>> m.old_change()                    # before 1.0.5: ÷400, K 32, points × cube
    (32, -32)
    """

    winner_rating = _Bounded(*RATING_RANGE)
    loser_rating = _Bounded(*RATING_RANGE)
    cube = _Choice(g42.CUBE_VALUES)
    winner_k_source = _Choice(K_SOURCES)
    loser_k_source = _Choice(K_SOURCES)
    winner_games = _Bounded(*GAMES_RANGE)
    loser_games = _Bounded(*GAMES_RANGE)

    def __init__(self, winner_rating=g42.STARTING, loser_rating=g42.STARTING, cube=1,
                 winner_k_source="K 32", loser_k_source="K 32", winner_games=0, loser_games=0):
        self.winner_rating = winner_rating
        self.loser_rating = loser_rating
        self.cube = cube
        self.winner_k_source = winner_k_source
        self.loser_k_source = loser_k_source
        self.winner_games = winner_games
        self.loser_games = loser_games

    # --- the document's table --------------------------------------------------------------
    @staticmethod
    def cube_rows() -> list[tuple]:
        """The document's cube table plus the pre-1.0.5 column (two players at 1500).

        Rows ``(cube, coefficient, change at K 32, change at K 16, change before 1.0.5 at K 32)``.

        >>> CubeModel.cube_rows()[1]
        (2, 1.17, 19, 9, 32)
        """
        now = tables.cube_table()
        old = tables.cube_table(ks=(OLD.k,), mode=OLD.cube_mode, divisor=OLD.divisor)
        return [(a[0], a[1], a[2], a[3], b[2]) for a, b in zip(now.rows, old.rows)]

    # --- one game -----------------------------------------------------------------------------
    def _k(self, source: str, games: int) -> int:
        if source == "K 32":
            return g42.K
        if source == "K 16":
            return g42.HEAVY_VOLUME_K
        return int(g42.k_for(games))

    @property
    def winner_k(self) -> int:
        """The winner's K: 32, 16, or from their games this week (:func:`gammon42.k_for`)."""
        return self._k(self.winner_k_source, self.winner_games)

    @property
    def loser_k(self) -> int:
        """The loser's K."""
        return self._k(self.loser_k_source, self.loser_games)

    @property
    def coefficient(self) -> float:
        """``1 + log2(cube) / 6``."""
        return g42.cube_coefficient(self.cube)

    @property
    def coefficient_text(self) -> str:
        """The coefficient as the document prints it (two decimals)."""
        return f"{self.coefficient:.2f}"

    @property
    def expected(self) -> float:
        """The winner's expected score before the game (÷1200)."""
        return g42.expected_score(self.winner_rating, self.loser_rating)

    def change(self, cube=None):
        """Whole-number ``(winner_delta, loser_delta)`` at ``cube`` (default: the chosen one).

        ``cube`` may be an array of cube values (one change each).
        """
        return g42.change(self.winner_rating, self.loser_rating, winner_k=self.winner_k,
                          loser_k=self.loser_k, cube=self.cube if cube is None else cube)

    def unrounded(self) -> tuple[float, float]:
        """``K × (result − expected) × coefficient`` before Go's rounding, winner and loser."""
        e, c = self.expected, self.coefficient
        return self.winner_k * (1 - e) * c, self.loser_k * (0 - (1 - e)) * c

    def old_change(self):
        """The same game under the rules before 1.0.5 (÷400, K 32 for all, points × cube)."""
        return OLD.change(self.winner_rating, self.loser_rating, cube=self.cube)

    def explanation(self) -> list[str]:
        """The calculation, line by line, in plain text.

        >>> for line in CubeModel(cube=2).explanation(): print(line)
        Cube 2: coefficient = 1 + log2(2) / 6 = 1.17
        Winner 1500 vs loser 1500: winner's expected score 0.500
        Winner (K 32): 32 × (1 − 0.500) × 1.17 = 18.67 → +19, new rating 1519
        Loser (K 32): 32 × (0 − 0.500) × 1.17 = −18.67 → −19, new rating 1481
        """
        e = self.expected
        w_raw, l_raw = self.unrounded()
        w, l = self.change()
        c = self.coefficient_text
        return [
            f"Cube {self.cube}: coefficient = 1 + log2({self.cube}) / 6 = {c}",
            f"Winner {self.winner_rating} vs loser {self.loser_rating}: "
            f"winner's expected score {e:.3f}",
            f"Winner (K {self.winner_k}): {self.winner_k} × (1 − {e:.3f}) × {c} = "
            f"{fmt_number(w_raw)} → {fmt_signed(w, 0)}, new rating {self.winner_rating + w}",
            f"Loser (K {self.loser_k}): {self.loser_k} × (0 − {1 - e:.3f}) × {c} = "
            f"{fmt_number(l_raw)} → {fmt_signed(l, 0)}, new rating {self.loser_rating + l}",
        ]


# --- the view -----------------------------------------------------------------------------
X = np.log2(np.array(g42.CUBE_VALUES, dtype=float))


class CubeView:
    """Widgets for :class:`CubeModel`; ``.root`` is the dashboard.

    >>> import matplotlib.pyplot as plt
    >>> before = len(plt.get_fignums())
    >>> v = CubeView()
    >>> v.cube.value = 64
    >>> len(plt.get_fignums()) == before, v.model.change()
    (True, (32, -32))
    """

    def __init__(self, model: CubeModel | None = None):
        self.model = model or CubeModel()
        m = self.model
        self.status = widget(widgets.HTML, css="ee-error ee-status")
        update = updater(self.model, self._render, self.status)

        self.winner_rating = SliderField("Winner's rating", m.winner_rating, lo=RATING_RANGE[0],
                                         hi=RATING_RANGE[1], step=10, css="ee-winner-rating")
        self.loser_rating = SliderField("Loser's rating", m.loser_rating, lo=RATING_RANGE[0],
                                        hi=RATING_RANGE[1], step=10, css="ee-loser-rating")
        self.cube = widget(
            widgets.SelectionSlider, options=list(g42.CUBE_VALUES), value=m.cube,
            description="Doubling cube", continuous_update=False, css="ee-cube",
            style={"description_width": "13em"}, layout={"width": "36em"},
        )
        self.winner_k = self._k_widgets("Winner's K", m.winner_k_source, m.winner_games,
                                        "ee-winner-k")
        self.loser_k = self._k_widgets("Loser's K", m.loser_k_source, m.loser_games,
                                       "ee-loser-k")

        self.winner_rating.on_change(lambda v: update(winner_rating=v))
        self.loser_rating.on_change(lambda v: update(loser_rating=v))
        self.cube.observe(lambda ch: update(cube=ch["new"]), names="value")
        for who, (source, games) in (("winner", self.winner_k), ("loser", self.loser_k)):
            source.observe(lambda ch, who=who: update(**{f"{who}_k_source": ch["new"]}),
                           names="value")
            games.observe(lambda ch, who=who: update(**{f"{who}_games": ch["new"]}),
                          names="value")

        self.result = widget(widgets.HTML, css="ee-result")
        self.table = widget(widgets.HTML, css="ee-cube-table")
        self._build_figure()
        self._render()  # the first draw, with the real data: FigureView lays out then

        controls = widget(widgets.VBox, [
            self.winner_rating, self.loser_rating, self.cube,
            widget(widgets.HBox, list(self.winner_k)), widget(widgets.HBox, list(self.loser_k)),
        ])
        self.root = app_root([controls, self.status, self.result, self.figure.out, self.table])

    @staticmethod
    def _k_widgets(label: str, source: str, games: int, css: str):
        toggle = widget(
            widgets.Dropdown, options=list(K_SOURCES), value=source, description=label, css=css,
            style={"description_width": "13em"}, layout={"width": "26em"},
        )
        slider = widget(
            widgets.IntSlider, value=games, min=GAMES_RANGE[0], max=GAMES_RANGE[1],
            description="games this week", continuous_update=False, css=f"{css}-games",
            style={"description_width": "initial"}, layout={"width": "22em"},
        )
        return toggle, slider

    def _build_figure(self) -> None:
        m = self.model
        self.figure = FigureView(figsize=(11, 3.9), height="400px", ncols=2)
        left, right = self.figure.axes
        coef = g42.cube_multiplier(np.array(g42.CUBE_VALUES), "coefficient")
        direct = g42.cube_multiplier(np.array(g42.CUBE_VALUES), "direct")
        left.plot(X, direct, "o-", color="#d62728", label="before 1.0.5: × cube")
        left.plot(X, coef, "o-", color="#1f77b4", label="since 1.0.5: 1 + log2(cube) / 6")
        left.set_yscale("log", base=2)
        left.set_yticks([1, 2, 4, 8, 16, 32, 64], ["1", "2", "4", "8", "16", "32", "64"])
        left.set_ylim(0.8, 90)
        left.set_ylabel("Multiplier of the rating change")
        left.set_title("What the cube multiplies the change by", fontsize=10.5)
        left.legend(fontsize=8.5, loc="upper left")
        i = np.log2(m.cube)
        self.left_vline = left.axvline(i, color="grey", lw=0.8)
        (self.left_marks,) = left.plot([i, i], [m.cube, m.coefficient], "s", ms=9, mfc="none",
                                       mec="black", mew=1.5)
        self.left_label = left.text(0.97, 0.3, "", fontsize=9, ha="right", va="bottom",
                                    transform=left.transAxes)

        w, lo = m.change(np.array(g42.CUBE_VALUES))
        self.win_bars = right.bar(X - 0.18, w, width=0.36, color="#2ca02c", label="winner")
        self.loss_bars = right.bar(X + 0.18, lo, width=0.36, color="#d62728", label="loser")
        self.win_text = [right.text(x - 0.18, 0, "", ha="center", va="bottom", fontsize=8)
                         for x in X]
        self.loss_text = [right.text(x + 0.18, 0, "", ha="center", va="top", fontsize=8)
                          for x in X]
        right.axhline(0, color="black", lw=0.8)
        # the chosen cube's column: an outline, drawn over the bars (it moves with the cube)
        self.right_vspan = right.axvspan(i - 0.45, i + 0.45, facecolor="none",
                                         edgecolor="#e0a800", lw=1.6)
        right.set_ylim(-75, 75)
        right.set_ylabel("Rating change (whole points)")
        self.right_title = right.set_title("", fontsize=10.5)
        right.legend(fontsize=8.5, loc="upper left")
        for ax in (left, right):
            ax.set_xticks(X, [str(c) for c in g42.CUBE_VALUES])
            ax.set_xlim(-0.5, 6.5)
            ax.set_xlabel("Doubling cube")
            ax.grid(alpha=0.3)
        # what the controls change is drawn on a saved background (FigureView.dynamic)
        # what the controls change is drawn on a saved background (FigureView.dynamic)
        self.figure.dynamic(self.left_vline, self.left_marks, self.left_label, self.right_vspan,
                            *self.win_bars, *self.loss_bars, *self.win_text, *self.loss_text,
                            self.right_title)

    def _render(self) -> None:
        m = self.model
        # K widgets: the games slider only counts when K comes from the games
        for (source, games), src, k in ((self.winner_k, m.winner_k_source, m.winner_k),
                                        (self.loser_k, m.loser_k_source, m.loser_k)):
            games.disabled = src != K_SOURCES[2]
            games.description = f"games this week → K {k}" if not games.disabled \
                else "games this week"
        w, lo = m.change()
        old_w, old_l = m.old_change()
        lines = "".join(f"<div>{html.escape(t)}</div>" for t in m.explanation())
        self.result.value = (
            f"<div class='ee-big'>Winner <span class='ee-value ee-winner-change'>"
            f"{fmt_signed(w, 0)}</span> &nbsp; Loser <span class='ee-value ee-loser-change'>"
            f"{fmt_signed(lo, 0)}</span>"
            f" &nbsp; (cube {m.cube}, coefficient <span class='ee-value ee-coefficient'>"
            f"{m.coefficient_text}</span>)</div>"
            f"<div class='ee-note'>{lines}<div>Before 1.0.5 (÷400, K 32 for everyone, points × "
            f"cube) the same game gave <span class='ee-value ee-old-change'>"
            f"{fmt_pair(old_w, old_l)}</span>.</div></div>"
        )
        rows = self.model.cube_rows()
        all_w, all_l = m.change(np.array(g42.CUBE_VALUES))
        self.table.value = table_html(
            ["Cube", "Coefficient", "Two players at 1500, K 32", "Two players at 1500, K 16",
             "Before 1.0.5: K 32 × cube", "Your game (winner / loser)"],
            [[str(r[0]), f"{r[1]:.2f}", f"±{r[2]}", f"±{r[3]}", f"±{r[4]}", fmt_pair(a, b)]
             for r, a, b in zip(rows, all_w, all_l)],
            caption="The doubling cube: coefficient = 1 + log2(cube) / 6 "
                    "(the document's table, plus the old rule and your game)",
            highlight=g42.CUBE_VALUES.index(m.cube),
        )
        # figure
        i = float(np.log2(m.cube))
        self.left_vline.set_xdata([i, i])
        self.left_marks.set_data([i, i], [m.cube, m.coefficient])
        self.left_label.set_text(f"cube {m.cube}: × {m.coefficient_text} since 1.0.5,\n× {m.cube} before")
        for bar, txt, v in zip(self.win_bars, self.win_text, all_w):
            bar.set_height(v)
            txt.set_position((txt.get_position()[0], v + 1))
            txt.set_text(fmt_signed(v, 0))
        for bar, txt, v in zip(self.loss_bars, self.loss_text, all_l):
            bar.set_height(v)
            txt.set_position((txt.get_position()[0], v - 1))
            txt.set_text(fmt_signed(v, 0))
        self.right_vspan.set_x(i - 0.45)
        self.right_title.set_text(
            f"Your game by cube: {m.winner_rating} (K {m.winner_k}) beats "
            f"{m.loser_rating} (K {m.loser_k})")
        self.figure.refresh()


def cube_dashboard() -> widgets.VBox:
    """The dashboard's root widget (what the notebook's last cell returns)."""
    return CubeView().root
