"""Balance targets: the band a metric must lie in, and how far an estimate misses it.

A target (a sweep's or a rule tuning's ``targets:``) names a metric, or an fnmatch pattern of
metrics (``*_player_win_rate``: every player's win rate, reports.analysis.players), optionally some player
counts and a pool, and one band: ``at_least`` and/or ``at_most``, ``between: [low, high]``, or
``fair_share_within: t`` (within t of 1 / n_players, the fair share of a player or of a bot in
mirror games). A *change target* bounds instead how far a metric moves from the printed rules:
``change_at_least`` and/or ``change_at_most``, or ``change_within: t`` (at most t either way;
"keep the median game length within 2 turns of the printed game's"). It is judged on the paired
difference from the printed cell on common random numbers (the row's ``difference``,
``difference_low``, ``difference_high``), which is far tighter than two separate intervals; the
printed cell's own change is 0.

A set of estimates (one row per metric and player count, with its interval) *meets* a target
when every matching row's whole interval lies inside the band, *may meet* it when every
estimate does, and *misses* it otherwise (*not measured* without a finite estimate). Several
conditions in one target are intersected. The *miss* is how far the worst matching estimate lies
outside the band, in points for a rate (0.03 below 0.49 is a miss of 3) and in the metric's own
unit otherwise: what rule tuning minimises.

A sweep's table (one row per cell, metric and player count) is judged cell by cell:
:func:`target_status` gives each cell's status against each target, named in words
(:func:`target_name`), for the sweep's page and ``courtsim sweep``'s listing alike.
"""
from __future__ import annotations

import math
from fnmatch import fnmatch, fnmatchcase
from typing import Iterable, Mapping

import pandas as pd
from pydantic import BaseModel, ConfigDict

from reports.analysis import players, units
from reports.analysis.units import RATE

MEETS, MAY_MEET, MISSES, NOT_MEASURED = "meets", "may meet", "misses", "not measured"
# a set of rows has its worst row's status: one estimate outside the band is a miss
STATUS_SEVERITY = {MEETS: 0, MAY_MEET: 1, NOT_MEASURED: 2, MISSES: 3}
# a value exactly on a bound (0.53 against 1/2 + 0.03) is inside, whatever the last bit of the sum
BOUND_TOLERANCE = 1e-12
CHANGE_KEYS = ("change_at_least", "change_at_most", "change_within")
CHANGE_COLUMNS = ("difference", "difference_low", "difference_high")


def is_change_target(target: Mapping) -> bool:
    """Does the target bound the paired change from the printed rules rather than the level?"""
    return any(target.get(key) is not None for key in CHANGE_KEYS)


def change_band(target: Mapping) -> tuple[float, float]:
    """(lowest, highest) change from the printed rules a change target allows."""
    lowest, highest = -math.inf, math.inf
    if target.get("change_at_least") is not None:
        lowest = float(target["change_at_least"])
    if target.get("change_at_most") is not None:
        highest = float(target["change_at_most"])
    if target.get("change_within") is not None:
        within = abs(float(target["change_within"]))
        lowest, highest = max(lowest, -within), min(highest, within)
    return lowest, highest


BOUND_KEYS = ("at_least", "at_most", "between", "change_at_least", "change_at_most")
# (lower, upper) bound keys that together give an empty band when the lower exceeds the upper
BOUND_PAIRS = (("at_least", "at_most"), ("change_at_least", "change_at_most"))


def bound_problem(target: Mapping) -> tuple[str, str] | None:
    """(key, "expected ..., found ...") for a target whose band can hold no value: a bound that
    is not a number (NaN), or a lower bound above its upper bound (``at_least: 0.6, at_most:
    0.4``, likewise ``change_at_least`` above ``change_at_most``); None for a usable band.
    (``between`` is read either way round: band() sorts it.) A metric of an earlier name
    (``seat_1_win_rate``, ``seat_*_win_rate``) is refused first, naming the new one (the one
    check every sweep's and tuning's target passes before its metric is looked up)."""
    renamed = players.old_name_problem(str(target.get("metric") or ""))
    if renamed is not None:
        return "metric", renamed
    for key in BOUND_KEYS:
        given = target.get(key)
        bounds = {key: given} if key != "between" else {f"between.{number}": bound
                                                         for number, bound in enumerate(given or ())}
        for where, bound in bounds.items():
            if bound is not None and math.isnan(float(bound)):
                return where, f"expected a number, found {bound!r}"
    for lower, upper in BOUND_PAIRS:
        if target.get(lower) is not None and target.get(upper) is not None \
                and float(target[lower]) > float(target[upper]):
            return upper, (f"expected {lower} <= {upper}, found {lower} {float(target[lower]):g} and "
                           f"{upper} {float(target[upper]):g} (no value lies in that band)")
    return None


def judged_estimate(row: Mapping, target: Mapping) -> tuple[float, float, float]:
    """(estimate, low, high) a target judges in a row: the level, or for a change target the paired
    difference from the printed cell (0 for the printed cell itself, NaN where it was not paired)."""
    if not is_change_target(target):
        return float(row["value"]), float(row["low"]), float(row["high"])
    return paired_change(row)


def paired_change(row: Mapping) -> tuple[float, float, float]:
    """(difference, low, high) of a row from the printed cell it is paired with: 0 for the
    printed cell itself (its reference_cell is its own cell), NaN where it was not paired."""
    if row.get("reference_cell") is not None and row.get("reference_cell") == row.get("cell"):
        return 0.0, 0.0, 0.0
    values = tuple(row.get(key) for key in CHANGE_COLUMNS)
    return tuple(math.nan if value is None else float(value) for value in values)


def band(target: Mapping, n_players: int) -> tuple[float, float]:
    """(lowest, highest) value a target allows at ``n_players``: every condition it gives,
    intersected (infinite where it has no bound); for a change target, the change it allows."""
    if is_change_target(target):
        return change_band(target)
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
    if is_change_target(target):
        rule = change_text(target)
    elif target.get("fair_share_within") is not None:
        rule = f"within {target['fair_share_within']:g} of the fair share"
    elif target.get("between") is not None:
        rule = f"between {target['between'][0]:g} and {target['between'][1]:g}"
    else:
        parts = ([f"at least {target['at_least']:g}"] if target.get("at_least") is not None else []) + \
                ([f"at most {target['at_most']:g}"] if target.get("at_most") is not None else [])
        rule = " and ".join(parts)
    return f"{target['metric']} {rule}{where}{pool}"


def change_text(target: Mapping) -> str:
    """A change target's condition in words: "within 2 of the printed rules", "a change from the
    printed rules of at most +0.5"."""
    if target.get("change_within") is not None:
        return f"within {abs(target['change_within']):g} of the printed rules"
    bounds = ([f"at least {target['change_at_least']:+g}"] if target.get("change_at_least") is not None else []) + \
             ([f"at most {target['change_at_most']:+g}"] if target.get("change_at_most") is not None else [])
    return f"a change from the printed rules of {' and '.join(bounds)}"


def evaluate(rows: Iterable[Mapping], target: Mapping) -> tuple[str, float, int]:
    """(status, miss, matching rows) of one set of estimates (rows with metric, n_players, unit,
    value, low, high; optionally pool; for a change target cell, reference_cell and the paired
    difference with its interval) against a target: the worst row's status and the largest
    distance outside the band. No matching row: ("not measured", inf, 0)."""
    status, miss, count = MEETS, 0.0, 0
    for row in rows:
        if not matches(target, row["metric"], int(row["n_players"]), row.get("pool")):
            continue
        count += 1
        allowed = band(target, int(row["n_players"]))
        scale = 100.0 if row.get("unit") == RATE else 1.0
        value, low, high = judged_estimate(row, target)
        outside = distance_outside(value, *allowed)
        miss = max(miss, outside * scale if outside > BOUND_TOLERANCE else 0.0)
        status = max(status, row_status(value, low, high, allowed), key=STATUS_SEVERITY.get)
    if count == 0:
        return NOT_MEASURED, math.inf, 0
    return status, miss, count


def total_miss(rows: list[Mapping], targets: list[Mapping]) -> float:
    """The sum of every target's miss (weighted by its ``weight``, default 1): 0 when every
    estimate of every target lies inside its band."""
    return sum(float(target.get("weight") or 1.0) * evaluate(rows, target)[1] for target in targets)


# --- a sweep's cells against its targets -------------------------------------------------------------

class Target(BaseModel):
    """A band a metric should lie in: at least / at most / between / within t of the fair share 1/n."""
    model_config = ConfigDict(extra="ignore")
    metric: str
    players: list[int] | None = None
    pool: str | None = None
    at_least: float | None = None
    at_most: float | None = None
    between: list[float] | None = None
    fair_share_within: float | None = None
    change_at_least: float | None = None      # a change target: the paired change from the printed cell
    change_at_most: float | None = None
    change_within: float | None = None
    label: str | None = None


def target_band(target: Target, n_players: int) -> tuple[float, float]:
    """The [lowest, highest] value ``target`` allows at ``n_players`` (:func:`band`)."""
    return band(target.model_dump(), n_players)


def target_rows(table: pd.DataFrame, target: Target) -> pd.DataFrame:
    """The rows a target speaks of: its metric (an fnmatch pattern), player counts and pool."""
    chosen = table["metric"].map(lambda metric: fnmatchcase(str(metric), target.metric))
    if target.players is not None:
        chosen &= table["n_players"].isin(target.players)
    if target.pool is not None:
        chosen &= table["pool"] == target.pool
    return table[chosen]


def table_row_status(row, target: Target) -> str:
    """meets: the interval inside the band; may meet: the estimate inside; misses: the estimate
    outside (for a change target: the paired change from the printed cell and its interval)."""
    judged = judged_estimate(row._asdict(), target.model_dump())
    return row_status(*judged, target_band(target, int(row.n_players)))


def target_name(target: Target, table: pd.DataFrame | None = None) -> str:
    """The target's label, else its condition in words ("balance ≥ 95.0% at 2 players"), in the
    unit and words of the metric ``table`` holds."""
    if target.label:
        return target.label
    unit = RATE
    metric = target.metric
    if table is not None:
        rows = target_rows(table, target)
        # (hand-made rows may lack the words: the pattern and rates then)
        if not rows.empty and "unit" in rows:
            unit = rows["unit"].iloc[0]
        if not rows.empty and "metric_label" in rows and rows["metric"].nunique() == 1:
            metric = rows["metric_label"].iloc[0]

    def bound(value: float) -> str:
        return units.value_text(value, unit, 1 if unit == RATE else 2)

    def amount(value: float, sign: bool = False) -> str:
        return units.with_unit(units.number(value * units.scale(unit), 1, sign=sign), unit)

    conditions = []
    if target.at_least is not None:
        conditions.append(f"≥ {bound(target.at_least)}")
    if target.at_most is not None:
        conditions.append(f"≤ {bound(target.at_most)}")
    if target.between is not None and len(target.between) == 2:
        conditions.append(f"between {bound(min(target.between))} and {bound(max(target.between))}")
    if target.fair_share_within is not None:
        conditions.append(f"within {amount(target.fair_share_within)} of the fair share 1/n")
    if target.change_within is not None:
        conditions.append(f"within {amount(abs(target.change_within))} of the printed rules'")
    for key, word in (("change_at_least", "≥"), ("change_at_most", "≤")):
        if getattr(target, key) is not None:
            conditions.append(f"changed {word} {amount(getattr(target, key), sign=True)} from the printed rules")
    where = (f" at {', '.join(str(n) for n in target.players)} players" if target.players else "") + (
        f" ({target.pool})" if target.pool else "")
    return f"{metric} {' and '.join(conditions) or '(no condition)'}{where}"


def target_status(table: pd.DataFrame, targets: list[dict]) -> pd.DataFrame:
    """Each cell's status against each target (columns cell, pool, target, status): "meets" when
    every matching row's interval lies inside the target's band, "may meet" when every estimate
    does but some interval reaches out, "misses" when some estimate lies outside ("not measured"
    when the cell has no finite estimate for it). A target's metric may be an fnmatch pattern
    (``*_player_win_rate``); players / pool null means all; ``fair_share_within: t`` is the band
    1/n ± t. A cell of another pool than the target's is left out of that target."""
    records = []
    cells = table[["cell", "pool"]].drop_duplicates("cell")
    for entry in targets:
        target = entry if isinstance(entry, Target) else Target.model_validate(entry)
        name = target_name(target, table)
        rows = target_rows(table, target)
        statuses = {cell: max((table_row_status(row, target) for row in part.itertuples()), key=STATUS_SEVERITY.get)
                    for cell, part in rows.groupby("cell", sort=False)}
        for cell in cells.itertuples():
            if target.pool is not None and cell.pool != target.pool:
                continue
            records.append({"cell": cell.cell, "pool": cell.pool, "target": name,
                            "status": statuses.get(cell.cell, NOT_MEASURED)})
    return pd.DataFrame(records, columns=["cell", "pool", "target", "status"])


def cell_overall(statuses: pd.DataFrame) -> pd.Series:
    """Each cell's worst status over every target that applies to it."""
    return statuses.groupby("cell", sort=False)["status"].agg(lambda column: max(column, key=STATUS_SEVERITY.get))
