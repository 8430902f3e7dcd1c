"""The documents' own calculators (elo_explain.elo) and FIDE beside them (elo_explain.fide).

Sources of the asserted numbers (none is copied from the code's output; each is recomputed
by hand in the test from the formula the document prints):

[TE]  docs/sources.md#telugu -- the Telugu calculator page: E = 1 / (1 + 10^((R_opponent −
      R_own) / 400)); Change = K × (Score − E); a period sums every game from the starting
      ratings ("the calculator above works the same way"): K 20, 1500, win 1400 / draw 1600 /
      loss 1550, total +1.4, "new rating 1501"; the calculator offers K 40, 20 or 10 and the
      user sets K by the 700 rule themselves; it applies the 400-point cap when the rule is on
      and the page says to switch it off for players rated 2650 or more; 1500 beats 1000:
      E 0.95 and about +1.1 without the cap, E 0.91 and +1.8 with it.
[UK]  docs/sources.md#ukrainian -- the Ukrainian calculator page: new rating Ra + K·(S − E);
      multi-game mode Ra + K·(points − G·E) against the average opponent, with the user's
      K-factor; no cap, no 700 rule and no rounding are stated.
[I18] a review's worked values, recomputed here: K 40, 1500, 20 games, 10 points against an
      average of 1600 -> 1612.05 (FIDE: K 35 by the 700 rule, 1598); average 1000, 5 of 5,
      K 20 -> 1505.32; the Telugu single game (1500 against 1700) with a K of 25.
[B02] docs/sources.md#fide-b02 -- FIDE Rating Regulations B.02: table 8.1.2 (a difference of
      99-106 gives the higher-rated 0.64, 198-206 gives 0.76, 392-411 gives 0.92); the 700
      rule; the 400-point rule with the 2650 exemption from 1 October 2025; the change
      K × ΣΔR rounded once, 0.5 away from zero.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from elo_explain import elo, fide

ON = "2026-01-01"  # a period with the 2650 exemption in force


def e400(own, opponent):
    """[TE]/[UK] the ÷400 formula, written out here."""
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def half_away(x):
    """Whole number, halves away from zero ([B02]; the Telugu page shows whole numbers)."""
    return math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1)


# ------------------------------------------------------------------ the Ukrainian calculator
def test_ukrainian_average_opponent_k40_is_its_formula():
    # [I18]/[UK] Ra + K·(points − G·E) with the chosen K 40: no 700 rule, no cap, unrounded
    by_hand = 1500 + 40 * (10 - 20 * e400(1500, 1600))
    assert round(by_hand, 2) == 1612.05
    r = elo.ukrainian_calculator(1500, 1600, 10, k=40, games=20)
    assert r.document == "ukrainian" and r.k == 40 and r.games == 20 and r.points == 10
    assert r.new_rating == pytest.approx(by_hand, abs=1e-9)
    assert round(r.new_rating, 2) == 1612.05
    assert r.new_rating == r.unrounded_rating  # [UK] no rounding stated


def test_ukrainian_average_opponent_500_down_is_not_capped():
    # [I18]/[UK] average 1000, 5 of 5, K 20: the real difference 500, E 0.947
    by_hand = 1500 + 20 * (5 - 5 * e400(1500, 1000))
    assert round(by_hand, 2) == 1505.32
    r = elo.ukrainian_calculator(1500, 1000, 5, k=20, games=5)
    assert round(r.new_rating, 2) == 1505.32
    assert not r.cap_400 and set(r.differences.tolist()) == {500.0}


def test_ukrainian_single_game_and_the_draw_against_a_stronger_player():
    # [UK] one game: Ra + K·(S − E); a draw against a higher-rated opponent gains (S − E > 0)
    for score in (1, 0.5, 0):
        r = elo.ukrainian_calculator(1500, 1700, score, k=20)
        assert r.new_rating == pytest.approx(1500 + 20 * (score - e400(1500, 1700)))
    assert elo.ukrainian_calculator(1500, 1700, 0.5, k=20).change > 0
    # [UK] E = 0.5 for equal ratings: a win with K 20 is +10 exactly
    assert elo.ukrainian_calculator(1800, 1800, 1, k=20).change == 10


def test_ukrainian_multi_game_is_one_sum_whatever_the_points_split():
    # only the total enters Ra + K·(points − G·E): 3.5 of 5 with the same average
    r = elo.ukrainian_calculator(1500, 1500, 3.5, k=20, games=5)
    assert r.scores.tolist() == [1.0, 1.0, 1.0, 0.5, 0.0] and r.points == 3.5
    assert r.new_rating == 1500 + 20 * (3.5 - 5 * 0.5)


# -------------------------------------------------------------------- the Telugu calculator
def test_telugu_single_game_with_k_25():
    # [I18]/[TE] the page's game, 1500 against 1700 (E 0.24), with a K of the user's own, 25:
    # Change = 25 × (Score − E), a whole-number new rating
    e = e400(1500, 1700)
    assert round(e, 2) == 0.24
    shown = {}
    for score, expected in ((1, 1519), (0.5, 1506), (0, 1494)):
        by_hand = half_away(1500 + 25 * (score - e))
        assert by_hand == expected
        r = elo.telugu_calculator(1500, [(1700, score)], k=25)
        assert r.new_rating == expected and r.k == 25
        assert r.unrounded_rating == pytest.approx(1500 + 25 * (score - e))
        shown[score] = r
    # [B02] FIDE with the same K 25: table 8.1.2 gives the lower-rated player 1 − 0.76 = 0.24
    # at 200 points; 25 × 0.76 = 19, 25 × 0.26 = 6.5 (rounded away from zero: 7), 25 × −0.24 = −6
    fide_results = {1: 1519, 0.5: 1507, 0: 1494}
    for score, r in shown.items():
        c = fide.beside_calculator(r, on=ON)
        assert c.fide.new_rating == fide_results[score]
        assert c.differences == ("table 8.1.2: E 0.24",)
    assert fide.beside_calculator(shown[0.5], on=ON).text == (
        "the document's calculator: 1506; FIDE: 1507 (table 8.1.2: E 0.24)"
    )


def test_telugu_period_is_the_pages_example():
    # [TE] K 20, 1500: win 1400 (E 0.64, +7.2), draw 1600 (E 0.36, +2.8), loss 1550 (E 0.43,
    # −8.6); total +1.4, new rating 1501
    r = elo.telugu_calculator(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20)
    assert r.document == "telugu"
    assert r.expected.round(2).tolist() == [0.64, 0.36, 0.43]
    assert (20 * (r.scores - r.expected)).round(1).tolist() == [7.2, 2.8, -8.6]
    assert round(r.change, 1) == 1.4 and r.new_rating == 1501


def test_telugu_400_point_rule_on_and_off():
    # [TE] 1500 beats 1000, K 20: with the rule E 0.91, +1.8, a loss −18.2; without it E 0.95,
    # about +1.1, a loss −18.9
    for cap, e, win, loss in ((True, 0.91, 1.8, -18.2), (False, 0.95, 1.1, -18.9)):
        w = elo.telugu_calculator(1500, [(1000, 1)], k=20, cap_400=cap)
        lost = elo.telugu_calculator(1500, [(1000, 0)], k=20, cap_400=cap)
        assert round(float(w.expected[0]), 2) == e
        assert round(w.change, 1) == win and round(lost.change, 1) == loss
        assert w.cap_400 is cap
    # by hand: capped, E = 1 / (1 + 10^(−1)) and the win gains 20 × (1 − E)
    assert elo.telugu_calculator(1500, [(1000, 1)], k=20).change == pytest.approx(
        20 * (1 - 1 / (1 + 10**-1))
    )


def test_telugu_cap_applies_to_every_rating_when_on():
    # [TE] "the calculator applies the cap when the 400-point rule is on; switch it off for
    # players rated 2650 or more": with the switch on, 2700 against 2200 still counts 400
    on = elo.telugu_calculator(2700, [(2200, 1)], k=10)
    assert on.differences.tolist() == [400.0]
    off = elo.telugu_calculator(2700, [(2200, 1)], k=10, cap_400=False)
    assert off.differences.tolist() == [500.0]
    # [B02] FIDE exempts 2650 and above since 1 October 2025: the real difference counts
    c = fide.beside_calculator(on, on=ON, use_table=False)
    assert c.differences == ("2650 exemption: the real difference +500 counts",)
    assert c.fide.change == pytest.approx(10 * (1 - e400(2700, 2200)))
    assert fide.beside_calculator(off, on=ON, use_table=False).differences == ()


def test_telugu_k_is_the_users_even_for_many_games():
    # [TE] the calculator leaves K to the user ("set the K-factor yourself by the 700 rule"):
    # 20 games with K 40 stay K 40 there; FIDE lowers it to 35 ([B02] 700 / 20)
    games = [(1500, 1)] * 10 + [(1500, 0)] * 10
    r = elo.telugu_calculator(1500, games, k=40)
    assert r.k == 40 and r.change == 0 and r.new_rating == 1500
    c = fide.beside_calculator(r, on=ON, use_table=False)
    assert c.fide.k == 35 and c.differences == ("700 rule: K 40 → 35",)


# --------------------------------------------------------------------------- FIDE beside
def test_fide_beside_the_ukrainian_k40_period_names_every_difference():
    # [I18]/[B02] 20 games × K 40 = 800 > 700: K 35; 100 points down: table 0.36 a game;
    # 35 × (10 − 20 × 0.36) = 35 × 2.8 = 98, rounded once: 1598
    c = fide.beside_calculator(elo.ukrainian_calculator(1500, 1600, 10, k=40, games=20), on=ON)
    assert c.fide.k == 35 and c.fide.rounded_change == 98 and c.fide.new_rating == 1598
    assert c.differences == ("700 rule: K 40 → 35", "table 8.1.2: E 0.36", "rounded once: +98")
    assert c.text == (
        "the document's calculator: 1612.05; FIDE: 1598 (700 rule: K 40 → 35; "
        "table 8.1.2: E 0.36; rounded once: +98)"
    )
    # with the ÷400 formula FIDE's way still lowers K and rounds: 35 × (10 − 20 E) = 98.05
    f = fide.beside_calculator(
        elo.ukrainian_calculator(1500, 1600, 10, k=40, games=20), on=ON, use_table=False
    )
    assert f.fide.change == pytest.approx(35 * (10 - 20 * e400(1500, 1600)))
    assert f.differences == ("700 rule: K 40 → 35", "rounded once: +98.05 → +98")


def test_fide_beside_the_ukrainian_500_down_caps_and_rounds():
    # [I18]/[B02] 5 of 5 against 1000, K 20: the cap counts 500 as 400, the table gives 0.92,
    # 20 × 5 × (1 − 0.92) = 8 -> 1508; with the formula (E at 400: 0.909) 20 × 5 × 0.0909 ->
    # 9.09 -> 1509, the figure the review saw on the page
    r = elo.ukrainian_calculator(1500, 1000, 5, k=20, games=5)
    table = fide.beside_calculator(r, on=ON)
    assert table.fide.new_rating == 1508
    assert table.differences == (
        "400-point rule: +500 counts as +400",
        "table 8.1.2: E 0.92",
        "rounded once: +8",
    )
    formula = fide.beside_calculator(r, on=ON, use_table=False)
    assert formula.fide.change == pytest.approx(20 * 5 * (1 - e400(1500, 1100)))
    assert formula.fide.new_rating == 1509


def test_fide_beside_the_telugu_period_agrees():
    # [TE]/[B02] the page's period: the table gives the same E's (0.64, 0.36, 0.43), total
    # 20 × (1.5 − 1.43) = 1.4, rounded once: 1501, as the calculator shows
    c = fide.beside_calculator(
        elo.telugu_calculator(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20), on=ON
    )
    assert c.fide.new_rating == c.calculator.new_rating == 1501
    assert c.text == (
        "the document's calculator: 1501; FIDE: 1501 (table 8.1.2: E 0.64, 0.36, 0.43)"
    )


@pytest.mark.parametrize(
    "call, error, words",
    [
        (
            lambda: elo.ukrainian_calculator(1500, 1600, 10.25, k=40, games=20),
            ValueError,
            "points must be a multiple of 0.5 between 0 and games (20), got 10.25",
        ),
        (
            lambda: elo.ukrainian_calculator(1500, 1600, 3, k=40, games=2),
            ValueError,
            "points must be a multiple of 0.5 between 0 and games (2)",
        ),
        (lambda: elo.ukrainian_calculator(1500, 1600, 1, k=0), ValueError, "k must be > 0"),
        (lambda: elo.ukrainian_calculator(1500, 1600, 1, k=20, games=0), ValueError, "games"),
        (lambda: elo.ukrainian_calculator(float("nan"), 1600, 1, k=20), ValueError, "rating"),
        (lambda: elo.telugu_calculator(1500, [(1700, 2)], k=20), ValueError, "score"),
        (lambda: elo.telugu_calculator(1500, [(1700, 1)], k=-5), ValueError, "k must be > 0"),
        (
            lambda: elo.telugu_calculator(1500, [(1700, 1)], k=20, cap_400="yes"),
            TypeError,
            "cap_400",
        ),
        (
            lambda: fide.beside_calculator("1501"),
            TypeError,
            "result must be an elo.CalculatorResult",
        ),
    ],
)
def test_calculators_refuse_bad_input_naming_the_field(call, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        call()


# ---------------------------------------------------------- the average-opponent shortcut
def test_averaging_error_is_k_times_the_sum_minus_g_times_the_average():
    # [UK]/[TE] shortcut K·(points − G·E(ā)) minus the per-game sum K·(points − Σ E): by hand
    opponents = [1400, 1600, 1550]
    mean = sum(opponents) / 3
    by_hand = 20 * (sum(e400(1500, o) for o in opponents) - 3 * e400(1500, mean))
    assert elo.averaging_error(1500, opponents, k=20) == pytest.approx(by_hand)
    # ... which is what elo.multi_game (the shortcut) and elo.rating_period (the sum) give
    shortcut = elo.multi_game(1500, mean, 3, 1.5, 20) - 1500
    per_game = elo.rating_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20).total_change
    assert elo.averaging_error(1500, opponents, k=20) == pytest.approx(shortcut - per_game)


def test_averaging_error_grows_with_the_spread_and_is_zero_without_one():
    fields = elo.spread_opponents(1700, 4, [0, 100, 200, 400])
    assert fields.tolist()[2] == [1500, 1900, 1500, 1900]
    errors = elo.averaging_error(1500, fields, k=20)
    assert errors[0] == 0
    by_hand = [
        20 * (2 * e400(1500, 1700 - s) + 2 * e400(1500, 1700 + s) - 4 * e400(1500, 1700))
        for s in (100, 200, 400)
    ]
    np.testing.assert_allclose(errors[1:], by_hand)
    assert np.all(np.diff(errors) > 0)
    # an odd number of games keeps one opponent at the average
    assert elo.spread_opponents(1600, 3, 50).tolist() == [[1550, 1650, 1600]]
