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

Every decision can also explain itself, for one player: :func:`k_factor_rule` (the K, the
rule of 8.3.3 that fired and why), :func:`rule_700` (the K it lowered from and to) and
:func:`cap_decision` (whether the 400-point rule capped this player's difference, and why
not). They use the same code as :func:`k_factor`, :func:`k_with_700_rule` and
:func:`effective_difference`.

The documents' own calculators (:func:`elo_explain.elo.telugu_calculator`,
:func:`elo_explain.elo.ukrainian_calculator`) compute some things their own way;
:func:`beside_calculator` rates the same games the FIDE way and names each difference (the
700 rule, the 400-point rule, table 8.1.2, the rounding).

New players and the changes of 1 March 2024 (section 7, table 8.1.1): :func:`table_dp`,
:func:`initial_rating` (the 2024 rule, or the 2022 rule for an earlier date, so the two can
be compared), :func:`performance_rating`, :func:`uplift_2024` and :func:`rating_floor`
(a :class:`FidePeriod` says when a player falls below it).

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
``FLOOR``                   1400        the list starts here (from 2024-03-01)
``FLOOR_BEFORE_2024``       1000        the floor before 2024-03-01
``RULES_2022_FROM``         2022-01-01  the 2022 first-rating rule, to 2024-02-29
``MIN_RATED_GAMES``         5           games against rated opponents for a rating
``IMAGINARY_OPPONENT``      1800        two drawn imaginary opponents (2024 rule)
``FIRST_RATING_MAX``        2200        the highest first rating (2024 rule)
``UPLIFT_BELOW``            2000        the 1 March 2024 uplift: ratings below it
``RATING_MAX``              3000        highest rating accepted as an opponent's
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
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _validate as v
from .elo import CalculatorResult, _expected, _Games, _parse_results
from .formats import MINUS, fmt_pattern, fmt_pct
from .formats import fmt_plain as _fmt
from .i18n import N_, _, ngettext
from .rounding import round_half_away

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
    "K_RULES",
    "k_rule_text",
    "KFactor",
    "Rule700",
    "CapDecision",
    "TABLE_8_1_1",
    "FidePeriod",
    "InitialRating",
    "table_expected_score",
    "table_dp",
    "initial_rating",
    "performance_rating",
    "uplift_2024",
    "rating_floor",
    "effective_difference",
    "cap_decision",
    "k_factor",
    "k_factor_rule",
    "k_with_700_rule",
    "rule_700",
    "rate_period",
    "CalculatorVsFide",
    "beside_calculator",
    "MAX_PLAN_GAMES",
    "LeastScore",
    "least_score",
    "Stakes",
    "stakes",
    "SeasonPeriod",
    "rate_season",
]

#: FIDE Rating Regulations B.02, table 8.1.2: ``(low, high, PD)`` rows -- the absolute
#: difference ``low``..``high`` (whole points, inclusive; ``high`` is ``None`` for the
#: open last row) gives the higher-rated player the score probability ``PD``.
TABLE_8_1_2: tuple[tuple[int, int | None, float], ...] = (
    (0, 3, 0.50),
    (4, 10, 0.51),
    (11, 17, 0.52),
    (18, 25, 0.53),
    (26, 32, 0.54),
    (33, 39, 0.55),
    (40, 46, 0.56),
    (47, 53, 0.57),
    (54, 61, 0.58),
    (62, 68, 0.59),
    (69, 76, 0.60),
    (77, 83, 0.61),
    (84, 91, 0.62),
    (92, 98, 0.63),
    (99, 106, 0.64),
    (107, 113, 0.65),
    (114, 121, 0.66),
    (122, 129, 0.67),
    (130, 137, 0.68),
    (138, 145, 0.69),
    (146, 153, 0.70),
    (154, 162, 0.71),
    (163, 170, 0.72),
    (171, 179, 0.73),
    (180, 188, 0.74),
    (189, 197, 0.75),
    (198, 206, 0.76),
    (207, 215, 0.77),
    (216, 225, 0.78),
    (226, 235, 0.79),
    (236, 245, 0.80),
    (246, 256, 0.81),
    (257, 267, 0.82),
    (268, 278, 0.83),
    (279, 290, 0.84),
    (291, 302, 0.85),
    (303, 315, 0.86),
    (316, 328, 0.87),
    (329, 344, 0.88),
    (345, 357, 0.89),
    (358, 374, 0.90),
    (375, 391, 0.91),
    (392, 411, 0.92),
    (412, 432, 0.93),
    (433, 456, 0.94),
    (457, 484, 0.95),
    (485, 517, 0.96),
    (518, 559, 0.97),
    (560, 619, 0.98),
    (620, 735, 0.99),
    (736, None, 1.00),
)

#: FIDE Rating Regulations B.02, table 8.1.1: ``(p, dp)`` rows for the fractional score
#: p = 0.00, 0.01, ..., 1.00 (row ``i`` is p = i / 100) and the rating difference dp it
#: stands for; ``dp(1 - p) = -dp(p)``. Used for first ratings and performance ratings.
_DP_FROM_HALF = (  # p = .50, .51, ..., 1.00 as printed in the regulations
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
)
TABLE_8_1_1: tuple[tuple[float, int], ...] = tuple(
    (i / 100, -_DP_FROM_HALF[50 - i] if i < 50 else _DP_FROM_HALF[i - 50]) for i in range(101)
)
_DP = np.array([dp for _, dp in TABLE_8_1_1], dtype=np.int64)

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
RULES_2022_FROM = _dt.date(2022, 1, 1)
FLOOR = 1400
FLOOR_BEFORE_2024 = 1000
RATING_MAX = 3000
MIN_RATED_GAMES = 5
IMAGINARY_OPPONENT = 1800
FIRST_RATING_MAX = 2200
UPLIFT_BELOW = 2000

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


#: FIDE rule 8.3.3, in the order it is applied (the first rule that matches gives K):
#: ``(rule, K, the rule in words)``. ``rule`` is :attr:`KFactor.rule`.
#: The texts are English; :func:`k_rule_text` (or ``_(text)``) gives them in the page's
#: language. Their numbers are the constants above (checked in ``k_rule_text``'s example).
_K_RULE_WORDS = {
    "new_player": N_("New to the list: fewer than 30 rated games"),
    "reached_2400": N_("The published rating has reached 2400 (for good)"),
    "junior": N_("Junior (to the end of the year of the 18th birthday), rated under 2300"),
    "default": N_("Everyone else: rated under 2400"),
}


def k_rule_text(rule: str) -> str:
    """Rule ``rule`` of :data:`K_RULES` in words, in the page's language.

    >>> k_rule_text("junior")
    'Junior (to the end of the year of the 18th birthday), rated under 2300'
    >>> all(str(n) in k_rule_text(r) for r, n in (("new_player", NEW_PLAYER_GAMES),
    ...     ("reached_2400", HIGH_FROM), ("junior", JUNIOR_BELOW), ("default", HIGH_FROM)))
    True
    >>> k_rule_text("senior")
    Traceback (most recent call last):
    ...
    ValueError: rule must be one of 'new_player', 'reached_2400', 'junior', 'default', got 'senior'
    """
    return _(_K_RULE_WORDS[v.choice("rule", rule, tuple(_K_RULE_WORDS))])


K_RULES: tuple[tuple[str, int, str], ...] = tuple(
    (rule, k, _K_RULE_WORDS[rule])
    for rule, k in (
        ("new_player", K_NEW),
        ("reached_2400", K_HIGH),
        ("junior", K_JUNIOR),
        ("default", K_STANDARD),
    )
)


def _k_rule_index(rating, rated_games, birth_year, reached_2400, on):
    """Index into :data:`K_RULES` of the rule that applies (validated; arrays broadcast).

    The one place the precedence of rule 8.3.3 is written: :func:`k_factor` and
    :func:`k_factor_rule` both read their answer from here.
    """
    r = np.asarray(v.finite("rating", rating))
    games = v.whole("rated_games", rated_games, lo=0)
    reached = v.flag("reached_2400", reached_2400, array=True)
    if birth_year is None:
        junior = np.zeros((), dtype=bool)
        if on is not None:
            _as_date(on)  # still validate it
    else:
        junior = _as_date(on).year <= v.whole("birth_year", birth_year) + 18
    return np.select(
        [games < NEW_PLAYER_GAMES, reached | (r >= HIGH_FROM), junior & (r < JUNIOR_BELOW)],
        [0, 1, 2],
        default=3,
    )


def k_factor(rating, *, rated_games, birth_year=None, reached_2400=False, on=None):
    """K-factor by FIDE rule 8.3.3: 40, 20 or 10.

    The rules are applied in this order (the first that matches wins; :data:`K_RULES`):

    1. ``rated_games`` < 30 (new to the list, events with fewer than 30 games): **40**;
    2. ``reached_2400`` (the published rating has ever reached 2400) or ``rating`` >= 2400:
       **10** -- for good, even if the rating drops below 2400 later;
    3. a junior -- ``on``'s year is at most ``birth_year + 18``, i.e. until the end of the
       year of the 18th birthday -- rated below 2300: **40**;
    4. otherwise **20** (rating below 2400).

    ``rating`` is the published rating at the start of the period; ``rating``,
    ``rated_games``, ``birth_year`` and ``reached_2400`` may be arrays (they
    broadcast). ``on`` (date, ISO string, ``None`` = today) only matters for juniors.
    :func:`k_factor_rule` gives the same K for one player with the rule that fired.

    >>> k_factor(1800, rated_games=12)                      # new player
    40
    >>> k_factor(2000, rated_games=80, birth_year=2007, on="2025-12-31")
    40
    >>> k_factor(2000, rated_games=80, birth_year=2007, on="2026-01-01")
    20
    >>> k_factor(2350, rated_games=300, reached_2400=True)  # stays 10
    10
    """
    index = _k_rule_index(rating, rated_games, birth_year, reached_2400, on)
    k = np.array([row[1] for row in K_RULES], dtype=np.int64)[index]
    return int(k) if k.ndim == 0 else k


@dataclass(frozen=True)
class KFactor:
    """The K of rule 8.3.3 for one player (:func:`k_factor_rule`) and why.

    ``k``; ``rule`` -- ``"new_player"``, ``"junior"``, ``"reached_2400"`` or ``"default"``
    (the first row of :data:`K_RULES` that matched); ``text`` -- the rule in words, with
    this player's numbers, in the page's language.
    """

    k: int
    rule: str
    text: str


def _signed(x) -> str:
    """A difference as text with its sign: "+500", "−400", "0"."""
    return _fmt(x, signed=True)


def k_factor_rule(rating, *, rated_games, birth_year=None, reached_2400=False, on=None) -> KFactor:
    """K by FIDE rule 8.3.3 for one player, with the rule that fired and why (a :class:`KFactor`).

    The same decision as :func:`k_factor` (the same code path: the rules tried in the order
    of :data:`K_RULES`), for one player; the text says it with the player's numbers.

    >>> k = k_factor_rule(1800, rated_games=12)
    >>> k.k, k.rule
    (40, 'new_player')
    >>> k.text
    'K 40: 12 rated games — a player new to the list keeps K 40 until they have completed events with at least 30 games (B.02 8.3.3).'
    >>> k_factor_rule(2100, rated_games=80, birth_year=2008, on="2026-01-01").text
    'K 40: born 2008, a junior until the end of 2026, and rated 2100, under 2300 (B.02 8.3.3).'
    >>> k_factor_rule(2350, rated_games=300, reached_2400=True).rule
    'reached_2400'
    >>> k_factor_rule(2350, rated_games=300, birth_year=2007, on="2026-01-01").text
    'K 20: rated 2350, under 2400, 300 rated games; born 2007: the junior K 40 ended with 2025 (B.02 8.3.3).'
    """
    rating = v.number("rating", rating)
    rated_games = v.integer("rated_games", rated_games, lo=0)
    reached_2400 = v.flag("reached_2400", reached_2400)
    if birth_year is not None:
        birth_year = v.integer("birth_year", birth_year)
    index = int(_k_rule_index(rating, rated_games, birth_year, reached_2400, on))
    rule, k, _words = K_RULES[index]
    r, games = _fmt(rating), rated_games
    junior_until = None if birth_year is None else birth_year + 18
    year = _as_date(on).year
    n = dict(
        r=r,
        games=games,
        born=birth_year,
        until=junior_until,
        year=year,
        k_new=K_NEW,
        k_high=K_HIGH,
        k_junior=K_JUNIOR,
        new_games=NEW_PLAYER_GAMES,
        high=HIGH_FROM,
        below=JUNIOR_BELOW,
    )
    if rule == "new_player":
        why = ngettext(
            "{games} rated game — a player new to the list keeps K {k_new} until "
            "they have completed events with at least {new_games} games",
            "{games} rated games — a player new to the list keeps K {k_new} until "
            "they have completed events with at least {new_games} games",
            rated_games,
        )
    elif rule == "reached_2400":
        if rating >= HIGH_FROM:
            why = _(
                "rated {r}, which has reached {high}; K stays {k_high} even if the "
                "rating later drops below {high}"
            )
        else:
            why = _(
                "the published rating once reached {high}, so K stays {k_high} for "
                "good, even at {r}"
            )
    elif rule == "junior":
        why = _("born {born}, a junior until the end of {until}, and rated {r}, under {below}")
    else:
        if junior_until is not None and year <= junior_until:
            why = ngettext(
                "rated {r}, under {high}, {games} rated game; born {born} is still "
                "a junior in {year}, but the rating {r} is not under {below}",
                "rated {r}, under {high}, {games} rated games; born {born} is still "
                "a junior in {year}, but the rating {r} is not under {below}",
                rated_games,
            )
        elif junior_until is not None:
            why = ngettext(
                "rated {r}, under {high}, {games} rated game; born {born}: the "
                "junior K {k_junior} ended with {until}",
                "rated {r}, under {high}, {games} rated games; born {born}: the "
                "junior K {k_junior} ended with {until}",
                rated_games,
            )
        else:
            why = ngettext(
                "rated {r}, under {high}, {games} rated game; no birth year given",
                "rated {r}, under {high}, {games} rated games; no birth year given",
                rated_games,
            )
    text = _("K {k}: {why} (B.02 8.3.3).").format(k=k, why=why.format(**n))
    return KFactor(k=k, rule=rule, text=text)


def k_with_700_rule(k, games):
    """K for a period of ``games`` games: the largest whole K with ``K × games <= 700`` when ``k × games`` exceeds 700, else ``k``.

    ``k`` > 0 and ``games`` (a whole number >= 0) may be arrays. A scalar result is an
    ``int`` when it is whole. Exactly 700 is not reduced. :func:`rule_700` says the same
    for one K in words.

    Telugu document: a junior with K 40 and 20 games (800) gets 35, an adult with K 20
    and 40 games (800) gets 17:

    >>> k_with_700_rule(40, 20), k_with_700_rule(20, 40), k_with_700_rule(35, 20)
    (35, 17, 35)
    """
    kk = np.asarray(v.positive("k", k), dtype=float)
    g = v.whole("games", games, lo=0)
    over = kk * g > MAX_K_TIMES_GAMES
    reduced = MAX_K_TIMES_GAMES // np.maximum(g, 1)
    out = np.where(over, reduced, kk)
    if out.ndim == 0:
        value = float(out)
        return int(value) if value.is_integer() else value
    return out.astype(float)


@dataclass(frozen=True)
class Rule700:
    """The 700 rule for one K and one period (:func:`rule_700`).

    ``k`` (the K asked for), ``games``, ``k_used`` (K after the rule), ``lowered``
    (whether it changed K) and ``text`` (the rule's arithmetic in words).
    """

    k: int
    games: int
    k_used: int
    lowered: bool
    text: str


def rule_700(k, games) -> Rule700:
    """The 700 rule for one K and one period, with the K it lowered from and to.

    K comes from :func:`k_with_700_rule` (one number each for ``k`` and ``games``).

    Telugu document: K 40 with 20 games (800) -> 35, K 20 with 40 games (800) -> 17;
    exactly 700 is not lowered:

    >>> r = rule_700(40, 20)
    >>> r.k_used, r.lowered
    (35, True)
    >>> r.text
    '40 × 20 games = 800 > 700: K lowered from 40 to 35 (the largest whole K with K × 20 ≤ 700)'
    >>> rule_700(20, 40).k_used
    17
    >>> rule_700(20, 35).text
    '20 × 35 games = 700 ≤ 700: K stays 20'
    """
    kk = v.positive("k", v.number("k", k))
    g = v.integer("games", games, lo=0)
    used = k_with_700_rule(kk, g)
    k_out = int(kk) if float(kk).is_integer() else kk
    lowered = used != kk
    n = dict(k=_fmt(kk), games=g, product=_fmt(kk * g), max=MAX_K_TIMES_GAMES, used=_fmt(used))
    if lowered:
        text = ngettext(
            "{k} × {games} game = {product} > {max}: K lowered from {k} to {used} "
            "(the largest whole K with K × {games} ≤ {max})",
            "{k} × {games} games = {product} > {max}: K lowered from {k} to {used} "
            "(the largest whole K with K × {games} ≤ {max})",
            g,
        )
    else:
        text = ngettext(
            "{k} × {games} game = {product} ≤ {max}: K stays {k}",
            "{k} × {games} games = {product} ≤ {max}: K stays {k}",
            g,
        )
    text = text.format(**n)
    return Rule700(k=k_out, games=g, k_used=used, lowered=bool(lowered), text=text)


@dataclass(frozen=True)
class CapDecision:
    """The 400-point rule for one player of one game (:func:`cap_decision`).

    ``rating`` and ``opponent`` (as entered); ``difference`` (``rating - opponent``);
    ``used`` (the difference used for the expected score); ``capped`` (whether the rule
    changed it); ``reason`` (why it was capped, or why not).
    """

    rating: float
    opponent: float
    difference: float
    used: float
    capped: bool
    reason: str


def cap_decision(rating, opponent, on=None) -> CapDecision:
    """The 400-point rule for ``rating``'s player against ``opponent`` on date ``on``, and why.

    ``used`` comes from :func:`effective_difference` (one number each; dates before
    2024-03-01 raise). The rule is applied per player, so the two sides of one game can
    differ (Telugu document: since 1 October 2025 a player rated 2650 or more uses the
    real difference):

    >>> a = cap_decision(2700, 2200, on="2025-10-01")
    >>> a.used, a.capped, a.reason
    (500.0, False, 'rated 2700, 2650 and above: exempt since 1 October 2025, so the real difference +500 counts')
    >>> b = cap_decision(2200, 2700, on="2025-10-01")
    >>> b.used, b.capped, b.reason
    (-400.0, True, 'rated 2200, below 2650: a difference of more than 400 counts as 400, so −500 counts as −400')
    >>> cap_decision(2700, 2200, on="2025-09-30").reason
    'from 1 March 2024 to 30 September 2025 the cap applies to every player: +500 counts as +400'
    >>> cap_decision(1500, 1700, on="2025-10-01").reason
    'the difference −200 is within ±400: nothing to cap'
    """
    r = v.number("rating", rating)
    o = v.number("opponent", opponent)
    day = _cap_check_date(on)
    used = effective_difference(r, o, on=day)
    diff = r - o
    capped = used != diff
    n = dict(diff=_signed(diff), used=_signed(used), cap=CAP, r=_fmt(r), exempt=CAP_EXEMPT_FROM)
    if abs(diff) <= CAP:
        reason = _("the difference {diff} is within ±{cap}: nothing to cap")
    elif day < CAP_EXEMPTION_FROM:
        reason = _(
            "from 1 March 2024 to 30 September 2025 the cap applies to every player: "
            "{diff} counts as {used}"
        )
    elif capped:
        reason = _(
            "rated {r}, below {exempt}: a difference of more than {cap} counts as {cap}, "
            "so {diff} counts as {used}"
        )
    else:
        reason = _(
            "rated {r}, {exempt} and above: exempt since 1 October 2025, so the real "
            "difference {diff} counts"
        )
    reason = reason.format(**n)
    return CapDecision(
        rating=r, opponent=o, difference=diff, used=float(used), capped=bool(capped), reason=reason
    )


@dataclass(frozen=True, eq=False)
class FidePeriod(_Games):
    """Result of :func:`rate_period` (arrays are per game and read-only).

    ``rating``; ``opponents``, ``scores``; ``differences`` (own - opponent after the
    400-point rule if applied); ``expected`` (PD); ``delta`` (ΔR = score - PD);
    ``k_requested`` and ``k`` (after the 700 rule); ``change`` (K × ΣΔR, unrounded);
    ``rounded_change`` (rounded once, 0.5 away from zero, exact); ``new_rating``
    (``rating + rounded_change``); ``on``, ``use_table``, ``cap_400`` (how it was rated);
    ``floor`` (:func:`rating_floor` on ``on``) and :attr:`below_floor` (the new rating is
    below it: the player is shown as unrated on the next list).
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
    floor: int

    @property
    def below_floor(self) -> bool:
        """True when the new rating is below :attr:`floor`: shown as unrated on the next
        list, the player must qualify again as a new player."""
        return self.new_rating < self.floor


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

    A player rated 1405 who loses to an equal opponent (K 20: −10) falls below the 1400
    floor: shown as unrated on the next list (:func:`rating_floor`):

    >>> q = rate_period(1405, [(1405, 0)], k=20, on="2025-10-01")
    >>> q.new_rating, q.floor, q.below_floor
    (1395.0, 1400, True)
    """
    r = v.number("rating", rating)
    k_req = v.positive("k", v.number("k", k))
    use_table = v.flag("use_table", use_table)
    cap_400 = v.flag("cap_400", cap_400)
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
    rounded = round_half_away(exact)
    v.readonly(opponents, scores, differences, expected, delta)
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
        floor=rating_floor(day),
    )


@dataclass(frozen=True, eq=False)
class CalculatorVsFide:
    """A document's calculator and FIDE on the same games (:func:`beside_calculator`).

    ``calculator`` (the :class:`~elo_explain.elo.CalculatorResult`), ``fide`` (the
    :class:`FidePeriod`), ``differences`` -- one short text per rule in which FIDE computes
    differently (empty when none does) -- and ``text``, the two results side by side.
    """

    calculator: CalculatorResult
    fide: FidePeriod
    differences: tuple[str, ...]
    text: str


def _shown(x: float) -> str:
    """A new rating as the calculators show it: whole, or with two decimals."""
    return _fmt(x) if float(x).is_integer() else fmt_pattern(float(x), "{:.2f}")


def beside_calculator(result: CalculatorResult, *, on=None, use_table=True) -> CalculatorVsFide:
    """FIDE's result for the games of a document's calculator, beside the calculator's, with
    each difference named.

    The games (``result.opponents``, ``result.scores``) are rated by :func:`rate_period` with
    the calculator's K, on date ``on`` (``None`` = today), from table 8.1.2 (``use_table``) or
    the ÷400 formula, always with FIDE's 400-point rule. A difference is named when FIDE
    computes differently: its 700 rule lowers K; its 400-point rule uses another difference
    than the calculator did (the Ukrainian calculator never caps; the Telugu one caps when its
    switch is on, for every rating, where FIDE exempts players rated 2650 or more since
    1 October 2025); table 8.1.2 instead of the formula; the change rounded once (where the
    calculator shows the unrounded rating).

    The Ukrainian calculator's multi-game mode, K 40, 1500, 20 games, 10 points against an
    average of 1600 (``docs/sources.md#ukrainian``), and 5 of 5 against an average of 1000 with
    K 20:

    >>> from elo_explain.elo import telugu_calculator, ukrainian_calculator
    >>> c = beside_calculator(ukrainian_calculator(1500, 1600, 10, k=40, games=20), on="2026-01-01")
    >>> c.text
    "the document's calculator: 1612.05; FIDE: 1598 (700 rule: K 40 → 35; table 8.1.2: E 0.36; rounded once: +98)"
    >>> beside_calculator(ukrainian_calculator(1500, 1000, 5, k=20, games=5), on="2026-01-01").differences
    ('400-point rule: +500 counts as +400', 'table 8.1.2: E 0.92', 'rounded once: +8')

    The Telugu page's period, K 20 (its own figures: +1.4, 1501) agrees with FIDE but for the
    method of E, and the Telugu calculator with its 400-point switch on caps a player rated
    2700, whom FIDE exempts:

    >>> beside_calculator(telugu_calculator(1500, [(1400, 1), (1600, 0.5), (1550, 0)], k=20),
    ...                   on="2026-01-01").text
    "the document's calculator: 1501; FIDE: 1501 (table 8.1.2: E 0.64, 0.36, 0.43)"
    >>> beside_calculator(telugu_calculator(2700, [(2200, 1)], k=10), on="2026-01-01",
    ...                   use_table=False).differences
    ('2650 exemption: the real difference +500 counts',)
    """
    if not isinstance(result, CalculatorResult):
        raise TypeError(f"result must be an elo.CalculatorResult, got {result!r}")
    games = list(zip(result.opponents.tolist(), result.scores.tolist()))
    fide = rate_period(result.rating, games, k=result.k, on=on, use_table=use_table)
    names = []
    if fide.k != result.k:
        names.append(_("700 rule: K {k} → {used}").format(k=_fmt(result.k), used=_fmt(fide.k)))
    changed = np.flatnonzero(fide.differences != result.differences)
    if changed.size:
        i = int(changed[0])
        real = result.rating - float(result.opponents[i])
        if abs(fide.differences[i]) < abs(result.differences[i]):
            names.append(
                _("400-point rule: {diff} counts as {used}").format(
                    diff=_signed(real), used=_signed(fide.differences[i])
                )
            )
        else:
            names.append(
                _("{exempt} exemption: the real difference {diff} counts").format(
                    exempt=CAP_EXEMPT_FROM, diff=_signed(real)
                )
            )
    if use_table:
        shown = dict.fromkeys(fmt_pattern(e, "{:.2f}") for e in fide.expected.tolist())
        names.append(_("table 8.1.2: E {values}").format(values=", ".join(shown)))
    if not float(result.new_rating).is_integer():
        exact = "" if float(fide.change).is_integer() else f"{_signed(round(fide.change, 2))} → "
        names.append(
            _("rounded once: {change}").format(change=exact + _signed(fide.rounded_change))
        )
    text = _("the document's calculator: {calculator}; FIDE: {fide}").format(
        calculator=_shown(result.new_rating), fide=_shown(fide.new_rating)
    )
    text += f" ({'; '.join(names)})" if names else ""
    return CalculatorVsFide(calculator=result, fide=fide, differences=tuple(names), text=text)


# ------------------------------------------------- new players, floor and uplift (section 7)
def rating_floor(on=None) -> int:
    """The lowest rating on the FIDE list on date ``on``: 1400 from 1 March 2024, 1000 before.

    A rated player whose rating drops below it is shown as unrated on the next list and must
    qualify again as a new player (:attr:`FidePeriod.below_floor` says so for a period).

    >>> rating_floor("2024-03-01"), rating_floor("2024-02-29")
    (1400, 1000)
    """
    return FLOOR if _as_date(on) >= RULES_FROM else FLOOR_BEFORE_2024


def _hundredths(p) -> np.ndarray:
    """p in whole hundredths, rounded half up (a float is validated 0..1; a ``Fraction``,
    computed here from points and games, is rounded exactly).

    A float p is first taken to six decimals of a percent, which removes the binary
    representation error: 0.175 (stored as 0.17499999999999999) is 17.5 hundredths and
    rounds up to 18, as the reader meant.
    """
    if isinstance(p, Fraction):
        return np.asarray(round_half_away(p * 100))
    x = np.asarray(v.finite("p", p, lo=0.0, hi=1.0))
    return np.asarray(round_half_away(np.round(x * 100, 6))).astype(np.int64)


def table_dp(p):
    """The rating difference dp for the fractional score ``p``: FIDE table 8.1.1.

    ``p`` (0..1, a number or an array) is rounded to the nearest hundredth, half up,
    before the table is read: the rating regulations do not say how p is rounded; FIDE's
    title regulations use the same table with p rounded this way, and so does this module.
    Returns an ``int`` (an int array for an array).

    >>> table_dp(0.57), table_dp(4 / 7), table_dp(0.25), table_dp(1 / 6)
    (50, 50, -193, -273)
    >>> table_dp([1.0, 0.5, 0.0]).tolist()
    [800, 0, -800]
    """
    dp = _DP[_hundredths(p)]
    return int(dp) if dp.ndim == 0 else dp


def uplift_2024(rating):
    """The one-time adjustment of 1 March 2024: below 2000, R + 0.4 × (2000 − R), whole.

    Ratings of 2000 and above are unchanged. ``rating`` is a whole number from 1000 (the
    old floor) to 3000, or an array of them; the result is rounded to the nearest whole
    number (computed exactly; a half cannot occur) and is an ``int`` (or an int array).
    FIDE's notice of 1 March 2024:

    >>> uplift_2024(1000), uplift_2024(1500), uplift_2024(1650), uplift_2024(2100)
    (1400, 1700, 1790, 2100)
    """
    r = v.whole("rating", v.finite("rating", rating, lo=FLOOR_BEFORE_2024, hi=RATING_MAX))
    # R + 2 (2000 - R) / 5 = (3 R + 4000) / 5, rounded to the nearest whole number
    raised = (2 * (3 * r + 2 * UPLIFT_BELOW) + 5) // 10
    out = np.where(r < UPLIFT_BELOW, raised, r)
    return int(out) if out.ndim == 0 else out


def _opponents_and_scores(opponents, scores, lo: int):
    """Validated rated opponents (``lo``..3000) and their scores, as float arrays."""
    o = v.as_float_array("opponents", opponents)
    if o.ndim != 1:
        raise ValueError(f"opponents must be a list of ratings, got an array of shape {o.shape}")
    if o.size == 0:
        raise ValueError("opponents must hold at least one rated opponent's rating, got none")
    v.finite("opponents", o, lo=lo, hi=RATING_MAX)
    s = v.as_float_array("scores", scores)
    if s.shape != o.shape:
        raise ValueError(
            f"scores must have one score per opponent ({o.size}), got {s.size if s.ndim else 1}"
        )
    v.score("scores", s)
    return o, s


def _two(x) -> str:
    """A rating with two decimals, as the regulations' examples print them."""
    return _fmt(x) if float(x).is_integer() else fmt_pattern(float(x), "{:.2f}")


def _plus(x) -> str:
    """An addition of ``x`` as text: "+ 50", "− 193"."""
    return (MINUS + " " if x < 0 else "+ ") + _fmt(abs(x))


def _p_text(p) -> str:
    """p as the table prints it, rounded to the hundredth: ".57", "1.00"."""
    h = int(_hundredths(p))
    return fmt_pattern(1.0, "{:.2f}") if h == 100 else fmt_pattern(h / 100, "{:.2f}")[1:]


@dataclass(frozen=True)
class InitialRating:
    """A first FIDE rating (:func:`initial_rating`), every step of it.

    ``rule`` -- ``"2024"`` (from 1 March 2024) or ``"2022"`` (1 January 2022 to 29 February
    2024); ``on``; ``games`` (rated games counted), ``points``; ``games_needed`` (more games
    against rated opponents needed for the minimum of 5, 0 when enough);
    ``average_opponent`` (Ra; under the 2024 rule including the two imaginary 1800
    opponents); ``score_fraction`` (p rounded to the hundredth, as the table is read);
    ``dp`` (what is added to Ra: from table 8.1.1, or under the 2022 rule above 50 %, 20
    per half point above 50 %); ``rating`` (Ru, whole; at most 2200 under the 2024 rule);
    ``capped`` (the 2200 cap lowered it); ``floor``; ``published`` and ``reason`` (why not,
    ``""`` when published); ``text`` (the arithmetic in one line).
    """

    rule: str
    on: _dt.date
    games: int
    points: float
    games_needed: int
    average_opponent: float
    score_fraction: float
    dp: int
    rating: int
    capped: bool
    floor: int
    published: bool
    reason: str
    text: str


def initial_rating(opponents, scores, *, on=None) -> InitialRating:
    """The first FIDE rating of an unrated player from games against rated opponents.

    ``opponents`` are the rated opponents' ratings (from the floor of date ``on``, 1400 or
    1000, to 3000) and ``scores`` the results (1, 0.5, 0), one per opponent. Results of
    consecutive rating periods (at most 26 months) may be pooled by passing all of them;
    that window is not checked here.

    From 1 March 2024 (B.02 section 7): two imaginary opponents rated 1800 are added, both
    drawn: Ra = (Σ ratings + 3600) / (n + 2), p = (points + 1) / (n + 2); Ru = Ra + dp(p)
    (:func:`table_dp`), rounded to a whole number (half up), at most 2200. It is published
    with at least 5 games against rated opponents and only if it is at least 1400.

    For an ``on`` from 1 January 2022 to 29 February 2024, the 2022 rule, so the two can be
    shown side by side: Ra is the average of the real opponents; at p = .50, Ru = Ra; above,
    Ru = Ra + 20 for every half point above 50 %; below, Ru = Ra + dp(p); no cap; published
    from 1000 (also after at least 5 rated games). Earlier dates raise ``ValueError``.

    Under both rules a zero score is not published: a zero score in a player's first event
    is ignored.

    ``docs/sources.md#fide-b02`` (F9), 3 / 5 against 1600, 1700, 1800, 1500, 1650:

    >>> r = initial_rating([1600, 1700, 1800, 1500, 1650], [1, 1, 0.5, 0.5, 0], on="2025-01-01")
    >>> round(r.average_opponent, 2), r.score_fraction, r.dp, r.rating, r.published
    (1692.86, 0.57, 50, 1743, True)
    >>> r.text
    'Ra = (8250 + 2 × 1800) / 7 = 1692.86; p = (3 + 1) / 7 = 0.5714 → .57; dp = 50; Ru = 1692.86 + 50 = 1742.86 → 1743'
    >>> initial_rating([1600, 1700, 1800, 1500, 1650], [1, 1, 0.5, 0.5, 0], on="2024-02-29").rating
    1670

    Not enough games yet:

    >>> initial_rating([1600, 1700], [1, 0.5], on="2025-01-01").reason
    '2 games against rated opponents: at least 5 are needed (3 more)'
    """
    day = _as_date(on)
    if day < RULES_2022_FROM:
        raise ValueError(
            f"on must be {RULES_2022_FROM.isoformat()} or later: earlier first-rating rules are "
            f"not modelled, got {day.isoformat()!r}"
        )
    floor = rating_floor(day)
    o, s = _opponents_and_scores(opponents, scores, floor)
    n = int(o.size)
    total = Fraction(float(o.sum()))
    points = Fraction(float(s.sum()))
    if day >= RULES_FROM:
        rule = "2024"
        ra = (total + 2 * IMAGINARY_OPPONENT) / (n + 2)
        p = (points + 1) / (n + 2)
        dp = table_dp(p)
        exact = ra + dp
        rating = min(round_half_away(exact), FIRST_RATING_MAX)
        capped = round_half_away(exact) > FIRST_RATING_MAX
        result = (
            _("{rating}, capped at {cap}").format(
                rating=round_half_away(exact), cap=FIRST_RATING_MAX
            )
            if capped
            else f"{rating}"
        )
        text = (
            f"Ra = ({_fmt(total)} + 2 × {IMAGINARY_OPPONENT}) / {n + 2} = {_two(ra)}; "
            f"p = ({_fmt(points)} + 1) / {n + 2} = {fmt_pattern(float(p), '{:.4g}')} → "
            f"{_p_text(p)}; dp = {_fmt(dp)}; Ru = {_two(ra)} {_plus(dp)} = {_two(exact)} "
            f"→ {result}"
        )
    else:
        rule = "2022"
        ra = total / n
        p = points / n
        half_points_above = int(2 * points - n)  # points - n / 2, in half points
        if p > Fraction(1, 2):
            dp = 20 * half_points_above
            how = ngettext(
                "{n} half point above {pct} × 20",
                "{n} half points above {pct} × 20",
                half_points_above,
            ).format(n=half_points_above, pct=fmt_pct(50, 0))
        else:
            dp = table_dp(p)
            how = f"dp({_p_text(p)})"
        exact = ra + dp
        rating = round_half_away(exact)
        capped = False
        text = (
            f"Ra = {_fmt(total)} / {n} = {_two(ra)}; p = {_fmt(points)} / {n} = "
            f"{fmt_pattern(float(p), '{:.4g}')}; {how} = {_fmt(dp)}; Ru = {_two(ra)} "
            f"{_plus(dp)} = {_two(exact)} → {rating}"
        )
    reasons = []
    needed = max(0, MIN_RATED_GAMES - n)
    if needed:
        reasons.append(
            ngettext(
                "{n} game against rated opponents: at least {min} are needed ({needed} more)",
                "{n} games against rated opponents: at least {min} are needed ({needed} more)",
                n,
            ).format(n=n, min=MIN_RATED_GAMES, needed=needed)
        )
    if points == 0:
        reasons.append(_("a zero score in the player's first event is ignored"))
    if rating < floor:
        reasons.append(
            (
                _("{rating} is below {floor}: not published; results keep pooling")
                if rule == "2024"
                else _("{rating} is below the floor of {floor}")
            ).format(rating=rating, floor=floor)
        )
    return InitialRating(
        rule=rule,
        on=day,
        games=n,
        points=float(points),
        games_needed=needed,
        average_opponent=float(ra),
        score_fraction=int(_hundredths(p)) / 100,
        dp=int(dp),
        rating=int(rating),
        capped=bool(capped),
        floor=floor,
        published=not reasons,
        reason="; ".join(reasons),
        text=text,
    )


def performance_rating(opponents, scores) -> float:
    """Tournament performance as players quote it: Rp = Ra + dp(p) over the real opponents.

    Ra is the average of ``opponents`` (ratings from 1000 to 3000), p = points / games,
    rounded to the hundredth half up for table 8.1.1 (:func:`table_dp`). Unrounded.

    ``docs/sources.md#fide-b02`` (F13), 3 / 5 against 1600, 1700, 1800, 1500, 1650: Ra 1650, p .60, dp 72:

    >>> performance_rating([1600, 1700, 1800, 1500, 1650], [1, 1, 0.5, 0.5, 0])
    1722.0
    """
    o, s = _opponents_and_scores(opponents, scores, FLOOR_BEFORE_2024)
    points = Fraction(float(s.sum()))
    return float(Fraction(float(o.sum())) / o.size + table_dp(points / o.size))


# ------------------------------------------------------------------ planning (what do I need?)
#: The most games of one period a plan or a season period accepts (the games boxes' limit).
MAX_PLAN_GAMES = 100


def _period_for_points(rating, k, n_games, average, half_points, on, use_table) -> FidePeriod:
    """``half_points`` / 2 points from ``n_games`` games against ``average``, rated as one
    period: only the sum of the scores counts, so wins first, a draw, then losses."""
    wins, draw = divmod(half_points, 2)
    scores = [1.0] * wins + [0.5] * draw + [0.0] * (n_games - wins - draw)
    return rate_period(rating, [(average, s) for s in scores], k=k, on=on, use_table=use_table)


@dataclass(frozen=True)
class LeastScore:
    """The least score that reaches a target (:func:`least_score`).

    ``points`` -- the least score, in half points (``None`` when no score reaches
    ``target``: out of reach); ``rating`` -- the rating it gives; ``points_below`` and
    ``rating_below`` -- half a point less and what that gives (``None`` when ``points`` is 0
    or out of reach); ``best_rating`` -- the highest rating reachable (every game won);
    ``k`` -- the K after the 700 rule; ``target``, ``games``, ``use_table``.
    """

    points: float | None
    rating: float | None
    points_below: float | None
    rating_below: float | None
    best_rating: float
    k: float
    target: float
    games: int
    use_table: bool

    @property
    def reachable(self) -> bool:
        return self.points is not None


def least_score(rating, k, n_games, average, target, *, on=None, use_table=True) -> LeastScore:
    """The least score, in half points, from ``n_games`` games against opponents of
    ``average`` that brings ``rating`` to at least ``target``, FIDE's way.

    A score 0, ½, 1, ... ``n_games`` is rated as one period by :func:`rate_period` (table
    8.1.2, or the ÷400 formula with ``use_table=False``; the 400-point rule and its 2650
    exemption on date ``on``; K lowered by the 700 rule for ``n_games``; the change rounded
    once, half away from zero), and the least that reaches ``target`` is the answer (the
    scores are searched by bisection: a higher score never gives a lower rating). ``rating``
    and ``average`` are 1000..3000, ``k`` 1..100, ``n_games`` 1..100, ``target`` 1000..3400.

    K 20, 1500 against an average of 1000 (the 400-point rule: 500 counts as 400): the table
    gives E 0.92 per game, the formula 0.909; to reach 1507 in 10 games the table needs all
    10 points (9½ gives 1500 + 20 × (9.5 − 9.2) = 1506), the formula 9½ (20 × 0.409 = 8.2 → +8):

    >>> t = least_score(1500, 20, 10, 1000, 1507, on="2026-01-01")
    >>> t.points, t.rating, t.points_below, t.rating_below
    (10.0, 1516.0, 9.5, 1506.0)
    >>> least_score(1500, 20, 10, 1000, 1507, on="2026-01-01", use_table=False).points
    9.5
    >>> far = least_score(1500, 20, 10, 1000, 1520, on="2026-01-01")
    >>> far.reachable, far.best_rating
    (False, 1516.0)
    """
    r = v.in_range("rating", rating, FLOOR_BEFORE_2024, RATING_MAX)
    kk = v.integer("k", k, lo=1, hi=100)
    n = v.integer("n_games", n_games, lo=1, hi=MAX_PLAN_GAMES)
    avg = v.in_range("average", average, FLOOR_BEFORE_2024, RATING_MAX)
    goal = v.in_range("target", target, FLOOR_BEFORE_2024, RATING_MAX + 400)
    use_table = v.flag("use_table", use_table)
    rated: dict[int, FidePeriod] = {}

    def rating_at(half: int) -> float:
        if half not in rated:
            rated[half] = _period_for_points(r, kk, n, avg, half, on, use_table)
        return rated[half].new_rating

    # the new rating never falls as the score rises: the least score is found by bisection
    first = None
    if rating_at(2 * n) >= goal:
        lo, hi = 0, 2 * n  # rating_at(hi) >= goal
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if rating_at(mid) >= goal else (mid + 1, hi)
        first = lo
    below = None if first in (None, 0) else first - 1
    return LeastScore(
        points=None if first is None else first / 2,
        rating=None if first is None else rating_at(first),
        points_below=None if below is None else below / 2,
        rating_below=None if below is None else rating_at(below),
        best_rating=rating_at(2 * n),
        k=rated[2 * n].k,
        target=goal,
        games=n,
        use_table=use_table,
    )


@dataclass(frozen=True)
class Stakes:
    """The rating change of one game for each result (:func:`stakes`): ``win``, ``draw``,
    ``loss`` (whole numbers, as rated) and ``expected`` (the player's E)."""

    win: int
    draw: int
    loss: int
    expected: float


def stakes(rating, k, opponent, *, on=None, use_table=True) -> Stakes:
    """What the next game against ``opponent`` wins or loses: the change for a win, a draw
    and a loss, each rated as a one-game period by :func:`rate_period` (rounded once).

    Telugu document, K 20: 1500 against 1700 has E 0.24; a draw gains 20 × 0.26 = +5.2 → +5,
    a win +15.2 → +15, a loss −4.8 → −5:

    >>> stakes(1500, 20, 1700, on="2026-01-01")
    Stakes(win=15, draw=5, loss=-5, expected=0.24)
    """
    r = v.in_range("rating", rating, FLOOR_BEFORE_2024, RATING_MAX)
    kk = v.integer("k", k, lo=1, hi=100)
    o = v.in_range("opponent", opponent, FLOOR_BEFORE_2024, RATING_MAX)
    win, draw, loss = (
        rate_period(r, [(o, s)], k=kk, on=on, use_table=use_table) for s in (1.0, 0.5, 0.0)
    )
    return Stakes(
        win.rounded_change, draw.rounded_change, loss.rounded_change, float(win.expected[0])
    )


@dataclass(frozen=True)
class SeasonPeriod:
    """One period of a season (:func:`rate_season`): ``on`` (the date whose rules apply),
    ``games``, ``points``, ``rating`` (at the period's start), ``k`` (FIDE's K for the
    profile at the period's start), ``k_used`` (after the 700 rule), ``change`` (rounded
    once) and ``new_rating``."""

    on: _dt.date
    games: int
    points: float
    rating: float
    k: int
    k_used: float
    change: int
    new_rating: float


def rate_season(
    periods, rating, games_before, *, birth_year=None, reached_2400=False, on=None
) -> tuple[SeasonPeriod, ...]:
    """Rate a season period by period, each from the rating the last one left.

    ``periods`` is a sequence of ``(date, results)``: ``date`` (an ISO string, a date, or
    ``None`` for the previous period's date, the first one's ``on``) and ``results``, the
    period's ``(opponent_rating, score)`` pairs (1 to 100 of them). At each period's start K
    comes from the profile (:func:`k_factor`: 40 until ``games_before`` plus the games rated
    so far reach 30, 40 for a junior under 2300, 20 under 2400, 10 once the rating has
    reached 2400, for good); the 700 rule is applied per period (:func:`rate_period`).

    A new player, 1500, 25 games before: the first period of 10 games is rated with K 40
    (25 < 30) and the 700 rule (40 × 10 = 400 ≤ 700: no change); 10 draws against 1500 change
    nothing; the next period (35 games before) has K 20: a win against 1500 gives +10:

    >>> s = rate_season([("2026-01-01", [(1500, 0.5)] * 10), (None, [(1500, 1)])], 1500, 25)
    >>> [(p.k, p.change, p.new_rating) for p in s]
    [(40, 0, 1500.0), (20, 10, 1510.0)]
    """
    r = v.in_range("rating", rating, FLOOR_BEFORE_2024, RATING_MAX)
    count = v.integer("games_before", games_before, lo=0, hi=100_000)
    reached = v.flag("reached_2400", reached_2400)
    try:
        periods = [(date, list(results)) for date, results in periods]
    except (TypeError, ValueError):
        raise TypeError(
            f"periods must be a list of (date, results) pairs, got {periods!r}"[:200]
        ) from None
    if not 1 <= len(periods) <= MAX_PLAN_GAMES:
        raise ValueError(
            f"periods must be a list of 1 to {MAX_PLAN_GAMES} (date, results) "
            f"pairs, got {len(periods)}"
        )
    day = _as_date(on)
    out = []
    for date, results in periods:
        day = day if date is None else _as_date(date)
        if not 1 <= len(results) <= MAX_PLAN_GAMES:
            raise ValueError(f"a period must have 1 to {MAX_PLAN_GAMES} games, got {len(results)}")
        k = k_factor(r, rated_games=count, birth_year=birth_year, reached_2400=reached, on=day)
        p = rate_period(r, results, k=k, on=day)
        out.append(
            SeasonPeriod(
                on=day,
                games=p.games,
                points=float(p.scores.sum()),
                rating=r,
                k=k,
                k_used=p.k,
                change=p.rounded_change,
                new_rating=p.new_rating,
            )
        )
        r, count = p.new_rating, count + p.games
        reached = reached or r >= HIGH_FROM
    return tuple(out)
