"""Glicko-2 rating periods: ``elo_explain.glicko.glicko2_batch`` vs the ``glicko2`` package.

10,000 players, each with 10 games in the period against random opponents (their
pre-period ratings and RDs), random results with draws. The ``glicko2`` PyPI package
(Ryan Kirkman's pure-Python implementation, installed as a speed baseline only) updates one
``Player`` object at a time. Its step 5 uses the rating μ where Glickman's paper has φ
(``_f``), so its volatilities differ slightly from the paper's; it is not a correctness
reference. Ratings are compared only to show both did the same amount of work.
"""

from __future__ import annotations

import numpy as np

from benchmarks import compare

PLAYERS = 10_000
GAMES = 10
TAU = 0.5


def _workload(seed=0):
    rng = np.random.default_rng(seed)
    rating = rng.normal(1500, 250, PLAYERS)
    rd = rng.uniform(40, 350, PLAYERS)
    vol = np.full(PLAYERS, 0.06)
    opp = rng.integers(0, PLAYERS, (PLAYERS, GAMES))
    score = rng.choice([0.0, 0.5, 1.0], size=(PLAYERS, GAMES), p=[0.45, 0.1, 0.45])
    return rating, rd, vol, rating[opp], rd[opp], score


def run(repeats: int = 5) -> list[dict]:
    """Time both implementations on the same workload; return one result row."""
    import glicko2  # the speed baseline, a test/benchmark dependency only

    from elo_explain import glicko

    rating, rd, vol, opp_r, opp_rd, score = _workload()

    def ours():
        return glicko.glicko2_batch(rating, rd, vol, opp_r, opp_rd, score, tau=TAU)

    opp_r_l, opp_rd_l, score_l = opp_r.tolist(), opp_rd.tolist(), score.tolist()
    glicko2.Player._tau = TAU

    def make_players():
        return [glicko2.Player(r, d, v) for r, d, v in zip(rating.tolist(), rd.tolist(),
                                                           vol.tolist())]

    def baseline(players):
        for i, p in enumerate(players):
            p.update_player(opp_r_l[i], opp_rd_l[i], score_l[i])
        return players

    ours_s, base_s = compare(ours, baseline, repeats, baseline_setup=make_players)
    new_r, _, _ = ours()
    theirs = np.array([p.rating for p in baseline(make_players())])
    diff = float(np.max(np.abs(new_r - theirs)))
    return [{
        "benchmark": "Glicko-2 rating period",
        "work": f"{PLAYERS:,} players x {GAMES} games",
        "ours_seconds": ours_s,
        "baseline": "`glicko2` 2.1.0 (PyPI), one Player at a time",
        "baseline_seconds": base_s,
        "note": f"new ratings agree within {diff:.2g} points (the package's volatility step "
                "differs from the paper's)",
    }]
