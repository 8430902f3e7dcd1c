"""Tests for elo_explain.fibs against independent published figures.

Sources:
[HELP]  FIBS `help formula` (quoted in the rec.games.backgammon FAQ and by Patti Beadles,
        bkgm.com/rgb/rgb.cgi?view+1093): P_upset = 1/(10^(D*sqrt(n)/2000)+1);
        P = 1-P_upset if the underdog wins, P_upset if the favourite wins;
        K = max(1, -experience/100+5); winner +4*K*sqrt(n)*P, loser -4*K*sqrt(n)*P;
        start 1500, experience 0.  Also "Once a player hits 400 experience, K is always 1."
[KB]    Kevin Bastian, "The FIBS Rating System" (bkgm.com/articles/McCool/ratings.html):
        "A one-point match played between two 'experienced' players with identical ratings
        is worth 2 points; that is, the winner's rating will go up exactly 2.00 points,
        while the loser's rating will go down exactly 2.00 points."
[GT]    GoldToken wiki "Ratings in Practice" (m.goldtoken.com, FIBS system), table of
        changes for a player with experience >= 400 against an opponent rated +1000 … -500
        relative to them, 1- to 9-point matches, printed to 0.1 (two entries to whole
        points).
[RGB45] rec.games.backgammon (bkgm.com/rgb/rgb.cgi?view+45): "BATTING AVERAGE FOR FAVORITE
        TO MAINTAIN HIS RATING" table (= 1 - P_upset), rating difference 100 … 700,
        1- to 11-point matches, printed to 3 decimals; and "a multiplier to the rating
        changes, which starts at 5(!) and declines to 4 at an experience of 100; 3 at 200".
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from elo_explain import fibs
from elo_explain.fibs import change, experience_factor, update, upset_probability, win_probability
from plain import no_warnings


def test_two_experienced_equal_players_one_point_match():
    # [KB]: exactly +2.00 / -2.00
    assert change(1500, 1500, match_length=1, winner_experience=400, loser_experience=400) == (
        2.0,
        -2.0,
    )
    assert change(1500, 1500) == (2.0, -2.0)  # defaults: 1-point, experience 400


# [GT] rows: opponent's rating relative to the player -> printed (win, lose) per match length
GOLDTOKEN = {
    1000: ["+3.0 -1.0", "+6.1 -0.8", "+8.3 -0.6", "+10.1 -0.5", "+11.6 -0.4"],
    500: ["+2.6 -1.4", "+5.1 -1.9", "+7 -2", "+8.7 -1.9", "+10.2 -1.8"],
    250: ["+2.3 -1.7", "+4.3 -2.6", "+5.9 -3.1", "+7.2 -3.4", "+8.4 -3.6"],
    0: ["+2.0 -2.0", "+3.5 -3.5", "+4.5 -4.5", "+5.3 -5.3", "+6.0 -6.0"],
    -250: ["+1.7 -2.3", "+2.6 -4.3", "+3.1 -5.9", "+3.4 -7.2", "+3.6 -8.4"],
    -500: ["+1.4 -2.6", "+1.9 -5.1", "+2 -7", "+1.9 -8.7", "+1.8 -10.2"],
}


def _half_unit(printed: str) -> float:
    """Half a unit in the last printed place (0.05 for '2.6', 0.5 for '7')."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return 0.5 * 10.0**-decimals + 1e-9


@pytest.mark.parametrize("relative", sorted(GOLDTOKEN))
def test_goldtoken_table(relative):
    me, opponent = 1500.0, 1500.0 + relative
    for n, cell in zip([1, 3, 5, 7, 9], GOLDTOKEN[relative]):
        win_txt, lose_txt = cell.split()
        gain, _ = change(me, opponent, match_length=n)  # I win
        _, loss = change(opponent, me, match_length=n)  # I lose
        assert gain == pytest.approx(float(win_txt), abs=_half_unit(win_txt)), (relative, n)
        assert loss == pytest.approx(float(lose_txt), abs=_half_unit(lose_txt)), (relative, n)


# [RGB45] favourite's break-even win rate = 1 - P_upset
BATTING = {
    100: [0.529, 0.550, 0.564, 0.576, 0.585, 0.594],
    200: [0.557, 0.598, 0.626, 0.648, 0.666, 0.682],
    300: [0.585, 0.645, 0.684, 0.714, 0.738, 0.759],
    400: [0.613, 0.689, 0.737, 0.772, 0.799, 0.822],
    500: [0.640, 0.730, 0.784, 0.821, 0.849, 0.871],
    600: [0.666, 0.768, 0.824, 0.861, 0.888, 0.908],
    700: [0.691, 0.802, 0.858, 0.894, 0.918, 0.935],
}


@pytest.mark.parametrize("difference", sorted(BATTING))
def test_batting_average_table(difference):
    lengths = np.array([1, 3, 5, 7, 9, 11])
    favourite = 1.0 - upset_probability(difference, lengths)
    np.testing.assert_allclose(favourite, BATTING[difference], atol=0.0005 + 1e-12)
    np.testing.assert_allclose(
        win_probability(1500 + difference, 1500, lengths), BATTING[difference], atol=0.0005 + 1e-12
    )
    # the sign of the difference does not matter for P_upset [HELP: D = abs(r1-r2)]
    np.testing.assert_allclose(
        upset_probability(-difference, lengths), upset_probability(difference, lengths)
    )


def test_experience_factor():
    # [RGB45]: starts at 5, 4 at experience 100, 3 at 200; [HELP]: 1 from 400 on
    assert experience_factor(0) == 5.0
    assert experience_factor(100) == 4.0
    assert experience_factor(200) == 3.0
    assert experience_factor(400) == 1.0
    assert experience_factor(2500) == 1.0
    np.testing.assert_allclose(experience_factor(np.array([50, 350, 399])), [4.5, 1.5, 1.01])


def test_hand_derived_examples():
    """Independent arithmetic from [HELP], written out with `math`."""
    # 1) favourite (1720, experience 37) beats underdog (1580, experience 1200), 7 points
    n, d = 7, 1720 - 1580
    p_upset = 1 / (10 ** (d * math.sqrt(n) / 2000) + 1)
    k_w, k_l = max(1, 5 - 37 / 100), max(1, 5 - 1200 / 100)  # 4.63, 1
    gain, loss = change(1720, 1580, match_length=7, winner_experience=37, loser_experience=1200)
    assert gain == pytest.approx(4 * k_w * math.sqrt(n) * p_upset, rel=1e-12)
    assert loss == pytest.approx(-4 * k_l * math.sqrt(n) * p_upset, rel=1e-12)
    # the winner's and the loser's changes differ when their K differ
    assert gain / -loss == pytest.approx(4.63)

    # 2) underdog (1450, experience 0) beats favourite (1700, experience 120), 3 points
    n, d = 3, 1700 - 1450
    p = 1 - 1 / (10 ** (d * math.sqrt(n) / 2000) + 1)
    gain, loss = change(1450, 1700, match_length=3, winner_experience=0, loser_experience=120)
    assert gain == pytest.approx(4 * 5 * math.sqrt(3) * p, rel=1e-12)
    assert loss == pytest.approx(-4 * 3.8 * math.sqrt(3) * p, rel=1e-12)

    # 3) 25-point match between equals, both new: P = 1/2, K = 5 -> ±4·5·5·0.5 = ±50
    assert change(1500, 1500, match_length=25, winner_experience=0, loser_experience=0) == (
        50.0,
        -50.0,
    )


def test_update_moves_ratings_and_experience():
    # [HELP]: experience = sum of lengths of finished matches; start 1500 / 0
    assert (fibs.START_RATING, fibs.START_EXPERIENCE) == (1500.0, 0)
    (w, we), (lo, le) = update(1500, 1500, match_length=5, winner_experience=0, loser_experience=0)
    # equal ratings, K = 5: 4·5·√5·0.5 = 10·√5
    assert w == pytest.approx(1500 + 10 * math.sqrt(5))
    assert lo == pytest.approx(1500 - 10 * math.sqrt(5))
    assert (we, le) == (5.0, 5.0)


def test_vectorised():
    winners = np.array([1500.0, 1600.0, 1400.0])
    losers = np.array([1500.0, 1500.0, 1650.0])
    lengths = np.array([1, 5, 7])
    exp_w = np.array([400, 0, 150])
    exp_l = np.array([400, 1000, 30])
    gain, loss = change(
        winners, losers, match_length=lengths, winner_experience=exp_w, loser_experience=exp_l
    )
    for i in range(3):
        g1, l1 = change(
            winners[i],
            losers[i],
            match_length=int(lengths[i]),
            winner_experience=exp_w[i],
            loser_experience=exp_l[i],
        )
        assert (gain[i], loss[i]) == pytest.approx((g1, l1), rel=1e-15)


@settings(max_examples=200, deadline=None)
@given(
    w=st.floats(800, 2400),
    lo=st.floats(800, 2400),
    n=st.integers(1, 25),
    ew=st.floats(0, 3000),
    el=st.floats(0, 3000),
)
def test_properties(w, lo, n, ew, el):
    gain, loss = change(w, lo, match_length=n, winner_experience=ew, loser_experience=el)
    k_w, k_l = max(1, 5 - ew / 100), max(1, 5 - el / 100)
    # [HELP]: the stake 4·√n·P is the same for both players, scaled by their own K
    assert gain / k_w == pytest.approx(-loss / k_l, rel=1e-12)
    # winning is worth between 0 and 4·K·√n; an upset is worth at least half of that
    assert 0 < gain <= 4 * k_w * math.sqrt(n)
    if w < lo:
        assert gain >= 2 * k_w * math.sqrt(n)
    elif w > lo:
        assert gain <= 2 * k_w * math.sqrt(n)
    # with both players experienced the match is zero-sum
    if ew >= 400 and el >= 400:
        assert gain == pytest.approx(-loss, rel=1e-12)


class TestValidation:
    @pytest.mark.parametrize("bad", [0, -3, 2.5, float("nan")])
    def test_match_length(self, bad):
        with pytest.raises(ValueError, match="match_length must be a whole number >= 1"):
            change(1500, 1500, match_length=bad)

    def test_experience(self):
        with pytest.raises(ValueError, match="winner_experience must be >= 0"):
            change(1500, 1500, winner_experience=-1)
        with pytest.raises(ValueError, match="loser_experience must be >= 0"):
            change(1500, 1500, loser_experience=-10)

    def test_ratings(self):
        with pytest.raises(ValueError, match="winner_rating must be a finite number"):
            change(float("inf"), 1500)
        with pytest.raises(TypeError, match="loser_rating"):
            change(1500, "1500")
        with pytest.raises(TypeError, match="match_length"):
            change(1500, 1500, match_length="7")


# --------------------------------------------------------------------------- #
# Extreme inputs: every finite rating is accepted and
# the [HELP] formula's probabilities reach their limits without overflow or a warning.
# --------------------------------------------------------------------------- #
class TestExtremeInputs:
    def test_upset_probability_far_out(self):
        # [HELP] P_upset = 1/(10^(D·√n/2000) + 1), evaluated exactly with integers:
        # D = 600,000, n = 1 -> 1/(10^300 + 1)
        exact = float(Fraction(1, 10**300 + 1))
        assert no_warnings(upset_probability, 600_000) == pytest.approx(exact, rel=1e-12)
        # beyond the float range the probability is 0 (1/(10^(10^150)+1))
        assert no_warnings(upset_probability, 1e300, 1e300) == 0.0
        assert no_warnings(upset_probability, -1.7976931348623157e308) == 0.0

    def test_win_probability_limits(self):
        # [HELP] the favourite's 1 - P_upset -> 1, the underdog's P_upset -> 0
        assert no_warnings(win_probability, 1e308, -1e308) == 1.0
        assert no_warnings(win_probability, -1e308, 1e308) == 0.0
        big = no_warnings(win_probability, np.array([6.05e16, -6.05e16]), 0.0)
        np.testing.assert_array_equal(big, [1.0, 0.0])

    def test_change_at_the_limits(self):
        # [HELP] an underdog who wins gets 4·K·√n·(1 - P_upset) -> 4·K·√n:
        # K 5 (experience 0) and 1 (400), n = 9 -> +60 and -12
        assert no_warnings(
            change, -1e300, 1e300, match_length=9, winner_experience=0, loser_experience=400
        ) == (60.0, -12.0)
        # a favourite who wins gets 4·K·√n·P_upset -> 0
        gain, loss = no_warnings(change, 1.7e308, -1.7e308)
        assert gain == 0.0 and loss == 0.0
        # [HELP] equal ratings: P = 1/2 for any n: 4·1·√n/2 = 2·10^150 for n = 10^300
        assert no_warnings(change, 1500, 1500, match_length=1e300) == pytest.approx((2e150, -2e150))

    def test_update_at_the_limits(self):
        # the ratings move by the limits above; experiences grow by n
        (w, we), (lo, le) = no_warnings(
            update, -1e300, 1e300, match_length=9, winner_experience=0, loser_experience=400
        )
        assert (w, we, lo, le) == (-1e300 + 60.0, 9.0, 1e300 - 12.0, 409.0)

    def test_experience_beyond_the_float_range(self):
        with pytest.raises(ValueError, match="winner_experience \\+ match_length must be a finite"):
            update(1500, 1500, match_length=1.7e308, winner_experience=1.7e308)
        with pytest.raises(ValueError, match="loser_experience \\+ match_length must be a finite"):
            update(1500, 1500, match_length=1e308, loser_experience=[0, 1.7e308])
