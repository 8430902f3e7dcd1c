"""What the chess dashboards (01 calculator, 02 FIDE rules, 11 plan) share.

The rating periods a reader picks (:data:`PERIODS`, a trait :func:`period_trait`), the K of a
player profile (:class:`ProfileK`, 01's and 11's models), the page CSS and the look of an
expected-score plot. (The tables both show, the Telugu document's
400-point example and FIDE's K rules, are the documents' tables: :mod:`elo_explain.tables`.)
"""

from __future__ import annotations

import traitlets

from elo_explain import fide
from elo_explain.i18n import N_, _
from elo_explain.interactive.live import depends

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

#: The traits the K of a player profile reads.
K_TRAITS = ("k", "rating", "rated_games", "birth_year", "reached_2400", "on")


class ProfileK:
    """A model's K: the one chosen (``k``: 40, 20 or 10), or FIDE's rule for the player's
    profile (``k = "profile"``: ``rating``, ``rated_games``, ``birth_year``, ``reached_2400``
    on the date ``on``). A mixin of 01's and 11's models, which hold those traits."""

    @depends("rating", "rated_games", "birth_year", "reached_2400", "on")
    def k_decision(self) -> fide.KFactor:
        return fide.k_factor_rule(
            self.rating,
            rated_games=self.rated_games,
            on=self.on,
            birth_year=self.birth_year,
            reached_2400=self.reached_2400,
        )

    @property
    @depends(*K_TRAITS)
    def k_base(self) -> int:
        """K before the 700 rule: the chosen K or FIDE's rule for the profile."""
        return self.k_decision().k if self.k == "profile" else self.k


def period_options() -> list:
    """The rating periods as a dropdown's ``(label, date)`` options, labels in the page's
    language (the dates, a link's values, stay the same)."""
    return [(_(label), on) for label, on in PERIODS.items()]


PERIOD_OPTIONS = [(label, on) for label, on in PERIODS.items()]
"""The same, labels in English (``N_``-marked): a view shows ``_(label)``."""


def period_trait(**kw) -> traitlets.Enum:
    """The date whose rules apply, one of :data:`PERIODS`' dates."""
    return traitlets.Enum(list(PERIODS.values()), default_value=DEFAULT_ON, **kw)


#: Page CSS of both dashboards (on top of :data:`elo_explain.interactive.page.STYLE`).
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
