"""FIBS ratings, the formula of the First Internet Backgammon Server.

FIBS (``help formula``) rates whole matches.  For an n-point match between
players whose ratings differ by D, the underdog (the lower-rated player) wins
with probability

    P_upset = 1 / (10^(D·√n / 2000) + 1).

Let P = P_upset if the favourite won and P = 1 − P_upset if the underdog won.
Each player has an experience factor K = max(1, 5 − experience / 100), where
experience is the total length of the matches they have finished; the winner
gains ``4·K_winner·√n·P`` and the loser loses ``4·K_loser·√n·P``, each with
their *own* K, so the two changes are equal only when both players have K = 1
(experience ≥ 400).  Everyone starts at 1500 with experience 0.

Longer matches count more (√n) and use a flatter curve (a longer match is less
of a lottery, so the favourite is expected to win more often).  The curve
divides by 2000 where chess Elo divides by 400 because a single backgammon
game is far more random than a chess game.

Every finite rating and experience ≥ 0 is accepted, and every whole match
length ≥ 1: the curve is computed as ``t / (1 + t)`` and ``1 / (1 + t)`` with
``t = 10^(-|D|·√n / 2000) ≤ 1``, so however large the difference, the
probabilities tend to their limits 0 and 1 without overflow (as
:mod:`elo_explain.elo` does).

Note: the MacFIBS client's help gives ``K = max(1, 5 − (experience + n)/100)``
(the current match already counted).  This module follows ``help formula``
(``docs/sources.md#fibs``), which uses the experience before the match.

>>> change(1500, 1500)          # 1-point match, both experienced
(2.0, -2.0)
>>> round(upset_probability(100, 1), 3)
0.471
"""

from __future__ import annotations

import numpy as np

from elo_explain import _validate as V

__all__ = [
    "START_RATING",
    "START_EXPERIENCE",
    "DIVISOR",
    "EXPERIENCED",
    "upset_probability",
    "win_probability",
    "experience_factor",
    "change",
    "update",
]

#: Every player starts at 1500 ...
START_RATING: float = 1500.0
#: ... with experience 0.
START_EXPERIENCE: int = 0
#: The divisor of the FIBS curve (chess Elo uses 400).
DIVISOR: float = 2000.0
#: Experience from which K = 1 (no new-player boost).
EXPERIENCED: int = 400


def _out(arr):
    arr = np.asarray(arr, dtype=float)
    return float(arr) if arr.ndim == 0 else arr


def _match_length(value) -> np.ndarray:
    arr = V.as_float_array("match_length", value)
    bad = ~np.isfinite(arr) | (arr < 1) | (arr != np.floor(arr))
    if bad.any():
        raise ValueError(
            "match_length must be a whole number >= 1 (points), "
            f"got {np.asarray(arr)[bad].flat[0]!r}"
        )
    return arr


def _upset_t(abs_difference, n):
    """``t = 10^(-|D|·√n / 2000)`` in ``[0, 1]``; ``P_upset = t / (1 + t)``.

    The exponent is never positive, so the power cannot overflow; a product
    ``|D|·√n`` too large for a float is infinite and gives t = 0, the limit.
    """
    with np.errstate(over="ignore"):
        return 10.0 ** (-(abs_difference / DIVISOR) * np.sqrt(n))


def upset_probability(difference, match_length=1):
    """Probability that the underdog wins: ``1 / (10^(|D|·√n / 2000) + 1)``.

    ``difference`` is the rating difference (its sign is ignored),
    ``match_length`` the number of points n.  Vectorised.

    >>> upset_probability(0)
    0.5
    >>> round(upset_probability(400, 7), 3)   # the favourite wins 77.2 %
    0.228
    """
    d = np.abs(np.asarray(V.finite("difference", difference), dtype=float))
    n = _match_length(match_length)
    t = _upset_t(d, n)
    return _out(t / (1.0 + t))


def win_probability(rating, opponent_rating, match_length=1):
    """Probability that a player beats an opponent in an n-point match.

    ``1 / (1 + 10^(-(R - R_opp)·√n / 2000))``: the favourite's ``1 − P_upset``
    and the underdog's ``P_upset``.

    >>> round(win_probability(1600, 1500, 1), 3), round(win_probability(1500, 1600, 1), 3)
    (0.529, 0.471)
    """
    r = np.asarray(V.finite("rating", rating), dtype=float)
    o = np.asarray(V.finite("opponent_rating", opponent_rating), dtype=float)
    n = _match_length(match_length)
    with np.errstate(over="ignore"):  # r - o may exceed the float range: t = 0, the limit
        diff = r - o
    t = _upset_t(np.abs(diff), n)
    return _out(np.where(diff >= 0, 1.0, t) / (1.0 + t))


def experience_factor(experience):
    """``K = max(1, 5 − experience / 100)``: 5 for a newcomer, 1 from 400 on.

    >>> experience_factor(0), experience_factor(150), experience_factor(400)
    (5.0, 3.5, 1.0)
    """
    e = np.asarray(V.finite("experience", experience, lo=0.0), dtype=float)
    return _out(np.maximum(1.0, 5.0 - e / 100.0))


def change(
    winner_rating, loser_rating, *, match_length=1, winner_experience=400, loser_experience=400
):
    """Rating changes after a FIBS match: ``(winner_gain, loser_change)``.

    ``winner_gain = 4·K_w·√n·P`` (≥ 0) and ``loser_change = −4·K_l·√n·P``
    (≤ 0), where P is P_upset if the favourite (higher rating) won and
    1 − P_upset if the underdog won, and each K comes from that player's own
    experience (:func:`experience_factor`).  At equal ratings P = 1/2 either
    way.  Every argument may be an array (broadcast together).

    ``match_length`` must be a whole number ≥ 1, experience ≥ 0.

    >>> change(1500, 1500)                     # Bastian: "worth 2 points"
    (2.0, -2.0)
    >>> w, l = change(1400, 1650, match_length=5)   # the underdog won
    >>> round(w, 2), round(l, 2)
    (5.86, -5.86)
    >>> w, l = change(1500, 1500, winner_experience=0, loser_experience=250)
    >>> round(w, 2), round(l, 2)
    (10.0, -5.0)
    """
    w = np.asarray(V.finite("winner_rating", winner_rating), dtype=float)
    lo = np.asarray(V.finite("loser_rating", loser_rating), dtype=float)
    n = _match_length(match_length)
    k_w = np.asarray(experience_factor(_named_experience("winner_experience", winner_experience)))
    k_l = np.asarray(experience_factor(_named_experience("loser_experience", loser_experience)))
    with np.errstate(over="ignore"):  # w - lo may exceed the float range: t = 0, the limit
        t = _upset_t(np.abs(w - lo), n)
    # P_upset = t / (1 + t) if the favourite won, 1 - P_upset = 1 / (1 + t) if the underdog
    # won; equal ratings: t = 1, 1/2 either way
    p = np.where(w >= lo, t, 1.0) / (1.0 + t)
    stake = 4.0 * np.sqrt(n) * p
    return _out(k_w * stake), _out(-k_l * stake)


def _named_experience(name: str, value):
    return V.finite(name, value, lo=0.0)


def update(
    winner_rating, loser_rating, *, match_length=1, winner_experience=400, loser_experience=400
):
    """New ratings and experiences after a match.

    Returns ``((winner_rating, winner_experience), (loser_rating,
    loser_experience))``: ratings moved by :func:`change`, both experiences
    increased by the match length (a sum beyond the float range is refused).

    >>> (w, we), (l, le) = update(1500, 1500, match_length=3, winner_experience=0,
    ...                           loser_experience=0)
    >>> round(w, 2), we, round(l, 2), le
    (1517.32, 3.0, 1482.68, 3.0)
    """
    gain, loss = change(
        winner_rating,
        loser_rating,
        match_length=match_length,
        winner_experience=winner_experience,
        loser_experience=loser_experience,
    )
    n = _match_length(match_length)
    experiences = []
    for name, before in (
        ("winner_experience", winner_experience),
        ("loser_experience", loser_experience),
    ):
        with np.errstate(over="ignore"):
            after = np.asarray(before, dtype=float) + n
        if not np.isfinite(after).all():
            raise ValueError(
                f"{name} + match_length must be a finite number (at most "
                f"{np.finfo(float).max:g}), got {before!r} + {match_length!r}"
            )
        experiences.append(_out(after))
    return (
        (_out(np.asarray(winner_rating, dtype=float) + gain), experiences[0]),
        (_out(np.asarray(loser_rating, dtype=float) + loss), experiences[1]),
    )
