"""Tests for elo_explain.glicko against Glickman's papers and Lichess's own tests.

Sources (each number below names one of them):

[G1]  M. E. Glickman, "The Glicko system", glicko.net/glicko/glicko.pdf, worked example:
      player 1500 / RD 200 against 1400/30 (win), 1550/100 (loss), 1700/300 (loss).
      Printed: q = 0.0057565; g = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303;
      d² = 53670.85; r' = 1464; RD' = 151.4.  Choosing c: an RD of 50 that should take
      100 periods to return to 350 gives c = sqrt((350² - 50²)/100) ≈ 34.6.
[G2]  M. E. Glickman, "Example of the Glicko-2 system", glicko.net/glicko/glicko2.pdf, same
      player with volatility 0.06 and tau 0.5.  Printed: mu = 0, phi = 1.1513;
      mu_j = -0.5756, 0.2878, 1.1513; phi_j = 0.1727, 0.5756, 1.7269;
      g = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303; v = 1.7785; Delta = -0.4834;
      sigma' = 0.05999; phi* = 1.152862; phi' = 0.8722; mu' = -0.2069;
      r' = 1464.06; RD' = 151.52; volatility 0.05999.  A 95 % interval is the rating
      ± twice the RD: "1850 and RD 50 … from 1750 to 1950".
      (The printed figures were cross-checked against three independent re-implementations'
      tests that quote them: a Python, a JavaScript and a Scala one.)
[LILA] lichess-org/lila modules/rating/src/test/RatingCalculatorTest.scala (lila's own unit
      test of its Glicko-2, each game its own period, skipDeviationIncrease = true).
[SC]  lichess-org/scalachess rating GlickoCalculatorTest.scala (ColorAdvantage.zero
      version, tolerance 0.005), same calculator.
[LILA-G] lichess-org/lila modules/rating/src/main/Glicko.scala: minDeviation 45,
      maxDeviation 500, maxVolatility 0.1, defaultVolatility 0.09, provisionalDeviation 110,
      minRating 400, maxRatingDelta 700 (PerfExt.addOrReset), tau 0.75,
      ratingPeriodsPerDay 0.21436 "chosen so a typical player's RD goes from 60 -> 110 in
      1 year", display = intRating (rating.toInt) + "?" while provisional.

Why the papers' printed figures differ from full precision
----------------------------------------------------------
Both papers round g to 4 and E to 3 decimals and carry the rounded numbers forward.
- [G1] d² is printed 53670.85; in full precision it is 53685.74 (14.89 larger, d = 231.70
  instead of 231.67).  r' (1464.106) and RD' (151.399) agree with the printed 1464 and 151.4.
- [G2] v is printed 1.7785, full precision 1.77898 (+0.00047); Delta -0.4834, full
  -0.48393 (-0.00053).  sigma' is printed 0.05999, full precision 0.0599960 (which would round
  to 0.06000; +0.000006).  phi* is printed 1.152862 (computed from the rounded 1.1513 and
  0.05999), full 1.152855 (-0.000007).  phi' 0.8722 and mu' -0.2069 agree to the printed
  digits, but r' is printed 1464.06 because it is converted from the rounded mu' = -0.2069
  (173.7178 × -0.2069 + 1500 = 1464.0578); full precision gives 1464.0507 (-0.0093), which
  would print as 1464.05.  RD' 151.5165 agrees with the printed 151.52.
Each test below asserts the printed figure with a tolerance that covers exactly this.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from elo_explain import glicko
from elo_explain.glicko import (
    DEFAULT_C,
    LICHESS,
    confidence_interval,
    expected_score,
    glicko1_batch,
    glicko1_steps,
    glicko1_update,
    glicko2_batch,
    glicko2_steps,
    glicko2_update,
    grow_rd,
    is_provisional,
    lichess_cap,
    lichess_display,
    lichess_game,
    lichess_live_rd,
)
from plain import no_warnings

PAPER_GAMES = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]  # [G1], [G2]


# --------------------------------------------------------------------------- #
# An independent scalar Glicko-2, written from [G2] step by step with `math`,
# used only to cross-check the vectorised batch.
# --------------------------------------------------------------------------- #
def _glicko2_steps(r, rd, sigma, games, tau, elapsed, *, num, exp, ln, sqrt, pi):
    """[G2] steps 2-8 in the arithmetic given: ``num`` makes a number (``float`` or
    ``Decimal``), ``exp``/``ln``/``sqrt`` and ``pi`` are that arithmetic's."""
    scale = num("173.7178")
    mu, phi = (num(r) - 1500) / scale, num(rd) / scale
    sigma, tau = num(sigma), num(tau)
    if not games:
        return num(r), scale * sqrt(phi**2 + num(elapsed) * sigma**2), sigma
    inv_v = total = num(0)
    for rj, rdj, sj in games:
        gj = 1 / sqrt(1 + 3 * (num(rdj) / scale) ** 2 / pi**2)
        e = 1 / (1 + exp(-gj * (mu - (num(rj) - 1500) / scale)))
        inv_v += gj * gj * e * (1 - e)
        total += gj * (num(sj) - e)
    v = 1 / inv_v
    delta = v * total
    a = ln(sigma * sigma)

    def f(x):
        ex = exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    A = a
    if delta**2 > phi**2 + v:
        B = ln(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fa, fb = f(A), f(B)
    while abs(B - A) > num("0.000001"):
        C = A + (A - B) * fa / (fb - fa)
        fc = f(C)
        if fc * fb <= 0:
            A, fa = B, fb
        else:
            fa /= 2
        B, fb = C, fc
    sigma_new = exp(A / 2)
    phi_new = 1 / sqrt(1 / (phi**2 + num(elapsed) * sigma_new**2) + 1 / v)
    mu_new = mu + phi_new**2 * total
    return scale * mu_new + 1500, scale * phi_new, sigma_new


def reference_glicko2(r, rd, sigma, games, tau, elapsed=1.0):
    return _glicko2_steps(
        r,
        rd,
        sigma,
        games,
        tau,
        elapsed,
        num=float,
        exp=math.exp,
        ln=math.log,
        sqrt=math.sqrt,
        pi=math.pi,
    )


# --------------------------------------------------------------------------- #
# Glicko-1 [G1]
# --------------------------------------------------------------------------- #
class TestGlicko1Paper:
    def test_q_g_and_E(self):
        s = glicko1_steps(1500, 200, PAPER_GAMES)
        assert round(s["q"], 7) == 0.0057565  # [G1] q
        # [G1] g(RD_j) printed to 4 decimals, E to 3: full precision agrees at those digits
        np.testing.assert_allclose(s["g"], [0.9955, 0.9531, 0.7242], atol=0.00005)
        np.testing.assert_allclose(s["E"], [0.639, 0.432, 0.303], atol=0.0005)
        np.testing.assert_allclose(
            [g_ for g_ in map(glicko.g, [30, 100, 300])], [0.9955, 0.9531, 0.7242], atol=0.00005
        )  # [G1]
        assert expected_score(1500, 1550, 100) == pytest.approx(0.432, abs=0.0005)  # [G1]

    def test_d_squared_differs_from_print_because_of_rounding(self):
        s = glicko1_steps(1500, 200, PAPER_GAMES)
        # [G1] prints d² = 53670.85 (d = 231.67).  Full precision: 53685.74, 14.89 more,
        # because the paper squares and multiplies g and E rounded to 4 and 3 decimals.
        assert s["d2"] == pytest.approx(53670.85, abs=15.0)
        assert abs(s["d2"] - 53670.85) > 10  # the difference is real, not noise
        # Redoing the paper's arithmetic with its rounded figures gives its printed value:
        q = 0.0057565  # [G1]
        g_r, e_r = [0.9955, 0.9531, 0.7242], [0.639, 0.432, 0.303]  # [G1]
        rounded = 1 / (q**2 * sum(a * a * e * (1 - e) for a, e in zip(g_r, e_r)))
        assert rounded == pytest.approx(53670.85, abs=0.01)  # [G1] d²

    def test_new_rating_and_rd(self):
        r, rd = glicko1_update(1500, 200, PAPER_GAMES)
        assert round(r) == 1464  # [G1] r' ≈ 1464 (full precision 1464.106)
        assert round(rd, 1) == 151.4  # [G1] RD' ≈ 151.4 (full precision 151.399)

    def test_batch_with_mask_matches_single(self):
        games = np.array(PAPER_GAMES, dtype=float)
        opp = np.vstack([games[:, 0], [1400, np.nan, np.nan]])
        opp_rd = np.vstack([games[:, 1], [30, np.nan, np.nan]])
        score = np.vstack([games[:, 2], [1, np.nan, np.nan]])
        mask = ~np.isnan(opp)
        r, rd = glicko1_batch([1500, 1500], [200, 200], opp, opp_rd, score, mask)
        assert (r[0], rd[0]) == pytest.approx(glicko1_update(1500, 200, PAPER_GAMES))
        assert (r[1], rd[1]) == pytest.approx(glicko1_update(1500, 200, [(1400, 30, 1)]))

    def test_no_games_keeps_rating_and_rd(self):
        # [G1] step 1/2: ratings change only through games; RD grows at the next period
        assert glicko1_update(1623.5, 80, []) == (1623.5, 80.0)


class TestGrowRd:
    def test_paper_choice_of_c(self):
        # [G1] the notes on c (docs/sources.md#glicko L2): a typical RD of 50, two-month
        # rating periods, 5 years (30 periods) back to 350 -> c = sqrt((350² - 50²)/30) ≈ 63.2,
        # the package's default
        c = math.sqrt((350**2 - 50**2) / 30)
        assert round(c, 1) == 63.2 == DEFAULT_C  # [G1]
        assert grow_rd(50, periods=30, c=c) == pytest.approx(350.0)
        assert grow_rd(50, periods=29, c=c) < 350.0

    def test_wikipedias_choice_of_c(self):
        # Wikipedia's "Glicko rating system" (not the paper): RD 50 back to 350 after 100
        # periods -> c = sqrt((350² - 50²)/100) ≈ 34.6 (once wrongly credited to [G1])
        c = math.sqrt((350**2 - 50**2) / 100)
        assert round(c, 1) == 34.6
        assert grow_rd(50, periods=100, c=c) == pytest.approx(350.0)
        assert grow_rd(50, periods=99, c=c) < 350.0

    def test_formula_and_ceiling(self):
        # [G1] step 1(b): RD = min(sqrt(RD_old² + c² t), 350); default c = 63.2 (spec)
        assert grow_rd(200) == pytest.approx(math.sqrt(200**2 + 63.2**2))
        assert grow_rd(300, periods=10) == 350.0  # sqrt(300² + 10·63.2²) = 360.5 > 350
        assert grow_rd(120, periods=0) == 120.0
        # sqrt(340² + 2·60²) = 350.4 > 350
        np.testing.assert_allclose(
            grow_rd(np.array([50.0, 340.0]), periods=2, c=60), [math.sqrt(50**2 + 2 * 60**2), 350.0]
        )

    def test_validation(self):
        with pytest.raises(ValueError, match="periods must be >= 0"):
            grow_rd(50, periods=-1)
        with pytest.raises(ValueError, match="rd must be between 0 and 10000"):
            grow_rd(-5)


# --------------------------------------------------------------------------- #
# Glicko-2 [G2]
# --------------------------------------------------------------------------- #
class TestGlicko2Paper:
    def test_step2_scale(self):
        s = glicko2_steps(1500, 200, 0.06, PAPER_GAMES)
        assert s["mu"] == 0.0  # [G2]
        assert round(s["phi"], 4) == 1.1513  # [G2]
        np.testing.assert_allclose(s["opp_mu"], [-0.5756, 0.2878, 1.1513], atol=0.00005)  # [G2]
        np.testing.assert_allclose(s["opp_phi"], [0.1727, 0.5756, 1.7269], atol=0.00005)  # [G2]

    def test_step3_g_and_E(self):
        s = glicko2_steps(1500, 200, 0.06, PAPER_GAMES)
        np.testing.assert_allclose(s["g"], [0.9955, 0.9531, 0.7242], atol=0.00005)  # [G2]
        np.testing.assert_allclose(s["E"], [0.639, 0.432, 0.303], atol=0.0005)  # [G2]

    def test_step3_4_v_and_delta_differ_by_mid_way_rounding(self):
        s = glicko2_steps(1500, 200, 0.06, PAPER_GAMES)
        # [G2] v = 1.7785; full precision 1.77898 (+0.00047) because g and E were rounded.
        assert s["v"] == pytest.approx(1.7785, abs=0.0006)
        assert round(s["v"], 4) != 1.7785
        # [G2] Delta = -0.4834; full precision -0.48393 (-0.00053), same reason.
        assert s["delta"] == pytest.approx(-0.4834, abs=0.0006)
        # With the paper's rounded g and E, its arithmetic reproduces its printed figures:
        g_r, e_r = [0.9955, 0.9531, 0.7242], [0.639, 0.432, 0.303]  # [G2]
        v_r = 1 / sum(a * a * e * (1 - e) for a, e in zip(g_r, e_r))
        d_r = v_r * sum(a * (sc - e) for a, sc, e in zip(g_r, [1, 0, 0], e_r))
        assert round(v_r, 4) == 1.7785  # [G2] v
        assert round(d_r, 4) == -0.4834  # [G2] Delta

    def test_step5_to_7(self):
        s = glicko2_steps(1500, 200, 0.06, PAPER_GAMES)
        # [G2] sigma' = 0.05999; full precision 0.0599960 (rounds to 0.06000): +0.000006
        assert s["sigma_new"] == pytest.approx(0.05999, abs=0.00001)
        # [G2] phi* = 1.152862, from the rounded phi 1.1513 and sigma' 0.05999;
        # full precision 1.152855 (-0.000007)
        assert s["phi_star"] == pytest.approx(1.152862, abs=0.00001)
        assert math.sqrt(1.1513**2 + 0.05999**2) == pytest.approx(1.152862, abs=5e-7)
        assert round(s["phi_new"], 4) == 0.8722  # [G2] phi'
        assert round(s["mu_new"], 4) == -0.2069  # [G2] mu'

    def test_final_values(self):
        r, rd, vol = glicko2_update(1500, 200, 0.06, PAPER_GAMES, tau=0.5)
        # [G2] r' = 1464.06, converted from the rounded mu' = -0.2069; full precision
        # 1464.0507 (-0.0093 from the print).
        assert r == pytest.approx(1464.06, abs=0.01)
        assert 173.7178 * -0.2069 + 1500 == pytest.approx(1464.06, abs=0.005)
        assert round(rd, 2) == 151.52  # [G2] RD'
        assert vol == pytest.approx(0.05999, abs=0.00001)  # [G2] sigma' (see step 5)

    def test_no_games_only_grows_rd(self):
        # [G2] step 6 for a player who does not compete: phi' = sqrt(phi² + sigma²),
        # rating and volatility unchanged.
        r, rd, vol = glicko2_update(1500, 200, 0.06, [])
        assert r == 1500.0 and vol == 0.06
        assert rd == pytest.approx(173.7178 * math.sqrt((200 / 173.7178) ** 2 + 0.06**2))
        # a batch row without games does the same
        rb, rdb, vb = glicko2_batch(
            [1500, 1700],
            [200, 80],
            [0.06, 0.05],
            [[1400], [np.nan]],
            [[30], [np.nan]],
            [[1], [np.nan]],
            mask=[[True], [False]],
        )
        assert (rb[1], vb[1]) == (1700.0, 0.05)
        assert rdb[1] == pytest.approx(173.7178 * math.sqrt((80 / 173.7178) ** 2 + 0.05**2))

    def test_matches_independent_reference_on_paper_example(self):
        assert glicko2_update(1500, 200, 0.06, PAPER_GAMES) == pytest.approx(
            reference_glicko2(1500, 200, 0.06, PAPER_GAMES, 0.5), rel=1e-12
        )


game = st.tuples(st.floats(800, 2600), st.floats(30, 350), st.sampled_from([0.0, 0.5, 1.0]))
player = st.tuples(st.floats(800, 2600), st.floats(30, 350), st.floats(0.03, 0.12))


@settings(max_examples=60, deadline=None)
@given(
    players=st.lists(st.tuples(player, st.lists(game, max_size=8)), min_size=1, max_size=6),
    tau=st.sampled_from([0.3, 0.5, 0.75, 1.2]),
)
def test_batch_agrees_with_update_and_reference(players, tau):
    """The vectorised batch (players with different game counts, padded with NaN under a
    mask) must agree with glicko2_update and with the independent scalar reference."""
    n, m = len(players), max(1, max(len(gs) for _, gs in players))
    opp = np.full((n, m), np.nan)
    opp_rd = np.full((n, m), np.nan)
    score = np.full((n, m), np.nan)
    for i, (_, gs) in enumerate(players):
        for j, (a, b, c) in enumerate(gs):
            opp[i, j], opp_rd[i, j], score[i, j] = a, b, c
    mask = ~np.isnan(opp)
    r0 = [p[0] for p, _ in players]
    rd0 = [p[1] for p, _ in players]
    v0 = [p[2] for p, _ in players]
    r, rd, vol = glicko2_batch(r0, rd0, v0, opp, opp_rd, score, mask, tau=tau)
    for i, (p, gs) in enumerate(players):
        single = glicko2_update(*p, gs, tau=tau)
        ref = reference_glicko2(*p, gs, tau)
        assert (r[i], rd[i], vol[i]) == pytest.approx(single, rel=1e-12, abs=1e-9)
        assert (r[i], rd[i], vol[i]) == pytest.approx(ref, rel=1e-9, abs=1e-7)


def test_batch_without_any_game_column_only_grows_rd():
    # [G2] step 6 for players who do not compete, here a batch with no game at all
    r, rd, vol = no_warnings(
        glicko2_batch,
        [1500, 1700],
        [200, 80],
        [0.06, 0.05],
        np.zeros((2, 0)),
        np.zeros((2, 0)),
        np.zeros((2, 0)),
    )
    assert list(r) == [1500.0, 1700.0] and list(vol) == [0.06, 0.05]
    np.testing.assert_allclose(
        rd,
        [
            173.7178 * math.sqrt((200 / 173.7178) ** 2 + 0.06**2),
            173.7178 * math.sqrt((80 / 173.7178) ** 2 + 0.05**2),
        ],
    )


def test_batch_row_equals_update_to_the_last_bit():
    """glicko2_batch runs the steps of glicko2_update on arrays, with the same elementary
    functions and the same order of the sums: a row and the same player alone agree exactly
    (so step 5 takes the same path), whatever the other rows and the padding."""
    rng = np.random.default_rng(10)
    n, m = 300, 9
    r0, rd0, v0 = rng.uniform(800, 2600, n), rng.uniform(30, 350, n), rng.uniform(0.03, 0.12, n)
    opp, opp_rd = rng.uniform(800, 2600, (n, m)), rng.uniform(30, 350, (n, m))
    score = rng.choice([0.0, 0.5, 1.0], (n, m))
    mask = rng.random((n, m)) < 0.7
    for tau in (0.3, 1.2):
        r, rd, vol = glicko2_batch(r0, rd0, v0, opp, opp_rd, score, mask, tau=tau)
        for i in range(n):
            games = [(opp[i, j], opp_rd[i, j], score[i, j]) for j in range(m) if mask[i, j]]
            assert (r[i], rd[i], vol[i]) == glicko2_update(r0[i], rd0[i], v0[i], games, tau=tau)


def test_batch_large_population_matches_reference():
    rng = np.random.default_rng(4)
    n, m = 500, 12
    r0 = rng.normal(1500, 300, n)
    rd0 = rng.uniform(40, 350, n)
    v0 = rng.uniform(0.04, 0.1, n)
    opp = rng.normal(1500, 300, (n, m))
    opp_rd = rng.uniform(40, 350, (n, m))
    score = rng.choice([0.0, 0.5, 1.0], (n, m))
    mask = rng.random((n, m)) < 0.6
    r, rd, vol = glicko2_batch(r0, rd0, v0, opp, opp_rd, score, mask, tau=0.5)
    for i in range(0, n, 25):
        games = [(opp[i, j], opp_rd[i, j], score[i, j]) for j in range(m) if mask[i, j]]
        ref = reference_glicko2(r0[i], rd0[i], v0[i], games, 0.5)
        assert (r[i], rd[i], vol[i]) == pytest.approx(ref, rel=1e-9, abs=1e-7)


class TestGlicko2Validation:
    def test_bad_values_name_the_parameter(self):
        with pytest.raises(ValueError, match="rd must be > 0"):
            glicko2_update(1500, -5, 0.06, PAPER_GAMES)
        with pytest.raises(ValueError, match="volatility must be between 1e-06 and 1"):
            glicko2_update(1500, 200, 0, PAPER_GAMES)
        with pytest.raises(ValueError, match="tau must be between 0.01 and 10"):
            glicko2_update(1500, 200, 0.06, PAPER_GAMES, tau=0)
        with pytest.raises(ValueError, match=r"score must be 1 \(win\), 0.5 \(draw\) or 0"):
            glicko2_update(1500, 200, 0.06, [(1400, 30, 0.7)])
        with pytest.raises(ValueError, match="rating must be a finite number"):
            glicko2_update(float("nan"), 200, 0.06, PAPER_GAMES)
        with pytest.raises(ValueError, match="opp_rd must be > 0"):
            glicko2_update(1500, 200, 0.06, [(1400, 0, 1)])
        with pytest.raises(ValueError, match="results must be a sequence of"):
            glicko2_update(1500, 200, 0.06, [(1400, 30)])
        with pytest.raises(ValueError, match="elapsed_periods must be between 0"):
            glicko2_update(1500, 200, 0.06, PAPER_GAMES, elapsed_periods=-1)

    def test_bad_kinds_raise_type_error(self):
        with pytest.raises(TypeError, match="rating"):
            glicko2_update("1500", 200, 0.06, PAPER_GAMES)
        with pytest.raises(TypeError, match="results"):
            glicko2_update(1500, 200, 0.06, None)
        with pytest.raises(TypeError, match="mask must be an array of booleans"):
            glicko2_batch([1500], [200], [0.06], [[1400]], [[30]], [[1]], mask=[[1]])

    def test_bad_shapes(self):
        with pytest.raises(ValueError, match="same shape"):
            glicko2_batch([1500], [200], [0.06], [[1400, 1500]], [[30, 30, 30]], [[1, 0]])
        with pytest.raises(ValueError, match="2-dimensional"):
            glicko2_batch([1500], [200], [0.06], [1400], [30], [1])
        with pytest.raises(
            ValueError, match=r"rating must be a number or an array of shape \(2,\)"
        ):
            glicko2_batch(
                [1500, 1500, 1500], [200], [0.06], [[1400], [1400]], [[30], [30]], [[1], [0]]
            )

    def test_masked_entries_are_not_validated(self):
        r, rd, vol = glicko2_batch(
            [1500], [200], [0.06], [[1400, np.nan]], [[30, -1]], [[1, 0.7]], mask=[[True, False]]
        )
        assert (r[0], rd[0], vol[0]) == pytest.approx(
            glicko2_update(1500, 200, 0.06, [(1400, 30, 1)])
        )


def test_confidence_interval():
    # [G2]: "rating is 1850 and the RD is 50, the interval would go from 1750 to 1950"
    assert confidence_interval(1850, 50) == (1750.0, 1950.0)
    low, high = confidence_interval(1850, 50, z=1.96)  # exact normal 95 % point
    assert (low, high) == pytest.approx((1850 - 98.0, 1850 + 98.0))
    lo, hi = confidence_interval(np.array([1500.0, 2000.0]), np.array([350.0, 45.0]))
    np.testing.assert_allclose(lo, [800.0, 1910.0])
    np.testing.assert_allclose(hi, [2200.0, 2090.0])
    with pytest.raises(ValueError, match="z must be between 0"):
        confidence_interval(1500, 100, z=-1)


# --------------------------------------------------------------------------- #
# Lichess [LILA], [SC], [LILA-G]
# --------------------------------------------------------------------------- #
class TestLichessPreset:
    def test_settings(self):
        # [LILA-G]: default Glicko(1500, maxDeviation 500, defaultVolatility 0.09), tau 0.75
        assert LICHESS.default == (1500.0, 500.0, 0.09)
        assert LICHESS.tau == 0.75
        assert (LICHESS.min_rd, LICHESS.max_rd, LICHESS.max_volatility) == (45, 500, 0.1)
        assert (LICHESS.provisional_rd, LICHESS.min_rating, LICHESS.max_rating_delta) == (
            110,
            400,
            700,
        )

    def test_lila_unit_test_new_players(self):
        (w, wrd, wv), (b, brd, bv) = lichess_game(LICHESS.default, LICHESS.default, 1)
        # [LILA] "default deviation: white wins": 1741 ± 1, 1258 ± 1, RD 396 ± 1,
        # volatility 0.0899983 ± 1e-8
        assert w == pytest.approx(1741, abs=1) and b == pytest.approx(1258, abs=1)
        assert wrd == pytest.approx(396, abs=1) and brd == pytest.approx(396, abs=1)
        assert wv == pytest.approx(0.0899983, abs=1e-8)
        (w, wrd, wv), (b, _, bv) = lichess_game(LICHESS.default, LICHESS.default, 0.5)
        # [LILA] "default deviation: draw": 1500 ± 1 each, volatility 0.0899954 ± 1e-7
        assert w == pytest.approx(1500, abs=1) and b == pytest.approx(1500, abs=1)
        assert wv == pytest.approx(0.0899954, abs=1e-7)
        (w, wrd, wv), (b, _, _) = lichess_game((1500, 80, 0.06), (1500, 80, 0.06), 1)
        # [LILA] "low deviation: white wins": 1517 ± 1, 1482 ± 1, RD 78 ± 1, vol 0.06 ± 1e-5
        assert w == pytest.approx(1517, abs=1) and b == pytest.approx(1482, abs=1)
        assert wrd == pytest.approx(78, abs=1) and wv == pytest.approx(0.06, abs=1e-5)

    @pytest.mark.parametrize(
        "white, black, score, expected_white, expected_black, vol_tol",
        [
            # [SC] "default deviation" (1500 / 350 / 0.06 each); volatility tolerance 1e-7
            (
                (1500, 350, 0.06),
                (1500, 350, 0.06),
                1,
                (1662.21, 290.23, 0.0599993),
                (1337.79, 290.23, 0.0599993),
                1e-7,
            ),
            (
                (1500, 350, 0.06),
                (1500, 350, 0.06),
                0.5,
                (1500.0, 290.23, 0.0599977),
                (1500.0, 290.23, 0.0599977),
                1e-7,
            ),
            # [SC] "mixed ratings and deviations"; volatility tolerance 1e-5
            (
                (1400, 79, 0.06),
                (1550, 110, 0.065),
                1,
                (1422.63, 77.50, 0.06),
                (1506.32, 105.87, 0.065),
                1e-5,
            ),
            (
                (1400, 79, 0.06),
                (1550, 110, 0.065),
                0,
                (1389.99, 77.50, 0.06),
                (1568.90, 105.87, 0.065),
                1e-5,
            ),
            (
                (1400, 79, 0.06),
                (1550, 110, 0.065),
                0.5,
                (1406.31, 77.50, 0.06),
                (1537.61, 105.87, 0.065),
                1e-5,
            ),
            # [SC] "more mixed ratings and deviations"; volatility tolerance 1e-6
            (
                (1200, 60, 0.053),
                (1850, 200, 0.062),
                1,
                (1216.73, 59.90, 0.053013),
                (1635.99, 196.99, 0.062028),
                1e-6,
            ),
            (
                (1200, 60, 0.053),
                (1850, 200, 0.062),
                0,
                (1199.29, 59.90, 0.052999),
                (1855.42, 196.99, 0.061999),
                1e-6,
            ),
            (
                (1200, 60, 0.053),
                (1850, 200, 0.062),
                0.5,
                (1208.01, 59.90056, 0.053002),
                (1745.71, 196.98729, 0.062006),
                1e-6,
            ),
        ],
    )
    def test_scalachess_reference_values(
        self, white, black, score, expected_white, expected_black, vol_tol
    ):
        new_white, new_black = lichess_game(white, black, score)
        for got, want in ((new_white, expected_white), (new_black, expected_black)):
            assert got[0] == pytest.approx(want[0], abs=0.005)  # [SC] rating ± 0.005
            assert got[1] == pytest.approx(want[1], abs=0.005)  # [SC] RD ± 0.005
            assert got[2] == pytest.approx(want[2], abs=vol_tol)

    def test_each_game_its_own_period_without_rd_growth(self):
        # [LILA-G] / PerfsUpdater: skipDeviationIncrease = true, i.e. phi* = phi.
        # Lichess game == paper Glicko-2 with one game, tau 0.75 and 0 elapsed periods.
        (r, rd, vol), _ = lichess_game((1600, 120, 0.07), (1500, 90, 0.06), 0)
        assert (r, rd, vol) == pytest.approx(
            reference_glicko2(1600, 120, 0.07, [(1500, 90, 0)], 0.75, elapsed=0.0), rel=1e-12
        )
        # with the paper's step-6 growth the RD would be larger
        assert rd < reference_glicko2(1600, 120, 0.07, [(1500, 90, 0)], 0.75)[1]

    def test_rd_floor_45(self):
        # [LILA-G] minDeviation = 45: the game would take RD below 45 ...
        raw = reference_glicko2(1500, 45, 0.06, [(1500, 45, 1)], 0.75, elapsed=0.0)
        assert raw[1] < 45
        # ... and Lichess keeps it at 45
        (_, rd, _), (_, rd_o, _) = lichess_game((1500, 45, 0.06), (1500, 45, 0.06), 1)
        assert rd == 45.0 and rd_o == 45.0
        # a stored RD below 45 (or above 500) is capped before the game (toGlickoPlayer)
        assert lichess_game((1500, 30, 0.06), (1600, 80, 0.06), 1) == lichess_game(
            (1500, 45, 0.06), (1600, 80, 0.06), 1
        )
        assert lichess_game((1500, 700, 0.09), (1600, 80, 0.06), 1) == lichess_game(
            (1500, 500, 0.09), (1600, 80, 0.06), 1
        )

    def test_volatility_cap_01(self):
        # [LILA-G] maxVolatility = 0.1: a big upset would raise it above 0.1 ...
        raw = reference_glicko2(2000, 45, 0.1, [(1000, 45, 0)], 0.75, elapsed=0.0)
        assert raw[2] > 0.1
        (_, _, vol), (_, _, vol_o) = lichess_game((2000, 45, 0.1), (1000, 45, 0.1), 0)
        assert vol == 0.1 and vol_o == 0.1
        # a stored volatility above 0.1 counts as 0.1
        assert lichess_game((1500, 200, 0.3), (1500, 200, 0.06), 1) == lichess_game(
            (1500, 200, 0.1), (1500, 200, 0.06), 1
        )

    def test_rating_change_at_most_700_and_floor_400(self):
        # [LILA-G] maxRatingDelta = 700: a new player beating a 3000 gains > 700 unclamped
        raw = reference_glicko2(1500, 500, 0.09, [(3000, 45, 1)], 0.75, elapsed=0.0)
        assert raw[0] - 1500 > 700
        (r, _, _), _ = lichess_game((1500, 500, 0.09), (3000, 45, 0.09), 1)
        assert r == 2200.0
        # [LILA-G] minRating = 400
        (r, _, _), _ = lichess_game((450, 500, 0.09), (450, 500, 0.09), 0)
        assert r == 400.0

    def test_vectorised_games(self):
        p = (
            np.array([1500.0, 1400.0, 1200.0]),
            np.array([350.0, 79.0, 60.0]),
            np.array([0.06, 0.06, 0.053]),
        )
        o = (
            np.array([1500.0, 1550.0, 1850.0]),
            np.array([350.0, 110.0, 200.0]),
            np.array([0.06, 0.065, 0.062]),
        )
        s = np.array([1.0, 0.0, 0.5])
        new_p, new_o = lichess_game(p, o, s)
        for i in range(3):
            one_p, one_o = lichess_game(tuple(x[i] for x in p), tuple(x[i] for x in o), s[i])
            assert tuple(x[i] for x in new_p) == pytest.approx(one_p, rel=1e-12)
            assert tuple(x[i] for x in new_o) == pytest.approx(one_o, rel=1e-12)

    def test_validation(self):
        with pytest.raises(ValueError, match="player rd must be > 0"):
            lichess_game((1500, 0, 0.09), LICHESS.default, 1)
        with pytest.raises(ValueError, match="opponent must be a"):
            lichess_game(LICHESS.default, (1500, 500), 1)
        with pytest.raises(ValueError, match="score must be 1"):
            lichess_game(LICHESS.default, LICHESS.default, 2)
        with pytest.raises(TypeError, match="player must be a"):
            lichess_game(1500, LICHESS.default, 1)


class TestLichessDisplay:
    def test_provisional_threshold_110(self):
        # [LILA-G] provisional = deviation >= provisionalDeviation (110)
        assert is_provisional(110) is True
        assert is_provisional(109.99) is False
        assert is_provisional(500) is True
        np.testing.assert_array_equal(
            is_provisional(np.array([45.0, 110.0, 111.0])), [False, True, True]
        )

    def test_display(self):
        # [LILA-G] display = s"$intRating${"?" if provisional}", intRating = rating.toInt
        assert lichess_display(1500, 500) == "1500?"
        assert lichess_display(1876.9, 60) == "1876"  # cut, not rounded
        assert lichess_display(1876.9, 110) == "1876?"
        assert lichess_display([1500.0, 2012.5], [109.0, 110.0]) == ["1500", "2012?"]

    def test_cap(self):
        # [LILA-G] Glicko.cap
        assert lichess_cap(350, 30, 0.2) == (400.0, 45.0, 0.1)
        assert lichess_cap(1800, 600, 0.05) == (1800.0, 500.0, 0.05)

    def test_live_rd(self):
        # [LILA-G] ratingPeriodsPerDay 0.21436, "a typical player's RD goes from 60 -> 110
        # in 1 year" (holds for volatility 0.06)
        assert lichess_live_rd(60, 0.06, 365) == pytest.approx(110, abs=0.05)
        assert lichess_live_rd(60, 0.06, 0) == pytest.approx(60.0)
        assert lichess_live_rd(400, 0.09, 10_000) == 500.0  # maxDeviation


# --------------------------------------------------------------------------- #
# Bad input, input ranges and extreme inputs within them.
# The ranges are the module's documented ones (its docstring); the values at
# extreme inputs are checked against [G1] and [G2] evaluated in 100-digit decimal
# arithmetic, written here independently of the module.
# --------------------------------------------------------------------------- #
PI_100 = Decimal(
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628"
    "6208998628034825342117068"
)


def decimal_glicko1(r, rd, games):
    """[G1] steps 2 in 100-digit arithmetic: returns (r', RD')."""
    with localcontext() as ctx:
        ctx.prec = 100
        q = Decimal(10).ln() / 400
        r, rd = Decimal(r), Decimal(rd)
        info = total = Decimal(0)
        for rj, rdj, sj in games:
            gj = 1 / (1 + 3 * q * q * Decimal(rdj) ** 2 / PI_100**2).sqrt()
            e = 1 / (1 + Decimal(10) ** (-gj * (r - Decimal(rj)) / 400))
            info += q * q * gj * gj * e * (1 - e)
            total += gj * (Decimal(sj) - e)
        precision = 1 / rd**2 + info
        return float(r + q / precision * total), float((1 / precision).sqrt())


def decimal_glicko2(r, rd, sigma, games, tau, elapsed=1):
    """[G2] steps 2-8 in 100-digit arithmetic (Illinois with ε = 0.000001)."""
    with localcontext() as ctx:
        ctx.prec = 100
        result = _glicko2_steps(
            r,
            rd,
            sigma,
            games,
            tau,
            elapsed,
            num=Decimal,
            exp=Decimal.exp,
            ln=Decimal.ln,
            sqrt=Decimal.sqrt,
            pi=PI_100,
        )
        return tuple(float(x) for x in result)


def test_decimal_references_reproduce_the_papers():
    """The 100-digit references give the papers' printed results ([G1], [G2])."""
    r, rd = decimal_glicko1(1500, 200, PAPER_GAMES)
    assert round(r) == 1464 and round(rd, 1) == 151.4  # [G1]
    r, rd, vol = decimal_glicko2(1500, 200, 0.06, PAPER_GAMES, 0.5)
    assert round(rd, 2) == 151.52 and vol == pytest.approx(0.05999, abs=0.00001)  # [G2]
    assert r == pytest.approx(1464.06, abs=0.01)  # [G2] (see the module docstring)


class TestExtremeInputsWithinRange:
    def test_expected_score_tends_to_0_and_1(self):
        # [G1] E = 1 / (1 + 10^(-g (r - r_j) / 400)) with g = 1 (RD 0): 10^(-50) and 10^50
        assert no_warnings(expected_score, 10_000, -10_000) == 1.0
        assert no_warnings(expected_score, -10_000, 10_000) == pytest.approx(1e-50, rel=1e-12)

    @pytest.mark.parametrize(
        "rating, rd, games",
        [
            (8246.0, 200, [(1400, 30, 1), (1550, 100, 0)]),  # E rounds to 1 in floats
            (10_000, 30, [(-10_000, 0.001, 1)]),  # E (1 - E) = 1e-50
            (-10_000, 350, [(10_000, 0.001, 1), (9_000, 10_000, 0.5)]),
            (1500, 10_000, PAPER_GAMES),
        ],
    )
    def test_glicko1_against_decimal_reference(self, rating, rd, games):
        r, new_rd = no_warnings(glicko1_update, rating, rd, games)
        ref_r, ref_rd = decimal_glicko1(rating, rd, games)  # [G1] in 100 digits
        assert r == pytest.approx(ref_r, rel=1e-12)
        assert new_rd == pytest.approx(ref_rd, rel=1e-12)
        s = no_warnings(glicko1_steps, rating, rd, games)
        assert math.isfinite(s["d2"]) and math.isfinite(s["d"])

    @pytest.mark.parametrize(
        "rating, rd, sigma, games, tau",
        [
            (8246.0, 200, 0.06, [(1400, 30, 1), (1550, 100, 0)], 0.5),  # was a division by 0
            (1500, 200, 0.06, [(10_000, 30, 1)], 0.5),  # an upset by 8,500
            (-10_000, 350, 0.06, [(10_000, 30, 1)], 1.2),  # v ~ 1e50, σ' explodes
            (10_000, 10_000, 1.0, [(-10_000, 0.001, 0)], 10.0),
            (1500, 0.001, 0.000001, PAPER_GAMES, 0.01),
        ],
    )
    def test_glicko2_against_decimal_reference(self, rating, rd, sigma, games, tau):
        got = no_warnings(glicko2_update, rating, rd, sigma, games, tau=tau)
        ref = decimal_glicko2(rating, rd, sigma, games, tau)  # [G2] in 100 digits
        assert got == pytest.approx(ref, rel=1e-8)
        s = no_warnings(glicko2_steps, rating, rd, sigma, games, tau=tau)
        assert all(math.isfinite(s[k]) for k in ("v", "delta", "sigma_new", "phi_new"))

    def test_tiny_rd_is_the_limit(self):
        # [G1] RD' = 1 / sqrt(1/RD² + 1/d²) -> RD and r' - r = q RD'² Σ g (s - E) -> 0 as
        # RD -> 0 (1/RD² itself is beyond the float range here)
        r, rd = no_warnings(glicko1_update, 1500, 1e-200, PAPER_GAMES)
        assert r == 1500.0 and rd == pytest.approx(1e-200, rel=1e-12)

    def test_huge_periods_stop_at_max_rd(self):
        # [G1] step 1(b): min(sqrt(RD² + c² t), 350) = 350 however large t is
        assert no_warnings(grow_rd, 50, periods=1e308, c=10_000) == 350.0
        # [LILA-G] liveDeviation capped at maxDeviation 500
        assert no_warnings(lichess_live_rd, 60, 1.0, 1e308) == 500.0


corner = st.sampled_from
ratings_in_range = st.floats(-10_000, 10_000) | corner([-10_000.0, 10_000.0])
rds_in_range = st.floats(0.001, 10_000) | corner([0.001, 10_000.0])


@settings(max_examples=150, deadline=None)
@given(
    rating=ratings_in_range,
    rd=rds_in_range,
    sigma=st.floats(0.000001, 1) | corner([0.000001, 1.0]),
    games=st.lists(
        st.tuples(ratings_in_range, rds_in_range, corner([0.0, 0.5, 1.0])), min_size=1, max_size=5
    ),
    tau=st.floats(0.01, 10) | corner([0.01, 10.0]),
    epsilon=corner([1e-12, 1e-6, 0.01]),
    elapsed=corner([0.0, 1.0, 1e6]),
)
def test_every_input_within_the_ranges_converges_to_finite_values(
    rating, rd, sigma, games, tau, epsilon, elapsed
):
    """Module docstring: within the documented ranges the step-5 iteration converges (in
    at most about 200 steps) and every result is finite, with no numpy warning."""
    s = no_warnings(
        glicko2_steps, rating, rd, sigma, games, tau=tau, epsilon=epsilon, elapsed_periods=elapsed
    )
    assert s["iterations"] <= 200
    assert all(
        math.isfinite(s[k])
        for k in (
            "v",
            "delta",
            "sigma_new",
            "phi_star",
            "phi_new",
            "mu_new",
            "rating",
            "rd",
            "volatility",
        )
    )
    r, new_rd = no_warnings(glicko1_update, rating, rd, games)
    assert math.isfinite(r) and math.isfinite(new_rd)


RATINGS = "between -10000 and 10000"  # the module's documented ranges
RDS_0 = "between 0 and 10000"
RDS = "> 0 and <= 10000"


def _g2(rating=1500, rd=200, volatility=0.06, results=PAPER_GAMES, **kwargs):
    return glicko2_update(rating, rd, volatility, results, **kwargs)


class TestRanges:
    """Values outside the documented ranges (module docstring) name the parameter."""

    @pytest.mark.parametrize(
        "call, message",
        [
            (lambda: expected_score(-122_460.0, 1500), f"rating must be {RATINGS}"),
            (lambda: expected_score(1500, 1500, opponent_rd=1e307), f"opponent_rd must be {RDS_0}"),
            (lambda: glicko.g([30, 7e307]), f"rd must be {RDS_0}"),
            (lambda: grow_rd(1e181), f"rd must be {RDS_0}"),
            (lambda: grow_rd(50, c=1e200), f"c must be {RDS_0}"),
            (lambda: grow_rd(50, max_rd=0), f"max_rd must be {RDS}"),
            (lambda: glicko1_update(8.9e15, 200, PAPER_GAMES), f"rating must be {RATINGS}"),
            (lambda: glicko1_steps(1500, 0, PAPER_GAMES), f"rd must be {RDS}"),
            (
                lambda: glicko1_batch([1500], [200], [[1e16]], [[30]], [[1]]),
                f"opp_rating must be {RATINGS}",
            ),
            (lambda: _g2(rd=2e4), f"rd must be {RDS}"),
            (lambda: _g2(volatility=1e-300), "volatility must be between 1e-06 and 1"),
            (lambda: _g2(volatility=2.0), "volatility must be between 1e-06 and 1"),
            (lambda: _g2(tau=1e-45), "tau must be between 0.01 and 10"),
            (lambda: _g2(tau=3e38), "tau must be between 0.01 and 10"),
            (lambda: _g2(epsilon=1e-300), "epsilon must be between 1e-12 and 0.01"),
            (lambda: _g2(elapsed_periods=1e307), r"elapsed_periods must be between 0 and 1e\+06"),
            (lambda: _g2(results=[(1400, 1e53, 1)]), f"opp_rd must be {RDS}"),
            (
                lambda: glicko2_batch(
                    [1500, 1500],
                    [200, 200],
                    [0.06, 1e-38],
                    [[1400], [1400]],
                    [[30], [30]],
                    [[1], [0]],
                ),
                "volatility must be between",
            ),
            (
                lambda: glicko2_batch(
                    [1500], [200], [0.06], [[1400, 1e16]], [[30, 30]], [[1, 0]], mask=[[True, True]]
                ),
                f"opp_rating must be {RATINGS}",
            ),
            (lambda: glicko2_steps(1500, 200, 0.06, []), "results must contain at least one game"),
            (lambda: confidence_interval(1500, 50, z=1e307), "z must be between 0 and 10"),
            (lambda: lichess_game((1500, 0, 0.09), LICHESS.default, 1), f"player rd must be {RDS}"),
            (
                lambda: lichess_game(LICHESS.default, (1e283, 300, 0.09), 1),
                f"opponent rating must be {RATINGS}",
            ),
            (
                lambda: lichess_game(LICHESS.default, (1500, 300, 1e-300), 1),
                "opponent volatility must be between",
            ),
            (lambda: lichess_live_rd(5e307, 0.06, 10), f"rd must be {RDS}"),
            (lambda: lichess_display(9.2e18, 60), f"rating must be {RATINGS}"),
            (lambda: is_provisional(-1), f"rd must be {RDS_0}"),
        ],
    )
    def test_out_of_range(self, call, message):
        with pytest.raises(ValueError, match=message):
            call()

    @pytest.mark.parametrize(
        "fn, args",
        [
            (lichess_cap, (1500, 100, 0.06)),
            (lichess_live_rd, (100, 0.06, 10)),
            (is_provisional, (100,)),
            (lichess_display, (1500, 100)),
        ],
    )
    @pytest.mark.parametrize("config", ["abc", 3, None, {"tau": 0.75}, []])
    def test_config_must_be_a_lichess_config(self, fn, args, config):
        with pytest.raises(TypeError, match="config must be a LichessConfig"):
            fn(*args, config=config)
        with pytest.raises(TypeError, match="config must be a LichessConfig"):
            lichess_game(LICHESS.default, LICHESS.default, 1, config=config)

    @pytest.mark.parametrize(
        "field, value, error, message",
        [
            ("tau", float("nan"), ValueError, "tau must be a finite number"),
            ("tau", 0, ValueError, "tau must be between 0.01 and 10"),
            ("tau", "0.75", TypeError, "tau must be a number"),
            ("rating", "abc", TypeError, "rating must be a number"),
            ("rating", float("inf"), ValueError, "rating must be a finite number"),
            ("rd", 0, ValueError, "rd must be > 0 and <= 10000"),
            ("rd", None, TypeError, "rd must be a number"),
            ("volatility", True, TypeError, "volatility must be a number, not a boolean"),
            ("volatility", 0, ValueError, "volatility must be between 1e-06 and 1"),
            ("min_rd", -45, ValueError, "min_rd must be > 0"),
            ("max_rd", 1e9, ValueError, "max_rd must be > 0 and <= 10000"),
            ("max_volatility", 0, ValueError, "max_volatility must be between"),
            ("min_rating", float("-inf"), ValueError, "min_rating must be a finite number"),
            ("max_rating_delta", -700, ValueError, "max_rating_delta must be between 0 and 20000"),
            ("provisional_rd", [110], TypeError, "provisional_rd must be a single number"),
            ("rating_periods_per_day", -1, ValueError, "rating_periods_per_day must be between 0"),
            ("min_rd", 600, ValueError, "min_rd must be <= max_rd"),
        ],
    )
    def test_lichess_config_fields(self, field, value, error, message):
        with pytest.raises(error, match=message):
            glicko.LichessConfig(**{field: value})

    def test_custom_config_is_used(self):
        # a valid configuration is stored as floats and drives the game: with tau 0.5 a
        # Lichess game is [G2] with one game, tau 0.5 and no RD growth
        cfg = glicko.LichessConfig(tau=0.5, rating=1600, rd=300)
        assert cfg.default == (1600.0, 300.0, 0.09) and isinstance(cfg.rating, float)
        (r, rd, vol), _ = lichess_game(cfg.default, (1500, 90, 0.06), 1, config=cfg)
        assert (r, rd, vol) == pytest.approx(
            reference_glicko2(1600, 300, 0.09, [(1500, 90, 1)], 0.5, elapsed=0.0), rel=1e-12
        )
