"""Input validation shared by every rating module.

Every public function validates its inputs with these helpers, so a bad value
always raises ``ValueError`` (or ``TypeError`` for a value of the wrong kind)
whose message names the parameter and the allowed values, for example::

    rating must be a finite number, got nan
    k must be > 0, got -5
    score must be 1 (win), 0.5 (draw) or 0 (loss), got 0.7
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from elo_explain.formats import fmt_plain
from elo_explain.i18n import N_, _, language

__all__ = [
    "as_float_array",
    "finite",
    "positive",
    "score",
    "integer",
    "whole",
    "number",
    "flag",
    "in_range",
    "choice",
    "instance",
    "readonly",
]


def _describe(value) -> str:
    try:
        arr = np.asarray(value)
        if arr.ndim == 0:
            return _number(arr.item()) if language() != "en" else repr(arr.item())
    except Exception:  # pragma: no cover - only for exotic objects
        pass
    return repr(value)


def _given(value) -> str:
    """A value given, in a message: ``repr`` in English (as always), else :func:`_number`."""
    return repr(value) if language() == "en" else _number(value)


def _number(value) -> str:
    """A bound or a value in a message shown on a page: ``{:g}`` in English (as always), the
    page's decimal symbol and minus sign in another language (a message a page shows, under
    a field or in a link's note, is in the page's language: :mod:`elo_explain.i18n`)."""
    if language() == "en":
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, (numbers.Real, np.number)) and not isinstance(value, (bool, np.bool_)):
        if math.isfinite(float(value)):
            return fmt_plain(value)
    return repr(value)


#: a range's messages: both bounds, the lower only, the upper only
_RANGE = (
    N_("{name} must be between {lo} and {hi}, got {value}"),
    N_("{name} must be >= {lo}, got {value}"),
    N_("{name} must be <= {hi}, got {value}"),
)
_WHOLE_RANGE = (
    N_("{name} must be a whole number between {lo} and {hi}, got {value}"),
    N_("{name} must be a whole number >= {lo}, got {value}"),
    N_("{name} must be a whole number <= {hi}, got {value}"),
)


def _out_of_range(texts, name: str, got: str, lo, hi, shown) -> ValueError:
    """The error for ``got`` (as written) outside ``lo``..``hi`` (``None``: no bound), in the
    page's language, each bound written by ``shown``."""
    both, low, high = texts
    text = both if lo is not None and hi is not None else low if lo is not None else high
    return ValueError(
        _(text).format(
            name=name,
            value=got,
            lo=None if lo is None else shown(lo),
            hi=None if hi is None else shown(hi),
        )
    )


def as_float_array(name: str, value) -> np.ndarray:
    """``value`` as a float array; ``TypeError`` naming ``name`` if it is not numeric."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}")
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a number, not a boolean ({value!r})")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}") from None
    return arr


def _out(arr: np.ndarray):
    """Return a Python float for 0-d input, the array otherwise."""
    return float(arr) if arr.ndim == 0 else arr


def _within(arr: np.ndarray, lo, hi) -> bool:
    """True if every element is finite and within ``lo``..``hi`` (either may be None).

    The fast check of the common case, without temporaries: ``min`` and ``max`` propagate
    nan, so both finite means every element is. False sends the caller to the slow path
    that finds the offending element for the message.
    """
    if not arr.size:
        return True
    if lo is None and hi is None:
        return bool(np.isfinite(arr).all())
    mn, mx = arr.min(), arr.max()
    return bool(
        math.isfinite(mn)
        and math.isfinite(mx)
        and (lo is None or mn >= lo)
        and (hi is None or mx <= hi)
    )


def finite(name: str, value, *, lo: float | None = None, hi: float | None = None):
    """Check that every element is finite (and within ``lo``..``hi`` if given)."""
    if (
        isinstance(value, float)
        and math.isfinite(value)
        and ((lo is None or value >= lo) and (hi is None or value <= hi))
    ):  # a plain number: no array needed
        return float(value)
    arr = as_float_array(name, value)
    if _within(arr, lo, hi):
        return _out(arr)
    bad = ~np.isfinite(arr)
    if bad.any():
        raise ValueError(
            _("{name} must be a finite number, got {value}").format(
                name=name, value=_describe(arr[bad].flat[0])
            )
        )
    for wrong in (arr < lo if lo is not None else None, arr > hi if hi is not None else None):
        if wrong is None or not wrong.any():
            continue
        raise _out_of_range(
            _RANGE, name, _describe(arr[wrong].flat[0]), lo, hi, lambda bound: _number(float(bound))
        )
    return _out(arr)


def positive(name: str, value, *, hi: float | None = None):
    """Check that every element is finite and strictly greater than zero.

    With ``hi``, every element must also be at most ``hi`` (the message then names the
    whole range, ``rd must be > 0 and <= 10000, got 0``).
    """
    if (
        isinstance(value, float)
        and math.isfinite(value)
        and value > 0
        and (hi is None or value <= hi)
    ):
        return float(value)
    arr = as_float_array(name, value)
    if not arr.size:
        return _out(arr)
    mn, mx = arr.min(), arr.max()  # nan propagates: both finite means every element is
    if math.isfinite(mn) and math.isfinite(mx) and mn > 0 and (hi is None or mx <= hi):
        return _out(arr)
    finite(name, arr)
    allowed = "> 0" if hi is None else f"> 0 and <= {hi:g}"
    if (arr <= 0).any():
        raise ValueError(f"{name} must be {allowed}, got {_describe(arr[arr <= 0].flat[0])}")
    if hi is not None and (arr > hi).any():
        raise ValueError(f"{name} must be {allowed}, got {_describe(arr[arr > hi].flat[0])}")
    return _out(arr)


def score(name: str, value):
    """Check that every element is 1 (win), 0.5 (draw) or 0 (loss)."""
    if isinstance(value, float) and value in (0.0, 0.5, 1.0):
        return float(value)
    arr = as_float_array(name, value)
    if arr.ndim == 0:
        ok = np.isin(arr, (0.0, 0.5, 1.0))
    else:  # three comparisons in place: a fraction of np.isin's cost
        ok = np.equal(arr, 0.0)
        tmp = np.equal(arr, 0.5)
        ok |= tmp
        ok |= np.equal(arr, 1.0, out=tmp)
    if not ok.all():
        raise ValueError(
            f"{name} must be 1 (win), 0.5 (draw) or 0 (loss), got {_describe(arr[~ok].flat[0])}"
        )
    return _out(arr)


def integer(name: str, value, *, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number (int or integral float) within ``lo``..``hi``; returns ``int``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise TypeError(
            _("{name} must be a whole number, got {value}").format(name=name, value=repr(value))
        )
    if isinstance(value, (int, np.integer)):
        ivalue = int(value)  # exact, however large (np.isfinite cannot take a huge int)
    elif not math.isfinite(float(value)) or float(value) != int(value):
        raise ValueError(
            _("{name} must be a whole number, got {value}").format(name=name, value=_given(value))
        )
    else:
        ivalue = int(value)
    if lo is not None and ivalue < lo or hi is not None and ivalue > hi:
        raise _out_of_range(
            _WHOLE_RANGE,
            name,
            _given(value),
            lo,
            hi,
            (lambda b: b) if language() == "en" else _number,
        )
    return ivalue


def whole(name: str, value, *, lo: int | None = None) -> np.ndarray:
    """Whole numbers (a number or an array) >= ``lo``, as an int64 array (0-d for a number).

    >>> whole("games", [3, 4.0]).tolist()
    [3, 4]
    >>> whole("games", -1, lo=0)
    Traceback (most recent call last):
    ...
    ValueError: games must be a whole number >= 0, got -1.0
    """
    arr = np.asarray(finite(name, value))
    bad = arr != np.floor(arr)
    if bad.any():
        raise ValueError(f"{name} must be a whole number, got {_describe(arr[bad].flat[0])}")
    if lo is not None and (arr < lo).any():
        raise ValueError(
            f"{name} must be a whole number >= {lo}, got {_describe(arr[arr < lo].flat[0])}"
        )
    return arr.astype(np.int64)


def number(name: str, value) -> float:
    """One finite number; ``TypeError`` for an array, ``ValueError`` for nan or inf."""
    return in_range(name, value, -math.inf, math.inf)


def flag(name: str, value, *, array: bool = False):
    """``True`` or ``False`` (with ``array``, also an array of them); ``TypeError`` otherwise.

    Returns a ``bool``, or with ``array`` a boolean numpy array (0-d for one flag).
    """
    if isinstance(value, (bool, np.bool_)):
        return np.asarray(value) if array else bool(value)
    arr = np.asarray(value) if array and not isinstance(value, (str, bytes)) else None
    if arr is None or arr.dtype != np.bool_:
        also = " (or an array of them)" if array else ""
        raise TypeError(f"{name} must be True or False{also}, got {value!r}")
    return arr


def in_range(name: str, value: float, lo: float, hi: float) -> float:
    """A finite scalar within ``lo``..``hi`` (inclusive); returns ``float``."""
    arr = as_float_array(name, value)
    if arr.ndim != 0:
        raise TypeError(f"{name} must be a single number, got an array of shape {arr.shape}")
    return finite(name, arr, lo=lo, hi=hi)


def choice(name: str, value, allowed):
    """``value`` if it is one of ``allowed``, else ``ValueError`` listing them."""
    if value not in allowed:
        listed = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {listed}, got {value!r}")
    return value


def instance(name: str, value, kind, what: str | None = None):
    """``value`` if it is an instance of ``kind`` (a class or a tuple of classes), else
    ``TypeError`` naming ``name`` and the expected kind (``what``, or the class names)::

        config must be a LichessConfig, got 'abc'
    """
    if not isinstance(value, kind):
        if what is None:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            what = " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"{name} must be a {what}, got {value!r}")
    return value


def readonly(*arrays: np.ndarray) -> None:
    """Make result arrays read-only (a caller cannot change a result another holds).

    >>> a = np.zeros(2); readonly(a); a.flags.writeable
    False
    """
    for a in arrays:
        a.setflags(write=False)
