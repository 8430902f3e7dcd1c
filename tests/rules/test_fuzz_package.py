"""Bad input in the package: a hypothesis fuzz of every public function.

Every public callable of the rating modules (their ``__all__``) is called with a valid
base call in which one parameter is replaced by a fuzzed value:

* values that are wrong for the parameter -- NaN, infinities, wrong types (strings,
  ``None``, lists of strings, dicts, booleans), clearly out-of-range numbers (negative
  counts, a zero divisor, a score of 0.7, a probability of 1.5, absurd sizes) -- must
  raise ``ValueError`` or ``TypeError`` whose message names that parameter;
* other values of the right type (arbitrary finite floats, valid choices) may be
  accepted or refused: a refusal is a ``ValueError``/``TypeError`` naming a parameter,
  an answer contains no NaN or infinity (no silently wrong number).

Any other exception (ZeroDivisionError, OverflowError, IndexError, KeyError, a numpy
warning -- warnings are errors here --, a call running longer than ``CALL_SECONDS``) fails.
``test_every_public_callable_is_covered`` fails when a module gains a public callable
that is neither fuzzed here nor listed as a plain result record.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import inspect
import math
import os
import re
import resource
import signal
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MODULES = (
    "elo",
    "fide",
    "gammon42",
    "tables",
    "glicko",
    "fibs",
    "simulate",
    "calibration",
    "results_csv",
    "lichess",
)
CALL_SECONDS = 10
CALL_EXTRA_MEMORY = 2 << 30  # a call may map 2 GiB more; beyond, MemoryError (a failure)
FUZZ = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

NAN, INF = float("nan"), float("inf")

# Result records and containers: returned by the functions, not an input API.
RECORDS = {
    "elo.RatingPeriod",
    "elo.CalculatorResult",
    "fide.FidePeriod",
    "fide.CalculatorVsFide",
    "fide.KFactor",
    "fide.Rule700",
    "fide.CapDecision",
    "fide.InitialRating",
    "gammon42.LadderGame",
    "fide.LeastScore",
    "fide.Stakes",
    "fide.SeasonPeriod",
    "gammon42.Stakes",
    "gammon42.Plan",
    "tables.Table",
    "tables.RowTable",
    "tables.Sentence",
    "calibration.Calibration",
    "calibration.DivisorFit",
    "results_csv.UploadedResults",
    "results_csv.FileProblem",
    "simulate.Season",
    "simulate.WeeklySwing",
    "lichess.Games",
}


# Result fields whose docstrings define a NaN/inf value (not a silently wrong number).
DOCUMENTED_NONFINITE = {
    "calibration.fit_divisor": {
        "divisor",
        "interval",
        "white_advantage_interval",
        "calibration",
    },  # inf: flat curve
    "calibration.calibrate": {"divisor"},  # inf: a flat curve
    "simulate.simulate_season": {
        "correlation",
        "favourite_score",
    },  # nan while all ratings are equal
}


# ------------------------------------------------------------------ value categories
@dataclasses.dataclass(frozen=True)
class Cat:
    """What one scalar (or one element of an array parameter) may be."""

    bad: tuple  # must be refused (in addition to wrong types)
    ok: st.SearchStrategy  # valid type: may be accepted or refused
    wrong_types: bool = True  # strings, None, lists of strings, dicts, bools are bad


WRONG_TYPES = ("abc", "1500", "", None, ["a", "b"], {"a": 1}, True, b"12")
NONFINITE = (NAN, INF, -INF)
finite = st.floats(allow_nan=False, allow_infinity=False)


def _cat(bad=(), ok=finite, wrong_types=True):
    return Cat(tuple(bad), ok, wrong_types)


REAL = _cat(NONFINITE)  # any finite number
NONNEG = _cat(NONFINITE + (-1.0, -1e-9, -1e308), st.floats(0, 1e308))  # >= 0
POSITIVE = _cat(NONFINITE + (0.0, -1.0, -1e308), st.floats(1e-300, 1e308))  # > 0
SCORE = _cat(NONFINITE + (0.7, 2.0, -1.0, 0.25), st.sampled_from([0, 0.5, 1, 0.0, 1.0]))
PROB = _cat(NONFINITE + (-0.1, 1.5), st.floats(0, 1))
COUNT = _cat(NONFINITE + (-1, -1.0, 2.5), st.integers(0, 10**6))  # whole number >= 0
COUNT1 = _cat(NONFINITE + (0, -1, 2.5), st.integers(1, 10**6))  # whole number >= 1
SIZE = _cat(NONFINITE + (-1, 2.5, 10**12, 10**18), st.integers(0, 40))  # small simulation size
SEED = _cat(
    NONFINITE + (-1, 2.5, "abc", {"a": 1}, ["a"]), st.integers(0, 2**32 - 1), wrong_types=False
)  # None: fresh entropy, numpy's convention
CUBE = _cat(NONFINITE + (0, 3, -2, 2.5, 6), st.sampled_from([1, 2, 4, 8, 16, 32, 64]))
BOOL = _cat((NAN, 1.5, "yes", "False", None, [], {}), st.booleans(), wrong_types=False)
BOOL_ELEMENT = _cat((NAN, 0.5, "x"), st.booleans(), wrong_types=False)
DATE = _cat(
    (NAN, INF, "not a date", "2025-13-45", 12345, [], {}, b"2025"),
    st.dates(dt.date(2024, 3, 1), dt.date(2040, 1, 1)) | st.dates().map(str),
    wrong_types=False,
)


# the planning functions' ranges: FIDE ratings 1000-3000, K 1-100, 1-100 games; Gammon42 0-5000
PLAN_RATING = _cat(NONFINITE + (-1, 999, 3001), st.floats(1000, 3000))
PLAN_K = _cat(NONFINITE + (0, 101, 2.5), st.integers(1, 100))
PLAN_GAMES = _cat(NONFINITE + (0, 101, 2.5), st.integers(1, 100))
G42_RATING = _cat(NONFINITE + (-1, 5001), st.floats(0, 5000))


def choice(*valid, extra_bad=()):
    return _cat(
        ("nonsense", "", 3, NAN, [], {}, *extra_bad), st.sampled_from(valid), wrong_types=False
    )


def obj(valid_strategy, bad=()):
    """A parameter that takes an object (config, rules): other kinds of value are bad."""
    return _cat(("abc", 3, NAN, None, {"a": 1}, *bad), valid_strategy, wrong_types=False)


# ------------------------------------------------------------------ the specification
def _datetime(days: float) -> dt.datetime:
    return dt.datetime(2026, 10, 8, 12, 0) - dt.timedelta(days=days)


def spec():
    """``{"module.name": (callable, base kwargs, {param: Cat or ("rows", (Cat, ...))})}``."""
    from elo_explain import (
        calibration,
        elo,
        fibs,
        fide,
        gammon42,
        glicko,
        lichess,
        results_csv,
        simulate,
        tables,
    )

    rules_ok = st.sampled_from(list(simulate.RULE_SETS.values()))
    cfg = glicko.LICHESS
    CONFIG = obj(st.just(cfg), bad=([],))
    s = {
        # elo
        "elo.expected_score": (
            elo.expected_score,
            dict(rating=1500, opponent=[1400, 1600], divisor=400),
            dict(rating=REAL, opponent=REAL, divisor=POSITIVE),
        ),
        "elo.rating_change": (
            elo.rating_change,
            dict(score=[1, 0.5], expected=[0.6, 0.4], k=20),
            dict(score=SCORE, expected=PROB, k=NONNEG),
        ),
        "elo.rating_period": (
            elo.rating_period,
            dict(rating=1500, results=[(1400, 1), (1600, 0.5)], k=20, divisor=400),
            dict(rating=REAL, results=("rows", (REAL, SCORE)), k=NONNEG, divisor=POSITIVE),
        ),
        "elo.multi_game": (
            elo.multi_game,
            dict(rating=1500, average_opponent=1500, games=5, points=3.5, k=20, divisor=400),
            dict(
                rating=REAL,
                average_opponent=REAL,
                games=COUNT1,
                points=NONNEG,
                k=NONNEG,
                divisor=POSITIVE,
            ),
        ),
        "elo.telugu_calculator": (
            elo.telugu_calculator,
            dict(rating=1500, results=[(1400, 1), (1600, 0.5)], k=20, cap_400=True),
            dict(rating=REAL, results=("rows", (REAL, SCORE)), k=POSITIVE, cap_400=BOOL),
        ),
        "elo.ukrainian_calculator": (
            elo.ukrainian_calculator,
            dict(rating=1500, opponent=1600, points=10, k=40, games=20),
            dict(rating=REAL, opponent=REAL, points=NONNEG, k=POSITIVE, games=COUNT1),
        ),
        "elo.averaging_error": (
            elo.averaging_error,
            dict(rating=1500, opponents=[1400, 1600, 1550], k=20, divisor=400),
            dict(rating=REAL, opponents=REAL, k=POSITIVE, divisor=POSITIVE),
        ),
        "elo.spread_opponents": (
            elo.spread_opponents,
            dict(average=1600, games=3, spread=[0, 100]),
            dict(average=REAL, games=COUNT1, spread=NONNEG),
        ),
        # fide
        "fide.beside_calculator": (
            fide.beside_calculator,
            dict(
                result=elo.ukrainian_calculator(1500, 1600, 10, k=40, games=20),
                on="2026-01-01",
                use_table=True,
            ),
            dict(
                result=obj(st.just(elo.telugu_calculator(1500, [(1000, 1)], k=20))),
                on=DATE,
                use_table=BOOL,
            ),
        ),
        "fide.table_expected_score": (
            fide.table_expected_score,
            dict(difference=[0, 400]),
            dict(difference=REAL),
        ),
        "fide.effective_difference": (
            fide.effective_difference,
            dict(rating=2700, opponent=2200, on="2025-10-01"),
            dict(rating=REAL, opponent=REAL, on=DATE),
        ),
        "fide.k_factor": (
            fide.k_factor,
            dict(rating=2000, rated_games=80, birth_year=2007, reached_2400=False, on="2025-12-31"),
            dict(
                rating=REAL,
                rated_games=COUNT,
                birth_year=_cat(NONFINITE + (2.5,), st.integers(1900, 2030)),
                reached_2400=BOOL,
                on=DATE,
            ),
        ),
        "fide.k_factor_rule": (
            fide.k_factor_rule,
            dict(rating=2000, rated_games=80, birth_year=2007, reached_2400=False, on="2025-12-31"),
            dict(
                rating=REAL,
                rated_games=COUNT,
                birth_year=_cat(NONFINITE + (2.5,), st.integers(1900, 2030)),
                reached_2400=BOOL,
                on=DATE,
            ),
        ),
        "fide.rule_700": (
            fide.rule_700,
            dict(k=40, games=20),
            dict(k=_cat(NONFINITE + (-1, 0), st.sampled_from([10, 20, 40])), games=COUNT),
        ),
        "fide.cap_decision": (
            fide.cap_decision,
            dict(rating=2700, opponent=2200, on="2025-10-01"),
            dict(rating=REAL, opponent=REAL, on=DATE),
        ),
        "fide.k_with_700_rule": (
            fide.k_with_700_rule,
            dict(k=40, games=20),
            dict(k=_cat(NONFINITE + (-1, 0), st.sampled_from([10, 20, 40])), games=COUNT),
        ),
        "fide.rate_period": (
            fide.rate_period,
            dict(
                rating=1500,
                results=[(1400, 1), (1600, 0.5)],
                k=20,
                on="2025-10-01",
                use_table=True,
                cap_400=True,
            ),
            dict(
                rating=REAL,
                results=("rows", (REAL, SCORE)),
                k=_cat(NONFINITE + (-1, 0), st.sampled_from([10, 20, 40])),
                on=DATE,
                use_table=BOOL,
                cap_400=BOOL,
            ),
        ),
        "fide.k_rule_text": (
            fide.k_rule_text,
            dict(rule="junior"),
            dict(rule=choice("new_player", "reached_2400", "junior", "default")),
        ),
        "fide.table_dp": (fide.table_dp, dict(p=[0.57, 0.25]), dict(p=PROB)),
        "fide.initial_rating": (
            fide.initial_rating,
            dict(
                opponents=[1600, 1700, 1800, 1500, 1650],
                scores=[1, 1, 0.5, 0.5, 0],
                on="2025-01-01",
            ),
            dict(
                opponents=_cat(NONFINITE + (-1, 0, 900, 3500), st.floats(1400, 3000)),
                scores=SCORE,
                on=DATE,
            ),
        ),
        "fide.performance_rating": (
            fide.performance_rating,
            dict(opponents=[1600, 1700], scores=[1, 0.5]),
            dict(
                opponents=_cat(NONFINITE + (-1, 0, 900, 3500), st.floats(1000, 3000)), scores=SCORE
            ),
        ),
        "fide.uplift_2024": (
            fide.uplift_2024,
            dict(rating=[1000, 1650, 2100]),
            dict(rating=_cat(NONFINITE + (999, 3001, 1500.5), st.integers(1000, 3000))),
        ),
        "fide.rating_floor": (fide.rating_floor, dict(on="2025-01-01"), dict(on=DATE)),
        "fide.least_score": (
            fide.least_score,
            dict(
                rating=1500,
                k=20,
                n_games=10,
                average=1000,
                target=1507,
                on="2026-01-01",
                use_table=True,
            ),
            dict(
                rating=PLAN_RATING,
                k=PLAN_K,
                n_games=PLAN_GAMES,
                average=PLAN_RATING,
                target=_cat(NONFINITE + (-1, 999, 3401), st.floats(1000, 3400)),
                on=DATE,
                use_table=BOOL,
            ),
        ),
        "fide.stakes": (
            fide.stakes,
            dict(rating=1500, k=20, opponent=1700, on="2026-01-01", use_table=True),
            dict(rating=PLAN_RATING, k=PLAN_K, opponent=PLAN_RATING, on=DATE, use_table=BOOL),
        ),
        "fide.rate_season": (
            fide.rate_season,
            dict(
                periods=[("2026-01-01", [(1500, 1), (1600, 0.5)]), (None, [(1700, 0)])],
                rating=1500,
                games_before=25,
                birth_year=2010,
                reached_2400=False,
                on="2026-01-01",
            ),
            dict(
                periods=obj(st.just([("2026-02-01", [(1500, 0.5)])]), bad=([],)),
                rating=PLAN_RATING,
                games_before=_cat(NONFINITE + (-1, 2.5), st.integers(0, 100_000)),
                birth_year=_cat(NONFINITE + (2.5,), st.integers(1900, 2030)),
                reached_2400=BOOL,
                on=DATE,
            ),
        ),
        # gammon42
        "gammon42.stakes": (
            gammon42.stakes,
            dict(rating=1650, opponent=1500, recent_games=60, cube=2),
            dict(rating=G42_RATING, opponent=G42_RATING, recent_games=COUNT, cube=CUBE),
        ),
        "gammon42.expected_change": (
            gammon42.expected_change,
            dict(rating=1800, opponent=1500, win_rate=0.7, recent_games=0, cube=1),
            dict(
                rating=G42_RATING, opponent=G42_RATING, win_rate=PROB, recent_games=COUNT, cube=CUBE
            ),
        ),
        "gammon42.hold_win_rate": (
            gammon42.hold_win_rate,
            dict(rating=1800, opponent=1500, recent_games=0, cube=1),
            dict(rating=G42_RATING, opponent=G42_RATING, recent_games=COUNT, cube=CUBE),
        ),
        "gammon42.wins_to_reach": (
            gammon42.wins_to_reach,
            dict(rating=1500, opponent=1500, target=1530, recent_games=49, cube=1),
            dict(
                rating=G42_RATING,
                opponent=G42_RATING,
                target=G42_RATING,
                recent_games=COUNT,
                cube=CUBE,
            ),
        ),
        "gammon42.games_at_win_rate": (
            gammon42.games_at_win_rate,
            dict(rating=1500, opponent=1500, target=1515, win_rate=0.75, recent_games=0, cube=1),
            dict(
                rating=G42_RATING,
                opponent=G42_RATING,
                target=G42_RATING,
                win_rate=PROB,
                recent_games=COUNT,
                cube=CUBE,
            ),
        ),
        "gammon42.expected_score": (
            gammon42.expected_score,
            dict(rating=1800, opponent=1500, divisor=1200),
            dict(rating=REAL, opponent=REAL, divisor=POSITIVE),
        ),
        "gammon42.k_for": (
            gammon42.k_for,
            dict(recent_ranked_games=[0, 60], k=32, heavy_k=16, threshold=50),
            dict(recent_ranked_games=COUNT, k=NONNEG, heavy_k=NONNEG, threshold=COUNT),
        ),
        "gammon42.cube_coefficient": (
            gammon42.cube_coefficient,
            dict(cube=[1, 8]),
            dict(cube=CUBE),
        ),
        "gammon42.cube_multiplier": (
            gammon42.cube_multiplier,
            dict(cube=64, mode="coefficient"),
            dict(cube=CUBE, mode=choice(*gammon42.CUBE_MODES)),
        ),
        "gammon42.go_round": (gammon42.go_round, dict(x=[0.5, -2.5]), dict(x=REAL)),
        "gammon42.change": (
            gammon42.change,
            dict(
                winner_rating=1800,
                loser_rating=1500,
                winner_k=32,
                loser_k=16,
                cube=2,
                divisor=1200,
                cube_mode="coefficient",
            ),
            dict(
                winner_rating=REAL,
                loser_rating=REAL,
                winner_k=NONNEG,
                loser_k=NONNEG,
                cube=CUBE,
                divisor=POSITIVE,
                cube_mode=choice(*gammon42.CUBE_MODES),
            ),
        ),
        "gammon42.unrounded_change": (
            gammon42.unrounded_change,
            dict(
                winner_rating=1500,
                loser_rating=1500,
                winner_k=32,
                loser_k=16,
                cube=2,
                divisor=1200,
                cube_mode="coefficient",
            ),
            dict(
                winner_rating=REAL,
                loser_rating=REAL,
                winner_k=NONNEG,
                loser_k=NONNEG,
                cube=CUBE,
                divisor=POSITIVE,
                cube_mode=choice(*gammon42.CUBE_MODES),
            ),
        ),
        "gammon42.break_even_win_rate": (
            gammon42.break_even_win_rate,
            dict(difference=[0, 300], divisor=1200, k=32),
            dict(difference=NONNEG, divisor=POSITIVE, k=NONNEG),
        ),
        "gammon42.recent_ranked_games": (
            gammon42.recent_ranked_games,
            dict(
                game_times=[_datetime(1), _datetime(3)],
                at=_datetime(0),
                window=dt.timedelta(days=7),
            ),
            dict(
                game_times=_cat(
                    (NAN, "abc", None, [1.5], ["x"], {"a": 1}),
                    st.lists(st.floats(0, 30).map(_datetime), max_size=5),
                    wrong_types=False,
                ),
                at=_cat(
                    (NAN, "abc", None, {"a": 1}, 3),
                    st.floats(-30, 30).map(_datetime),
                    wrong_types=False,
                ),
                window=_cat(
                    (NAN, "abc", None, -1, dt.timedelta(days=-1), {"a": 1}),
                    st.integers(1, 30).map(lambda d: dt.timedelta(days=d)),
                    wrong_types=False,
                ),
            ),
        ),
        # tables
        "tables.divisor_comparison": (
            tables.divisor_comparison,
            dict(differences=(0, 200), divisors=(400, 1200)),
            dict(differences=REAL, divisors=POSITIVE),
        ),
        "tables.changes_by_difference": (
            tables.changes_by_difference,
            dict(differences=(0, 100), k=32, cube=1, divisor=1200),
            dict(differences=REAL, k=NONNEG, cube=CUBE, divisor=POSITIVE),
        ),
        "tables.k_comparison": (
            tables.k_comparison,
            dict(differences=(0, 150), ks=(32, 16), cube=1, divisor=1200),
            dict(differences=REAL, ks=NONNEG, cube=CUBE, divisor=POSITIVE),
        ),
        "tables.divisor_history": (
            tables.divisor_history,
            dict(difference=300, divisors=(400, 1200), k=32),
            dict(difference=REAL, divisors=POSITIVE, k=NONNEG),
        ),
        "tables.cube_table": (
            tables.cube_table,
            dict(cubes=(1, 2), ks=(32, 16), rating=1500, mode="coefficient", divisor=1200),
            dict(
                cubes=CUBE,
                ks=NONNEG,
                rating=REAL,
                mode=choice(*gammon42.CUBE_MODES),
                divisor=POSITIVE,
            ),
        ),
        "tables.ladder_replay": (
            tables.ladder_replay,
            dict(games=gammon42.Ladder().replay([(_datetime(1), "ana", "bob", 2)])),
            dict(games=obj(st.just([]), bad=([1, 2], [{"a": 1}], ["abc"], [None]))),
        ),
        "tables.fide_table_8_1_2": (tables.fide_table_8_1_2, {}, {}),
        "tables.cap_example_table": (
            tables.cap_example_table,
            dict(on="2026-01-01"),
            dict(on=DATE),
        ),
        "tables.k_rules_table": (
            tables.k_rules_table,
            dict(decision=fide.k_factor_rule(1500, rated_games=40)),
            dict(decision=obj(st.just(fide.k_factor_rule(2450, rated_games=40)))),
        ),
        # glicko
        "glicko.g": (glicko.g, dict(rd=[30, 100]), dict(rd=NONNEG)),
        "glicko.expected_score": (
            glicko.expected_score,
            dict(rating=1500, opponent_rating=1400, opponent_rd=30, rd=0),
            dict(rating=REAL, opponent_rating=REAL, opponent_rd=NONNEG, rd=NONNEG),
        ),
        "glicko.grow_rd": (
            glicko.grow_rd,
            dict(rd=50, periods=10, c=34.6, max_rd=350),
            dict(rd=NONNEG, periods=NONNEG, c=NONNEG, max_rd=POSITIVE),
        ),
        "glicko.glicko1_batch": (
            glicko.glicko1_batch,
            dict(
                rating=[1500, 1500],
                rd=[200, 200],
                opp_rating=[[1400, 1550], [1400, 1700]],
                opp_rd=[[30, 100], [30, 300]],
                score=[[1, 0], [1, 0.5]],
                mask=[[True, True], [True, True]],
            ),
            dict(
                rating=REAL,
                rd=POSITIVE,
                opp_rating=REAL,
                opp_rd=NONNEG,
                score=SCORE,
                mask=BOOL_ELEMENT,
            ),
        ),
        "glicko.glicko1_update": (
            glicko.glicko1_update,
            dict(rating=1500, rd=200, results=[(1400, 30, 1), (1550, 100, 0)]),
            dict(rating=REAL, rd=POSITIVE, results=("rows", (REAL, NONNEG, SCORE))),
        ),
        "glicko.glicko1_steps": (
            glicko.glicko1_steps,
            dict(rating=1500, rd=200, results=[(1400, 30, 1), (1550, 100, 0)]),
            dict(rating=REAL, rd=POSITIVE, results=("rows", (REAL, NONNEG, SCORE))),
        ),
        "glicko.glicko2_batch": (
            glicko.glicko2_batch,
            dict(
                rating=[1500, 1500],
                rd=[200, 200],
                volatility=[0.06, 0.06],
                opp_rating=[[1400, 1550], [1400, 1700]],
                opp_rd=[[30, 100], [30, 300]],
                score=[[1, 0], [1, 0.5]],
                mask=[[True, True], [True, True]],
                tau=0.5,
                elapsed_periods=1.0,
                epsilon=1e-6,
            ),
            dict(
                rating=REAL,
                rd=POSITIVE,
                volatility=POSITIVE,
                opp_rating=REAL,
                opp_rd=NONNEG,
                score=SCORE,
                mask=BOOL_ELEMENT,
                tau=POSITIVE,
                elapsed_periods=NONNEG,
                epsilon=POSITIVE,
            ),
        ),
        "glicko.glicko2_update": (
            glicko.glicko2_update,
            dict(
                rating=1500,
                rd=200,
                volatility=0.06,
                results=[(1400, 30, 1), (1550, 100, 0)],
                tau=0.5,
                elapsed_periods=1.0,
                epsilon=1e-6,
            ),
            dict(
                rating=REAL,
                rd=POSITIVE,
                volatility=POSITIVE,
                results=("rows", (REAL, NONNEG, SCORE)),
                tau=POSITIVE,
                elapsed_periods=NONNEG,
                epsilon=POSITIVE,
            ),
        ),
        "glicko.glicko2_steps": (
            glicko.glicko2_steps,
            dict(
                rating=1500,
                rd=200,
                volatility=0.06,
                results=[(1400, 30, 1), (1550, 100, 0)],
                tau=0.5,
                elapsed_periods=1.0,
                epsilon=1e-6,
            ),
            dict(
                rating=REAL,
                rd=POSITIVE,
                volatility=POSITIVE,
                results=("rows", (REAL, NONNEG, SCORE)),
                tau=POSITIVE,
                elapsed_periods=NONNEG,
                epsilon=POSITIVE,
            ),
        ),
        "glicko.confidence_interval": (
            glicko.confidence_interval,
            dict(rating=1850, rd=50, z=2.0),
            dict(rating=REAL, rd=NONNEG, z=NONNEG),
        ),
        "glicko.lichess_cap": (
            glicko.lichess_cap,
            dict(rating=350, rd=30, volatility=0.2, config=cfg),
            dict(rating=REAL, rd=NONNEG, volatility=NONNEG, config=CONFIG),
        ),
        "glicko.lichess_game": (
            glicko.lichess_game,
            dict(player=(1500, 350, 0.09), opponent=(1400, 100, 0.06), score=1, config=cfg),
            dict(
                player=("rows1", (REAL, POSITIVE, POSITIVE)),
                opponent=("rows1", (REAL, POSITIVE, POSITIVE)),
                score=SCORE,
                config=CONFIG,
            ),
        ),
        "glicko.lichess_live_rd": (
            glicko.lichess_live_rd,
            dict(rd=60, volatility=0.06, days=365, config=cfg),
            dict(rd=POSITIVE, volatility=POSITIVE, days=NONNEG, config=CONFIG),
        ),
        "glicko.is_provisional": (
            glicko.is_provisional,
            dict(rd=[110, 60], config=cfg),
            dict(rd=NONNEG, config=CONFIG),
        ),
        "glicko.lichess_display": (
            glicko.lichess_display,
            dict(rating=1876.9, rd=60, config=cfg),
            dict(rating=REAL, rd=NONNEG, config=CONFIG),
        ),
        # fibs
        "fibs.upset_probability": (
            fibs.upset_probability,
            dict(difference=400, match_length=7),
            dict(difference=REAL, match_length=COUNT1),
        ),
        "fibs.win_probability": (
            fibs.win_probability,
            dict(rating=1600, opponent_rating=1500, match_length=1),
            dict(rating=REAL, opponent_rating=REAL, match_length=COUNT1),
        ),
        "fibs.experience_factor": (
            fibs.experience_factor,
            dict(experience=[0, 150, 400]),
            dict(experience=NONNEG),
        ),
        "fibs.change": (
            fibs.change,
            dict(
                winner_rating=1400,
                loser_rating=1650,
                match_length=5,
                winner_experience=400,
                loser_experience=100,
            ),
            dict(
                winner_rating=REAL,
                loser_rating=REAL,
                match_length=COUNT1,
                winner_experience=NONNEG,
                loser_experience=NONNEG,
            ),
        ),
        "fibs.update": (
            fibs.update,
            dict(
                winner_rating=1500,
                loser_rating=1500,
                match_length=3,
                winner_experience=0,
                loser_experience=10,
            ),
            dict(
                winner_rating=REAL,
                loser_rating=REAL,
                match_length=COUNT1,
                winner_experience=NONNEG,
                loser_experience=NONNEG,
            ),
        ),
        # simulate
        "calibration.calibrate": (
            calibration.calibrate,
            dict(
                differences=[200, 200, -50],
                scores=[1, 0.5, 0],
                bucket=100,
                divisor=400,
                white_advantage=0.0,
            ),
            dict(
                differences=REAL,
                scores=PROB,
                bucket=POSITIVE,
                divisor=_cat((NAN, -INF, 0.0, -1.0), st.floats(1e-300, 1e308)),  # inf: flat
                white_advantage=REAL,
            ),
        ),
        "calibration.expected_curve": (
            calibration.expected_curve,
            dict(differences=[-400, 0, 200], divisor=400, white_advantage=0.0),
            dict(
                differences=REAL,
                divisor=_cat((NAN, 0.0), finite),  # ±inf: flat
                white_advantage=REAL,
            ),
        ),
        "calibration.fit_divisor": (
            calibration.fit_divisor,
            dict(
                differences=[200, 200, 200, 200, -100, 0],
                scores=[1, 1, 1, 0, 0, 0.5],
                white_advantage=False,
                confidence=0.95,
                bucket=50,
            ),
            dict(
                differences=REAL,
                scores=PROB,
                white_advantage=BOOL,
                confidence=_cat(NONFINITE + (0.0, 1.0, -0.5, 1.5), st.floats(0.01, 0.99)),
                bucket=POSITIVE,
            ),
        ),
        "results_csv.parse_results_csv": (
            results_csv.parse_results_csv,
            dict(text="rating,opponent,score\n1500,1400,1\n"),
            dict(text=_cat((None, 3, NAN, [], {"a": 1}), st.text(max_size=200), wrong_types=False)),
        ),
        "simulate.simulate_season": (
            simulate.simulate_season,
            dict(
                rules=simulate.Elo(k=20),
                players=6,
                weeks=2,
                games_per_week=2,
                spread=200.0,
                true_divisor=None,
                draw_rate=0.1,
                activity=1.0,
                seed=0,
            ),
            dict(
                rules=obj(rules_ok),
                players=_cat(NONFINITE + (-1, 0, 1, 2.5, 10**12), st.integers(2, 40)),
                weeks=SIZE,
                games_per_week=SIZE,
                spread=NONNEG,
                true_divisor=POSITIVE,
                draw_rate=PROB,
                activity=PROB,
                seed=SEED,
            ),
        ),
        "simulate.weekly_swing": (
            simulate.weekly_swing,
            dict(
                k=(32, 16),
                games_per_week=(20, 50),
                players=50,
                divisor=1200,
                opponent_spread=0.0,
                feedback=False,
                seed=0,
            ),
            dict(
                k=NONNEG,
                games_per_week=SIZE,
                players=_cat(NONFINITE + (-1, 0, 2.5, 10**12), st.integers(1, 200)),
                divisor=POSITIVE,
                opponent_spread=NONNEG,
                feedback=BOOL,
                seed=SEED,
            ),
        ),
        "simulate.luck_only_weeks": (
            simulate.luck_only_weeks,
            dict(feedback=False),
            dict(feedback=BOOL),
        ),
        # lichess
        "lichess.load_games": (
            lichess.load_games,
            dict(rated_only=True, time_control="blitz", deduplicate=True),
            dict(
                rated_only=BOOL,
                deduplicate=BOOL,
                time_control=choice(None, "10+0", *lichess.SPEEDS, extra_bad=("10+", "x+y")),
            ),
        ),
        "lichess.raw_csv": (lichess.raw_csv, {}, {}),
        "lichess.speed_of": (
            lichess.speed_of,
            dict(time_control=["1+0", "15+15"]),
            dict(
                time_control=_cat(
                    (None, 3, NAN, {"a": 1}, "abc", "1+", "+2", "-1+0", "1e308+0"),
                    st.tuples(st.integers(0, 180), st.integers(0, 180)).map(
                        lambda t: f"{t[0]}+{t[1]}"
                    ),
                    wrong_types=False,
                )
            ),
        ),
        # configurable classes (their constructors are public API too)
        "gammon42.Rules": (
            gammon42.Rules,
            dict(
                version="x", label="x", divisor=1200, k=32, heavy_volume_k=16, heavy_volume_games=50
            ),
            dict(divisor=POSITIVE, k=NONNEG, heavy_volume_k=NONNEG, heavy_volume_games=COUNT),
        ),
        "gammon42.Ladder": (
            gammon42.Ladder,
            dict(rules=gammon42.CURRENT),
            dict(rules=obj(st.sampled_from(list(gammon42.VERSIONS.values())))),
        ),
        "glicko.LichessConfig": (
            glicko.LichessConfig,
            dict(tau=0.75, rating=1500.0, rd=500.0, volatility=0.09),
            dict(tau=POSITIVE, rating=REAL, rd=POSITIVE, volatility=POSITIVE),
        ),
        "simulate.Elo": (
            simulate.Elo,
            dict(k=20.0, divisor=400.0, start_rating=1500.0),
            dict(k=NONNEG, divisor=POSITIVE, start_rating=REAL),
        ),
        "simulate.FideElo": (
            simulate.FideElo,
            dict(k=20, use_table=True, cap_400=True, on=None, start_rating=1500.0),
            dict(
                k=_cat(NONFINITE + (-1, 0), st.sampled_from([10, 20, 40])),
                use_table=BOOL,
                cap_400=BOOL,
                on=DATE,
                start_rating=REAL,
            ),
        ),
        "simulate.Gammon42": (
            simulate.Gammon42,
            dict(version="1.3.1", start_rating=1500),
            dict(version=choice(*gammon42.VERSIONS), start_rating=REAL),
        ),
        "simulate.Fibs": (
            simulate.Fibs,
            dict(match_length=1, start_experience=0, start_rating=1500.0),
            dict(match_length=COUNT1, start_experience=NONNEG, start_rating=REAL),
        ),
        "simulate.LichessGlicko2": (simulate.LichessGlicko2, dict(config=cfg), dict(config=CONFIG)),
    }
    return s


SPEC = spec()


# ------------------------------------------------------------------ fuzzed values
def _shape_of(base):
    try:
        arr = np.asarray(base, dtype=float)
    except (TypeError, ValueError):
        return None
    return arr.shape


def _with_element(base, value):
    """``base`` (a nested list/tuple of numbers) with its first element replaced by ``value``."""
    if isinstance(base, (list, tuple)):
        if not base:
            return [value]
        items = list(base)
        items[0] = _with_element(items[0], value)
        return type(base)(items) if isinstance(base, tuple) else items
    return value


def _bad_values(base, cat):
    bad = list(cat.bad) + (list(WRONG_TYPES) if cat.wrong_types else [])
    if isinstance(base, (list, tuple)) and cat.wrong_types:
        bad += [_with_element(base, b) for b in cat.bad]  # one bad element in an array
        bad += [_with_element(base, "abc"), _with_element(base, None)]
    return bad


def _ok_values(base, cat):
    shape = _shape_of(base) if isinstance(base, (list, tuple, np.ndarray)) else ()
    if not shape:
        return cat.ok
    n = int(np.prod(shape))
    return st.lists(cat.ok, min_size=n, max_size=n).map(
        lambda xs: np.array(xs, dtype=object).reshape(shape).tolist()
    )


def _rows_values(base, cols, single=False):
    """Fuzzed values for a list of tuples (or a single tuple) with a category per column."""
    row0 = base if single else base[0]
    bad = [None, "abc", 3, {"a": 1}, ["a"], [1, 2, 3, 4, 5]] + (
        [] if single else [[(1,)], [row0[:-1]]]
    )
    for i, c in enumerate(cols):
        for b in c.bad + ("x", None):
            row = tuple(b if j == i else v for j, v in enumerate(row0))
            bad.append(row if single else [row, *base[1:]])
    ok_row = st.tuples(*(c.ok for c in cols))
    ok = ok_row if single else st.lists(ok_row, max_size=6)
    return bad, ok


def _optional(fn, param) -> bool:
    """Whether ``None`` is a documented value of ``param`` (its default)."""
    try:
        p = inspect.signature(fn).parameters.get(param)
    except (TypeError, ValueError):
        return False
    return p is not None and p.default is None


def fuzz_case(name: str):
    """A strategy of ``(param, value, must_refuse)`` for one callable."""
    fn, base, params = SPEC[name]
    cases = []
    for param, cat in params.items():
        if isinstance(cat, tuple):  # ("rows", cats) or ("rows1", cats)
            bad, ok = _rows_values(base[param], cat[1], single=cat[0] == "rows1")
        else:
            bad, ok = _bad_values(base[param], cat), _ok_values(base[param], cat)
        if _optional(fn, param):
            bad = [b for b in bad if b is not None]
        cases.append(st.sampled_from(bad).map(lambda v, p=param: (p, v, True)))
        cases.append(ok.map(lambda v, p=param: (p, v, False)))
    return st.one_of(cases)


# ------------------------------------------------------------------ checking one call
class CallTimeout(BaseException):
    """Raised by the alarm: not an ``Exception``, so no ``except Exception`` swallows it."""


def _alarm(_signum, _frame):
    raise CallTimeout


def _nonfinite(value, depth=0) -> str | None:
    """Where ``value`` holds a NaN or infinity (a silently wrong number), else ``None``."""
    if (
        depth > 6
        or value is None
        or isinstance(value, (bool, np.bool_, bytes, dt.date, dt.timedelta))
    ):
        return None
    if isinstance(value, (int, np.integer)):
        return None
    if isinstance(value, (float, np.floating)):
        return None if math.isfinite(value) else repr(float(value))
    if isinstance(value, str):
        # a quoted 'nan' echoes the reader's own input in an error message: not a result
        m = re.search(r"(?<!['\"])\b(nan|inf|infinity)\b(?!['\"])", value, re.IGNORECASE)
        return f"text {value[:60]!r}" if m else None
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            bad = ~np.isfinite(value)
            return f"array element {value[bad].flat[0]!r}" if bad.any() else None
        if value.dtype.kind in "OU":
            for item in value.flat[:1000]:
                where = _nonfinite(item, depth + 1)
                if where:
                    return where
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            where = _nonfinite(getattr(value, f.name), depth + 1)
            if where:
                return f"{f.name}: {where}"
        return None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, item in list(items)[:1000]:
        where = _nonfinite(item, depth + 1)
        if where:
            return f"[{key!r}] {where}"
    return None


# A message about one element of a structured parameter may name the element instead.
ALIASES = {
    "results": ("opponent", "opp_rating", "opp_rd", "score", "result"),
    "player": ("rating", "rd", "volatility"),
    "opponent": ("rating", "rd", "volatility"),
}


def check_call(name: str, param: str, value, must_refuse: bool) -> str | None:
    """Call ``name`` with ``param`` replaced by ``value``; a description of a problem, or None."""
    fn, base, params = SPEC[name]
    kwargs = {**base, param: value} if param else dict(base)
    call = f"{name}({param}={value!r})" if param else f"{name}()"
    old = signal.signal(signal.SIGALRM, _alarm)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as f:  # cap memory: a fuzzed size must not swamp the machine
        mapped = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = mapped + CALL_EXTRA_MEMORY
    if limits[1] != resource.RLIM_INFINITY:
        cap = min(cap, limits[1])
    resource.setrlimit(resource.RLIMIT_AS, (cap, limits[1]))
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = fn(**kwargs)
    except CallTimeout:
        return f"{call}: still running after {CALL_SECONDS} s"
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if param and any(n in message for n in (param, *ALIASES.get(param, ()))):
            return None
        names = [p for p in inspect.signature(fn).parameters if p in message]
        if not must_refuse and names:
            return None  # a valid-typed value refused because of the combination: fine
        return (
            f"{call}: {type(exc).__name__} whose message does not name {param!r}: {message[:200]!r}"
        )
    except Exception as exc:  # noqa: BLE001 - anything else is the failure being looked for
        return f"{call}: {type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, limits)
    if must_refuse:
        return f"{call}: accepted (returned {str(result)[:120]!r}) instead of raising ValueError/TypeError"
    where = _nonfinite(result)
    if where and where.split(":")[0] not in DOCUMENTED_NONFINITE.get(name, ()):
        return f"{call}: returned a non-finite number ({where})"
    return None


# ------------------------------------------------------------------ the tests
def public_callables():
    out = {}
    for mod_name in MODULES:
        mod = importlib.import_module(f"elo_explain.{mod_name}")
        names = getattr(mod, "__all__", None) or [
            n
            for n, o in vars(mod).items()
            if not n.startswith("_")
            and callable(o)
            and getattr(o, "__module__", None) == mod.__name__
        ]
        for n in names:
            if callable(getattr(mod, n)):
                out[f"{mod_name}.{n}"] = getattr(mod, n)
    return out


def test_every_public_callable_is_covered():
    found = public_callables()
    missing = sorted(set(found) - set(SPEC) - RECORDS)
    assert not missing, (
        f"public callables not fuzzed (add them to SPEC, or to RECORDS if a result record): {missing}"
    )
    stale = sorted((set(SPEC) | RECORDS) - set(found))
    assert not stale, f"SPEC/RECORDS name callables that are no longer public: {stale}"


def test_base_calls_are_valid():
    """The base call of every fuzzed callable succeeds, so a refusal is due to the fuzzed value."""
    problems = [p for name in SPEC if (p := check_call(name, None, None, False))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", sorted(n for n in SPEC if SPEC[n][2]))
def test_fuzz(name):
    @FUZZ
    @given(fuzz_case(name))
    def run(case):
        param, value, must_refuse = case
        problem = check_call(name, param, value, must_refuse)
        assert problem is None, problem

    run()


def report(examples: int = 40) -> list[str]:
    """Every distinct problem (not only hypothesis's first per callable), for fixing in bulk.

    Run ``python tests/rules/test_fuzz_package.py``: each known-bad value of each parameter, plus
    ``examples`` valid-typed draws per parameter.
    """
    from hypothesis.errors import NonInteractiveExampleWarning

    seen, out = set(), []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        for name in sorted(SPEC):
            fn, base, params = SPEC[name]
            for param, cat in params.items():
                if isinstance(cat, tuple):
                    bad, ok = _rows_values(base[param], cat[1], single=cat[0] == "rows1")
                else:
                    bad, ok = _bad_values(base[param], cat), _ok_values(base[param], cat)
                if _optional(fn, param):
                    bad = [b for b in bad if b is not None]
                for value, must in [(v, True) for v in bad] + [
                    (ok.example(), False) for _ in range(examples)
                ]:
                    problem = check_call(name, param, value, must)
                    if problem:
                        kind = re.sub(r"[-+]?\d[\d.e+-]*", "N", problem.split("): ", 1)[-1])[:90]
                        if (name, param, kind) not in seen:
                            seen.add((name, param, kind))
                            out.append(problem)
    return out


if __name__ == "__main__":
    problems = report()
    print("\n".join(problems))
    print(
        f"{len(problems)} distinct problems in {len({p.split('(')[0] for p in problems})} callables"
    )
