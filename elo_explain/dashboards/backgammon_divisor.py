"""Dashboard 3: why Gammon42 divides by 1200 (the Greek document, ``seeds/004_*``).

Chess Elo divides the rating difference by 400; Gammon42 started there, moved to
800 in 1.2.0 and to 1200 in 1.3.1, because dice give the weaker player real
chances in every single game. FIBS goes further and uses 2000 for one-point
matches. This dashboard shows

* the document's table of the favourite's expected win rate (÷1200) next to the
  same differences under a divisor of the reader's choice;
* the curves for 400, 800, 1200 and FIBS's 2000 plus the chosen divisor;
* the K 32 changes by difference (favourite wins / underdog wins);
* the version history at a chosen difference (300 reproduces the document:
  84.9 / 70.3 / 64.0 %, +5 / +9 / +12, −27 / −23 / −20);
* the win rate a favourite needs to hold their rating, by difference, for each
  divisor (300 points up with ÷400: the document's 85 %).

:class:`DivisorModel` computes everything (by calling :mod:`elo_explain.gammon42`,
:mod:`elo_explain.tables` and :mod:`elo_explain.fibs`); :class:`DivisorView`
shows it, with the widgets and number formats of :mod:`elo_explain.ui`.

Numbers are formatted as the document prints them; negative numbers use the
true minus sign U+2212 ("−16"), like the document and :mod:`elo_explain.tables`.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
import numpy as np

from elo_explain import fibs
from elo_explain import gammon42 as g42
from elo_explain import tables
from elo_explain._validate import integer, positive
from elo_explain.ui import FigureView, SliderField, app_root, fmt_pair, fmt_pct, fmt_signed
from elo_explain.ui import table_html, updater, widget

__all__ = [
    "DivisorModel",
    "DivisorView",
    "divisor_dashboard",
]


# --- the model ----------------------------------------------------------------------------
FIBS_DIVISOR = int(fibs.DIVISOR)
"""FIBS's divisor for one-point matches (2000)."""

CURVE_DIVISORS = (400, 800, 1200, FIBS_DIVISOR)
"""The fixed curves: chess / Gammon42 before 1.2.0, 1.2.0–1.3.0, 1.3.1, and FIBS."""

CURVE_LABELS = {
    400: "÷400: chess; Gammon42 before 1.2.0",
    800: "÷800: Gammon42 1.2.0 to 1.3.0",
    1200: "÷1200: Gammon42 from 1.3.1",
    FIBS_DIVISOR: "÷2000: FIBS, one-point match",
}

HISTORY_LABELS = {
    400: "Before 1.2.0 (÷400)",
    800: "1.2.0 to 1.3.0 (÷800)",
    1200: "From 1.3.1 (÷1200)",
    FIBS_DIVISOR: "FIBS's ÷2000 with K 32",
}

DIVISOR_RANGE = (100, 4000)
DIFFERENCE_RANGE = (0, 800)


class DivisorModel:
    """Everything dashboard 3 shows, for a chosen ``divisor`` and rating ``difference``.

    State: ``divisor`` (the reader's divisor, default 1200) and ``difference``
    (the favourite's lead in rating points, default 300). K is Gammon42's 32,
    cube 1.

    >>> m = DivisorModel()
    >>> [fmt_pct(r[1]) for r in m.win_rate_rows()][-3:]     # the document's ÷1200 table
    ['64.0 %', '68.3 %', '72.3 %']
    >>> m.history()[0]
    ('Before 1.2.0 (÷400)', 400, 84.9, 5, -27, 84.4)
    >>> m.divisor = 400
    >>> m.win_rate_rows()[5]                            # 300 up: ÷1200 and ÷400
    (300, 64.0, 84.9)
    """

    def __init__(self, divisor: int = g42.DIVISOR, difference: int = 300):
        self.divisor = divisor
        self.difference = difference
        self.k = g42.K
        self.grid = np.arange(DIFFERENCE_RANGE[0], DIFFERENCE_RANGE[1] + 1, 2.0)

    # state, validated
    @property
    def divisor(self) -> int:
        return self._divisor

    @divisor.setter
    def divisor(self, value) -> None:
        self._divisor = integer("divisor", value, lo=DIVISOR_RANGE[0], hi=DIVISOR_RANGE[1])

    @property
    def difference(self) -> int:
        return self._difference

    @difference.setter
    def difference(self, value) -> None:
        self._difference = integer("difference", value, lo=DIFFERENCE_RANGE[0],
                                   hi=DIFFERENCE_RANGE[1])

    # tables
    def win_rate_rows(self) -> list[tuple]:
        """The document's differences: ``(difference, % at ÷1200, % at the chosen divisor)``."""
        t = tables.divisor_comparison(divisors=(g42.DIVISOR, self.divisor))
        return [tuple(r) for r in t.rows]

    def change_rows(self) -> list[tuple]:
        """K 32 changes by difference at ÷1200 (the document's table) and at the chosen divisor.

        Each row: ``(difference, (fav wins: fav, underdog), (underdog wins: underdog, fav),
        the same two pairs at the chosen divisor)``.

        >>> DivisorModel().change_rows()[3][:3]
        (300, (12, -12), (20, -20))
        """
        doc = tables.changes_by_difference(k=self.k, divisor=g42.DIVISOR).rows
        mine = tables.changes_by_difference(k=self.k, divisor=self.divisor).rows
        return [
            (a[0], (a[1], a[2]), (a[3], a[4]), (b[1], b[2]), (b[3], b[4]))
            for a, b in zip(doc, mine)
        ]

    def history_divisors(self) -> tuple:
        return CURVE_DIVISORS + (self.divisor,)

    def history(self) -> list[tuple]:
        """The version-history table at ``difference``, one row per divisor.

        Rows: ``(label, divisor, expected win rate %, points for a win, points for a
        loss, win rate % needed to hold the rating with those whole points)`` for
        ÷400, ÷800, ÷1200, ÷2000 and the chosen divisor (last).
        """
        t = tables.divisor_history(self.difference, divisors=self.history_divisors(), k=self.k)
        need = self.needed_win_rate(self.difference, np.array(self.history_divisors()))
        need_pct = np.asarray(g42.go_round(1000 * need)) / 10  # 0.1 %, halves away from zero
        out = []
        for i, (row, d) in enumerate(zip(t.rows, self.history_divisors())):
            label = "Your divisor (÷%d)" % d if i == len(CURVE_DIVISORS) else HISTORY_LABELS[d]
            out.append((label, d, row[2], row[3], row[4], float(need_pct[i])))
        return out

    # curves
    def needed_win_rate(self, difference, divisor):
        """Win rate a favourite ``difference`` up needs to hold their rating (0..1).

        With whole-number points ``+w`` for a win and ``−l`` for a loss the rating
        holds when ``p·w = (1 − p)·l``, so ``p = l / (w + l)``. Without rounding this
        is exactly the expected score; Gammon42's rounding moves it a little
        (300 up, ÷400: +5 / −27 needs 27/32 = 84.4 %, the document's "85 %").

        >>> round(float(DivisorModel().needed_win_rate(300, 400)), 4)
        0.8438
        """
        d = np.asarray(difference, dtype=float)
        div = np.asarray(positive("divisor", divisor), dtype=float)
        win, _ = g42.change(d, 0.0, winner_k=self.k, loser_k=self.k, divisor=div)
        _, loss = g42.change(0.0, d, winner_k=self.k, loser_k=self.k, divisor=div)
        win, loss = np.asarray(win, dtype=float), -np.asarray(loss, dtype=float)
        total = win + loss
        out = np.divide(loss, total, out=np.ones_like(total), where=total > 0)
        return out.item() if out.ndim == 0 else out

    def expected_curve(self, divisor) -> np.ndarray:
        """The favourite's expected win rate (%) over :attr:`grid` for ``divisor``.

        FIBS's curve comes from :func:`elo_explain.fibs.win_probability` (one-point match).
        """
        if divisor == FIBS_DIVISOR:
            return 100 * fibs.win_probability(self.grid, 0.0, 1)
        return 100 * g42.expected_score(self.grid, 0.0, divisor)

    def needed_curve(self, divisor) -> np.ndarray:
        """:meth:`needed_win_rate` (%) over :attr:`grid` for ``divisor`` (K 32)."""
        return 100 * self.needed_win_rate(self.grid, divisor)

    def expected_at(self, divisor=None) -> float:
        """Expected win rate (%) of the favourite at :attr:`difference`."""
        return 100 * g42.expected_score(self.difference, 0, divisor or self.divisor)

    def summary(self) -> str:
        """One sentence about the chosen divisor at the chosen difference.

        >>> DivisorModel().summary()
        '300 points up, ÷1200: expected win rate 64.0 %; +12 for a win, −20 for a loss; needs 62.5 % to hold the rating.'
        """
        row = self.history()[-1]
        return (f"{self.difference} points up, ÷{self.divisor}: expected win rate "
                f"{fmt_pct(row[2])}; {fmt_signed(row[3], 0)} for a win, "
                f"{fmt_signed(row[4], 0)} for a loss; needs {fmt_pct(row[5])} to hold the rating.")


# --- the view -----------------------------------------------------------------------------
COLORS = {400: "#d62728", 800: "#ff7f0e", 1200: "#1f77b4", FIBS_DIVISOR: "#2ca02c"}


class DivisorView:
    """Widgets for :class:`DivisorModel`; ``.root`` is the dashboard.

    >>> import matplotlib.pyplot as plt
    >>> before = len(plt.get_fignums())
    >>> v = DivisorView()
    >>> v.difference.slider.value = 200
    >>> len(plt.get_fignums()) == before, v.model.difference, v.model.history()[0][2]
    (True, 200, 76.0)
    """

    def __init__(self, model: DivisorModel | None = None):
        self.model = model or DivisorModel()
        m = self.model
        self.status = widget(widgets.HTML, css="ee-error ee-status")
        self.divisor = SliderField("Your divisor ÷", m.divisor, lo=DIVISOR_RANGE[0],
                                   hi=DIVISOR_RANGE[1], step=50, css="ee-divisor")
        self.difference = SliderField("Rating difference (lead)", m.difference,
                                      lo=DIFFERENCE_RANGE[0], hi=DIFFERENCE_RANGE[1], step=10,
                                      css="ee-difference")
        self.summary = widget(widgets.HTML, css="ee-summary")
        self.win_rate_table = widget(widgets.HTML, css="ee-winrate-table",
                                     layout={"width": "max-content", "margin": "0 2em 0 0"})
        self.change_table = widget(widgets.HTML, css="ee-change-table",
                                   layout={"width": "max-content"})
        self.history_table = widget(widgets.HTML, css="ee-history-table")
        self._build_figure()

        update = updater(self.model, self._render, self.status)
        self.divisor.on_change(lambda v: update(divisor=v))
        self.difference.on_change(lambda v: update(difference=v))
        self._render()  # the first draw, with the real data: FigureView lays out then

        controls = widget(widgets.VBox, [self.divisor, self.difference])
        tables_row = widget(widgets.HBox, [self.win_rate_table, self.change_table],
                            layout={"flex_flow": "row wrap"})
        self.root = app_root(
            [controls, self.status, self.summary, self.figure.out,
             tables_row, self.history_table],
        )

    # figure made once; artists mutated afterwards
    def _build_figure(self) -> None:
        m = self.model
        self.figure = FigureView(figsize=(11, 4.1), height="420px", ncols=2)
        left, right = self.figure.axes
        x = m.grid
        for d in CURVE_DIVISORS:
            left.plot(x, m.expected_curve(d), color=COLORS[d], lw=1.6, label=CURVE_LABELS[d])
            right.plot(x, m.needed_curve(d), color=COLORS[d], lw=1.4, label=f"÷{d}",
                       drawstyle="steps-mid")
        (self.my_expected,) = left.plot(x, m.expected_curve(m.divisor), color="black", lw=2,
                                        ls="--", label="your divisor (the slider)")
        (self.my_needed,) = right.plot(x, m.needed_curve(m.divisor), color="black", lw=2, ls="--",
                                       label=f"÷{m.divisor}: your divisor",
                                       drawstyle="steps-mid")
        self.left_vline = left.axvline(m.difference, color="grey", lw=0.8)
        self.right_vline = right.axvline(m.difference, color="grey", lw=0.8)
        (self.my_point,) = left.plot([m.difference], [m.expected_at()], "o", color="black")
        self.my_label = left.text(0.03, 0.95, "", transform=left.transAxes, fontsize=9,
                                  va="top", fontweight="bold")
        # what a slider changes is drawn on a saved background (FigureView.dynamic)
        self.figure.dynamic(self.my_expected, self.my_needed, self.left_vline, self.right_vline,
                            self.my_point, self.my_label)
        # the document's 85 % point: 300 up with ÷400 (+5 / −27)
        need400 = 100 * m.needed_win_rate(300, 400)
        right.plot([300], [need400], "o", ms=9, mfc="none", mec=COLORS[400], mew=2)
        right.annotate("÷400, 300 up: +5 / −27\n→ must win ≈ 85 % to hold the rating",
                       xy=(300, need400), xytext=(15, 93), fontsize=8.5, color=COLORS[400],
                       va="center", arrowprops=dict(arrowstyle="->", color=COLORS[400], lw=0.8))
        right.axhspan(57, 58, color="grey", alpha=0.3, lw=0)
        right.text(790, 53, "57–58 %: what the strongest players really won under ÷800",
                   fontsize=8, va="center", ha="right", color="#333")
        for ax in (left, right):
            ax.set_xlim(x[0], x[-1])
            ax.set_ylim(48, 100)
            ax.set_xlabel("Rating difference (favourite minus underdog)")
            ax.grid(alpha=0.3)
        left.set_ylabel("Favourite's expected win rate (%)")
        left.set_title("Expected win rate by divisor", fontsize=10.5)
        right.set_ylabel("Win rate needed to hold the rating (%)")
        right.set_title("Win rate needed to hold the rating (K 32, whole points;\n"
                        "same colours)", fontsize=10.5)
        self.left_legend = left.legend(fontsize=8, loc="lower right")

    def _render(self) -> None:
        m = self.model
        d = m.divisor
        # tables
        self.win_rate_table.value = table_html(
            ["Rating difference", "÷1200 (the document)", f"÷{d} (your divisor)"],
            [[str(r[0]), fmt_pct(r[1]), fmt_pct(r[2])] for r in m.win_rate_rows()],
            caption="Expected win rate of the favourite",
        )
        self.change_table.value = table_html(
            ["Rating difference", "Favourite wins", "Underdog wins",
             f"÷{d}: favourite wins", f"÷{d}: underdog wins"],
            [[str(r[0]), fmt_pair(*r[1]), fmt_pair(*r[2]), fmt_pair(*r[3]), fmt_pair(*r[4])]
             for r in m.change_rows()],
            caption="Rating changes with K 32, cube 1 (winner / loser); the document's ÷1200 first",
        )
        hist = m.history()
        self.history_table.value = table_html(
            [f"Favourite {m.difference} points up"] + [h[0] for h in hist],
            [["Expected win rate"] + [fmt_pct(h[2]) for h in hist],
             ["Points for a win"] + [fmt_signed(h[3], 0) for h in hist],
             ["Points for a loss"] + [fmt_signed(h[4], 0) for h in hist],
             ["Win rate needed to hold the rating"] + [fmt_pct(h[5]) for h in hist]],
            caption="Version history (K 32): at 300 points up this is the document's table",
        ) + ("<p class='ee-note'>The win rate needed is where the whole-number points balance, "
             "p × (points for a win) = (1 − p) × (points lost); without rounding it equals the "
             "expected win rate.</p>")
        self.summary.value = f"<p class='ee-value ee-big'>{html.escape(m.summary())}</p>"
        # figure
        self.my_expected.set_ydata(m.expected_curve(d))
        self.my_needed.set_ydata(m.needed_curve(d))
        for line in (self.left_vline, self.right_vline):
            line.set_xdata([m.difference, m.difference])
        self.my_point.set_data([m.difference], [m.expected_at()])
        self.my_label.set_text(f"your divisor (dashed): ÷{d}")
        self.figure.refresh()


def divisor_dashboard() -> widgets.VBox:
    """The dashboard's root widget (what the notebook's last cell returns)."""
    return DivisorView().root
