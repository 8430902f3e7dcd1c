"""FIDE standard ratings: Rating Regulations B.02 (1 March 2024, amended 1 October 2025).

FIDE does not rate with the logistic formula of :mod:`elo_explain.elo` but with
*table 8.1.2*, which maps the absolute rating difference ``D`` to the higher-rated
player's score probability ``PD`` (two decimals; the lower-rated player gets
``1 - PD``). For one rating period (rules 8.3.1-8.3.3):

1. per game, the difference own - opponent, a difference of more than 400 counted as
   400 (since 1 October 2025 only for players rated below 2650, who use the real
   difference; the rule is applied per player, so the two sides of one game can use
   different differences);
2. ``ΔR = score - PD`` per game, every game from the ratings on the list in force;
3. the rating change is ``K × ΣΔR``, rounded *once* to a whole number, 0.5 away from
   zero (this module sums the two-decimal PD values exactly, in integer hundredths);
4. K is 40 for a player new to the list until they complete 30 games, 40 until the
   end of the year of the 18th birthday while under 2300, 20 under 2400, and 10 for
   good once the published rating has reached 2400; if ``K × games`` exceeds 700 the
   K for the period is the largest whole number with ``K × games <= 700``.

Configuration -- the numbers of the regulations, as module constants:

==========================  ==========  ==========================================
``CAP``                     400         the 400-point rule
``CAP_EXEMPT_FROM``         2650        from 2025-10-01, no cap for this rating up
``RULES_FROM``              2024-03-01  earliest date modelled (cap on every game)
``CAP_EXEMPTION_FROM``      2025-10-01  the 2650 exemption is in force from here
``K_NEW``, ``K_JUNIOR``     40, 40      new player (< ``NEW_PLAYER_GAMES`` = 30
                                        games), junior under ``JUNIOR_BELOW`` = 2300
``K_STANDARD``, ``K_HIGH``  20, 10      under / once reached ``HIGH_FROM`` = 2400
``MAX_K_TIMES_GAMES``       700         the 700 rule
==========================  ==========  ==========================================

Dates (``on``) may be :class:`datetime.date` objects or ISO strings ``"YYYY-MM-DD"``;
``on=None`` means today.

Example -- the Telugu document's 400-point rule, K 20, 1500 beats 1000 (the
document's calculator uses the formula, ``use_table=False``; FIDE's table gives
0.92 where the formula gives 0.91)::

    >>> capped = rate_period(1500, [(1000, 1)], k=20, on="2025-10-01", use_table=False)
    >>> round(float(capped.expected[0]), 2), round(capped.change, 1)
    (0.91, 1.8)
    >>> fide = rate_period(1500, [(1000, 1)], k=20, on="2025-10-01")
    >>> float(fide.expected[0]), fide.change, fide.rounded_change
    (0.92, 1.6, 2)
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _validate as v
from .elo import _expected, _freeze, _parse_results, _scalar

__all__ = [
    "TABLE_8_1_2",
    "CAP",
    "CAP_EXEMPT_FROM",
    "RULES_FROM",
    "CAP_EXEMPTION_FROM",
    "NEW_PLAYER_GAMES",
    "JUNIOR_BELOW",
    "HIGH_FROM",
    "K_NEW",
    "K_JUNIOR",
    "K_STANDARD",
    "K_HIGH",
    "MAX_K_TIMES_GAMES",
    "FidePeriod",
    "table_expected_score",
    "effective_difference",
    "k_factor",
    "k_with_700_rule",
    "rate_period",
]

#: FIDE Rating Regulations B.02, table 8.1.2: ``(low, high, PD)`` rows -- the absolute
#: difference ``low``..``high`` (whole points, inclusive; ``high`` is ``None`` for the
#: open last row) gives the higher-rated player the score probability ``PD``.
TABLE_8_1_2: tuple[tuple[int, int | None, float], ...] = (
    (0, 3, 0.50), (4, 10, 0.51), (11, 17, 0.52), (18, 25, 0.53), (26, 32, 0.54),
    (33, 39, 0.55), (40, 46, 0.56), (47, 53, 0.57), (54, 61, 0.58), (62, 68, 0.59),
    (69, 76, 0.60), (77, 83, 0.61), (84, 91, 0.62), (92, 98, 0.63), (99, 106, 0.64),
    (107, 113, 0.65), (114, 121, 0.66), (122, 129, 0.67), (130, 137, 0.68),
    (138, 145, 0.69), (146, 153, 0.70), (154, 162, 0.71), (163, 170, 0.72),
    (171, 179, 0.73), (180, 188, 0.74), (189, 197, 0.75), (198, 206, 0.76),
    (207, 215, 0.77), (216, 225, 0.78), (226, 235, 0.79), (236, 245, 0.80),
    (246, 256, 0.81), (257, 267, 0.82), (268, 278, 0.83), (279, 290, 0.84),
    (291, 302, 0.85), (303, 315, 0.86), (316, 328, 0.87), (329, 344, 0.88),
    (345, 357, 0.89), (358, 374, 0.90), (375, 391, 0.91), (392, 411, 0.92),
    (412, 432, 0.93), (433, 456, 0.94), (457, 484, 0.95), (485, 517, 0.96),
    (518, 559, 0.97), (560, 619, 0.98), (620, 735, 0.99), (736, None, 1.00),
)

CAP = 400
CAP_EXEMPT_FROM = 2650
RULES_FROM = _dt.date(2024, 3, 1)
CAP_EXEMPTION_FROM = _dt.date(2025, 10, 1)
NEW_PLAYER_GAMES = 30
JUNIOR_BELOW = 2300
HIGH_FROM = 2400
K_NEW = 40
K_JUNIOR = 40
K_STANDARD = 20
K_HIGH = 10
MAX_K_TIMES_GAMES = 700

_LOWS = np.array([row[0] for row in TABLE_8_1_2], dtype=float)
_PD_HUNDREDTHS = np.array([round(row[2] * 100) for row in TABLE_8_1_2], dtype=np.int64)


# --------------------------------------------------------------------------- helpers
def _as_date(on) -> _dt.date:
    """``on`` as a date: ``None`` is today; a ``date``/``datetime`` or ISO ``"YYYY-MM-DD"``."""
    if on is None:
        return _dt.date.today()
    if isinstance(on, _dt.datetime):
        return on.date()
    if isinstance(on, _dt.date):
        return on
    if isinstance(on, str):
        try:
            return _dt.date.fromisoformat(on)
        except ValueError:
            raise ValueError(
                f"on must be a date or an ISO date string 'YYYY-MM-DD', got {on!r}"
            ) from None
    raise TypeError(f"on must be a datetime.date, an ISO date string or None, got {on!r}")


def _whole(name: str, value, *, lo: int | None = None) -> np.ndarray:
    """Whole numbers (scalar or array) >= ``lo``, as an int64 array."""
    arr = np.asarray(v.finite(name, value))
    bad = arr != np.floor(arr)
    if bad.any():
        raise ValueError(f"{name} must be a whole number, got {arr[bad].flat[0]!r}")
    if lo is not None and (arr < lo).any():
        raise ValueError(f"{name} must be a whole number >= {lo}, got {arr[arr < lo].flat[0]!r}")
    return arr.astype(np.int64)


def _flag(name: str, value) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype != np.bool_:
        raise TypeError(f"{name} must be True or False (or an array of them), got {value!r}")
    return arr


def _table_hundredths(difference: np.ndarray) -> np.ndarray:
    """PD in integer hundredths for already validated differences own - opponent."""
    band = np.searchsorted(_LOWS, np.floor(np.abs(difference)), side="right") - 1
    pd_higher = _PD_HUNDREDTHS[band]
    return np.where(difference >= 0, pd_higher, 100 - pd_higher)


def _cap_check_date(on) -> _dt.date:
    day = _as_date(on)
    if day < RULES_FROM:
        raise ValueError(
            f"on must be {RULES_FROM.isoformat()} or later: the earlier 400-point rule "
            f"(one upgrade per tournament) is not modelled, got {day.isoformat()!r}"
        )
    return day


def _round_half_away(x: Fraction) -> int:
    n = math.floor(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


# ------------------------------------------------------------------------ public API
def table_expected_score(difference):
    """Score probability PD from table 8.1.2 for the difference own - opponent.

    A difference >= 0 takes the higher-rated player's column, a negative one the
    lower-rated player's ``1 - PD``. The table's bands are whole points
    (``0-3``, ``4-10``, ...); a fractional difference falls in the band of its absolute
    value rounded *down*, i.e. the cut points sit at the whole numbers: 3.9 is still
    in ``0-3`` (0.50), 4 starts ``4-10`` (0.51). Vectorized; results are the floats
    nearest to the two-decimal table values (so ``PD(d) + PD(-d)`` is 1 to the cent).
    There is no 400-point cap here: see :func:`effective_difference`.

    Telugu document: at 400 points the table gives 0.92 (the formula 0.91); 1500
    against 1700 (-200) gets 0.24:

    >>> table_expected_score(400)
    0.92
    >>> table_expected_score([-200, 0, 3.9, 4, 735, 736])
    array([0.24, 0.5 , 0.5 , 0.51, 0.99, 1.  ])
    """
    d = np.asarray(v.finite("difference", difference))
    out = _table_hundredths(d) / 100.0
    return float(out) if out.ndim == 0 else out


def effective_difference(rating, opponent, on=None):
    """The signed difference ``rating - opponent`` FIDE uses for ``rating``'s player on date ``on``.

    The 400-point rule counts a difference of more than 400 as 400 (either sign). From
    2024-03-01 to 2025-09-30 it applies to every game; from 2025-10-01 only when
    ``rating`` < 2650 (players rated 2650 or more use the real difference). Earlier
    dates raise ``ValueError``: the older rule (one upgrade per tournament) is not
    modelled. ``on`` is a date, an ISO string or ``None`` (today). Arrays broadcast.

    The two sides of one game can use different differences (Telugu document):

    >>> effective_difference(2700, 2200, on="2025-10-01")
    500.0
    >>> effective_difference(2200, 2700, on="2025-10-01")
    -400.0
    >>> effective_difference(2700, 2200, on="2025-09-30")
    400.0
    """
    day = _cap_check_date(on)
    r = np.asarray(v.finite("rating", rating))
    o = np.asarray(v.finite("opponent", opponent))
    diff = r - o
    capped = np.clip(diff, -CAP, CAP)
    if day >= CAP_EXEMPTION_FROM:
        capped = np.where(r >= CAP_EXEMPT_FROM, diff, capped)
    capped = np.asarray(capped, dtype=float)
    return float(capped) if capped.ndim == 0 else capped


def k_factor(rating, *, rated_games, birth_year=None, reached_2400=False, on=None):
    """K-factor by FIDE rule 8.3.3: 40, 20 or 10.

    The rules are applied in this order (the first that matches wins):

    1. ``rated_games`` < 30 (new to the list, events with fewer than 30 games): **40**;
    2. ``reached_2400`` (the published rating has ever reached 2400) or ``rating`` >= 2400:
       **10** -- for good, even if the rating drops below 2400 later;
    3. a junior -- ``on``'s year is at most ``birth_year + 18``, i.e. until the end of the
       year of the 18th birthday -- rated below 2300: **40**;
    4. otherwise **20** (rating below 2400).

    ``rating`` is the published rating at the start of the period; ``rating``,
    ``rated_games``, ``birth_year`` and ``reached_2400`` may be arrays (they
    broadcast). ``on`` (date, ISO string, ``None`` = today) only matters for juniors.

    >>> k_factor(1800, rated_games=12)                      # new player
    40
    >>> k_factor(2000, rated_games=80, birth_year=2007, on="2025-12-31")
    40
    >>> k_factor(2000, rated_games=80, birth_year=2007, on="2026-01-01")
    20
    >>> k_factor(2350, rated_games=300, reached_2400=True)  # stays 10
    10
    """
    r = np.asarray(v.finite("rating", rating))
    games = _whole("rated_games", rated_games, lo=0)
    reached = _flag("reached_2400", reached_2400)
    if birth_year is None:
        junior = np.zeros((), dtype=bool)
        if on is not None:
            _as_date(on)  # still validate it
    else:
        year = _as_date(on).year
        junior = year <= _whole("birth_year", birth_year) + 18
    k = np.select(
        [games < NEW_PLAYER_GAMES, reached | (r >= HIGH_FROM), junior & (r < JUNIOR_BELOW)],
        [K_NEW, K_HIGH, K_JUNIOR],
        default=K_STANDARD,
    ).astype(np.int64)
    return int(k) if k.ndim == 0 else k


def k_with_700_rule(k, games):
    """K for a period of ``games`` games: the largest whole K with ``K × games <= 700`` when ``k × games`` exceeds 700, else ``k``.

    ``k`` > 0 and ``games`` (a whole number >= 0) may be arrays. A scalar result is an
    ``int`` when it is whole. Exactly 700 is not reduced.

    Telugu document: a junior with K 40 and 20 games (800) gets 35, an adult with K 20
    and 40 games (800) gets 17:

    >>> k_with_700_rule(40, 20), k_with_700_rule(20, 40), k_with_700_rule(35, 20)
    (35, 17, 35)
    """
    kk = np.asarray(v.positive("k", k), dtype=float)
    g = _whole("games", games, lo=0)
    over = kk * g > MAX_K_TIMES_GAMES
    reduced = MAX_K_TIMES_GAMES // np.maximum(g, 1)
    out = np.where(over, reduced, kk)
    if out.ndim == 0:
        value = float(out)
        return int(value) if value.is_integer() else value
    return out.astype(float)


@dataclass(frozen=True, eq=False)
class FidePeriod:
    """Result of :func:`rate_period` (arrays are per game and read-only).

    ``rating``; ``opponents``, ``scores``; ``differences`` (own - opponent after the
    400-point rule if applied); ``expected`` (PD); ``delta`` (ΔR = score - PD);
    ``k_requested`` and ``k`` (after the 700 rule); ``change`` (K × ΣΔR, unrounded);
    ``rounded_change`` (rounded once, 0.5 away from zero, exact); ``new_rating``
    (``rating + rounded_change``); ``on``, ``use_table``, ``cap_400`` (how it was rated).
    """

    rating: float
    opponents: np.ndarray
    scores: np.ndarray
    differences: np.ndarray
    expected: np.ndarray
    delta: np.ndarray
    k_requested: float
    k: float
    change: float
    rounded_change: int
    new_rating: float
    on: _dt.date
    use_table: bool
    cap_400: bool

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
        """Expected points (Σ PD)."""
        return float(self.expected.sum())


def rate_period(rating, results, *, k, on=None, use_table=True, cap_400=True) -> FidePeriod:
    """Rate one period the FIDE way: K × Σ(score - PD), rounded once, 0.5 away from zero.

    ``results`` is a sequence of ``(opponent_rating, score)`` pairs, every game rated from
    the starting ratings. ``k`` > 0 is reduced by :func:`k_with_700_rule` for the number
    of games. With ``cap_400`` the per-game difference is :func:`effective_difference`
    on date ``on`` (dates before 2024-03-01 raise); without it the real difference is
    used. With ``use_table`` PD comes from table 8.1.2 and ΣΔR is summed exactly in
    hundredths (so a change of 5.5 is never 5.4999 and rounds to 6); with
    ``use_table=False`` PD is the ÷400 formula, as the documents' calculators do.

    Telugu document, K 20, rating 1500 (win 1400, draw 1600, loss 1550): total +1.4,
    new rating 1501 -- the table gives the same E's here (0.64, 0.36, 0.43):

    >>> p = rate_period(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20, on="2025-10-01")
    >>> p.expected
    array([0.64, 0.36, 0.43])
    >>> p.change, p.rounded_change, p.new_rating
    (1.4, 1, 1501.0)
    """
    r = _scalar("rating", rating)
    k_req = v.positive("k", _scalar("k", k))
    for name, flag in (("use_table", use_table), ("cap_400", cap_400)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    day = _cap_check_date(on) if cap_400 else _as_date(on)
    opponents, scores = _parse_results(results)
    kk = k_with_700_rule(k_req, opponents.size)
    if cap_400:
        differences = np.asarray(effective_difference(r, opponents, on=day), dtype=float)
    else:
        differences = r - opponents
    if use_table:
        pd_hundredths = _table_hundredths(differences)
        expected = pd_hundredths / 100.0
        delta_hundredths = (scores * 100).astype(np.int64) - pd_hundredths
        delta = delta_hundredths / 100.0
        exact = Fraction(kk) * Fraction(int(delta_hundredths.sum()), 100)
        change = float(exact)
    else:
        expected = _expected(np.zeros(()), -differences, 400.0)
        delta = scores - expected
        change = float(kk * delta.sum())
        exact = Fraction(change)
    rounded = _round_half_away(exact)
    _freeze(opponents, scores, differences, expected, delta)
    return FidePeriod(
        rating=float(r),
        opponents=opponents,
        scores=scores,
        differences=differences,
        expected=expected,
        delta=delta,
        k_requested=float(k_req),
        k=float(kk),
        change=change,
        rounded_change=rounded,
        new_rating=float(r) + rounded,
        on=day,
        use_table=bool(use_table),
        cap_400=bool(cap_400),
    )
