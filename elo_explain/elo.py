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
rating (:func:`multi_game`). Many players' periods are rated at once, one numpy pass per
step over every game, by :func:`rating_period_batch` (opponents' ratings per game) and
:func:`pool_period` (players of one pool playing each other, opponents by index: one
power per player instead of one per game, as ``E = Q / (Q + Q_opponent)`` with
``Q = 10 ** (R / divisor)``).

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
from dataclasses import FrozenInstanceError, dataclass

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
    "RatingPeriods",
    "rating_period_batch",
    "pool_period",
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


def _expected(rating: np.ndarray, opponent: np.ndarray, divisor) -> np.ndarray:
    """The logistic curve on already validated arrays (no checks).

    ``10 ** (x / divisor)`` is computed as ``exp(x * (ln 10 / divisor))``: the same curve,
    and ``np.exp`` costs a fraction of ``np.power``. Arrays are worked on in place in the
    one new array ``opponent - rating``.
    """
    scale = _LN10 / divisor
    x = np.subtract(opponent, rating, dtype=float)
    with np.errstate(over="ignore"):  # exp(huge) -> inf -> E = 0, which is the limit
        if isinstance(x, np.ndarray) and x.ndim and np.ndim(scale) == 0:
            x *= scale
            np.exp(x, out=x)
            x += 1.0
            return np.divide(1.0, x, out=x)
        return 1.0 / (1.0 + np.exp(x * scale))


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
        arr = np.asarray(results, dtype=float)
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


def _scalar(name: str, value) -> float:
    """One finite number (``TypeError`` for an array, ``ValueError`` for nan/inf)."""
    return v.in_range(name, value, -np.inf, np.inf)


def _freeze(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)


@dataclass(frozen=True, eq=False)
class RatingPeriod:
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

    @property
    def games(self) -> int:
        """Number of games in the period."""
        return int(self.scores.size)


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
    r = _scalar("rating", rating)
    kk = v.positive("k", _scalar("k", k))
    d = v.positive("divisor", _scalar("divisor", divisor))
    opponents, scores = _parse_results(results)
    expected = _expected(np.float64(r), opponents, d)
    changes = kk * (scores - expected)
    total = float(changes.sum())
    _freeze(opponents, scores, expected, changes)
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
    p = _scalar("points", points)
    if not (0 <= p <= g) or 2 * p != np.floor(2 * p):
        raise ValueError(
            f"points must be a multiple of 0.5 between 0 and games ({g}), got {points!r}"
        )
    kk = np.asarray(v.positive("k", k))
    d = np.asarray(v.positive("divisor", divisor))
    return _out(r + kk * (p - g * _expected(r, o, d)))


# --------------------------------------------------------------------------- #
# many players at once
# --------------------------------------------------------------------------- #
@dataclass(frozen=True, eq=False)
class RatingPeriods:
    """Result of :func:`rating_period_batch` and :func:`pool_period`: one row per player.

    Attributes (read-only arrays): ``rating`` and ``k`` (shape ``(players,)``, the inputs
    broadcast), ``divisor`` (a float), ``expected`` and ``changes`` (shape
    ``(players, games)``, unrounded; a game that did not take place has expected score
    ``nan`` and change 0), ``total_change`` (row sums of ``changes``) and ``new_rating``
    (``rating + total_change``, unrounded). Row ``i`` holds what :func:`rating_period`
    gives for player ``i``'s games.
    """

    rating: np.ndarray
    k: np.ndarray
    divisor: float
    expected: np.ndarray
    changes: np.ndarray
    total_change: np.ndarray
    new_rating: np.ndarray

    @property
    def games(self) -> np.ndarray:
        """Number of games of each player (``(players,)`` integers)."""
        return np.count_nonzero(~np.isnan(self.expected), axis=1)


def _mask(mask, shape):
    """``None`` when every game took place, else a boolean array of ``shape``."""
    if mask is None:
        return None
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(f"mask must be an array of booleans, got dtype {m.dtype}")
    try:
        m = np.broadcast_to(m, shape)
    except ValueError:
        raise ValueError(
            f"mask must have the shape of the games (players, games) = {shape}, "
            f"got shape {m.shape}"
        ) from None
    return None if m.all() else m


def _per_player(name: str, value, n: int, check) -> np.ndarray:
    """A number or a ``(players,)`` array, validated by ``check``, as a read-only ``(n,)``
    array (a number is broadcast, with stride 0)."""
    arr = np.array(check(name, value), dtype=float)  # a copy: the result keeps it
    if arr.ndim > 1 or arr.ndim == 1 and arr.shape[0] != n:
        raise ValueError(
            f"{name} must be a number or an array of shape ({n},) (one per player), "
            f"got shape {arr.shape}"
        )
    arr.setflags(write=False)
    return arr if arr.ndim else _repeat(arr, n)


def _repeat(arr: np.ndarray, n: int) -> np.ndarray:
    """A read-only 0-d float array seen as ``(n,)`` with stride 0 (what ``broadcast_to``
    makes, without its cost of several microseconds)."""
    return np.ndarray((n,), float, arr, 0, (0,))


#: The largest finite float.
_MAX = float(np.finfo(float).max)


def _positive_number(name: str, value) -> float:
    """``value`` as one finite number > 0: a plain ``float``/``int`` is checked directly,
    anything else by the validators (same messages)."""
    if (type(value) is float or type(value) is int) and 0 < value <= _MAX:
        return float(value)
    return v.positive(name, _scalar(name, value))


def _scores_2d(scores, shape, mask) -> np.ndarray:
    """``scores`` broadcast to ``shape``, validated where ``mask`` (or everywhere)."""
    s = v.as_float_array("scores", scores)
    try:
        s = np.broadcast_to(s, shape)
    except ValueError:
        raise ValueError(
            f"scores must have the shape of the games (players, games) = {shape}, "
            f"got shape {s.shape}"
        ) from None
    if mask is None:
        v.score("scores", s)
    elif not ((s == 0.0) | (s == 0.5) | (s == 1.0) | ~mask).all():
        v.score("scores", s[mask])
    return s


def _finish(rating, kk, d, buf, scores, mask) -> RatingPeriods:
    """Changes, totals and the result from ``buf[0]`` holding E (``buf[1]`` is free).

    ``expected`` and ``changes`` share one ``(2, players, games)`` allocation and no other
    array of that size is made: fresh memory costs page faults, which on a virtual
    machine can cost more than the arithmetic.
    """
    expected, changes = buf[0], buf[1]
    if mask is None:
        np.subtract(scores, expected, out=changes)
    else:
        changes.fill(0.0)
        np.subtract(scores, expected, out=changes, where=mask)
        np.copyto(expected, np.nan, where=~mask)
    # one K for everyone (a broadcast number, stride 0) multiplies faster as a scalar
    changes *= kk[:, None] if kk.strides[0] or not kk.size else kk[0]
    # a matrix-vector product sums short rows several times faster than .sum(axis=1)
    total = changes @ np.ones(changes.shape[1])
    new = rating + total
    _freeze(buf, expected, changes, total, new)
    return RatingPeriods(rating=rating, k=kk, divisor=float(d), expected=expected,
                         changes=changes, total_change=total, new_rating=new)


def rating_period_batch(ratings, opponent_ratings, scores, k, mask=None,
                        divisor=DEFAULT_DIVISOR) -> RatingPeriods:
    """Rate one period for many players at once: :func:`rating_period` for every row.

    ``opponent_ratings`` and ``scores`` have shape ``(players, games)``: row ``i`` holds
    player ``i``'s games (opponents' ratings at the start of the period; scores 1, 0.5
    or 0). ``ratings`` and ``k`` are numbers or ``(players,)`` arrays (K > 0 may differ
    per player), ``divisor`` > 0 one number. ``mask`` (booleans, same shape) marks the
    games that took place, so players may have different numbers of games; entries where
    it is False are not validated (they may be NaN). Every game is computed from the
    starting ratings and the changes are summed, nothing rounded. One numpy pass per
    step over all games, no Python loop. Returns :class:`RatingPeriods`.

    The Telugu document's period (K 20, rating 1500: win against 1400, draw against
    1600, loss against 1550; printed +7.2, +2.8, -8.6, total +1.4, new rating 1501) for
    two players, the second of whom played only the first game:

    >>> p = rating_period_batch([1500, 1500], [[1400, 1600, 1550], [1400, 0, 0]],
    ...                         [[1, 0.5, 0], [1, 0, 0]], k=20,
    ...                         mask=[[True, True, True], [True, False, False]])
    >>> p.changes.round(1)
    array([[ 7.2,  2.8, -8.6],
           [ 7.2,  0. ,  0. ]])
    >>> p.total_change.round(1), p.new_rating.round()
    (array([1.4, 7.2]), array([1501., 1507.]))
    >>> p.games
    array([3, 1])
    """
    opp = v.as_float_array("opponent_ratings", opponent_ratings)
    if opp.ndim != 2:
        raise ValueError(
            "opponent_ratings must be 2-dimensional (players, games), "
            f"got shape {opp.shape}"
        )
    shape = opp.shape
    d = v.positive("divisor", _scalar("divisor", divisor))
    r = _per_player("ratings", ratings, shape[0], v.finite)
    kk = _per_player("k", k, shape[0], v.positive)
    m = _mask(mask, shape)
    s = _scores_2d(scores, shape, m)
    buf = np.empty((2,) + shape)
    x = buf[0]
    if m is None:
        v.finite("opponent_ratings", opp)
        np.subtract(opp, r[:, None], out=x)
    else:
        if not (np.isfinite(opp) | ~m).all():
            v.finite("opponent_ratings", opp[m])
        x.fill(0.0)  # absent games: a harmless stand-in, overwritten with nan at the end
        np.subtract(opp, r[:, None], out=x, where=m)
    # E = 1 / (1 + 10 ** (x / divisor)) = 1 / (1 + exp(x ln 10 / divisor)), in place
    x *= _LN10 / d
    with np.errstate(over="ignore"):  # exp(huge) = inf gives E = 0, the limit
        np.exp(x, out=x)
    x += 1.0
    np.divide(1.0, x, out=x)
    return _finish(r, kk, d, buf, s, m)


def _lazy_per_game(name: str, doc: str) -> property:
    """A per-game attribute of :class:`_PoolPeriods`, computed on first access.

    Reading goes through :meth:`_PoolPeriods._per_game`; the setter is reached only through
    ``object.__setattr__`` (the dataclass ``__init__``, e.g. in ``dataclasses.replace``):
    the frozen ``__setattr__`` still refuses ``p.expected = ...``.
    """

    def get(self):
        try:
            return self.__dict__[name]
        except KeyError:
            self._per_game()
            return self.__dict__[name]

    def put(self, value):
        self.__dict__[name] = value

    return property(get, put, doc=doc)


class _PoolPeriods(RatingPeriods):
    """:class:`RatingPeriods` of :func:`pool_period` when every game took place.

    The totals are computed at once; the per-game arrays ``expected`` and ``changes``
    (two ``(players, games)`` arrays that a caller after the new ratings does not need)
    are computed on first access from arrays this object owns -- ``Q`` per player,
    ``1 / (Q_own + Q_opponent)`` per game (the totals' working array) and the wins and
    draws -- with the values computing them at once gives (``E = Q_own * (1 / (Q_own +
    Q_opponent))`` may differ from ``Q_own / (Q_own + Q_opponent)`` in the last bit).
    """

    expected = _lazy_per_game("expected", "Expected score per game, ``(players, games)``.")
    changes = _lazy_per_game("changes", "Rating change per game, ``(players, games)``.")

    @classmethod
    def _make(cls, rating, k, divisor, total_change, new_rating, q, inv, win, draw):
        self = object.__new__(cls)
        for name, value in (("rating", rating), ("k", k), ("divisor", divisor),
                            ("total_change", total_change), ("new_rating", new_rating),
                            ("_pending", (q, inv, win, draw))):
            object.__setattr__(self, name, value)
        return self

    def _per_game(self) -> None:
        q, inv, win, draw = self.__dict__["_pending"]
        expected = np.multiply(q[:, None], inv)  # E = Q / (Q + Q_opponent)
        changes = np.multiply(draw, 0.5)  # the scores, exactly: 1 win, 0.5 draw, 0 loss
        changes += win
        changes -= expected
        kk = self.k
        changes *= kk[:, None] if kk.strides[0] else kk[0]
        _freeze(expected, changes)
        object.__setattr__(self, "expected", expected)
        object.__setattr__(self, "changes", changes)

    @property
    def games(self) -> np.ndarray:
        """Number of games of each player (``(players,)`` integers): every game took place."""
        pending = self.__dict__.get("_pending")
        if pending is None:  # made by dataclasses.replace: expected is given
            return RatingPeriods.games.fget(self)
        return np.full(self.rating.shape[0], pending[1].shape[1], dtype=np.intp)

    def __setattr__(self, name, value):  # frozen like its base, whatever the name
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        return "RatingPeriods" + RatingPeriods.__repr__(self)[len(type(self).__qualname__):]

    def __reduce__(self):  # copies and pickles are plain RatingPeriods
        return RatingPeriods, tuple(getattr(self, f) for f in RatingPeriods.__dataclass_fields__)


def _score_parts(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Check that every score is 1, 0.5 or 0; return the wins and draws (booleans).

    The three comparisons :func:`_validate.score` makes, keeping two of them: from them
    the scores can be rebuilt exactly, so the caller's array need not be kept.
    """
    win = np.equal(s, 1.0)
    draw = np.equal(s, 0.5)
    ok = np.equal(s, 0.0)
    ok |= win
    ok |= draw
    if not ok.all():
        v.score("scores", s)  # raises, naming the first bad score
    return win, draw


def pool_period(ratings, opponents, scores, k, mask=None,
                divisor=DEFAULT_DIVISOR) -> RatingPeriods:
    """Rate one period of a pool of players who play each other, opponents by index.

    The same as :func:`rating_period_batch` with ``opponent_ratings = ratings[opponents]``:
    ``ratings`` has shape ``(players,)``; ``opponents`` (whole-number indices into
    ``ratings``) and ``scores`` have shape ``(players, games)``, row ``i`` holding player
    ``i``'s games; ``k`` a number or one per player, ``mask`` as there (indices where it
    is False are ignored).

    Written with ``Q = 10 ** (R / divisor)`` per player, the curve is
    ``E = Q_own / (Q_own + Q_opponent)``, so only one power per *player* is needed rather
    than one per game (ratings are centred first so that Q cannot overflow; a pool spread
    so wide that it still could falls back to one power per game). Without a mask the
    totals are summed as ``K * (sum of scores - Q_own * sum of 1 / (Q_own + Q_opponent))``
    and the per-game arrays ``expected`` and ``changes`` are computed only when first
    read (values equal to those computed at once up to the last bit).

    The Telugu period as a pool of four (player 0 at 1500 beats 1, draws with 2, loses to
    3; the others' rows hold their side of the same games):

    >>> p = pool_period([1500, 1400, 1600, 1550], [[1, 2, 3], [0, 0, 0], [0, 0, 0],
    ...                 [0, 0, 0]], [[1, 0.5, 0], [0, 0, 0], [0.5, 0, 0], [1, 0, 0]],
    ...                 k=20, mask=[[True] * 3] + [[True, False, False]] * 3)
    >>> p.changes[0].round(1), round(float(p.total_change[0]), 1)
    (array([ 7.2,  2.8, -8.6]), 1.4)
    >>> p.total_change.round(1)    # one player's gain is the other's loss
    array([ 1.4, -7.2, -2.8,  8.6])

    The Telugu document's 1500 against 1700 (E 0.24) as a pool of two who draw, no mask:

    >>> d = pool_period([1500, 1700], [[1], [0]], [[0.5], [0.5]], k=20)
    >>> d.expected.round(2).tolist(), d.changes.round(2).tolist(), d.new_rating.round(2)
    ([[0.24], [0.76]], [[5.19], [-5.19]], array([1505.19, 1694.81]))
    """
    r = v.as_float_array("ratings", ratings)
    if r.ndim != 1:
        raise ValueError(f"ratings must be a 1-dimensional array (one per player), "
                         f"got shape {r.shape}")
    n = r.shape[0]
    # min and max propagate nan: both finite means every rating is (one pass each, and
    # the spread is needed below anyway)
    lo, hi = (float(r.min()), float(r.max())) if n else (0.0, 0.0)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        v.finite("ratings", r)  # raises, naming the first bad rating
    r = np.array(r)  # a copy: the result keeps it
    r.setflags(write=False)
    idx = np.asarray(opponents)
    if idx.dtype.kind not in "iu":
        raise TypeError(
            "opponents must be an array of whole-number indices into ratings, "
            f"got dtype {idx.dtype}"
        )
    if idx.ndim != 2 or idx.shape[0] != n:
        raise ValueError(
            f"opponents must have shape (players, games) with players = {n}, "
            f"got shape {idx.shape}"
        )
    shape = idx.shape
    d = _positive_number("divisor", divisor)
    kk = _per_player("k", k, n, v.positive)
    m = _mask(mask, shape)
    scale = _LN10 / d
    # the lazy path: every game took place and Q, 1 / (Q_own + Q_opponent) and their sums
    # stay far from overflow (Q within exp(±500))
    lazy = m is None and idx.size and (hi - lo) * scale < 1000.0
    if lazy:
        s = v.as_float_array("scores", scores)
        if s.shape != shape:
            s = _scores_2d(s, shape, m)  # broadcast (and checked)
        win, draw = _score_parts(s)
        used = idx
    else:
        s = _scores_2d(scores, shape, m)
        used = idx if m is None else idx[m]
    # one pass: seen as unsigned, a negative index is huge, so max() >= n catches both ends
    unsigned = used.view(used.dtype.str.replace("i", "u"))
    if used.size and unsigned.max() >= n:
        bad = used[(used < 0) | (used >= n)].flat[0]
        raise ValueError(f"opponents must be indices between 0 and {n - 1}, got {bad}")
    if lazy:
        q = r - 0.5 * (lo + hi)
        q *= scale
        np.exp(q, out=q)  # Q = exp(scale (R - centre)) within exp(±500)
        inv = q.take(idx, mode="clip")  # indices checked above
        inv += q[:, None]
        np.divide(1.0, inv, out=inv)  # 1 / (Q_own + Q_opponent), kept for expected
        ones = np.ones(shape[1])
        # a matrix-vector product sums short rows several times faster than .sum(axis=1)
        total = s @ ones  # points scored
        expected = inv @ ones
        expected *= q  # sum of E = Q_own * sum of 1 / (Q_own + Q_opponent)
        total -= expected
        total *= kk if kk.strides[0] else kk[0]
        new = r + total
        _freeze(total, new)  # q, inv, win and draw stay private to the result
        return _PoolPeriods._make(r, kk, d, total, new, q, inv, win, draw)
    buf = np.empty((2,) + shape)
    x = buf[0]
    if not x.size:
        return _finish(r, kk, d, buf, s, m)
    if (hi - lo) * scale < 1400.0:
        # Q = exp(scale (R - centre)) lies within exp(±700): no overflow, no underflow
        q = r - 0.5 * (lo + hi)
        q *= scale
        np.exp(q, out=q)
        np.take(q, idx, out=x, mode="clip")  # indices checked above; masked ones clipped
        x += q[:, None]
        np.divide(q[:, None], x, out=x)  # E = Q / (Q + Q_opponent)
    else:  # a spread of over 1400 / ln 10 divisors (~243,000 points at ÷400)
        np.take(r, idx, out=x, mode="clip")
        x -= r[:, None]
        x *= scale
        with np.errstate(over="ignore"):
            np.exp(x, out=x)
        x += 1.0
        np.divide(1.0, x, out=x)
    return _finish(r, kk, d, buf, s, m)
