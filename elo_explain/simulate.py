"""Simulated ladders: seasons under every rule set, and the weekly swing.

All numpy and vectorized across players and games.

**Seasons** (:func:`simulate_season`): a population with hidden true strengths plays a
ladder under a rule set (:class:`Elo`, :class:`FideElo`, :class:`Gammon42`, :class:`Fibs`,
:class:`LichessGlicko2`). Results are drawn from the true strengths; ratings, rating spread
and how often the rating favourite wins (against how often the rule's curve expects it to)
are recorded week by week.

**The weekly swing** (:func:`weekly_swing`): the Gammon42 document's argument for halving K
for busy players -- a week's movement is about K x games x (shortfall below the expected win
rate), so at 300 games and K 32 ordinary luck moves a rating by hundreds of points.
:func:`luck_only_weeks` is the one run of it that every page shows (the same numbers on 05
and 09).

Fitting the divisor to real games is :mod:`elo_explain.calibration`; reading a reader's
results file is :mod:`elo_explain.results_csv`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field

import numpy as np

from . import _validate as v
from . import elo, fibs, fide, gammon42, glicko
from ._cache import disk_cached
from ._validate import readonly as _readonly
from .rounding import round_half_away

__all__ = [
    "Elo",
    "FideElo",
    "Gammon42",
    "Fibs",
    "LichessGlicko2",
    "RULE_SETS",
    "Season",
    "simulate_season",
    "WeeklySwing",
    "weekly_swing",
    "SWING_KS",
    "SWING_GAMES",
    "SWING_WEEKS",
    "luck_only_weeks",
]

MAX_SEASON_GAMES = 4_000_000
"""Most games one :func:`simulate_season` call may play (players / 2 x weeks x games_per_week)."""
MAX_SEASON_ROUNDS = 10_000
"""Most rounds one :func:`simulate_season` call may play (weeks x games_per_week)."""
MAX_SWING_GAMES = 30_000_000
"""Most games one :func:`weekly_swing` call may rate (K values x max games_per_week x players)."""
MAX_SWING_VALUES = 20_000_000
"""Most weekly results one :func:`weekly_swing` call may keep (K values x games_per_week x players)."""


def _rng(seed) -> np.random.Generator:
    """``numpy.random.default_rng(seed)`` with ``seed`` checked: ``None`` (fresh entropy), a
    whole number >= 0, or a numpy ``Generator`` / ``BitGenerator`` / ``SeedSequence``."""
    if seed is None or isinstance(
        seed, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)
    ):
        return np.random.default_rng(seed)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
        if seed < 0:
            raise ValueError(f"seed must be None or a whole number >= 0, got {seed!r}")
        return np.random.default_rng(int(seed))
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (float, np.floating)):
        raise TypeError(f"seed must be None or a whole number >= 0, got {seed!r}")
    if not (math.isfinite(seed) and seed >= 0 and float(seed).is_integer()):
        raise ValueError(f"seed must be None or a whole number >= 0, got {seed!r}")
    return np.random.default_rng(int(seed))


MAX_RATING = 100_000
"""Largest starting rating (either sign) of a rule set: real ratings lie within 0..4000."""
MAX_K = gammon42.MAX_K
"""Largest K of the :class:`Elo` and :class:`FideElo` rule sets (1000, a sanity bound)."""


def _start_rating(value) -> float:
    return v.in_range("start_rating", value, -MAX_RATING, MAX_RATING)


# A rule set turns the games of one round (disjoint pairs a[i] vs b[i], every player at
# most once) into rating changes, all pairs at once. Each is a frozen dataclass holding
# its settings; the mutable state of a season lives in a dict made by ``start``.
@dataclass(frozen=True)
class Elo:
    """The plain Elo formula, every game rated at once: ``K x (score - E)``, ÷``divisor``.

    Ratings are not rounded. 0 < ``k`` <= :data:`MAX_K` (1000), ``divisor`` > 0,
    ``start_rating`` the rating of every player at the start (within ±:data:`MAX_RATING`).

    >>> rules = Elo(k=20)
    >>> state = rules.start(2, rounds_per_week=1)
    >>> e = rules.play(state, np.array([0]), np.array([1]), np.array([1.0]))
    >>> rules.ratings(state)
    array([1510., 1490.])
    """

    k: float = 20.0
    divisor: float = 400.0
    start_rating: float = 1500.0
    name: str = "Elo"
    allows_draws = True

    def __post_init__(self):
        gammon42._k("k", self.k)
        v.in_range("divisor", v.positive("divisor", self.divisor), 0.0, math.inf)
        _start_rating(self.start_rating)

    @property
    def label(self) -> str:
        """Short description for legends.

        >>> Elo(k=32, divisor=1200).label
        'Elo K 32 ÷1200'
        """
        return f"Elo K {self.k:g} ÷{self.divisor:g}"

    def start(self, players, rounds_per_week):
        """A new season's state: everyone at ``start_rating``."""
        return {"rating": np.full(players, float(self.start_rating))}

    def ratings(self, state):
        """Current ratings (a view)."""
        return state["rating"]

    def expected(self, state, a, b):
        """Expected score of ``a`` against ``b`` under this rule's curve."""
        r = state["rating"]
        return elo.expected_score(r[a], r[b], self.divisor)

    def play(self, state, a, b, score, cube=None):
        """Rate the round's games ``a`` vs ``b`` (``score`` is ``a``'s); returns ``a``'s E."""
        r = state["rating"]
        e = elo.expected_score(r[a], r[b], self.divisor)
        change = elo.rating_change(score, e, self.k)
        r[a] += change
        r[b] -= change
        return e

    def end_week(self, state):
        """Nothing to do at the end of a week."""


@dataclass(frozen=True)
class FideElo:
    """FIDE rating with a weekly rating list (rule B.02 8): the week is the rating period.

    Every game of the week is rated from the ratings on the list (the ratings at the start
    of the week); at the end of the week each player gets ``K x ΣΔR`` rounded once, halves
    away from zero, with K reduced by the 700 rule for the week's games. ``use_table``
    takes PD from table 8.1.2 (summed exactly in hundredths) or the ÷400 formula;
    ``cap_400`` applies the 400-point rule as in force on date ``on`` (``None`` = today:
    not for players rated 2650+ since 2025-10-01). ``k`` is a number (0 < k <=
    :data:`MAX_K`) or ``"fide"`` for rule 8.3.3 (40 for the first 30 games, 10 once 2400
    was reached, else 20; everyone an adult). ``start_rating`` within ±:data:`MAX_RATING`.

    >>> rules = FideElo(k=20)
    >>> state = rules.start(2, rounds_per_week=1)
    >>> e = rules.play(state, np.array([0]), np.array([1]), np.array([1.0]))
    >>> rules.ratings(state)        # nothing moves until the list is published
    array([1500., 1500.])
    >>> rules.end_week(state)
    >>> rules.ratings(state)        # 20 x (1 - 0.50) = 10
    array([1510., 1490.])
    """

    k: object = 20
    use_table: bool = True
    cap_400: bool = True
    on: object = None
    start_rating: float = 1500.0
    name: str = "FIDE"
    divisor = 400.0
    allows_draws = True
    rates_weekly = True  # ratings only change at the end of the week

    def __post_init__(self):
        if isinstance(self.k, str):
            if self.k != "fide":
                raise ValueError(f"k must be a number > 0 or 'fide', got {self.k!r}")
        else:
            gammon42._k("k", self.k)
        for flag in ("use_table", "cap_400"):
            if not isinstance(getattr(self, flag), (bool, np.bool_)):
                raise TypeError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        _start_rating(self.start_rating)
        if self.cap_400:
            fide.effective_difference(2000, 1500, on=self.on)  # validates the date

    @property
    def label(self) -> str:
        """Short description for legends.

        >>> FideElo(use_table=False, cap_400=False).label
        'FIDE K 20, formula, no cap'
        """
        k = "K by rule 8.3.3" if self.k == "fide" else f"K {self.k:g}"
        return (
            f"FIDE {k}, {'table' if self.use_table else 'formula'}, "
            f"{'400 cap' if self.cap_400 else 'no cap'}"
        )

    def start(self, players, rounds_per_week):
        """A new season's state."""
        return {
            "rating": np.full(players, float(self.start_rating)),
            "delta": np.zeros(players, dtype=np.int64 if self.use_table else float),
            "games": np.zeros(players, dtype=np.int64),
            "rated_games": np.zeros(players, dtype=np.int64),
            "reached_2400": np.zeros(players, dtype=bool),
        }

    def ratings(self, state):
        """The published list (changes appear at the end of each week)."""
        return state["rating"]

    def _difference(self, r, a, b):
        if self.cap_400:
            return fide.effective_difference(r[a], r[b], on=self.on), fide.effective_difference(
                r[b], r[a], on=self.on
            )
        return r[a] - r[b], r[b] - r[a]

    def _pd(self, diff):
        if self.use_table:
            return fide.table_expected_score(diff)
        return elo.expected_score(diff, 0.0, 400.0)

    def expected(self, state, a, b):
        """PD of ``a`` against ``b`` (table or formula, with the cap in force for ``a``)."""
        return self._pd(self._difference(state["rating"], a, b)[0])

    def play(self, state, a, b, score, cube=None):
        """Add ΔR = score - PD of games ``a`` vs ``b`` to each player's week (each side its own PD).

        The list does not change within the week, so a whole week of games can be passed at
        once (a player may appear many times). Returns ``a``'s PD.
        """
        n = state["games"].size
        da, db = self._difference(state["rating"], a, b)
        pa, pb = self._pd(da), self._pd(db)
        if self.use_table:
            s100 = np.rint(score * 100).astype(np.int64)
            ga = s100 - np.rint(pa * 100).astype(np.int64)
            gb = (100 - s100) - np.rint(pb * 100).astype(np.int64)
            # integer hundredths: bincount sums in float64, exact for these magnitudes
            state["delta"] += np.rint(
                np.bincount(a, weights=ga, minlength=n) + np.bincount(b, weights=gb, minlength=n)
            ).astype(np.int64)
        else:
            state["delta"] += np.bincount(a, weights=score - pa, minlength=n) + np.bincount(
                b, weights=(1.0 - score) - pb, minlength=n
            )
        state["games"] += np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
        return pa

    def end_week(self, state):
        """Publish the list: K (700 rule) x ΣΔR, rounded once per player, halves away from zero."""
        r, games = state["rating"], state["games"]
        if self.k == "fide":
            k = fide.k_factor(
                r, rated_games=state["rated_games"], reached_2400=state["reached_2400"]
            )
        else:
            k = np.full(r.shape, self.k)
        k = np.asarray(fide.k_with_700_rule(k, games), dtype=float)
        # FIDE's rounding, once per player. With the table, ΔR is whole hundredths: K x ΣΔR
        # is exact, and so is its quotient by 100 at a half (x.5 is a float).
        scale = 100.0 if self.use_table else 1.0
        change = round_half_away(k * state["delta"] / scale)
        r += change
        state["rated_games"] += games
        state["reached_2400"] |= r >= 2400
        state["delta"][:] = 0
        games[:] = 0


@dataclass(frozen=True)
class Gammon42:
    """The Gammon42 backgammon server, version ``"1.0.5"``, ``"1.2.0"`` or ``"1.3.1"``.

    Uses :data:`elo_explain.gammon42.VERSIONS` (divisor, K, cube rule, volume K) and
    :meth:`Rules.change <elo_explain.gammon42.Rules.change>` (whole-number changes, Go
    rounding). Each game is played at a random cube value drawn with the probabilities
    ``cube_weights`` (``{cube: weight}``; the default is an illustrative guess, the
    document gives no distribution; ``{1: 1}`` for no doubling). The volume rule of 1.3.1
    counts each player's games in the previous ``games_per_week`` rounds (one week): busy
    players (50+) play with K 16. ``start_rating`` within ±:data:`MAX_RATING`.

    >>> rules = Gammon42("1.3.1", cube_weights={1: 1})
    >>> state = rules.start(2, rounds_per_week=1)
    >>> e = rules.play(state, np.array([0]), np.array([1]), np.array([1.0]), cube=np.array([1]))
    >>> rules.ratings(state)
    array([1516., 1484.])
    """

    version: str = "1.3.1"
    cube_weights: dict = field(default_factory=lambda: {1: 0.55, 2: 0.30, 4: 0.10, 8: 0.05})
    start_rating: float = gammon42.STARTING
    name: str = "Gammon42"
    allows_draws = False

    def __post_init__(self):
        v.choice("version", self.version, tuple(gammon42.VERSIONS))
        if not isinstance(self.cube_weights, dict) or not self.cube_weights:
            raise TypeError(
                f"cube_weights must be a dict {{cube: weight}}, got {self.cube_weights!r}"
            )
        gammon42.cube_coefficient(list(self.cube_weights))  # validates the cube values
        w = np.asarray(v.finite("cube_weights", list(self.cube_weights.values()), lo=0.0))
        if w.max() <= 0:
            raise ValueError("cube_weights must have a positive total weight")
        _start_rating(self.start_rating)

    @property
    def rules(self):
        """The :class:`elo_explain.gammon42.Rules` of this version."""
        return gammon42.VERSIONS[self.version]

    @property
    def divisor(self) -> float:
        """The version's divisor (400, 800 or 1200)."""
        return float(self.rules.divisor)

    @property
    def label(self) -> str:
        """Short description for legends.

        >>> Gammon42("1.2.0").label
        'Gammon42 1.2.0 (÷800)'
        """
        return f"Gammon42 {self.version} (÷{self.divisor:g})"

    def draw_cubes(self, rng, size):
        """Random cube values for ``size`` games."""
        cubes = np.array(list(self.cube_weights), dtype=float)
        p = np.array(list(self.cube_weights.values()), dtype=float)
        p = p / p.max()  # first to at most 1: the sum of huge weights cannot overflow
        return rng.choice(cubes, size=size, p=p / p.sum())

    def start(self, players, rounds_per_week):
        """A new season's state (ratings and the one-week window of games played)."""
        return {
            "rating": np.full(players, float(self.start_rating)),
            "window": np.zeros((rounds_per_week, players), dtype=bool),
            "recent": np.zeros(players, dtype=np.int64),
            "slot": 0,
        }

    def ratings(self, state):
        """Current ratings."""
        return state["rating"]

    def expected(self, state, a, b):
        """Expected score of ``a`` under the version's divisor."""
        r = state["rating"]
        return self.rules.expected_score(r[a], r[b])

    def play(self, state, a, b, score, cube=None):
        """Rate the round (``score`` is 1 or 0: no draws in backgammon); returns ``a``'s E."""
        r, recent = state["rating"], state["recent"]
        e = self.rules.expected_score(r[a], r[b])
        a_won = score == 1
        winner, loser = np.where(a_won, a, b), np.where(a_won, b, a)
        dw, dl = self.rules.change(
            r[winner],
            r[loser],
            cube=1 if cube is None else cube,
            winner_recent=recent[winner],
            loser_recent=recent[loser],
        )
        r[winner] += dw
        r[loser] += dl
        # the window: games of the previous rounds_per_week rounds, this one now included
        window, slot = state["window"], state["slot"]
        recent -= window[slot]
        window[slot] = False
        window[slot, a] = True
        window[slot, b] = True
        recent += window[slot]
        state["slot"] = (slot + 1) % window.shape[0]
        return e

    def end_week(self, state):
        """Nothing to do at the end of a week."""


@dataclass(frozen=True)
class Fibs:
    """FIBS: every game is a ``match_length``-point match, rated by :func:`elo_explain.fibs.change`.

    Everyone starts at 1500 with experience ``start_experience`` (0 on FIBS), which grows by
    the match length after every match; K = max(1, 5 - experience/100) per player.
    ``start_rating`` within ±:data:`MAX_RATING`.

    >>> rules = Fibs()
    >>> state = rules.start(2, rounds_per_week=1)
    >>> e = rules.play(state, np.array([0]), np.array([1]), np.array([0.0]))
    >>> rules.ratings(state)        # new players: K 5, 4 x 5 x 1 x 0.5 = 10
    array([1490., 1510.])
    """

    match_length: int = 1
    start_experience: float = fibs.START_EXPERIENCE
    start_rating: float = fibs.START_RATING
    name: str = "FIBS"
    allows_draws = False

    def __post_init__(self):
        v.integer("match_length", self.match_length, lo=1)
        v.finite("start_experience", self.start_experience, lo=0.0)
        _start_rating(self.start_rating)

    @property
    def divisor(self) -> float:
        """The effective divisor of one match: 2000 / sqrt(match length)."""
        return fibs.DIVISOR / math.sqrt(self.match_length)

    @property
    def label(self) -> str:
        """Short description for legends.

        >>> Fibs(match_length=5).label
        'FIBS 5-point matches'
        """
        return f"FIBS {self.match_length}-point matches"

    def start(self, players, rounds_per_week):
        """A new season's state (ratings and experience)."""
        return {
            "rating": np.full(players, float(self.start_rating)),
            "experience": np.full(players, float(self.start_experience)),
        }

    def ratings(self, state):
        """Current ratings."""
        return state["rating"]

    def expected(self, state, a, b):
        """FIBS's probability that ``a`` wins the match."""
        r = state["rating"]
        return fibs.win_probability(r[a], r[b], self.match_length)

    def play(self, state, a, b, score, cube=None):
        """Rate the round's matches, add their length to the experiences; returns ``a``'s P(win)."""
        r, exp = state["rating"], state["experience"]
        e = fibs.win_probability(r[a], r[b], self.match_length)
        a_won = score == 1
        winner, loser = np.where(a_won, a, b), np.where(a_won, b, a)
        gain, loss = fibs.change(
            r[winner],
            r[loser],
            match_length=self.match_length,
            winner_experience=exp[winner],
            loser_experience=exp[loser],
        )
        r[winner] += gain
        r[loser] += loss
        exp[a] += self.match_length
        exp[b] += self.match_length
        return e

    def end_week(self, state):
        """Nothing to do at the end of a week."""


@dataclass(frozen=True)
class LichessGlicko2:
    """Lichess's Glicko-2 (:func:`elo_explain.glicko.lichess_game`): each game its own period.

    Everyone starts at the preset's 1500 / RD 500 / volatility 0.09; ``config`` is a
    :class:`elo_explain.glicko.LichessConfig`. RD does not grow between games (every player
    plays every week).

    >>> rules = LichessGlicko2()
    >>> state = rules.start(2, rounds_per_week=1)
    >>> e = rules.play(state, np.array([0]), np.array([1]), np.array([1.0]))
    >>> rules.ratings(state).round(1), state["rd"].round(1)
    (array([1741.5, 1258.5]), array([396.7, 396.7]))
    """

    config: object = glicko.LICHESS
    name: str = "Lichess Glicko-2"
    divisor = 400.0
    allows_draws = True

    def __post_init__(self):
        if not isinstance(self.config, glicko.LichessConfig):
            raise TypeError(f"config must be a glicko.LichessConfig, got {self.config!r}")

    @property
    def label(self) -> str:
        """Short description for legends.

        >>> LichessGlicko2().label
        'Lichess Glicko-2 (τ 0.75)'
        """
        return f"Lichess Glicko-2 (τ {self.config.tau:g})"

    def start(self, players, rounds_per_week):
        """A new season's state (rating, RD, volatility)."""
        rating, rd, vol = self.config.default
        return {
            "rating": np.full(players, float(rating)),
            "rd": np.full(players, float(rd)),
            "volatility": np.full(players, float(vol)),
        }

    def ratings(self, state):
        """Current ratings."""
        return state["rating"]

    def expected(self, state, a, b):
        """Glickman's predicted score of ``a`` against ``b`` (both RDs count)."""
        r, rd = state["rating"], state["rd"]
        return glicko.expected_score(r[a], r[b], rd[b], rd[a])

    def play(self, state, a, b, score, cube=None):
        """Rate the round's games, each its own rating period; returns ``a``'s predicted score."""
        r, rd, vol = state["rating"], state["rd"], state["volatility"]
        e = glicko.expected_score(r[a], r[b], rd[b], rd[a])
        new_a, new_b = glicko.lichess_game(
            (r[a], rd[a], vol[a]), (r[b], rd[b], vol[b]), score, config=self.config
        )
        r[a], rd[a], vol[a] = new_a
        r[b], rd[b], vol[b] = new_b
        return e

    def end_week(self, state):
        """Nothing to do at the end of a week."""


#: Ready-made rule sets, by the name a dashboard shows.
RULE_SETS = {
    "FIDE (table, 400 cap, K 20)": FideElo(),
    "FIDE (formula, no cap, K 20)": FideElo(use_table=False, cap_400=False),
    "Elo per game (K 20, ÷400)": Elo(),
    "Gammon42 1.0.5 (÷400)": Gammon42("1.0.5"),
    "Gammon42 1.2.0 (÷800)": Gammon42("1.2.0"),
    "Gammon42 1.3.1 (÷1200, volume K)": Gammon42("1.3.1"),
    "FIBS (1-point matches)": Fibs(),
    "Lichess Glicko-2": LichessGlicko2(),
}


@dataclass(frozen=True, eq=False)
class Season:
    """Result of :func:`simulate_season` (arrays read-only).

    ``true_strength`` (players,); ``ratings`` (weeks + 1, players), row 0 the start and row w
    the ratings after week w; ``rd`` likewise for Glicko rules (else ``None``); ``spread``
    (weeks + 1,) the standard deviation of the ratings; ``correlation`` (weeks + 1,) between
    ratings and true strengths (``nan`` while all ratings are equal); per week:
    ``favourite_games`` (games between unequally rated players), ``favourite_score`` (the
    higher-rated player's mean score, draws half), ``favourite_expected`` (what the rule's
    own curve expected of them) and ``favourite_true`` (what their true strengths gave), all
    three ``nan`` in a week without such games (FIDE's first week: the list is still flat);
    ``games_played`` (players,) in the whole season.
    """

    rules: object
    true_strength: np.ndarray
    ratings: np.ndarray
    rd: np.ndarray | None
    spread: np.ndarray
    correlation: np.ndarray
    favourite_games: np.ndarray
    favourite_score: np.ndarray
    favourite_expected: np.ndarray
    favourite_true: np.ndarray
    games_played: np.ndarray
    games_per_week: int
    true_divisor: float

    @property
    def weeks(self) -> int:
        """Number of weeks simulated.

        >>> simulate_season(Fibs(), players=4, weeks=3, games_per_week=2).weeks
        3
        """
        return self.ratings.shape[0] - 1


def _true_expected(theta_a, theta_b, divisor):
    with np.errstate(over="ignore"):  # a tiny divisor: 10 ** inf = inf, E exactly 0 (or 1)
        return 1.0 / (1.0 + np.power(10.0, (theta_b - theta_a) / divisor))


def _week_pairings(rng, n, rounds, activity):
    """Random pairings of one week: ``a``, ``b`` of shape (rounds, n // 2) and pairs per round.

    Every round is a random permutation of the active players, paired off in order; rounds
    with fewer active players leave their last columns unused (``pairs[r]`` are valid).
    """
    perms = rng.permuted(np.broadcast_to(np.arange(n), (rounds, n)), axis=1)
    half = n // 2
    if activity is None:
        return perms[:, 0 : 2 * half : 2], perms[:, 1 : 2 * half : 2], np.full(rounds, half)
    active = rng.random((rounds, n)) < activity[perms]
    first = np.argsort(~active, axis=1, kind="stable")  # active players first, order kept
    ordered = np.take_along_axis(perms, first, axis=1)
    return ordered[:, 0 : 2 * half : 2], ordered[:, 1 : 2 * half : 2], active.sum(axis=1) // 2


def simulate_season(
    rules,
    *,
    players=100,
    weeks=20,
    games_per_week=10,
    spread=200.0,
    true_divisor=None,
    draw_rate=0.0,
    activity=1.0,
    seed=0,
) -> Season:
    """Play a ladder season under ``rules`` with hidden true strengths; vectorized per round.

    ``players`` (2..100,000) get true strengths 1500 + ``spread`` x N(0, 1) (seeded numpy
    ``Generator``); results follow the true curve ``1 / (1 + 10 ** (-(θa - θb) /
    true_divisor))`` (default: the rule's own divisor, so a perfect rating equals the true
    strength up to a shift), with a share ``draw_rate`` of draws between equals (fewer for
    unequal players: ``draw_rate x 2 min(p, 1 - p)``; only for rules that know draws). A week
    is ``games_per_week`` rounds; in a round every active player (each plays with probability
    ``activity``, a number or one per player) is paired at random and all pairs are rated at
    once. Results depend only on true strengths and pairings, so a week's games are drawn
    in one go; then the rule rates them round by round (FIDE: the whole week at once, since
    its list changes only at the end of the week). The favourite of a game is the player
    rated higher before it; games between equal ratings are not counted. ``seed`` is
    ``None`` (fresh entropy), a whole number >= 0 or a numpy ``Generator``. One call plays at
    most :data:`MAX_SEASON_GAMES` games in at most :data:`MAX_SEASON_ROUNDS` rounds.

    >>> season = simulate_season(Elo(k=20), players=50, weeks=10, games_per_week=10, seed=1)
    >>> season.ratings.shape, float(season.spread[0])
    ((11, 50), 0.0)
    >>> bool(season.spread[-1] > 50), bool(season.correlation[-1] > 0.5)
    (True, True)
    >>> season.favourite_games.shape, season.games_played[:3]     # 10 games a week, 10 weeks
    ((10,), array([100, 100, 100]))
    """
    for cls in (Elo, FideElo, Gammon42, Fibs, LichessGlicko2):
        if isinstance(rules, cls):
            break
    else:
        raise TypeError(
            f"rules must be one of Elo, FideElo, Gammon42, Fibs, LichessGlicko2, got {rules!r}"
        )
    n = v.integer("players", players, lo=2, hi=100_000)
    weeks = v.integer("weeks", weeks, lo=1, hi=10_000)
    rounds = v.integer("games_per_week", games_per_week, lo=1, hi=10_000)
    if weeks * rounds > MAX_SEASON_ROUNDS:
        raise ValueError(
            f"weeks x games_per_week must be at most {MAX_SEASON_ROUNDS:,} rounds, got "
            f"{weeks} x {rounds}: play fewer weeks or games_per_week"
        )
    if (n // 2) * weeks * rounds > MAX_SEASON_GAMES:
        raise ValueError(
            f"players / 2 x weeks x games_per_week must be at most {MAX_SEASON_GAMES:,} games, "
            f"got {n // 2} x {weeks} x {rounds}: use fewer players, weeks or games_per_week"
        )
    sd = v.in_range("spread", spread, 0.0, 10_000.0)
    true_div = rules.divisor if true_divisor is None else v.positive("true_divisor", true_divisor)
    true_div = float(v.in_range("true_divisor", true_div, 0.0, math.inf))
    draw_rate = v.in_range("draw_rate", draw_rate, 0.0, 1.0)
    if draw_rate > 0 and not rules.allows_draws:
        raise ValueError(
            f"draw_rate must be 0 for {rules.name} (backgammon has no draws), got {draw_rate!r}"
        )
    act = np.asarray(v.finite("activity", activity, lo=0.0, hi=1.0), dtype=float)
    if act.ndim > 1 or (act.ndim == 1 and act.shape != (n,)):
        raise ValueError(
            f"activity must be a number or one number per player ({n}), got shape {act.shape}"
        )
    act = None if np.all(act >= 1.0) else np.broadcast_to(act, (n,))
    rng = _rng(seed)
    theta = 1500.0 + sd * rng.standard_normal(n)
    state = rules.start(n, rounds)
    has_rd = "rd" in state
    weekly = getattr(rules, "rates_weekly", False)
    cubed = isinstance(rules, Gammon42)
    out_ratings = np.empty((weeks + 1, n))
    out_rd = np.empty((weeks + 1, n)) if has_rd else None
    out_ratings[0] = rules.ratings(state)
    if has_rd:
        out_rd[0] = state["rd"]
    fav_games = np.zeros(weeks, dtype=np.int64)
    fav = np.full((3, weeks), np.nan)
    played = np.zeros(n, dtype=np.int64)
    half = n // 2
    cols = np.arange(half)
    for w in range(weeks):
        a, b, pairs = _week_pairings(rng, n, rounds, act)
        valid = cols < pairs[:, None]
        p = _true_expected(theta[a], theta[b], true_div)
        u = rng.random(p.shape)
        if draw_rate > 0:
            pdraw = draw_rate * 2.0 * np.minimum(p, 1.0 - p)
            score = np.where(u < p - pdraw / 2, 1.0, np.where(u < p + pdraw / 2, 0.5, 0.0))
        else:
            score = (u < p).astype(float)
        cubes = rules.draw_cubes(rng, p.shape) if cubed else None
        ra, rb, e = np.empty(p.shape), np.empty(p.shape), np.empty(p.shape)
        if weekly:
            rating = rules.ratings(state)
            va, vb = a[valid], b[valid]
            ra[valid], rb[valid] = rating[va], rating[vb]
            e[valid] = rules.play(state, va, vb, score[valid])
        else:
            for r in range(rounds):
                m = pairs[r]
                if m == 0:
                    continue
                ar, br = a[r, :m], b[r, :m]
                rating = rules.ratings(state)
                ra[r, :m], rb[r, :m] = rating[ar], rating[br]
                e[r, :m] = rules.play(
                    state, ar, br, score[r, :m], cube=None if cubes is None else cubes[r, :m]
                )
        rules.end_week(state)
        counted = valid & (ra != rb)
        a_fav = ra[counted] > rb[counted]
        fav_games[w] = int(counted.sum())
        if fav_games[w]:
            for i, x in enumerate((score[counted], e[counted], p[counted])):
                fav[i, w] = np.where(a_fav, x, 1.0 - x).mean()
        played += np.bincount(a[valid], minlength=n) + np.bincount(b[valid], minlength=n)
        out_ratings[w + 1] = rules.ratings(state)
        if has_rd:
            out_rd[w + 1] = state["rd"]
    with np.errstate(invalid="ignore", divide="ignore"):
        centred = out_ratings - out_ratings.mean(axis=1, keepdims=True)
        tc = theta - theta.mean()
        denom = np.sqrt((centred**2).sum(axis=1) * (tc**2).sum())
        corr = np.where(denom > 0, centred @ tc / np.where(denom > 0, denom, 1.0), np.nan)
    spread_out = out_ratings.std(axis=1)
    arrays = [theta, out_ratings, spread_out, corr, fav_games, fav, played]
    arrays += [out_rd] if has_rd else []
    _readonly(*arrays)
    return Season(
        rules=rules,
        true_strength=theta,
        ratings=out_ratings,
        rd=out_rd,
        spread=spread_out,
        correlation=corr,
        favourite_games=fav_games,
        favourite_score=fav[0],
        favourite_expected=fav[1],
        favourite_true=fav[2],
        games_played=played,
        games_per_week=rounds,
        true_divisor=true_div,
    )


# ====================================================================== the weekly swing
@dataclass(frozen=True, eq=False)
class WeeklySwing:
    """Result of :func:`weekly_swing` (arrays read-only).

    ``k`` (nk,), ``games_per_week`` (ng,); ``change`` (nk, ng, players): each simulated
    player's rating change over the week; ``shortfall`` (nk, ng, players): how far the
    week's win rate fell *below* the win rate the player's ratings expected (mean E over the
    week's games; negative = above); ``feedback`` and ``divisor`` as passed.
    """

    k: np.ndarray
    games_per_week: np.ndarray
    change: np.ndarray
    shortfall: np.ndarray
    divisor: float
    feedback: bool

    @property
    def std(self) -> np.ndarray:
        """Standard deviation of the weekly change, (nk, ng).

        >>> weekly_swing(k=(32,), games_per_week=(100,), players=20000).std.round(-1)
        array([[160.]])
        """
        return self.change.std(axis=2)

    def quantile(self, q) -> np.ndarray:
        """Quantile(s) ``q`` of the weekly change, shape (nk, ng) (or (len(q), nk, ng)).

        >>> weekly_swing(k=(32,), games_per_week=(1,), players=1000).quantile([0, 1])
        array([[[-16.]],
        <BLANKLINE>
               [[ 16.]]])
        """
        q = v.finite("q", q, lo=0.0, hi=1.0)
        return np.quantile(self.change, q, axis=2)

    def share_beyond(self, points) -> np.ndarray:
        """Share of weeks whose change is at least ``points`` in size (either sign), (nk, ng).

        >>> weekly_swing(k=(32,), games_per_week=(1,), players=1000).share_beyond(16)
        array([[1.]])
        """
        pts = v.finite("points", points, lo=0.0)
        return (np.abs(self.change) >= pts).mean(axis=2)

    def rule_of_thumb(self, shortfall=0.025) -> np.ndarray:
        """The document's estimate: K x games x shortfall, (nk, ng).

        >>> sw = weekly_swing(k=(32, 16), games_per_week=(300,), players=10)
        >>> sw.rule_of_thumb(0.025)
        array([[240.],
               [120.]])
        """
        s = v.finite("shortfall", shortfall, lo=-1.0, hi=1.0)
        return self.k[:, None] * self.games_per_week[None, :] * s

    def select(self, games_per_week) -> WeeklySwing:
        """The same weeks for some of the games-per-week values only (in the order given).

        >>> sw = weekly_swing(k=(32,), games_per_week=(10, 20, 30), players=5)
        >>> sub = sw.select([30, 10])
        >>> sub.games_per_week.tolist(), bool((sub.change[0, 0] == sw.change[0, 2]).all())
        ([30, 10], True)
        """
        wanted = np.atleast_1d(np.asarray(v.finite("games_per_week", games_per_week)))
        if wanted.ndim != 1:
            raise ValueError("games_per_week must be a number or a flat sequence of numbers")
        idx = []
        for g in wanted.tolist():
            hit = np.flatnonzero(self.games_per_week == g)
            if not hit.size:
                raise ValueError(
                    f"games_per_week must be among the simulated "
                    f"{self.games_per_week.tolist()}, got {g:g}"
                )
            idx.append(int(hit[0]))
        parts = [self.games_per_week[idx], self.change[:, idx], self.shortfall[:, idx]]
        _readonly(*parts)
        return dataclasses.replace(
            self, games_per_week=parts[0], change=parts[1], shortfall=parts[2]
        )


def weekly_swing(
    k=(32, 16),
    games_per_week=(20, 50, 100, 200, 300),
    *,
    players=2000,
    divisor=gammon42.DIVISOR,
    opponent_spread=0.0,
    feedback=False,
    seed=0,
):
    """The Gammon42 document's weekly-swing experiment: luck alone over one week.

    A player whose rating equals their true strength plays ``games_per_week`` ranked games
    against correctly rated opponents (true strength = rating; relative strengths drawn from
    N(0, ``opponent_spread``), 0 = all equal), cube 1, with each K in ``k``; every result is
    drawn at exactly the true expected rate, so all movement is luck. Changes are Gammon42's
    whole numbers (:func:`elo_explain.gammon42.change`, ÷``divisor``). Without ``feedback``
    (the default) every game uses the week's starting rating, which is the movement the
    document's rule "K x games" describes; with ``feedback=True`` the rating (and so E)
    moves game by game, as on the server, which pulls a drifting rating back and shrinks
    the swing (at K 32, ÷1200, 300 games: standard deviation about 90 instead of 277).
    ``players`` independent weeks per (K, games) cell, vectorized over both; every K sees
    the same luck, and every number of games the same games in the same order (the luck of
    game ``j`` does not depend on the other values of ``games_per_week`` asked for, so a
    column is the same in any grid that contains it). Each K must be in 0 < K <= :data:`elo_explain.gammon42.MAX_K` (1000);
    ``seed`` is ``None``, a whole number >= 0 or a numpy ``Generator``. One call rates at most
    :data:`MAX_SWING_GAMES` games (K values x the largest games_per_week x players) and keeps
    at most :data:`MAX_SWING_VALUES` results (K values x games_per_week values x players).

    Rating change and shortfall obey ``change = -K x games x shortfall`` (up to the rounding
    of each game to whole points), so at 300 games and K 32 a win rate 2-3 points below the
    expected one costs 192-288 points -- the document's "about 200":

    >>> sw = weekly_swing(k=(32, 16), games_per_week=(20, 300), players=4000, seed=1)
    >>> sw.change.shape
    (2, 2, 4000)
    >>> sw.std.round(-1)        # K 32 and K 16 at 20 and 300 games; 16 x sqrt(300) = 277
    array([[ 70., 280.],
           [ 40., 140.]])
    >>> week = sw.shortfall[0, 1]                  # K 32, 300 games
    >>> lost = sw.change[0, 1][(week >= 0.02) & (week <= 0.03)]
    >>> int(lost.max()), int(lost.min())           # -32 x 300 x 0.02 and x 0.03
    (-192, -288)
    """
    ks = np.atleast_1d(np.asarray(gammon42._k("k", k), dtype=float))
    gs = np.atleast_1d(np.asarray(v.finite("games_per_week", games_per_week), dtype=float))
    if ks.ndim != 1 or gs.ndim != 1:
        raise ValueError("k and games_per_week must be numbers or flat sequences of numbers")
    if np.any(gs < 1) or np.any(gs != np.floor(gs)) or gs.max() > 10_000:
        raise ValueError(f"games_per_week must be whole numbers from 1 to 10000, got {gs.tolist()}")
    gs = gs.astype(np.int64)
    n = v.integer("players", players, lo=1, hi=1_000_000)
    if ks.size * int(gs.max()) * n > MAX_SWING_GAMES:
        raise ValueError(
            f"k values x games_per_week x players must be at most {MAX_SWING_GAMES:,} games, "
            f"got {ks.size} x {int(gs.max())} x {n}: use fewer players, k values or games"
        )
    if ks.size * gs.size * n > MAX_SWING_VALUES:
        raise ValueError(
            f"k values x games_per_week values x players must be at most {MAX_SWING_VALUES:,} "
            f"results, got {ks.size} x {gs.size} x {n}: use fewer players, k or games_per_week"
        )
    div = float(v.in_range("divisor", v.positive("divisor", divisor), 0.0, math.inf))
    opp_sd = v.in_range("opponent_spread", opponent_spread, 0.0, 10_000.0)
    if not isinstance(feedback, (bool, np.bool_)):
        raise TypeError(f"feedback must be True or False, got {feedback!r}")
    rng = _rng(seed)
    # the opponents' strengths come from a stream of their own, so the results' stream is
    # drawn in game order whatever the block sizes (and so whatever the grid)
    opponents_rng = np.random.default_rng(int(rng.integers(2**63)))
    nk, gmax, start = ks.size, int(gs.max()), float(gammon42.STARTING)
    rating = np.full((nk, n), start)  # true strength = starting rating
    total = np.zeros((nk, n))
    wins = np.zeros(n)
    expected_sum = np.zeros((nk, n))
    change = np.empty((nk, gs.size, n))
    shortfall = np.empty((nk, gs.size, n))
    kk = ks[:, None, None]
    # games are drawn in blocks (the same stream with and without feedback, so both see the
    # same luck); without feedback a whole block is rated in one vectorized call
    block = max(1, min(gmax, 1_000_000 // (nk * n)))
    done = 0
    while done < gmax:
        size = min(block, gmax - done)
        opp = start + opp_sd * opponents_rng.standard_normal((size, n))  # rated correctly
        won = rng.random((size, n)) < gammon42.expected_score(start, opp, div)
        if feedback:
            delta = np.empty((nk, size, n))
            e = np.empty((nk, size, n))
            for j in range(size):
                e[:, j] = gammon42.expected_score(rating, opp[j], div)
                winner = np.where(won[j], rating, opp[j])
                loser = np.where(won[j], opp[j], rating)
                dw, dl = gammon42.change(
                    winner, loser, winner_k=kk[:, 0], loser_k=kk[:, 0], cube=1, divisor=div
                )
                delta[:, j] = np.where(won[j], dw, dl)
                rating += delta[:, j]
        else:
            e = np.broadcast_to(gammon42.expected_score(start, opp, div), (nk, size, n))
            winner = np.where(won, start, opp)
            loser = np.where(won, opp, start)
            dw, dl = gammon42.change(winner, loser, winner_k=kk, loser_k=kk, cube=1, divisor=div)
            delta = np.where(won, dw, dl)
        run_total = total[:, None, :] + np.cumsum(delta, axis=1)
        run_wins = wins + np.cumsum(won, axis=0)
        run_expected = expected_sum[:, None, :] + np.cumsum(e, axis=1)
        for i, g in enumerate(gs):
            j = int(g) - done - 1
            if 0 <= j < size:
                change[:, i] = run_total[:, j]
                shortfall[:, i] = (run_expected[:, j] - run_wins[j]) / g
        total, wins, expected_sum = run_total[:, -1], run_wins[-1], run_expected[:, -1]
        done += size
    _readonly(ks, gs, change, shortfall)
    return WeeklySwing(
        k=ks,
        games_per_week=gs,
        change=change,
        shortfall=shortfall,
        divisor=div,
        feedback=bool(feedback),
    )


# ============================================================ the experiment the pages show
SWING_KS = (gammon42.K, gammon42.HEAVY_VOLUME_K)
"""The two K of the weekly-swing experiment the pages show: 32 and, for a heavy week, 16."""
SWING_GAMES = tuple(range(10, 501, 10))
"""Ranked games a week simulated for the pages: 10 to 500 in steps of 10 (300 is the
document's busy player)."""
SWING_WEEKS = 2000
"""Simulated weeks per (K, games) cell of the pages' experiment."""


@functools.lru_cache(maxsize=2)
@disk_cached  # every page's kernel shows the same seeded weeks: simulated once (CAPACITY.md)
def _luck_only_weeks(feedback: bool) -> WeeklySwing:
    return weekly_swing(
        k=SWING_KS, games_per_week=SWING_GAMES, players=SWING_WEEKS, feedback=feedback, seed=0
    )


def luck_only_weeks(feedback=False) -> WeeklySwing:
    """The weekly-swing experiment every page shows (05 and 09 read their numbers from it).

    :func:`weekly_swing` with :data:`SWING_KS` (K 32 and K 16), :data:`SWING_GAMES` (10 to
    500 ranked games a week) and :data:`SWING_WEEKS` (2,000) weeks each, seed 0, opponents
    rated correctly and equal to the player (cube 1), so all movement is luck; with
    ``feedback`` the rating moves game by game. Computed once per ``feedback`` and cached; a
    page that shows fewer columns takes them with :meth:`WeeklySwing.select`.

    The binomial check: between equals every game is ±16 at K 32 (the Greek document's
    +16 / −16), so a week of g games moves 16 × (wins − losses), standard deviation 16·√g --
    277.1 at 300 games (K 16: half). 2,000 weeks estimate it within a few per cent (one
    standard error is 1.6 %):

    >>> sw = luck_only_weeks().select([300])
    >>> sw.std.round(1).ravel().tolist(), round(float(sw.std[0, 0] / (16 * 300 ** 0.5)), 2)
    ([269.3, 134.7], 0.97)
    """
    if not isinstance(feedback, (bool, np.bool_)):
        raise TypeError(f"feedback must be True or False, got {feedback!r}")
    return _luck_only_weeks(bool(feedback))
