"""The statistics of a paired rule-variant comparison (``courtsim compare``).

The baseline rules and a variant are played on common random numbers: game ``i`` of the
baseline and game ``i`` of the variant share every draw the rule change does not touch
(/work/shared/design/comparison-notes.md, "Common random numbers"). Every metric is compared
on the *paired* per-game differences, so the game luck both arms share cancels.

A metric is a smooth function ``f`` of the means of ``k`` per-game components (a seat's win
rate: ``k = 1``, ``f = MEAN``; a bot's win rate over a varying number of seats: (wins, seats),
``f = RATIO``; balance over the seats: ``k = n_seats``, ``f = balance``). Its per-game
*linearised* values (the delta method in per-game form, :func:`linearised`) have the metric as
their mean and the delta-method variance as their variance over ``n``, so a paired comparison
of any metric is a paired t interval on the differences of linearised values (:func:`paired`).

A paired difference rests on the games that differ between the arms (a rule change that rarely
bites leaves most paired games identical). When fewer than :data:`MINIMUM_DISCORDANT_GAMES` of
them differ, or the differences show no variance at all, their variance cannot be estimated and
the t interval would rest on games that could not vary ([0, 0] from two identical games):
:func:`paired` then bounds the shares of games that moved each way with Wilson score intervals
(0 of n moved: at most about 3.84 / n, the rule of three's Wilson form), scales them by the most
one game can move the metric (:func:`game_spread`) and combines the two (MOVER), with the
p-value that agrees with that interval (:func:`discordant_p_value`); the sequential test floors
its variance the same way (:func:`sequential_variance`).

The table corrects its p-values over all its metrics and variants (:func:`adjust`: Holm or
Benjamini-Hochberg) and names each difference (:func:`verdict`). ``--until-resolved`` plays
batches until every requested difference is decided with :func:`sequential_decision`: two
one-sided generalised sequential probability ratio tests, valid however often they are looked
at (never a fixed-n test repeated after each batch, which inflates the false-positive rate),
from running sums of the paired games (:class:`PairedSums`) updated with each new batch only.

Pure numpy/scipy/statsmodels; no I/O.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

CONFIDENCE = 0.95
ALPHA = 0.05
BETA = 0.05
ADJUSTMENT_METHODS = ("holm", "fdr_bh")
# the sequential test decides nothing before this many paired games: the normal approximation of
# the log-likelihood ratio needs a usable variance estimate (a variant that rarely changes a game
# could otherwise show zero variance in the first few hundred games); about two batches of 500
MINIMUM_SEQUENTIAL_GAMES = 1000
# below this many games that differ between the arms (or when the paired differences show no
# variance) the sample variance of the differences is not trusted: the interval bounds the share of
# games that moved (Wilson) instead, see paired(); the usual rule of thumb for a normal
# approximation of a count (tests/reports/test_comparison_stats.py: with 45 moved games expected
# the t interval covers 95%; with 3, the plain t interval covers ~80%)
MINIMUM_DISCORDANT_GAMES = 30
# step of the central difference, relative to max(1, |mean|): the cube root of the machine
# epsilon balances truncation (h^2) against rounding (eps / h)
CENTRAL_DIFFERENCE_STEP = float(np.finfo(np.float64).eps) ** (1.0 / 3.0)

REAL = "real"
NOT_RESOLVED = "not resolved"
SMALLER_THAN_MARGIN = "smaller than the margin"
CONTINUE = "continue"


# --- metrics: f(means) -> float -------------------------------------------------------------

@dataclass(frozen=True)
class MetricFunction:
    """A metric ``f(means) -> float`` with its analytic gradient, so :func:`linearised` need not
    take central differences. Any plain callable ``f(means) -> float`` works as a metric too."""

    name: str
    value: Callable[[np.ndarray], float]
    gradient: Callable[[np.ndarray], np.ndarray]

    def __call__(self, means) -> float:
        return self.value(np.asarray(means, dtype=np.float64))


def _mean_value(means: np.ndarray) -> float:
    return float(means[0])


def _mean_gradient(means: np.ndarray) -> np.ndarray:
    gradient = np.zeros(len(means))
    gradient[0] = 1.0
    return gradient


def _ratio_value(means: np.ndarray) -> float:
    return float(means[0] / means[1]) if means[1] != 0 else math.nan


def _ratio_gradient(means: np.ndarray) -> np.ndarray:
    if means[1] == 0:
        return np.full(len(means), math.nan)
    gradient = np.zeros(len(means))
    gradient[0] = 1.0 / means[1]
    gradient[1] = -means[0] / means[1] ** 2
    return gradient


MEAN = MetricFunction("mean", _mean_value, _mean_gradient)        # the first component's mean
RATIO = MetricFunction("ratio", _ratio_value, _ratio_gradient)    # x[0] / x[1]; nan if x[1] == 0


def balance(means) -> float:
    """Balance = 1 - (largest - smallest) of the components (seats' win rates; Ludii's Balance).
    Not differentiable where two seats tie for the largest or smallest rate: there the central
    difference splits the gradient between them, and the delta method is only approximate."""
    means = np.asarray(means, dtype=np.float64)
    return float(1.0 - (means.max() - means.min()))


# --- the delta method in per-game form ------------------------------------------------------

def _as_games_by_components(values) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 1:
        values = values[:, np.newaxis]
    if values.ndim != 2:
        raise ValueError(f"expected per-game components of shape (games, k), found shape {values.shape}")
    return values


def _central_difference_gradient(f, means: np.ndarray) -> np.ndarray:
    gradient = np.empty(len(means))
    for component in range(len(means)):
        step = CENTRAL_DIFFERENCE_STEP * max(1.0, abs(means[component]))
        up, down = means.copy(), means.copy()
        up[component] += step
        down[component] -= step
        gradient[component] = (f(up) - f(down)) / (up[component] - down[component])
    return gradient


def metric_gradient(f, means: np.ndarray) -> np.ndarray:
    """The gradient of metric ``f`` at ``means``: ``f.gradient`` when it has one, else a central
    difference."""
    means = np.asarray(means, dtype=np.float64)
    return (np.asarray(f.gradient(means), dtype=np.float64) if hasattr(f, "gradient")
            else _central_difference_gradient(f, means))


def linearised(values: np.ndarray, f) -> tuple[float, np.ndarray]:
    """``(f(mean), per-game influence values)`` of the metric ``f`` on ``values`` (games x k).

    The influence value of game ``i`` is ``f(mean) + grad f(mean) . (x_i - mean)``: its mean is
    ``f(mean)`` and its variance over ``n`` is the delta-method variance of ``f(mean)``. The
    gradient is ``f.gradient`` when ``f`` has one (:data:`MEAN`, :data:`RATIO`), else a central
    difference. A metric that is not finite at the mean (a ratio with zero denominator) gives
    ``(nan, all-nan values)``."""
    values = _as_games_by_components(values)
    games = values.shape[0]
    if games == 0:
        return math.nan, np.empty(0)
    means = values.mean(axis=0)
    value = float(f(means))
    gradient = metric_gradient(f, means)
    if not (math.isfinite(value) and np.all(np.isfinite(gradient))):
        return math.nan, np.full(games, math.nan)
    return value, value + (values - means) @ gradient


def estimate(values: np.ndarray, f, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """``(value, low, high)`` of metric ``f`` over one arm's games (games x k): the t interval of
    the mean of the linearised per-game values (the delta method). Fewer than two games, or a
    metric that is not finite, give a nan interval."""
    value, linear = linearised(values, f)
    games = len(linear)
    if games < 2 or not math.isfinite(value):
        return value, math.nan, math.nan
    standard_error = float(linear.std(ddof=1)) / math.sqrt(games)
    quantile = float(stats.t.ppf(0.5 + confidence / 2.0, games - 1))
    return value, value - quantile * standard_error, value + quantile * standard_error


def share_estimate(values: np.ndarray, f, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """:func:`estimate` of a share (a metric between 0 and 1: a win rate, balance, the tie-break
    rate). The delta-method interval stays the method (it knows when several seats or events
    share a game), but a share's interval never leaves [0, 1], and when the games show no
    variance at all (0 of 20 tie-breaks, one seat winning every game) it is not the empty
    ``[p, p]``: it is the Wilson score interval of ``p x games`` out of ``games`` (at 0 of 20:
    [0, 16.1%]), what those games can tell."""
    value, low, high = estimate(values, f, confidence)
    if not (math.isfinite(low) and math.isfinite(high)):
        return value, low, high
    if high - low <= 1e-12 * max(1.0, abs(value)):
        games = _as_games_by_components(values).shape[0]
        share = min(1.0, max(0.0, value))
        low, high = proportion_confint(share * games, games, alpha=1.0 - confidence, method="wilson")
    return value, min(1.0, max(0.0, float(low))), min(1.0, max(0.0, float(high)))


# --- what games that could not vary can tell ---------------------------------------------------

def _z(confidence: float) -> float:
    return float(stats.norm.ppf(0.5 + confidence / 2.0))


def wilson_interval(successes, trials, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval of a share, ``successes`` of ``trials`` (vectorised; a
    fractional count is the mean of bounded values times ``trials``): what
    ``statsmodels.stats.proportion.proportion_confint(method="wilson")`` gives. At 0 of n its
    upper end is z^2 / (n + z^2), about 3.84 / n at 95%: the rule of three (3 / n, one-sided) in
    Wilson's two-sided form. nan where ``trials`` is not positive."""
    return _wilson(successes, trials, _z(confidence))


def _wilson(successes, trials, z: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilson_interval` at the normal quantile ``z`` (1.96 for 95%)."""
    successes = np.asarray(successes, dtype=np.float64)
    trials = np.asarray(trials, dtype=np.float64)
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.clip(successes / trials, 0.0, 1.0)
        centre = (share + z2 / (2.0 * trials)) / (1.0 + z2 / trials)
        half = z * np.sqrt(share * (1.0 - share) / trials + z2 / (4.0 * trials ** 2)) / (1.0 + z2 / trials)
        low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    low = np.where(share == 0.0, 0.0, low)      # exact ends where the formula rounds off them
    high = np.where(share == 1.0, 1.0, high)
    unknown = ~(trials > 0)
    return np.where(unknown, math.nan, low), np.where(unknown, math.nan, high)


def game_spread(baseline_gradient, variant_gradient, low, high) -> float:
    """How far one game can move a metric's paired difference, in the metric's unit: the sum over
    the components of |gradient| (the larger of the two arms') times the component's reach over
    both arms' games (the largest of its range and of its smallest and largest value's size:
    a game that moved can have gone from 0 to the largest value seen, or from it to 0), and at
    least 1 (a share's whole range; one point, turn or event).

    For a player's win rate it is 1; for a count, the largest count seen (a game length of 40 to
    80 turns: 80; a score of 37 in every game: 37, not 0). It scales the bound on the share of
    games that differ where the games cannot estimate a variance (:func:`paired`): an assumption
    for a metric without a fixed range (a game could have moved further than any game seen), the
    honest one for a share."""
    gradient = np.maximum(np.abs(np.asarray(baseline_gradient, dtype=np.float64)),
                          np.abs(np.asarray(variant_gradient, dtype=np.float64)))
    low, high = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    reach = np.maximum(high - low, np.maximum(np.abs(low), np.abs(high)))
    spread = float(np.sum(gradient * reach))
    return max(1.0, spread) if math.isfinite(spread) else math.nan


def _moved_shares(differences: np.ndarray, spread: float) -> tuple[float, float, float, int]:
    """(mean moved up, mean moved down, their correlation, games) of paired differences scaled
    by ``spread``: max(d, 0) / spread and max(-d, 0) / spread, shares in [0, 1]."""
    differences = np.asarray(differences, dtype=np.float64)
    up = np.clip(differences, 0.0, None) / spread
    down = np.clip(-differences, 0.0, None) / spread
    correlation = 0.0
    if differences.size > 1 and up.std() > 0 and down.std() > 0:
        correlation = float(np.corrcoef(up, down)[0, 1])
    return float(up.mean()), float(down.mean()), correlation, differences.size


def _mover(up: float, down: float, correlation: float, games: int, z: float) -> tuple[float, float]:
    """MOVER's interval of up - down from the Wilson intervals (at normal quantile z) of both."""
    (up_low, up_high), (down_low, down_high) = (
        (float(end) for end in _wilson(mean * games, games, z)) for mean in (up, down))
    below = (up - up_low, down_high - down)
    above = (up_high - up, down - down_low)
    low = up - down - math.sqrt(max(0.0, below[0] ** 2 + below[1] ** 2 - 2 * correlation * below[0] * below[1]))
    high = up - down + math.sqrt(max(0.0, above[0] ** 2 + above[1] ** 2 - 2 * correlation * above[0] * above[1]))
    return low, high


def discordant_interval(differences: np.ndarray, spread: float,
                        confidence: float = CONFIDENCE) -> tuple[float, float]:
    """An interval for the mean of paired differences that lie within [-spread, +spread], honest
    however few games differ: the differences are split into the part that moved up,
    max(d, 0) / spread, and the part that moved down, max(-d, 0) / spread (shares in [0, 1]);
    each mean gets its Wilson score interval, and the difference of the two means is bounded by
    MOVER (the method of variance estimates recovery, Zou & Donner 2008; Newcombe 1998's
    interval for a paired difference of proportions is the same construction), with the
    correlation of the two parts (never positive: a game moves one way). For win indicators
    this is the Wilson interval of each kind of discordant pair (variant won and baseline lost,
    and the reverse); with no game moved it is +-spread z^2 / (n + z^2)."""
    up, down, correlation, games = _moved_shares(differences, spread)
    low, high = _mover(up, down, correlation, games, _z(confidence))
    return low * spread, high * spread


def discordant_p_value(differences: np.ndarray, spread: float) -> float:
    """The two-sided p-value that agrees with :func:`discordant_interval`: the smallest 1 - level
    at which its interval leaves out 0 (found by bisection on the normal quantile; the Wilson
    intervals, and so the interval, widen with the level). 1 when the differences average 0."""
    up, down, correlation, games = _moved_shares(differences, spread)
    if up == down:
        return 1.0

    def leaves_out_zero(z: float) -> bool:
        low, high = _mover(up, down, correlation, games, z)
        return low > 0 or high < 0

    inside, outside = 37.0, 0.0     # z = 37: 1 - level below 1e-299; z = 0: the point estimates
    if leaves_out_zero(inside):
        return float(2.0 * stats.norm.sf(inside))
    for _ in range(60):
        middle = (inside + outside) / 2.0
        inside, outside = (inside, middle) if leaves_out_zero(middle) else (middle, outside)
    return float(2.0 * stats.norm.sf(inside))


# --- one metric's paired comparison ---------------------------------------------------------

@dataclass(frozen=True)
class Paired:
    """One metric's paired comparison, variant minus baseline."""

    baseline_value: float
    variant_value: float
    difference: float
    low: float                  # confidence interval of the difference (default 95%)
    high: float
    standard_error: float
    p_value: float              # two-sided, H0: difference = 0
    crn_gain: float             # (Var_A + Var_B) / Var(d) of the linearised values; nan if Var(d) = 0
    games: int                  # paired games used
    # sufficient statistics of the linearised paired differences, for the sequential test
    n: int
    mean_d: float               # mean of d (= difference)
    var_d: float                # sample variance of d (n - 1 in the denominator)
    discordant: int = 0         # paired games whose components differ between the arms
    spread: float = math.nan    # the most one game can move the difference (game_spread)


def paired(baseline: np.ndarray, variant: np.ndarray, f, confidence: float = CONFIDENCE,
           minimum_discordant: int = MINIMUM_DISCORDANT_GAMES) -> Paired:
    """Paired comparison of metric ``f`` between ``baseline`` and ``variant`` (games x k each,
    row ``i`` = game ``i`` of both arms on common random numbers).

    ``d_i`` = linearised(variant)_i - linearised(baseline)_i, each arm linearised at its own
    means, so mean(d) is exactly f(variant means) - f(baseline means). The interval is the paired
    t interval (t quantile with n - 1 degrees of freedom) and the p-value the paired t-test's
    (for :data:`MEAN` exactly ``scipy.stats.ttest_rel``).

    Unless at least ``minimum_discordant`` games differ between the arms and the differences
    vary: then the sample variance rests on too few games (none, when every game is identical,
    where the t interval is the empty [d, d] whatever the number of games). The interval is then
    :func:`discordant_interval` with the differences bounded by :func:`game_spread` (or by the
    largest difference seen, if larger), widened to the t interval where that is wider, and the
    p-value the larger of :func:`discordant_p_value` and the t-test's, so that it is below
    1 - confidence exactly when the interval leaves out 0 (every one of 20 games moved by +1.5
    points does not show the mean moved: 16% of games moving down by the spread is not ruled
    out; 200 such games do). Two identical games give +-0.66 on a win rate ("not
    resolved" against any margin below it); 20,000 identical games give +-0.019 points of win
    rate, or +-0.015 turns of a game length of 40 to 80 turns ("smaller than the margin" on
    evidence). Fewer than two games give a nan interval and p-value. A metric that is nan in
    either arm gives nan values, interval, p-value and sufficient statistics."""
    baseline = _as_games_by_components(baseline)
    variant = _as_games_by_components(variant)
    if baseline.shape != variant.shape:
        raise ValueError(f"baseline and variant must be paired game by game: shapes {baseline.shape} "
                         f"and {variant.shape} differ")
    games = baseline.shape[0]
    baseline_value, baseline_linear = linearised(baseline, f)
    variant_value, variant_linear = linearised(variant, f)
    nan = math.nan
    discordant = int(np.any(baseline != variant, axis=1).sum())
    if games == 0 or not (math.isfinite(baseline_value) and math.isfinite(variant_value)):
        return Paired(baseline_value, variant_value, nan, nan, nan, nan, nan, nan, games, games, nan, nan,
                      discordant, nan)
    spread = game_spread(metric_gradient(f, baseline.mean(axis=0)), metric_gradient(f, variant.mean(axis=0)),
                         np.minimum(baseline.min(axis=0), variant.min(axis=0)),
                         np.maximum(baseline.max(axis=0), variant.max(axis=0)))
    differences = variant_linear - baseline_linear
    # the exact difference of the metric (the mean of d equals it up to rounding)
    difference = variant_value - baseline_value
    if games < 2:
        return Paired(baseline_value, variant_value, difference, nan, nan, nan, nan, nan, games, games,
                      difference, nan, discordant, spread)
    var_d = float(differences.var(ddof=1))
    if np.all(differences == differences[0]):
        var_d = 0.0
    crn_gain = ((float(baseline_linear.var(ddof=1)) + float(variant_linear.var(ddof=1))) / var_d
                if var_d > 0 else nan)
    standard_error = math.sqrt(var_d / games)
    quantile = float(stats.t.ppf(0.5 + confidence / 2.0, games - 1))
    low, high = difference - quantile * standard_error, difference + quantile * standard_error
    if var_d > 0 and discordant >= minimum_discordant:
        p_value = float(2.0 * stats.t.sf(abs(difference) / standard_error, games - 1))
    else:
        bound = max(spread, float(np.max(np.abs(differences))))
        rare_low, rare_high = discordant_interval(differences, bound, confidence)
        low, high = min(low, rare_low), max(high, rare_high)
        # the p-value that agrees with the interval (it leaves out 0 exactly when p < 1 - confidence)
        p_value = discordant_p_value(differences, bound)
        if var_d > 0:
            p_value = max(p_value, float(2.0 * stats.t.sf(abs(difference) / standard_error, games - 1)))
    return Paired(baseline_value, variant_value, difference, low, high, standard_error, p_value, crn_gain, games,
                  games, difference, var_d, discordant, spread)


class PairedSums:
    """Running sums of one metric's paired games, updated batch by batch (``--until-resolved``):
    all :func:`sequential_decision` needs, at a cost per batch that does not grow with the
    batches before it.

    With ``e = variant - baseline`` per game and component, it keeps n, the sums of ``x = [e, b]``
    and of ``x x^T``, the games whose components differ, and each component's smallest and
    largest value in either arm. The linearised paired difference is
    ``d_i - mean(d) = g_v . (e_i - mean e) + (g_v - g_b) . (b_i - mean b)`` (the gradients at each
    arm's means), so Var(d) = w^T C w with ``w = [g_v, g_v - g_b]`` and C the sample covariance
    of x: the same statistics as :func:`paired` over every game (up to rounding), also for a
    ratio or balance whose linearisation moves with the means. Games identical in both arms
    add exactly zero to every sum of e, so a variant that never changes a game keeps Var(d)
    exactly 0. Sums are added in batch order, so a comparison that rebuilds them batch by batch
    on resume gets the very same numbers."""

    def __init__(self, components: int):
        self.components = components
        self.n = 0
        self.discordant = 0
        self.sums = np.zeros(2 * components)
        self.products = np.zeros((2 * components, 2 * components))
        self.low = np.full(components, math.inf)
        self.high = np.full(components, -math.inf)

    def add(self, baseline, variant) -> None:
        """Add one batch of paired games (games x k each, row i of both the same game)."""
        baseline = _as_games_by_components(baseline)
        variant = _as_games_by_components(variant)
        if baseline.shape != variant.shape or baseline.shape[1] != self.components:
            raise ValueError(f"expected paired games of {self.components} components in both arms, found shapes "
                             f"{baseline.shape} and {variant.shape}")
        if baseline.shape[0] == 0:
            return
        x = np.hstack([variant - baseline, baseline])
        self.n += baseline.shape[0]
        self.discordant += int(np.any(baseline != variant, axis=1).sum())
        self.sums += x.sum(axis=0)
        self.products += np.einsum("ij,ik->jk", x, x)     # plain loops: the same bits on every run
        self.low = np.minimum(self.low, np.minimum(baseline.min(axis=0), variant.min(axis=0)))
        self.high = np.maximum(self.high, np.maximum(baseline.max(axis=0), variant.max(axis=0)))

    def statistics(self, f) -> Paired:
        """:func:`paired`'s value, difference and sufficient statistics (n, mean_d, var_d,
        discordant, spread) from the sums; its interval, p-value and CRN gain are left nan (the
        table computes them from every game once)."""
        nan, n, k = math.nan, self.n, self.components
        if n == 0:
            return Paired(nan, nan, nan, nan, nan, nan, nan, nan, 0, 0, nan, nan, 0, nan)
        baseline_means = self.sums[k:] / n
        variant_means = baseline_means + self.sums[:k] / n
        baseline_value, variant_value = float(f(baseline_means)), float(f(variant_means))
        baseline_gradient = metric_gradient(f, baseline_means)
        variant_gradient = metric_gradient(f, variant_means)
        if not all(math.isfinite(value) for value in (baseline_value, variant_value)) or not (
                np.all(np.isfinite(baseline_gradient)) and np.all(np.isfinite(variant_gradient))):
            return Paired(baseline_value, variant_value, nan, nan, nan, nan, nan, nan, n, n, nan, nan,
                          self.discordant, nan)
        difference = variant_value - baseline_value
        spread = game_spread(baseline_gradient, variant_gradient, self.low, self.high)
        var_d = nan
        if n >= 2:
            covariance = (self.products - np.outer(self.sums, self.sums) / n) / (n - 1)
            weights = np.concatenate([variant_gradient, variant_gradient - baseline_gradient])
            var_d = max(0.0, float(weights @ covariance @ weights))
        return Paired(baseline_value, variant_value, difference, nan, nan, nan, nan, nan, n, n, difference, var_d,
                      self.discordant, spread)


# --- a median (no mean of per-game values) -----------------------------------------------------

MEDIAN_RESAMPLES = 2000
MEDIAN_BATCH_CELLS = 4_000_000     # resamples x distinct pairs held at once (memory bound)


@dataclass(frozen=True)
class PairedMedian:
    difference: float      # median(variant) - median(baseline)
    low: float
    high: float
    p_value: float
    games: int


def paired_median_difference(baseline, variant, confidence: float = CONFIDENCE,
                             resamples: int = MEDIAN_RESAMPLES, seed: int = 0) -> PairedMedian:
    """The change of a median between two arms played on common random numbers (e.g. the
    median game length of a rule variant and of the printed rules), game ``i`` of each a pair.

    The interval is the paired bootstrap percentile interval (Efron & Tibshirani 1993, ch. 13):
    games resampled with replacement, each game's two values together, so the luck both arms
    share stays shared. The p-value is the paired permutation test (Fisher's sign flip): under
    "no change" a game's two values are exchangeable, so each pair is swapped with chance 1/2;
    p = (1 + resamples at least as far from 0 as observed) / (1 + resamples), two-sided.

    Both are drawn over the distinct (baseline, variant) pairs, not the games: a resample is
    multinomial counts of the pairs (a swap: binomial counts per pair), and a median is read off
    the counts, so the cost grows with the distinct values (game lengths: a few dozen), not
    with the games. ``np.median``'s convention (the mean of the two middle values). Seeded:
    the same data give the same interval. Fewer than two games: nan interval and p-value."""
    baseline = np.asarray(baseline, dtype=np.float64).ravel()
    variant = np.asarray(variant, dtype=np.float64).ravel()
    if baseline.shape != variant.shape:
        raise ValueError(f"baseline and variant must be paired game by game: {baseline.size} and "
                         f"{variant.size} values")
    games = baseline.size
    nan = math.nan
    if games == 0:
        return PairedMedian(nan, nan, nan, nan, 0)
    difference = float(np.median(variant) - np.median(baseline))
    if games < 2:
        return PairedMedian(difference, nan, nan, nan, games)
    pairs, pair_counts = np.unique(np.column_stack([baseline, variant]), axis=0, return_counts=True)
    values = np.unique(pairs)
    first = (pairs[:, :1] == values).astype(np.float64)       # pair x value: the pair's baseline value
    second = (pairs[:, 1:] == values).astype(np.float64)      # ... and its variant value
    generator = np.random.default_rng(seed)
    batch = max(1, MEDIAN_BATCH_CELLS // len(pairs))
    booted, flipped = [], []
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        drawn = generator.multinomial(games, pair_counts / games, size=size).astype(np.float64)
        booted.append(median_of_counts(drawn @ second, values) - median_of_counts(drawn @ first, values))
        swapped = generator.binomial(pair_counts, 0.5, size=(size, len(pairs))).astype(np.float64)
        kept = pair_counts - swapped
        flipped.append(median_of_counts(kept @ second + swapped @ first, values)
                       - median_of_counts(kept @ first + swapped @ second, values))
    booted, flipped = np.concatenate(booted), np.concatenate(flipped)
    tail = (1.0 - confidence) / 2.0
    low, high = (float(value) for value in np.quantile(booted, [tail, 1.0 - tail]))
    at_least_as_far = int(np.sum(np.abs(flipped) >= abs(difference) - 1e-9 * max(1.0, abs(difference))))
    return PairedMedian(difference, min(low, difference), max(high, difference),
                        (1 + at_least_as_far) / (1 + resamples), games)


def median_of_counts(counts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each row's median of ``values`` (sorted) repeated ``counts[row]`` times (np.median's
    convention: the mean of the two middle values of an even count)."""
    total = counts.sum(axis=1)
    cumulative = np.cumsum(counts, axis=1)
    lower = (cumulative <= ((total - 1) // 2)[:, None]).sum(axis=1)
    upper = (cumulative <= (total // 2)[:, None]).sum(axis=1)
    return (values[lower] + values[upper]) / 2.0


# --- the whole table ------------------------------------------------------------------------

def adjust(p_values: np.ndarray, method: str = "holm") -> np.ndarray:
    """p-values adjusted over the whole comparison table, with
    ``statsmodels.stats.multitest.multipletests``: ``"holm"`` (family-wise error rate) or
    ``"fdr_bh"`` (Benjamini-Hochberg false discovery rate). nan entries (metrics that could not
    be computed) stay nan and are not counted in the family."""
    if method not in ADJUSTMENT_METHODS:
        raise ValueError(f"adjustment method must be one of {', '.join(ADJUSTMENT_METHODS)}, found {method!r}")
    p_values = np.asarray(p_values, dtype=np.float64)
    adjusted = np.full(p_values.shape, math.nan)
    known = ~np.isnan(p_values)
    if known.any():
        adjusted[known] = multipletests(p_values[known], method=method)[1]
    return adjusted


def verdict(low: float, high: float, p_adjusted: float, margin: float, alpha: float = ALPHA,
            sequential: str | None = None) -> str:
    """What the table says about one difference, against the designer's ``margin``: the one place
    a comparison's verdict is decided.

    - With a ``sequential`` decision (``--until-resolved`` decided this row: "real", "smaller than
      the margin", or "continue" when its budget ran out first) the verdict is that decision,
      "continue" being ``"not resolved"``: the sequential test is what chose how many games were
      played, so the fixed-sample rule below is not asked again.
    - ``"smaller than the margin"`` when the confidence interval lies inside
      ``[-margin, +margin]`` (ends included): an equivalence test (two one-sided tests, each at
      (1 - confidence) / 2, so at the default 95% interval the stricter 2.5% per side). It comes
      first: a difference can be both statistically real and too small to matter, and the
      designer's question is whether it matters.
    - else ``"real"`` when the p-value adjusted over the table is below ``alpha``;
    - else ``"not resolved"`` (also for nan inputs): more games are needed.

    The interval is the unadjusted per-metric interval; only the "real" call is corrected for
    the number of tests in the table."""
    if sequential is not None:
        return NOT_RESOLVED if sequential == CONTINUE else sequential
    if math.isfinite(low) and math.isfinite(high) and -margin <= low and high <= margin:
        return SMALLER_THAN_MARGIN
    if p_adjusted < alpha:  # False for nan
        return REAL
    return NOT_RESOLVED


# --- sequential: --until-resolved -----------------------------------------------------------

@dataclass(frozen=True)
class SequentialDecision:
    decision: str        # "real", "smaller than the margin" or "continue"
    llr_up: float        # log-likelihood ratio of delta = +margin against delta = 0
    llr_down: float      # log-likelihood ratio of delta = -margin against delta = 0
    lower_bound: float
    upper_bound: float


def sequential_bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    """``(lower_bound, upper_bound)`` of both one-sided log-likelihood ratios:
    ``(log(beta), log(2 / alpha))`` (-2.996 and 3.689 at 0.05 / 0.05); see
    :func:`sequential_decision` for why."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must lie strictly between 0 and 1, found {alpha} and {beta}")
    return math.log(beta), math.log(2.0 / alpha)


def sequential_log_likelihood_ratios(n, mean_d, var_d, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """``(llr_up, llr_down)``, vectorised over arrays of sufficient statistics: the normal
    approximation LLR = n (m1 - m0)(2 x_bar - m0 - m1) / (2 s^2) with m0 = 0 and m1 = +margin
    (up) or -margin (down). Zero variance takes the limit (+-inf; nan where 2 x_bar = +-margin)."""
    n = np.asarray(n, dtype=np.float64)
    mean_d = np.asarray(mean_d, dtype=np.float64)
    var_d = np.asarray(var_d, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        llr_up = n * margin * (2.0 * mean_d - margin) / (2.0 * var_d)
        llr_down = n * margin * (-2.0 * mean_d - margin) / (2.0 * var_d)
    return llr_up, llr_down


def sequential_variance(n, var_d, discordant=None, spread=1.0,
                        minimum_discordant: int = MINIMUM_DISCORDANT_GAMES, confidence: float = CONFIDENCE):
    """The variance of the paired differences the sequential test uses (vectorised): ``var_d``,
    unless fewer than ``minimum_discordant`` games differ between the arms or the differences show
    no variance; then at least spread^2 times the Wilson upper bound of the share of games that
    differ (the largest variance differences within +-spread can have with that share moving),
    so that a few identical games cannot decide, as in :func:`paired`. Without ``discordant``
    (not counted) only differences without variance are floored, as if no game differed."""
    var_d = np.asarray(var_d, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if discordant is None:
        discordant = np.where(var_d == 0, 0.0, np.inf)
    discordant = np.asarray(discordant, dtype=np.float64)
    spread = np.asarray(spread, dtype=np.float64)
    rare = (discordant < minimum_discordant) | (var_d == 0)
    with np.errstate(invalid="ignore"):
        floor = spread ** 2 * wilson_interval(np.minimum(discordant, n), n, confidence)[1]
        return np.where(rare, np.fmax(var_d, floor), var_d)


def sequential_decisions(n, mean_d, var_d, margin: float, alpha: float = ALPHA, beta: float = BETA,
                         minimum_games: int = MINIMUM_SEQUENTIAL_GAMES, discordant=None, spread=1.0) -> np.ndarray:
    """:func:`sequential_decision`'s decision, vectorised over arrays of (n, mean_d, var_d) and
    optionally discordant and spread: an array of "real", "smaller than the margin" and
    "continue"."""
    if margin <= 0:  # a nan margin (relative to a nan baseline value) passes and never decides
        raise ValueError(f"the margin of a sequential test must be positive, found {margin}")
    lower_bound, upper_bound = sequential_bounds(alpha, beta)
    llr_up, llr_down = sequential_log_likelihood_ratios(n, mean_d, sequential_variance(n, var_d, discordant, spread),
                                                        margin)
    ready = np.asarray(n) >= minimum_games
    real = ready & ((llr_up >= upper_bound) | (llr_down >= upper_bound))
    smaller = ready & ~real & (llr_up <= lower_bound) & (llr_down <= lower_bound)
    return np.where(real, REAL, np.where(smaller, SMALLER_THAN_MARGIN, CONTINUE))


def sequential_decision(n: int, mean_d: float, var_d: float, margin: float, alpha: float = ALPHA,
                        beta: float = BETA, minimum_games: int = MINIMUM_SEQUENTIAL_GAMES,
                        discordant: int | None = None, spread: float = 1.0) -> SequentialDecision:
    """Decide, after a batch, whether the paired difference is real, smaller than the margin, or
    needs more games, from the sufficient statistics of ALL paired games so far (``Paired.n``,
    ``.mean_d``, ``.var_d``, ``.discordant``, ``.spread``, e.g. from :class:`PairedSums`).
    Stateless, so a resumed comparison decides the same; the caller stops at the first decision
    that is not "continue". The variance is :func:`sequential_variance`'s: with fewer than
    :data:`MINIMUM_DISCORDANT_GAMES` games that differ, at least what a Wilson bound on their
    share allows (1,000 identical games of a win rate: 0.0038, so a margin of 0.001 is not
    decided on them, one of 0.01 is).

    Two one-sided generalised SPRTs (fishtest, OpenBench) on the linearised paired differences:
    ``up`` tests H0: delta = 0 against H1: delta = +margin, ``down`` H0: delta = 0 against
    H1: delta = -margin, with the normal-approximation LLR of comparison-notes.md.

    - "real" when either LLR reaches ``upper_bound = log(2 / alpha)``;
    - "smaller than the margin" when both LLRs are at or below ``lower_bound = log(beta)``;
    - else "continue" (also for a nan metric or a nan margin, and before ``minimum_games`` paired games: the
      normal approximation wants a usable variance estimate; default 1000, two batches of 500).

    Why these bounds. Under H0 the likelihood ratio of each one-sided test is a nonnegative
    martingale, so by Ville's inequality the chance that it EVER reaches 1 / a is at most a,
    whatever the stopping rule. alpha is split evenly over the two sides (a = alpha / 2 each,
    hence log(2 / alpha)): a false "real" at delta = 0 needs one of the two to reach its bound,
    so its rate is at most alpha / 2 + alpha / 2 = alpha. Being a bound for every stopping rule,
    it also holds for this combined rule, under which one side keeps running after it fell below
    its lower bound while the other has not. Symmetrically, at delta = +margin the inverse
    likelihood ratio of ``up`` is a martingale, so ``up`` reaches ``log(beta)`` with chance at
    most beta; "smaller than the margin" needs it there, so the false-negative rate is at most
    beta (likewise at -margin with ``down``); beta needs no split. These are Wald's bounds
    log((1 - beta) / alpha) and log(beta / (1 - alpha)) made slightly wider so that they hold
    exactly for the time-uniform argument (3.689 and -2.996 instead of 3.638 and -2.970 for
    alpha / 2 = 0.025); the normal approximation and the plug-in variance make all of this
    approximate, and tests/reports/test_comparison_stats.py checks the rates on synthetic
    CRN-like streams (about 2% of each error at 0.05 / 0.05 with batches of 500 or 100: the
    bounds are crossed with overshoot, so the test is somewhat conservative).

    Each call controls the errors of ONE difference. ``--until-resolved`` over m requested
    differences at once should pass ``alpha / m`` (Bonferroni, the sequential counterpart of the
    table's Holm adjustment) to keep the chance of any false "real" at most alpha. A nan metric
    (a ratio whose denominator is still zero) never decides: the caller's game budget ends it.
    For a nonlinear metric the linearised differences depend on the current means; :class:`PairedSums`
    keeps the sums of components from which they follow at any means."""
    lower_bound, upper_bound = sequential_bounds(alpha, beta)
    decision = sequential_decisions(n, mean_d, var_d, margin, alpha, beta, minimum_games, discordant, spread)
    llr_up, llr_down = sequential_log_likelihood_ratios(n, mean_d, sequential_variance(n, var_d, discordant, spread),
                                                        margin)
    return SequentialDecision(str(decision), float(llr_up), float(llr_down), lower_bound, upper_bound)
