"""Response times of the simulation and fitting functions at dashboard-sized settings.

No baseline: these rows tell a dashboard author how long one slider move costs
(:func:`elo_explain.simulate.simulate_season` per rule set at 100 players, 20 weeks,
10 games a week; :func:`~elo_explain.simulate.weekly_swing` at its defaults;
:func:`~elo_explain.calibration.fit_divisor` on the bundled rated Lichess games).
"""

from __future__ import annotations

from benchmarks import median_time

SEASON = dict(players=100, weeks=20, games_per_week=10, seed=0)


def run(repeats: int = 5) -> list[dict]:
    """One row per measured call."""
    from elo_explain import calibration, lichess, simulate

    rows = []
    for name, rules in simulate.RULE_SETS.items():
        t = median_time(lambda: simulate.simulate_season(rules, **SEASON), repeats)
        rows.append(
            {
                "benchmark": f"simulate_season: {name}",
                "work": "100 players, 20 weeks x 10 games (10,000 games)",
                "ours_seconds": t,
                "baseline": None,
                "baseline_seconds": None,
                "note": "",
            }
        )
    t = median_time(lambda: simulate.weekly_swing(), repeats)
    rows.append(
        {
            "benchmark": "weekly_swing (defaults)",
            "work": "K 32 and 16; 20...300 games; 2,000 weeks each",
            "ours_seconds": t,
            "baseline": None,
            "baseline_seconds": None,
            "note": "",
        }
    )
    games = lichess.load_games(rated_only=True)
    for offset in (False, True):
        t = median_time(
            lambda: calibration.fit_divisor(games.difference, games.result, white_advantage=offset),
            repeats,
        )
        rows.append(
            {
                "benchmark": "fit_divisor on the Lichess games"
                + (" with white advantage" if offset else ""),
                "work": f"{len(games):,} rated games",
                "ours_seconds": t,
                "baseline": None,
                "baseline_seconds": None,
                "note": "includes the profile-likelihood interval and the calibration table",
            }
        )
    return rows
