"""Dashboard 4, the doubling cube: one Gammon42 game (two ratings, the cube, each player's
K) with the whole-number changes :func:`elo_explain.gammon42.change` gives, the rule before
1.0.5, and the cube table (:func:`elo_explain.tables.cube_table`) with that game at every cube.
The notebook shows the table and the game's outcome, both following the view; the view works
the game out and draws it at every cube."""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from elo_explain import gammon42 as g42
from elo_explain import tables
from elo_explain.formats import fmt_number, fmt_pair, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, ngettext
from elo_explain.interactive.figures import CARD, FigureView
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Choice, Whole
from elo_explain.interactive.view import DashboardView

__all__ = ["K_SOURCES", "CubeModel", "CubeView"]

K_SOURCES = ("K 32", "K 16", N_("from games this week"))
"""How a player's K is chosen: fixed 32, fixed 16, or :func:`gammon42.k_for` of their games."""
OLD = g42.VERSIONS["pre-1.0.5"]
#: What each player's K comes from.
KS = ("winner_k_source", "winner_games", "loser_k_source", "loser_games")
#: What the game's changes come from, at any cube.
GAME = ("winner_rating", "loser_rating", *KS)


def _pm(v) -> str:
    return f"±{fmt_plain(v)}"


def _text(text: str) -> str:
    """Translated words for HTML text (``&``, ``<``, ``>`` escaped; English has none)."""
    return html.escape(text, quote=False)


class CubeModel(DashboardModel):
    """One game: the winner's and loser's ratings, the cube, and per player the source of K
    (:data:`K_SOURCES`) and their ranked games in the 7 days before the game.

    >>> m = CubeModel(cube=2, winner_k_source="from games this week", winner_games=60)
    >>> m.winner_k, m.change(), m.old_change()  # a busy winner gains half; before 1.0.5 × 2
    (16, (9, -19), (32, -32))
    """

    params = (
        "winner_rating",
        "loser_rating",
        "cube",
        "winner_k_source",
        "loser_k_source",
        "winner_games",
        "loser_games",
    )
    presets = {
        N_("Two players at 1500, cube 2 (±19)"): dict(
            winner_rating=1500,
            loser_rating=1500,
            cube=2,
            winner_k_source="K 32",
            loser_k_source="K 32",
        ),
        N_("The underdog 300 down wins (+20 / −20)"): dict(
            winner_rating=1500,
            loser_rating=1800,
            cube=1,
            winner_k_source="K 32",
            loser_k_source="K 32",
        ),
        N_("60 vs 10 games this week (+8 / −16)"): dict(
            winner_rating=1500,
            loser_rating=1500,
            cube=1,
            winner_k_source=K_SOURCES[2],
            loser_k_source=K_SOURCES[2],
            winner_games=60,
            loser_games=10,
        ),
    }
    winner_rating = Whole(g42.STARTING, 500, 3000, label=N_("Winner's rating"))
    loser_rating = Whole(g42.STARTING, 500, 3000, label=N_("Loser's rating"))
    cube = Choice(1, g42.CUBE_VALUES, label=N_("cube"))
    winner_k_source = Choice("K 32", K_SOURCES, label=N_("Winner's K"))
    loser_k_source = Choice("K 32", K_SOURCES, label=N_("Loser's K"))
    winner_games = Whole(0, 0, 300, label=N_("Winner's games this week"))
    loser_games = Whole(0, 0, 300, label=N_("Loser's games this week"))

    def _k(self, source: str, games: int) -> int:
        return {"K 32": g42.K, "K 16": g42.HEAVY_VOLUME_K}.get(source) or int(g42.k_for(games))

    @property
    @depends("winner_k_source", "winner_games")
    def winner_k(self) -> int:
        """The winner's K: 32, 16, or from their games this week (:func:`gammon42.k_for`)."""
        return self._k(self.winner_k_source, self.winner_games)

    @property
    @depends("loser_k_source", "loser_games")
    def loser_k(self) -> int:
        return self._k(self.loser_k_source, self.loser_games)

    @property
    def coefficient(self) -> float:
        """``1 + log2(cube) / 6``."""
        return g42.cube_coefficient(self.cube)

    @property
    def expected(self) -> float:
        """The winner's expected score before the game (÷1200)."""
        return g42.expected_score(self.winner_rating, self.loser_rating)

    @depends(*GAME, "cube")
    def change(self, cube=None):
        """Whole-number ``(winner, loser)`` changes at ``cube`` (default: the chosen one; an
        array gives one change per cube)."""
        return g42.change(
            self.winner_rating,
            self.loser_rating,
            winner_k=self.winner_k,
            loser_k=self.loser_k,
            cube=self.cube if cube is None else cube,
        )

    def unrounded(self) -> tuple[float, float]:
        """``K × (result − expected) × coefficient`` before Go's rounding, winner and loser."""
        return g42.unrounded_change(
            self.winner_rating,
            self.loser_rating,
            winner_k=self.winner_k,
            loser_k=self.loser_k,
            cube=self.cube,
        )

    def old_change(self):
        """The same game before 1.0.5 (÷400, K 32 for all, points × cube)."""
        return OLD.change(self.winner_rating, self.loser_rating, cube=self.cube)

    @depends(*GAME, "cube")
    def outcome(self) -> tables.Sentence:
        """The game's outcome in words, its value the ``(winner, loser)`` changes.

        >>> print(CubeModel(cube=2, winner_k_source="from games this week", winner_games=60).outcome())
        Winner 1500 (K 16, from 60 games this week): +9, new rating 1509. Loser 1500 (K 32): −19, new rating 1481. Cube 2, coefficient 1.17.
        """
        w, lo = (int(x) for x in self.change())

        def k(who):
            source, games = getattr(self, f"{who}_k_source"), getattr(self, f"{who}_games")
            k = getattr(self, f"{who}_k")
            if source == K_SOURCES[2]:
                return ngettext(
                    "K {k}, from {games} game this week",
                    "K {k}, from {games} games this week",
                    games,
                ).format(k=fmt_plain(k), games=fmt_plain(games))
            return f"K {fmt_plain(k)}"

        return tables.Sentence(
            _(
                "Winner {rating} ({k}): {change}, new rating {new}. Loser {loser_rating} "
                "({loser_k}): {loser_change}, new rating {loser_new}. Cube {cube}, coefficient "
                "{coefficient}."
            ).format(
                rating=fmt_plain(self.winner_rating),
                k=k("winner"),
                change=fmt_signed(w, 0),
                new=fmt_plain(self.winner_rating + w),
                loser_rating=fmt_plain(self.loser_rating),
                loser_k=k("loser"),
                loser_change=fmt_signed(lo, 0),
                loser_new=fmt_plain(self.loser_rating + lo),
                cube=fmt_plain(self.cube),
                coefficient=fmt_number(self.coefficient, 2),
            ),
            (w, lo),
        )

    @depends(*GAME)
    def cubes(self) -> tables.Table:
        """The document's cube table (two players at 1500, K 32 and K 16), the rule before
        1.0.5 (K 32 × cube) and this game at every cube.

        >>> CubeModel().cubes().rows[1]
        (2, 1.17, 19, 9, 32, (19, -19))
        """
        now = tables.cube_table()
        old = tables.cube_table(ks=(OLD.k,), mode=OLD.cube_mode, divisor=OLD.divisor)
        game = zip(*self.change(np.array(g42.CUBE_VALUES)))
        return tables.Table(
            (
                _("Cube"),
                _("Coefficient"),
                _("Two players at 1500, K 32"),
                _("Two players at 1500, K 16"),
                _("Before 1.0.5: K 32 × cube"),
                _("Your game (winner / loser)"),
            ),
            [(*a, b[2], (int(w), int(lo))) for a, b, (w, lo) in zip(now.rows, old.rows, game)],
            # TRANSLATORS: Formula: the cube coefficient in the page's words, as the table's
            # caption in elo_explain/tables.py writes it.
            _(
                "The doubling cube: coefficient = 1 + log2(cube) / 6 "
                "(the document's table, plus the old rule and your game)"
            ),
            (None, "{:.2f}", _pm, _pm, _pm, lambda p: fmt_pair(*p)),
        )


X = np.log2(np.array(g42.CUBE_VALUES, dtype=float))


class CubeView(DashboardView):
    """Ratings, cube and K controls, the game's changes worked out and the figure.

    >>> v = CubeView(CubeModel(), query="cube=64")
    >>> v.model.change(), "ee-winner-change'>+32<" in v.result.value
    ((32, -32), True)
    """

    docked = ("winner_rating", "loser_rating", "cube")
    key_target = "ee-result"

    def key_result(self) -> str:
        """The game's two changes."""
        w, lo = self.model.change()
        return f"{_('Winner')} {fmt_signed(w, 0)} · {_('Loser')} {fmt_signed(lo, 0)}"

    def build(self) -> list:
        self.cube = self._linked(
            "cube",
            widgets.SelectionSlider(
                options=g42.CUBE_VALUES,
                value=self.model.cube,
                description=_("Doubling cube"),
                continuous_update=False,
                style={"description_width": "13em"},
                layout={"width": "36em"},
            ),
        )
        self.k_widgets = {who: self._k_widgets(who) for who in ("winner", "loser")}
        self.result = html_box("ee-result")
        self._figure()
        return [
            self.preset_menu(),
            self.slider("winner_rating", step=10),
            self.slider("loser_rating", step=10),
            self.cube,
            *(widgets.HBox(list(w)) for w in self.k_widgets.values()),
            self.result,
            self.figure.out,
        ]

    def _k_widgets(self, who: str):
        label = _("Winner's K") if who == "winner" else _("Loser's K")
        source = self.dropdown(
            f"{who}_k_source", [(_(s), s) for s in K_SOURCES], label=label, width="26em"
        )
        source.style.description_width = "13em"
        games = self._linked(
            f"{who}_games",
            widgets.IntSlider(
                value=getattr(self.model, f"{who}_games"),
                min=0,
                max=300,
                continuous_update=False,
                style={"description_width": "initial"},
                layout={"width": "22em"},
            ),
        )
        return source, games

    def _figure(self) -> None:
        self.figure = FigureView(
            figsize=(11, 3.9),
            height="400px",
            ncols=2,
            margins=dict(left=0.06, right=0.99, bottom=0.13, top=0.92, wspace=0.2),
        )
        left, right = self.figure.axes
        for mode, style, label in (
            ("direct", "o-r", _("before 1.0.5: × cube")),
            # TRANSLATORS: Formula: "cube" in the page's words.
            ("coefficient", "o-b", _("since 1.0.5: 1 + log2(cube) / 6")),
        ):
            left.plot(X, g42.cube_multiplier(np.array(g42.CUBE_VALUES), mode), style, label=label)
        left.set_yscale("log", base=2)
        ticks = [1, 2, 4, 8, 16, 32, 64]
        left.set_yticks(ticks, [fmt_plain(t) for t in ticks])
        left.set(ylim=(0.8, 90), ylabel=_("Multiplier of the rating change"))
        left.set_title(_("What the cube multiplies the change by"), fontsize=10.5)
        left.legend(fontsize=8.5, loc="upper left")
        self.left_vline = left.axvline(0, color="grey", lw=0.8)
        self.left_marks = left.plot([0, 0], [1, 1], "s", ms=9, mfc="none", mec="black", mew=1.5)[0]
        self.left_label = left.text(
            0.97, 0.3, "", fontsize=9, ha="right", va="bottom", transform=left.transAxes, bbox=CARD
        )  # over the cube's line
        self.win_bars = right.bar(X - 0.18, 0 * X, width=0.36, color="#2ca02c", label=_("winner"))
        self.loss_bars = right.bar(X + 0.18, 0 * X, width=0.36, color="#d62728", label=_("loser"))
        self.win_text = [
            right.text(x - 0.18, 0, "", ha="center", va="bottom", fontsize=8) for x in X
        ]
        self.loss_text = [right.text(x + 0.18, 0, "", ha="center", va="top", fontsize=8) for x in X]
        right.axhline(0, color="black", lw=0.8)
        # the chosen cube's column, its whole width (its bars' labels are wider than the bars
        # on a phone): an outline, drawn over the bars (it moves with the cube)
        self.right_vspan = right.axvspan(-0.5, 0.5, facecolor="none", edgecolor="#e0a800", lw=1.6)
        right.set(ylim=(-75, 75), ylabel=_("Rating change (whole points)"))
        self.right_title = right.set_title("", fontsize=10.5)
        right.legend(fontsize=8.5, loc="upper left")
        for ax in (left, right):
            ax.set_xticks(X, [fmt_plain(c) for c in g42.CUBE_VALUES])
            ax.set(xlim=(-0.5, 6.5), xlabel=_("Doubling cube"))
            ax.grid(alpha=0.3)
        # what the controls change is drawn on a saved background (FigureView.dynamic)
        self.figure.dynamic(
            self.left_vline,
            self.left_marks,
            self.left_label,
            self.right_vspan,
            *self.win_bars,
            *self.loss_bars,
            *self.win_text,
            *self.loss_text,
            self.right_title,
        )

    def explanation(self) -> list[str]:
        """The calculation, line by line (plain text)."""
        m = self.model
        e, c, (w_raw, l_raw) = m.expected, fmt_number(m.coefficient, 2), m.unrounded()
        w, lo = m.change()
        n = fmt_plain
        return [
            # TRANSLATORS: Formula: the cube coefficient in the page's words.
            _("Cube {cube}: coefficient = 1 + log2({cube}) / 6 = {coefficient}").format(
                cube=n(m.cube), coefficient=c
            ),
            _("Winner {winner} vs loser {loser}: winner's expected score {expected}").format(
                winner=n(m.winner_rating), loser=n(m.loser_rating), expected=fmt_number(e, 3)
            ),
            _(
                "Winner (K {k}): {k} × (1 − {expected}) × {coefficient} = {unrounded} → {change}, "
                "new rating {new}"
            ).format(
                k=n(m.winner_k),
                expected=fmt_number(e, 3),
                coefficient=c,
                unrounded=fmt_number(w_raw),
                change=fmt_signed(w, 0),
                new=n(m.winner_rating + w),
            ),
            _(
                "Loser (K {k}): {k} × (0 − {expected}) × {coefficient} = {unrounded} → {change}, "
                "new rating {new}"
            ).format(
                k=n(m.loser_k),
                expected=fmt_number(1 - e, 3),
                coefficient=c,
                unrounded=fmt_number(l_raw),
                change=fmt_signed(lo, 0),
                new=n(m.loser_rating + lo),
            ),
        ]

    @depends(*KS)
    def show_ks(self) -> None:
        """Each player's games slider: on for K from the games, with the K it gives."""
        m = self.model
        for who, (_source, games) in self.k_widgets.items():
            games.disabled = getattr(m, f"{who}_k_source") != K_SOURCES[2]
            games.description = (
                _("games this week")
                if games.disabled
                else _("games this week → K {k}").format(k=fmt_plain(getattr(m, f"{who}_k")))
            )

    @depends(CubeModel.change)
    def show_game(self) -> None:
        """The game worked out, then the same game before 1.0.5."""
        m = self.model
        (w, lo), c = m.change(), fmt_number(m.coefficient, 2)
        lines = "".join(f"<div>{html.escape(t)}</div>" for t in self.explanation())
        cube = _text(_("(cube {cube}, coefficient {coefficient})")).format(
            cube=fmt_plain(m.cube), coefficient=f"<span class='ee-value ee-coefficient'>{c}</span>"
        )
        old = _text(
            _("Before 1.0.5 (÷400, K 32 for everyone, points × cube) the same game gave {change}.")
        ).format(change=f"<span class='ee-value ee-old-change'>{fmt_pair(*m.old_change())}</span>")
        winner, loser = _text(_("Winner")), _text(_("Loser"))
        self.result.value = (
            f"<div class='ee-big'>{winner} <span class='ee-value ee-winner-change'>"
            f"{fmt_signed(w, 0)}</span> &nbsp; {loser} <span class='ee-value "
            f"ee-loser-change'>{fmt_signed(lo, 0)}</span> &nbsp; {cube}</div><div class='ee-note'>"
            f"{lines}<div>{old}</div></div>"
        )

    @depends(CubeModel.change)
    def draw(self) -> None:
        m, c = self.model, fmt_number(self.model.coefficient, 2)
        x = float(X[g42.CUBE_VALUES.index(m.cube)])
        self.left_vline.set_xdata([x, x])
        self.left_marks.set_data([x, x], [m.cube, m.coefficient])
        self.left_label.set_text(
            _("cube {cube}: × {coefficient} since 1.0.5,\n× {cube} before").format(
                cube=fmt_plain(m.cube), coefficient=c
            )
        )
        game = zip(*m.change(np.array(g42.CUBE_VALUES)))  # (winner, loser) at every cube
        for (gain, lost), win, loss, wt, lt in zip(
            game, self.win_bars, self.loss_bars, self.win_text, self.loss_text
        ):
            for bar, text, v, dy in ((win, wt, int(gain), 1), (loss, lt, int(lost), -1)):
                bar.set_height(v)
                text.set_position((text.get_position()[0], v + dy))
                text.set_text(fmt_signed(v, 0))
        self.right_vspan.set_x(x - 0.5)
        self.right_title.set_text(
            _("Your game by cube: {winner} (K {winner_k}) beats {loser} (K {loser_k})").format(
                winner=fmt_plain(m.winner_rating),
                winner_k=fmt_plain(m.winner_k),
                loser=fmt_plain(m.loser_rating),
                loser_k=fmt_plain(m.loser_k),
            )
        )
        self.figure.refresh()
