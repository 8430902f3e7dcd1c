"""Fitting the curve to real games: calibration tables and the divisor real games imply.

Every Elo-type system assumes that a player ``d`` points above the opponent scores
``E(d) = 1 / (1 + 10 ** (-d / divisor))`` per game. :func:`calibrate` buckets real games by
rating difference and sets what players scored beside what the curve expects;
:func:`fit_divisor` finds the maximum-likelihood divisor. Given rating differences ``d`` and
scores ``s`` (1 win, 0.5 draw, 0 loss) it maximises ::

    log L = sum  s * log E(d) + (1 - s) * log(1 - E(d))

(a Bernoulli likelihood, which stays valid for fractional scores: a draw counts as half a
win and half a loss). In the natural scale ``E = 1 / (1 + exp(-beta * d))`` with
``beta = ln 10 / divisor`` this is a logistic regression through the origin, whose
log-likelihood is concave in ``beta``; it is solved by Newton's method with step halving.
The 95 % interval is a **profile-likelihood** interval (the ``beta`` where ``log L`` has
dropped by ``chi2_1(0.95) / 2 = 1.92``), mapped to the divisor. Optionally a constant
*white advantage* ``w`` (rating points added to the first player's side,
``E = 1 / (1 + 10 ** (-(d + w) / divisor))``) is fitted too; then the divisor's interval
profiles ``w`` out. Games are treated as independent, which real games clustered on a few
players are not quite, so intervals are a little too narrow. Readers' own results are
read with :func:`elo_explain.results_csv.parse_results_csv`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import _validate as v
from ._validate import readonly as _readonly
from .i18n import _

__all__ = [
    "Calibration",
    "DivisorFit",
    "calibrate",
    "expected_curve",
    "fit_divisor",
]

LN10 = math.log(10.0)

MAX_DIFFERENCE = 10_000
"""Largest rating difference (either sign) :func:`calibrate` and :func:`fit_divisor` accept.

Real ratings lie within 0..4000; the bound keeps every bucket index and log-odds finite."""
MAX_BUCKETS = 10_000
"""Most difference buckets one calibration table may span (from the lowest to the highest)."""
MIN_BUCKET = 0.01
"""Narrowest bucket width in rating points."""


def _z(confidence: float) -> float:
    """Two-sided normal quantile: P(|Z| <= z) = confidence (bisection on erfc, no scipy)."""
    lo, hi = 0.0, 40.0
    for _step in range(200):
        mid = 0.5 * (lo + hi)
        if math.erfc(mid / math.sqrt(2.0)) > 1.0 - confidence:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log(1 / (1 + exp(-x))) without overflow."""
    return -np.logaddexp(0.0, -x)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return np.exp(_log_sigmoid(x))


def _loglik(eta: np.ndarray, s: np.ndarray, n: np.ndarray) -> float:
    """Bernoulli log-likelihood of ``s`` points out of ``n`` games at log-odds ``eta``."""
    return float(np.dot(s, _log_sigmoid(eta)) + np.dot(n - s, _log_sigmoid(-eta)))


def _curve(d, divisor, offset=0.0):
    """E(d) = 1 / (1 + 10 ** (-(d + offset) / divisor)) for validated arrays (any divisor sign)."""
    if np.isinf(divisor):
        return np.full(np.shape(d), 0.5)
    with np.errstate(over="ignore"):  # a tiny divisor: log-odds +-inf, E exactly 1 or 0
        return _sigmoid(LN10 * (np.asarray(d, dtype=float) + offset) / divisor)


def expected_curve(differences, divisor=400.0, white_advantage=0.0):
    """The logistic curve a calibration tests: E(d) = 1 / (1 + 10 ** (-(d + offset) / divisor)).

    ``differences`` (own minus opponent, a number or an array, within ±10**6: a plot may reach a
    little beyond the data's ±:data:`MAX_DIFFERENCE`);
    ``divisor`` any number but 0:
    ``inf`` is the flat curve (E = 0.5 everywhere, where a fitted divisor's interval may end)
    and a negative divisor the mirrored curve a fit can return; ``white_advantage`` the points
    added to every difference (within ±10**6). Computed without overflow. The chess curve (÷400) at 200 points
    up is the documents' 0.76 (Telugu; the Greek document's "76 %"):

    >>> round(float(expected_curve(200)), 2), float(expected_curve(200, float("inf")))
    (0.76, 0.5)
    >>> expected_curve([-400, 0, 400]).round(3)
    array([0.091, 0.5  , 0.909])
    """
    d = np.asarray(v.finite("differences", differences, lo=-1e6, hi=1e6), dtype=float)
    if isinstance(divisor, (bool, np.bool_)) or not isinstance(divisor, (int, float, np.number)):
        raise TypeError(f"divisor must be a number, got {divisor!r}")
    div = float(divisor)
    if math.isnan(div) or div == 0:
        raise ValueError(
            f"divisor must be a number other than 0 (inf: the flat curve), got {divisor!r}"
        )
    w = v.finite("white_advantage", v.number("white_advantage", white_advantage), lo=-1e6, hi=1e6)
    return _curve(d, div, w)


# ------------------------------------------------------------------------- calibration


@dataclass(frozen=True, eq=False)
class Calibration:
    """Expected against actual score by difference bucket (only non-empty buckets).

    Buckets are ``bucket`` points wide and centred on multiples of ``bucket``
    (``center - bucket/2 <= d < center + bucket/2``). Per bucket: ``count`` games,
    ``mean_difference``, ``actual`` (mean score) with its standard error ``actual_se``
    (sample standard deviation / sqrt(count); 0 for a single game), ``expected`` (mean of the
    curve under test over the bucket's games) and ``expected_400`` (mean of the chess curve,
    ÷400, no offset). Arrays are read-only.

    >>> c = calibrate([-10, 0, 10, 100, 110], [0, 0.5, 1, 1, 0], bucket=50, divisor=400)
    >>> c.center, c.count, c.actual
    (array([  0., 100.]), array([3, 2]), array([0.5, 0.5]))
    >>> c.expected.round(3)
    array([0.5  , 0.647])
    """

    bucket: float
    divisor: float
    white_advantage: float
    center: np.ndarray
    count: np.ndarray
    mean_difference: np.ndarray
    actual: np.ndarray
    actual_se: np.ndarray
    expected: np.ndarray
    expected_400: np.ndarray

    @property
    def lo(self) -> np.ndarray:
        """Lower edge of each bucket (inclusive).

        >>> calibrate([0, 120], [1, 0], bucket=100).lo
        array([-50.,  50.])
        """
        return self.center - self.bucket / 2

    @property
    def hi(self) -> np.ndarray:
        """Upper edge of each bucket (exclusive).

        >>> calibrate([0, 120], [1, 0], bucket=100).hi
        array([ 50., 150.])
        """
        return self.center + self.bucket / 2


def _validate_games(differences, scores):
    d = np.asarray(
        v.finite("differences", differences, lo=-MAX_DIFFERENCE, hi=MAX_DIFFERENCE), dtype=float
    )
    s = np.asarray(v.finite("scores", scores, lo=0.0, hi=1.0), dtype=float)
    if d.ndim != 1 or s.ndim != 1:
        raise ValueError(
            f"differences and scores must be one-dimensional sequences, got shapes "
            f"{d.shape} and {s.shape}"
        )
    if d.shape != s.shape:
        raise ValueError(
            f"differences and scores must have the same length, got {d.size} and {s.size}"
        )
    if d.size == 0:
        raise ValueError("differences must hold at least one game, got none")
    return d, s


def _bucket_width(d: np.ndarray, bucket) -> float:
    """``bucket`` checked: >= MIN_BUCKET and at most MAX_BUCKETS buckets over ``d``."""
    width = v.in_range("bucket", bucket, -math.inf, math.inf)
    if not width > 0:
        raise ValueError(f"bucket must be > 0, got {width!r}")
    if width < MIN_BUCKET:
        raise ValueError(f"bucket must be at least {MIN_BUCKET:g} rating points, got {width!r}")
    lo, hi = float(d.min()), float(d.max())
    count = math.floor((hi + width / 2) / width) - math.floor((lo + width / 2) / width) + 1
    if count > MAX_BUCKETS:
        need = math.ceil((hi - lo) / (MAX_BUCKETS - 1) * 1000) / 1000
        raise ValueError(
            f"bucket must be at least {need:g} rating points for differences from {lo:g} to "
            f"{hi:g} (at most {MAX_BUCKETS} buckets), got {width!r}"
        )
    return width


def calibrate(differences, scores, *, bucket=50, divisor=400, white_advantage=0.0) -> Calibration:
    """Calibration table: actual mean score against the curve ÷``divisor``, by difference bucket.

    ``differences`` are own rating minus opponent's, ``scores`` 0..1 (draws 0.5);
    ``bucket`` is the bucket width in rating points (at least :data:`MIN_BUCKET`, and wide
    enough for at most :data:`MAX_BUCKETS` buckets from the lowest difference to the
    highest); ``divisor`` > 0 (or ``inf``, a flat curve) and ``white_advantage`` (points
    added to every difference, within ±10**6) define the curve tested. Differences must lie
    within ±:data:`MAX_DIFFERENCE` (10,000). Vectorized with ``np.bincount``.

    Two games at +200 scoring 1 and 0.5 (mean 0.75) against the chess curve (E 0.76):

    >>> c = calibrate([200, 200], [1, 0.5], bucket=100)
    >>> float(c.actual[0]), round(float(c.expected[0]), 2), round(float(c.actual_se[0]), 2)
    (0.75, 0.76, 0.25)
    """
    d, s = _validate_games(differences, scores)
    width = _bucket_width(d, bucket)
    div = float(np.asarray(v.as_float_array("divisor", divisor)))
    if not div > 0:
        raise ValueError(f"divisor must be > 0 (or inf), got {div!r}")
    w = float(v.in_range("white_advantage", white_advantage, -1e6, 1e6))
    index = np.floor((d + width / 2) / width).astype(np.int64)
    first = int(index.min())
    idx = index - first
    count = np.bincount(idx)
    keep = count > 0
    n = count[keep]
    mean_d = np.bincount(idx, weights=d)[keep] / n
    actual = np.bincount(idx, weights=s)[keep] / n
    ss = np.bincount(idx, weights=(s - actual[np.cumsum(keep)[idx] - 1]) ** 2)[keep]
    se = np.sqrt(np.divide(ss, n * (n - 1), out=np.zeros_like(ss), where=n > 1))
    expected = np.bincount(idx, weights=_curve(d, div, w))[keep] / n
    expected_400 = np.bincount(idx, weights=_curve(d, 400.0))[keep] / n
    center = (np.flatnonzero(keep) + first) * width
    out = (center.astype(float), n, mean_d, actual, se, expected, expected_400)
    _readonly(*out)
    return Calibration(width, div, w, *out)


# ------------------------------------------------------------------------- the fit
@dataclass(frozen=True, eq=False)
class DivisorFit:
    """Result of :func:`fit_divisor`.

    ``divisor`` (maximum likelihood; ``inf`` if the fitted curve is flat, negative if
    higher-rated players scored *less*), ``interval`` (``confidence`` interval of the divisor
    by profile likelihood; ``inf`` as upper end when a flat curve cannot be excluded),
    ``slope`` = ln 10 / divisor (natural log-odds per rating point) with ``slope_interval``,
    ``white_advantage`` in rating points (0 unless fitted) with ``white_advantage_interval``
    (``None`` unless fitted), ``n`` games, ``log_likelihood`` at the fit, ``method``, and the
    ``calibration`` table (:class:`Calibration`, 50-point buckets, against the fitted curve).

    >>> fit = fit_divisor([100, 100, 100, 100, -50, -50], [1, 1, 1, 0, 0, 0.5])
    >>> round(fit.divisor), round(fit.interval[0]), fit.interval[1], fit.n, fit.method
    (186, 57, inf, 6, 'profile likelihood')
    """

    divisor: float
    interval: tuple
    slope: float
    slope_interval: tuple
    white_advantage: float
    white_advantage_interval: tuple | None
    n: int
    log_likelihood: float
    confidence: float
    calibration: Calibration
    differences: np.ndarray = field(repr=False)
    scores: np.ndarray = field(repr=False)
    method: str = "profile likelihood"

    @property
    def fits_white_advantage(self) -> bool:
        """Whether a white-advantage offset was fitted.

        >>> fit_divisor([100, 200, -100], [1, 0.5, 0], white_advantage=True).fits_white_advantage
        True
        """
        return self.white_advantage_interval is not None

    def expected(self, differences):
        """The fitted curve at ``differences`` (own minus opponent; the offset added).

        >>> fit = fit_divisor([100] * 4, [1, 1, 1, 0])
        >>> round(fit.expected(100), 3)
        0.75
        """
        d = np.asarray(v.finite("differences", differences), dtype=float)
        out = _curve(d, self.divisor, self.white_advantage)
        return float(out) if out.ndim == 0 else out

    def log_likelihood_at(self, divisor) -> float:
        """Log-likelihood of the games under ÷``divisor`` (white advantage re-fitted if it was fitted).

        >>> fit = fit_divisor([100] * 4, [1, 1, 1, 0])
        >>> fit.log_likelihood_at(fit.divisor) == fit.log_likelihood
        True
        """
        div = float(np.asarray(v.as_float_array("divisor", divisor)))
        if not (div > 0 or div < 0) or np.isnan(div):
            raise ValueError(f"divisor must be a non-zero number or inf, got {div!r}")
        beta = 0.0 if np.isinf(div) else LN10 / div
        if beta == self.slope:
            return self.log_likelihood
        d, s, n = _aggregate(self.differences, self.scores)
        return _profile_beta(
            d, s, n, beta, self.fits_white_advantage, self.white_advantage * self.slope
        )[0]

    def lr_test(self, divisor=400):
        """Likelihood-ratio test of ÷``divisor`` against the fit: ``(statistic, p_value)``.

        The statistic ``2 (log L_fit - log L_divisor)`` is compared with chi-squared, one
        degree of freedom; a small p-value means the data reject ÷``divisor``.

        >>> fit = fit_divisor([100] * 4, [1, 1, 1, 0])
        >>> stat, p = fit.lr_test(fit.divisor)
        >>> stat, p
        (0.0, 1.0)
        """
        stat = max(0.0, 2.0 * (self.log_likelihood - self.log_likelihood_at(divisor)))
        return stat, math.erfc(math.sqrt(stat / 2.0))

    def calibrate(self, bucket=50) -> Calibration:
        """The calibration table with another bucket width (see :func:`calibrate`).

        >>> fit = fit_divisor([-100, 100, 100, 300], [0, 1, 0.5, 1])
        >>> fit.calibrate(bucket=200).count
        array([1, 2, 1])
        """
        return calibrate(
            self.differences,
            self.scores,
            bucket=bucket,
            divisor=abs(self.divisor) if self.divisor > 0 else np.inf,
            white_advantage=self.white_advantage,
        )


def _newton(d, s, n, beta, alpha, with_alpha, max_iter=200):
    """Maximise the likelihood over (beta, alpha) (alpha fixed when not ``with_alpha``).

    ``d`` distinct differences, ``s`` points scored and ``n`` games at each. Each Newton
    step is capped to move a log-odds by at most :data:`_MAX_ETA_STEP` (far from the
    maximum, where the curve saturates, the information is nearly 0 and a plain Newton step
    is enormous) and halved until the likelihood does not drop; a step that cannot be made
    to improve it ends the search at the best point found.
    """
    eta = beta * d + alpha
    ll = _loglik(eta, s, n)
    dmax = float(np.max(np.abs(d))) if d.size else 0.0
    for _step in range(max_iter):
        e = _sigmoid(eta)
        r = s - n * e
        w = n * e * (1.0 - e)
        if with_alpha:
            grad = np.array([np.dot(r, d), r.sum()])
            info = np.array([[np.dot(w, d * d), np.dot(w, d)], [np.dot(w, d), w.sum()]])
            try:
                step = np.linalg.solve(info, grad)
            except np.linalg.LinAlgError:
                raise ValueError(
                    "differences must take at least two distinct values to fit a white "
                    "advantage together with the divisor"
                ) from None
        else:
            info_bb = float(np.dot(w, d * d))
            if info_bb <= 0:
                break
            step = np.array([np.dot(r, d) / info_bb, 0.0])
        if not np.all(np.isfinite(step)):
            break
        reach = abs(step[0]) * dmax + abs(step[1])  # largest change of a log-odds
        if reach > _MAX_ETA_STEP:
            step = step * (_MAX_ETA_STEP / reach)
        t = 1.0
        while True:
            nb, na = beta + t * step[0], alpha + t * step[1]
            neta = nb * d + na
            nll = _loglik(neta, s, n)
            if nll >= ll - 1e-12 * abs(ll):
                break
            t *= 0.5
            if t < 1e-12:
                return beta, alpha, ll  # no step improves: the best point found
        done = abs(t * step[0]) <= 1e-13 * max(abs(beta), 1e-12) and abs(t * step[1]) <= 1e-11
        beta, alpha, eta, ll = nb, na, neta, nll
        if done:
            break
    return beta, alpha, ll


_MAX_ETA_STEP = 10.0
"""Largest change of any game's log-odds in one Newton step of :func:`_newton`."""


def _separated(d, s, with_alpha) -> bool:
    """Whether the likelihood has no maximum (the curve can be made ever steeper).

    Without an offset that happens when every game with d > 0 was won and every game with
    d < 0 lost (or the mirror image). With an offset, when some threshold c splits the games
    into wins above and losses below (ties at c allowed): no game that was not won lies
    above a game that was not lost (or the mirror image).
    """
    not_won, not_lost = s < 1, s > 0
    if with_alpha:
        up = not not_won.any() or not not_lost.any() or d[not_won].max() <= d[not_lost].min()
        down = not not_won.any() or not not_lost.any() or d[not_lost].max() <= d[not_won].min()
        return bool(up or down)
    pos, neg = d > 0, d < 0
    up = not (not_won & pos).any() and not (not_lost & neg).any()
    down = not (not_lost & pos).any() and not (not_won & neg).any()
    return bool(up or down)


def _aggregate(d, s):
    """Distinct differences with total points and number of games at each."""
    ud, inv = np.unique(d, return_inverse=True)
    return ud, np.bincount(inv, weights=s), np.bincount(inv).astype(float)


def _alpha_hat(d, s, n, beta, alpha0):
    """Best alpha for a fixed beta (1-D Newton, concave)."""
    alpha = alpha0
    for _step in range(100):
        e = _sigmoid(beta * d + alpha)
        h = float(np.dot(n, e * (1.0 - e)))
        if h <= 0:
            break
        step = float(np.sum(s - n * e)) / h
        step = max(-5.0, min(5.0, step))
        alpha += step
        if abs(step) < 1e-12:
            break
    return alpha


def _profile_beta(d, s, n, beta, with_alpha, alpha0=0.0):
    """(profile log-likelihood, its derivative in beta, alpha) at ``beta``."""
    alpha = _alpha_hat(d, s, n, beta, alpha0) if with_alpha else 0.0
    eta = beta * d + alpha
    return _loglik(eta, s, n), float(np.dot(s - n * _sigmoid(eta), d)), alpha


def _beta_hat(d, s, n, w, beta0):
    """Best beta for a fixed offset w (eta = beta * (d + w); 1-D Newton, concave)."""
    x = d + w
    beta = beta0
    for _step in range(200):
        e = _sigmoid(beta * x)
        h = float(np.dot(n * e * (1.0 - e), x * x))
        if h <= 0:
            break
        step = float(np.dot(s - n * e, x)) / h
        beta += step
        if abs(step) <= 1e-14 * max(abs(beta), 1e-12):
            break
    return beta


def _profile_w(d, s, n, w, beta0):
    beta = _beta_hat(d, s, n, w, beta0)
    eta = beta * (d + w)
    return _loglik(eta, s, n), beta * float(np.sum(s - n * _sigmoid(eta))), beta


def _root(f, inside, step, limit):
    """Where the concave-ish profile ``f`` (value, slope) crosses 0, moving from ``inside``.

    ``inside`` has f > 0; step outwards by ``step`` (sign gives the direction), doubling,
    until f < 0 or ``limit`` is passed; then safeguarded Newton / bisection.
    Returns ``None`` when no crossing is found before ``limit``.
    """
    a = inside
    b = inside + step
    for _step in range(200):
        if (step > 0 and b > limit) or (step < 0 and b < limit):
            b = limit
        fb = f(b)[0]
        if fb < 0:
            break
        if b == limit:
            return None
        a = b
        step *= 2.0
        b = a + step
    x = b
    lo, hi = (a, b) if a < b else (b, a)
    for _step in range(200):
        fx, dfx = f(x)
        if fx == 0:
            return x
        if fx > 0:
            a = x
        else:
            b = x
        lo, hi = (a, b) if a < b else (b, a)
        nx = x - fx / dfx if dfx != 0 else 0.5 * (lo + hi)
        if not (lo < nx < hi):
            nx = 0.5 * (lo + hi)
        if abs(nx - x) <= 1e-12 * max(abs(x), 1e-9) or hi - lo <= 1e-13 * max(abs(x), 1e-9):
            return nx
        x = nx
    return x


def fit_divisor(
    differences, scores, *, white_advantage=False, confidence=0.95, bucket=50
) -> DivisorFit:
    """Maximum-likelihood divisor of the logistic curve for games ``(difference, score)``.

    ``differences`` are the first player's rating minus the opponent's, ``scores`` the first
    player's results in 0..1 (1 win, 0.5 draw, 0 loss; means of several games are fine).
    ``white_advantage=True`` also fits a constant offset in rating points for the first player
    (white's first move). ``confidence`` (0.5..0.9999) sets the profile-likelihood interval,
    ``bucket`` the width of the calibration buckets (see :func:`calibrate`). Differences
    must lie within ±:data:`MAX_DIFFERENCE` (10,000). Raises ``ValueError`` when every
    difference is 0 (the curve's steepness is then unknowable) or when the differences
    predict every result perfectly or almost perfectly (the divisor would be 0 or
    vanishingly small).

    A single difference has a closed form: at +200 with mean score 0.75,
    divisor = 200 / log10(0.75 / 0.25) = 419.2:

    >>> fit = fit_divisor([200, 200, 200, 200], [1, 1, 1, 0])
    >>> round(fit.divisor, 1), fit.n
    (419.2, 4)
    >>> fit.interval[0] < 419.2 < fit.interval[1]
    True

    Games can be given from either side: ``(-200, 0.25)`` is the same information.
    """
    d, s = _validate_games(differences, scores)
    if not isinstance(white_advantage, (bool, np.bool_)):
        raise TypeError(f"white_advantage must be True or False, got {white_advantage!r}")
    conf = v.in_range("confidence", confidence, 0.5, 0.9999)
    _bucket_width(d, bucket)
    if not np.any(d != 0):
        raise ValueError(_("differences must not all be 0: the curve's slope cannot be fitted"))
    with_alpha = bool(white_advantage)
    if with_alpha and np.all(d == d[0]):
        raise ValueError(
            "differences must take at least two distinct values to fit a white advantage "
            "together with the divisor"
        )
    if _separated(d, s, with_alpha):
        raise ValueError(
            _(
                "scores are perfectly predicted by the differences (every favourite won, or every "
                "underdog won): the maximum-likelihood divisor would be 0; add games with upsets "
                "or draws"
            )
        )
    games_d, games_s = d, s
    d, s, n = _aggregate(d, s)  # same likelihood, one term per distinct difference
    beta, alpha, ll = _newton(d, s, n, LN10 / 400.0, 0.0, with_alpha)
    scale = float(np.max(np.abs(d)))
    # standard errors from the observed information (only to size the search steps)
    e = _sigmoid(beta * d + alpha)
    wgt = n * e * (1.0 - e)
    info = np.array([[np.dot(wgt, d * d), np.dot(wgt, d)], [np.dot(wgt, d), wgt.sum()]])
    det = info[0, 0] * info[1, 1] - info[0, 1] ** 2
    if (
        not np.isfinite(ll)
        or abs(beta) * scale > 700
        or abs(alpha) > 700
        or not info[0, 0] > 0
        or (with_alpha and not det > 0)
    ):
        # the likelihood keeps rising towards a vertical curve until every game's expected
        # score is 0 or 1 to machine precision: numerically, perfect prediction
        raise ValueError(
            _(
                "scores are almost perfectly predicted by the differences (the fitted curve is "
                "so steep that every game's expected score is 0 or 1 to machine precision, "
                "e.g. the only upset or draw lies at a difference thousands of times smaller "
                "than the others): the divisor cannot be estimated; add games with upsets or "
                "draws at larger differences"
            )
        )
    if with_alpha:
        cov = np.linalg.inv(info)
    else:
        cov = np.array([[1.0 / info[0, 0], 0.0], [0.0, 0.0]])
    se_beta = math.sqrt(max(cov[0, 0], 1e-30))
    half = _z(conf) ** 2 / 2.0
    target = ll - half

    def f_beta(b):
        val, slope, _ = _profile_beta(d, s, n, b, with_alpha, alpha)
        return val - target, slope

    big = 700.0 / scale
    b_hi = _root(f_beta, beta, se_beta, big)
    b_lo = _root(f_beta, beta, -se_beta, -big)
    b_hi = big if b_hi is None else b_hi
    b_lo = -big if b_lo is None else b_lo

    def to_div(b):
        return LN10 / b if b > 0 else np.inf

    divisor = LN10 / beta if beta != 0 else np.inf
    interval = (to_div(b_hi), to_div(b_lo)) if b_hi > 0 else (np.inf, np.inf)
    if with_alpha and beta != 0:
        w_hat = alpha / beta
        grad = np.array([-alpha / beta**2, 1.0 / beta])
        se_w = math.sqrt(max(float(grad @ cov @ grad), 1e-12))

        def f_w(w):
            val, slope, _ = _profile_w(d, s, n, w, beta)
            return val - target, slope

        w_hi = _root(f_w, w_hat, se_w, w_hat + 1e6)
        w_lo = _root(f_w, w_hat, -se_w, w_hat - 1e6)
        w_interval = (-np.inf if w_lo is None else w_lo, np.inf if w_hi is None else w_hi)
    elif with_alpha:
        w_hat, w_interval = 0.0, (-np.inf, np.inf)
    else:
        w_hat, w_interval = 0.0, None
    _readonly(games_d, games_s)
    calib = calibrate(
        games_d,
        games_s,
        bucket=bucket,
        divisor=divisor if divisor > 0 else np.inf,
        white_advantage=w_hat,
    )
    return DivisorFit(
        divisor=float(divisor),
        interval=(float(interval[0]), float(interval[1])),
        slope=float(beta),
        slope_interval=(float(b_lo), float(b_hi)),
        white_advantage=float(w_hat),
        white_advantage_interval=None
        if w_interval is None
        else (float(w_interval[0]), float(w_interval[1])),
        n=int(games_d.size),
        log_likelihood=float(ll),
        confidence=float(conf),
        calibration=calib,
        differences=games_d,
        scores=games_s,
    )
