"""Statistics for fair comparisons: intervals, ratings and how many games a question needs.

Thin wrappers over scipy.stats and statsmodels, vectorised over numpy arrays, so the summary
and the report compute every interval the same way:

- :func:`wilson_interval` for win rates (statsmodels ``proportion_confint``, Wilson);
- :func:`mean_interval` for mean score differences (normal approximation: the runs are large);
- :func:`bradley_terry` ratings from pairwise results (a binomial GLM in statsmodels, so the
  intervals are its standard errors), on the Elo scale;
- :func:`games_needed` to resolve a win-rate difference (statsmodels power analysis).
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.power import NormalIndPower
from statsmodels.tools.sm_exceptions import PerfectSeparationWarning
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize

CONFIDENCE = 0.95
POWER = 0.8
ELO_PER_LOGIT = 400.0 / math.log(10.0)  # one Elo point difference = the same odds as chess Elo
ELO_CENTRE = 1500.0


def wilson_interval(successes, trials, confidence: float = CONFIDENCE):
    """(low, high) of the Wilson score interval for ``successes`` out of ``trials`` (arrays or
    scalars; fractional successes from shared wins are allowed). NaN where trials is 0."""
    successes = np.asarray(successes, dtype=np.float64)
    trials = np.asarray(trials, dtype=np.float64)
    safe = np.where(trials > 0, trials, 1.0)
    low, high = proportion_confint(np.clip(successes, 0, safe), safe, alpha=1.0 - confidence, method="wilson")
    low = np.where(trials > 0, low, np.nan)
    high = np.where(trials > 0, high, np.nan)
    return low, high


def mean_interval(mean, std, count, confidence: float = CONFIDENCE):
    """(low, high) of the normal-approximation interval of a mean from its std and count."""
    mean = np.asarray(mean, dtype=np.float64)
    count = np.asarray(count, dtype=np.float64)
    z = stats.norm.ppf(0.5 + confidence / 2.0)
    half = z * np.asarray(std, dtype=np.float64) / np.sqrt(np.where(count > 0, count, np.nan))
    return mean - half, mean + half


def games_needed(rate, reference, confidence: float = CONFIDENCE, power: float = POWER) -> float:
    """Games for a two-sided test at ``confidence`` to tell a win rate ``rate`` from
    ``reference`` (e.g. the fair share 1/n) with probability ``power`` (Cohen's h, one sample).
    Infinite when the two are equal."""
    effect = abs(float(proportion_effectsize(rate, reference)))
    if not np.isfinite(effect) or effect < 1e-12:
        return math.inf
    return float(NormalIndPower().solve_power(effect_size=effect, alpha=1.0 - confidence, power=power,
                                              ratio=0.0, alternative="two-sided"))


def bradley_terry(pairs: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Bradley-Terry strengths from pairwise results, with intervals, on the Elo scale.

    ``pairs`` has columns ``bot_a``, ``bot_b``, ``wins_a``, ``wins_b`` (ties counted half to
    each). The model P(a beats b) = logistic(s_a - s_b) is fitted as a binomial GLM
    (statsmodels) with sum-to-zero strengths, so every bot gets a standard error. Pairs from the
    same multi-player game are not independent, so the intervals are somewhat optimistic.
    Returns one row per bot: ``bot``, ``rating``, ``low``, ``high``, ``comparisons``."""
    import statsmodels.api as sm

    bots = sorted(set(pairs["bot_a"]) | set(pairs["bot_b"]))
    comparisons = {bot: 0.0 for bot in bots}
    for row in pairs.itertuples():
        comparisons[row.bot_a] += row.wins_a + row.wins_b
        comparisons[row.bot_b] += row.wins_a + row.wins_b
    if len(bots) < 2:
        return pd.DataFrame({"bot": bots, "rating": [ELO_CENTRE] * len(bots), "low": np.nan,
                             "high": np.nan, "comparisons": [comparisons[b] for b in bots]})
    index = {bot: position for position, bot in enumerate(bots)}
    # sum-to-zero coding: the last bot's strength is minus the sum of the others
    design = np.zeros((len(pairs), len(bots) - 1))
    for row_number, row in enumerate(pairs.itertuples()):
        for bot, sign in ((row.bot_a, 1.0), (row.bot_b, -1.0)):
            if index[bot] < len(bots) - 1:
                design[row_number, index[bot]] += sign
            else:
                design[row_number, :] -= sign
    outcome = pairs[["wins_a", "wins_b"]].to_numpy(dtype=np.float64)
    with warnings.catch_warnings():  # a saturated model (two bots) has no residual degrees of freedom;
        warnings.simplefilter("ignore", RuntimeWarning)  # a bot that always wins is perfectly separated
        warnings.simplefilter("ignore", PerfectSeparationWarning)
        fit = sm.GLM(outcome, design, family=sm.families.Binomial()).fit()
    contrast = np.vstack([np.eye(len(bots) - 1), -np.ones((1, len(bots) - 1))])
    strength = contrast @ fit.params
    standard_error = np.sqrt(np.einsum("ij,jk,ik->i", contrast, fit.cov_params(), contrast))
    z = stats.norm.ppf(0.5 + confidence / 2.0)
    return pd.DataFrame({
        "bot": bots,
        "rating": ELO_CENTRE + ELO_PER_LOGIT * strength,
        "low": ELO_CENTRE + ELO_PER_LOGIT * (strength - z * standard_error),
        "high": ELO_CENTRE + ELO_PER_LOGIT * (strength + z * standard_error),
        "comparisons": [comparisons[bot] for bot in bots],
    }).sort_values("rating", ascending=False, ignore_index=True)
