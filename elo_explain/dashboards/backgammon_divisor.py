"""Dashboard 3, the backgammon divisor: for a divisor and a rating difference, the
favourite's expected win rate, the K 32 changes, the version history and the win rate
needed to hold a rating, next to Gammon42's ÷1200 (:mod:`elo_explain.gammon42`,
:mod:`elo_explain.tables`, FIBS's curve from :mod:`elo_explain.fibs`). The notebook shows
the model's three tables, live: they follow the view's sliders, its examples and the page's
link; the view draws the curves and sums the chosen lead up in two lines."""

from __future__ import annotations

import html

import numpy as np

from elo_explain import fibs, tables
from elo_explain import gammon42 as g42
from elo_explain.formats import fmt_pair, fmt_pct, fmt_plain, fmt_signed
from elo_explain.i18n import N_, _, ngettext
from elo_explain.interactive.figures import CARD, FigureView
from elo_explain.interactive.live import depends
from elo_explain.interactive.model import DashboardModel
from elo_explain.interactive.page import html_box
from elo_explain.interactive.traits import Whole
from elo_explain.interactive.view import DashboardView

__all__ = ["as_printed", "DivisorModel", "DivisorView"]

FIBS_DIVISOR = int(fibs.DIVISOR)  # FIBS's divisor for one-point matches (2000)
# the fixed curves: (legend, version-history label, colour)
CURVES = {
    400: (N_("÷400: chess; Gammon42 before 1.2.0"), N_("Before 1.2.0 (÷400)"), "#d62728"),
    800: (N_("÷800: Gammon42 1.2.0 to 1.3.0"), N_("1.2.0 to 1.3.0 (÷800)"), "#ff7f0e"),
    1200: (N_("÷1200: Gammon42 from 1.3.1"), N_("From 1.3.1 (÷1200)"), "#1f77b4"),
    FIBS_DIVISOR: (N_("÷2000: FIBS, one-point match"), N_("FIBS's ÷2000 with K 32"), "#2ca02c"),
}
POINTS = (None, fmt_pct, lambda v: fmt_signed(v, 0), lambda v: fmt_signed(v, 0), fmt_pct)


class DivisorModel(DashboardModel):
    """A divisor and a favourite's lead; K 32 and cube 1 as Gammon42.

    >>> m = DivisorModel(divisor=400)
    >>> m.win_rates().rows[5]                  # 300 up: ÷1200 (the document) and ÷400
    (300, 64.0, 84.9)
    >>> m.history().rows[0]
    ('Before 1.2.0 (÷400)', 400, 84.9, 5, -27, 84.4)
    """

    params = ("divisor", "difference")
    presets = {
        N_("The document: 300 points up, ÷1200"): {"divisor": 1200, "difference": 300},
        N_("Gammon42 1.2.0: ÷800, 300 points up"): {"divisor": 800, "difference": 300},
        N_("Chess: ÷400, 200 points up (76 %)"): {"divisor": 400, "difference": 200},
    }
    divisor = Whole(g42.DIVISOR, 100, 4000, label=N_("Your divisor"))
    difference = Whole(300, 0, 800, label=N_("Rating difference"))
    grid = np.arange(0, 801, 2.0)  # differences of the curves

    @depends("divisor")
    def win_rates(self) -> tables.Table:
        """The document's differences: ``(difference, % at ÷1200, % at the divisor)``."""
        t = tables.divisor_comparison(divisors=(g42.DIVISOR, self.divisor))
        return tables.Table(
            (
                _("Rating difference"),
                _("÷1200 (the document)"),
                _("÷{divisor} (your divisor)").format(divisor=fmt_plain(self.divisor)),
            ),
            t.rows,
            _("Expected win rate of the favourite"),
            (None, fmt_pct, fmt_pct),
        )

    @depends("divisor")
    def changes(self) -> tables.Table:
        """K 32 changes by difference, ``(winner, loser)`` pairs: favourite wins, underdog
        wins at ÷1200 (the document's table), then the same at the divisor.

        >>> DivisorModel().changes().rows[3][:3]
        (300, (12, -12), (20, -20))
        """
        doc, mine = (
            tables.changes_by_difference(k=g42.K, divisor=d).rows
            for d in (g42.DIVISOR, self.divisor)
        )
        rows = [(a[0], a[1:3], a[3:5], b[1:3], b[3:5]) for a, b in zip(doc, mine)]
        d = fmt_plain(self.divisor)
        return tables.Table(
            (
                _("Rating difference"),
                _("÷1200 (the document): favourite wins"),
                _("÷1200: underdog wins"),
                _("÷{divisor} (your divisor): favourite wins").format(divisor=d),
                _("÷{divisor}: underdog wins").format(divisor=d),
            ),
            rows,
            _("Rating changes with K 32, cube 1 (winner / loser)"),
            (None,) + (lambda p: fmt_pair(*p),) * 4,
        )

    @depends("divisor", "difference")
    def history(self) -> tables.Table:
        """At :attr:`difference`, per divisor (÷400, ÷800, ÷1200, ÷2000, the reader's): expected
        win rate %, points for a win and a loss, win rate % needed to hold the rating."""
        divisors = (*CURVES, self.divisor)
        t = tables.divisor_history(self.difference, divisors=divisors, k=g42.K)
        need = (
            np.asarray(
                g42.go_round(1000 * self.needed_win_rate(self.difference, np.array(divisors)))
            )
            / 10
        )  # 0.1 %, halves away from zero
        labels = [_(CURVES[d][1]) for d in CURVES] + [
            _("Your divisor (÷{divisor})").format(divisor=fmt_plain(self.divisor))
        ]
        return tables.Table(
            (
                _("Version"),
                _("Divisor"),
                _("Expected win rate"),
                _("Points for a win"),
                _("Points for a loss"),
                _("Win rate needed to hold the rating"),
            ),
            [(lab, r[1], r[2], r[3], r[4], float(n)) for lab, r, n in zip(labels, t.rows, need)],
            ngettext(
                "A favourite {lead} point up: the version history (K 32; at 300 points up "
                "the document's table)",
                "A favourite {lead} points up: the version history (K 32; at 300 points up "
                "the document's table)",
                self.difference,
            ).format(lead=fmt_plain(self.difference)),
            (None,) + POINTS,
        )

    def needed_win_rate(self, difference, divisor):
        """Win rate (0..1) a favourite ``difference`` up needs to hold their rating: with whole
        points ``+w`` / ``−l``, ``p·w = (1 − p)·l`` gives ``p = l / (w + l)`` (300 up, ÷400:
        +5 / −27 needs 27/32, the document's "85 %").

        >>> round(float(DivisorModel().needed_win_rate(300, 400)), 4)
        0.8438
        """
        return g42.break_even_win_rate(difference, divisor=divisor)

    def expected_curve(self, divisor) -> np.ndarray:
        """The favourite's expected win rate (%) over :attr:`grid` (FIBS: one-point match)."""
        if divisor == FIBS_DIVISOR:
            return 100 * fibs.win_probability(self.grid, 0.0, 1)
        return 100 * g42.expected_score(self.grid, 0.0, divisor)

    def needed_curve(self, divisor) -> np.ndarray:
        """:meth:`needed_win_rate` (%) over :attr:`grid`."""
        return 100 * self.needed_win_rate(self.grid, divisor)


#: The Greek document's win rates that hold a rating, as it prints them (docs/sources.md#greek
#: G14, G7): (divisor, difference, the document's words).
PRINTED = ((400, 300, N_("85 %")), (g42.DIVISOR, 200, N_("about 60 %")))


def as_printed() -> tables.Table:
    """The document's rounded figures beside the exact ones they round (fixed): the win rate
    that holds a rating is ``loss / (win + loss)`` with the server's whole points.

    >>> for row in as_printed().rows: print(row)
    ('÷400, 300 points up', '+5 / −27', '27 / 32 = 84.4 %', '85 %')
    ('÷1200, 200 points up', '+13 / −19', '19 / 32 = 59.4 %', 'about 60 %')
    """
    rows = []
    for divisor, lead, words in PRINTED:
        ((*_row, win, loss),) = tables.divisor_history(lead, divisors=(divisor,), k=g42.K).rows
        need = 100 * float(g42.break_even_win_rate(lead, divisor=divisor))
        rows.append(
            (
                ngettext(
                    "÷{divisor}, {lead} point up", "÷{divisor}, {lead} points up", lead
                ).format(divisor=fmt_plain(divisor), lead=fmt_plain(lead)),
                fmt_pair(win, loss),
                f"{fmt_plain(-loss)} / {fmt_plain(win - loss)} = {fmt_pct(need)}",
                _(words),
            )
        )
    return tables.Table(
        (
            _("A favourite"),
            _("Points for a win / a loss (K 32)"),
            _("Win rate that holds the rating"),
            _("The document prints"),
        ),
        rows,
        _("The document's figures beside the exact ones (fixed)"),
    )


class DivisorView(DashboardView):
    """Sliders for the divisor and the difference, a summary of the chosen lead (the reader's
    divisor, then the version history) and the curves.

    >>> import re
    >>> v = DivisorView(DivisorModel(), query="divisor=800")
    >>> print(re.sub("<[^>]+>|; | · ", "\\n", v.summary.value).strip())  # the document, 300 up
    300 points up, ÷800: expected win rate 70.3 %
    +9 for a win, −23 for a loss
    needs 71.9 % to hold the rating.
    <BLANKLINE>
    At 300 points up: ÷400 84.9 % (+5 / −27)
    ÷800 70.3 % (+9 / −23)
    ÷1200 64.0 % (+12 / −20)
    FIBS ÷2000 58.5 % (+13 / −19)
    """

    docked = ("divisor", "difference")
    key_target = "ee-summary"

    def key_result(self) -> str:
        """The favourite's expected win rate at the reader's divisor and lead."""
        m = self.model
        return ngettext(
            "÷{divisor}, {lead} point up: {pct}",
            "÷{divisor}, {lead} points up: {pct}",
            m.difference,
        ).format(
            divisor=fmt_plain(m.divisor),
            lead=fmt_plain(m.difference),
            pct=fmt_pct(m.history().rows[-1][2]),
        )

    def build(self) -> list:
        self.summary = html_box("ee-summary")
        self._figure()
        return [
            self.preset_menu(),
            self.slider("divisor", step=50),
            self.slider("difference", step=10),
            self.summary,
            self.figure.out,
        ]

    def _figure(self) -> None:
        m = self.model
        self.figure = FigureView(
            figsize=(11, 4.1),
            height="420px",
            ncols=2,
            margins=dict(left=0.06, right=0.98, bottom=0.12, top=0.87, wspace=0.2),
        )
        left, right = self.figure.axes
        for d, (legend, _version, color) in CURVES.items():
            left.plot(m.grid, m.expected_curve(d), color=color, lw=1.6, label=_(legend))
            right.plot(m.grid, m.needed_curve(d), color=color, lw=1.4, drawstyle="steps-mid")
        mine = dict(color="black", lw=2, ls="--")
        self.my_expected = left.plot(m.grid, m.grid, **mine, label=_("your divisor (the slider)"))[
            0
        ]
        self.my_needed = right.plot(m.grid, m.grid, **mine, drawstyle="steps-mid")[0]
        self.left_vline = left.axvline(0, color="grey", lw=0.8)
        self.right_vline = right.axvline(0, color="grey", lw=0.8)
        self.my_point = left.plot([0], [50], "o", color="black")[0]
        # the texts in the panels lie on a box of their own, drawn over the curves and the
        # lead's line (which moves anywhere a slider puts it): no line runs through a digit
        self.my_label = left.text(
            0.03,
            0.95,
            "",
            transform=left.transAxes,
            fontsize=9,
            va="top",
            fontweight="bold",
            bbox=CARD,
        )
        need400, red = 100 * m.needed_win_rate(300, 400), CURVES[400][2]  # the document's 85 %
        right.plot([300], [need400], "o", ms=9, mfc="none", mec=red, mew=2)
        self.note_400 = right.annotate(
            _("÷400, 300 up: {points}\n→ must win ≈ {pct} to hold the rating").format(
                points=fmt_pair(5, -27), pct=fmt_pct(85, 0)
            ),
            xy=(300, need400),
            xytext=(15, 93),
            fontsize=8.5,
            color=red,
            va="center",
            bbox=CARD,
            arrowprops=dict(arrowstyle="->", color=red, lw=0.8),
        )
        right.axhspan(57, 58, color="grey", alpha=0.3, lw=0)
        self.note_band = right.text(
            790,
            53,
            _("{range}: what the strongest players really won under ÷800").format(
                range=f"{fmt_plain(57)}–{fmt_pct(58, 0)}"
            ),
            fontsize=8,
            va="center",
            ha="right",
            color="#333",
            bbox=CARD,
        )
        # what a slider changes is drawn on a saved background (FigureView.dynamic); the
        # notes too, over the lines drawn there
        self.figure.dynamic(
            self.my_expected,
            self.my_needed,
            self.left_vline,
            self.right_vline,
            self.my_point,
            self.my_label,
            self.note_400,
            self.note_band,
        )
        for ax in (left, right):
            ax.set(
                xlim=(0, 800),
                ylim=(48, 100),
                xlabel=_("Rating difference (favourite minus underdog)"),
            )
            ax.grid(alpha=0.3)
        left.set_ylabel(_("Favourite's expected win rate (%)"))
        left.set_title(_("Expected win rate by divisor"), fontsize=10.5)
        right.set_ylabel(_("Win rate needed to hold the rating (%)"))
        right.set_title(
            _("Win rate needed to hold the rating (K 32, whole points;\nsame colours)"),
            fontsize=10.5,
        )
        left.legend(fontsize=8, loc="lower right")

    @depends(DivisorModel.history)
    def show_lead(self) -> None:
        """The headline and the version history at the chosen lead."""
        m, d, lead = self.model, self.model.divisor, self.model.difference
        *versions, (_label, _divisor, pct, win, loss, need) = m.history().rows
        self.summary.value = (
            "<p class='ee-value ee-big'>"
            + html.escape(
                ngettext(
                    "{lead} point up, ÷{divisor}: expected win rate {pct}; {win} for a win, "
                    "{loss} for a loss; needs {need} to hold the rating.",
                    "{lead} points up, ÷{divisor}: expected win rate {pct}; {win} for a win, "
                    "{loss} for a loss; needs {need} to hold the rating.",
                    lead,
                ).format(
                    lead=fmt_plain(lead),
                    divisor=fmt_plain(d),
                    pct=fmt_pct(pct),
                    win=fmt_signed(win, 0),
                    loss=fmt_signed(loss, 0),
                    need=fmt_pct(need),
                )
            )
            + "</p><p class='ee-note'>"
            + html.escape(
                ngettext(
                    "At {lead} point up: {versions}", "At {lead} points up: {versions}", lead
                ).format(
                    lead=fmt_plain(lead),
                    versions=" · ".join(
                        f"{'FIBS ' if v == FIBS_DIVISOR else ''}÷{fmt_plain(v)} {fmt_pct(p)} "
                        f"({fmt_pair(w, lo)})"
                        for _v, v, p, w, lo, _n in versions
                    ),
                )
            )
            + "</p>"
        )

    @depends("divisor", "difference")
    def draw(self) -> None:
        """The reader's curves (the divisor) and the lead's line and point."""
        m, d, lead = self.model, self.model.divisor, self.model.difference
        self.my_expected.set_ydata(m.expected_curve(d))
        self.my_needed.set_ydata(m.needed_curve(d))
        for line in (self.left_vline, self.right_vline):
            line.set_xdata([lead, lead])
        self.my_point.set_data([lead], [100 * g42.expected_score(lead, 0, d)])
        self.my_label.set_text(_("your divisor (dashed): ÷{divisor}").format(divisor=fmt_plain(d)))
        self.figure.refresh()
