"""What do I need? The planning rules of elo_explain.fide and elo_explain.gammon42.

Every number here is worked by hand from the rules (docs/sources.md: FIDE B.02, the Greek
document) or computed by the independent scripts of tests/oracles.py, never by the package:
  [T]    FIDE table 8.1.2: difference 0-3 -> .50, 392-411 -> .92 (the 400 row), 485-517 ->
         .96 (500), 198-206 -> .76 (200: the weaker player .24).
  [F]    the ÷400 formula: 1 / (1 + 10^(-D / 400)); D 400 -> 0.90909.
  [400]  a difference of more than 400 counts as 400, not for players rated 2650 or more
         from 1 October 2025.
  [700]  K × games > 700: K becomes the largest whole K with K × games <= 700 (K 40, 20
         games -> 35).
  [K]    FIDE K: 40 until 30 games, 20 under 2400, 10 once 2400 is reached, for good.
  [ONCE] the period's change K × ΣΔR is rounded once, 0.5 away from zero.
  [G42]  Gammon42: E = 1 / (1 + 10^((opp − own) / 1200)), change = round(K (result − E) c),
         Go's rounding, K 32 or 16 with 50+ ranked games in the 7 days before the game;
         150 up: +14 / −18 (K 32), +7 / −9 (K 16); cube 2 at 1500: ±19 (K 32).
"""

from __future__ import annotations

import pytest

from elo_explain import fide
from elo_explain import gammon42 as g42
from tests import oracles

ON = "2026-01-01"


# --------------------------------------------------------------------------- FIDE
def test_table_and_formula_give_different_least_scores():
    # K 20, 1500 against ten opponents rated 1000 [400]: the difference counts as 400.
    # [T] E .92 a game: 20 × (10 − 9.2) = +16 (1516), 20 × (9.5 − 9.2) = +6 (1506).
    # [F] E 0.90909: 20 × (9.5 − 9.0909) = 8.18 -> +8 (1508); 9 points: −1.82 -> −2 (1498).
    table = fide.least_score(1500, 20, 10, 1000, 1507, on=ON)
    formula = fide.least_score(1500, 20, 10, 1000, 1507, on=ON, use_table=False)
    assert (table.points, table.rating, table.points_below, table.rating_below) == (
        10.0,
        1516.0,
        9.5,
        1506.0,
    )
    assert (formula.points, formula.rating, formula.points_below, formula.rating_below) == (
        9.5,
        1508.0,
        9.0,
        1498.0,
    )
    # the same by the independent script
    assert oracles.fide_least_score(1500, 20, 10, "0.92", 1507) == (10.0, 1516)
    assert oracles.fide_least_score(1500, 20, 10, 1 / (1 + 10 ** (-400 / 400)), 1507) == (9.5, 1508)


def test_out_of_reach_says_the_highest_rating():
    # [T] all 10 points give +16: 1516 is the most; 1517 is out of reach
    p = fide.least_score(1500, 20, 10, 1000, 1517, on=ON)
    assert not p.reachable and p.points is None and p.best_rating == 1516.0
    assert oracles.fide_least_score(1500, 20, 10, "0.92", 1517) == (None, 1516)


def test_the_2650_exemption_changes_the_least_score():
    # 2700 against five 2200s, K 10, to 2704. From 1 October 2025 [400] the real 500 counts:
    # [T] .96 a game, 5 / 5 gives 10 × 0.2 = +2 (2702): out of reach. Before it, capped at
    # 400: .92, 5 / 5 gives 10 × 0.4 = +4 (2704): reached with every game won.
    exempt = fide.least_score(2700, 10, 5, 2200, 2704, on="2025-10-01")
    capped = fide.least_score(2700, 10, 5, 2200, 2704, on="2025-09-30")
    assert (exempt.reachable, exempt.best_rating) == (False, 2702.0)
    assert (capped.points, capped.rating) == (5.0, 2704.0)
    assert oracles.fide_least_score(2700, 10, 5, "0.96", 2704) == (None, 2702)
    assert oracles.fide_least_score(2700, 10, 5, "0.92", 2704) == (5.0, 2704)


def test_the_700_rule_asks_half_a_point_more():
    # K 40, 20 games at even ratings [700]: K 35. 12.5 / 20: 35 × 2.5 = 87.5 -> +88 (1588);
    # 13: 35 × 3 = +105 (1605). With K 40, 12.5 would have given +100.
    p = fide.least_score(1500, 40, 20, 1500, 1600, on=ON)
    assert (p.points, p.rating, p.rating_below, p.k) == (13.0, 1605.0, 1588.0, 35)
    assert oracles.fide_least_score(1500, 40, 20, "0.50", 1600) == (13.0, 1605)


def test_the_change_is_rounded_once_half_away_from_zero():
    # K 13, one win against an equal player [ONCE]: 13 × 0.5 = 6.5 -> +7 (Python's round: 6)
    p = fide.least_score(1800, 13, 1, 1800, 1807, on=ON)
    assert (p.points, p.rating, p.points_below, p.rating_below) == (1.0, 1807.0, 0.5, 1800.0)
    assert round(6.5) == 6  # what the half-to-even rounding would have given


def test_already_at_the_target():
    p = fide.least_score(1800, 20, 9, 1800, 1700, on=ON)  # 0 / 9: 20 × (0 − 4.5) = −90 -> 1710
    assert (p.points, p.rating, p.points_below) == (0.0, 1710.0, None)


def test_stakes_of_the_next_game():
    # Telugu document: 1500 against 1700, K 20, E .24 [T]: win 15.2, draw 5.2, loss −4.8
    s = fide.stakes(1500, 20, 1700, on=ON)
    assert (s.win, s.draw, s.loss, s.expected) == (15, 5, -5, 0.24)


def test_a_season_period_by_period():
    # [K] [700] 1500 with 25 rated games: a period of 20 games at K 40 -> 35 (10 wins, 10
    # losses at even ratings: 0); then 45 games: K 20, one win at even ratings +10
    s = fide.rate_season(
        [("2026-01-01", [(1500, 1.0)] * 10 + [(1500, 0.0)] * 10), (None, [(1500, 1.0)])], 1500, 25
    )
    assert [(p.k, p.k_used, p.change, p.new_rating) for p in s] == [
        (40, 35, 0, 1500.0),
        (20, 20, 10, 1510.0),
    ]
    # [K] K 10 once the rating reaches 2400, for good: 2390 beats an equal player (K 20:
    # +10 -> 2400), then loses to a 2400 (K 10: −5 -> 2395) and to a 2395 (still K 10: −5)
    s = fide.rate_season(
        [(ON, [(2390, 1.0)]), (None, [(2400, 0.0)]), (None, [(2395, 0.0)])], 2390, 100
    )
    assert [(p.k, p.new_rating) for p in s] == [(20, 2400.0), (10, 2395.0), (10, 2390.0)]
    assert s[1].on.isoformat() == ON


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: fide.least_score(1500, 20, 0, 1500, 1600),
            "n_games must be a whole number between 1 and 100",
        ),
        (
            lambda: fide.least_score(1500, 101, 9, 1500, 1600),
            "k must be a whole number between 1 and 100",
        ),
        (lambda: fide.least_score(1500, 20, 9, 999, 1600), "average must be between 1000 and 3000"),
        (lambda: fide.stakes(5000, 20, 1500), "rating must be between 1000 and 3000"),
        (lambda: fide.rate_season([], 1500, 0), "periods must be a list of 1 to 100"),
    ],
)
def test_bad_values_name_the_field_and_range(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ------------------------------------------------------------------------ Gammon42
def test_wins_to_reach_with_k_changing_on_the_way():
    # 1500 against 1500 with 49 ranked games this week, to 1530 [G42]:
    # win 1: 49 games before, K 32: 32 × 0.5 = 16 -> 1516;
    # win 2: 50 games before, K 16: E = 1 / (1 + 10^(−16/1200)) = 0.50768, 16 × 0.49232 =
    #        7.88 -> +8 -> 1524;
    # win 3: 51 before, K 16: E = 1 / (1 + 10^(−24/1200)) = 0.51151, 16 × 0.48849 = 7.82 ->
    #        +8 -> 1532.
    p = g42.wins_to_reach(1500, 1500, 1530, recent_games=49)
    assert (p.games, p.ratings, p.ks) == (3, (1516, 1524, 1532), (32, 16, 16))
    assert oracles.gammon42_wins(1500, 1500, 1530, 49) == [1516, 1524, 1532]
    # with a quiet week K stays 32: the second win (16/1200 up: 32 × 0.49232 = 15.75 -> +16)
    # already reaches it
    assert g42.wins_to_reach(1500, 1500, 1530).ratings == (1516, 1532)


@pytest.mark.parametrize(
    "rating, opponent, target, recent, cube",
    [
        (1800, 1500, 1900, 0, 1),
        (1500, 1900, 1700, 40, 4),
        (1650, 1650, 1800, 30, 64),
    ],
)
def test_wins_to_reach_agrees_with_the_go_code_written_again(
    rating, opponent, target, recent, cube
):
    assert list(
        g42.wins_to_reach(rating, opponent, target, recent, cube).ratings
    ) == oracles.gammon42_wins(rating, opponent, target, recent, cube)


def test_wins_out_of_reach_when_a_win_no_longer_counts():
    # 3000 against 1000, K 16 (60 games): E = 1 / (1 + 10^(−2000/1200)) = 0.9789; 16 × 0.0211
    # = 0.34 -> 0: a win moves nothing
    p = g42.wins_to_reach(3000, 1000, 3100, recent_games=60)
    assert not p.reachable and p.ratings == ()


def test_stakes_are_the_documents_numbers():
    # [G42] 150 up: +14 / −18 (K 32), +7 / −9 (K 16); two 1500s, cube 2: ±19 (K 32), ±9 (K 16)
    assert (g42.stakes(1650, 1500).win, g42.stakes(1650, 1500).loss) == (14, -18)
    assert (g42.stakes(1650, 1500, 60).win, g42.stakes(1650, 1500, 60).loss) == (7, -9)
    assert (g42.stakes(1500, 1500, 0, 2).win, g42.stakes(1500, 1500, 0, 2).loss) == (19, -19)
    assert (g42.stakes(1500, 1500, 50, 2).win, g42.stakes(1500, 1500, 50, 2).k) == (9, 16)


def test_hold_and_expected_change_at_a_win_rate():
    # [G42] 300 up, K 32: +12 / −20; holding needs 20 / 32 = 62.5 %; at 70 %:
    # 0.7 × 12 − 0.3 × 20 = +2.4 a game
    assert g42.hold_win_rate(1800, 1500) == 0.625
    assert g42.expected_change(1800, 1500, 0.7) == pytest.approx(2.4)
    # the Greek document: ÷1200, 200 up (+13 / −19): "about 60 %" = 19 / 32
    assert g42.hold_win_rate(1700, 1500) == pytest.approx(19 / 32)


def test_games_at_a_win_rate():
    # even players, 75 %, K 32: +16 / −16 -> +8 a game; at 1508: E 0.50384, 32 × 0.49616 =
    # 15.88 -> +16, 32 × 0.50384 = 16.12 -> −16: +8 again -> 1516 >= 1515 in 2 games
    assert g42.games_at_win_rate(1500, 1500, 1515, 0.75).ratings == (1508.0, 1516.0)
    # at 50 % between equals nothing moves on average: out of reach
    assert not g42.games_at_win_rate(1500, 1500, 1600, 0.5).reachable


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: g42.stakes(1500, 1500, cube=3), "cube must be one of 1, 2, 4"),
        (lambda: g42.expected_change(1500, 1500, 1.5), "win_rate must be between 0 and 1"),
        (
            lambda: g42.wins_to_reach(1500, 1500, 1600, recent_games=-1),
            "recent_games must be whole",
        ),
    ],
)
def test_gammon42_bad_values(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("games", [1, 7, 20, 35, 100])
@pytest.mark.parametrize("k", [10, 20, 40])
def test_least_scores_agree_with_the_scripted_search(games, k):
    # at even ratings (table 8.1.2: 0-3 -> .50) and 500 points up (capped at 400: .92),
    # every target from 100 below to 150 above, against the script's search of every score
    for average, pd in ((1800, "0.50"), (1300, "0.92")):
        for target in range(1700, 1951, 19):
            ours = fide.least_score(1800, k, games, average, target, on=ON)
            points, rating = oracles.fide_least_score(1800, k, games, pd, target)
            if points is None:
                assert (ours.points, ours.best_rating) == (None, rating), (average, target)
            else:
                assert (ours.points, ours.rating) == (points, rating), (average, target)
