"""elo_explain.elo.rating_period_batch and pool_period: many players' periods at once.

Sources:
  [TE] /work/shared/seeds/000_7fd785a203dc48e3.txt (Telugu chess Elo calculator page): the
       period of a player rated 1500 with K 20 -- win against 1400, draw against 1600, loss
       against 1550 -- prints the changes +7.2, +2.8, -8.6, total +1.4, new rating 1501.
Every row of a batch must equal :func:`elo.rating_period` on the same games (which is itself
tested against [TE] in test_elo.py); the hypothesis test checks that on random periods.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from elo_explain import elo

TE_OPPONENTS = [1400, 1600, 1550]  # [TE]
TE_SCORES = [1, 0.5, 0]  # [TE] win, draw, loss
TE_CHANGES = [7.2, 2.8, -8.6]  # [TE] printed to one decimal
TE_TOTAL = 1.4  # [TE]
TE_NEW = 1501  # [TE]


def test_batch_rows_are_the_telugu_period():
    # [TE] three players with the same period (and one with the games in another order)
    p = elo.rating_period_batch(1500, [TE_OPPONENTS] * 3 + [TE_OPPONENTS[::-1]],
                                [TE_SCORES] * 3 + [TE_SCORES[::-1]], k=20)
    single = elo.rating_period(1500, list(zip(TE_OPPONENTS, TE_SCORES)), k=20)
    for i in range(4):
        changes = p.changes[i] if i < 3 else p.changes[i][::-1]
        assert changes.round(1).tolist() == TE_CHANGES
        np.testing.assert_allclose(changes, single.changes, rtol=0, atol=1e-12)
        assert round(float(p.total_change[i]), 1) == TE_TOTAL
        assert round(float(p.new_rating[i])) == TE_NEW
        assert p.total_change[i] == pytest.approx(single.total_change, abs=1e-12)
    assert p.expected[0].round(2).tolist() == [0.64, 0.36, 0.43]  # [TE] E per game
    assert p.games.tolist() == [3, 3, 3, 3]


def test_pool_row_is_the_telugu_period_and_zero_sum():
    # [TE] player 0 (1500) against players 1-3 of the pool; with one K for all, every
    # opponent loses exactly what player 0 gains in their game ([TE]: equal K, zero sum)
    ratings = [1500] + TE_OPPONENTS
    opponents = [[1, 2, 3], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    scores = [TE_SCORES, [0, 0, 0], [0.5, 0, 0], [1, 0, 0]]
    mask = [[True] * 3] + [[True, False, False]] * 3
    p = elo.pool_period(ratings, opponents, scores, k=20, mask=mask)
    assert p.changes[0].round(1).tolist() == TE_CHANGES
    assert round(float(p.total_change[0]), 1) == TE_TOTAL
    assert round(float(p.new_rating[0])) == TE_NEW
    np.testing.assert_allclose(p.total_change[1:], -p.changes[0], rtol=0, atol=1e-12)
    assert p.total_change.sum() == pytest.approx(0.0, abs=1e-12)
    assert p.games.tolist() == [3, 1, 1, 1]
    assert np.isnan(p.expected[1, 1:]).all() and (p.changes[1, 1:] == 0).all()


def test_pool_equals_batch_with_gathered_ratings():
    rng = np.random.default_rng(7)
    r = rng.normal(1500, 300, 500)
    idx = rng.integers(0, 500, (500, 12))
    s = rng.choice([0.0, 0.5, 1.0], size=idx.shape)
    k = rng.choice([10.0, 20.0, 40.0], size=500)
    a = elo.pool_period(r, idx, s, k)
    b = elo.rating_period_batch(r, r[idx], s, k)
    np.testing.assert_allclose(a.expected, b.expected, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(a.new_rating, b.new_rating, rtol=0, atol=1e-9)


def test_pool_spread_too_wide_for_q_falls_back_to_the_curve():
    # 300,000 points apart at ÷400: Q = 10**(R/400) would overflow; the result must still be
    # the curve's limits, E = 1 for the far stronger player and 0 for the weaker
    p = elo.pool_period([0.0, 300_000.0, 1500.0, 1600.0], [[1], [0], [3], [2]],
                        [[0], [1], [1], [0]], k=20)
    assert p.expected[:, 0].tolist()[:2] == [0.0, 1.0]
    assert p.total_change[:2].tolist() == [0.0, 0.0]
    single = elo.rating_period(1500, [(1600, 1)], k=20)
    assert p.total_change[2] == pytest.approx(single.total_change, abs=1e-12)


@given(
    st.lists(
        st.tuples(
            st.floats(0, 3500),
            st.lists(st.tuples(st.floats(0, 3500), st.sampled_from([0.0, 0.5, 1.0])),
                     max_size=8),
            st.sampled_from([10, 20, 40]),
        ),
        min_size=1, max_size=6,
    ),
    st.sampled_from([400, 800, 1200]),
)
@settings(max_examples=60)
def test_each_row_equals_rating_period(players, divisor):
    width = max(len(games) for _, games, _ in players) or 1
    opp = np.full((len(players), width), np.nan)  # absent games: nan, never looked at
    s = np.full(opp.shape, 7.0)  # absent games: not a score, never validated
    mask = np.zeros(opp.shape, dtype=bool)
    for i, (_, games, _) in enumerate(players):
        for j, (o, sc) in enumerate(games):
            opp[i, j], s[i, j], mask[i, j] = o, sc, True
    ratings = [r for r, _, _ in players]
    ks = [k for _, _, k in players]
    p = elo.rating_period_batch(ratings, opp, s, ks, mask=mask, divisor=divisor)
    for i, (r, games, k) in enumerate(players):
        single = elo.rating_period(r, games, k, divisor=divisor)
        n = len(games)
        np.testing.assert_allclose(p.changes[i, :n], single.changes, rtol=0, atol=1e-12)
        assert p.total_change[i] == pytest.approx(single.total_change, abs=1e-9)
        assert p.new_rating[i] == pytest.approx(single.new_rating, abs=1e-9)
        assert p.games[i] == n


def test_results_are_read_only_and_inputs_untouched():
    opp = np.array([[1400.0, 1600.0, 1550.0]])
    s = np.array([[1.0, 0.5, 0.0]])
    p = elo.rating_period_batch(np.array([1500.0]), opp, s, k=20)
    for arr in (p.expected, p.changes, p.total_change, p.new_rating, p.rating, p.k):
        with pytest.raises(ValueError):
            arr[...] = 0
    assert opp.tolist() == [[1400.0, 1600.0, 1550.0]] and s.tolist() == [[1.0, 0.5, 0.0]]


def test_no_games():
    p = elo.rating_period_batch([1500, 1600], np.zeros((2, 0)), np.zeros((2, 0)), k=20)
    assert p.new_rating.tolist() == [1500, 1600] and p.games.tolist() == [0, 0]
    q = elo.pool_period([1500, 1600], np.zeros((2, 0), dtype=int), np.zeros((2, 0)), k=20)
    assert q.new_rating.tolist() == [1500, 1600]
    m = elo.pool_period([1500, 1600], [[1], [0]], [[1], [0]], k=20,
                        mask=[[False], [False]])
    assert m.new_rating.tolist() == [1500, 1600] and np.isnan(m.expected).all()


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: elo.rating_period_batch(1500, [[1400, math.nan]], [[1, 0]], 20), ValueError,
         "opponent_ratings must be a finite number"),
        (lambda: elo.rating_period_batch(1500, [[1400, 1500]], [[1, 0.7]], 20), ValueError,
         "scores must be 1 (win), 0.5 (draw) or 0 (loss), got 0.7"),
        (lambda: elo.rating_period_batch(1500, [[1400, 1500]], [[1, 2]], 20,
                                         mask=[[True, True]]), ValueError, "got 2.0"),
        (lambda: elo.rating_period_batch(1500, [1400, 1500], [1, 0], 20), ValueError,
         "2-dimensional (players, games)"),
        (lambda: elo.rating_period_batch([1500, 1600, 1700], [[1400], [1500]], [[1], [0]], 20),
         ValueError, "ratings must be a number or an array of shape (2,)"),
        (lambda: elo.rating_period_batch(math.inf, [[1400]], [[1]], 20), ValueError,
         "ratings must be a finite number"),
        (lambda: elo.rating_period_batch(1500, [[1400]], [[1]], 0), ValueError, "k must be > 0"),
        (lambda: elo.rating_period_batch(1500, [[1400]], [[1]], [20, 10]), ValueError,
         "k must be a number or an array of shape (1,)"),
        (lambda: elo.rating_period_batch(1500, [[1400]], [[1]], 20, divisor=-1), ValueError,
         "divisor must be > 0"),
        (lambda: elo.rating_period_batch(1500, [[1400]], [[1, 0]], 20), ValueError,
         "scores must have the shape of the games"),
        (lambda: elo.rating_period_batch(1500, [[1400]], [[1]], 20, mask=[[1]]), TypeError,
         "mask must be an array of booleans"),
        (lambda: elo.rating_period_batch(1500, [[1400]], [[1]], 20, mask=[[True, False]]),
         ValueError, "mask must have the shape of the games"),
        (lambda: elo.rating_period_batch(1500, "1400", [[1]], 20), TypeError,
         "opponent_ratings must be a number or an array of numbers"),
        (lambda: elo.pool_period([1500, 1600], [[1], [2]], [[1], [0]], 20), ValueError,
         "opponents must be indices between 0 and 1, got 2"),
        (lambda: elo.pool_period([1500, 1600], [[1], [-1]], [[1], [0]], 20), ValueError,
         "opponents must be indices between 0 and 1, got -1"),
        (lambda: elo.pool_period([1500, 1600], [[1.0], [0.0]], [[1], [0]], 20), TypeError,
         "opponents must be an array of whole-number indices"),
        (lambda: elo.pool_period([1500, 1600], [[1]], [[1]], 20), ValueError,
         "opponents must have shape (players, games) with players = 2"),
        (lambda: elo.pool_period(1500, [[0]], [[1]], 20), ValueError,
         "ratings must be a 1-dimensional array"),
        (lambda: elo.pool_period([1500, math.nan], [[1], [0]], [[1], [0]], 20), ValueError,
         "ratings must be a finite number"),
        (lambda: elo.pool_period([1500, 1600], [[1], [0]], [[0.25], [0]], 20), ValueError,
         "scores must be 1 (win), 0.5 (draw) or 0 (loss), got 0.25"),
    ],
)
def test_bad_input_names_the_parameter(call, exc, message):
    with pytest.raises(exc) as info:
        call()
    assert message in str(info.value)


def test_masked_pool_indices_are_not_checked():
    # an absent game's index may be anything (here out of range): it is never used
    p = elo.pool_period([1500, 1400], [[1, 99], [0, -5]], [[1, 3], [0, 3]], k=20,
                        mask=[[True, False], [True, False]])
    single = elo.rating_period(1500, [(1400, 1)], k=20)
    assert p.total_change[0] == pytest.approx(single.total_change, abs=1e-12)
