"""elo_explain.fide for new players: table 8.1.1, first ratings (2024 and 2022 rules),
performance rating, the 1 March 2024 uplift and the rating floor.

Sources:
  [B02]  FIDE Handbook B.02 Rating Regulations (from 1 March 2024), section 7 and
         table 8.1.1, transcribed in docs/sources.md#fide-b02 (the table is typed
         below from there, independently of the module's copy).
  [N24]  FIDE's notice of 1 March 2024 (the one-time uplift and the 1400 floor), docs/sources.md#fide-b02 F11-F12.
  [R22]  the 2022 rule (1 January 2022 - 29 February 2024), docs/sources.md#fide-b02 F10.
  [EX]   the worked examples of docs/sources.md#fide-b02 (F8, F9), including the real published first
         rating (5 games, 3 points, opponents summing to 9507 -> 1922).
  [TE]   docs/sources.md#telugu T21 (Telugu): the FIDE list starts at 1400.
"""

from __future__ import annotations

import datetime as dt
import math

import pytest

from elo_explain import fide

# [B02] table 8.1.1 as transcribed in docs/sources.md#fide-b02: p -> dp, p from 1.00 down to .50
TABLE_8_1_1_PRINTED = {
    1.00: 800,
    0.99: 677,
    0.98: 589,
    0.97: 538,
    0.96: 501,
    0.95: 470,
    0.94: 444,
    0.93: 422,
    0.92: 401,
    0.91: 383,
    0.90: 366,
    0.89: 351,
    0.88: 336,
    0.87: 322,
    0.86: 309,
    0.85: 296,
    0.84: 284,
    0.83: 273,
    0.82: 262,
    0.81: 251,
    0.80: 240,
    0.79: 230,
    0.78: 220,
    0.77: 211,
    0.76: 202,
    0.75: 193,
    0.74: 184,
    0.73: 175,
    0.72: 166,
    0.71: 158,
    0.70: 149,
    0.69: 141,
    0.68: 133,
    0.67: 125,
    0.66: 117,
    0.65: 110,
    0.64: 102,
    0.63: 95,
    0.62: 87,
    0.61: 80,
    0.60: 72,
    0.59: 65,
    0.58: 57,
    0.57: 50,
    0.56: 43,
    0.55: 36,
    0.54: 29,
    0.53: 21,
    0.52: 14,
    0.51: 7,
    0.50: 0,
}
# [B02] "Below .50 the same values with a minus sign (.49 -> -7, ... .01 -> -677, .00 -> -800)"
ALL_ROWS = {
    **TABLE_8_1_1_PRINTED,
    **{round(1 - p, 2): -dp for p, dp in TABLE_8_1_1_PRINTED.items()},
}

NOW = "2025-01-01"  # under the 2024 rule
OLD = "2024-02-29"  # the last day of the 2022 rule

EX1 = ([1600, 1700, 1800, 1500, 1650], [1, 1, 0.5, 0.5, 0])  # [EX] 3 / 5
EX2 = ([2000, 2100, 2200, 2300, 2400], [1, 1, 1, 1, 1])  # [EX] 5 / 5
EX3 = ([1400, 1450, 1500, 1500, 1550, 1600], [1, 0, 0, 0, 0, 0])  # [EX] 1 / 6


# ------------------------------------------------------------------ table 8.1.1
def test_table_8_1_1_has_101_rows():
    assert len(ALL_ROWS) == 101
    assert len(fide.TABLE_8_1_1) == 101


@pytest.mark.parametrize("p, dp", sorted(ALL_ROWS.items()))
def test_table_dp_every_row(p, dp):
    # [B02] every row of table 8.1.1, both halves
    assert fide.table_dp(p) == dp
    assert dict(fide.TABLE_8_1_1)[p] == dp


def test_table_dp_vectorised():
    # [B02] 1.00 -> 800, .50 -> 0, .00 -> -800, .57 -> 50
    assert fide.table_dp([1.0, 0.5, 0.0, 0.57]).tolist() == [800, 0, -800, 50]


def test_table_dp_rounds_p_to_the_hundredth_half_up():
    # [EX] p = 4/7 = 0.5714 -> .57 -> 50; p = 1/6 = 0.1667 -> .17 -> -273; [B02] half up:
    # .125 -> .13 (-> -322 from .87), .175 -> .18 (-262 from .82), .565 -> .57 (50)
    assert fide.table_dp(4 / 7) == 50
    assert fide.table_dp(1 / 6) == -273
    assert fide.table_dp(0.125) == -322
    assert fide.table_dp(0.175) == -262
    assert fide.table_dp(0.565) == 50
    assert fide.table_dp(0.5649) == 43


# ------------------------------------------------------------------ first rating, 2024 rule
def test_first_rating_example_1_current_rule():
    # [EX] Ra = 11850 / 7 = 1692.86, p = 4/7 -> .57, dp 50, Ru = 1742.86 -> 1743, published
    r = fide.initial_rating(*EX1, on=NOW)
    assert r.rule == "2024"
    assert round(r.average_opponent, 2) == 1692.86
    assert r.average_opponent == pytest.approx(11850 / 7, abs=1e-9)
    assert (r.score_fraction, r.dp, r.rating, r.published, r.reason) == (0.57, 50, 1743, True, "")
    assert (r.games, r.points, r.games_needed, r.capped) == (5, 3, 0, False)


def test_first_rating_example_2_capped_at_2200():
    # [EX] Ra = 14600 / 7 = 2085.71, p = 6/7 -> .86, dp 309, 2394.71 -> capped at 2200
    r = fide.initial_rating(*EX2, on=NOW)
    assert round(r.average_opponent, 2) == 2085.71
    assert (r.score_fraction, r.dp, r.rating, r.capped, r.published) == (
        0.86,
        309,
        2200,
        True,
        True,
    )
    assert "2200" in r.text


def test_first_rating_example_3_below_1400_not_published():
    # [EX] Ra = 12600 / 8 = 1575, p = 2/8 = .25, dp -193, Ru = 1382: not published
    r = fide.initial_rating(*EX3, on=NOW)
    assert (r.average_opponent, r.score_fraction, r.dp, r.rating) == (1575, 0.25, -193, 1382)
    assert r.published is False
    assert "1400" in r.reason


def test_first_rating_published_real_example_9507():
    # [EX] 5 games, 3 points, opponents summing to 9507: Ra = 13107 / 7 = 1872.43,
    # p = 4/7 -> .57 -> dp 50, Ru = 1922.43 -> 1922
    opponents = [1850, 1900, 1950, 1880, 1927]
    assert sum(opponents) == 9507
    r = fide.initial_rating(opponents, [1, 1, 1, 0, 0], on=NOW)
    assert round(r.average_opponent, 2) == 1872.43
    assert (r.score_fraction, r.dp, r.rating, r.published) == (0.57, 50, 1922, True)


def test_first_rating_needs_five_rated_games():
    # [B02] at least 5 games against rated opponents; 4 games: 1 more needed
    r = fide.initial_rating(EX1[0][:4], EX1[1][:4], on=NOW)
    assert (r.games, r.games_needed, r.published) == (4, 1, False)
    assert "at least 5" in r.reason and "1 more" in r.reason


def test_first_rating_zero_score_is_ignored():
    # [B02] a zero score in the player's first event is ignored
    r = fide.initial_rating(EX1[0], [0] * 5, on=NOW)
    assert r.published is False and "zero score" in r.reason


# ------------------------------------------------------------------ first rating, 2022 rule
@pytest.mark.parametrize(
    "example, ra, rating",
    [
        (EX1, 1650, 1670),  # [R22]/[EX] Ra 1650, one half point above 50 % -> 1670
        (EX2, 2200, 2300),  # [R22]/[EX] 2200 + 5 x 20 = 2300 (no 2200 cap)
        (EX3, 1500, 1227),  # [R22]/[EX] Ra 1500, p .17, dp -273 -> 1227
    ],
)
def test_first_rating_2022_rule(example, ra, rating):
    r = fide.initial_rating(*example, on=OLD)
    assert r.rule == "2022"
    assert (r.average_opponent, r.rating, r.published) == (ra, rating, True)


def test_first_rating_2022_example_3_table_step():
    # [R22]/[EX] 1 / 6: p = .17, dp -273, published (floor 1000)
    r = fide.initial_rating(*EX3, on=OLD)
    assert (r.score_fraction, r.dp, r.floor) == (0.17, -273, 1000)


def test_first_rating_2022_at_fifty_percent_is_the_average():
    # [R22] at p = .50, Ru = Ra
    r = fide.initial_rating([1600, 1700, 1800, 1500, 1650, 1750], [1, 1, 1, 0, 0, 0], on=OLD)
    assert (r.average_opponent, r.dp, r.rating) == (1666.6666666666667, 0, 1667)


def test_the_rule_changes_on_1_march_2024():
    # [B02]/[R22] the 2024 rule from 1 March 2024; the 2022 rule until 29 February 2024
    assert fide.initial_rating(*EX1, on="2024-03-01").rating == 1743
    assert fide.initial_rating(*EX1, on=dt.date(2024, 2, 29)).rating == 1670


# ------------------------------------------------------------------ performance rating
def test_performance_rating_examples():
    # [EX] Rp = Ra + dp(p) over the real opponents: EX1 Ra 1650, p .60 -> 72; EX3 Ra 1500,
    # p .17 -> -273; EX2 Ra 2200, p 1.00 -> 800
    assert fide.performance_rating(*EX1) == 1722
    assert fide.performance_rating(*EX3) == 1227
    assert fide.performance_rating(*EX2) == 3000


# ------------------------------------------------------------------ uplift and floor
def test_uplift_2024_examples():
    # [N24] 1000 -> 1400, 1500 -> 1700, 1650 -> 1790; 2000 and above unchanged
    assert fide.uplift_2024(1000) == 1400
    assert fide.uplift_2024(1500) == 1700
    assert fide.uplift_2024(1650) == 1790
    assert fide.uplift_2024(2000) == 2000
    assert fide.uplift_2024(2500) == 2500
    assert fide.uplift_2024([1000, 1500, 1650, 2200]).tolist() == [1400, 1700, 1790, 2200]


def test_uplift_2024_rounds_to_whole_numbers():
    # [N24] 0.4 x (2000 - 1999) = 0.4 -> 1999.4 -> 1999; 0.4 x (2000 - 1001) = 399.6 -> 1401
    assert fide.uplift_2024(1999) == 1999
    assert fide.uplift_2024(1001) == 1401


def test_rating_floor():
    # [N24]/[TE] the list starts at 1400 from 1 March 2024; [R22] floor 1000 before
    assert fide.rating_floor("2024-03-01") == 1400
    assert fide.rating_floor(dt.date(2026, 1, 1)) == 1400
    assert fide.rating_floor("2024-02-29") == 1000
    assert fide.rating_floor("2023-01-01") == 1000


def test_period_below_floor_is_shown_as_unrated():
    # [N24] a player dropping below 1400 is shown as unrated on the next list. 1410 loses
    # two games to equals with K 20: 20 x (0 - 0.5) x 2 = -20 -> 1390 (table PD 0.50 at 0)
    p = fide.rate_period(1410, [(1410, 0), (1410, 0)], k=20, on="2025-10-01")
    assert (p.new_rating, p.floor, p.below_floor) == (1390, 1400, True)
    q = fide.rate_period(1420, [(1420, 0), (1420, 0)], k=20, on="2025-10-01")
    assert (q.new_rating, q.below_floor) == (1400, False)
    # [R22] before 1 March 2024 the floor was 1000: 1390 is still on the list
    old = fide.rate_period(1410, [(1410, 0), (1410, 0)], k=20, on="2024-02-01", cap_400=False)
    assert (old.floor, old.below_floor) == (1000, False)


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: fide.initial_rating([], [], on=NOW), "opponents must hold at least one"),
        (
            lambda: fide.initial_rating([1600, 1700], [1, 0.7], on=NOW),
            "scores must be 1 (win), 0.5",
        ),
        (
            lambda: fide.initial_rating([1600, 1700], [1], on=NOW),
            "scores must have one score per opponent",
        ),
        (
            lambda: fide.initial_rating([1600, 1200], [1, 0], on=NOW),
            "opponents must be between 1400 and 3000",
        ),
        (
            lambda: fide.initial_rating([1600, 3500], [1, 0], on=NOW),
            "opponents must be between 1400 and 3000",
        ),
        (
            lambda: fide.initial_rating([1600, math.nan], [1, 0], on=NOW),
            "opponents must be a finite",
        ),
        (
            lambda: fide.initial_rating([1600], [1], on="2021-12-31"),
            "on must be 2022-01-01 or later",
        ),
        (lambda: fide.performance_rating([], []), "opponents must hold at least one"),
        (
            lambda: fide.performance_rating([1600], [1, 0]),
            "scores must have one score per opponent",
        ),
        (lambda: fide.table_dp(1.5), "p must be between 0 and 1"),
        (lambda: fide.table_dp(math.nan), "p must be a finite"),
        (lambda: fide.uplift_2024(900), "rating must be between 1000 and 3000"),
        (lambda: fide.uplift_2024(1500.5), "rating must be a whole number"),
    ],
)
def test_bad_input_raises_value_error_naming_parameter(call, fragment):
    assert fragment in str(pytest.raises(ValueError, call).value)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: fide.initial_rating("1600", [1], on=NOW), "opponents must be a number"),
        (lambda: fide.initial_rating([1600], ["win"], on=NOW), "scores must be a number"),
        (lambda: fide.rating_floor(20240301), "on must be a datetime.date"),
        (lambda: fide.table_dp("0.5"), "p must be a number"),
    ],
)
def test_wrong_kind_raises_type_error(call, fragment):
    with pytest.raises(TypeError) as info:
        call()
    assert fragment in str(info.value)
