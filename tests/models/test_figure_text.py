"""Every figure of every dashboard, as a reader sees its text: on a
desktop and on a phone, in every language, at the defaults and at extreme settings, no text
lies on another, crosses a panel's frame or has a plotted line through a sign or a digit
(``tests/models/figure_text.py``: matplotlib's own text extents, not pixels).

The defects this was written against: 07's bar labels ran over the right frame on a phone,
which crossed the minus of "+10.0 / −10.0"; 05's switch labels on a phone printed "→ K 32
day 18, 22:30" over "day 27, 19:00" and over the curve; 03's Greek and Ukrainian panels came
out mirrored on a phone (a note wider than the panel counted as the panel's margin); 04's
outline of the chosen cube ran through its bar labels; 02's note at 400, 03's and 06's notes
had the curves or a slider's marker through their digits.

Time: each view is made once per language and laid out for the desktop and the phone; each
extreme setting is tried in one language (they take turns), at both layouts.
"""

from __future__ import annotations

import pytest

from elo_explain.dashboards.backgammon_divisor import DivisorView
from elo_explain.dashboards.calibrate import CalibrateView
from elo_explain.dashboards.chess_calculator import CalculatorModel, CalculatorView
from elo_explain.dashboards.doubling_cube import CubeView
from elo_explain.dashboards.elo_vs_glicko import EloVsGlickoView
from elo_explain.dashboards.every_system import EverySystemView
from elo_explain.dashboards.fide_rules import FideRulesView
from elo_explain.dashboards.plan import PlanView
from elo_explain.dashboards.simulate_ladder import LadderView
from elo_explain.dashboards.volume_k import VolumeView
from elo_explain.interactive.figures import PICTURE_NARROW_PX, FigureView
from tests.models.figure_text import problems
from tests.models.shown import in_language
from tests.models.test_figures_phone import PHONE_VIEW, VIEWS

pytestmark = pytest.mark.layout  # make test runs it; make test-fast does not

LANGUAGES = ("en", "te", "uk", "el")
DESKTOP = "1280"

EXTREMES = {  # settings at the ends of the controls' ranges, where labels move and grow
    DivisorView: [
        {"divisor": 100, "difference": 800},
        {"divisor": 4000, "difference": 0},
        {"difference": 20},
        {"divisor": 2000, "difference": 790},
    ],
    CalibrateView: [
        {"bucket": 25, "min_games": 1},
        {"bucket": 200, "min_games": 300},
        {"white_advantage": True, "rated_only": False},
    ],
    CalculatorView: [
        {"rating": 100, "opponent": 3500, "result": "win", "k": 40},
        {"rating": 3500, "opponent": 100, "result": "loss"},
        {"mode": "games", "opponents": [100, 3500, 1500], "results": ["win", "loss", "draw"]},
        {"mode": "average", "average": 3500, "n_games": 50, "points": 50},
    ],
    CubeView: [
        {"cube": 64, "winner_rating": 500, "loser_rating": 3000},
        {"cube": 32},
        {"cube": 16, "winner_rating": 3000, "loser_rating": 500},
    ],
    EloVsGlickoView: [
        {"days_away": 1095, "rd": 45},
        {"rating": 400, "opponent": 3200, "rd": 500, "opponent_rd": 45},
        {"rating": 3200, "opponent": 400, "volatility": 0.02, "days_away": 365},
    ],
    EverySystemView: [
        {"rating": 400, "opponent": 3500, "result": "loss", "k": 40, "cube": 64},
        {"result": "draw"},
        {"match_length": 25, "experience": 0, "rating": 3500, "opponent": 400},
    ],
    FideRulesView: [
        {"games": 1, "difference": 0},
        {"games": 80, "difference": 800},
        {"rating_a": 3000, "rating_b": 1000, "method": "formula", "k": 40},
    ],
    LadderView: [
        {"spread": 0, "weeks": 2, "players": 10},
        {"spread": 400, "games_per_week": 50, "players": 30, "weeks": 10},
    ],
    VolumeView: [
        {"per_day": [40, 40, 40, 40]},
        {"per_day": [0, 0, 0, 0]},
        {"per_day": [10, 0, 10, 0]},
        {"per_day": [9, 3, 9, 3]},
        {"swing_games": 500, "shortfall": 10, "feedback": True},
        {"swing_games": 10, "shortfall": 0, "games": 300},
    ],
    PlanView: [  # the season: one period; 50 periods (the most), ratings from the floor to
        # 3000 and losses of three digits; a new player's K 40 on a 2800 field
        {"season": "1500 0.5", "rating": 1400},
        {
            "season": "\n".join(["2800 1, 2800 1, 2800 1"] * 25 + ["1400 0, 1400 0"] * 25),
            "rating": 1400,
            "rated_games": 0,
        },
        {
            "season": "\n".join(
                f"2026-{m:02d}-01: 1400 0, 1400 0, 1400 0, 1400 0" for m in range(1, 13)
            ),
            "rating": 3000,
            "rated_games": 1000,
        },
        {
            "season": "2026-01-10: 2800 1\n2800 1\n1400 0",
            "rating": 1400,
            "k": "profile",
            "rated_games": 0,
            "birth_year": 2015,
        },
    ],
}


def _hidden(view, where: str, *, draw: bool = False) -> list[str]:
    """What the view's figures hide, as drawn for the page now (``draw``: draw them first;
    a figure's first drawing may be pixels another kernel stored, not laid out here)."""
    return [
        f"{where}, {name}: {p}"
        for name, fv in vars(view).items()
        if isinstance(fv, FigureView)
        for p in problems(fv.fig, draw=draw)
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("view_cls, model_cls", VIEWS, ids=[v.__name__ for v, _ in VIEWS])
def test_no_text_hidden_in_any_figure(view_cls, model_cls, lang):
    with in_language(lang):
        view = view_cls(model_cls(), query="")
        assert view.figures()
        found = _hidden(view, "desktop", draw=True)
        view.viewport.value = str(PHONE_VIEW)
        found += _hidden(view, "phone")
        for values in EXTREMES[view_cls][LANGUAGES.index(lang) :: len(LANGUAGES)]:
            view.apply(values)
            assert view.status.value == "", (values, view.status.value)
            found += _hidden(view, f"phone at {values}")
            view.viewport.value = DESKTOP
            found += _hidden(view, f"desktop at {values}")
            view.viewport.value = str(PHONE_VIEW)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_hidden_in_a_notebook_picture(lang):
    """01's averaging figure, a notebook cell's picture: as a desktop shows it and as the page's
    drawing for a phone lays it out."""
    with in_language(lang):
        pic = CalculatorModel().averaging_figure()
        found = [f"desktop: {p}" for p in problems(pic.figure)]
        layout = FigureView._laying_out(pic.figure)
        assert layout.fit(PICTURE_NARROW_PX)
        try:
            found += [f"phone: {p}" for p in problems(pic.figure)]
        finally:
            layout.fit(float("inf"))
    assert not found, "\n".join(found)
