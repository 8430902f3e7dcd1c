"""elo_explain.gammon42 against every number the Greek document (docs/sources.md#greek) prints.

"DOC" below means the Greek article "How ELO is calculated in Gammon42" (docs/sources.md#greek);
"GO" means the Go code printed in it. Section names are the article's headings, translated.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest

from elo_explain import gammon42 as g


def half_up(x: float) -> int:
    """Independent oracle for Go's math.Round: exact decimal, halves away from zero."""
    return int(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


# --------------------------------------------------------------------- constants (GO)
def test_constants_mirror_the_go_code():
    assert g.K == 32  # GO: const K = 32
    assert g.HEAVY_VOLUME_K == 16  # GO: const HeavyVolumeK = 16
    assert g.HEAVY_VOLUME_GAMES == 50  # GO: const HeavyVolumeGames = 50
    assert g.HEAVY_VOLUME_WINDOW == dt.timedelta(hours=7 * 24)  # GO: 7 * 24 * time.Hour
    assert g.DIVISOR == 1200  # GO: const Divisor = 1200
    assert (
        g.STARTING == 1500 and g.START == 1500
    )  # GO: const Starting = 1500; DOC: everyone starts at 1500


def test_versions_record_the_divisor_history():
    # DOC "Why we divide by 1200": 400 at first, 800 from 1.2.0, 1200 from 1.3.1;
    # the volume K is new in 1.3.1 (DOC step 3); before 1.0.5 the cube multiplied points.
    v = g.VERSIONS
    assert [r.divisor for r in v.values()] == [400, 400, 800, 1200]
    assert v["1.3.1"].heavy_volume_k == 16 and v["1.3.1"] is g.CURRENT
    assert v["1.2.0"].heavy_volume_k is None and v["1.0.5"].heavy_volume_k is None
    assert v["pre-1.0.5"].cube_mode == "direct" and v["1.0.5"].cube_mode == "coefficient"
    assert all(r.k == 32 for r in v.values())


# ------------------------------------------------------------------ step 1: expected
@pytest.mark.parametrize(
    "difference, percent",
    # DOC step 1 table: rating difference -> favourite's expected win rate
    [
        (0, "50.0"),
        (50, "52.4"),
        (100, "54.8"),
        (150, "57.1"),
        (200, "59.5"),
        (300, "64.0"),
        (400, "68.3"),
        (500, "72.3"),
    ],
)
def test_expected_win_rate_table(difference, percent):
    assert f"{100 * g.expected_score(1500 + difference, 1500):.1f}" == percent


def test_expected_score_equal_ratings_is_a_coin_toss():
    assert g.expected_score(1500, 1500) == 0.5  # DOC step 1: same rating -> 0.5


def test_divisor_400_favourite_200_up_expects_76_percent():
    # DOC "Why 1200": with 400, a favourite 200 points up is expected to win 76 %
    assert round(100 * g.expected_score(1700, 1500, divisor=400)) == 76


def test_200_up_must_win_about_60_percent():
    # DOC step 2: 200 points above, you must win about 60 % just to hold your place
    assert abs(100 * g.expected_score(1700, 1500) - 60) < 1  # 59.5 % (DOC step 1 table)
    w, l = g.change(1700, 1500)[0], g.change(1500, 1700)[1]  # +13 / -19 (DOC step 2 table)
    assert (w, l) == (13, -19)
    breakeven = -l / (w - l)
    assert 0.58 < breakeven < 0.61
    assert g.break_even_win_rate(200) == 19 / 32  # the rule function: the same 59.4 %


def test_expected_score_broadcasts():
    e = g.expected_score(np.array([1500, 1600]), np.array([[1500], [1600]]))
    assert e.shape == (2, 2)
    assert e[0, 0] == 0.5 and e[1, 1] == 0.5


# --------------------------------------------------------------- step 2: the change
def test_equal_players_win_16():
    # DOC step 2: two players at 1500, expected 0.5, winner 32 * (1 - 0.5) = +16, loser -16
    assert g.change(1500, 1500) == (16, -16)


@pytest.mark.parametrize(
    "difference, fav_wins, dog_wins",
    # DOC step 2 table, K 32, cube 1: (favourite wins) and (underdog wins), winner / loser
    [
        (0, (16, -16), (16, -16)),
        (100, (14, -14), (18, -18)),
        (200, (13, -13), (19, -19)),
        (300, (12, -12), (20, -20)),
        (400, (10, -10), (22, -22)),
    ],
)
def test_k32_change_table(difference, fav_wins, dog_wins):
    assert g.change(1500 + difference, 1500) == fav_wins
    assert g.change(1500, 1500 + difference) == dog_wins


def test_change_vectorized_matches_the_table():
    diffs = np.array([0, 100, 200, 300, 400])
    w, l = g.change(1500 + diffs, 1500)
    assert w.tolist() == [16, 14, 13, 12, 10]  # DOC step 2 table, favourite wins
    assert l.tolist() == [-16, -14, -13, -12, -10]
    w, l = g.change(1500, 1500 + diffs)
    assert w.tolist() == [16, 18, 19, 20, 22]  # DOC step 2 table, underdog wins
    assert l.tolist() == [-16, -18, -19, -20, -22]
    assert isinstance(g.change(1500, 1500)[0], int)


# ------------------------------------------------------------ step 3: K by volume
def test_k_for_threshold():
    # DOC step 3: fewer than 50 games -> K 32; 50 or more -> K 16 (GO KFor: >= HeavyVolumeGames)
    assert g.k_for(0) == 32
    assert g.k_for(49) == 32
    assert g.k_for(50) == 16
    assert g.k_for(300) == 16
    assert g.k_for(np.array([49, 50])).tolist() == [32, 16]


@pytest.mark.parametrize(
    "difference, k32, k16",
    # DOC step 3 table: favourite wins / favourite loses, K 32 and K 16
    [(0, (16, -16), (8, -8)), (150, (14, -18), (7, -9)), (300, (12, -20), (6, -10))],
)
def test_k32_vs_k16_table(difference, k32, k16):
    for k, (win, loss) in ((32, k32), (16, k16)):
        assert g.change(1500 + difference, 1500, winner_k=k, loser_k=k)[0] == win
        assert g.change(1500, 1500 + difference, winner_k=k, loser_k=k)[1] == loss


def test_asymmetric_example_60_vs_10_games():
    # DOC step 3: same rating, you 60 ranked games this week, the opponent 10:
    # your win gives you +8 while they lose -16; their win gives them +16 and you lose -8.
    you, them = g.k_for(60), g.k_for(10)
    assert g.change(1500, 1500, winner_k=you, loser_k=them) == (8, -16)
    assert g.change(1500, 1500, winner_k=them, loser_k=you) == (16, -8)
    r = g.CURRENT
    assert r.change(1700, 1700, winner_recent=60, loser_recent=10) == (8, -16)
    assert r.change(1700, 1700, winner_recent=10, loser_recent=60) == (16, -8)


def test_equal_k_mirror_images():
    # DOC step 3: with the same K the winner still gains exactly what the loser loses
    for k in (16, 32):
        w, l = g.change(np.arange(1000, 2001, 7), 1500, winner_k=k, loser_k=k)
        assert (w == -l).all()


def test_heavy_week_halves_every_change():
    # DOC FAQ: with 50+ ranked games in the last 7 days all your changes are halved
    assert g.change(1500, 1500, winner_k=g.k_for(50))[0] == 16 // 2
    assert g.change(1500, 1500, loser_k=g.k_for(50))[1] == -16 // 2


def test_300_games_two_percent_below_expectation_cost_about_200():
    # DOC step 3 "why": 300 ranked games a week, K 32, only 2-3 percentage points below the
    # expected win rate cost about 200 points. Equal ratings: 48 % of 300 = 144 wins, 156 losses.
    win, loss = g.change(1500, 1500)
    total = 144 * win + 156 * loss
    assert total == -192  # "about 200"
    # With K 16 for the heavy week the same week swings half as much.
    win16, loss16 = g.change(1500, 1500, winner_k=16, loser_k=16)
    assert 144 * win16 + 156 * loss16 == -96


# ----------------------------------------------------------------- divisor history
@pytest.mark.parametrize(
    "version, divisor, percent, win, loss",
    # DOC "Why 1200" table, favourite 300 points up, K 32
    [
        ("1.0.5", 400, "84.9", 5, -27),
        ("1.2.0", 800, "70.3", 9, -23),
        ("1.3.1", 1200, "64.0", 12, -20),
    ],
)
def test_divisor_history_at_300(version, divisor, percent, win, loss):
    assert f"{100 * g.expected_score(1800, 1500, divisor):.1f}" == percent
    assert g.change(1800, 1500, divisor=divisor)[0] == win
    assert g.change(1500, 1800, divisor=divisor)[1] == loss
    r = g.VERSIONS[version]
    assert r.change(1800, 1500)[0] == win and r.change(1500, 1800)[1] == loss


def test_divisor_400_favourite_300_up_had_to_win_85_percent():
    # DOC "Why 1200": with 400, +5 for a win and -27 for a loss: to hold the rating the
    # favourite had to win 85 % of those games.
    win, loss = g.change(1800, 1500, divisor=400)[0], g.change(1500, 1800, divisor=400)[1]
    assert round(100 * -loss / (win - loss)) == 84  # 27 / 32 = 84.4 % with rounded points
    assert round(100 * g.expected_score(1800, 1500, divisor=400)) == 85
    assert g.break_even_win_rate(300, divisor=400) == 27 / 32  # the rule function


def test_break_even_win_rate_by_divisor_at_300_up():
    # DOC's version table at 300 points up (K 32): ÷400 +5 / −27, ÷800 +9 / −23, ÷1200
    # +12 / −20: the rating holds at p = loss / (win + loss)
    rates = g.break_even_win_rate(300, divisor=np.array([400, 800, 1200]))
    assert rates.tolist() == [27 / 32, 23 / 32, 20 / 32]
    # equal players: +16 / −16 (DOC), so half the games hold the rating; K 16 halves both sides
    assert g.break_even_win_rate(0) == 0.5 and g.break_even_win_rate(0, k=16) == 0.5
    with pytest.raises(ValueError, match="difference must be >= 0"):
        g.break_even_win_rate(-1)


# --------------------------------------------------------------------- the cube
def test_unrounded_change_is_what_the_server_rounds():
    # GO: Winner = round(winnerK × (1 − expected) × coefficient), Loser = round(loserK × (0 −
    # expectedLoser) × coefficient); DOC cube table, cube 2: 32 × 0.5 × (1 + 1/6) = 18.67 → ±19
    w, lo = g.unrounded_change(1500, 1500, cube=2)
    assert w == pytest.approx(32 * 0.5 * (1 + 1 / 6)) and lo == pytest.approx(-w)
    # DOC step 2 table, 300 up, favourite wins: 32 × (1 − 1 / (1 + 10^(−300/1200))) = 11.52 → +12
    e = 1 / (1 + 10 ** (-300 / 1200))
    w, lo = g.unrounded_change(1800, 1500)
    assert (w, lo) == (pytest.approx(32 * (1 - e)), pytest.approx(-32 * (1 - e)))
    assert (half_up(w), -half_up(-lo)) == g.change(1800, 1500) == (12, -12)
    # DOC: 60 vs 10 games this week, same rating: +8 for the busy winner, −16 for the other
    assert g.unrounded_change(1500, 1500, winner_k=16, loser_k=32) == (8.0, -16.0)
    ws, ls = g.unrounded_change(np.array([1500, 1600, 1700, 1800, 1900]), 1500)
    assert [half_up(x) for x in ws] == [16, 14, 13, 12, 10]  # DOC step 2 table


@pytest.mark.parametrize(
    "cube, coefficient, k32, k16",
    # DOC cube table: cube, coefficient, two players at 1500 with K 32 and K 16
    [
        (1, "1.00", 16, 8),
        (2, "1.17", 19, 9),
        (4, "1.33", 21, 11),
        (8, "1.50", 24, 12),
        (16, "1.67", 27, 13),
        (32, "1.83", 29, 15),
        (64, "2.00", 32, 16),
    ],
)
def test_cube_table(cube, coefficient, k32, k16):
    assert f"{g.cube_coefficient(cube):.2f}" == coefficient
    assert g.change(1500, 1500, cube=cube) == (k32, -k32)
    assert g.change(1500, 1500, cube=cube, winner_k=16, loser_k=16) == (k16, -k16)


def test_cube_coefficient_formula_range():
    # DOC: coefficient = 1 + log2(cube)/6, from 1.0 to 2.0; each doubling adds a sixth
    c = g.cube_coefficient(np.array(g.CUBE_VALUES))
    assert c[0] == 1.0 and c[-1] == 2.0
    assert np.allclose(np.diff(c), 1 / 6)


def test_cube_64_at_most_doubles_the_change():
    # DOC: even at the maximum cube, 64, the change is at most double the normal one
    for diff in range(-600, 601, 25):
        w1, l1 = g.change(1500 + diff, 1500)
        w64, l64 = g.change(1500 + diff, 1500, cube=64)
        assert abs(w64) <= 2 * abs(w1) + 1 and abs(l64) <= 2 * abs(l1) + 1


def test_before_105_the_cube_multiplied_the_points():
    # DOC: before 1.0.5 the cube multiplied the points directly (divisor was still 400)
    old = g.VERSIONS["pre-1.0.5"]
    assert old.change(1500, 1500, cube=64) == (16 * 64, -16 * 64)
    assert g.cube_multiplier(8, "direct") == 8.0
    assert g.change(1500, 1500, cube=2, cube_mode="direct") == (32, -32)


@pytest.mark.parametrize("bad", [3, 0, 128, 1.5, -2])
def test_cube_value_errors(bad):
    with pytest.raises(ValueError, match=r"cube must be one of 1, 2, 4, 8, 16, 32, 64, got"):
        g.cube_coefficient(bad)
    with pytest.raises(ValueError, match=r"^cube must be one of"):
        g.change(1500, 1500, cube=bad)


def test_cube_type_errors():
    with pytest.raises(TypeError, match="cube"):
        g.cube_coefficient(True)
    with pytest.raises(TypeError, match="cube"):
        g.cube_coefficient("2")
    with pytest.raises(ValueError, match="cube_mode|mode must be one of"):
        g.change(1500, 1500, cube_mode="squared")


# --------------------------------------------------------------------- go_round
@pytest.mark.parametrize(
    "x, expected",
    # Go math.Round: "rounds half away from zero" (Go standard library documentation)
    [
        (0.5, 1.0),
        (-0.5, -1.0),
        (2.5, 3.0),
        (-2.5, -3.0),
        (1.5, 2.0),
        (-1.5, -2.0),
        (0.49999999999999994, 0.0),
        (-0.49999999999999994, 0.0),
        (4503599627370495.5, 4503599627370496.0),
    ],
)
def test_go_round_halves(x, expected):
    assert g.go_round(x) == expected
    assert g.go_round(x) == half_up(x)


def test_go_round_differs_from_python_round():
    assert round(2.5) == 2 and g.go_round(2.5) == 3  # Python: half to even
    arr = np.array([-3.5, -2.5, -0.5, 0.5, 2.5, 3.5])
    assert g.go_round(arr).tolist() == [-4, -3, -1, 1, 3, 4]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), [0.5, float("nan")]])
def test_go_round_refuses_non_finite(bad):
    # Go: Round(±Inf) = ±Inf, Round(NaN) = NaN (Go standard library documentation). No rating
    # change is ever non-finite, so the explainer refuses such input instead of passing it on.
    with pytest.raises(ValueError, match="x must be a finite number"):
        g.go_round(bad)


# ------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(winner_rating=float("nan"), loser_rating=1500), "winner_rating must be a finite"),
        (dict(winner_rating=1500, loser_rating=float("inf")), "loser_rating must be a finite"),
        (dict(winner_rating=1500, loser_rating=1500, winner_k=0), "winner_k must be > 0"),
        (dict(winner_rating=1500, loser_rating=1500, loser_k=-16), "loser_k must be > 0"),
        (dict(winner_rating=1500, loser_rating=1500, divisor=0), "divisor must be > 0"),
    ],
)
def test_change_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        g.change(**kwargs)


@pytest.mark.parametrize("bad", [-1, 1.5, [3, -1]])
def test_k_for_bad_input(bad):
    with pytest.raises(ValueError, match="recent_ranked_games must be (a )?whole number"):
        g.k_for(bad)


def test_expected_score_bad_input():
    with pytest.raises(ValueError, match="divisor must be > 0"):
        g.expected_score(1500, 1500, divisor=-400)
    with pytest.raises(TypeError, match="rating"):
        g.expected_score("1500", 1500)


def test_change_names_cube_mode():
    with pytest.raises(ValueError, match="^cube_mode must be one of 'coefficient', 'direct'"):
        g.change(1500, 1500, cube_mode="x")


@pytest.mark.parametrize("name", ["winner_k", "loser_k"])
@pytest.mark.parametrize("bad", [1001, 2e19, 1e308, [32, 5000]])
def test_change_bounds_k(name, bad):
    # MAX_K = 1000 is the module's documented sanity bound (the server uses 32 and 16)
    with (
        np.errstate(all="raise"),
        pytest.raises(ValueError, match=f"{name} must be > 0 and at most 1000"),
    ):
        g.change(1500, 1500, **{name: bad})


@pytest.mark.parametrize("kwargs", [dict(k=2e19), dict(heavy_k=1e308), dict(k=[32, 1e4])])
def test_k_for_bounds_k(kwargs):
    with pytest.raises(ValueError, match="k must be > 0 and at most 1000"):
        g.k_for(10, **kwargs)


@pytest.mark.parametrize("bad", [10**30, 10**400, 1e300, [1e19]])
def test_k_for_bounds_counts(bad):
    with pytest.raises(ValueError, match="recent_ranked_games must be whole numbers from 0"):
        g.k_for(bad)


def test_extreme_ratings_like_go_without_warnings():
    # GO: math.Pow(10, +Inf) = +Inf and 1 / (1 + Inf) = 0 (Go math package documentation):
    # an enormous difference gives the favourite E = 1 (wins +0) and the underdog E = 0
    # (wins the full K = 32, cube 1). No numpy warning on the way.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert g.change(1e308, -1e308) == (0, 0)
        assert g.change(-1e308, 1e308) == (32, -32)
        assert g.expected_score(-1e308, 1e308) == 0.0


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(divisor=float("nan")), ValueError, "divisor must be a finite number"),
        (dict(divisor=0), ValueError, "divisor must be > 0"),
        (dict(divisor="abc"), TypeError, "divisor"),
        (dict(divisor=None), TypeError, "divisor"),
        (dict(k=-1), ValueError, "k must be > 0"),
        (dict(k=0.5), ValueError, "k must be a whole number from 1 to 1000"),  # GO: K is an int
        (dict(k=2e19), ValueError, "k must be > 0 and at most 1000"),
        (dict(k=True), TypeError, "k must be"),
        (dict(heavy_volume_k=float("inf")), ValueError, "heavy_volume_k must be a finite"),
        (dict(heavy_volume_games=float("nan")), ValueError, "heavy_volume_games must be a finite"),
        (dict(heavy_volume_games=2.5), ValueError, "heavy_volume_games must be whole numbers"),
        (dict(window=dt.timedelta(0)), ValueError, "window must be a positive duration"),
        (dict(cube_mode="x"), ValueError, "cube_mode must be one of"),
        (dict(version=3), TypeError, "version must be a str"),
    ],
)
def test_rules_validate_on_construction(kwargs, error, words):
    with pytest.raises(error, match=words):
        g.Rules(**{"version": "x", "label": "x", "divisor": 1200, **kwargs})


def test_rules_store_whole_numbers_as_int():
    r = g.Rules("x", "x", divisor=1200.0, k=32.0, heavy_volume_k=16.0, heavy_volume_games=50.0)
    assert (r.divisor, r.k, r.heavy_volume_k, r.heavy_volume_games) == (1200, 32, 16, 50)
    assert all(type(x) is int for x in (r.divisor, r.k, r.heavy_volume_k, r.heavy_volume_games))
    # DOC: two players at 1500 -> +16 / -16 with K 32
    assert r.change(1500, 1500) == (16, -16)


# ------------------------------------------------------------------ the 7-day window
AT = dt.datetime(2026, 10, 20, 18, 30)
WEEK = dt.timedelta(days=7)
US = dt.timedelta(microseconds=1)


def test_window_boundaries():
    # DOC step 3: the 7 days before the game being rated; the game itself does not count.
    assert g.recent_ranked_games([AT - WEEK], AT) == 0  # exactly 7 days before: outside
    assert g.recent_ranked_games([AT - WEEK + US], AT) == 1  # just inside
    assert g.recent_ranked_games([AT], AT) == 0  # the game being rated
    assert g.recent_ranked_games([AT - US], AT) == 1
    assert g.recent_ranked_games([AT + US], AT) == 0  # a later game
    assert g.recent_ranked_games([], AT) == 0


def test_window_counts_49_vs_50():
    # DOC step 3: under 50 games K 32, 50 or more K 16
    games49 = [AT - dt.timedelta(hours=3 * i + 1) for i in range(49)]
    assert g.recent_ranked_games(games49, AT) == 49 and g.k_for(49) == 32
    games50 = games49 + [AT - dt.timedelta(days=6, hours=23)]
    assert g.recent_ranked_games(games50, AT) == 50
    assert g.k_for(g.recent_ranked_games(games50, AT)) == 16
    # the 50th game a week earlier exactly does not count
    assert g.recent_ranked_games(games49 + [AT - WEEK], AT) == 49


def test_window_many_moments_and_numpy_times():
    times = np.array(
        ["2026-10-01T00:00", "2026-10-05T12:00", "2026-10-08T00:00"], dtype="datetime64[m]"
    )
    at = np.array(
        ["2026-10-08T00:00", "2026-10-08T00:01", "2026-10-12T12:00"], dtype="datetime64[s]"
    )
    # 10-08 00:00: window (10-01 00:00, 10-08 00:00) -> only 10-05 counts
    # 10-08 00:01: 10-05 and 10-08; 10-12 12:00: window starts 10-05 12:00 (excluded) -> 10-08
    assert g.recent_ranked_games(times, at).tolist() == [1, 2, 1]


def test_window_time_zones():
    utc = dt.timezone.utc
    athens = dt.timezone(dt.timedelta(hours=3))
    at = dt.datetime(2026, 10, 20, 12, tzinfo=utc)
    t = dt.datetime(2026, 10, 13, 15, 0, 1, tzinfo=athens)  # 12:00:01 UTC, 7 days - 1 s before
    assert g.recent_ranked_games([t], at) == 1
    with pytest.raises(TypeError, match="timezone-aware"):
        g.recent_ranked_games([dt.datetime(2026, 10, 19)], at)
    with pytest.raises(TypeError, match="game_times"):
        g.recent_ranked_games(["2026-10-19"], AT)


# ------------------------------------------------------------------------ the ladder
def test_ladder_asymmetric_week():
    # DOC step 3 example, played out: "you" have 60 ranked games this week, the opponent 10,
    # same rating -> a win gives you +8 while they lose -16; their win: +16 / -8.
    t0 = dt.datetime(2026, 10, 12, 9)
    ladder = g.Ladder()
    busy = [
        (
            t0 + dt.timedelta(minutes=10 * i),
            "you" if i % 2 else f"x{i}",
            f"x{i}" if i % 2 else "you",
            1,
        )
        for i in range(60)
    ]
    calm = [
        (
            t0 + dt.timedelta(minutes=10 * i + 5),
            "them" if i % 2 else f"y{i}",
            f"y{i}" if i % 2 else "them",
            1,
        )
        for i in range(10)
    ]
    ladder.replay(sorted(busy + calm, key=lambda e: e[0]))
    # bring both back to the same rating (a prize is not a ranked game, DOC "Which games count")
    ladder.award("you", 1500 - ladder.rating("you"))
    ladder.award("them", 1500 - ladder.rating("them"))
    at = t0 + dt.timedelta(days=1)
    rec = ladder.play(at, "you", "them")
    assert (rec.winner_recent, rec.loser_recent) == (60, 10)
    assert (rec.winner_k, rec.loser_k) == (16, 32)
    assert (rec.winner_delta, rec.loser_delta) == (8, -16)
    rec = ladder.play(at + dt.timedelta(minutes=1), "them", "you")
    assert (rec.winner_recent, rec.loser_recent) == (11, 61)
    assert (rec.winner_k, rec.loser_k) == (32, 16)
    assert (rec.winner_before, rec.loser_before) == (1484, 1508)
    assert (rec.winner_delta, rec.loser_delta) == (16, -8)  # DOC: "+16 and you lose -8"


def test_ladder_49_vs_50_and_the_window_moves():
    # DOC step 3: 50 or more games in the window -> K 16; the window moves with the player
    # and when you drop below 50 you are back to K 32.
    t0 = dt.datetime(2026, 10, 1)
    log = [(t0 + dt.timedelta(hours=i), "p", f"o{i}", 1) for i in range(50)]
    ladder = g.Ladder()
    games = ladder.replay(log)
    assert games[49].winner_recent == 49 and games[49].winner_k == 32  # 49 before game 50
    nxt = ladder.play(t0 + dt.timedelta(hours=50), "p", "q")
    assert nxt.winner_recent == 50 and nxt.winner_k == 16
    # exactly 7 days after the first game: that game drops out -> 50 again (games 2..51)
    later = ladder.play(t0 + WEEK, "p", "r")
    assert later.winner_recent == 50 and later.winner_k == 16
    # two days later the window starts at t0 + 48 h (excluded): games at 49 h, 50 h and 7 days
    much_later = ladder.play(t0 + WEEK + dt.timedelta(days=2), "p", "s")
    assert much_later.winner_recent == 3 and much_later.winner_k == 32


def test_ladder_records_and_zero_sum():
    log = [
        (dt.datetime(2026, 10, 1, 20), "ana", "bob", 1),
        (dt.datetime(2026, 10, 1, 21), "ana", "cem", 4),
        (dt.datetime(2026, 10, 1, 22), "cem", "bob"),
    ]
    ladder = g.Ladder()
    games = ladder.replay(log)
    assert [(x.winner_delta, x.loser_delta) for x in games][0] == (16, -16)  # DOC: equal, +16
    for x in games:
        assert x.winner_after == x.winner_before + x.winner_delta
        assert x.loser_after == x.loser_before + x.loser_delta
        assert x.winner_delta == -x.loser_delta  # equal K (DOC step 3)
    assert sum(ladder.ratings.values()) == 3 * 1500
    assert ladder.rating("dan") == 1500  # DOC: everyone starts at 1500
    assert games[1].winner_before == 1516 and games[1].cube == 4
    assert ladder.games == tuple(games)


def test_ladder_versions():
    # The same log under 1.2.0 rules: no volume rule, divisor 800 (DOC "Why 1200")
    t0 = dt.datetime(2026, 10, 1)
    log = [(t0 + dt.timedelta(minutes=i), "p", f"o{i}", 1) for i in range(55)]
    old = g.Ladder(g.VERSIONS["1.2.0"]).replay(log)
    assert all(x.winner_k == 32 for x in old)
    new = g.Ladder().replay(log)
    assert new[-1].winner_k == 16
    # DOC divisor history, ÷800: favourite 300 up wins +9
    ladder = g.Ladder(g.VERSIONS["1.2.0"], ratings={"f": 1800, "u": 1500})
    assert ladder.play(t0, "f", "u").winner_delta == 9


def test_ladder_bad_input():
    ladder = g.Ladder()
    ladder.play(dt.datetime(2026, 10, 2), "a", "b")
    with pytest.raises(ValueError, match="time must not be earlier"):
        ladder.play(dt.datetime(2026, 10, 1), "a", "b")
    with pytest.raises(ValueError, match="winner and loser must be different"):
        ladder.play(dt.datetime(2026, 10, 3), "a", "a")
    with pytest.raises(ValueError, match="cube must be one of"):
        ladder.play(dt.datetime(2026, 10, 3), "a", "b", 3)
    with pytest.raises(ValueError, match=r"log\[0\]"):
        g.Ladder().replay([(dt.datetime(2026, 10, 3), "a")])
    with pytest.raises(TypeError, match="rules"):
        g.Ladder(rules="1.3.1")
    with pytest.raises(ValueError, match="starting"):
        g.Ladder(starting=float("nan"))
    # a failed game changes nothing
    assert ladder.ratings == {"a": 1516, "b": 1484} and len(ladder.games) == 1
