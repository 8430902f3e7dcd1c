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
(the formulas, not a fault of the computation).

Every function is vectorised with numpy; :func:`glicko2_batch` rates many
players at once (shape ``(players, games)``) with the Illinois iteration run
for all players together, and :func:`glicko2_update` is a thin wrapper around
it for one player.

Example: the worked example of the Glicko-2 paper.

>>> r, rd, vol = glicko2_update(1500, 200, 0.06,
...                             [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
>>> round(r, 2), round(rd, 2), round(vol, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import contextlib
import math
import threading
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
#: Rating of an unrated player (both papers).
DEFAULT_RATING: float = 1500.0
#: RD of an unrated player (both papers); also the ceiling of :func:`grow_rd`.
DEFAULT_RD: float = 350.0
MAX_RD: float = 350.0
#: Volatility of an unrated player (Glicko-2 paper).
DEFAULT_VOLATILITY: float = 0.06
#: System constant τ used in the Glicko-2 paper's example.
DEFAULT_TAU: float = 0.5
#: RD growth constant c per rating period (the project's default).
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
# over the corners of the ranges, tests/test_glicko.py); the caps only stop a runaway.
_MAX_ILLINOIS_ITERATIONS = 1000
_MAX_BRACKET_STEPS = 10_000


# --------------------------------------------------------------------------- #
# shared helpers
# --------------------------------------------------------------------------- #
def _out(arr):
    arr = np.asarray(arr, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


def _positive_scalar(name: str, value, hi: float | None = None) -> float:
    """A single finite number > 0 (and <= ``hi``)."""
    return V.positive(name, V.in_range(name, value, -math.inf, math.inf), hi=hi)


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


def _config(config) -> "LichessConfig":
    return V.instance("config", config, LichessConfig)


def _results_array(results) -> np.ndarray:
    """``results`` as an ``(m, 3)`` float array of (rating, rd, score)."""
    if isinstance(results, (str, bytes)) or results is None:
        raise TypeError(
            "results must be a sequence of (opponent_rating, opponent_rd, score) triples, "
            f"got {results!r}"
        )
    try:
        items = list(results)
    except TypeError:
        raise TypeError(
            "results must be a sequence of (opponent_rating, opponent_rd, score) triples, "
            f"got {results!r}"
        ) from None
    if not items:
        return np.zeros((0, 3))
    arr = V.as_float_array("results", items)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(
            "results must be a sequence of (opponent_rating, opponent_rd, score) triples, "
            f"got an array of shape {arr.shape}"
        )
    return arr


def _games(opp_rating, opp_rd, score, mask):
    """Validate and broadcast the ``(players, games)`` inputs of a batch.

    Returns float arrays of one shape and the mask (a boolean array, or None
    when every game took place).  Entries outside the mask are not validated
    and are replaced by harmless values (rating 0, RD 1, score 0); their
    weight is zero in every sum.  Opponents' ratings must lie within
    ±:data:`RATING_LIMIT`, their RDs within 0 (excluded) … :data:`RD_LIMIT`.
    """
    opp_rating = V.as_float_array("opp_rating", opp_rating)
    opp_rd = V.as_float_array("opp_rd", opp_rd)
    score = V.as_float_array("score", score)
    arrays = [opp_rating, opp_rd, score]
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            raise TypeError(f"mask must be an array of booleans, got dtype {mask.dtype}")
        arrays.append(mask)
    try:
        if any(x.shape != opp_rating.shape for x in arrays):
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
    if mask is not None:
        mask = arrays[3]
        if mask.all():
            mask = None
    if mask is not None:
        # absent games get valid stand-ins first, so one fast check covers the rest
        opp_rating = np.where(mask, opp_rating, 0.0)
        opp_rd = np.where(mask, opp_rd, 1.0)
        score = np.where(mask, score, 0.0)
    _rating("opp_rating", opp_rating)
    _rd("opp_rd", opp_rd)
    V.score("score", score)
    return opp_rating, opp_rd, score, None if mask is None else np.array(mask, dtype=bool)


def _players(n: int, **arrays):
    """Broadcast per-player inputs to shape ``(n,)``."""
    out = []
    for name, value in arrays.items():
        arr = V.as_float_array(name, value)
        if arr.shape == (n,):  # already a float array of one value per player
            out.append(arr)
            continue
        try:
            arr = np.broadcast_to(arr, (n,)).astype(float)
        except ValueError:
            raise ValueError(
                f"{name} must be a number or an array of shape ({n},) (one per player), "
                f"got shape {arr.shape}"
            ) from None
        out.append(arr)
    return out


# --------------------------------------------------------------------------- #
# Glicko-1
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

    Glickman's example of choosing c: if a typical RD of 50 should take 100
    periods to return to 350, ``c = sqrt((350² - 50²) / 100) ≈ 34.6``.

    >>> grow_rd(50, periods=100, c=34.641016)
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


def _glicko1_core(rating, rd, opp_rating, opp_rd, score, mask):
    gg = 1.0 / np.sqrt(1.0 + 3.0 * Q * Q * opp_rd * opp_rd / (np.pi * np.pi))
    t = 10.0 ** (-gg * (rating[:, None] - opp_rating) / 400.0)
    expected = 1.0 / (1.0 + t)
    if mask is not None:
        gg = gg * mask
    # E (1 - E) with 1 - E = t E: no cancellation where E rounds to 1
    info = Q * Q * np.sum(gg * gg * (t * expected) * expected, axis=1)
    surprise = np.sum(gg * (score - expected), axis=1)
    with np.errstate(divide="ignore"):
        d2 = 1.0 / info  # inf for players without games
    # RD' = 1 / sqrt(1/RD² + 1/d²) = RD / sqrt(1 + RD² / d²) and r' = r + q RD'² Σ g (s - E):
    # the same numbers without dividing by RD² (which underflows for a tiny RD)
    new_rd = rd / np.sqrt(1.0 + rd * rd * info)
    new_rating = rating + Q * (new_rd * new_rd) * surprise
    return {"g": gg, "E": expected, "d2": d2, "rating": new_rating, "rd": new_rd}


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
    opp_rating, opp_rd, score, mask = _games(opp_rating, opp_rd, score, mask)
    rating, rd = _players(opp_rating.shape[0], rating=rating, rd=rd)
    _rating("rating", rating)
    _rd("rd", rd)
    res = _glicko1_core(rating, rd, opp_rating, opp_rd, score, mask)
    return res["rating"], res["rd"]


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
    rating = V.in_range("rating", rating, -RATING_LIMIT, RATING_LIMIT)
    rd = _positive_scalar("rd", rd, hi=RD_LIMIT)
    res = _results_array(results)
    if res.shape[0] == 0:
        return float(rating), float(rd)
    r, d = glicko1_batch(rating, rd, res[None, :, 0], res[None, :, 1], res[None, :, 2])
    return float(r[0]), float(d[0])


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
    rating = V.in_range("rating", rating, -RATING_LIMIT, RATING_LIMIT)
    rd = _positive_scalar("rd", rd, hi=RD_LIMIT)
    res = _results_array(results)
    if res.shape[0] == 0:
        raise ValueError("results must contain at least one game to show the steps, got none")
    opp_rating, opp_rd, score, mask = _games(
        res[None, :, 0], res[None, :, 1], res[None, :, 2], None
    )
    out = _glicko1_core(np.array([rating]), np.array([rd]), opp_rating, opp_rd, score, mask)
    d2 = float(out["d2"][0])
    return {
        "q": Q,
        "g": out["g"][0],
        "E": out["E"][0],
        "d2": d2,
        "d": math.sqrt(d2),
        "rating": float(out["rating"][0]),
        "rd": float(out["rd"][0]),
    }


# --------------------------------------------------------------------------- #
# Glicko-2
# --------------------------------------------------------------------------- #
_WORKSPACE = threading.local()
#: Largest work array (elements) kept for the next call: 8,000,000 = 64 MB.
_WORKSPACE_MAX = 8_000_000
#: Elements (float64) in a 2 MB huge page.
_HUGE_PAGE = 1 << 18


def _scratch(size: int) -> np.ndarray:
    """An uninitialised 1-D float work array of ``size`` elements, reused between calls.

    A rating period's temporaries are a few megabytes.  Freshly allocated memory is
    handed out by the kernel page by page, and on a virtual machine those page faults
    can cost more than the arithmetic; reusing one array avoids them.  The array is kept
    per thread (concurrent calls never share it), and nothing that is returned to a
    caller is a view of it.

    A work array of a megabyte or more starts on a 2 MB boundary of a block of at least
    4 MB: numpy asks the kernel to back blocks that large with 2 MB "huge" pages (where
    it offers them), so the work array needs a few address-translation entries instead
    of hundreds, which counts when the caches are cold.
    """
    buf = getattr(_WORKSPACE, "buf", None)
    if buf is None or buf.size < size:
        if size < _HUGE_PAGE // 2:
            buf = np.empty(size)
        else:
            raw = np.empty(size + 2 * _HUGE_PAGE)  # >= 4 MB: numpy advises huge pages
            start = (-raw.ctypes.data % (_HUGE_PAGE * 8)) // 8
            buf = raw[start:start + size]
        if size <= _WORKSPACE_MAX:
            _WORKSPACE.buf = buf
    return buf[:size]


def _volatility_f(x, a, delta2, pv, tau2, ex=None):
    """The paper's f(x); ``ex`` is e^x when the caller already knows it."""
    if ex is None:
        ex = np.exp(x)
    return ex * (delta2 - pv - ex) / (2.0 * (pv + ex) ** 2) - (x - a) / tau2


def _volatility_f_into(out, x, ex, a, d2pv, pv, tau2, tmp):
    """:func:`_volatility_f` written into ``out`` (``d2pv`` = Δ² - φ² - v, ``tmp`` scratch),
    the same arithmetic in the same order."""
    np.subtract(d2pv, ex, out=out)
    out *= ex
    np.add(pv, ex, out=tmp)
    np.square(tmp, out=tmp)
    tmp *= 2.0
    out /= tmp
    np.subtract(x, a, out=tmp)
    tmp /= tau2
    out -= tmp
    return out


#: ``(players,)`` work rows of :func:`_new_volatility`: two sets of nine rows (the
#: iteration's state, packed from one set into the other) and five temporaries.
_STATE_ROWS = 9
_VOLATILITY_ROWS = 2 * _STATE_ROWS + 5
_NO_ERRSTATE = contextlib.nullcontext()
#: Below this many players still iterating, :func:`_new_volatility` stops packing.
_SMALL_PACK = 256


def _new_volatility(sigma, phi, v, delta, tau, epsilon, work=None, count=True):
    """Step 5 of the Glicko-2 paper, vectorised over players (1-D arrays).

    Returns ``(sigma_new, iterations)`` where ``iterations`` is the number of
    Illinois steps each player needed (None unless ``count``).  Every player follows the paper's
    sequence of A, B and C.  For speed: ``e^x`` is not recomputed where it is
    known (``e^a = σ²``, ``e^(ln(Δ² - φ² - v)) = Δ² - φ² - v``,
    ``e^(a - kτ) = σ² e^(-kτ)``), so the only exponentials per player are one
    per Illinois step and the final ``σ' = e^(A/2)``; each step works only on
    the players still iterating, packed together row by row (a player who
    converges is written out at once, and dropped at the next packing, which waits
    until at least an eighth of the columns are done); "B, f(B) = C, f(C)" swaps
    rows instead of copying them; ``ln(Δ² - φ² - v)`` is taken only where it is
    used; and every temporary lives in ``work`` (``(_VOLATILITY_ROWS, players)``,
    allocated if None).
    """
    n = sigma.shape[0]
    if work is None:
        work = np.empty((_VOLATILITY_ROWS, n))
    cur = list(work[:_STATE_ROWS])
    other = list(work[_STATE_ROWS:2 * _STATE_ROWS])
    tmp = work[2 * _STATE_ROWS:]
    tau2 = tau * tau
    sigma2 = np.multiply(sigma, sigma, out=tmp[0])
    delta2 = np.multiply(delta, delta, out=tmp[1])
    # the state: A, B, f(A), f(B), a = ln σ², Δ² - φ² - v, φ² + v; then C and f(C)
    A, B, fA, fB, a, d2pv, pv, C, fC = cur
    np.multiply(phi, phi, out=pv)
    pv += v
    np.log(sigma2, out=a)
    A[:] = a
    np.subtract(delta2, pv, out=d2pv)
    # B = ln(Δ² - φ² - v) if Δ² > φ² + v, else a - kτ for the smallest k ≥ 1 with
    # f(a - kτ) ≥ 0: first k = 1 for every such player.  a - τ is computed for everyone
    # and the logarithm only for the players who need it; e^B is merged with putmask
    big = delta2 > pv
    np.subtract(a, tau, out=B)
    at = np.flatnonzero(big)
    B[at] = np.log(np.maximum(d2pv[at], np.finfo(float).tiny))
    exB = np.multiply(sigma2, math.exp(-tau), out=tmp[3])
    np.putmask(exB, big, d2pv)
    # f(A) with A = a: the (x - a) / τ² term is exactly 0
    np.subtract(d2pv, sigma2, out=fA)
    fA *= sigma2
    den = np.add(pv, sigma2, out=tmp[2])
    np.square(den, out=den)
    den *= 2.0
    fA /= den
    _volatility_f_into(fB, B, exB, a, d2pv, pv, tau2, tmp[2])
    big |= fB >= 0
    idx = np.flatnonzero(~big)
    k = 2
    while idx.size:  # the rare players for whom k = 1 is not enough
        B[idx] = a[idx] - k * tau
        ex = sigma2[idx] * math.exp(-k * tau)
        fB[idx] = _volatility_f(B[idx], a[idx], delta2[idx], pv[idx], tau2, ex)
        idx = idx[fB[idx] < 0]
        k += 1
        if k > _MAX_BRACKET_STEPS:  # pragma: no cover - f(x) → +∞ as x → -∞
            raise RuntimeError("Glicko-2 volatility: could not bracket the root")
    iterations = np.zeros(n, dtype=int) if count else None
    result = a.copy()  # the final A of every player; converged ones already hold it
    diff = np.subtract(B, A, out=tmp[2])
    live = np.abs(diff, out=diff) > epsilon
    dead = None  # columns already written out but not yet packed away (None: none)
    pack = not live.all()
    pos = None  # player of each packed column (None: column i is player i)
    m = n
    steps = 0
    while True:
        if pack:  # pack the players still iterating into the other rows
            idx = np.flatnonzero(live)
            if not idx.size:
                break
            size = idx.size
            for i in range(_STATE_ROWS - 2):
                np.take(cur[i][:m], idx, out=other[i][:size], mode="clip")
            pos = idx if pos is None else pos.take(idx)
            cur, other, m = other, cur, size
            dead = None
        steps += 1
        if steps > _MAX_ILLINOIS_ITERATIONS:  # pragma: no cover - converges in a few steps
            raise RuntimeError("Glicko-2 volatility: the Illinois iteration did not converge")
        A, B, fA, fB, a, d2pv, pv, C, fC = (row[:m] for row in cur)
        den, ex = tmp[2, :m], tmp[3, :m]
        # columns already written out may run into 0/0 or overflow: no warnings then
        with np.errstate(all="ignore") if dead is not None else _NO_ERRSTATE:
            # C = A + (A - B) f(A) / (f(B) - f(A))
            np.subtract(A, B, out=C)
            C *= fA
            C /= np.subtract(fB, fA, out=den)
            C += A
            np.exp(C, out=ex)
            _volatility_f_into(fC, C, ex, a, d2pv, pv, tau2, den)
            # if f(C) f(B) ≤ 0: A, f(A) = B, f(B), else f(A) = f(A) / 2;
            # then B, f(B) = C, f(C) (by swapping rows)
            swap = np.multiply(fC, fB, out=den) <= 0
            fA /= 2.0
            np.putmask(A, swap, B)
            np.putmask(fA, swap, fB)
            cur[1], cur[7] = cur[7], cur[1]
            cur[3], cur[8] = cur[8], cur[3]
            np.subtract(C, A, out=den)
            live = np.abs(den, out=den) > epsilon
        if dead is not None:  # columns written out before keep iterating, ignored
            live &= ~dead
        if live.all():
            pack = False
            continue
        done = ~live if dead is None else ~(live | dead)
        done = np.flatnonzero(done)
        if done.size:  # write out the players who converged in this step
            at = done if pos is None else pos.take(done)
            result[at] = A.take(done)
            if count:
                iterations[at] = steps
        # a few converged players stay in place (their columns go on iterating,
        # ignored) rather than paying for a pass over every row to drop them; so do
        # all of them once few are left (then every call costs more than its work)
        live_count = np.count_nonzero(live)
        if not live_count:
            break
        pack = (m - live_count) * 8 >= m and m > _SMALL_PACK
        if not pack:
            dead = ~live
    result /= 2.0
    return np.exp(result, out=result), iterations


#: ``(players,)`` work rows of :func:`_glicko2_core` besides the volatility step's.
_CORE_ROWS = 6
#: Games per block of rows in the per-game part of :func:`_glicko2_core` (three
#: temporaries of 256 kB each).
_BLOCK_GAMES = 32_768


def _game_sums(rating, opp_rating, opp_rd, score, mask, gs, x, work, info, surprise):
    """Steps 3-4 per game for a block of rows: ``gs`` = g(φ_j) / 173.7178, ``work``
    = E (returned), ``x`` scratch; the row sums ``info`` = Σ gs² E (1 - E) and
    ``surprise`` = Σ gs (s - E) (the callers scale them by 173.7178² and 173.7178)."""
    # gs = g(φ_j) / 173.7178 = 1 / sqrt(173.7178² + 3 RD_j² / π²),
    # g(φ_j) = 1 / sqrt(1 + 3 φ_j² / π²), φ_j = RD_j / 173.7178
    np.multiply(opp_rd, opp_rd, out=gs)
    gs *= 3.0 / (np.pi * np.pi)
    gs += GLICKO2_SCALE * GLICKO2_SCALE
    np.sqrt(gs, out=gs)
    np.divide(1.0, gs, out=gs)
    if mask is not None:
        gs *= mask  # absent games weigh nothing
    # E = 1 / (1 + exp(-g(φ_j) (μ - μ_j))) = 1 / (1 + exp(gs (r_j - r)))
    # (r_j - r written through the transposed views: numpy then runs the broadcast of r
    # along the players, long inner loops, instead of one short loop per player's games)
    np.subtract(opp_rating.T, rating, out=x.T)
    x *= gs
    np.exp(x, out=x)  # t = exp(gs (r_j - r))
    expected = np.add(x, 1.0, out=work)
    np.divide(1.0, expected, out=expected)
    # 1 / v = Σ g² E (1 - E) = 173.7178² Σ gs² E (1 - E), with 1 - E = t E: no
    # cancellation where E rounds to 1 (a far stronger player), so v stays finite
    x *= expected
    x *= expected
    x *= gs
    np.einsum("ij,ij->i", x, gs, out=info)
    # Σ g (s - E) = 173.7178 Σ gs (s - E)
    np.subtract(score, expected, out=x)
    np.einsum("ij,ij->i", x, gs, out=surprise)
    return expected


def _glicko2_core(rating, rd, volatility, opp_rating, opp_rd, score, mask, tau,
                  elapsed_periods, epsilon, *, details=False):
    """Steps 2-8 of the Glicko-2 paper for ``(players,)`` / ``(players, games)``
    arrays.

    Everything is computed in place in one work array (reused from call to call,
    :func:`_scratch`; fresh when ``details``), with the Glicko-2 scale folded into g
    and the row sums done as fused multiply-sums.  Returns a dict with ``rating``,
    ``rd`` and ``volatility`` (new arrays); ``details`` adds every intermediate value
    (``mu``, ``phi``, ``v``, ``delta``, ``sigma_new``, ``iterations``, ``phi_star``,
    ``phi_new``, ``mu_new``) and the per-game ``opp_mu``, ``opp_phi``, ``g``, ``E``.
    """
    n, games = opp_rating.shape
    # the per-game part runs block by block of rows, so that its three temporaries
    # stay in the CPU's cache (the same numbers: every operation is element-wise or
    # a sum along a row); with ``details`` in one block, whose g and E are returned
    blocks = 1 if details else max(1, -(-n * games // _BLOCK_GAMES))
    block = max(1, -(-n // blocks))  # rows per block, the blocks about equal
    per_game = 3 * block * games
    size = per_game + (_CORE_ROWS + _VOLATILITY_ROWS) * n
    ws = np.empty(size) if details else _scratch(size)
    gs, x, work = ws[:per_game].reshape(3, block, games)
    rows = ws[per_game:].reshape(_CORE_ROWS + _VOLATILITY_ROWS, n)
    info, surprise = rows[0], rows[1]
    expected = work
    for start in range(0, n, block):
        stop = min(n, start + block)
        k = stop - start
        expected = _game_sums(
            rating[start:stop], opp_rating[start:stop], opp_rd[start:stop],
            score[start:stop], None if mask is None else mask[start:stop],
            gs[:k], x[:k], work[:k], info[start:stop], surprise[start:stop],
        )
    info *= GLICKO2_SCALE * GLICKO2_SCALE
    surprise *= GLICKO2_SCALE
    phi = np.divide(rd, GLICKO2_SCALE, out=rows[2])
    v, delta = rows[3], rows[4]
    played = None if mask is None else mask.any(axis=1)
    if played is None or played.all():
        np.divide(1.0, info, out=v)
        np.multiply(v, surprise, out=delta)
        sigma_new, iterations = _new_volatility(volatility, phi, v, delta, tau, epsilon,
                                                rows[_CORE_ROWS:], count=details)
    else:  # players without games: v = ∞ (1/v = 0), Δ = 0, σ unchanged
        v.fill(np.inf)
        delta.fill(0.0)
        sigma_new = np.array(volatility, dtype=float, copy=True)
        iterations = np.zeros(n, dtype=int)
        if played.any():
            p = np.flatnonzero(played)
            v[p] = 1.0 / info[p]
            delta[p] = v[p] * surprise[p]
            sigma_new[p], its = _new_volatility(
                volatility[p], phi[p], v[p], delta[p], tau, epsilon,
                rows[_CORE_ROWS:, :p.size], count=details
            )
            if details:
                iterations[p] = its
    # φ* = sqrt(φ² + t σ'²); φ' = 1 / sqrt(1/φ*² + 1/v), computed as
    # φ'² = φ*² / (1 + φ*² / v) (φ*²/∞ = 0: no games; no division by a φ*² that
    # underflows for a tiny RD); μ' = μ + φ'² Σ g (s - E)
    phi_star2 = np.multiply(sigma_new, elapsed_periods, out=rows[5])
    phi_star2 *= sigma_new
    phi_star2 += np.multiply(phi, phi, out=rows[6])
    phi_new2 = np.divide(phi_star2, v, out=rows[6])
    phi_new2 += 1.0
    np.divide(phi_star2, phi_new2, out=phi_new2)
    step = np.multiply(phi_new2, surprise, out=rows[7])  # φ'² Σ g (s - E) = μ' - μ
    new_rating = step * GLICKO2_SCALE
    new_rating += rating
    new_rd = np.sqrt(phi_new2)
    new_rd *= GLICKO2_SCALE
    out = {
        "rating": new_rating,
        "rd": new_rd,
        "volatility": sigma_new,
    }
    if details:
        mu = (rating - DEFAULT_RATING) / GLICKO2_SCALE
        phi_new = np.sqrt(phi_new2)
        out.update(mu=mu, phi=phi, v=v, delta=delta, sigma_new=sigma_new,
                   iterations=iterations, phi_star=np.sqrt(phi_star2), phi_new=phi_new,
                   mu_new=mu + step, opp_mu=(opp_rating - DEFAULT_RATING) / GLICKO2_SCALE,
                   opp_phi=opp_rd / GLICKO2_SCALE, g=gs * GLICKO2_SCALE, E=expected)
    return out


def _in_range(name: str, value, lo: float, hi: float) -> float:
    """:func:`V.in_range`, answering at once for a plain float within the range
    (a float between two finite bounds is finite); anything else is checked by it."""
    if type(value) is float and lo <= value <= hi:
        return value
    return V.in_range(name, value, lo, hi)


def _glicko2_params(tau, elapsed_periods, epsilon):
    tau = _in_range("tau", tau, *TAU_RANGE)
    elapsed_periods = _in_range("elapsed_periods", elapsed_periods, 0.0, MAX_ELAPSED_PERIODS)
    epsilon = _in_range("epsilon", epsilon, *EPSILON_RANGE)
    return tau, elapsed_periods, epsilon


def glicko2_batch(rating, rd, volatility, opp_rating, opp_rd, score, mask=None,
                  tau=DEFAULT_TAU, *, elapsed_periods=1.0, epsilon=EPSILON):
    """Glicko-2 rating period for many players at once (fully vectorised).

    ``rating``, ``rd`` and ``volatility`` have shape ``(players,)`` (or are
    scalars); ``opp_rating``, ``opp_rd`` and ``score`` have shape
    ``(players, games)``: row i holds the games of player i against opponents'
    *pre-period* ratings and RDs.  ``mask`` (booleans, same shape) marks the
    games that took place; entries where it is False are ignored (they may be
    NaN), and a row without any game only grows its RD.  The Illinois iteration
    of step 5 runs for all players together until every one has converged
    (|B - A| ≤ ``epsilon``); there is no Python loop over players or games.

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
    tau, elapsed_periods, epsilon = _glicko2_params(tau, elapsed_periods, epsilon)
    opp_rating, opp_rd, score, mask = _games(opp_rating, opp_rd, score, mask)
    rating, rd, volatility = _players(
        opp_rating.shape[0], rating=rating, rd=rd, volatility=volatility
    )
    _rating("rating", rating)
    _rd("rd", rd)
    _volatility("volatility", volatility)
    res = _glicko2_core(rating, rd, volatility, opp_rating, opp_rd, score, mask, tau,
                        elapsed_periods, epsilon)
    return res["rating"], res["rd"], res["volatility"]


def _single_glicko2(rating, rd, volatility, results, tau, elapsed_periods, epsilon,
                    need_games=False):
    rating = V.in_range("rating", rating, -RATING_LIMIT, RATING_LIMIT)
    rd = _positive_scalar("rd", rd, hi=RD_LIMIT)
    volatility = V.in_range("volatility", volatility, *VOLATILITY_RANGE)
    tau, elapsed_periods, epsilon = _glicko2_params(tau, elapsed_periods, epsilon)
    res = _results_array(results)
    if res.shape[0] == 0 and need_games:
        raise ValueError("results must contain at least one game to show the steps, got none")
    if res.shape[0] == 0:
        opp = np.zeros((1, 1))
        mask = np.zeros((1, 1), dtype=bool)
        score = np.zeros((1, 1))
        opp_rd = np.zeros((1, 1))
    else:
        opp, opp_rd, score, mask = _games(
            res[None, :, 0], res[None, :, 1], res[None, :, 2], None
        )
    out = _glicko2_core(np.array([rating]), np.array([rd]), np.array([volatility]),
                        opp, opp_rd, score, mask, tau, elapsed_periods, epsilon, details=True)
    return out, res.shape[0]


def glicko2_update(rating, rd, volatility, results, tau=DEFAULT_TAU, *,
                   elapsed_periods=1.0, epsilon=EPSILON):
    """One Glicko-2 rating period for one player (a wrapper of :func:`glicko2_batch`).

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
    out, _ = _single_glicko2(rating, rd, volatility, results, tau, elapsed_periods, epsilon)
    return float(out["rating"][0]), float(out["rd"][0]), float(out["volatility"][0])


def glicko2_steps(rating, rd, volatility, results, tau=DEFAULT_TAU, *,
                  elapsed_periods=1.0, epsilon=EPSILON) -> dict:
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
    out, games = _single_glicko2(rating, rd, volatility, results, tau, elapsed_periods, epsilon,
                                 need_games=True)
    steps = {}
    for key in ("mu", "phi", "v", "delta", "sigma_new", "phi_star", "phi_new", "mu_new",
                "rating", "rd", "volatility"):
        steps[key] = float(out[key][0])
    steps["iterations"] = int(out["iterations"][0])
    steps["a"] = math.log(float(volatility) ** 2)
    for key in ("opp_mu", "opp_phi", "g", "E"):
        steps[key] = out[key][0, :games].copy()
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
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a (rating, rd, volatility) triple, got {value!r}")
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(f"{name} must be a (rating, rd, volatility) triple, got {value!r}") from None
    if len(items) != 3:
        raise ValueError(f"{name} must be a (rating, rd, volatility) triple, got {len(items)} values")
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
    config = _config(config)
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
    config = _config(config)
    pr, prd, pv = _triple("player", player)
    orr, ord_, ov = _triple("opponent", opponent)
    s = np.asarray(V.score("score", score), dtype=float)
    try:
        shape = np.broadcast_shapes(pr.shape, prd.shape, pv.shape, orr.shape, ord_.shape,
                                    ov.shape, s.shape)
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
    res = _glicko2_core(rating, rd, vol, rating[swap, None], rd[swap, None], scores[:, None],
                        None, config.tau, 0.0, EPSILON)
    new_rating = np.clip(res["rating"], before - config.max_rating_delta,
                         before + config.max_rating_delta)
    new_rating = np.maximum(new_rating, config.min_rating)
    new_rd = np.clip(res["rd"], config.min_rd, config.max_rd)
    new_vol = np.minimum(res["volatility"], config.max_volatility)

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
    config = _config(config)
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
    config = _config(config)
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
