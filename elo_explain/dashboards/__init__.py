"""One module per dashboard: a pure model class plus a thin widget view.

``DASHBOARDS`` is the published list: notebook file (in ``notebooks/``), title and
the one line the landing page shows.  Tests, the Voilà configuration check and
the landing page all read it, so a dashboard is published by adding it here.
"""

from __future__ import annotations

from typing import NamedTuple


class Dashboard(NamedTuple):
    notebook: str
    title: str
    line: str


DASHBOARDS: tuple[Dashboard, ...] = (
    Dashboard(
        "01_chess_calculator.ipynb",
        "Chess Elo calculator",
        "Expected score, change and new rating for one game or a whole rating period, FIDE-style.",
    ),
    Dashboard(
        "02_fide_rules.ipynb",
        "FIDE rules",
        "Which K applies and why, the 700 rule, the 400-point rule and its 2650 exemption, table vs formula.",
    ),
    Dashboard(
        "03_backgammon_divisor.ipynb",
        "Backgammon divisor (Gammon42)",
        "Why Gammon42 divides by 1200: curves for 400, 800, 1200 and FIBS's 2000, and what a favourite must win.",
    ),
    Dashboard(
        "04_doubling_cube.ipynb",
        "Doubling cube",
        "How the cube scales a Gammon42 rating change: 1 + log2(cube)/6, from 1.00 to 2.00.",
    ),
    Dashboard(
        "05_volume_k.ipynb",
        "K vs weekly volume",
        "Why heavy players get K 16: the 7-day window, asymmetric changes and weekly swings.",
    ),
    Dashboard(
        "06_elo_vs_glicko.ipynb",
        "Elo vs Glicko",
        "The same game under Elo and Glicko-2 as the rating deviation grows; the provisional '?'.",
    ),
    Dashboard(
        "07_every_system.ipynb",
        "Every system, one game",
        "One game, side by side: FIDE, the calculators, Gammon42 1.0.5 / 1.2.0 / 1.3.1, FIBS and Lichess.",
    ),
    Dashboard(
        "08_calibrate.ipynb",
        "Calibrate the curve",
        "Fit the divisor to 15,467 rated Lichess games (19,113 with the casual ones), or to your own results.",
    ),
    Dashboard(
        "09_simulate_ladder.ipynb",
        "Simulate a ladder",
        "Watch a ladder evolve under each rule set; the weekly-swing experiment.",
    ),
    Dashboard(
        "10_new_to_fide.ipynb",
        "New to FIDE",
        "Your first FIDE rating from a first event (2024 rule and the 2022 rule beside it), the 2024 uplift and the 1400 floor.",
    ),
    Dashboard(
        "11_plan.ipynb",
        "What do I need?",
        "The least score that reaches a target (FIDE), the wins that do (Gammon42), the stakes of the next game and a season, period by period.",
    ),
)

INDEX_NOTEBOOK = "index.ipynb"
