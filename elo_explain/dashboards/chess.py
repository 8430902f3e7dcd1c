"""Pieces shared by the two chess dashboards (01 calculator, 02 FIDE rules).

The rating periods a reader picks (:data:`PERIODS`, a trait :func:`period_trait`), a
the Telugu document's 400-point example
(:func:`cap_example_table`), FIDE's K rules (:func:`k_rules_table`), tables shown with the
dashboards' CSS classes (:func:`show`), the page CSS and the look of an expected-score plot.
"""

from __future__ import annotations

import traitlets

from elo_explain import fide
from elo_explain.i18n import N_, _
from elo_explain.tables import Table
from elo_explain.ui import fmt_number, fmt_signed

#: Rating periods: label -> the ISO date whose rules apply (the 400-point rule changed on
#: 1 October 2025; the junior K depends on the year). Before 1 March 2024 not modelled.
PERIODS = {
    N_("March–December 2024"): "2024-03-01",
    N_("January–September 2025"): "2025-01-01",
    N_("October–December 2025"): "2025-10-01",
    "2026": "2026-01-01",
    "2027": "2027-01-01",
    "2028": "2028-01-01",
}
DEFAULT_ON = "2026-01-01"


def period_options() -> list:
    """The rating periods as a dropdown's ``(label, date)`` options, labels in the page's
    language (the dates, a link's values, stay the same)."""
    return [(_(label), on) for label, on in PERIODS.items()]


PERIOD_OPTIONS = [(label, on) for label, on in PERIODS.items()]
"""The same, labels in English (``N_``-marked): a view shows ``_(label)``."""


def period_trait(**kw) -> traitlets.Enum:
    """The date whose rules apply, one of :data:`PERIODS`' dates."""
    return traitlets.Enum(list(PERIODS.values()), default_value=DEFAULT_ON, **kw)


def cap_example_table(on=DEFAULT_ON) -> Table:
    """The Telugu document's 400-point example (1500 beats 1000, K 20, ÷400 formula): E, the
    change for a win and for a loss, without and with the cap (:func:`fide.rate_period`).
    A fixed example: 1500 is below 2650, so every rating period since March 2024 caps it.

    >>> [[round(x, 2) for x in row[1:]] for row in cap_example_table().rows]
    [[0.95, 1.06, -18.94], [0.91, 1.82, -18.18]]
    """
    rows = []
    for cap, label in ((False, _("Real difference 500 (no cap)")),
                       (True, _("Difference capped at 400"))):
        win, loss = (fide.rate_period(1500, [(1000, s)], k=20, on=on, use_table=False,
                                      cap_400=cap) for s in (1, 0))
        rows.append((label, float(win.expected[0]), win.change, loss.change))
    return Table((_("1500 against 1000, K 20, ÷400 formula"), "E", _("Win"), _("Loss")), rows,
                 _("The Telugu document's example (fixed)"),
                 (None, fmt_number, fmt_signed, fmt_signed))


def k_rules_table(decision: fide.KFactor) -> Table:
    """FIDE rule 8.3.3 tried from the top (:data:`fide.K_RULES`), the rule that gave
    ``decision`` marked; the caption is the decision and its reason."""
    applies = _("◀ applies")
    return Table((_("FIDE rule 8.3.3, tried from the top"), "K", ""),
                 [(fide.k_rule_text(rule), f"K {k}", applies if rule == decision.rule else "")
                  for rule, k, _text in fide.K_RULES],
                 _("The first rule that matches gives K. {decision}").format(
                     decision=decision.text))


#: Page CSS of both dashboards (on top of :data:`elo_explain.ui.STYLE`).
CSS = """<style>
.ee-app .widget-html-content { line-height: 1.45; }
.ee-app h3 { margin: 0.8em 0 0.1em 0; }
.ee-app .ee-k-reason, .ee-app .ee-cap-sum { margin: 0.3em 0; }
.ee-app .ee-row { gap: 24px; }
</style>"""


def expected_axes(ax, xlabel: str) -> None:
    """Label an expected-score plot: E from 0 to 1, grid, legend."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_("Expected score E"))
    ax.set_ylim(-0.03, 1.03)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
