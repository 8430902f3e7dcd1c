"""Elo games: ``elo_explain`` vectorised code vs a plain per-game Python loop.

Every row rates the same games on both sides, from the same inputs, and checks that the
new ratings agree to 1e-9 points (the benchmark fails otherwise). K 20, ÷400, 10,000
players, about 40 % wins, 20 % draws, 40 % losses.

1. **Round by round** (:class:`elo_explain.simulate.Elo`, i.e. ``elo.expected_score`` and
   ``elo.rating_change`` on the arrays of one round): 20 rounds in which every player plays
   one game against a random opponent (5,000 disjoint pairs), each round rated from the
   ratings after the previous one. Because a round's pairs are disjoint, rating it at once
   gives exactly the per-game loop's ratings. Each call carries only 5,000 games, so the
   fixed cost of a numpy call and of the input checks weighs more than in a period.
2. **A rating period** with :func:`elo_explain.elo.expected_score` and
   :func:`elo_explain.elo.rating_change` on ``(10,000, 10)`` arrays (every player's 10 games,
   opponents' ratings given per game, computed from the starting ratings and summed per
   player), as FIDE rates a period -- against the loop over the same 100,000 games.

(The period rows once timed ``rating_period_batch`` and ``pool_period``, which
nothing in the product used; they were dropped, and the same baseline now measures the
functions that remain. The speed-ups are reported; there is no goal for them.)

The loops keep ratings in Python lists and use only floats and ``10 ** x`` (no numpy),
the way one would write them without the package.
"""

from __future__ import annotations

import numpy as np

from benchmarks import compare

PLAYERS = 10_000
ROUNDS = 20
PERIOD_GAMES = 10
K = 20.0
AGREE = 1e-9  # points: both sides must give the same new ratings


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


def _check(ours, theirs, what: str) -> float:
    diff = float(np.max(np.abs(np.asarray(ours) - np.asarray(theirs))))
    if not diff <= AGREE:
        raise AssertionError(f"{what}: new ratings differ by {diff} points (> {AGREE})")
    return diff


def _row(benchmark, work, ours_s, baseline, base_s, note):
    return {
        "benchmark": benchmark,
        "work": work,
        "ours_seconds": ours_s,
        "baseline": baseline,
        "baseline_seconds": base_s,
        "note": note,
    }


def run(repeats: int = 5) -> list[dict]:
    """Time each pair alternately on the same games; return one row per comparison."""
    from elo_explain import elo, simulate

    loop_name = "plain Python loop, one game at a time"
    rows = []

    # 1. round by round
    a, b, score = _pairings()
    rules = simulate.Elo(k=K)
    games = list(zip(a.ravel().tolist(), b.ravel().tolist(), score.ravel().tolist()))

    def rounds():
        state = rules.start(PLAYERS, ROUNDS)
        for r in range(ROUNDS):
            rules.play(state, a[r], b[r], score[r])
        return rules.ratings(state)

    def rounds_loop():
        return python_loop([1500.0] * PLAYERS, games)

    ours_s, loop_s = compare(rounds, rounds_loop, repeats)
    diff = _check(rounds(), rounds_loop(), "round by round")
    rows.append(
        _row(
            "Elo games, rated round by round (`simulate.Elo`)",
            f"{PLAYERS:,} players x {ROUNDS} rounds ({PLAYERS // 2 * ROUNDS:,} games, "
            f"{PLAYERS // 2:,} per call)",
            ours_s,
            loop_name,
            loop_s,
            f"same ratings (max difference {diff:.1g} points)",
        )
    )

    # 2. one rating period from the starting ratings
    rng = np.random.default_rng(1)
    start = rng.normal(1500, 250, PLAYERS)
    opp = rng.integers(0, PLAYERS, (PLAYERS, PERIOD_GAMES))
    s = rng.choice([0.0, 0.5, 1.0], size=opp.shape, p=[0.4, 0.2, 0.4])
    opp_ratings = start[opp]
    start_l, opp_l, s_l = start.tolist(), opp.tolist(), s.tolist()
    work = f"{PLAYERS:,} players x {PERIOD_GAMES} games ({PLAYERS * PERIOD_GAMES:,} games)"

    def period_loop():
        out = []
        for i, r in enumerate(start_l):
            total = 0.0
            for j, sc in zip(opp_l[i], s_l[i]):
                total += K * (sc - 1.0 / (1.0 + 10.0 ** ((start_l[j] - r) / 400.0)))
            out.append(r + total)
        return out

    def arrays():
        e = elo.expected_score(start[:, None], opp_ratings)
        return start + elo.rating_change(s, e, K).sum(axis=1)

    reference = period_loop()
    for name, ours, note in (
        (
            "Elo rating period (`expected_score` and `rating_change` on (players, games) arrays)",
            arrays,
            "one numpy pass per step over all games",
        ),
    ):
        ours_s, base_s = compare(ours, period_loop, repeats)
        diff = _check(ours(), reference, name)
        rows.append(
            _row(
                name,
                work,
                ours_s,
                loop_name,
                base_s,
                f"{note}; same ratings (max difference {diff:.1g} points)",
            )
        )
    return rows
