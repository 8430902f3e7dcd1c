"""Elo games: ``elo_explain`` vectorized rounds vs a plain per-game Python loop.

10,000 players play 20 rounds; in each round every player plays one game against a random
opponent (5,000 disjoint pairs), rated game by game with K 20 and ÷400. Because the pairs of
a round are disjoint, rating a round at once (elo-explain: :class:`elo_explain.simulate.Elo`,
i.e. ``elo.expected_score`` and ``elo.rating_change`` on arrays) gives exactly the ratings
of the per-game loop, which is checked.

A second row rates one FIDE-style period at once: every player's 10 games computed from
the starting ratings (``elo.expected_score`` on a (10,000, 10) array) against the same
loop over 100,000 games.
"""

from __future__ import annotations

import numpy as np

from benchmarks import compare

PLAYERS = 10_000
ROUNDS = 20
PERIOD_GAMES = 10
K = 20.0


def _pairings(seed=0):
    rng = np.random.default_rng(seed)
    perms = rng.permuted(np.broadcast_to(np.arange(PLAYERS), (ROUNDS, PLAYERS)), axis=1)
    a, b = perms[:, 0::2], perms[:, 1::2]
    score = rng.choice([0.0, 0.5, 1.0], size=a.shape, p=[0.4, 0.2, 0.4])
    return a, b, score


def python_loop(ratings, games, k=K):
    """The plain baseline: one game at a time, ratings in a Python list."""
    r = list(ratings)
    for a, b, s in games:
        e = 1.0 / (1.0 + 10.0 ** ((r[b] - r[a]) / 400.0))
        d = k * (s - e)
        r[a] += d
        r[b] -= d
    return r


def run(repeats: int = 5) -> list[dict]:
    """Time both on the same games; return two result rows."""
    from elo_explain import elo, simulate

    a, b, score = _pairings()
    rules = simulate.Elo(k=K)
    games = list(zip(a.ravel().tolist(), b.ravel().tolist(), score.ravel().tolist()))

    def ours():
        state = rules.start(PLAYERS, ROUNDS)
        for r in range(ROUNDS):
            rules.play(state, a[r], b[r], score[r])
        return rules.ratings(state)

    def loop():
        return python_loop([1500.0] * PLAYERS, games)

    ours_s, loop_s = compare(ours, loop, repeats)
    same = float(np.max(np.abs(ours() - np.array(loop()))))
    rows = [{
        "benchmark": "Elo games, rated round by round",
        "work": f"{PLAYERS:,} players x {ROUNDS} rounds ({PLAYERS // 2 * ROUNDS:,} games)",
        "ours_seconds": ours_s,
        "baseline": "plain Python loop, one game at a time",
        "baseline_seconds": loop_s,
        "note": f"identical ratings (max difference {same:.1g})",
    }]

    rng = np.random.default_rng(1)
    start = rng.normal(1500, 250, PLAYERS)
    opp = rng.integers(0, PLAYERS, (PLAYERS, PERIOD_GAMES))
    s = rng.choice([0.0, 0.5, 1.0], size=opp.shape, p=[0.4, 0.2, 0.4])
    start_l, opp_l, s_l = start.tolist(), opp.tolist(), s.tolist()

    def ours_period():
        e = elo.expected_score(start[:, None], start[opp])
        return start + elo.rating_change(s, e, K).sum(axis=1)

    def loop_period():
        out = []
        for i, r in enumerate(start_l):
            total = 0.0
            for j, sc in zip(opp_l[i], s_l[i]):
                total += K * (sc - 1.0 / (1.0 + 10.0 ** ((start_l[j] - r) / 400.0)))
            out.append(r + total)
        return out

    ours_p, loop_p = compare(ours_period, loop_period, repeats)
    same = float(np.max(np.abs(ours_period() - np.array(loop_period()))))
    rows.append({
        "benchmark": "Elo rating period (all games from the starting ratings)",
        "work": f"{PLAYERS:,} players x {PERIOD_GAMES} games",
        "ours_seconds": ours_p,
        "baseline": "plain Python loop, one game at a time",
        "baseline_seconds": loop_p,
        "note": f"identical ratings (max difference {same:.1g})",
    })
    return rows
