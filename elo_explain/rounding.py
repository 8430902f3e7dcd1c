"""Rounding as every source rounds: to the nearest, a half away from zero.

Python's ``round`` (and numpy's ``round`` and ``rint``) round a half to even: ``round(2.5)``
is 2. Every rule this package reproduces rounds a half away from zero instead, and it is one
rule under the names its sources give it:

* **FIDE's rounding**: the Rating Regulations round K × ΣΔR of a rating period, and a first
  rating Ru, to the nearest whole number, 0.5 away from zero; the title regulations round p
  to the nearest hundredth, half up; the documents print their figures so (the tables' 0.1 %,
  the Telugu calculator's "new rating 1501" for 1501.4).
* **Go's** ``math.Round`` ("Round returns the nearest integer, rounding half away from
  zero"), which the Gammon42 server calls on every rating change (``docs/sources.md``, G22).

For a whole number the two are the same function of the same float: :func:`round_half_away`,
written once here, is both (:func:`elo_explain.gammon42.go_round` is it under the Gammon42
code's name, with that code's contract: a finite number, floats out). To ``places`` decimals (FIDE's hundredths, the
documents' printed figures) a float is rounded from its shortest decimal form, the number a
person wrote and reads: ``2.675`` (stored as 2.67499...) gives 2.68 (:func:`rounded_decimal`,
which the number formats of :mod:`elo_explain.formats` print from).

>>> round_half_away(2.5), round_half_away(-2.5), round(2.5)
(3.0, -3.0, 2)
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

import numpy as np

__all__ = ["round_half_away", "rounded_decimal"]

# Decimal's ROUND_HALF_UP is "round away from zero if the dropped digit is 5 or more": half
# away from zero, for negative numbers too. 400 digits: room for every finite float's digits.
_EXACT = Context(prec=400, rounding=ROUND_HALF_UP)


def rounded_decimal(x, places: int) -> Decimal:
    """A finite float ``x`` rounded half away from zero to ``places`` decimals, from its
    shortest decimal form (what Python prints), so 2.675 (stored as 2.67499...) gives 2.68.

    >>> rounded_decimal(2.675, 2), rounded_decimal(-0.35, 1), rounded_decimal(64.05, 1)
    (Decimal('2.68'), Decimal('-0.4'), Decimal('64.1'))
    """
    return _EXACT.quantize(Decimal(repr(float(x))), Decimal(1).scaleb(-places))


def _whole(arr: np.ndarray) -> np.ndarray:
    """Float array ``arr`` rounded to whole numbers, halves away from zero, exactly: the
    fraction ``arr - trunc(arr)`` is exact in binary floating point (no ``x + 0.5`` error,
    which would round 0.49999999999999994 up). NaN and infinities stay as they are."""
    t = np.trunc(arr)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, and then no step
        step = np.where(np.abs(arr - t) >= 0.5, np.sign(arr), 0.0)
    return t + step + 0.0  # + 0.0 turns -0.0 into 0.0


def round_half_away(x, places: int = 0):
    """``x`` rounded half away from zero (FIDE's rounding, Go's ``math.Round``), not Python's
    half to even.

    A float (or an array, elementwise) gives a float (an array). To whole numbers the float's
    own value is rounded, as Go does; at halves this is also its decimal form's rounding (a
    float whose shortest form ends in ``.5`` is exactly that half), so FIDE's and Go's whole
    numbers agree for every float. To ``places`` decimals a number is rounded from its
    shortest decimal form (:func:`rounded_decimal`), so ``2.675`` gives 2.68. A ``Fraction``
    is rounded exactly and gives an ``int`` (a ``Fraction`` with ``places``). NaN and
    infinities are returned unchanged.

    >>> round_half_away(0.5), round_half_away(-2.5), round_half_away(2.675, 2), round(2.5)
    (1.0, -3.0, 2.68, 2)
    >>> from fractions import Fraction
    >>> round_half_away(Fraction(-5, 2)), round_half_away(Fraction(1, 8), 2)
    (-3, Fraction(13, 100))
    >>> round_half_away([64.05, -0.35, 1.5], 1)
    array([64.1, -0.4,  1.5])
    >>> round_half_away(0.49999999999999994), round_half_away([-1.5, 1.5, float("nan")])
    (0.0, array([-2.,  2., nan]))
    """
    if isinstance(x, Fraction):
        scaled = Fraction(x) * 10**places
        n = math.floor(abs(scaled) + Fraction(1, 2))
        n = n if scaled >= 0 else -n
        return n if places == 0 else Fraction(n, 10**places)
    arr = np.asarray(x, dtype=float)
    if places == 0:
        out = _whole(arr)
    else:
        out = np.array(
            [float(rounded_decimal(v, places)) + 0.0 if math.isfinite(v) else v for v in arr.flat]
        ).reshape(arr.shape)
    return float(out) if out.ndim == 0 else out
