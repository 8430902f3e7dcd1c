"""Gammon42 backgammon Elo, exactly as the server computes it (version 1.3.1).

Source: the Greek article "How ELO is calculated in Gammon42" (``docs/sources.md#greek``),
which prints the server's Go code (``KFor``, ``CalculateChangeWithK``,
``expectedScore``) and every table reproduced in :mod:`elo_explain.tables`.

The system, step by step
------------------------
Only *ranked* games change the rating (Boosted/casual games and games inside a
tournament never do). Everyone starts at :data:`STARTING` = 1500.

1. Expected score of a player against an opponent::

       expected = 1 / (1 + 10 ** ((opponent - rating) / 1200))

   Chess divides by 400; Gammon42 used 400 at first, 800 from 1.2.0 and 1200
   from 1.3.1, because dice give the weaker player real chances in every game.
2. ``change = K * (result - expected) * cube coefficient``, result 1 (win) or
   0 (loss), rounded to a whole number with Go's ``math.Round`` (half away from
   zero, see :func:`go_round`), separately for the winner and the loser.
3. ``K`` is 32, or 16 for a player with 50 or more ranked games in the 7 days
   before the game being rated (the game itself is not counted; see
   :func:`k_for` and :func:`recent_ranked_games`). Each player has their own K,
   so the two changes are mirror images only when both K are equal.
4. The doubling cube multiplies the change by ``1 + log2(cube) / 6``: 1.0 for
   cube 1 up to 2.0 for cube 64 (:func:`cube_coefficient`). Before 1.0.5 the
   cube multiplied the points directly (``cube_mode="direct"``).
   Gammons and backgammons do not change the rating; resigning, leaving or
   timing out is a normal loss at the cube value of that moment.

Float ratings
-------------
The server stores ratings as Go ``int`` and converts the difference to
``float64`` before dividing, so for whole-number ratings the functions here give
bit-for-bit the server's values. Non-integral ratings are accepted (the formula
is defined for any real difference) and are useful for plots; the server itself
never produces them. All functions broadcast over numpy arrays.

Versions
--------
:data:`VERSIONS` holds a :class:`Rules` record per version of the formula so a
notebook can compare them; :data:`CURRENT` is 1.3.1.

>>> change(1500, 1500)
(16, -16)
>>> change(1500, 1500, winner_k=k_for(60), loser_k=k_for(10))
(8, -16)
"""

from __future__ import annotations

import bisect
import datetime as _dt
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

import numpy as np

from ._validate import as_float_array, choice, finite, positive
from .rounding import round_half_away

__all__ = [
    "K",
    "HEAVY_VOLUME_K",
    "HEAVY_VOLUME_GAMES",
    "HEAVY_VOLUME_WINDOW",
    "DIVISOR",
    "STARTING",
    "START",
    "CUBE_VALUES",
    "CUBE_MODES",
    "MAX_K",
    "MAX_GAMES",
    "Rules",
    "VERSIONS",
    "CURRENT",
    "expected_score",
    "k_for",
    "cube_coefficient",
    "cube_multiplier",
    "go_round",
    "unrounded_change",
    "change",
    "break_even_win_rate",
    "recent_ranked_games",
    "LadderGame",
    "Ladder",
    "MAX_PLAN_GAMES",
    "Stakes",
    "stakes",
    "expected_change",
    "hold_win_rate",
    "Plan",
    "wins_to_reach",
    "games_at_win_rate",
]

# --- constants, mirroring the Go code of version 1.3.1 -----------------------------------
K = 32
"""Maximum change per game, before the cube (``const K = 32``)."""
HEAVY_VOLUME_K = 16
"""K for players with a heavy ranked week (``const HeavyVolumeK = 16``)."""
HEAVY_VOLUME_GAMES = 50
"""Ranked games in the window that switch K (``const HeavyVolumeGames = 50``)."""
HEAVY_VOLUME_WINDOW = _dt.timedelta(days=7)
"""``const HeavyVolumeWindow = 7 * 24 * time.Hour``."""
DIVISOR = 1200
"""``const Divisor = 1200`` (chess uses 400)."""
STARTING = 1500
"""Every new player's rating (``const Starting = 1500``)."""
START = STARTING
"""Alias of :data:`STARTING`."""
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
"""The values the doubling cube can show."""
CUBE_MODES = ("coefficient", "direct")
"""How the cube scales the change: ``1 + log2(cube)/6`` (from 1.0.5) or ``cube`` (before)."""
MAX_K = 1000
"""Largest K accepted anywhere in this module (a sanity bound: the server uses 32 and 16).

With it every change is a whole number far inside ``int64`` (at most 1000 x 64 with the
direct cube), so no input can overflow the conversion to whole points."""
MAX_GAMES = 10**9
"""Largest count of ranked games accepted for a 7-day window (a sanity bound)."""


# --- the formula -------------------------------------------------------------------------
def _out(arr: np.ndarray):
    return arr.item() if arr.ndim == 0 else arr


def expected_score(rating, opponent, divisor=DIVISOR):
    """Expected score of ``rating`` against ``opponent`` (Go ``expectedScore``).

    ``1 / (1 + 10 ** ((opponent - rating) / divisor))``; broadcasts over arrays.

    >>> expected_score(1500, 1500)
    0.5
    >>> round(expected_score(1800, 1500), 3)        # favourite 300 up, 1.3.1
    0.64
    >>> round(expected_score(1800, 1500, divisor=400), 3)   # before 1.2.0
    0.849
    >>> expected_score([1500, 1600], 1500).round(3)
    array([0.5  , 0.548])
    """
    r = finite("rating", rating)
    o = finite("opponent", opponent)
    d = positive("divisor", divisor)
    r, o, d = (np.asarray(v, dtype=float) for v in (r, o, d))
    # Same operations, same order as the Go code; like Go's math.Pow, a huge
    # difference overflows to +inf quietly and gives an expected score of 0.
    with np.errstate(over="ignore"):
        return _out(1.0 / (1.0 + np.power(10.0, (o - r) / d)))


def _whole_counts(name: str, value) -> np.ndarray:
    """Whole numbers 0..MAX_GAMES as an int array (0-d for a scalar)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        if 0 <= value <= MAX_GAMES:
            return np.asarray(int(value))
        raise ValueError(f"{name} must be whole numbers from 0 to {MAX_GAMES}, got {value!r}")
    arr = as_float_array(name, value)
    finite(name, arr)
    bad = (arr != np.floor(arr)) | (arr < 0) | (arr > MAX_GAMES)
    if bad.any():
        raise ValueError(
            f"{name} must be whole numbers from 0 to {MAX_GAMES}, got {arr[bad].flat[0].item()!r}"
        )
    return arr.astype(np.int64)


def _whole_k(name: str, value) -> int:
    """One whole-number K from 1 to MAX_K (Go's ``int`` K)."""
    if isinstance(value, (bool, np.bool_)) or np.ndim(as_float_array(name, value)):
        raise TypeError(f"{name} must be a whole number from 1 to {MAX_K}, got {value!r}")
    k = _k(name, value)
    if not float(k).is_integer():
        raise ValueError(f"{name} must be a whole number from 1 to {MAX_K}, got {value!r}")
    return int(k)


def _whole(name: str, value) -> int:
    """One whole number 0..MAX_GAMES."""
    arr = _whole_counts(name, value)
    if arr.ndim:
        raise TypeError(f"{name} must be a single whole number, got an array of shape {arr.shape}")
    return int(arr)


def _k(name: str, value):
    """A K (or array of K): finite, > 0 and at most :data:`MAX_K`; float or float array."""
    k = positive(name, value)
    if isinstance(k, float):
        if k <= MAX_K:
            return k
        bad = k
    else:
        if not k.size or k.max() <= MAX_K:
            return k
        bad = k[k > MAX_K].flat[0].item()
    raise ValueError(f"{name} must be > 0 and at most {MAX_K}, got {bad!r}")


def k_for(recent_ranked_games, *, k=K, heavy_k=HEAVY_VOLUME_K, threshold=HEAVY_VOLUME_GAMES):
    """K for a player with ``recent_ranked_games`` ranked games in the window (Go ``KFor``).

    ``heavy_k`` (16) from ``threshold`` (50) games on, ``k`` (32) below. ``k`` and
    ``heavy_k`` must be in 0 < K <= :data:`MAX_K` (1000); counts are whole numbers from 0
    to :data:`MAX_GAMES`.

    >>> k_for(49), k_for(50), k_for(60)
    (32, 16, 16)
    >>> k_for([0, 49, 50, 300])
    array([32, 32, 16, 16])
    """
    games = _whole_counts("recent_ranked_games", recent_ranked_games)
    k = _k("k", k)
    heavy_k = _k("heavy_k", heavy_k)
    threshold = _whole("threshold", threshold)
    out = np.where(games >= threshold, heavy_k, k)
    if float(k).is_integer() and float(heavy_k).is_integer():
        out = out.astype(np.int64)
    return _out(out)


def _cube_array(cube) -> np.ndarray:
    arr = as_float_array("cube", cube)
    ok = np.isin(arr, CUBE_VALUES)
    if not ok.all():
        listed = ", ".join(str(c) for c in CUBE_VALUES)
        bad = arr[~ok].flat[0]
        shown = int(bad) if np.isfinite(bad) and bad == int(bad) else float(bad)
        raise ValueError(f"cube must be one of {listed}, got {shown!r}")
    return arr


def cube_coefficient(cube):
    """The cube's multiplier from version 1.0.5 on: ``1 + log2(cube) / 6``.

    ``cube`` must be 1, 2, 4, 8, 16, 32 or 64 (anything else is a ``ValueError``).

    >>> cube_coefficient(1), cube_coefficient(8), cube_coefficient(64)
    (1.0, 1.5, 2.0)
    >>> cube_coefficient([2, 4]).round(2)
    array([1.17, 1.33])
    >>> cube_coefficient(3)
    Traceback (most recent call last):
    ...
    ValueError: cube must be one of 1, 2, 4, 8, 16, 32, 64, got 3
    """
    arr = _cube_array(cube)
    return _out(1.0 + np.log2(arr) / 6.0)


def cube_multiplier(cube, mode="coefficient"):
    """What the cube multiplies the change by: the coefficient, or (before 1.0.5) the cube.

    ``mode`` is ``"coefficient"`` (``1 + log2(cube)/6``, version 1.0.5 and later) or
    ``"direct"`` (the cube value itself, as before 1.0.5).

    >>> cube_multiplier(64), cube_multiplier(64, mode="direct")
    (2.0, 64.0)
    """
    choice("mode", mode, CUBE_MODES)
    if mode == "direct":
        return _out(_cube_array(cube))
    return cube_coefficient(cube)


def go_round(x):
    """Go's ``math.Round``: nearest whole number, halves away from zero
    (:func:`elo_explain.rounding.round_half_away`, with the Go code's contract).

    Python's ``round`` (and ``np.round``) round halves to even; Go does not.
    Exact at halves (no ``+ 0.5`` float error). Returns floats, like Go.
    ``x`` must be finite: Go would return NaN and ±inf unchanged, but no rating
    change is NaN or infinite, so here a non-finite ``x`` is a ``ValueError``.

    >>> go_round(0.5), go_round(-0.5), go_round(2.5), go_round(-2.5)
    (1.0, -1.0, 3.0, -3.0)
    >>> go_round(0.49999999999999994)     # x + 0.5 would round this up
    0.0
    >>> go_round([1.4, 1.5, -1.5, -1.6])
    array([ 1.,  2., -2., -2.])
    >>> go_round(float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: x must be a finite number, got nan
    """
    return round_half_away(np.asarray(finite("x", x), dtype=float))


def _as_int(arr: np.ndarray):
    ints = arr.astype(np.int64)
    return int(ints) if ints.ndim == 0 else ints


def _unrounded(w, lo, wk, lk, d, c):
    """Winner's and loser's change before rounding, on validated arrays (the Go code's order)."""
    with np.errstate(over="ignore"):  # +inf like Go's math.Pow -> expected 0
        expected_winner = 1.0 / (1.0 + np.power(10.0, (lo - w) / d))
    expected_loser = 1.0 - expected_winner
    return wk * (1.0 - expected_winner) * c, lk * (0.0 - expected_loser) * c


def _change_inputs(winner_rating, loser_rating, winner_k, loser_k, cube, divisor, cube_mode):
    """The arguments of :func:`change` and :func:`unrounded_change`, validated, as arrays."""
    w = np.asarray(finite("winner_rating", winner_rating), dtype=float)
    lo = np.asarray(finite("loser_rating", loser_rating), dtype=float)
    wk = np.asarray(_k("winner_k", winner_k), dtype=float)
    lk = np.asarray(_k("loser_k", loser_k), dtype=float)
    d = np.asarray(positive("divisor", divisor), dtype=float)
    choice("cube_mode", cube_mode, CUBE_MODES)
    c = np.asarray(cube_multiplier(cube, cube_mode), dtype=float)
    return w, lo, wk, lk, d, c


def unrounded_change(
    winner_rating,
    loser_rating,
    *,
    winner_k=K,
    loser_k=K,
    cube=1,
    divisor=DIVISOR,
    cube_mode="coefficient",
):
    """The changes ``(winner, loser)`` before Go's rounding: ``K × (result − expected) × c``.

    The same arguments as :func:`change`, which rounds exactly these numbers (so a reader can
    see what was rounded). Floats, or float arrays when an argument is an array.

    The Greek document's cube table: two players at 1500, cube 2 (coefficient 1 + 1/6),
    K 32 -- 32 × 0.5 × 1.1667 = 18.67, which the server rounds to ±19:

    >>> [round(x, 2) for x in unrounded_change(1500, 1500, cube=2)]
    [18.67, -18.67]
    >>> change(1500, 1500, cube=2)
    (19, -19)
    """
    w, lo, wk, lk, d, c = _change_inputs(
        winner_rating, loser_rating, winner_k, loser_k, cube, divisor, cube_mode
    )
    winner, loser = np.broadcast_arrays(*_unrounded(w, lo, wk, lk, d, c))
    return _out(winner + 0.0), _out(loser + 0.0)


def change(
    winner_rating,
    loser_rating,
    *,
    winner_k=K,
    loser_k=K,
    cube=1,
    divisor=DIVISOR,
    cube_mode="coefficient",
):
    """Whole-number rating changes ``(winner_delta, loser_delta)`` (Go ``CalculateChangeWithK``).

    ``winner_delta = round(winner_k * (1 - E) * c)`` and
    ``loser_delta = round(loser_k * (0 - (1 - E)) * c)`` with ``E`` the winner's
    expected score, ``c`` the cube multiplier (:func:`cube_multiplier` with
    ``cube_mode``) and Go's rounding (:func:`go_round`). All arguments broadcast;
    scalars give Python ints, arrays give int arrays. Ratings may be any finite
    numbers: like Go's ``math.Pow``, a difference too large for ``10 ** (d / divisor)``
    gives an expected score of exactly 0 or 1 (no error). ``winner_k`` and ``loser_k``
    must be in 0 < K <= :data:`MAX_K` (1000).

    >>> change(1500, 1500)
    (16, -16)
    >>> change(1800, 1500)                   # favourite 300 up wins
    (12, -12)
    >>> change(1500, 1800)                   # the underdog wins
    (20, -20)
    >>> change(1500, 1500, winner_k=16, loser_k=32)   # busy player wins
    (8, -16)
    >>> change(1500, 1500, cube=64)
    (32, -32)
    >>> change(1500, 1500, cube=4, cube_mode="direct", divisor=400)  # before 1.0.5
    (64, -64)
    >>> change([1500, 1600, 1700], 1500)
    (array([16, 14, 13]), array([-16, -14, -13]))
    """
    w, lo, wk, lk, d, c = _change_inputs(
        winner_rating, loser_rating, winner_k, loser_k, cube, divisor, cube_mode
    )
    # finite by construction (K <= MAX_K, E in 0..1, cube <= 64): no re-validation
    winner, loser = (round_half_away(x) for x in _unrounded(w, lo, wk, lk, d, c))
    winner, loser = np.broadcast_arrays(np.asarray(winner), np.asarray(loser))
    return _as_int(winner), _as_int(loser)


def break_even_win_rate(difference, *, divisor=DIVISOR, k=K):
    """The win rate (0..1) a favourite ``difference`` points up needs to hold their rating.

    With the server's whole-number changes, ``+w`` for a win and ``−l`` for a loss (K ``k``
    for both players, cube 1, :func:`change`), the rating holds when ``p·w = (1 − p)·l``:
    ``p = l / (w + l)`` (1 when neither can move). ``difference`` (>= 0, a number or an array)
    and ``divisor`` (> 0) broadcast.

    The Greek document: with ÷400 a player 300 points up won +5 and lost −27, so had to win
    "85 %" (27 / 32); with ÷1200, 200 points up (+13 / −19) "about 60 %" (19 / 32):

    >>> break_even_win_rate(300, divisor=400), break_even_win_rate(200)
    (0.84375, 0.59375)
    >>> break_even_win_rate([0, 300]).tolist()
    [0.5, 0.625]
    """
    d = np.asarray(finite("difference", difference, lo=0.0), dtype=float)
    div = np.asarray(positive("divisor", divisor), dtype=float)
    k = _k("k", k)
    win, _ = change(d, 0.0, winner_k=k, loser_k=k, divisor=div)
    _, loss = change(0.0, d, winner_k=k, loser_k=k, divisor=div)
    total = np.asarray(win, dtype=float) - np.asarray(loss, dtype=float)
    out = np.divide(-np.asarray(loss, float), total, out=np.ones_like(total), where=total > 0)
    return _out(out)


def _window(window) -> np.timedelta64:
    if not isinstance(window, (_dt.timedelta, np.timedelta64)):
        raise TypeError(f"window must be a datetime.timedelta, got {window!r}")
    w = np.timedelta64(window, "us") if isinstance(window, _dt.timedelta) else window
    if w <= np.timedelta64(0, "us"):
        raise ValueError(f"window must be a positive duration, got {window!r}")
    return w.astype("timedelta64[us]")


# --- versions ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """The rating rules of one Gammon42 version.

    ``heavy_volume_k`` is ``None`` for versions without the weekly volume rule
    (everyone uses ``k``). ``cube_mode`` is ``"coefficient"`` (1.0.5 and later) or
    ``"direct"`` (before 1.0.5, when the cube multiplied the points).

    Checked on construction: ``divisor`` a finite number > 0; ``k`` and
    ``heavy_volume_k`` whole numbers from 1 to :data:`MAX_K` (the server's K is a Go
    ``int``); ``heavy_volume_games`` a whole number from 0 to :data:`MAX_GAMES`;
    ``window`` a positive ``timedelta``. Whole-number floats are stored as ``int``.

    >>> Rules("x", "x", divisor=0)
    Traceback (most recent call last):
    ...
    ValueError: divisor must be > 0, got 0.0

    >>> r = VERSIONS["1.3.1"]
    >>> r.divisor, r.k, r.heavy_volume_k
    (1200, 32, 16)
    >>> r.change(1800, 1500, winner_recent=60)
    (6, -12)
    >>> VERSIONS["1.0.5"].change(1800, 1500)    # favourite 300 up wins, ÷400
    (5, -5)
    >>> VERSIONS["1.0.5"].change(1500, 1800)    # ... and loses
    (27, -27)
    """

    version: str
    label: str
    divisor: float
    k: int = K
    heavy_volume_k: int | None = None
    heavy_volume_games: int = HEAVY_VOLUME_GAMES
    window: _dt.timedelta = HEAVY_VOLUME_WINDOW
    cube_mode: str = "coefficient"
    notes: str = field(default="", compare=False)

    def __post_init__(self):
        for name in ("version", "label", "notes"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a str, got {getattr(self, name)!r}")
        divisor = positive("divisor", self.divisor)
        if np.ndim(divisor):
            raise TypeError(f"divisor must be a single number, got {self.divisor!r}")
        set_ = object.__setattr__
        set_(self, "divisor", int(divisor) if float(divisor).is_integer() else float(divisor))
        set_(self, "k", _whole_k("k", self.k))
        if self.heavy_volume_k is not None:
            set_(self, "heavy_volume_k", _whole_k("heavy_volume_k", self.heavy_volume_k))
        set_(self, "heavy_volume_games", _whole("heavy_volume_games", self.heavy_volume_games))
        _window(self.window)
        choice("cube_mode", self.cube_mode, CUBE_MODES)

    def expected_score(self, rating, opponent):
        """:func:`expected_score` with this version's divisor.

        >>> round(VERSIONS["1.2.0"].expected_score(1800, 1500), 3)
        0.703
        """
        return expected_score(rating, opponent, self.divisor)

    def k_for(self, recent_ranked_games):
        """K for a player with ``recent_ranked_games`` games in the window.

        >>> VERSIONS["1.3.1"].k_for(50), VERSIONS["1.2.0"].k_for(50)
        (16, 32)
        """
        if self.heavy_volume_k is None:
            games = _whole_counts("recent_ranked_games", recent_ranked_games)
            return _out(np.full(games.shape, self.k, dtype=np.int64))
        return k_for(
            recent_ranked_games,
            k=self.k,
            heavy_k=self.heavy_volume_k,
            threshold=self.heavy_volume_games,
        )

    def cube_multiplier(self, cube):
        """:func:`cube_multiplier` under this version's cube rule.

        >>> VERSIONS["pre-1.0.5"].cube_multiplier(8), VERSIONS["1.3.1"].cube_multiplier(8)
        (8.0, 1.5)
        """
        return cube_multiplier(cube, self.cube_mode)

    def change(self, winner_rating, loser_rating, *, cube=1, winner_recent=0, loser_recent=0):
        """``(winner_delta, loser_delta)`` under these rules.

        ``winner_recent`` / ``loser_recent`` are each player's ranked games in the
        window before the game (they only matter with a volume rule).

        >>> VERSIONS["1.3.1"].change(1500, 1500, winner_recent=10, loser_recent=60)
        (16, -8)
        """
        return change(
            winner_rating,
            loser_rating,
            winner_k=self.k_for(winner_recent),
            loser_k=self.k_for(loser_recent),
            cube=cube,
            divisor=self.divisor,
            cube_mode=self.cube_mode,
        )


VERSIONS: dict[str, Rules] = {
    "pre-1.0.5": Rules(
        version="pre-1.0.5",
        label="Before 1.0.5 (÷400, cube × points)",
        divisor=400,
        cube_mode="direct",
        notes=(
            "The cube multiplied the points directly and gammons/backgammons gave extra "
            "Elo. Only the direct cube is modelled (the document gives no gammon formula); "
            "rounding is assumed to be the same math.Round."
        ),
    ),
    "1.0.5": Rules(
        version="1.0.5",
        label="Before 1.2.0 (÷400)",
        divisor=400,
        notes="Chess divisor; from 1.0.5 only the win, the opponent's rating and the cube count.",
    ),
    "1.2.0": Rules(
        version="1.2.0",
        label="1.2.0 to 1.3.0 (÷800)",
        divisor=800,
        notes="Divisor 800 halved the slope; strong players still lost rating.",
    ),
    "1.3.1": Rules(
        version="1.3.1",
        label="From 1.3.1 (÷1200)",
        divisor=DIVISOR,
        heavy_volume_k=HEAVY_VOLUME_K,
        notes="Divisor 1200 and K 16 for 50+ ranked games in the 7 days before a game.",
    ),
}
"""Rules per version, oldest first; keys ``"pre-1.0.5"``, ``"1.0.5"``, ``"1.2.0"``, ``"1.3.1"``."""

CURRENT = VERSIONS["1.3.1"]
"""The rules in force (1.3.1)."""


# --- the 7-day window --------------------------------------------------------------------
_UTC = _dt.timezone.utc
_TIME_KINDS = "datetime.datetime, datetime.date or numpy.datetime64"


def _one_time(name: str, t, aware: set) -> np.datetime64:
    if isinstance(t, np.datetime64):
        aware.add(False)
        return t.astype("datetime64[us]")
    if isinstance(t, _dt.datetime):
        if t.tzinfo is not None and t.utcoffset() is not None:
            aware.add(True)
            t = t.astimezone(_UTC).replace(tzinfo=None)
        else:
            aware.add(False)
        return np.datetime64(t, "us")
    if isinstance(t, _dt.date):
        aware.add(False)
        return np.datetime64(t, "us")
    raise TypeError(f"{name} must contain {_TIME_KINDS} values, got {t!r}")


def _times(name: str, value, aware: set) -> np.ndarray:
    """``value`` (one time or a sequence of times) as ``datetime64[us]`` (UTC if aware)."""
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be {_TIME_KINDS} (or a sequence of them), got {value!r}")
    if isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.datetime64):
        if value.size:
            aware.add(False)
        return value.astype("datetime64[us]")
    if isinstance(value, (_dt.date, np.datetime64)):
        return np.asarray(_one_time(name, value, aware))
    try:
        items = list(value)
    except TypeError:
        raise TypeError(
            f"{name} must be {_TIME_KINDS} (or a sequence of them), got {value!r}"
        ) from None
    # Python datetime objects carry their own time zone: converting them is
    # per-object work that numpy cannot do; the counting below is vectorized.
    return np.array([_one_time(name, t, aware) for t in items], dtype="datetime64[us]")


def recent_ranked_games(game_times, at, *, window=HEAVY_VOLUME_WINDOW):
    """How many of ``game_times`` fall in the window before ``at``: ``at - 7 days < t < at``.

    The game being rated (at ``at``) is not counted, nor is a game exactly 7 days
    earlier. ``at`` may be one time or an array of times (one count each).
    Times may be naive or timezone-aware, not a mix.

    >>> from datetime import datetime, timedelta
    >>> at = datetime(2026, 10, 8, 12, 0)
    >>> games = [at - timedelta(days=7), at - timedelta(days=6, hours=23), at - timedelta(hours=1), at]
    >>> recent_ranked_games(games, at)
    2
    >>> k_for(recent_ranked_games(games, at))
    32
    """
    aware: set = set()
    times = np.sort(_times("game_times", game_times, aware))
    when = _times("at", at, aware)
    if len(aware) > 1:
        raise TypeError("game_times and at must be all timezone-aware or all naive datetimes")
    w = _window(window)
    counts = np.searchsorted(times, when, side="left") - np.searchsorted(
        times, when - w, side="right"
    )
    return _as_int(np.asarray(counts))


# --- a small ladder ----------------------------------------------------------------------
@dataclass(frozen=True)
class LadderGame:
    """One rated game of a :class:`Ladder` replay: who, ratings before/after, K and deltas."""

    index: int
    time: object
    winner: Hashable
    loser: Hashable
    cube: int
    winner_before: float
    loser_before: float
    winner_recent: int
    loser_recent: int
    winner_k: int
    loser_k: int
    winner_delta: int
    loser_delta: int
    winner_after: float
    loser_after: float


class Ladder:
    """Replays a chronological log of ranked games, each player with their own K.

    Before each game, every player's K comes from their own ranked games in the
    window before it (:meth:`Rules.k_for`); ratings start at ``starting`` (1500)
    unless given in ``ratings``. Replay is sequential by nature (each game uses
    the ratings the previous games left); window counts use a per-player sorted
    list of times and :mod:`bisect`, so each game costs O(log n).

    >>> from datetime import datetime, timedelta
    >>> t0 = datetime(2026, 10, 1)
    >>> busy = [(t0 + timedelta(minutes=i), "ana", f"p{i}", 1) for i in range(60)]
    >>> ladder = Ladder()
    >>> games = ladder.replay(busy + [(t0 + timedelta(hours=2), "bob", "ana", 1)])
    >>> g = games[-1]
    >>> g.winner_k, g.loser_k, g.loser_recent
    (32, 16, 60)
    >>> ladder.rating("p0"), ladder.rating("nobody")
    (1484, 1500)
    """

    def __init__(self, rules: Rules = CURRENT, *, starting=STARTING, ratings=None):
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a gammon42.Rules record, got {rules!r}")
        self.rules = rules
        self.starting = finite("starting", starting)
        if float(self.starting).is_integer():
            self.starting = int(self.starting)
        self._ratings: dict = {}
        for player, r in dict(ratings or {}).items():
            r = finite(f"ratings[{player!r}]", r)
            self._ratings[player] = int(r) if float(r).is_integer() else r
        self._times: dict = {}
        self._last = None
        self._aware = None
        self._games: list[LadderGame] = []

    @property
    def ratings(self) -> dict:
        """A copy of the current ratings of everyone who has one."""
        return dict(self._ratings)

    @property
    def games(self) -> tuple:
        """Every game played so far, as :class:`LadderGame` records."""
        return tuple(self._games)

    def rating(self, player):
        """Current rating of ``player`` (``starting`` if they have not played)."""
        return self._ratings.get(player, self.starting)

    def award(self, player, points):
        """Add ``points`` to ``player``'s rating outside ranked play (not a ranked game).

        Public tournaments give fixed podium prizes, e.g. +50, +25, +15; they do not
        count in anyone's 7-day window.

        >>> ladder = Ladder()
        >>> ladder.award("ana", 50)
        1550
        """
        points = finite("points", points)
        new = self.rating(player) + (int(points) if float(points).is_integer() else points)
        self._ratings[player] = new
        return new

    def recent_ranked_games(self, player, at) -> int:
        """``player``'s ranked games with ``at - window < t < at`` in this ladder."""
        aware: set = set()
        t = int(_times("at", at, aware).astype(np.int64))
        return self._count(player, t)

    def _count(self, player, t_us: int) -> int:
        times = self._times.get(player, [])
        lo = t_us - int(_window(self.rules.window).astype(np.int64))
        return bisect.bisect_left(times, t_us) - bisect.bisect_right(times, lo)

    def play(self, time, winner, loser, cube=1) -> LadderGame:
        """Rate one game (at ``time``, not earlier than the previous one) and return it."""
        if winner == loser:
            raise ValueError(f"winner and loser must be different players, got {winner!r} twice")
        aware: set = set()
        t_us = int(_times("time", time, aware).astype(np.int64))
        is_aware = True in aware
        if self._aware is not None and is_aware != self._aware:
            raise TypeError("time must be all timezone-aware or all naive across the log")
        if self._last is not None:
            if t_us < self._last:
                raise ValueError(
                    f"time must not be earlier than the previous game's time, got {time!r}"
                )
        _cube_array(cube)
        cube = int(cube)
        rules = self.rules
        w_before, l_before = self.rating(winner), self.rating(loser)
        w_recent, l_recent = self._count(winner, t_us), self._count(loser, t_us)
        w_k, l_k = int(rules.k_for(w_recent)), int(rules.k_for(l_recent))
        w_delta, l_delta = change(
            w_before,
            l_before,
            winner_k=w_k,
            loser_k=l_k,
            cube=cube,
            divisor=rules.divisor,
            cube_mode=rules.cube_mode,
        )
        self._ratings[winner] = w_before + w_delta
        self._ratings[loser] = l_before + l_delta
        self._times.setdefault(winner, []).append(t_us)
        self._times.setdefault(loser, []).append(t_us)
        self._last = t_us
        self._aware = is_aware
        game = LadderGame(
            index=len(self._games),
            time=time,
            winner=winner,
            loser=loser,
            cube=cube,
            winner_before=w_before,
            loser_before=l_before,
            winner_recent=w_recent,
            loser_recent=l_recent,
            winner_k=w_k,
            loser_k=l_k,
            winner_delta=w_delta,
            loser_delta=l_delta,
            winner_after=w_before + w_delta,
            loser_after=l_before + l_delta,
        )
        self._games.append(game)
        return game

    def replay(self, log: Iterable) -> list:
        """Play every ``(time, winner, loser, cube)`` of ``log`` in order; return the records.

        ``cube`` may be left out (``(time, winner, loser)`` means cube 1).

        >>> from datetime import datetime
        >>> log = [(datetime(2026, 10, 1, 20), "ana", "bob", 2),
        ...        (datetime(2026, 10, 1, 21), "bob", "ana")]
        >>> [(g.winner_delta, g.loser_delta) for g in Ladder().replay(log)]
        [(19, -19), (17, -17)]
        """
        out = []
        for i, entry in enumerate(log):
            try:
                entry = tuple(entry)
            except TypeError:
                raise TypeError(
                    f"log[{i}] must be (time, winner, loser, cube), got {entry!r}"
                ) from None
            if len(entry) not in (3, 4):
                raise ValueError(
                    f"log[{i}] must be (time, winner, loser, cube) or (time, winner, loser), "
                    f"got {entry!r}"
                )
            out.append(self.play(*entry))
        return out


# --- planning: what do I need? -----------------------------------------------------------
MAX_PLAN_GAMES = 5000
"""The most games a plan follows before it says "out of reach"."""


def _plan_inputs(rating, opponent, recent_games, cube):
    r = finite("rating", rating, lo=0.0, hi=5000.0)
    o = finite("opponent", opponent, lo=0.0, hi=5000.0)
    return float(r), float(o), _whole("recent_games", recent_games), float(cube_coefficient(cube))


@dataclass(frozen=True)
class Stakes:
    """One ranked game's changes for this player (:func:`stakes`): ``win`` (> = 0) and
    ``loss`` (<= 0), whole points, with the player's ``k`` and ``expected`` score."""

    win: int
    loss: int
    k: int
    expected: float


def stakes(rating, opponent, recent_games=0, cube=1) -> Stakes:
    """What the next ranked game against ``opponent`` wins or loses for ``rating``'s player,
    whose K comes from their ``recent_games`` in the 7-day window (:func:`k_for`), at the
    doubling cube's ``cube`` (the opponent's K does not change this player's change).

    The Greek document: 150 points up, K 32: +14 / −18; K 16: +7 / −9; cube 8 at 1500: ±24:

    >>> [(s.win, s.loss) for s in (stakes(1650, 1500), stakes(1650, 1500, 60),
    ...                            stakes(1500, 1500, cube=8))]
    [(14, -18), (7, -9), (24, -24)]
    """
    return _stakes(*_plan_inputs(rating, opponent, recent_games, cube))


def _stakes(r: float, o: float, recent: int, c: float) -> Stakes:
    """:func:`stakes` on validated inputs (the plans' loops): :func:`change`'s own formula
    (``_unrounded``) and rounding, for this player's win and loss, without validating again."""
    k = HEAVY_VOLUME_K if recent >= HEAVY_VOLUME_GAMES else K  # k_for, on a valid count
    win, _ = _unrounded(r, o, k, k, DIVISOR, c)
    _, loss = _unrounded(o, r, k, k, DIVISOR, c)
    expected = 1.0 - float(_unrounded(r, o, 1.0, 1.0, DIVISOR, 1.0)[0])  # 1 × (1 − E) × 1
    return Stakes(int(round_half_away(win)), int(round_half_away(loss)), k, expected)


def _win_rate(win_rate) -> float:
    return float(finite("win_rate", win_rate, lo=0.0, hi=1.0))


def expected_change(rating, opponent, win_rate, recent_games=0, cube=1) -> float:
    """The expected change per game at ``win_rate`` (0..1): ``p·win + (1 − p)·loss``, from
    the whole-number changes of :func:`stakes`.

    1500 against 1500, K 32: ±16, so 60 % gives 0.6 × 16 − 0.4 × 16 = +3.2 a game:

    >>> expected_change(1500, 1500, 0.6)
    3.2
    """
    p = _win_rate(win_rate)
    s = stakes(rating, opponent, recent_games, cube)
    return round(p * s.win + (1 - p) * s.loss, 10)


def hold_win_rate(rating, opponent, recent_games=0, cube=1) -> float:
    """The win rate that holds the rating against ``opponent``: ``p·win = (1 − p)·(−loss)``,
    so ``p = −loss / (win − loss)`` (1 when neither can move).

    The Greek document: 200 points up, K 32, +13 / −19: about 60 % (19 / 32):

    >>> hold_win_rate(1700, 1500)
    0.59375
    """
    s = stakes(rating, opponent, recent_games, cube)
    total = s.win - s.loss
    return -s.loss / total if total > 0 else 1.0


@dataclass(frozen=True)
class Plan:
    """Games to a target (:func:`wins_to_reach`, :func:`games_at_win_rate`): ``games``
    (``None`` when out of reach), ``ratings`` (after each game, the last the highest
    reached), ``ks`` (the K of each game)."""

    games: int | None
    ratings: tuple
    ks: tuple

    @property
    def reachable(self) -> bool:
        return self.games is not None


def wins_to_reach(rating, opponent, target, recent_games=0, cube=1) -> Plan:
    """The wins in a row against an opponent rated ``opponent`` that bring ``rating`` to at
    least ``target``: each win is rated from the new rating, rounded as Go rounds, with the
    K that the 7-day count gives as the games are added (``recent_games``, then one more for
    each game: K 16 once 50 ranked games are in the window). Out of reach (``games`` is
    ``None``) when a win no longer moves the rating.

    1500 against 1500 with 49 games this week, to 1530: +16 (K 32) → 1516; then K 16:
    16 × (1 − 0.5077) = 7.9 → +8 → 1524; 16 × (1 − 0.5115) = 7.8 → +8 → 1532, three wins:

    >>> p = wins_to_reach(1500, 1500, 1530, recent_games=49)
    >>> p.games, p.ratings, p.ks
    (3, (1516, 1524, 1532), (32, 16, 16))
    """
    r, o, recent, c = _plan_inputs(rating, opponent, recent_games, cube)
    goal = float(finite("target", target, lo=0.0, hi=5000.0))
    ratings, ks = [], []
    while r < goal and len(ratings) < MAX_PLAN_GAMES:
        s = _stakes(r, o, recent + len(ratings), c)
        if s.win <= 0:
            return Plan(None, tuple(ratings), tuple(ks))
        r += s.win
        ratings.append(_plain(r))
        ks.append(s.k)
    return Plan(len(ratings) if r >= goal else None, tuple(ratings), tuple(ks))


def _plain(x: float):
    return int(x) if float(x).is_integer() else x


def games_at_win_rate(rating, opponent, target, win_rate, recent_games=0, cube=1) -> Plan:
    """The games it takes at ``win_rate`` to reach ``target`` on average: the expected
    rating moves by :func:`expected_change` from each new (unrounded) rating, with K from
    the 7-day count as the games are added. Out of reach (``games`` is ``None``) when the
    expected change is no longer positive before the target (the rating settles below it),
    or after :data:`MAX_PLAN_GAMES` games.

    1500 against 1500 at 75 %, K 32: 0.75 × 16 − 0.25 × 16 = +8 a game; at 1508 E is
    0.5038: 32 × 0.4962 = 15.9 → +16, 32 × 0.5038 = 16.1 → −16, +8 again:

    >>> games_at_win_rate(1500, 1500, 1515, 0.75).ratings
    (1508.0, 1516.0)
    >>> games_at_win_rate(1500, 1500, 1600, 0.5).reachable
    False
    """
    r, o, recent, c = _plan_inputs(rating, opponent, recent_games, cube)
    goal = float(finite("target", target, lo=0.0, hi=5000.0))
    p = _win_rate(win_rate)
    ratings, ks = [], []
    while r < goal and len(ratings) < MAX_PLAN_GAMES:
        s = _stakes(r, o, recent + len(ratings), c)
        step = round(p * s.win + (1 - p) * s.loss, 10)
        if step <= 0:
            return Plan(None, tuple(ratings), tuple(ks))
        r += step
        ratings.append(r)
        ks.append(s.k)
    return Plan(len(ratings) if r >= goal else None, tuple(ratings), tuple(ks))
