"""Independent computations the tests compare the package with (never the package's own code)."""

from __future__ import annotations

import numpy as np


def grid_fit(d, s):
    """[ML] divisor maximising the log-likelihood on a grid, and where it drops by 1.92.

    The Bernoulli log-likelihood of scores ``s`` at rating differences ``d`` under
    E = 1 / (1 + 10^(-d/D)), on a fine grid of divisors D with plain numpy (no Newton); the
    95 % profile-likelihood interval is where it falls 3.841 / 2 below the maximum
    (chi-squared, 1 degree of freedom)."""
    # one term per distinct difference: points scored and games played there
    ud, inv = np.unique(d, return_inverse=True)
    points, games = np.bincount(inv, weights=s), np.bincount(inv)
    divisors = np.arange(300.0, 900.0, 0.05)
    p = 1 / (1 + 10 ** (-np.outer(1 / divisors, ud)))
    ll = (points * np.log(p) + (games - points) * np.log1p(-p)).sum(axis=1)
    best = int(np.argmax(ll))
    inside = divisors[ll >= ll[best] - 3.841458820694124 / 2]
    return divisors[best], inside.min(), inside.max()


def half_away(x) -> int:
    """x rounded to a whole number, a half away from zero, from its decimal digits (FIDE's
    and Go's rounding, written here with ``decimal``, not the package's ``rounding``)."""
    import math
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    if isinstance(x, Fraction):  # exact: the floor of |x| + 1/2, with x's sign
        n = math.floor(abs(x) + Fraction(1, 2))
        return n if x >= 0 else -n
    return int(Decimal(repr(float(x))).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def fide_least_score(rating, k, games, pd, target):
    """[FIDE 8.3] the least score (half points) of ``games`` games, each worth ``pd`` (the
    player's expected score per game, given by the test: a row of table 8.1.2 or the ÷400
    formula; a text such as ``"0.92"`` is read exactly), whose change K × (points − games ×
    pd), rounded once, reaches ``target``; K lowered by the 700 rule. Returns ``(points, new
    rating)`` or ``(None, best rating)``."""
    from fractions import Fraction

    pd = Fraction(pd) if isinstance(pd, str) else pd
    k = min(k, 700 // games) if k * games > 700 else k
    best = None
    for half in range(2 * games + 1):
        new = rating + half_away(
            k * (Fraction(half, 2) - games * pd)
            if isinstance(pd, Fraction)
            else k * (half / 2 - games * pd)
        )
        best = new
        if new >= target:
            return half / 2, new
    return None, best


def gammon42_wins(rating, opponent, target, recent, cube=1):
    """[G42] the Greek document's Go code, game by game: expected = 1 / (1 + 10^((opponent −
    rating) / 1200)), K 32 (16 with 50 or more ranked games in the window, one more for
    each game played), change = math.Round(K × (1 − expected) × (1 + log2(cube) / 6)).
    Returns the ratings after each win until ``target``."""
    import math

    ratings = []
    while rating < target:
        k = 16 if recent + len(ratings) >= 50 else 32
        expected = 1 / (1 + math.pow(10, (opponent - rating) / 1200))
        win = half_away(k * (1 - expected) * (1 + math.log2(cube) / 6))
        if win <= 0:
            break
        rating += win
        ratings.append(rating)
    return ratings
