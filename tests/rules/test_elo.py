"""elo_explain.elo against the numbers the Telugu (000_*) and Ukrainian (002_*) documents print.

Sources:
  [TE] docs/sources.md#telugu (the Telugu chess Elo calculator page)
  [UK] docs/sources.md#ukrainian (the Ukrainian chess Elo calculator page)
The documents print E to two decimals and changes to one decimal; they compute the
changes from the *unrounded* formula E (see test_fide.py for the 400-point example
where the two ways differ), so the tests round our unrounded results the same way.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from elo_explain import elo


# ----------------------------------------------------------------- expected score
def test_expected_score_telugu_1500_vs_1700():
    # [TE] "1 / (1 + 10^(200/400)) = 0.24"
    assert round(elo.expected_score(1500, 1700), 2) == 0.24


def test_expected_score_076_for_200_points_up():
    # [TE] "0.76 అంచనా స్కోరు ... 100 ఆటల నుండి 76 పాయింట్లు": the stronger side of
    # 1500-1700 expects 0.76 points per game (1 - 0.24)
    assert round(elo.expected_score(1700, 1500), 2) == 0.76


def test_calculator_k_choices():
    # [TE] "కాలిక్యులేటర్లో K 40, 20 లేదా 10"; [UK] 40 new/young, 20 club, 10 masters
    assert elo.K_CHOICES == (40, 20, 10)


def test_expected_score_equal_ratings_is_half():
    # [TE] "రేటింగ్లు సమానమైతే, E 0.5"; [UK] "Нульова різниця рейтингів дає E = 0,5"
    assert elo.expected_score(1832, 1832) == 0.5


def test_expected_score_400_points_is_ten_to_one_odds():
    # [TE]/[UK] every 400 points multiply the odds by ten: E = 10/11 at +400
    e = elo.expected_score(1900, 1500)
    assert e == pytest.approx(10 / 11, abs=1e-15)
    assert e / (1 - e) == pytest.approx(10.0)


def test_expected_score_formula_gives_091_at_400():
    # [TE] "400 తేడా వద్ద పట్టిక 0.91 కు బదులు 0.92 ఇస్తుంది" -- the formula's 0.91
    assert round(elo.expected_score(1900, 1500), 2) == 0.91


def test_expected_score_vectorized_period_expectations():
    # [TE] period example: E 0.64 vs 1400, 0.36 vs 1600, 0.43 vs 1550 (rating 1500)
    e = elo.expected_score(1500, np.array([1400, 1600, 1550]))
    assert isinstance(e, np.ndarray)
    assert e.round(2).tolist() == [0.64, 0.36, 0.43]


def test_expected_score_broadcasts_2d():
    # [UK] E = 1 / (1 + 10^((Rb - Ra)/400)); equal ratings on the diagonal give 0.5
    r = np.array([[1400.0], [1600.0]])
    o = np.array([1400.0, 1600.0])
    e = elo.expected_score(r, o)
    assert e.shape == (2, 2)
    assert e[0, 0] == 0.5 and e[1, 1] == 0.5
    assert e[0, 1] + e[1, 0] == pytest.approx(1.0)


def test_expected_score_extreme_difference_no_overflow():
    # the formula's limit: E -> 0 as the opponent gets infinitely stronger
    with np.errstate(all="raise"):
        assert elo.expected_score(0, 1e6) == 0.0


def test_expected_score_other_divisor():
    # Gammon42 ÷1200 at a 300-point edge: 64.0 % (Greek document, docs/sources.md#greek G4)
    assert round(elo.expected_score(1800, 1500, divisor=1200) * 100, 1) == 64.0


# ----------------------------------------------------------------- rating change
def test_rating_change_draw_against_stronger_gains_and_mirrors():
    # [TE] a draw against the stronger player gains points; the opponent with the same K
    # loses exactly as much. [UK] "S − E додатне" for a draw against a higher rating.
    e = elo.expected_score(1500, 1700)
    gain = elo.rating_change(0.5, e, 20)
    loss = elo.rating_change(0.5, 1 - e, 20)
    assert gain > 0
    assert gain == pytest.approx(-loss, abs=1e-12)
    # 20 * (0.5 - 0.2403) = 5.19 (hand computation from E = 1/(1+10^0.5))
    assert round(gain, 2) == 5.19


def test_rating_change_period_games_telugu():
    # [TE] +7.2 (win, E 0.64), +2.8 (draw, E 0.36), -8.6 (loss, E 0.43), K 20
    e = elo.expected_score(1500, np.array([1400, 1600, 1550]))
    c = elo.rating_change(np.array([1, 0.5, 0]), e, 20)
    assert c.round(1).tolist() == [7.2, 2.8, -8.6]


# ----------------------------------------------------------------- rating period
def test_rating_period_telugu_example():
    # [TE] K 20, rating 1500: win 1400 (E 0.64, +7.2), draw 1600 (E 0.36, +2.8),
    # loss 1550 (E 0.43, -8.6); total +1.4, new rating 1501
    p = elo.rating_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20)
    assert p.expected.round(2).tolist() == [0.64, 0.36, 0.43]
    assert p.changes.round(1).tolist() == [7.2, 2.8, -8.6]
    assert round(p.total_change, 1) == 1.4
    assert round(p.new_rating) == 1501
    assert p.games == 3
    # unrounded: new_rating is rating + total, not rounded by the function
    assert p.new_rating == 1500 + p.total_change
    assert p.new_rating != 1501


def test_rating_period_uses_starting_rating_for_every_game():
    # [TE] every game from the ratings on the current list, not updated game by game:
    # two wins against 1500 from 1500 with K 20 give 10 + 10 (E 0.5 both times)
    p = elo.rating_period(1500, [(1500, 1), (1500, 1)], k=20)
    assert p.expected.tolist() == [0.5, 0.5]
    assert p.total_change == 20.0


def test_rating_period_result_is_frozen():
    p = elo.rating_period(1500, [(1400, 1)], k=20)
    with pytest.raises(AttributeError):
        p.total_change = 0  # type: ignore[misc]
    with pytest.raises(ValueError):
        p.changes[0] = 0.0


def test_rating_period_empty():
    # no games, no change
    p = elo.rating_period(1500, [], k=20)
    assert p.games == 0 and p.total_change == 0.0 and p.new_rating == 1500.0


# Moved from test_elo_batch.py when rating_period_batch and pool_period were dropped (nothing
# in the product used them): the same asserted values, now on rating_period, which computes
# the same thing per player.
TE_OPPONENTS = [1400, 1600, 1550]  # [TE]
TE_SCORES = [1, 0.5, 0]  # [TE] win, draw, loss
TE_CHANGES = [7.2, 2.8, -8.6]  # [TE] printed to one decimal
TE_TOTAL = 1.4  # [TE]
TE_NEW = 1501  # [TE]


def test_rating_period_telugu_in_any_game_order():
    # [TE] the same period with the games in another order
    p = elo.rating_period(1500, list(zip(TE_OPPONENTS[::-1], TE_SCORES[::-1])), k=20)
    assert p.changes[::-1].round(1).tolist() == TE_CHANGES
    assert round(p.total_change, 1) == TE_TOTAL
    assert round(p.new_rating) == TE_NEW
    assert p.expected[::-1].round(2).tolist() == [0.64, 0.36, 0.43]  # [TE] E per game


def test_rating_period_telugu_opponents_lose_what_1500_gains():
    # [TE] equal K: each opponent's one game against 1500 is the mirror of player 0's
    p = elo.rating_period(1500, list(zip(TE_OPPONENTS, TE_SCORES)), k=20)
    assert p.changes.round(1).tolist() == TE_CHANGES
    assert round(p.total_change, 1) == TE_TOTAL
    assert round(p.new_rating) == TE_NEW
    others = [
        elo.rating_period(o, [(1500, 1 - s)], k=20).total_change
        for o, s in zip(TE_OPPONENTS, TE_SCORES)
    ]
    np.testing.assert_allclose(others, -p.changes, rtol=0, atol=1e-12)
    assert p.total_change + sum(others) == pytest.approx(0.0, abs=1e-12)


def test_rating_period_spread_of_300000_points_is_the_curve_limit():
    # 300,000 points apart at ÷400: E = 0 for the far weaker player, 1 for the stronger
    # (10 ** 750 overflows: the limit, no warning), and no change for the expected result
    weak = elo.rating_period(0.0, [(300_000.0, 0)], k=20)
    strong = elo.rating_period(300_000.0, [(0.0, 1)], k=20)
    assert (weak.expected[0], strong.expected[0]) == (0.0, 1.0)
    assert (weak.total_change, strong.total_change) == (0.0, 0.0)


def test_rating_period_results_read_only_and_inputs_untouched():
    results = np.array([[1400.0, 1.0], [1600.0, 0.5], [1550.0, 0.0]])
    p = elo.rating_period(1500, results, k=20)
    for arr in (p.expected, p.changes, p.opponents, p.scores):
        with pytest.raises(ValueError):
            arr[...] = 0
    assert results.tolist() == [[1400.0, 1.0], [1600.0, 0.5], [1550.0, 0.0]]


def test_rating_period_no_games_two_players():
    assert [elo.rating_period(r, [], k=20).new_rating for r in (1500, 1600)] == [1500, 1600]
    assert [elo.rating_period(r, [], k=20).games for r in (1500, 1600)] == [0, 0]


def test_rating_period_accepts_array():
    # [TE] period example, given as an (n, 2) array
    p = elo.rating_period(1500, np.array([[1400, 1], [1600, 0.5], [1550, 0]]), k=20)
    assert round(p.total_change, 1) == 1.4


# ----------------------------------------------------------------- multi game
def test_multi_game_formula_ukrainian():
    # [UK] new rating = Ra + K·(points − G·E); against an equal average E = 0.5:
    # 1500 + 20 * (3.5 - 5 * 0.5) = 1520
    assert elo.multi_game(1500, 1500, games=5, points=3.5, k=20) == 1520.0


def test_multi_game_one_game_equals_single_game():
    # [UK] one game of multi-game mode is the single-game update Ra + K·(S − E);
    # [TE] 1500 draws 1700 with K 20: E 0.24, so the rating rises
    single = 1500 + elo.rating_change(0.5, elo.expected_score(1500, 1700), 20)
    assert elo.multi_game(1500, 1700, games=1, points=0.5, k=20) == pytest.approx(single)


def test_multi_game_vectorized_over_ratings():
    # [UK] E = 0.5 for equal ratings: 2 points of 4 keeps each rating
    r = np.array([1400.0, 1600.0])
    assert elo.multi_game(r, r, games=4, points=2, k=40).tolist() == [1400.0, 1600.0]


def test_multi_game_telugu_period_with_average_opponent():
    # [TE] period games (1400, 1600, 1550) pooled into [UK] multi-game mode: 1.5 points
    # from 3 games against the average 1516.67, K 20. Hand computation:
    # E = 1 / (1 + 10^(16.667/400)) = 1 / 2.10070 = 0.47603; 20 * (1.5 - 3 * 0.47603) = +1.438
    # -- close to, but not the same as, the per-game sum +1.429 of the Telugu example.
    avg = (1400 + 1600 + 1550) / 3
    new = elo.multi_game(1500, avg, games=3, points=1.5, k=20)
    assert round(new - 1500, 3) == 1.438
    assert round(elo.expected_score(1500, avg), 5) == 0.47603


# ----------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: elo.expected_score(math.nan, 1500), "rating must be a finite number"),
        (lambda: elo.expected_score(1500, math.inf), "opponent must be a finite number"),
        (lambda: elo.expected_score(1500, 1500, divisor=0), "divisor must be > 0"),
        (lambda: elo.expected_score(1500, 1500, divisor=-400), "divisor must be > 0"),
        (lambda: elo.rating_change(0.7, 0.5, 20), "score must be 1 (win), 0.5 (draw) or 0"),
        (lambda: elo.rating_change(1, 0.5, 0), "k must be > 0"),
        (lambda: elo.rating_change(1, 0.5, -20), "k must be > 0"),
        (lambda: elo.rating_change(1, 1.5, 20), "expected must be between 0 and 1"),
        (lambda: elo.rating_period(math.nan, [(1400, 1)], 20), "rating must be a finite"),
        (lambda: elo.rating_period(1500, [(1400, 2)], 20), "score in results must be 1"),
        (lambda: elo.rating_period(1500, [(math.inf, 1)], 20), "opponent rating in results"),
        (lambda: elo.rating_period(1500, [(1400, 1)], 0), "k must be > 0"),
        (lambda: elo.rating_period(1500, [(1400, 1)], 20, divisor=0), "divisor must be > 0"),
        (lambda: elo.rating_period(1500, [1400, 1600], 20), "(opponent_rating, score) pairs"),
        (
            lambda: elo.multi_game(1500, 1500, games=-1, points=0, k=20),
            "games must be a whole number >= 0",
        ),
        (
            lambda: elo.multi_game(1500, 1500, games=3, points=3.5, k=20),
            "points must be a multiple of 0.5 between 0 and games (3)",
        ),
        (
            lambda: elo.multi_game(1500, 1500, games=3, points=-0.5, k=20),
            "points must be a multiple of 0.5",
        ),
        (
            lambda: elo.multi_game(1500, 1500, games=3, points=1.25, k=20),
            "points must be a multiple of 0.5",
        ),
        (
            lambda: elo.multi_game(1500, 1500, games=2.5, points=1, k=20),
            "games must be a whole number",
        ),
        (lambda: elo.multi_game(1500, 1500, games=3, points=1, k=0), "k must be > 0"),
        (
            lambda: elo.multi_game(1500, 1500, games=3, points=1, k=20, divisor=0),
            "divisor must be > 0",
        ),
        (
            lambda: elo.multi_game(math.nan, 1500, games=3, points=1, k=20),
            "rating must be a finite",
        ),
    ],
)
def test_bad_input_raises_value_error_naming_parameter(call, fragment):
    assert fragment in str(pytest.raises(ValueError, call).value)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: elo.expected_score("1500", 1500), "rating must be a number"),
        (lambda: elo.rating_period(1500, "1400 win", 20), "results must be a sequence"),
        (
            lambda: elo.rating_period([1500, 1600], [(1400, 1)], 20),
            "rating must be a single number",
        ),
        (
            lambda: elo.multi_game(1500, 1500, games="3", points=1, k=20),
            "games must be a whole number",
        ),
        (lambda: elo.rating_change(True, 0.5, 20), "score must be a number"),
    ],
)
def test_wrong_kind_raises_type_error(call, fragment):
    with pytest.raises(TypeError) as info:
        call()
    assert fragment in str(info.value)
