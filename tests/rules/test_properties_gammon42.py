"""Hypothesis properties of elo_explain.gammon42."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from elo_explain import gammon42 as g

ratings = st.integers(min_value=0, max_value=4000)
float_ratings = st.floats(min_value=-1000, max_value=5000, allow_nan=False)
ks = st.sampled_from([16, 32]) | st.integers(min_value=1, max_value=64)
cubes = st.sampled_from(g.CUBE_VALUES)
divisors = st.sampled_from([400, 800, 1200, 2000]) | st.integers(min_value=1, max_value=5000)


@given(ratings, ratings, ks, cubes, divisors)
def test_equal_k_is_zero_sum(a, b, k, cube, d):
    w, l = g.change(a, b, winner_k=k, loser_k=k, cube=cube, divisor=d)
    assert w == -l


@given(float_ratings, float_ratings, divisors)
def test_expected_scores_sum_to_one(a, b, d):
    assert abs(g.expected_score(a, b, d) + g.expected_score(b, a, d) - 1) < 1e-12


@given(ratings, ratings, ks, ks, cubes, divisors)
def test_winner_gains_and_loser_loses(a, b, wk, lk, cube, d):
    w, l = g.change(a, b, winner_k=wk, loser_k=lk, cube=cube, divisor=d)
    assert w >= 0 and l <= 0
    # never more than K times the cube multiplier
    c = g.cube_coefficient(cube)
    assert w <= wk * c + 0.5 and -l <= lk * c + 0.5


@given(ratings, st.integers(min_value=0, max_value=2000), ratings, ks, cubes)
def test_monotone_in_the_difference(a, step, b, k, cube):
    # a higher-rated winner gains less and makes the loser lose less
    w1, l1 = g.change(a, b, winner_k=k, loser_k=k, cube=cube)
    w2, l2 = g.change(a + step, b, winner_k=k, loser_k=k, cube=cube)
    assert w2 <= w1 and l2 >= l1
    assert g.expected_score(a + step, b) >= g.expected_score(a, b)


@given(ratings, ratings, ks, ks, cubes)
def test_change_matches_an_exact_decimal_oracle(a, b, wk, lk, cube):
    # Independent re-computation in the order of the Go code, rounding with Decimal HALF_UP
    e = 1.0 / (1.0 + 10.0 ** ((b - a) / 1200))
    coef = 1 + np.log2(cube) / 6
    w = int(Decimal(wk * (1 - e) * coef).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    lo = int(Decimal(lk * (0 - (1 - e)) * coef).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert g.change(a, b, winner_k=wk, loser_k=lk, cube=cube) == (w, lo)


@given(st.lists(ratings, min_size=1, max_size=20), ratings, ks, cubes)
def test_vectorized_equals_scalar(winners, loser, k, cube):
    w, l = g.change(np.array(winners), loser, winner_k=k, loser_k=k, cube=cube)
    assert [(int(x), int(y)) for x, y in zip(w, l)] == [
        g.change(x, loser, winner_k=k, loser_k=k, cube=cube) for x in winners
    ]


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15))
def test_go_round_is_half_away_from_zero(x):
    expected = float(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert g.go_round(x) == expected


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_go_round_exact_halves(n):
    x = n + 0.5 if n >= 0 else n - 0.5
    assert g.go_round(x) == (n + 1 if n >= 0 else n - 1)


T0 = dt.datetime(2026, 10, 1)
offsets = st.integers(min_value=0, max_value=30 * 24 * 3600)  # seconds within 30 days


@given(st.lists(offsets, max_size=60), st.lists(offsets, min_size=1, max_size=5))
def test_window_count_matches_brute_force(game_secs, at_secs):
    times = [T0 + dt.timedelta(seconds=s) for s in game_secs]
    ats = [T0 + dt.timedelta(seconds=s) for s in at_secs]
    got = g.recent_ranked_games(times, np.array(ats, dtype="datetime64[us]"))
    week = dt.timedelta(days=7)
    want = [sum(1 for t in times if at - week < t < at) for at in ats]
    assert np.asarray(got).tolist() == want


@settings(max_examples=50)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=600), st.integers(0, 5), st.integers(0, 5), cubes
        ),
        max_size=80,
    )
)
def test_ladder_invariants(entries):
    # one game every few minutes among six players
    log, t = [], T0
    for minutes, w, lo, cube in entries:
        if w == lo:
            continue
        t = t + dt.timedelta(minutes=minutes)
        log.append((t, f"p{w}", f"p{lo}", cube))
    ladder = g.Ladder()
    games = ladder.replay(log)
    total = 0
    for i, x in enumerate(games):
        want = g.k_for(
            sum(
                1
                for e in log[:i]
                if x.winner in e[1:3] and x.time - g.HEAVY_VOLUME_WINDOW < e[0] < x.time
            )
        )
        assert x.winner_k == want
        assert x.winner_after - x.winner_before == x.winner_delta >= 0
        assert x.loser_after - x.loser_before == x.loser_delta <= 0
        total += x.winner_delta + x.loser_delta
    # the ratings change exactly by the sum of the deltas
    assert sum(ladder.ratings.values()) == 1500 * len(ladder.ratings) + total
    if all(x.winner_k == x.loser_k for x in games):
        assert total == 0
