"""The generic Elo formula, and the two chess calculators of the documents, as they describe them.

Arpad Elo's system looks only at results. For a player rated ``R_own`` against an
opponent rated ``R_opponent`` the *expected score* -- expected points per game, a
draw counting half, not a win probability -- is the logistic curve ::

    E = 1 / (1 + 10 ** ((R_opponent - R_own) / divisor))        divisor = 400 in chess

Equal ratings give 0.5, and every ``divisor`` points of difference multiply the odds
by ten. After a game the rating moves by ::

    change = K * (score - E)                score: 1 win, 0.5 draw, 0 loss

so with equal K one player's gain is exactly the other's loss. Over a rating period
FIDE (and the Telugu calculator) computes every game from the ratings at the start
of the period and adds the changes up (:func:`rating_period`); the Ukrainian
calculator's multi-game mode takes total points against an opponent of average
rating (:func:`multi_game`). :func:`expected_score` and :func:`rating_change` take numpy
arrays, so the ladder (:mod:`elo_explain.simulate`) rates a whole round in one call.

Configuration (module constants, all overridable per call):

=====================  =======  =================================================
``DEFAULT_DIVISOR``    400      the logistic scale; 400 in chess (Gammon42: 1200)
``K_CHOICES``          40/20/10 the K-factors the documents' calculators offer
=====================  =======  =================================================

The documents' calculators (``docs/sources.md``), each exactly as its page describes it:

* :func:`telugu_calculator` -- the Telugu page's calculator (``docs/sources.md#telugu``):
  the ÷400 formula, every game of a period from the starting rating and the changes summed;
  K 40, 20 or 10, or a K the user sets by the 700 rule (the calculator does not apply that
  rule itself); the 400-point rule applied when it is switched on (for every rating: the page
  says to switch it off for players rated 2650 or more); a whole-number new rating (its
  example shows 1501 for 1501.4).
* :func:`ukrainian_calculator` -- the Ukrainian page's calculator
  (``docs/sources.md#ukrainian``): ``Ra + K·(S − E)`` for one game and ``Ra + K·(points −
  G·E)`` against the *average* opponent in its multi-game mode, with the K the user typed: no
  700 rule, no 400-point rule and no rounding (the page states none).

FIDE itself rates with a conversion table and its own K rules: see :mod:`elo_explain.fide`,
whose :func:`~elo_explain.fide.beside_calculator` rates a calculator's games the FIDE way and
names every difference. The average-opponent shortcut's error against the per-game sum is
:func:`averaging_error` (:func:`spread_opponents` makes the evenly spread fields it is plotted
for).

Example -- the Telugu document's period (K 20, rating 1500)::

    >>> p = rating_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20)
    >>> [round(float(e), 2) for e in p.expected]
    [0.64, 0.36, 0.43]
    >>> [round(float(c), 1) for c in p.changes]
    [7.2, 2.8, -8.6]
    >>> round(p.total_change, 1), round(p.new_rating)
    (1.4, 1501)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validate as v
from .rounding import round_half_away

__all__ = [
    "DEFAULT_DIVISOR",
    "K_CHOICES",
    "RatingPeriod",
    "expected_score",
    "rating_change",
    "rating_period",
    "multi_game",
    "CalculatorResult",
    "telugu_calculator",
    "ukrainian_calculator",
    "averaging_error",
    "spread_opponents",
]

#: The logistic scale of chess Elo: 400 points of difference = odds of ten to one.
DEFAULT_DIVISOR = 400
#: The K-factors offered by the documents' calculators (new/young, club, masters).
K_CHOICES = (40, 20, 10)


def _out(arr):
    arr = np.asarray(arr, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


#: ln 10: ``10 ** (x / divisor) == exp(x * LN10 / divisor)``.
_LN10 = math.log(10.0)


def _expected(rating, opponent, divisor):
    """The logistic curve on already validated numbers or arrays (no checks).

    ``10 ** (x / divisor)`` is computed as ``exp(x * ln 10 / divisor)``: the same curve, and
    ``np.exp`` costs a third of ``np.power``.
    """
    with np.errstate(over="ignore"):  # exp(huge) = inf gives E = 0, which is the limit
        x = np.subtract(opponent, rating, dtype=float)
        return 1.0 / (1.0 + np.exp(x * (_LN10 / divisor)))


def expected_score(rating, opponent, divisor=DEFAULT_DIVISOR):
    """Expected score of ``rating`` against ``opponent``: ``1 / (1 + 10**((opponent - rating) / divisor))``.

    Ratings may be numbers or numpy arrays (they broadcast); a scalar input gives a
    ``float``. ``divisor`` must be > 0.

    Telugu document: 1500 against 1700 expects 0.24 points per game; equal ratings 0.5
    (Ukrainian document):

    >>> round(expected_score(1500, 1700), 2)
    0.24
    >>> expected_score(1600, 1600)
    0.5
    >>> expected_score(1500, [1400, 1600, 1550]).round(2)
    array([0.64, 0.36, 0.43])
    """
    r = np.asarray(v.finite("rating", rating))
    o = np.asarray(v.finite("opponent", opponent))
    d = np.asarray(v.positive("divisor", divisor))
    return _out(_expected(r, o, d))


def rating_change(score, expected, k):
    """Rating change for one game: ``k * (score - expected)``.

    ``score`` is 1 (win), 0.5 (draw) or 0 (loss); ``expected`` lies in 0..1; ``k`` > 0.
    Arrays broadcast.

    A draw against a stronger player (E 0.24, K 20) gains points, and the opponent with
    the same K loses exactly as much:

    >>> e = expected_score(1500, 1700)
    >>> round(rating_change(0.5, e, 20), 2), round(rating_change(0.5, 1 - e, 20), 2)
    (5.19, -5.19)
    """
    s = np.asarray(v.score("score", score))
    e = np.asarray(v.finite("expected", expected, lo=0.0, hi=1.0))
    kk = np.asarray(v.positive("k", k))
    return _out(kk * (s - e))


def _parse_results(results) -> tuple[np.ndarray, np.ndarray]:
    """``results`` (a sequence of ``(opponent_rating, score)``) as two validated arrays."""
    if isinstance(results, (str, bytes)) or results is None:
        raise TypeError(
            f"results must be a sequence of (opponent_rating, score) pairs, got {results!r}"
        )
    try:
        arr = np.array(results, dtype=float)  # a copy: the result keeps it
    except (TypeError, ValueError):
        raise TypeError(
            "results must be a sequence of (opponent_rating, score) pairs of numbers, "
            f"got {results!r}"
        ) from None
    if arr.size == 0:
        arr = arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(
            "results must be a sequence of (opponent_rating, score) pairs, "
            f"got an array of shape {arr.shape}"
        )
    opponents = np.asarray(v.finite("opponent rating in results", arr[:, 0]), dtype=float)
    scores = np.asarray(v.score("score in results", arr[:, 1]), dtype=float)
    return opponents, scores


class _Games:
    """Totals over the games of a period result that has ``scores`` and ``expected`` per
    game (:class:`RatingPeriod` here, :class:`elo_explain.fide.FidePeriod`)."""

    @property
    def games(self) -> int:
        """Number of games in the period."""
        return int(self.scores.size)

    @property
    def points(self) -> float:
        """Points scored (Σ score)."""
        return float(self.scores.sum())

    @property
    def expected_points(self) -> float:
        """Expected points (Σ E)."""
        return float(self.expected.sum())


@dataclass(frozen=True, eq=False)
class RatingPeriod(_Games):
    """Result of :func:`rating_period`: one entry per game, every game from the start rating.

    Attributes: ``rating``, ``k``, ``divisor`` (the inputs), ``opponents`` and ``scores``
    (arrays), ``expected`` and ``changes`` (arrays, one per game, unrounded),
    ``total_change`` (their sum) and ``new_rating`` (``rating + total_change``, unrounded).
    The arrays are read-only.
    """

    rating: float
    k: float
    divisor: float
    opponents: np.ndarray
    scores: np.ndarray
    expected: np.ndarray
    changes: np.ndarray
    total_change: float
    new_rating: float


def rating_period(rating, results, k, divisor=DEFAULT_DIVISOR) -> RatingPeriod:
    """Rate a period of games, each computed from the *starting* ratings, as FIDE sums a period.

    ``results`` is a sequence of ``(opponent_rating, score)`` pairs (or an ``(n, 2)``
    array); ``rating`` is one finite number, ``k`` > 0, ``divisor`` > 0. Nothing is
    rounded: ``new_rating`` is ``rating + total_change``.

    The Telugu document (K 20, rating 1500: win against 1400, draw against 1600, loss
    against 1550) prints +7.2, +2.8, -8.6, total +1.4, new rating 1501:

    >>> p = rating_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20)
    >>> p.changes.round(1)
    array([ 7.2,  2.8, -8.6])
    >>> round(p.total_change, 2), round(p.new_rating, 2)
    (1.43, 1501.43)
    """
    r = v.number("rating", rating)
    kk = v.positive("k", v.number("k", k))
    d = v.positive("divisor", v.number("divisor", divisor))
    opponents, scores = _parse_results(results)
    expected = _expected(np.float64(r), opponents, d)
    changes = kk * (scores - expected)
    total = float(changes.sum())
    v.readonly(opponents, scores, expected, changes)
    return RatingPeriod(
        rating=float(r),
        k=float(kk),
        divisor=float(d),
        opponents=opponents,
        scores=scores,
        expected=expected,
        changes=changes,
        total_change=total,
        new_rating=float(r) + total,
    )


def multi_game(rating, average_opponent, games, points, k, divisor=DEFAULT_DIVISOR):
    """New rating after ``games`` games against an opponent of average rating: ``rating + k * (points - games * E)``.

    This is the Ukrainian calculator's multi-game mode. ``games`` is a whole number
    >= 0; ``points`` is a multiple of 0.5 between 0 and ``games``; ``rating`` and
    ``average_opponent`` may be arrays (they broadcast). The result is unrounded.

    Five games against an average of 1500 with 3.5 points, K 20 (E = 0.5 per game):

    >>> multi_game(1500, 1500, games=5, points=3.5, k=20)
    1520.0
    >>> round(multi_game(1500, 1700, games=1, points=0.5, k=20), 2)  # a draw up 200
    1505.19
    """
    r = np.asarray(v.finite("rating", rating))
    o = np.asarray(v.finite("average_opponent", average_opponent))
    g = v.integer("games", games, lo=0)
    p = v.number("points", points)
    if not (0 <= p <= g) or 2 * p != np.floor(2 * p):
        raise ValueError(
            f"points must be a multiple of 0.5 between 0 and games ({g}), got {points!r}"
        )
    kk = np.asarray(v.positive("k", k))
    d = np.asarray(v.positive("divisor", divisor))
    return _out(r + kk * (p - g * _expected(r, o, d)))


# ---------------------------------------------------------------- the documents' calculators
#: Sanity bounds of the calculators' inputs, far beyond any real rating, K or period.
_MAX_RATING, _MAX_K, _MAX_GAMES = 100_000, 1000, 100_000


def _rating_in(name, value):
    return v.finite(name, v.number(name, value), lo=-_MAX_RATING, hi=_MAX_RATING)


def _k_in(value):
    return v.positive("k", v.number("k", value), hi=_MAX_K)


@dataclass(frozen=True, eq=False)
class CalculatorResult(_Games):
    """What one of the documents' calculators shows (:func:`telugu_calculator`,
    :func:`ukrainian_calculator`); the arrays are per game and read-only.

    ``document`` -- ``"telugu"`` or ``"ukrainian"`` (the anchor of its section in
    ``docs/sources.md``); ``rating``, ``k`` (as the user chose it: nothing lowers it);
    ``opponents``, ``scores``; ``differences`` (own − opponent as the calculator uses it: the
    Telugu calculator's 400-point rule applied when on); ``expected`` (E by the ÷400 formula);
    ``change`` (``k × Σ(score − E)``, unrounded); ``unrounded_rating`` (``rating + change``);
    ``new_rating`` (what the calculator shows: a whole number on the Telugu page, the
    unrounded value on the Ukrainian one); ``cap_400`` (the 400-point rule was on).
    """

    document: str
    rating: float
    k: float
    opponents: np.ndarray
    scores: np.ndarray
    differences: np.ndarray
    expected: np.ndarray
    change: float
    unrounded_rating: float
    new_rating: float
    cap_400: bool


def _calculator(document, rating, opponents, scores, k, cap_400, whole) -> CalculatorResult:
    """Rate validated games from the starting rating with the ÷400 formula (no checks)."""
    diff = rating - opponents
    if cap_400:
        diff = np.clip(diff, -400.0, 400.0)  # the Telugu page's 400-point rule, any rating
    expected = _expected(np.zeros(()), -diff, float(DEFAULT_DIVISOR))
    change = float((k * (scores - expected)).sum())
    unrounded = rating + change
    shown = round_half_away(unrounded) if whole else unrounded
    v.readonly(opponents, scores, diff, expected)
    return CalculatorResult(
        document=document,
        rating=rating,
        k=k,
        opponents=opponents,
        scores=scores,
        differences=diff,
        expected=expected,
        change=change,
        unrounded_rating=unrounded,
        new_rating=shown,
        cap_400=bool(cap_400),
    )


def telugu_calculator(rating, results, *, k, cap_400=True) -> CalculatorResult:
    """The Telugu page's calculator (``docs/sources.md#telugu``): one game or a rating period.

    ``results`` is a sequence of ``(opponent_rating, score)`` pairs (score 1, 0.5 or 0), every
    game computed from the starting ratings with the ÷400 formula and the changes summed, as
    the page says FIDE does and "the calculator above works the same way". ``k`` is the K the
    user chose (> 0): the page offers 40, 20 or 10 and tells a player of many games to set K
    by the 700 rule themselves, so no rule lowers it here. With ``cap_400`` (the page's
    "400-point rule" switch, on by default) a difference of more than 400 counts as 400 for
    any rating: the page tells players rated 2650 or more to switch it off. The new rating is
    shown as a whole number (the page's period: +1.4, "new rating 1501"); the page does not
    say how a half rounds, and this follows FIDE (half away from zero). Ratings lie within
    ±100,000 and K is at most 1000 (sanity bounds).

    The page's period, K 20, 1500 (win against 1400, draw against 1600, loss against 1550):

    >>> p = telugu_calculator(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20)
    >>> p.expected.round(2), round(p.change, 1), p.new_rating
    (array([0.64, 0.36, 0.43]), 1.4, 1501.0)

    Its 400-point example, 1500 beats 1000 (K 20): E 0.91 and +1.8 with the rule on, E 0.95 and
    about +1.1 with it off:

    >>> on = telugu_calculator(1500, [(1000, 1)], k=20)
    >>> off = telugu_calculator(1500, [(1000, 1)], k=20, cap_400=False)
    >>> (round(float(on.expected[0]), 2), round(on.change, 1)), (round(float(off.expected[0]), 2), round(off.change, 1))
    ((0.91, 1.8), (0.95, 1.1))
    """
    r = _rating_in("rating", rating)
    kk = _k_in(k)
    cap = v.flag("cap_400", cap_400)
    opponents, scores = _parse_results(results)
    v.finite("opponent rating in results", opponents, lo=-_MAX_RATING, hi=_MAX_RATING)
    return _calculator("telugu", float(r), opponents, scores, float(kk), cap, whole=True)


def ukrainian_calculator(rating, opponent, points, *, k, games=1) -> CalculatorResult:
    """The Ukrainian page's calculator (``docs/sources.md#ukrainian``), exactly as it states it.

    One game (``games=1``, ``points`` the score 1, 0.5 or 0): ``Ra + K·(S − E)``. Its
    multi-game mode (``games`` = G > 1, ``opponent`` the *average* rating of the field,
    ``points`` the total scored, a multiple of 0.5 from 0 to G): ``Ra + K·(points − G·E)``,
    E = 1 / (1 + 10^((Rb − Ra) / 400)) against the average. ``k`` is the K the user typed
    (> 0). Nothing else: no 700 rule, no 400-point rule, no rounding -- the page states none.
    The per-game ``scores`` of a multi-game result are wins, then a draw, then losses adding
    up to ``points`` (only their sum enters the formula). Ratings lie within ±100,000, K is at
    most 1000 and ``games`` at most 100,000 (sanity bounds).

    K 40, 1500, 20 games with 10 points against an average of 1600 (E 0.360 a game), and K 20,
    5 of 5 against an average of 1000 (E 0.947):

    >>> round(ukrainian_calculator(1500, 1600, 10, k=40, games=20).new_rating, 2)
    1612.05
    >>> round(ukrainian_calculator(1500, 1000, 5, k=20, games=5).new_rating, 2)
    1505.32

    A draw against a higher-rated opponent gains (E below 0.5), as the page's last answer says:

    >>> round(ukrainian_calculator(1500, 1700, 0.5, k=20).change, 2)
    5.19
    """
    r = _rating_in("rating", rating)
    o = _rating_in("opponent", opponent)
    g = v.integer("games", games, lo=1, hi=_MAX_GAMES)
    p = v.number("points", points)
    if not (0 <= p <= g) or 2 * p != np.floor(2 * p):
        raise ValueError(
            f"points must be a multiple of 0.5 between 0 and games ({g}), got {points!r}"
        )
    kk = _k_in(k)
    wins, draw = int(p), int(2 * p) % 2
    scores = np.array([1.0] * wins + [0.5] * draw + [0.0] * (g - wins - draw))
    return _calculator(
        "ukrainian", float(r), np.full(g, float(o)), scores, float(kk), False, whole=False
    )


# ------------------------------------------------------------ the average-opponent shortcut
def averaging_error(rating, opponents, k, divisor=DEFAULT_DIVISOR):
    """What the average-opponent shortcut gets wrong: shortcut − per-game sum, in rating points.

    The shortcut (the Ukrainian calculator's multi-game mode) rates G games against the
    average ā of the opponents, ``K·(points − G·E(ā))``; FIDE sums every game,
    ``K·(points − Σ E(o_i))``. The points cancel: the error is ``K·(Σ E(o_i) − G·E(ā))``, zero
    when all opponents share one rating, and growing with their spread (E is not linear).
    ``opponents`` holds one field per row, the games along the last axis (a 1-D array is one
    field; every row is one period); ``rating``, ``k`` > 0 and ``divisor`` > 0 are numbers.
    Ratings lie within ±100,000 and K is at most 1000 (sanity bounds).

    The Telugu page's period (1500 against 1400, 1600 and 1550, K 20): the shortcut is
    0.009 points above the per-game sum:

    >>> round(averaging_error(1500, [1400, 1600, 1550], k=20), 4)
    0.0088
    >>> averaging_error(1500, [[1600, 1600], [1300, 1900]], k=20).round(2)
    array([0.  , 2.62])
    """
    r = _rating_in("rating", rating)
    o = np.asarray(v.finite("opponents", opponents, lo=-_MAX_RATING, hi=_MAX_RATING), dtype=float)
    if o.ndim == 0 or o.shape[-1] == 0:
        raise ValueError("opponents must hold at least one opponent's rating per field")
    kk = _k_in(k)
    d = v.positive("divisor", v.number("divisor", divisor))
    per_game = _expected(np.float64(r), o, d).sum(axis=-1)
    at_average = o.shape[-1] * _expected(np.float64(r), o.mean(axis=-1), d)
    return _out(kk * (per_game - at_average))


def spread_opponents(average, games, spread):
    """Fields of ``games`` opponents spread evenly around ``average``: half at ``average −
    s``, half at ``average + s`` (one at ``average`` when ``games`` is odd), one field per
    ``s`` in ``spread`` (a number or a 1-D array); shape ``(len(spread), games)``. The
    average and the spreads lie within 100,000 points, ``games`` is at most 100,000.

    >>> spread_opponents(1600, 3, [0, 100])
    array([[1600., 1600., 1600.],
           [1500., 1700., 1600.]])
    """
    a = _rating_in("average", average)
    g = v.integer("games", games, lo=1, hi=_MAX_GAMES)
    s = np.atleast_1d(np.asarray(v.finite("spread", spread, lo=0.0, hi=_MAX_RATING), dtype=float))
    if s.ndim != 1:
        raise ValueError(f"spread must be a number or a flat list of numbers, got shape {s.shape}")
    signs = np.array([-1.0, 1.0] * (g // 2) + [0.0] * (g % 2))
    return a + s[:, None] * signs[None, :]
