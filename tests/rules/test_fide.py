"""elo_explain.fide against FIDE's regulations and the numbers the documents print.

Sources:
  [TE]   docs/sources.md#telugu (the Telugu chess Elo page)
  [UK]   docs/sources.md#ukrainian (the Ukrainian calculator page)
  [B02]  FIDE Handbook B.02 Rating Regulations (1 March 2024, amended 1 October 2025),
         as transcribed in docs/sources.md#fide-b02 (table 8.1.2, rule 8.3)
  [SC]   lichess-org/scalachess, rating/src/main/scala/Elo.scala, `conversionTableFIDE`
         (an independent copy of table 8.1.2; its rows are reproduced below verbatim
         as (upper bound of the band, PD) pairs, the lower bound being the previous
         upper bound + 1, starting from 0; any larger difference gives 1.0).

How the documents compute (checked below): the Telugu calculator uses the ÷400
*formula* with *unrounded* E and prints E to two decimals and changes to one decimal.
The 400-point example decides it: unrounded E 0.9468 gives +1.06 ≈ +1.1 and −18.9
as printed, whereas the rounded E 0.95 would give +1.0 and −19.0, and FIDE's table
(0.96 at 500, 0.92 at 400) would give +0.8 / +1.6.
"""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest

from elo_explain import fide

# [SC] conversionTableFIDE: (upper bound of the band, PD of the higher-rated player)
SCALACHESS_CONVERSION_TABLE_FIDE = [
    (3, 0.50),
    (10, 0.51),
    (17, 0.52),
    (25, 0.53),
    (32, 0.54),
    (39, 0.55),
    (46, 0.56),
    (53, 0.57),
    (61, 0.58),
    (68, 0.59),
    (76, 0.60),
    (83, 0.61),
    (91, 0.62),
    (98, 0.63),
    (106, 0.64),
    (113, 0.65),
    (121, 0.66),
    (129, 0.67),
    (137, 0.68),
    (145, 0.69),
    (153, 0.70),
    (162, 0.71),
    (170, 0.72),
    (179, 0.73),
    (188, 0.74),
    (197, 0.75),
    (206, 0.76),
    (215, 0.77),
    (225, 0.78),
    (235, 0.79),
    (245, 0.80),
    (256, 0.81),
    (267, 0.82),
    (278, 0.83),
    (290, 0.84),
    (302, 0.85),
    (315, 0.86),
    (328, 0.87),
    (344, 0.88),
    (357, 0.89),
    (374, 0.90),
    (391, 0.91),
    (411, 0.92),
    (432, 0.93),
    (456, 0.94),
    (484, 0.95),
    (517, 0.96),
    (559, 0.97),
    (619, 0.98),
    (735, 0.99),
]  # getOrElse(absDiff, 1.0f): 736 and more -> 1.00


def _scalachess_rows():
    rows, low = [], 0
    for up, pd in SCALACHESS_CONVERSION_TABLE_FIDE:
        rows.append((low, up, pd))
        low = up + 1
    rows.append((low, None, 1.00))
    return rows


def _scalachess_pd(own_minus_opponent: int) -> float:
    """[SC] getExpectedScore(opponent - own): table value if own is higher, else 1 - value."""
    rating_diff = -own_minus_opponent
    table = {
        d: pd for lo, hi, pd in _scalachess_rows() if hi is not None for d in range(lo, hi + 1)
    }
    value = table.get(abs(rating_diff), 1.0)
    return value if rating_diff <= 0 else 1.0 - value


def cents(x) -> np.ndarray:
    return np.rint(np.asarray(x) * 100).astype(int)


# ------------------------------------------------------------------ table 8.1.2
def test_table_has_51_rows_matching_scalachess_row_by_row():
    # [B02] 51 rows; [SC] independent copy, every row
    assert len(fide.TABLE_8_1_2) == 51
    ref = _scalachess_rows()
    assert len(ref) == 51
    for ours, theirs in zip(fide.TABLE_8_1_2, ref):
        assert ours[0] == theirs[0] and ours[1] == theirs[1]
        assert round(ours[2] * 100) == round(theirs[2] * 100), (ours, theirs)


def test_table_first_and_last_rows_as_in_the_regulations():
    # [B02] "0–3 → .50", "620–735 → .99", "736 and more → 1.00"
    assert fide.TABLE_8_1_2[0] == (0, 3, 0.50)
    assert fide.TABLE_8_1_2[-2] == (620, 735, 0.99)
    assert fide.TABLE_8_1_2[-1] == (736, None, 1.00)


def test_table_bands_are_contiguous_and_pd_increases_by_one_cent():
    # [B02] consecutive whole-point bands, .50 to 1.00 by .01
    rows = fide.TABLE_8_1_2
    for (_lo1, hi1, pd1), (lo2, _, pd2) in zip(rows, rows[1:]):
        assert lo2 == hi1 + 1
        assert round(pd2 * 100) - round(pd1 * 100) == 1


def test_table_expected_score_every_integer_difference_matches_scalachess():
    # [SC] getExpectedScore for every whole difference -1000..1000, both columns
    d = np.arange(-1000, 1001)
    ours = cents(fide.table_expected_score(d))
    ref = cents([_scalachess_pd(int(x)) for x in d])
    assert (ours == ref).all()


def test_table_400_is_092_where_formula_gives_091():
    # [TE] "400 తేడా వద్ద పట్టిక 0.91 కు బదులు 0.92"
    assert fide.table_expected_score(400) == 0.92
    assert fide.table_expected_score(-400) == 0.08


def test_table_telugu_period_expectations():
    # [TE] E 0.64 (vs 1400), 0.36 (vs 1600), 0.43 (vs 1550) for 1500, and 0.24 vs 1700;
    # the table gives the same two-decimal values as the formula here
    assert fide.table_expected_score([100, -100, -50, -200]).tolist() == [0.64, 0.36, 0.43, 0.24]


def test_table_fractional_difference_uses_whole_point_cut_points():
    # documented convention: |D| rounded down to whole points; [B02] band 0–3 → .50,
    # 4–10 → .51, 735 → .99, 736 → 1.00
    assert fide.table_expected_score(3.999) == 0.50
    assert fide.table_expected_score(4.0) == 0.51
    assert fide.table_expected_score(-3.5) == 0.50
    assert fide.table_expected_score(-4.2) == 0.49
    assert fide.table_expected_score(735.9) == 0.99
    assert fide.table_expected_score(736) == 1.00
    assert fide.table_expected_score(-10_000) == 0.0


def test_table_is_exact_two_decimal_values():
    # [B02] PD is a two-decimal number; PD(d) + PD(-d) = 1 to the cent
    d = np.arange(0, 800)
    hi, lo = fide.table_expected_score(d), fide.table_expected_score(-d)
    assert (cents(hi) + cents(lo) == 100).all()
    assert (fide.table_expected_score(d) == cents(hi) / 100).all()


# ------------------------------------------------------------------ 400-point rule
def test_effective_difference_cap_and_2650_exemption():
    # [TE]/[B02] more than 400 counts as 400; since 2025-10-01 not for 2650 and above,
    # applied per player: the two sides of one game use different differences
    on = "2025-10-01"
    assert fide.effective_difference(1500, 1000, on=on) == 400
    assert fide.effective_difference(1000, 1500, on=on) == -400
    assert fide.effective_difference(2700, 2200, on=on) == 500
    assert fide.effective_difference(2200, 2700, on=on) == -400
    assert fide.effective_difference(2650, 2200, on=on) == 450  # "2650 or more"
    assert fide.effective_difference(2649, 2200, on=on) == 400


def test_effective_difference_before_exemption_always_capped():
    # [B02] from 2024-03-01 to 2025-09-30 the cap applies to every game
    assert fide.effective_difference(2700, 2200, on="2025-09-30") == 400
    assert fide.effective_difference(2700, 2200, on=dt.date(2024, 3, 1)) == 400


def test_effective_difference_before_2024_03_01_raises():
    # [B02] before 1 March 2024 the cap helped only once per tournament: not modelled
    with pytest.raises(ValueError, match="on must be 2024-03-01 or later"):
        fide.effective_difference(1500, 1000, on="2024-02-29")


def test_effective_difference_default_is_today():
    # on=None means today's rules ([B02]; today is after 2025-10-01, so the 2650 exemption)
    today = dt.date.today()
    assert today >= dt.date(2025, 10, 1)
    assert fide.effective_difference(2700, 2200) == 500


def test_effective_difference_accepts_datetime_and_arrays():
    # [TE] 2650 exemption, per player: a vector of players against one 2200 opponent
    out = fide.effective_difference(
        np.array([2700, 2600, 2300]), 2200, on=dt.datetime(2025, 10, 1, 12, 0)
    )
    assert out.tolist() == [500, 400, 100]


def test_two_sides_of_one_game_2650_rule_table():
    # [TE] the rule is per player: 2700 uses 500 (table .96 -- [B02] 485–517), 2200 uses
    # -400 (1 - .92 = .08), so the two expectations add up to 1.04, not 1
    hi = fide.rate_period(2700, [(2200, 1)], k=10, on="2025-10-01")
    lo = fide.rate_period(2200, [(2700, 0)], k=20, on="2025-10-01")
    assert hi.differences.tolist() == [500] and lo.differences.tolist() == [-400]
    assert hi.expected.tolist() == [0.96] and lo.expected.tolist() == [0.08]
    assert hi.change == pytest.approx(0.4) and lo.change == pytest.approx(-1.6)


# ------------------------------------------------------------------ Telugu 400-point example
@pytest.mark.parametrize(
    "cap, score, e_printed, change_printed",
    [
        # [TE] "వాస్తవ తేడా 500 పాయింట్లతో, అంచనా స్కోరు 0.95, లాభం సుమారు +1.1"
        (False, 1, 0.95, 1.1),
        # [TE] "పరిమితితో, అంచనా స్కోరు 0.91, లాభం +1.8"
        (True, 1, 0.91, 1.8),
        # [TE] "ఓటమికి 18.9 కు బదులు 18.2 పాయింట్లు పోతాయి"
        (False, 0, 0.95, -18.9),
        (True, 0, 0.91, -18.2),
    ],
)
def test_telugu_400_point_example_formula(cap, score, e_printed, change_printed):
    p = fide.rate_period(1500, [(1000, score)], k=20, on="2025-10-01", use_table=False, cap_400=cap)
    assert round(float(p.expected[0]), 2) == e_printed
    assert round(p.change, 1) == change_printed


def test_telugu_400_point_example_with_the_fide_table_differs():
    # [B02] table: 500 -> .96 (485–517), 400 -> .92 (392–411); K 20 win: 20 * .04 = 0.8,
    # 20 * .08 = 1.6; loss: -19.2, -18.4 -- not the document's numbers (it uses the formula)
    no_cap = fide.rate_period(1500, [(1000, 1)], k=20, on="2025-10-01", cap_400=False)
    cap = fide.rate_period(1500, [(1000, 1)], k=20, on="2025-10-01")
    assert (no_cap.expected[0], no_cap.change) == (0.96, 0.8)
    assert (cap.expected[0], cap.change) == (0.92, 1.6)
    loss = fide.rate_period(1500, [(1000, 0)], k=20, on="2025-10-01")
    assert loss.change == -18.4 and loss.rounded_change == -18


# ------------------------------------------------------------------ Telugu period example
def test_telugu_period_formula():
    # [TE] K 20, rating 1500: +7.2, +2.8, -8.6, total +1.4, new 1501
    p = fide.rate_period(
        1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20, use_table=False, cap_400=False
    )
    assert p.expected.round(2).tolist() == [0.64, 0.36, 0.43]
    assert (p.k * p.delta).round(1).tolist() == [7.2, 2.8, -8.6]
    assert round(p.change, 1) == 1.4
    assert p.rounded_change == 1 and p.new_rating == 1501


def test_telugu_period_table():
    # [B02] table: 100 -> .64, -100 -> .36, -50 -> 1 - .57 = .43 (47–53); ΔR .36, .14, -.43;
    # K 20 × 0.07 = 1.4 -> 1; new rating 1501 as [TE] prints
    p = fide.rate_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20, on="2025-10-01")
    assert p.differences.tolist() == [100, -100, -50]
    assert p.expected.tolist() == [0.64, 0.36, 0.43]
    assert p.delta.tolist() == [0.36, 0.14, -0.43]
    assert p.change == 1.4 and p.rounded_change == 1 and p.new_rating == 1501
    assert p.games == 3 and p.points == 1.5 and p.expected_points == pytest.approx(1.43)


# ------------------------------------------------------------------ exact rounding
def test_rounded_change_half_away_from_zero_exact_positive():
    # hand: 1600 beats 1500 (+100, [B02] 99–106 -> .64) and 1350 (+250, 246–256 -> .81):
    # ΔR .36 + .19 = .55; K 10 -> 5.5 -> 6, away from zero.
    # (10 * ((1 - 0.64) + (1 - 0.81)) in floats is 5.4999..., which would round to 5.)
    p = fide.rate_period(1600, [(1500, 1), (1350, 1)], k=10, on="2025-10-01")
    assert p.expected.tolist() == [0.64, 0.81]
    assert p.change == 5.5
    assert p.rounded_change == 6 and p.new_rating == 1606


def test_rounded_change_half_away_from_zero_exact_negative():
    # hand: 1700 draws 1525 (+175 -> .73) and 1440 (+260 -> .82): ΔR -.23 - .32 = -.55,
    # K 10 -> -5.5 -> -6, away from zero. (10 * ((0.5 - 0.73) + (0.5 - 0.82)) in floats
    # is -5.4999..., which would round to -5.)
    p = fide.rate_period(1700, [(1525, 0.5), (1440, 0.5)], k=10, on="2025-10-01")
    assert p.expected.tolist() == [0.73, 0.82]
    assert p.change == -5.5
    assert p.rounded_change == -6 and p.new_rating == 1694


def test_rounded_change_half_to_even_would_differ():
    # hand: 1500 wins vs 1500 (.50) with K 5: 2.5 -> 3 (FIDE: away from zero; round() gives 2)
    p = fide.rate_period(1500, [(1500, 1)], k=5, on="2025-10-01")
    assert p.change == 2.5 and p.rounded_change == 3
    q = fide.rate_period(1500, [(1500, 0)], k=5, on="2025-10-01")
    assert q.rounded_change == -3


# ------------------------------------------------------------------ 700 rule
def test_700_rule_document_examples():
    # [TE] junior K 40 × 20 games = 800 -> K 35; adult K 20 × 40 games = 800 -> K 17
    assert fide.k_with_700_rule(40, 20) == 35
    assert fide.k_with_700_rule(20, 40) == 17


def test_700_rule_exactly_700_not_reduced():
    # [TE] "exceeds 700": 35 × 20 = 700 and 20 × 35 = 700 stay
    assert fide.k_with_700_rule(35, 20) == 35
    assert fide.k_with_700_rule(20, 35) == 20
    assert fide.k_with_700_rule(10, 70) == 10


def test_700_rule_vectorized_and_zero_games():
    # [TE] 40×20 -> 35, 20×40 -> 17; no games: K unchanged
    assert fide.k_with_700_rule(np.array([40, 20, 10]), np.array([20, 40, 0])).tolist() == [
        35,
        17,
        10,
    ]


def test_rate_period_applies_700_rule():
    # [TE] 20 games with K 40 -> the period's K is 35; 20 draws against equals: change 0
    p = fide.rate_period(1500, [(1500, 0.5)] * 20, k=40, on="2025-10-01")
    assert p.k == 35 and p.k_requested == 40 and p.change == 0


def test_rate_period_700_rule_change_uses_reduced_k():
    # hand: 20 wins against equals with K 40 -> K 35; 35 × 20 × 0.5 = 350
    p = fide.rate_period(1500, [(1500, 1)] * 20, k=40, on="2025-10-01")
    assert p.change == 350 and p.rounded_change == 350 and p.new_rating == 1850


# ------------------------------------------------------------------ K factor
def test_k_new_player_under_30_games():
    # [TE]/[B02] 40 until events with at least 30 games; [UK] "40 для нових гравців"
    assert fide.k_factor(1800, rated_games=29) == 40
    assert fide.k_factor(1800, rated_games=30) == 20


def test_k_junior_until_end_of_year_of_18th_birthday():
    # [TE]/[B02] 40 until the end of the year of the 18th birthday while under 2300
    assert fide.k_factor(2000, rated_games=100, birth_year=2007, on="2025-12-31") == 40
    assert fide.k_factor(2000, rated_games=100, birth_year=2007, on="2026-01-01") == 20
    assert fide.k_factor(2299, rated_games=100, birth_year=2010, on="2025-06-01") == 40
    assert fide.k_factor(2300, rated_games=100, birth_year=2010, on="2025-06-01") == 20


def test_k_under_2400_is_20():
    # [TE]/[B02] 20 while under 2400; [UK] "20 для більшості рейтингових гравців до 2400"
    assert fide.k_factor(2399, rated_games=500) == 20


def test_k_2400_and_stays_10():
    # [TE]/[B02] 10 once the published rating reached 2400, even after dropping below;
    # [UK] "10 після подолання 2400"
    assert fide.k_factor(2400, rated_games=500) == 10
    assert fide.k_factor(2350, rated_games=500, reached_2400=True) == 10
    assert (
        fide.k_factor(2250, rated_games=500, birth_year=2010, reached_2400=True, on="2025-06-01")
        == 10
    )


def test_k_vectorized():
    # [TE] the four rules side by side
    k = fide.k_factor(
        np.array([1700, 2100, 2300, 2380]),
        rated_games=np.array([5, 200, 200, 200]),
        birth_year=np.array([2000, 2012, 1990, 1990]),
        reached_2400=np.array([False, False, False, True]),
        on="2025-11-01",
    )
    assert k.tolist() == [40, 40, 20, 10]


# ------------------------------------------------------- decisions that explain themselves
@pytest.mark.parametrize(
    "kwargs, k, rule",
    [
        # [TE]/[B02] 40 for a player new to the list until 30 games
        (dict(rating=1800, rated_games=29), 40, "new_player"),
        # [TE]/[B02] new player comes first, even above 2400
        (dict(rating=2450, rated_games=10), 40, "new_player"),
        # [TE]/[B02] junior under 2300 to the end of the year of the 18th birthday
        (dict(rating=2000, rated_games=100, birth_year=2007, on="2025-12-31"), 40, "junior"),
        (dict(rating=2000, rated_games=100, birth_year=2007, on="2026-01-01"), 20, "default"),
        (dict(rating=2300, rated_games=100, birth_year=2010, on="2025-06-01"), 20, "default"),
        # [TE]/[B02] 10 once the published rating reached 2400, for good (junior or not)
        (dict(rating=2400, rated_games=500), 10, "reached_2400"),
        (
            dict(rating=2250, rated_games=500, birth_year=2010, reached_2400=True, on="2025-06-01"),
            10,
            "reached_2400",
        ),
        # [TE]/[UK] 20 for most rated players below 2400
        (dict(rating=2399, rated_games=500), 20, "default"),
    ],
)
def test_k_factor_rule_names_the_rule_and_agrees_with_k_factor(kwargs, k, rule):
    decision = fide.k_factor_rule(**kwargs)
    assert (decision.k, decision.rule) == (k, rule)
    assert fide.k_factor(**kwargs) == k
    assert decision.text.startswith(f"K {k}: ")


def test_k_factor_rule_texts_say_why():
    # [TE] 40 until 30 games; 10 stays even below 2400; junior to the end of the 18th year
    assert "at least 30 games" in fide.k_factor_rule(1800, rated_games=12).text
    assert "even at 2350" in fide.k_factor_rule(2350, rated_games=300, reached_2400=True).text
    junior = fide.k_factor_rule(2100, rated_games=80, birth_year=2008, on="2026-01-01").text
    assert "junior until the end of 2026" in junior and "under 2300" in junior
    over = fide.k_factor_rule(2350, rated_games=80, birth_year=2008, on="2026-01-01").text
    assert "still a junior in 2026" in over and "not under 2300" in over
    assert "no birth year given" in fide.k_factor_rule(2000, rated_games=80).text


def test_k_rules_table_in_the_order_of_rule_8_3_3():
    # [TE]/[B02] new player 40, reached 2400 10, junior 40, everyone else 20
    assert [(rule, k) for rule, k, _ in fide.K_RULES] == [
        ("new_player", 40),
        ("reached_2400", 10),
        ("junior", 40),
        ("default", 20),
    ]


@pytest.mark.parametrize(
    "k, games, k_used, lowered, product",
    [
        (40, 20, 35, True, "800 > 700"),  # [TE] junior K 40, 20 games -> 35
        (20, 40, 17, True, "800 > 700"),  # [TE] adult K 20, 40 games -> 17
        (20, 35, 20, False, "700 ≤ 700"),  # [TE] exactly 700 is not reduced
        (10, 70, 10, False, "700 ≤ 700"),  # [TE] exactly 700 is not reduced
    ],
)
def test_rule_700_says_from_and_to(k, games, k_used, lowered, product):
    r = fide.rule_700(k, games)
    assert (r.k, r.games, r.k_used, r.lowered) == (k, games, k_used, lowered)
    assert r.k_used == fide.k_with_700_rule(k, games)
    assert product in r.text
    if lowered:
        assert f"K lowered from {k} to {k_used}" in r.text
    else:
        assert f"K stays {k}" in r.text


def test_cap_decision_per_player_2650_exemption():
    # [TE] since 1 October 2025 a player rated 2650 or more uses the real difference, the
    # opponent below 2650 is capped: 2700 vs 2200 -> +500 and -400
    a = fide.cap_decision(2700, 2200, on="2025-10-01")
    b = fide.cap_decision(2200, 2700, on="2025-10-01")
    assert (a.difference, a.used, a.capped) == (500, 500, False)
    assert (b.difference, b.used, b.capped) == (-500, -400, True)
    assert "2650 and above: exempt since 1 October 2025" in a.reason
    assert "below 2650" in b.reason


def test_cap_decision_before_the_exemption_caps_everyone():
    # [B02] from 1 March 2024 to 30 September 2025 the cap applies to every game
    a = fide.cap_decision(2700, 2200, on="2025-09-30")
    assert (a.used, a.capped) == (400, True)
    assert "every player" in a.reason


def test_cap_decision_telugu_example_and_within_400():
    # [TE] 1500 beats 1000: real difference 500 counts as 400; 1500 vs 1700 (200) is not capped
    t = fide.cap_decision(1500, 1000, on="2025-10-01")
    assert (t.used, t.capped) == (400, True)
    w = fide.cap_decision(1500, 1700, on="2025-10-01")
    assert (w.used, w.capped) == (-200, False)
    assert "within ±400" in w.reason


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: fide.table_expected_score(math.nan), "difference must be a finite number"),
        (
            lambda: fide.effective_difference(math.inf, 1500, on="2025-10-01"),
            "rating must be a finite",
        ),
        (
            lambda: fide.effective_difference(1500, 1500, on="2025-13-01"),
            "on must be a date or an ISO date string",
        ),
        (
            lambda: fide.effective_difference(1500, 1500, on="2023-12-31"),
            "on must be 2024-03-01 or later",
        ),
        (lambda: fide.k_factor(1500, rated_games=-1), "rated_games must be a whole number >= 0"),
        (lambda: fide.k_factor(1500, rated_games=2.5), "rated_games must be a whole number"),
        (lambda: fide.k_factor(math.nan, rated_games=40), "rating must be a finite"),
        (lambda: fide.k_with_700_rule(0, 20), "k must be > 0"),
        (lambda: fide.k_with_700_rule(20, -1), "games must be a whole number >= 0"),
        (lambda: fide.rule_700(0, 20), "k must be > 0"),
        (lambda: fide.rule_700(20, 2.5), "games must be a whole number"),
        (
            lambda: fide.k_factor_rule(1800, rated_games=-3),
            "rated_games must be a whole number >= 0",
        ),
        (lambda: fide.cap_decision(math.nan, 1500, on="2025-10-01"), "rating must be a finite"),
        (lambda: fide.cap_decision(1500, 1500, on="2024-01-01"), "on must be 2024-03-01 or later"),
        (
            lambda: fide.rate_period(1500, [(1400, 0.7)], k=20, on="2025-10-01"),
            "score in results must be 1",
        ),
        (lambda: fide.rate_period(1500, [(1400, 1)], k=0, on="2025-10-01"), "k must be > 0"),
        (
            lambda: fide.rate_period(math.nan, [(1400, 1)], k=20, on="2025-10-01"),
            "rating must be a finite",
        ),
        (
            lambda: fide.rate_period(1500, [(1400, 1)], k=20, on="2024-01-01"),
            "on must be 2024-03-01 or later",
        ),
    ],
)
def test_bad_input_raises_value_error_naming_parameter(call, fragment):
    assert fragment in str(pytest.raises(ValueError, call).value)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: fide.effective_difference(1500, 1500, on=20251001), "on must be a datetime.date"),
        (
            lambda: fide.k_factor(1500, rated_games=40, reached_2400="yes"),
            "reached_2400 must be True or False",
        ),
        (
            lambda: fide.rate_period(1500, [(1400, 1)], k=20, use_table="no"),
            "use_table must be True or False",
        ),
        (lambda: fide.table_expected_score("400"), "difference must be a number"),
        (
            lambda: fide.k_factor_rule([1500, 1600], rated_games=40),
            "rating must be a single number",
        ),
        (lambda: fide.cap_decision([2700], 2200), "rating must be a single number"),
    ],
)
def test_wrong_kind_raises_type_error(call, fragment):
    with pytest.raises(TypeError) as info:
        call()
    assert fragment in str(info.value)


def test_without_cap_earlier_dates_are_allowed():
    # no 400-point rule -> no date rule to model; [TE] 1500 beats 1000 without cap, formula
    p = fide.rate_period(1500, [(1000, 1)], k=20, on="2020-01-01", cap_400=False, use_table=False)
    assert round(p.change, 1) == 1.1
