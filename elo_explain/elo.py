"""The generic Elo formula, as the Telugu and Ukrainian calculators use it.

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

FIDE itself rates with a conversion table and its own K rules: see
:mod:`elo_explain.fide`.

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

__all__ = [
    "DEFAULT_DIVISOR",
    "K_CHOICES",
    "RatingPeriod",
    "expected_score",
    "rating_change",
    "rating_period",
    "multi_game",
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
    return RatingPeriod(rating=float(r), k=float(kk), divisor=float(d), opponents=opponents,
                        scores=scores, expected=expected, changes=changes, total_change=total,
                        new_rating=float(r) + total)


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
