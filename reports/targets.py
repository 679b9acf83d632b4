"""Balance targets: the band a metric must lie in, and how far an estimate misses it.

A target (a sweep's or a rule tuning's ``targets:``) names a metric, or an fnmatch pattern of
metrics (``seat_*_win_rate``: every seat), optionally some player counts and a pool, and one band:
``at_least`` and/or ``at_most``, ``between: [low, high]``, or ``fair_share_within: t`` (within t
of 1 / n_players, the fair share of a seat or of a bot in mirror games).

A set of estimates (one row per metric and player count, with its interval) *meets* a target
when every matching row's whole interval lies inside the band, *may meet* it when every
estimate does, and *misses* it otherwise (*not measured* without a finite estimate). Several
conditions in one target are intersected. The *miss* is how far the worst matching estimate lies
outside the band, in points for a rate (0.03 below 0.49 is a miss of 3) and in the metric's own
unit otherwise: what rule tuning minimises.
"""
from __future__ import annotations

import math
from fnmatch import fnmatch
from typing import Iterable, Mapping

MEETS, MAY_MEET, MISSES, NOT_MEASURED = "meets", "may meet", "misses", "not measured"
# a set of rows has its worst row's status: one estimate outside the band is a miss
STATUS_SEVERITY = {MEETS: 0, MAY_MEET: 1, NOT_MEASURED: 2, MISSES: 3}
RATE = "rate"
# a value exactly on a bound (0.53 against 1/2 + 0.03) is inside, whatever the last bit of the sum
BOUND_TOLERANCE = 1e-12


def band(target: Mapping, n_players: int) -> tuple[float, float]:
    """(lowest, highest) value a target allows at ``n_players``: every condition it gives,
    intersected (infinite where it has no bound)."""
    lowest, highest = -math.inf, math.inf
    if target.get("at_least") is not None:
        lowest = max(lowest, float(target["at_least"]))
    if target.get("at_most") is not None:
        highest = min(highest, float(target["at_most"]))
    if target.get("between") is not None:
        low, high = sorted(float(bound) for bound in target["between"])
        lowest, highest = max(lowest, low), min(highest, high)
    if target.get("fair_share_within") is not None:
        share = 1.0 / n_players
        lowest = max(lowest, share - float(target["fair_share_within"]))
        highest = min(highest, share + float(target["fair_share_within"]))
    return lowest, highest


def row_status(value: float, low: float, high: float, allowed: tuple[float, float]) -> str:
    """meets: the interval [low, high] inside the band; may meet: the estimate inside; misses:
    the estimate outside; not measured: no finite estimate."""
    lowest, highest = allowed[0] - BOUND_TOLERANCE, allowed[1] + BOUND_TOLERANCE
    if not math.isfinite(value):
        return NOT_MEASURED
    if not lowest <= value <= highest:
        return MISSES
    return MEETS if lowest <= low and high <= highest else MAY_MEET


def matches(target: Mapping, metric: str, n_players: int, pool: str | None = None) -> bool:
    """Does a row of (metric, n_players, pool) count for the target?"""
    if not fnmatch(metric, target["metric"]):
        return False
    if target.get("players") and n_players not in target["players"]:
        return False
    return target.get("pool") is None or pool is None or target["pool"] == pool


def distance_outside(value: float, low: float, high: float) -> float:
    """How far ``value`` lies outside [low, high] (0 inside; infinite for a metric with no value)."""
    if not math.isfinite(value):
        return math.inf
    return max(0.0, low - value, value - high)


def target_text(target: Mapping) -> str:
    """The target in words (its label if it has one)."""
    if target.get("label"):
        return str(target["label"])
    where = f" at {', '.join(map(str, target['players']))} players" if target.get("players") else ""
    pool = f" ({target['pool']})" if target.get("pool") else ""
    if target.get("fair_share_within") is not None:
        rule = f"within {target['fair_share_within']:g} of the fair share"
    elif target.get("between") is not None:
        rule = f"between {target['between'][0]:g} and {target['between'][1]:g}"
    else:
        parts = ([f"at least {target['at_least']:g}"] if target.get("at_least") is not None else []) + \
                ([f"at most {target['at_most']:g}"] if target.get("at_most") is not None else [])
        rule = " and ".join(parts)
    return f"{target['metric']} {rule}{where}{pool}"


def evaluate(rows: Iterable[Mapping], target: Mapping) -> tuple[str, float, int]:
    """(status, miss, matching rows) of one set of estimates (rows with metric, n_players, unit,
    value, low, high; optionally pool) against a target: the worst row's status and the largest
    distance outside the band. No matching row: ("not measured", inf, 0)."""
    status, miss, count = MEETS, 0.0, 0
    for row in rows:
        if not matches(target, row["metric"], int(row["n_players"]), row.get("pool")):
            continue
        count += 1
        allowed = band(target, int(row["n_players"]))
        scale = 100.0 if row.get("unit") == RATE else 1.0
        outside = distance_outside(float(row["value"]), *allowed)
        miss = max(miss, outside * scale if outside > BOUND_TOLERANCE else 0.0)
        status = max(status, row_status(float(row["value"]), float(row["low"]), float(row["high"]), allowed),
                     key=STATUS_SEVERITY.get)
    if count == 0:
        return NOT_MEASURED, math.inf, 0
    return status, miss, count


def total_miss(rows: list[Mapping], targets: list[Mapping]) -> float:
    """The sum of every target's miss (weighted by its ``weight``, default 1): 0 when every
    estimate of every target lies inside its band."""
    return sum(float(target.get("weight") or 1.0) * evaluate(rows, target)[1] for target in targets)
