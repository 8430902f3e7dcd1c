"""Glicko-1, Glicko-2 and the Lichess flavour of Glicko-2.

Mark Glickman's systems give every player, besides a rating, a *rating
deviation* RD: the standard deviation of what the system believes the player's
strength to be.  A new or returning player has a large RD and moves a lot; a
player who plays often has a small RD and moves little.  Games are grouped into
*rating periods* that count as played at the same time.

Glicko-1 (Glickman, "The Glicko system", glicko.net)
    ``q = ln 10 / 400``, ``g(RD) = 1 / sqrt(1 + 3 q² RD² / π²)``,
    ``E = 1 / (1 + 10^(-g(RD_j) (r - r_j) / 400))``,
    ``d² = 1 / (q² Σ g(RD_j)² E (1 - E))``,
    ``r' = r + q / (1/RD² + 1/d²) · Σ g(RD_j) (s_j - E)``,
    ``RD' = sqrt(1 / (1/RD² + 1/d²))``.
    Between periods RD grows: ``RD = min(sqrt(RD_old² + c² t), 350)``
    (:func:`grow_rd`).  A player without games keeps rating and RD for the
    period; only the growth at the start of the next period changes the RD.

Glicko-2 (Glickman, "Example of the Glicko-2 system", glicko.net)
    Ratings are moved to the Glicko-2 scale ``μ = (r - 1500) / 173.7178``,
    ``φ = RD / 173.7178``; a third number, the *volatility* σ, says how erratic
    the player is.  Steps 3-8: ``v`` (estimated variance from the games), ``Δ``
    (estimated improvement), a new volatility σ' by the Illinois (regula falsi)
    iteration with the system constant τ and tolerance ε = 0.000001,
    ``φ* = sqrt(φ² + σ'²)``, ``φ' = 1 / sqrt(1/φ*² + 1/v)``,
    ``μ' = μ + φ'² Σ g(φ_j)(s_j - E_j)``, and back to the Glicko scale.  A
    player without games keeps μ and σ and only grows: ``φ' = sqrt(φ² + σ²)``.

Lichess (lichess-org/lila ``modules/rating`` with lichess-org/scalachess
``rating``): Glicko-2 with τ = 0.75, new players at 1500 / RD 500 / volatility
0.09, every game its own rating period computed *without* the step-6 growth
(``skipDeviationIncrease = true``, so ``φ* = φ``), RD kept within 45…500 and
volatility at most 0.1 before and after the game, a rating change limited to
±700 and a rating floor of 400.  A rating is *provisional*, shown as "1500?",
while RD ≥ 110.  See :data:`LICHESS` for what is modelled and what is left out.

How this module reads.  First one player, the papers step by step:
:func:`glicko1_update` / :func:`glicko1_steps` (with :func:`g`,
:func:`expected_score` and :func:`grow_rd`) and :func:`glicko2_update` /
:func:`glicko2_steps`, whose steps 2-8 are marked in the code as the paper
numbers them.  Then the same steps for many players at once, with numpy arrays
of shape ``(players, games)``: :func:`glicko1_batch` and :func:`glicko2_batch`
(a ladder's round, a Lichess round of games).  Then Lichess.  Last, the
checking of inputs.

Input ranges.  Every input is checked, and a value outside its range raises
``ValueError`` naming the parameter and the range (``TypeError`` for a value of
the wrong kind).  The ranges are far wider than any real rating list and are
where the formulas stay finite and the step-5 iteration is known to converge:

- ratings (a player's and the opponents') within ±:data:`RATING_LIMIT`
  (-10,000 … 10,000);
- RDs within 0 … :data:`RD_LIMIT` (10,000), above 0 where the formulas divide
  by them;
- Glicko-2 volatility within :data:`VOLATILITY_RANGE` (0.000001 … 1), τ within
  :data:`TAU_RANGE` (0.01 … 10), the tolerance ε within :data:`EPSILON_RANGE`
  (1e-12 … 0.01), ``elapsed_periods`` within 0 … :data:`MAX_ELAPSED_PERIODS`.

Within them the results are finite, but not always sensible: a rating
difference of thousands of points with a result against the odds sends
Glicko-2's volatility, and with it RD and rating, far outside these ranges
(the formulas, not a fault of the computation).  Two formulas are written in
an equal form that stays exact at these extremes; the comments say where.

Example: the worked example of the Glicko-2 paper.

>>> r, rd, vol = glicko2_update(1500, 200, 0.06,
...                             [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
>>> round(r, 2), round(rd, 2), round(vol, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from elo_explain import _validate as V

__all__ = [
    "Q",
    "GLICKO2_SCALE",
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_VOLATILITY",
    "DEFAULT_TAU",
    "DEFAULT_C",
    "MAX_RD",
    "EPSILON",
    "RATING_LIMIT",
    "RD_LIMIT",
    "VOLATILITY_RANGE",
    "TAU_RANGE",
    "EPSILON_RANGE",
    "MAX_ELAPSED_PERIODS",
    "g",
    "expected_score",
    "grow_rd",
    "glicko1_batch",
    "glicko1_update",
    "glicko1_steps",
    "glicko2_batch",
    "glicko2_update",
    "glicko2_steps",
    "confidence_interval",
    "LichessConfig",
    "LICHESS",
    "lichess_cap",
    "lichess_game",
    "lichess_live_rd",
    "is_provisional",
    "lichess_display",
]

#: Glicko-1 scaling constant q = ln 10 / 400 ≈ 0.0057565.
Q: float = math.log(10.0) / 400.0
#: Glicko-2 scale factor as printed in Glickman's example (≈ 400 / ln 10).
GLICKO2_SCALE: float = 173.7178
# Step 1 of both papers: an unrated player starts at rating 1500 and RD 350 (Glicko-2:
# volatility 0.06), and the system constant τ is chosen (the Glicko-2 example: 0.5).
#: Rating of an unrated player (both papers).
DEFAULT_RATING: float = 1500.0
#: RD of an unrated player (both papers); also the ceiling of :func:`grow_rd`.
DEFAULT_RD: float = 350.0
MAX_RD: float = 350.0
#: Volatility of an unrated player (Glicko-2 paper).
DEFAULT_VOLATILITY: float = 0.06
#: System constant τ used in the Glicko-2 paper's example.
DEFAULT_TAU: float = 0.5
#: RD growth constant c per rating period: Glickman's example (docs/sources.md#glicko L2).
DEFAULT_C: float = 63.2
#: Convergence tolerance of the Illinois iteration (Glicko-2 paper).
EPSILON: float = 0.000001

#: Ratings must lie within ``-RATING_LIMIT … RATING_LIMIT``.
RATING_LIMIT: float = 10_000.0
#: RDs must lie within ``0 … RD_LIMIT`` (above 0 for a player being rated).
RD_LIMIT: float = 10_000.0
#: Allowed Glicko-2 volatility σ (the paper's example uses 0.06, Lichess 0.09).
VOLATILITY_RANGE: tuple[float, float] = (0.000001, 1.0)
#: Allowed system constant τ (the paper: "reasonable choices are between 0.3 and 1.2").
TAU_RANGE: tuple[float, float] = (0.01, 10.0)
#: Allowed tolerance ε of the step-5 iteration (the paper uses 0.000001).
EPSILON_RANGE: tuple[float, float] = (1e-12, 0.01)
#: Largest ``elapsed_periods`` of a Glicko-2 period.
MAX_ELAPSED_PERIODS: float = 1_000_000.0

# Within the ranges above the Illinois iteration needs at most about 200 steps (measured
# over the corners of the ranges, tests/rules/test_glicko.py); the caps only stop a runaway.
_MAX_ILLINOIS_ITERATIONS = 1000
_MAX_BRACKET_STEPS = 10_000


# --------------------------------------------------------------------------- #
# Glicko-1, one player: "The Glicko system"
# --------------------------------------------------------------------------- #
def g(rd):
    """Glicko-1 attenuation ``g(RD) = 1 / sqrt(1 + 3 q² RD² / π²)``.

    The larger the opponent's RD, the less a game against them counts.
    ``rd`` lies within 0 … :data:`RD_LIMIT`.

    >>> round(g(30), 4), round(g(100), 4), round(g(300), 4)
    (0.9955, 0.9531, 0.7242)
    """
    rd = np.asarray(_rd0("rd", rd), dtype=float)
    return _out(1.0 / np.sqrt(1.0 + 3.0 * Q * Q * rd * rd / (np.pi * np.pi)))


def expected_score(rating, opponent_rating, opponent_rd=0.0, rd=0.0):
    """Glicko expected score ``1 / (1 + 10^(-g(√(RD² + RD_j²)) (r - r_j) / 400))``.

    With ``rd=0`` (the default) this is ``E(s | r, r_j, RD_j)`` of the update
    formulas; passing the player's own ``rd`` too gives Glickman's probability
    for a game between two uncertain players.  With both RDs 0 it is the plain
    Elo curve.  Ratings lie within ±:data:`RATING_LIMIT`, RDs within
    0 … :data:`RD_LIMIT`.

    >>> round(expected_score(1500, 1400, 30), 3)
    0.639
    >>> round(expected_score(1500, 1700, 300), 3)
    0.303
    """
    rating = np.asarray(_rating("rating", rating), dtype=float)
    opponent_rating = np.asarray(_rating("opponent_rating", opponent_rating), dtype=float)
    opponent_rd = np.asarray(_rd0("opponent_rd", opponent_rd), dtype=float)
    rd = np.asarray(_rd0("rd", rd), dtype=float)
    combined = np.sqrt(rd * rd + opponent_rd * opponent_rd)
    gg = 1.0 / np.sqrt(1.0 + 3.0 * Q * Q * combined * combined / (np.pi * np.pi))
    return _out(1.0 / (1.0 + 10.0 ** (-gg * (rating - opponent_rating) / 400.0)))


def grow_rd(rd, periods=1, c=DEFAULT_C, *, max_rd=MAX_RD):
    """RD at the start of a rating period: ``min(sqrt(RD² + c² t), max_rd)``.

    Step 1(b) of "The Glicko system"; ``periods`` is t, the number of rating
    periods since the player's last game (0 leaves RD unchanged), ``c`` the
    growth constant (default 63.2) and ``max_rd`` the RD of an unrated player
    (350).  Vectorised over ``rd`` and ``periods``.  ``rd``, ``c`` and
    ``max_rd`` lie within 0 … :data:`RD_LIMIT` (``max_rd`` above 0), ``periods``
    is any number ≥ 0 (however many periods, the RD stops at ``max_rd``).

    Glickman's example of choosing c ("The Glicko system", the notes on c): a typical RD
    of 50, rating periods of two months and 5 years (30 periods) to return to 350 give
    ``c = sqrt((350² - 50²) / 30) ≈ 63.2``, the default (Wikipedia's Glicko article
    assumes 100 periods instead: ``c ≈ 34.6``).

    >>> grow_rd(50, periods=30, c=63.245553)
    350.0
    >>> round(grow_rd(200), 2)
    209.75
    """
    rd = np.asarray(_rd0("rd", rd), dtype=float)
    periods = np.asarray(V.finite("periods", periods, lo=0.0), dtype=float)
    c = V.in_range("c", c, 0.0, RD_LIMIT)
    max_rd = _positive_scalar("max_rd", max_rd, hi=RD_LIMIT)
    # sqrt(RD² + c² t) as hypot(RD, c sqrt(t)): no overflow however large t is
    return _out(np.minimum(np.hypot(rd, c * np.sqrt(periods)), max_rd))


def _glicko1_period(r: float, rd: float, games: list) -> dict:
    """Step 2 of "The Glicko system" for one player with at least one game.

    ``games`` holds ``(r_j, RD_j, s_j)`` triples of floats (already checked).
    Returns every value the paper computes: ``g``, ``E`` (lists, one per game),
    ``d2`` and the new ``rating`` and ``rd``.
    """
    # Step 1 is the caller's: the RD at the start of the period (grow_rd; a new player
    # starts at DEFAULT_RATING 1500 and DEFAULT_RD 350).

    # Step 2, for each game j: g(RD_j) = 1 / sqrt(1 + 3 q² RD_j² / π²) and
    # E(s | r, r_j, RD_j) = 1 / (1 + t) with t = 10^(-g(RD_j) (r - r_j) / 400)
    g_j = [
        1.0 / math.sqrt(1.0 + 3.0 * Q * Q * rd_j * rd_j / (math.pi * math.pi))
        for _, rd_j, _ in games
    ]
    t_j = [10.0 ** (-gj * (r - r_j) / 400.0) for gj, (r_j, _, _) in zip(g_j, games)]
    E_j = [1.0 / (1.0 + t) for t in t_j]
    # d² = [q² Σ g(RD_j)² E (1 - E)]⁻¹, with 1 - E written as t E: it does not round to 0
    # when E rounds to 1
    inverse_d2 = Q * Q * sum(gj * gj * (t * E) * E for gj, t, E in zip(g_j, t_j, E_j))
    d2 = 1.0 / inverse_d2
    # RD' = sqrt(1 / (1/RD² + 1/d²)) and r' = r + q / (1/RD² + 1/d²) Σ g(RD_j) (s_j - E),
    # computed as RD' = RD / sqrt(1 + RD²/d²) and r' = r + q RD'² Σ ...: the same numbers
    # without 1/RD², which overflows for a tiny RD
    total = sum(gj * (s_j - E) for gj, (_, _, s_j), E in zip(g_j, games, E_j))
    new_rd = rd / math.sqrt(1.0 + rd * rd * inverse_d2)
    new_rating = r + Q * (new_rd * new_rd) * total
    return {"g": g_j, "E": E_j, "d2": d2, "rating": new_rating, "rd": new_rd}


def glicko1_update(rating, rd, results):
    """One Glicko-1 rating period for one player.

    ``results`` is a sequence of ``(opponent_rating, opponent_rd, score)``
    with score 1, 0.5 or 0.  Returns ``(rating, rd)`` in full precision.  An
    empty ``results`` leaves both unchanged (the RD grows only at the start of
    the next period, :func:`grow_rd`).  Ranges as in :func:`glicko1_batch`.

    The example of "The Glicko system" (printed: r' ≈ 1464, RD' ≈ 151.4):

    >>> r, rd = glicko1_update(1500, 200, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(r, 2), round(rd, 2)
    (1464.11, 151.4)
    """
    rating, rd = _player(rating, rd)
    games = _results(results)
    if not games:
        return rating, rd
    out = _glicko1_period(rating, rd, games)
    return out["rating"], out["rd"]


def glicko1_steps(rating, rd, results) -> dict:
    """Every intermediate value of a Glicko-1 period, for explanation.

    Returns a dict with ``q``, per-game ``g`` and ``E`` (arrays), ``d2``
    (``d²``), ``d``, and the new ``rating`` and ``rd``.  ``results`` must hold
    at least one game (without games d² would be infinite: there is nothing to
    show).  Ranges as in :func:`glicko1_batch`.

    >>> s = glicko1_steps(1500, 200, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(s["q"], 7), s["g"].round(4), s["E"].round(3), round(s["d2"], 2)
    (0.0057565, array([0.9955, 0.9531, 0.7242]), array([0.639, 0.432, 0.303]), 53685.74)
    """
    rating, rd = _player(rating, rd)
    games = _results(results, need_games=True)
    out = _glicko1_period(rating, rd, games)
    return {
        "q": Q,
        "g": np.array(out["g"]),
        "E": np.array(out["E"]),
        "d2": out["d2"],
        "d": math.sqrt(out["d2"]),
        "rating": out["rating"],
        "rd": out["rd"],
    }


# --------------------------------------------------------------------------- #
# Glicko-2, one player: "Example of the Glicko-2 system"
# --------------------------------------------------------------------------- #
def _exp(x: float) -> float:
    """e^x by numpy, as in :func:`glicko2_batch` (numpy's e^x and ln x can differ from the
    math module's in the last bit): one player gets the same numbers from both."""
    return float(np.exp(x))


def _ln(x: float) -> float:
    """ln x by numpy (see :func:`_exp`)."""
    return float(np.log(x))


def _glicko2_period(
    rating: float,
    rd: float,
    sigma: float,
    games: list,
    tau: float,
    elapsed_periods: float,
    epsilon: float,
) -> dict:
    """Steps 2-8 of the Glicko-2 paper for one player with at least one game.

    ``games`` holds ``(r_j, RD_j, s_j)`` triples of floats; every input is
    already checked.  Step 1 (the defaults of a new player and τ) is the
    caller's.  Returns every value the paper computes, keyed as in
    :func:`glicko2_steps`.
    """
    # Step 1 is the caller's: the rating, RD and volatility at the start of the period
    # (a new player's are DEFAULT_RATING, DEFAULT_RD and DEFAULT_VOLATILITY) and τ.

    # Step 2: convert the player and the opponents to the Glicko-2 scale
    mu = (rating - DEFAULT_RATING) / GLICKO2_SCALE
    phi = rd / GLICKO2_SCALE
    opp_mu = [(r_j - DEFAULT_RATING) / GLICKO2_SCALE for r_j, _, _ in games]
    opp_phi = [rd_j / GLICKO2_SCALE for _, rd_j, _ in games]
    scores = [s_j for _, _, s_j in games]

    # Step 3: the estimated variance v = [Σ g(φ_j)² E (1 - E)]⁻¹, where
    # g(φ) = 1 / sqrt(1 + 3 φ² / π²) and E = 1 / (1 + exp(-g(φ_j) (μ - μ_j)))
    g_j = [1.0 / math.sqrt(1.0 + 3.0 * phi_j * phi_j / (math.pi * math.pi)) for phi_j in opp_phi]
    t_j = [_exp(-gj * (mu - mu_j)) for gj, mu_j in zip(g_j, opp_mu)]
    E_j = [1.0 / (1.0 + t) for t in t_j]  # E = 1 / (1 + t)
    # E (1 - E) with 1 - E written as t E: it does not round to 0 when E rounds to 1
    v = 1.0 / sum(gj * gj * (t * E) * E for gj, t, E in zip(g_j, t_j, E_j))

    # Step 4: the estimated improvement Δ = v Σ g(φ_j) (s_j - E)
    total = sum(gj * (s_j - E) for gj, s_j, E in zip(g_j, scores, E_j))
    delta = v * total

    # Step 5: the new volatility σ' (the Illinois algorithm)
    sigma_new, iterations = _new_volatility(sigma, phi, v, delta, tau, epsilon)

    # Step 6: the pre-rating-period value φ* = sqrt(φ² + σ'²), with σ'² once per
    # elapsed period (1 in the paper, 0 for Lichess)
    phi_star2 = phi * phi + elapsed_periods * sigma_new * sigma_new

    # Step 7: the new φ' = 1 / sqrt(1/φ*² + 1/v), computed as φ'² = φ*² / (1 + φ*²/v) (the
    # same number without 1/φ*², which overflows for a tiny RD), and μ' = μ + φ'² Σ g (s - E)
    phi_new2 = phi_star2 / (1.0 + phi_star2 / v)
    change = phi_new2 * total  # μ' - μ

    # Step 8: back to the Glicko scale, r' = 173.7178 μ' + 1500 and RD' = 173.7178 φ'
    # (r' as r + 173.7178 (μ' - μ): the same number, without rounding r through μ)
    return {
        "mu": mu,
        "phi": phi,
        "opp_mu": opp_mu,
        "opp_phi": opp_phi,
        "g": g_j,
        "E": E_j,
        "v": v,
        "delta": delta,
        "a": _ln(sigma * sigma),
        "sigma_new": sigma_new,
        "iterations": iterations,
        "phi_star": math.sqrt(phi_star2),
        "phi_new": math.sqrt(phi_new2),
        "mu_new": mu + change,
        "rating": rating + GLICKO2_SCALE * change,
        "rd": GLICKO2_SCALE * math.sqrt(phi_new2),
        "volatility": sigma_new,
    }


def _new_volatility(
    sigma: float, phi: float, v: float, delta: float, tau: float, epsilon: float
) -> tuple[float, int]:
    """Step 5 of the Glicko-2 paper: σ' and the number of Illinois iterations.

    ``f(x) = e^x (Δ² - φ² - v - e^x) / (2 (φ² + v + e^x)²) - (x - a) / τ²`` with
    ``a = ln σ²``; its root A gives ``σ' = e^(A/2)``.
    """
    # (1) a = ln σ² and f
    a = _ln(sigma * sigma)

    def f(x):
        ex = _exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    # (2) the starting values A = a and B
    A = a
    if delta * delta - phi * phi - v > 0:  # Δ² > φ² + v
        B = _ln(delta * delta - phi * phi - v)
    else:  # B = a - kτ for the smallest k = 1, 2, ... with f(a - kτ) ≥ 0
        k = 1
        while f(a - k * tau) < 0:
            k += 1
            if k > _MAX_BRACKET_STEPS:  # pragma: no cover - f(x) → +∞ as x → -∞
                raise RuntimeError("Glicko-2 volatility: could not bracket the root")
        B = a - k * tau
    # (3) f(A), f(B); (4) iterate until |B - A| ≤ ε
    fA, fB = f(A), f(B)
    iterations = 0
    while abs(B - A) > epsilon:
        C = A + (A - B) * fA / (fB - fA)  # (a)
        fC = f(C)
        if fC * fB <= 0:  # (b) the root lies between B and C
            A, fA = B, fB
        else:  # (b) otherwise halve f(A): the Illinois step
            fA = fA / 2.0
        B, fB = C, fC  # (c)
        iterations += 1
        if iterations > _MAX_ILLINOIS_ITERATIONS:  # pragma: no cover - converges in a few
            raise RuntimeError("Glicko-2 volatility: the Illinois iteration did not converge")
    return _exp(A / 2.0), iterations  # (5) σ' = e^(A/2)


def glicko2_update(
    rating, rd, volatility, results, tau=DEFAULT_TAU, *, elapsed_periods=1.0, epsilon=EPSILON
):
    """One Glicko-2 rating period for one player, step by step as in the paper.

    ``results`` is a sequence of ``(opponent_rating, opponent_rd, score)``.
    Returns ``(rating, rd, volatility)`` in full precision.  With no games only
    the RD grows: ``RD' = 173.7178 · sqrt(φ² + σ²)``.  Ranges as in
    :func:`glicko2_batch`.

    The paper's example prints 1464.06, 151.52 and 0.05999; in full precision
    (without the paper's rounding of g, E, v, Δ and μ' mid-way) the rating is
    1464.0507:

    >>> r, rd, vol = glicko2_update(1500, 200, 0.06,
    ...                             [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(r, 4), round(rd, 4), round(vol, 7)
    (1464.0507, 151.5165, 0.059996)
    >>> round(glicko2_update(1500, 200, 0.06, [])[1], 2)  # no games: only RD grows
    200.27
    """
    rating, rd = _player(rating, rd)
    volatility = V.in_range("volatility", volatility, *VOLATILITY_RANGE)
    tau, elapsed_periods, epsilon = _glicko2_settings(tau, elapsed_periods, epsilon)
    games = _results(results)
    if not games:  # step 6 alone: φ' = φ* = sqrt(φ² + σ²); μ and σ stay
        phi = rd / GLICKO2_SCALE
        phi_star2 = phi * phi + elapsed_periods * volatility * volatility
        return rating, GLICKO2_SCALE * math.sqrt(phi_star2), volatility
    out = _glicko2_period(rating, rd, volatility, games, tau, elapsed_periods, epsilon)
    return out["rating"], out["rd"], out["volatility"]


def glicko2_steps(
    rating, rd, volatility, results, tau=DEFAULT_TAU, *, elapsed_periods=1.0, epsilon=EPSILON
) -> dict:
    """Every intermediate value of a Glicko-2 period, named as in the paper.

    Keys: ``mu``, ``phi`` (player on the Glicko-2 scale), ``opp_mu``,
    ``opp_phi``, ``g``, ``E`` (per game), ``v``, ``delta`` (Δ), ``a``
    (``ln σ²``), ``sigma_new`` (σ'), ``iterations`` (Illinois steps),
    ``phi_star`` (φ*), ``phi_new`` (φ'), ``mu_new`` (μ'), and the results
    ``rating``, ``rd``, ``volatility``.  ``results`` must hold at least one game
    (without games v would be infinite and there are no steps 3-5 to show;
    :func:`glicko2_update` does that period).  Ranges as in :func:`glicko2_batch`.

    >>> s = glicko2_steps(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(s["phi"], 4), s["g"].round(4), s["E"].round(3)
    (1.1513, array([0.9955, 0.9531, 0.7242]), array([0.639, 0.432, 0.303]))
    >>> round(s["v"], 4), round(s["delta"], 4), round(s["phi_new"], 4), round(s["mu_new"], 4)
    (1.779, -0.4839, 0.8722, -0.2069)
    """
    rating, rd = _player(rating, rd)
    volatility = V.in_range("volatility", volatility, *VOLATILITY_RANGE)
    tau, elapsed_periods, epsilon = _glicko2_settings(tau, elapsed_periods, epsilon)
    games = _results(results, need_games=True)
    steps = _glicko2_period(rating, rd, volatility, games, tau, elapsed_periods, epsilon)
    for key in ("opp_mu", "opp_phi", "g", "E"):
        steps[key] = np.array(steps[key])
    return steps


def confidence_interval(rating, rd, z=2.0):
    """Interval ``rating ± z · RD`` in which the player's strength likely lies.

    The default ``z = 2`` is Glickman's "95 % confidence interval" (both
    papers: "rating minus twice the RD … plus twice the RD") and what Lichess
    shows (``intervalMin/intervalMax``); ``z = 1.96`` is the exact 95 % point
    of the normal distribution.  Returns ``(low, high)``.  ``rating`` lies within
    ±:data:`RATING_LIMIT`, ``rd`` within 0 … :data:`RD_LIMIT` and ``z`` within
    0 … 10 (beyond 10 standard deviations a normal belief has no mass left).

    >>> confidence_interval(1850, 50)
    (1750.0, 1950.0)
    >>> confidence_interval(1500, 350, z=1.96)
    (814.0, 2186.0)
    """
    rating = np.asarray(_rating("rating", rating), dtype=float)
    rd = np.asarray(_rd0("rd", rd), dtype=float)
    z = V.in_range("z", z, 0.0, 10.0)
    return _out(rating - z * rd), _out(rating + z * rd)


# --------------------------------------------------------------------------- #
# Many players at once: the same steps on numpy arrays
#
# Row i of the ``(players, games)`` arrays holds player i's games.  ``played`` (or
# None when every game took place) marks the games; a game that did not take place
# holds harmless stand-in numbers and weighs nothing: its g is multiplied by 0.
# --------------------------------------------------------------------------- #
def glicko1_batch(rating, rd, opp_rating, opp_rd, score, mask=None):
    """Glicko-1 rating period for many players at once.

    ``rating`` and ``rd`` have shape ``(players,)`` (or are scalars);
    ``opp_rating``, ``opp_rd`` and ``score`` have shape ``(players, games)``;
    ``mask`` (same shape, booleans) marks which games took place, so players
    may have different numbers of games (values where ``mask`` is False are
    ignored).  RD growth between periods is not applied here: call
    :func:`grow_rd` first.  Returns ``(rating, rd)`` arrays of shape
    ``(players,)``; a player without games keeps rating and RD.  Ratings lie
    within ±:data:`RATING_LIMIT`, RDs within 0 (excluded) … :data:`RD_LIMIT`.

    >>> r, rd = glicko1_batch([1500, 1500], [200, 200],
    ...                       [[1400, 1550, 1700], [1400, 0, 0]],
    ...                       [[30, 100, 300], [30, 1, 1]],
    ...                       [[1, 0, 0], [1, 0, 0]],
    ...                       mask=[[True, True, True], [True, False, False]])
    >>> r.round(1), rd.round(1)
    (array([1464.1, 1563.4]), array([151.4, 175.2]))
    """
    opp_rating, opp_rd, score, played = _games(opp_rating, opp_rd, score, mask)
    rating, rd = _players(opp_rating.shape[0], rating=rating, rd=rd)
    _rating("rating", rating)
    _rd("rd", rd)
    # as in _glicko1_period, one column per game
    g_j = 1.0 / np.sqrt(1.0 + 3.0 * Q * Q * opp_rd * opp_rd / (np.pi * np.pi))
    t = 10.0 ** (-g_j * (rating[:, None] - opp_rating) / 400.0)
    E = 1.0 / (1.0 + t)
    if played is not None:
        g_j = g_j * played
    inverse_d2 = Q * Q * np.sum(g_j * g_j * (t * E) * E, axis=1)  # 1/d²; 1 - E = t E
    total = np.sum(g_j * (score - E), axis=1)
    new_rd = rd / np.sqrt(1.0 + rd * rd * inverse_d2)  # RD' = sqrt(1 / (1/RD² + 1/d²))
    new_rating = rating + Q * (new_rd * new_rd) * total
    return new_rating, new_rd


def glicko2_batch(
    rating,
    rd,
    volatility,
    opp_rating,
    opp_rd,
    score,
    mask=None,
    tau=DEFAULT_TAU,
    *,
    elapsed_periods=1.0,
    epsilon=EPSILON,
):
    """Glicko-2 rating period for many players at once.

    ``rating``, ``rd`` and ``volatility`` have shape ``(players,)`` (or are
    scalars); ``opp_rating``, ``opp_rd`` and ``score`` have shape
    ``(players, games)``: row i holds the games of player i against opponents'
    *pre-period* ratings and RDs.  ``mask`` (booleans, same shape) marks the
    games that took place; entries where it is False are ignored (they may be
    NaN), and a row without any game only grows its RD.  The steps are those of
    :func:`glicko2_update`, each on whole arrays; the Illinois iteration of
    step 5 runs for all players together until every one has converged
    (|B - A| ≤ ``epsilon``).

    ``elapsed_periods`` is the number of periods in step 6,
    ``φ* = sqrt(φ² + elapsed_periods · σ'²)``: 1 as in the paper, 0 for the
    Lichess way of rating a single game (no growth).

    Ranges (see the module's docstring): ratings within ±:data:`RATING_LIMIT`,
    RDs within 0 (excluded) … :data:`RD_LIMIT`, ``volatility`` within
    :data:`VOLATILITY_RANGE`, ``tau`` within :data:`TAU_RANGE`, ``epsilon``
    within :data:`EPSILON_RANGE`, ``elapsed_periods`` within
    0 … :data:`MAX_ELAPSED_PERIODS`.

    Returns ``(rating, rd, volatility)`` arrays of shape ``(players,)``.

    >>> r, rd, vol = glicko2_batch(
    ...     [1500, 1500], [200, 200], [0.06, 0.06],
    ...     [[1400, 1550, 1700], [1400, 1550, 1700]], [[30, 100, 300], [30, 100, 300]],
    ...     [[1, 0, 0], [1, 0, 0]], mask=[[True, True, True], [False, False, False]])
    >>> r.round(2), rd.round(2), vol.round(6)
    (array([1464.05, 1500.  ]), array([151.52, 200.27]), array([0.059996, 0.06    ]))
    """
    tau, elapsed_periods, epsilon = _glicko2_settings(tau, elapsed_periods, epsilon)
    opp_rating, opp_rd, score, played = _games(opp_rating, opp_rd, score, mask)
    rating, rd, volatility = _players(
        opp_rating.shape[0], rating=rating, rd=rd, volatility=volatility
    )
    _rating("rating", rating)
    _rd("rd", rd)
    _volatility("volatility", volatility)
    return _glicko2_arrays(
        rating, rd, volatility, opp_rating, opp_rd, score, played, tau, elapsed_periods, epsilon
    )


def _glicko2_arrays(
    rating, rd, sigma, opp_rating, opp_rd, score, played, tau, elapsed_periods, epsilon
):
    """Steps 2-8 of :func:`_glicko2_period` on checked arrays; returns the new
    ``(rating, rd, volatility)``."""
    # Step 2: the Glicko-2 scale
    mu = (rating - DEFAULT_RATING) / GLICKO2_SCALE
    phi = rd / GLICKO2_SCALE
    opp_mu = (opp_rating - DEFAULT_RATING) / GLICKO2_SCALE
    opp_phi = opp_rd / GLICKO2_SCALE

    # Step 3: v = [Σ g(φ_j)² E (1 - E)]⁻¹ per player, with g(φ_j) and E = 1 / (1 + t),
    # t = exp(-g(φ_j) (μ - μ_j)), one column per game; 1 - E written as t E
    g_j = 1.0 / np.sqrt(1.0 + 3.0 * opp_phi * opp_phi / (np.pi * np.pi))
    t = np.exp(-g_j * (mu[:, None] - opp_mu))
    E = 1.0 / (1.0 + t)
    if played is not None:
        g_j = g_j * played
    information = _row_sums(g_j * g_j * (t * E) * E)
    # Step 4: Σ g(φ_j)(s_j - E), and Δ = v times it
    total = _row_sums(g_j * (score - E))

    # A player without games has v = ∞ and Δ = 0 and keeps σ (steps 3-5 do not apply)
    has_games = np.full(rating.shape, E.shape[1] > 0) if played is None else played.any(axis=1)
    v = np.full(rating.shape, np.inf)
    v[has_games] = 1.0 / information[has_games]
    delta = np.zeros(rating.shape)
    delta[has_games] = v[has_games] * total[has_games]

    # Step 5: the new volatility σ'
    sigma_new = sigma.copy()
    sigma_new[has_games] = _new_volatilities(
        sigma[has_games], phi[has_games], v[has_games], delta[has_games], tau, epsilon
    )

    # Step 6: φ*² = φ² + σ'² per elapsed period
    phi_star2 = phi * phi + elapsed_periods * sigma_new * sigma_new
    # Step 7: φ'² = φ*² / (1 + φ*²/v) (= φ*² without games, v = ∞); μ' - μ = φ'² Σ g (s - E)
    phi_new2 = phi_star2 / (1.0 + phi_star2 / v)
    change = phi_new2 * total
    # Step 8: back to the Glicko scale, r' = r + 173.7178 (μ' - μ) and RD' = 173.7178 φ'
    return rating + GLICKO2_SCALE * change, GLICKO2_SCALE * np.sqrt(phi_new2), sigma_new


def _row_sums(x):
    """The sum of each row, added game after game as :func:`_glicko2_period` adds one
    player's games (``np.sum`` adds in another order): a row of a batch and the same
    player alone get the same v and Δ, so step 5 takes the same path to the last bit."""
    sums = np.zeros(x.shape[0])
    for column in x.T:
        sums += column
    return sums


def _new_volatilities(sigma, phi, v, delta, tau, epsilon):
    """Step 5 for arrays: the same A, B and C per player as :func:`_new_volatility`.

    Every player still iterating (``|B - A| > ε``) takes the next Illinois step
    together; a player who has converged keeps its A.  Returns σ'.
    """
    # (1) a = ln σ² and f
    a = np.log(sigma * sigma)
    d2pv = delta * delta - phi * phi - v  # Δ² - φ² - v
    pv = phi * phi + v  # φ² + v

    def f(x, i):  # f(x) for the players i
        ex = np.exp(x)
        return ex * (d2pv[i] - ex) / (2.0 * (pv[i] + ex) ** 2) - (x - a[i]) / (tau * tau)

    # (2) A = a; B = ln(Δ² - φ² - v) if Δ² > φ² + v, else a - kτ for the smallest k ≥ 1
    # with f(a - kτ) ≥ 0
    A = a.copy()
    B = np.empty_like(a)
    big = d2pv > 0
    B[big] = np.log(d2pv[big])
    k = 1
    todo = np.flatnonzero(~big)
    while todo.size:
        B[todo] = a[todo] - k * tau
        todo = todo[f(B[todo], todo) < 0]
        k += 1
        if k > _MAX_BRACKET_STEPS:  # pragma: no cover - f(x) → +∞ as x → -∞
            raise RuntimeError("Glicko-2 volatility: could not bracket the root")
    # (3) f(A), f(B); (4) the Illinois steps, for the players with |B - A| > ε
    everyone = slice(None)
    fA, fB = f(A, everyone), f(B, everyone)
    iterating = np.abs(B - A) > epsilon
    steps = 0
    while iterating.any():
        i = np.flatnonzero(iterating)
        Ai, Bi, fAi, fBi = A[i], B[i], fA[i], fB[i]
        C = Ai + (Ai - Bi) * fAi / (fBi - fAi)  # (a)
        fC = f(C, i)
        root_between_B_and_C = fC * fBi <= 0  # (b)
        A[i] = np.where(root_between_B_and_C, Bi, Ai)
        fA[i] = np.where(root_between_B_and_C, fBi, fAi / 2.0)
        B[i], fB[i] = C, fC  # (c)
        iterating[i] = np.abs(C - A[i]) > epsilon
        steps += 1
        if steps > _MAX_ILLINOIS_ITERATIONS:  # pragma: no cover - converges in a few steps
            raise RuntimeError("Glicko-2 volatility: the Illinois iteration did not converge")
    return np.exp(A / 2.0)  # (5) σ' = e^(A/2)


# --------------------------------------------------------------------------- #
# Checking inputs (elo_explain._validate, with this module's ranges)
# --------------------------------------------------------------------------- #
def _out(arr):
    """A Python float for a 0-d result, the array otherwise."""
    arr = np.asarray(arr, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


def _rating(name: str, value):
    """Ratings within ±:data:`RATING_LIMIT`."""
    return V.finite(name, value, lo=-RATING_LIMIT, hi=RATING_LIMIT)


def _rd(name: str, value):
    """RDs within 0 (excluded) … :data:`RD_LIMIT`."""
    return V.positive(name, value, hi=RD_LIMIT)


def _rd0(name: str, value):
    """RDs within 0 (included) … :data:`RD_LIMIT`."""
    return V.finite(name, value, lo=0.0, hi=RD_LIMIT)


def _volatility(name: str, value):
    """Volatilities within :data:`VOLATILITY_RANGE`."""
    return V.finite(name, value, lo=VOLATILITY_RANGE[0], hi=VOLATILITY_RANGE[1])


def _positive_scalar(name: str, value, hi: float) -> float:
    """A single number > 0 and <= ``hi``."""
    return V.positive(name, V.in_range(name, value, -math.inf, math.inf), hi=hi)


def _player(rating, rd) -> tuple[float, float]:
    """One player's rating and RD (single numbers)."""
    return (
        V.in_range("rating", rating, -RATING_LIMIT, RATING_LIMIT),
        _positive_scalar("rd", rd, hi=RD_LIMIT),
    )


def _glicko2_settings(tau, elapsed_periods, epsilon) -> tuple[float, float, float]:
    return (
        V.in_range("tau", tau, *TAU_RANGE),
        V.in_range("elapsed_periods", elapsed_periods, 0.0, MAX_ELAPSED_PERIODS),
        V.in_range("epsilon", epsilon, *EPSILON_RANGE),
    )


def _items(value, kind: str) -> list:
    """``value`` as a list; ``TypeError`` naming ``kind`` for a string, ``None`` or a scalar."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{kind}, got {value!r}")
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{kind}, got {value!r}") from None


def _results(results, need_games: bool = False) -> list:
    """One player's ``results`` as a list of checked ``(r_j, RD_j, s_j)`` float triples."""
    kind = "results must be a sequence of (opponent_rating, opponent_rd, score) triples"
    items = _items(results, kind)
    if not items:
        if need_games:
            raise ValueError("results must contain at least one game to show the steps, got none")
        return []
    arr = V.as_float_array("results", items)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{kind}, got an array of shape {arr.shape}")
    _rating("opp_rating", arr[:, 0])
    _rd("opp_rd", arr[:, 1])
    V.score("score", arr[:, 2])
    return [tuple(row) for row in arr.tolist()]


def _games(opp_rating, opp_rd, score, mask):
    """Check and broadcast the ``(players, games)`` inputs of a batch.

    Returns float arrays of one shape and ``played`` (a boolean array, or None
    when every game took place).  Only the games that took place are checked;
    the others get harmless stand-ins (rating 0, RD 1, score 0), which the
    batches weigh by 0.
    """
    arrays = [
        V.as_float_array("opp_rating", opp_rating),
        V.as_float_array("opp_rd", opp_rd),
        V.as_float_array("score", score),
    ]
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise TypeError(f"mask must be an array of booleans, got dtype {mask.dtype}")
        arrays.append(mask)
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError:
        raise ValueError(
            "opp_rating, opp_rd, score and mask must have the same shape (players, games), "
            f"got {[np.shape(x) for x in arrays]}"
        ) from None
    opp_rating, opp_rd, score = arrays[:3]
    if opp_rating.ndim != 2:
        raise ValueError(
            "opp_rating, opp_rd and score must be 2-dimensional (players, games), "
            f"got shape {opp_rating.shape}"
        )
    played = None if mask is None or arrays[3].all() else arrays[3]
    if played is None:
        _rating("opp_rating", opp_rating)
        _rd("opp_rd", opp_rd)
        V.score("score", score)
        return opp_rating, opp_rd, score, None
    _rating("opp_rating", opp_rating[played])
    _rd("opp_rd", opp_rd[played])
    V.score("score", score[played])
    return (
        np.where(played, opp_rating, 0.0),
        np.where(played, opp_rd, 1.0),
        np.where(played, score, 0.0),
        played,
    )


def _players(n: int, **arrays):
    """Broadcast per-player inputs to float arrays of shape ``(n,)``."""
    out = []
    for name, value in arrays.items():
        arr = V.as_float_array(name, value)
        try:
            out.append(np.broadcast_to(arr, (n,)).astype(float))
        except ValueError:
            raise ValueError(
                f"{name} must be a number or an array of shape ({n},) (one per player), "
                f"got shape {arr.shape}"
            ) from None
    return out


# --------------------------------------------------------------------------- #
# Lichess
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class LichessConfig:
    """Lichess's Glicko-2 settings (lichess-org/lila ``modules/rating``,
    ``Glicko.scala``; calculator in lichess-org/scalachess ``rating``).

    Modelled by :func:`lichess_game`:

    - ``tau`` 0.75 (scalachess ``Tau.default``);
    - new players ``rating`` 1500, ``rd`` 500 (``maxDeviation``),
      ``volatility`` 0.09 (``defaultVolatility``);
    - each game is its own rating period, computed with
      ``skipDeviationIncrease = true`` (lila ``PerfsUpdater``): step 6 uses 0
      elapsed periods, so ``φ* = φ`` and the volatility does not enter the
      game's rating change;
    - ``Glicko.cap`` on the stored values before the game (``toGlickoPlayer``)
      and after it (``addOrReset``): rating at least ``min_rating`` 400, RD
      within ``min_rd`` 45 … ``max_rd`` 500, volatility at most
      ``max_volatility`` 0.1;
    - after the game the rating moves at most ``max_rating_delta`` 700 points.

    Offered separately: the growth of RD with time between games
    (``liveDeviation``, ``rating_periods_per_day`` 0.21436, "chosen so a
    typical player's RD goes from 60 → 110 in 1 year"), :func:`lichess_live_rd`.

    Left out: the colour advantage of newer lila versions (white's rating
    counted about 5.9 points higher, black's lower, in standard chess),
    per-speed gain factors of ``RatingRegulator`` (set in Lichess's
    configuration, not its code), halving of changes in a human's game against
    a bot, farming/boosting detection, and the reset to the defaults when a
    result fails ``sanityCheck`` (rating outside 0…4000 etc.).

    Every field is checked when the configuration is made: ``tau`` within
    :data:`TAU_RANGE`; ``rating`` and ``min_rating`` within
    ±:data:`RATING_LIMIT`; ``rd``, ``min_rd`` and ``max_rd`` within 0 (excluded)
    … :data:`RD_LIMIT` with ``min_rd ≤ max_rd``; ``volatility`` and
    ``max_volatility`` within :data:`VOLATILITY_RANGE`; ``max_rating_delta``
    within 0 … 20,000; ``provisional_rd`` within 0 … :data:`RD_LIMIT`;
    ``rating_periods_per_day`` within 0 … 1000.

    >>> LichessConfig(tau=0.5).tau
    0.5
    >>> LichessConfig(rd=0)
    Traceback (most recent call last):
        ...
    ValueError: rd must be > 0 and <= 10000, got 0.0
    """

    tau: float = 0.75
    rating: float = 1500.0
    rd: float = 500.0
    volatility: float = 0.09
    min_rd: float = 45.0
    max_rd: float = 500.0
    max_volatility: float = 0.1
    min_rating: float = 400.0
    max_rating_delta: float = 700.0
    provisional_rd: float = 110.0
    rating_periods_per_day: float = 0.21436

    def __post_init__(self):
        checks = {
            "tau": lambda n, x: V.in_range(n, x, *TAU_RANGE),
            "rating": lambda n, x: V.in_range(n, x, -RATING_LIMIT, RATING_LIMIT),
            "rd": lambda n, x: _positive_scalar(n, x, hi=RD_LIMIT),
            "volatility": lambda n, x: V.in_range(n, x, *VOLATILITY_RANGE),
            "min_rd": lambda n, x: _positive_scalar(n, x, hi=RD_LIMIT),
            "max_rd": lambda n, x: _positive_scalar(n, x, hi=RD_LIMIT),
            "max_volatility": lambda n, x: V.in_range(n, x, *VOLATILITY_RANGE),
            "min_rating": lambda n, x: V.in_range(n, x, -RATING_LIMIT, RATING_LIMIT),
            "max_rating_delta": lambda n, x: V.in_range(n, x, 0.0, 2 * RATING_LIMIT),
            "provisional_rd": lambda n, x: V.in_range(n, x, 0.0, RD_LIMIT),
            "rating_periods_per_day": lambda n, x: V.in_range(n, x, 0.0, 1000.0),
        }
        for name, check in checks.items():
            object.__setattr__(self, name, float(check(name, getattr(self, name))))
        if self.min_rd > self.max_rd:
            raise ValueError(
                f"min_rd must be <= max_rd, got min_rd {self.min_rd:g} and max_rd {self.max_rd:g}"
            )

    @property
    def default(self) -> tuple[float, float, float]:
        """The ``(rating, rd, volatility)`` of a new player."""
        return (self.rating, self.rd, self.volatility)


#: The Lichess preset.
LICHESS = LichessConfig()


def _triple(name: str, value):
    kind = f"{name} must be a (rating, rd, volatility) triple"
    items = _items(value, kind)
    if len(items) != 3:
        raise ValueError(f"{kind}, got {len(items)} values")
    r = np.asarray(_rating(f"{name} rating", items[0]), dtype=float)
    d = np.asarray(_rd(f"{name} rd", items[1]), dtype=float)
    v = np.asarray(_volatility(f"{name} volatility", items[2]), dtype=float)
    return r, d, v


def lichess_cap(rating, rd, volatility, config: LichessConfig = LICHESS):
    """Lichess's ``Glicko.cap``: rating ≥ 400, RD in 45…500, volatility ≤ 0.1.

    ``rating`` lies within ±:data:`RATING_LIMIT`, ``rd`` within 0 (excluded) …
    :data:`RD_LIMIT`, ``volatility`` within :data:`VOLATILITY_RANGE`; ``config``
    is a :class:`LichessConfig`.

    >>> lichess_cap(350, 30, 0.2)
    (400.0, 45.0, 0.1)
    """
    config = V.instance("config", config, LichessConfig)
    rating = np.asarray(_rating("rating", rating), dtype=float)
    rd = np.asarray(_rd("rd", rd), dtype=float)
    volatility = np.asarray(_volatility("volatility", volatility), dtype=float)
    return (
        _out(np.maximum(rating, config.min_rating)),
        _out(np.clip(rd, config.min_rd, config.max_rd)),
        _out(np.minimum(volatility, config.max_volatility)),
    )


def lichess_game(player, opponent, score, *, config: LichessConfig = LICHESS):
    """One rated Lichess game, each player's own Glicko-2 rating period.

    ``player`` and ``opponent`` are ``(rating, rd, volatility)`` triples (each
    element a number or an array, for many independent games at once);
    ``score`` is the player's result, 1, 0.5 or 0.  Returns
    ``(new_player, new_opponent)``, two triples, computed as described in
    :class:`LichessConfig` (τ 0.75, no RD growth in the game, caps before and
    after, at most ±700).  Each rating lies within ±:data:`RATING_LIMIT`, each
    RD within 0 (excluded) … :data:`RD_LIMIT`, each volatility within
    :data:`VOLATILITY_RANGE` (all before the caps).

    Two new players, the first wins (lila's own test: 1741 ± 1 and 1258 ± 1,
    RD 396 ± 1, volatility 0.0899983):

    >>> (r1, rd1, v1), (r2, rd2, v2) = lichess_game(LICHESS.default, LICHESS.default, 1)
    >>> round(r1, 1), round(r2, 1), round(rd1, 1), round(v1, 7)
    (1741.5, 1258.5, 396.7, 0.0899983)
    >>> lichess_display(r1, rd1)
    '1741?'
    """
    config = V.instance("config", config, LichessConfig)
    pr, prd, pv = _triple("player", player)
    orr, ord_, ov = _triple("opponent", opponent)
    s = np.asarray(V.score("score", score), dtype=float)
    try:
        shape = np.broadcast_shapes(
            pr.shape, prd.shape, pv.shape, orr.shape, ord_.shape, ov.shape, s.shape
        )
    except ValueError:
        raise ValueError(
            "player, opponent and score must have matching shapes, got "
            f"{[np.shape(x) for x in (pr, prd, pv, orr, ord_, ov, s)]}"
        ) from None
    n = int(np.prod(shape))

    def flat(*xs):
        return np.concatenate([np.broadcast_to(x, shape).ravel() for x in xs])

    # rows 0..n-1: the player's period; rows n..2n-1: the opponent's period
    before = flat(pr, orr)
    rating = np.maximum(before, config.min_rating)
    rd = np.clip(flat(prd, ord_), config.min_rd, config.max_rd)
    vol = np.minimum(flat(pv, ov), config.max_volatility)
    swap = np.concatenate([np.arange(n, 2 * n), np.arange(n)])
    scores = flat(s, 1.0 - s)
    raw_rating, raw_rd, raw_vol = _glicko2_arrays(
        rating,
        rd,
        vol,
        rating[swap, None],
        rd[swap, None],
        scores[:, None],
        None,
        config.tau,
        0.0,
        EPSILON,
    )
    new_rating = np.clip(
        raw_rating, before - config.max_rating_delta, before + config.max_rating_delta
    )
    new_rating = np.maximum(new_rating, config.min_rating)
    new_rd = np.clip(raw_rd, config.min_rd, config.max_rd)
    new_vol = np.minimum(raw_vol, config.max_volatility)

    def pack(part):
        return tuple(_out(x[part].reshape(shape)) for x in (new_rating, new_rd, new_vol))

    return pack(slice(0, n)), pack(slice(n, 2 * n))


def lichess_live_rd(rd, volatility, days, config: LichessConfig = LICHESS):
    """RD after ``days`` without games, as Lichess shows it (``liveDeviation``).

    ``t = days × 0.21436`` rating periods, ``RD' = 173.7178 · sqrt(φ² + t σ²)``,
    kept within 45…500.  The constant was "chosen so a typical player's RD
    goes from 60 → 110 in 1 year" (lila ``Glicko.scala``), which holds for a
    volatility of 0.06.  ``rd`` lies within 0 (excluded) … :data:`RD_LIMIT`,
    ``volatility`` within :data:`VOLATILITY_RANGE`, ``days`` is any number ≥ 0
    (however long the absence, the RD stops at 500):

    >>> round(lichess_live_rd(60, 0.06, 365), 1)
    110.0
    """
    config = V.instance("config", config, LichessConfig)
    rd = np.asarray(_rd("rd", rd), dtype=float)
    volatility = np.asarray(_volatility("volatility", volatility), dtype=float)
    days = np.asarray(V.finite("days", days, lo=0.0), dtype=float)
    # 173.7178 sqrt(φ² + t σ²) = hypot(RD, 173.7178 sqrt(t) σ): no overflow for any t
    growth = np.sqrt(days) * (math.sqrt(config.rating_periods_per_day) * GLICKO2_SCALE)
    new_rd = np.hypot(rd, growth * volatility)
    return _out(np.clip(new_rd, config.min_rd, config.max_rd))


def is_provisional(rd, config: LichessConfig = LICHESS):
    """Whether Lichess shows the rating with a "?": ``RD ≥ 110``.

    ``rd`` lies within 0 … :data:`RD_LIMIT`.

    >>> is_provisional(110), is_provisional(109.9)
    (True, False)
    """
    config = V.instance("config", config, LichessConfig)
    rd = np.asarray(_rd0("rd", rd), dtype=float)
    out = rd >= config.provisional_rd
    return bool(out) if out.ndim == 0 else out


def lichess_display(rating, rd, config: LichessConfig = LICHESS):
    """A rating as Lichess displays it: the whole number (cut, not rounded,
    like lila's ``rating.toInt``) followed by "?" while provisional.
    ``rating`` lies within ±:data:`RATING_LIMIT`, ``rd`` within 0 … :data:`RD_LIMIT`.

    >>> lichess_display(1500, 500), lichess_display(1876.9, 60)
    ('1500?', '1876')
    >>> lichess_display([1500, 2012.5], [500, 45])
    ['1500?', '2012']
    """
    rating = np.asarray(_rating("rating", rating), dtype=float)
    prov = np.asarray(is_provisional(rd, config))
    rating, prov = np.broadcast_arrays(rating, prov)
    whole = np.trunc(rating).astype(np.int64).astype(str)
    texts = np.char.add(whole, np.where(prov, "?", ""))
    return str(texts) if texts.ndim == 0 else texts.tolist()
