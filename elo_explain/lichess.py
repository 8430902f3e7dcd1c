"""The bundled real games: 20,058 public-domain Lichess games with both ratings and the result.

The package ships ``data/lichess_games.csv.bz2``, a byte-exact bzip2 copy of the project's
``lichess_games.csv`` (Kaggle ``datasnaek/chess``, CC0; see ``data/SOURCE.md`` for origin,
licence, sha256 and known quirks). :func:`load_games` reads it into plain numpy arrays -- no
pandas needed -- and filters it:

* ``deduplicate=True`` (default) keeps the first row of every ``game_id`` (945 rows of the
  file repeat an earlier game exactly), leaving 19,113 games;
* ``rated_only=True`` keeps rated games (casual games do not change Lichess ratings);
* ``time_control`` keeps one exact clock (``"10+0"``: minutes + increment seconds) or one
  Lichess speed class (``"bullet"``, ``"blitz"``, ...; see :func:`speed_of`).

Lichess rates with Glicko-2 (:mod:`elo_explain.glicko`), one rating per speed class, so the
ratings here are Glicko-2 ratings, shown before the game.

Example::

    >>> games = load_games(rated_only=True)
    >>> len(games)
    15467
    >>> games.white_rating[:3], games.black_rating[:3], games.result[:3]
    (array([1322, 1496, 1439]), array([1261, 1500, 1454]), array([0., 1., 1.]))
"""

from __future__ import annotations

import bz2
import csv
import hashlib  # noqa: F401 (the module doctest checks the file's digest with it)
import io
import re
from dataclasses import dataclass, fields
from functools import lru_cache
from importlib import resources

import numpy as np

from . import _validate as v
from ._cache import disk_cached

__all__ = [
    "DATA_FILE",
    "ORIGINAL_SHA256",
    "SPEEDS",
    "Games",
    "load_games",
    "raw_csv",
    "speed_of",
]

#: Name of the bundled file inside ``elo_explain/data``.
DATA_FILE = "lichess_games.csv.bz2"
#: sha256 of the original ``lichess_games.csv`` (``elo_explain/data/SOURCE.md``); the bundled
#: file decompresses to exactly these bytes.
ORIGINAL_SHA256 = "38d61cf9ca2b59c5699c16d0e3947b3fd2d38f7b5921adb6bb8749095cf36715"
#: Lichess speed classes with the largest estimated duration (seconds) each one takes,
#: estimated duration = initial seconds + 40 x increment seconds (lichess.org/faq#time-controls).
SPEEDS = {"ultrabullet": 29, "bullet": 179, "blitz": 479, "rapid": 1499, "classical": np.inf}

_CLOCK = re.compile(r"^\d+(\.\d+)?\+\d+$")


@dataclass(frozen=True)
class Games:
    """A set of games as parallel numpy arrays, one element per game (file order kept).

    ``white_rating``, ``black_rating`` (int), ``result`` (1 white won, 0.5 draw, 0 black won),
    ``rated`` (bool), ``time_control`` (str, ``"10+0"``), ``victory_status`` (str), ``turns``
    (int, plies) and ``game_id`` (str).

    >>> g = load_games()
    >>> len(g), str(g.game_id[0]), str(g.time_control[0]), bool(g.rated[0])
    (19113, 'TZJHLljE', '15+2', False)
    >>> int(g.difference[0])            # white rating - black rating
    309
    """

    white_rating: np.ndarray
    black_rating: np.ndarray
    result: np.ndarray
    rated: np.ndarray
    time_control: np.ndarray
    victory_status: np.ndarray
    turns: np.ndarray
    game_id: np.ndarray

    def __len__(self) -> int:
        return len(self.result)

    @property
    def difference(self) -> np.ndarray:
        """White's rating minus black's, per game (the input of :func:`calibration.fit_divisor`).

        >>> load_games().difference[:3]
        array([309,  61,  -4])
        """
        return self.white_rating - self.black_rating

    @property
    def speed(self) -> np.ndarray:
        """The Lichess speed class of every game's clock (see :func:`speed_of`).

        >>> load_games().speed[:3]
        array(['rapid', 'rapid', 'rapid'], dtype='<U11')
        """
        return speed_of(self.time_control)

    def select(self, mask) -> Games:
        """The games where the boolean ``mask`` (one per game) is true, in the same order.

        >>> g = load_games()
        >>> len(g.select(g.result == 0.5))
        888
        """
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != self.result.shape:
            raise ValueError(
                f"mask must be a boolean array with one element per game ({len(self)}), "
                f"got dtype {mask.dtype} and shape {mask.shape}"
            )
        return Games(**{f.name: getattr(self, f.name)[mask] for f in fields(self)})


def raw_csv() -> bytes:
    """The bundled file decompressed: exactly the original ``lichess_games.csv`` bytes.

    >>> data = raw_csv()
    >>> len(data), data[:38]
    (820178, b'white_rating,black_rating,result,rated')
    >>> hashlib.sha256(data).hexdigest() == ORIGINAL_SHA256
    True
    """
    return bz2.decompress(resources.files(__package__).joinpath("data", DATA_FILE).read_bytes())


@lru_cache(maxsize=1)
def _all_games() -> Games:
    data = resources.files(__package__).joinpath("data", DATA_FILE)
    arrays = _parse(len(data.read_bytes()), ORIGINAL_SHA256)
    for a in arrays.values():
        a.setflags(write=False)
    return Games(**arrays)


@disk_cached  # the same arrays in every kernel: parsed once, then read (CAPACITY.md)
def _parse(size: int, sha256: str) -> dict:
    """The bundled games' columns (``size`` and ``sha256`` of the file key the cache)."""
    text = io.StringIO(raw_csv().decode("utf-8"))
    reader = csv.reader(text)
    header = next(reader)
    columns = dict(zip(header, zip(*reader)))
    return {
        "white_rating": np.array(columns["white_rating"], dtype=np.int64),
        "black_rating": np.array(columns["black_rating"], dtype=np.int64),
        "result": np.array(columns["result"], dtype=float),
        "rated": np.array(columns["rated"]) == "true",
        "time_control": np.array(columns["time_control"]),
        "victory_status": np.array(columns["victory_status"]),
        "turns": np.array(columns["turns"], dtype=np.int64),
        "game_id": np.array(columns["game_id"]),
    }


def speed_of(time_control) -> np.ndarray:
    """Lichess speed class of clocks ``"minutes+increment"`` (a string or an array of them).

    Lichess estimates a game's duration as initial seconds + 40 x increment seconds and
    calls it ultrabullet up to 29 s, bullet up to 179 s, blitz up to 479 s, rapid up to
    1,499 s and classical beyond (lichess.org/faq#time-controls, today's classes; the games
    date from 2013-2017, when Lichess had fewer classes, so treat this as a convenient
    grouping rather than the pool each rating came from).

    >>> speed_of(["1+0", "3+2", "5+0", "10+0", "15+15", "0+12"])
    array(['bullet', 'blitz', 'blitz', 'rapid', 'classical', 'rapid'], dtype='<U11')
    """
    tc = np.asarray(time_control, dtype=str)
    flat = tc.ravel()
    bad = [t for t in np.unique(flat) if not _CLOCK.match(t)]
    if bad:
        raise ValueError(
            f"time_control must look like 'minutes+increment' (e.g. '10+0'), got {bad[0]!r}"
        )
    parts = np.char.partition(flat, "+")
    seconds = parts[:, 0].astype(float) * 60 + 40 * parts[:, 2].astype(float)
    names = np.array(list(SPEEDS), dtype="<U11")
    limits = np.array(list(SPEEDS.values()))
    out = names[np.searchsorted(limits, seconds, side="left")]
    return out.reshape(tc.shape)


def load_games(
    *, rated_only: bool = False, time_control: str | None = None, deduplicate: bool = True
) -> Games:
    """Load the bundled Lichess games as a :class:`Games` record of numpy arrays.

    Parameters
    ----------
    rated_only : keep rated games only (default: rated and casual).
    time_control : ``None`` (all), an exact clock such as ``"10+0"``, or a speed class
        ``"ultrabullet"``, ``"bullet"``, ``"blitz"``, ``"rapid"``, ``"classical"``.
    deduplicate : keep only the first row of each ``game_id`` (default ``True``).

    The figures of ``data/SOURCE.md``::

        >>> len(load_games(deduplicate=False)), len(load_games())
        (20058, 19113)
        >>> len(load_games(rated_only=True)), len(load_games(rated_only=True, deduplicate=False))
        (15467, 16155)
        >>> len(load_games(time_control="10+0", deduplicate=False))
        7721
        >>> len(load_games(time_control="blitz")) + len(load_games(time_control="rapid")) > 15000
        True
    """
    for name, value in (("rated_only", rated_only), ("deduplicate", deduplicate)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}")
    games = _all_games()
    mask = np.ones(len(games), dtype=bool)
    if deduplicate:
        _, first = np.unique(games.game_id, return_index=True)
        mask[:] = False
        mask[first] = True
    if rated_only:
        mask &= games.rated
    if time_control is not None:
        if not isinstance(time_control, str):
            raise TypeError(
                f"time_control must be a string such as '10+0' or 'blitz', got {time_control!r}"
            )
        tc = time_control.strip().lower()
        if "+" in tc:
            if not _CLOCK.match(tc):
                raise ValueError(
                    f"time_control must look like 'minutes+increment' "
                    f"(e.g. '10+0') or be a speed class, got {time_control!r}"
                )
            mask &= games.time_control == tc
        else:
            v.choice("time_control", tc, tuple(SPEEDS))
            mask &= games.speed == tc
    return games.select(mask)
