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

The table corrects its p-values over all its metrics and variants (:func:`adjust`: Holm or
Benjamini-Hochberg) and names each difference (:func:`verdict`). ``--until-resolved`` plays
batches until every requested difference is decided with :func:`sequential_decision`: two
one-sided generalised sequential probability ratio tests, valid however often they are looked
at (never a fixed-n test repeated after each batch, which inflates the false-positive rate).

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
    gradient = (np.asarray(f.gradient(means), dtype=np.float64) if hasattr(f, "gradient")
                else _central_difference_gradient(f, means))
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


def paired(baseline: np.ndarray, variant: np.ndarray, f, confidence: float = CONFIDENCE) -> Paired:
    """Paired comparison of metric ``f`` between ``baseline`` and ``variant`` (games x k each,
    row ``i`` = game ``i`` of both arms on common random numbers).

    ``d_i`` = linearised(variant)_i - linearised(baseline)_i, each arm linearised at its own
    means, so mean(d) is exactly f(variant means) - f(baseline means). The interval is the paired
    t interval (t quantile with n - 1 degrees of freedom) and the p-value the paired t-test's
    (for :data:`MEAN` exactly ``scipy.stats.ttest_rel``). When every ``d_i`` is equal there is
    no variance: the interval is ``[d, d]`` and ``p`` is 1 if ``d == 0`` else 0. Fewer than two
    games give a nan interval and p-value. A metric that is nan in either arm gives nan values,
    interval, p-value and sufficient statistics."""
    baseline = _as_games_by_components(baseline)
    variant = _as_games_by_components(variant)
    if baseline.shape != variant.shape:
        raise ValueError(f"baseline and variant must be paired game by game: shapes {baseline.shape} "
                         f"and {variant.shape} differ")
    games = baseline.shape[0]
    baseline_value, baseline_linear = linearised(baseline, f)
    variant_value, variant_linear = linearised(variant, f)
    nan = math.nan
    if games == 0 or not (math.isfinite(baseline_value) and math.isfinite(variant_value)):
        return Paired(baseline_value, variant_value, nan, nan, nan, nan, nan, nan, games, games, nan, nan)
    differences = variant_linear - baseline_linear
    # the exact difference of the metric (the mean of d equals it up to rounding)
    difference = variant_value - baseline_value
    if games < 2:
        return Paired(baseline_value, variant_value, difference, nan, nan, nan, nan, nan, games, games,
                      difference, nan)
    var_d = float(differences.var(ddof=1))
    if np.all(differences == differences[0]):
        var_d = 0.0
    crn_gain = ((float(baseline_linear.var(ddof=1)) + float(variant_linear.var(ddof=1))) / var_d
                if var_d > 0 else nan)
    if var_d == 0.0:
        p_value = 1.0 if difference == 0 else 0.0
        return Paired(baseline_value, variant_value, difference, difference, difference, 0.0, p_value,
                      crn_gain, games, games, difference, 0.0)
    standard_error = math.sqrt(var_d / games)
    quantile = float(stats.t.ppf(0.5 + confidence / 2.0, games - 1))
    p_value = float(2.0 * stats.t.sf(abs(difference) / standard_error, games - 1))
    return Paired(baseline_value, variant_value, difference, difference - quantile * standard_error,
                  difference + quantile * standard_error, standard_error, p_value, crn_gain, games, games,
                  difference, var_d)


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


def verdict(low: float, high: float, p_adjusted: float, margin: float, alpha: float = ALPHA) -> str:
    """What the table says about one difference, against the designer's ``margin``.

    - ``"smaller than the margin"`` when the confidence interval lies inside
      ``[-margin, +margin]`` (ends included): an equivalence test (two one-sided tests, each at
      (1 - confidence) / 2, so at the default 95% interval the stricter 2.5% per side). It comes
      first: a difference can be both statistically real and too small to matter, and the
      designer's question is whether it matters.
    - else ``"real"`` when the p-value adjusted over the table is below ``alpha``;
    - else ``"not resolved"`` (also for nan inputs): more games are needed.

    The interval is the unadjusted per-metric interval; only the "real" call is corrected for
    the number of tests in the table."""
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


def sequential_decisions(n, mean_d, var_d, margin: float, alpha: float = ALPHA, beta: float = BETA,
                         minimum_games: int = MINIMUM_SEQUENTIAL_GAMES) -> np.ndarray:
    """:func:`sequential_decision`'s decision, vectorised over arrays of (n, mean_d, var_d):
    an array of "real", "smaller than the margin" and "continue"."""
    if margin <= 0:  # a nan margin (relative to a nan baseline value) passes and never decides
        raise ValueError(f"the margin of a sequential test must be positive, found {margin}")
    lower_bound, upper_bound = sequential_bounds(alpha, beta)
    llr_up, llr_down = sequential_log_likelihood_ratios(n, mean_d, var_d, margin)
    ready = np.asarray(n) >= minimum_games
    real = ready & ((llr_up >= upper_bound) | (llr_down >= upper_bound))
    smaller = ready & ~real & (llr_up <= lower_bound) & (llr_down <= lower_bound)
    return np.where(real, REAL, np.where(smaller, SMALLER_THAN_MARGIN, CONTINUE))


def sequential_decision(n: int, mean_d: float, var_d: float, margin: float, alpha: float = ALPHA,
                        beta: float = BETA, minimum_games: int = MINIMUM_SEQUENTIAL_GAMES) -> SequentialDecision:
    """Decide, after a batch, whether the paired difference is real, smaller than the margin, or
    needs more games, from the sufficient statistics of ALL paired games so far (``Paired.n``,
    ``.mean_d``, ``.var_d``). Stateless, so a resumed comparison decides the same; the caller
    stops at the first decision that is not "continue".

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
    For a nonlinear metric the linearised differences depend on the current means, so they are
    recomputed with :func:`paired` from all games so far, not summed batch by batch."""
    lower_bound, upper_bound = sequential_bounds(alpha, beta)
    decision = sequential_decisions(n, mean_d, var_d, margin, alpha, beta, minimum_games)
    llr_up, llr_down = sequential_log_likelihood_ratios(n, mean_d, var_d, margin)
    return SequentialDecision(str(decision), float(llr_up), float(llr_down), lower_bound, upper_bound)
