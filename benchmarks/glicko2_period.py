"""Glicko-2 rating periods: ``elo_explain.glicko.glicko2_batch`` vs the ``glicko2`` package.

10,000 players, each with 10 games in the period against random opponents (their
pre-period ratings and RDs), random results with draws, τ 0.5. Both sides get the same
inputs: ours the ``(10,000, 10)`` arrays, the baseline the same numbers as Python lists.
The ``glicko2`` PyPI package (Ryan Kirkman's pure-Python implementation, installed as a
speed baseline only) updates one ``Player`` object at a time; building the 10,000
``Player`` objects is not timed.

Goal: at least 30 × the package at 10,000 players, with the readable
``glicko2_batch`` (the paper's steps on numpy arrays, no memory-layout or cache tricks).
The row's note states the goal; the ratio is measured in the same run, never asserted.

Correctness is not measured here: :func:`glicko2_batch` is tested against Glickman's
worked example in ``tests/rules/test_glicko.py``. The package is *not* a reference: in its
step-5 function ``f`` it uses the player's rating μ² where the paper has φ²
(``self.__rating**2`` in ``_f``), so its volatilities -- and through them RDs and
ratings -- differ slightly from the paper's. The two are compared only loosely, to show
that both rated the same games: the new ratings must agree within 1 point (the row's note
gives the largest difference).
"""

from __future__ import annotations

import numpy as np

from benchmarks import compare

PLAYERS = 10_000
GAMES = 10
TAU = 0.5
LOOSE = 1.0  # points: the package's f differs from the paper's, so only a loose check
GOAL = 30  # speed-up over the `glicko2` package


def _workload(seed=0):
    rng = np.random.default_rng(seed)
    rating = rng.normal(1500, 250, PLAYERS)
    rd = rng.uniform(40, 350, PLAYERS)
    vol = np.full(PLAYERS, 0.06)
    opp = rng.integers(0, PLAYERS, (PLAYERS, GAMES))
    score = rng.choice([0.0, 0.5, 1.0], size=(PLAYERS, GAMES), p=[0.45, 0.1, 0.45])
    return rating, rd, vol, rating[opp], rd[opp], score


def run(repeats: int = 5) -> list[dict]:
    """Time both implementations alternately on the same workload; return one row."""
    import glicko2  # the speed baseline, a test/benchmark dependency only

    from elo_explain import glicko

    rating, rd, vol, opp_r, opp_rd, score = _workload()

    def ours():
        return glicko.glicko2_batch(rating, rd, vol, opp_r, opp_rd, score, tau=TAU)

    opp_r_l, opp_rd_l, score_l = opp_r.tolist(), opp_rd.tolist(), score.tolist()
    glicko2.Player._tau = TAU

    def make_players():
        return [
            glicko2.Player(r, d, v) for r, d, v in zip(rating.tolist(), rd.tolist(), vol.tolist())
        ]

    def baseline(players):
        for i, p in enumerate(players):
            p.update_player(opp_r_l[i], opp_rd_l[i], score_l[i])
        return players

    ours_s, base_s = compare(ours, baseline, repeats, baseline_setup=make_players)
    new_r, new_rd, _ = ours()
    theirs = baseline(make_players())
    diff = float(np.max(np.abs(new_r - np.array([p.rating for p in theirs]))))
    diff_rd = float(np.max(np.abs(new_rd - np.array([p.rd for p in theirs]))))
    if not diff <= LOOSE:
        raise AssertionError(f"Glicko-2: new ratings differ by {diff} points (> {LOOSE})")
    return [
        {
            "benchmark": "Glicko-2 rating period (`glicko2_batch`)",
            "work": f"{PLAYERS:,} players x {GAMES} games ({PLAYERS * GAMES:,} games)",
            "ours_seconds": ours_s,
            "baseline": "`glicko2` 2.1.0 (PyPI), one Player at a time",
            "baseline_seconds": base_s,
            "note": f"goal ≥ {GOAL} ×; speed only: the package's step 5 uses μ² "
            f"for φ², so results differ "
            f"slightly (ratings by up to {diff:.2g}, RDs by up to {diff_rd:.2g} points)",
        }
    ]
