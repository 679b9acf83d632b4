"""The rule-tuning report: ``DIR/report.html`` from the files ``courtsim tune`` writes
(sim/studies/tune_rules.py): ``DIR/tuning.yaml`` (the space, the targets, the schedule and the
recommended candidates re-evaluated on fresh games), ``DIR/tuning.parquet`` (one row per
candidate: its values, miss, change, rung and whether it is Pareto-optimal) and
``DIR/recommended.parquet`` (the fresh estimates of the target metrics).

A game designer asking "what is the smallest rule change that balances the game?" reads it:
headline sentences naming the best recommended candidate in words with its fresh estimates,
the Pareto-optimal candidates, the recommended ones with their status per target and variant
file, the miss of every candidate against its change, the miss against each tuned parameter,
and the method. Self-contained like the sweep report (inline PNG, no scripts, nothing from the
network); every figure's data and the full tables are also written as CSV into
``<report stem>_files/``.

``python -m reports.pages.tuning_report DIR [--out PATH] [--screenshot PNG]`` writes it (and a
screenshot of its top taken in headless Chromium)."""
from __future__ import annotations

import math
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from reports.pages import plots, toolkit
from reports.pages.toolkit import report_main, report_write_errors, setting_text, writable_output
from reports.analysis import targets as targets_module
from reports.analysis.studies import read_parquet_table, read_study_settings
from reports.analysis.units import RATE, digits_for, interval_text, number, scale, unit_word, value_text, with_unit
from sim.core.engine import ConfigError

__all__ = ["write_tuning_report", "main"]

SETTINGS = "tuning.yaml"
TABLE = "tuning.parquet"
RECOMMENDED_TABLE = "recommended.parquet"
TEMPLATE = "tuning.html.j2"
PRINTED = "printed"
COMPLETE, PRUNED = "complete", "pruned"
CATEGORICAL = "categorical"
MEETS, MAY_MEET, MISSES, NOT_MEASURED = (targets_module.MEETS, targets_module.MAY_MEET, targets_module.MISSES,
                                        targets_module.NOT_MEASURED)
STATUS_SEVERITY = targets_module.STATUS_SEVERITY
# the columns tuning.parquet shares with the tuner besides one per parameter ("float": any number)
COLUMNS = {"trial": "float", "state": "str", "rung": "float", "games_per_matchup": "float", "miss": "float",
           "change": "float", "changed_values": "float", "pareto": "bool"}
RECOMMENDED_COLUMNS = {"candidate": "str", "metric": "str", "metric_label": "str", "unit": "str",
                       "n_players": "float", "value": "float", "low": "float", "high": "float", "games": "float"}


class Parameter(BaseModel):
    """One tuned value: its table column (``name``), words, game-data path, kind, range or values."""
    model_config = ConfigDict(extra="ignore")
    name: str
    label: str | None = None
    path: str = ""
    kind: str = "float"
    low: float | None = None
    high: float | None = None
    step: float | None = None
    values: list[Any] | None = None
    printed: Any = None

    @property
    def words(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def categorical(self) -> bool:
        return self.kind == CATEGORICAL


class Schedule(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rungs: list[int] = Field(default_factory=list)
    keep: float | None = None
    trials: int | None = None
    sampler: str = ""
    fresh_games_per_matchup: int | None = None


class TrialCounts(BaseModel):
    model_config = ConfigDict(extra="ignore")
    complete: int = 0
    pruned: int = 0


class TargetResult(BaseModel):
    """One target's verdict on a recommended candidate's fresh games."""
    model_config = ConfigDict(extra="ignore")
    target: str
    status: str
    miss: float


class Recommended(BaseModel):
    """A re-evaluated candidate: the printed rules (trial null) or a Pareto-optimal trial."""
    model_config = ConfigDict(extra="ignore")
    name: str
    trial: int | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    training_miss: float | None = None
    fresh_miss: float
    change: float = 0.0
    changed_values: int = 0
    targets: list[TargetResult] = Field(default_factory=list)
    variant_file: str | None = None

    @property
    def printed(self) -> bool:
        return self.trial is None

    @property
    def overall(self) -> str:
        """The worst status over every target (a candidate meets the targets only if it meets each)."""
        return max((target.status for target in self.targets), key=STATUS_SEVERITY.get, default=NOT_MEASURED)


class TuningSettings(BaseModel):
    """tuning.yaml as the tuner writes it (keys it may add later are ignored)."""
    model_config = ConfigDict(extra="ignore")
    courtsim_tuning: int
    status: str = "complete"
    name: str = "tuning"
    description: str = ""
    tuning_file: str | None = None
    game: str
    experiment_file: str | None = None
    players: list[int] = Field(default_factory=list)
    bots: list[str] = Field(default_factory=list)
    seed: int | None = None
    space: list[Parameter] = Field(min_length=1)
    targets: list[dict[str, Any]] = Field(default_factory=list)
    schedule: Schedule = Field(default_factory=Schedule)
    trials: TrialCounts = Field(default_factory=TrialCounts)
    recommended: list[Recommended] = Field(default_factory=list)
    created: str | datetime | None = None


# --- reading the three files ----------------------------------------------------------------------

def read_settings(directory: Path) -> TuningSettings:
    return read_study_settings(directory / SETTINGS, TuningSettings, "tuning", "courtsim_tuning")


def read_candidates(directory: Path, settings: TuningSettings) -> pd.DataFrame:
    """tuning.parquet: one row per candidate, the categorical values as text."""
    path = directory / TABLE
    table = read_parquet_table(path, COLUMNS | {parameter.name: "str" if parameter.categorical else "float"
                                                for parameter in settings.space}, "tuning table", "run the tuning first")
    if table.empty:
        raise ConfigError(f"{path}: expected one row per candidate, found no rows")
    for parameter in settings.space:
        if parameter.categorical:
            table[parameter.name] = table[parameter.name].map(setting_text)
    return table.sort_values("trial", kind="stable").reset_index(drop=True)


def read_estimates(directory: Path) -> pd.DataFrame:
    """recommended.parquet, or an empty table when the tuner wrote none (no target rows)."""
    path = directory / RECOMMENDED_TABLE
    if not path.exists():
        return pd.DataFrame(columns=list(RECOMMENDED_COLUMNS))
    table = read_parquet_table(path, RECOMMENDED_COLUMNS, "re-evaluation table", "run the tuning first")
    for column in targets_module.CHANGE_COLUMNS:     # (tunings before change targets have no paired change)
        if column not in table.columns:
            table[column] = math.nan
    return table


# --- values and numbers in the designer's words -------------------------------------------------------

def is_changed(parameter: Parameter, value: Any) -> bool:
    """Does ``value`` differ from the printed rules' value of ``parameter``?"""
    if parameter.categorical or isinstance(parameter.printed, (bool, str)) or parameter.printed is None:
        return setting_text(value) != setting_text(parameter.printed)
    return not math.isclose(float(value), float(parameter.printed), abs_tol=1e-12)


def change_words(values: dict[str, Any], settings: TuningSettings) -> str:
    """``start gold 5 → 3 and the double-kill rule false → true`` (empty: no change)."""
    return " and ".join(f"{parameter.words} {setting_text(parameter.printed)} → {setting_text(values[parameter.name])}"
                        for parameter in settings.space
                        if parameter.name in values and is_changed(parameter, values[parameter.name]))


def miss_unit(estimates: pd.DataFrame) -> str:
    """The miss is in points when every target metric is a rate, else mixed (points for rates)."""
    units = set(estimates["unit"]) if not estimates.empty else {RATE}
    return "points" if units == {RATE} else ""


def miss_text(miss: float | None, unit: str = "points") -> str:
    """``8.1 points``, ``0.35 points``, ``0`` for a met target, ``not measured`` for no estimate."""
    if miss is None or (isinstance(miss, float) and math.isnan(miss)):
        return "—"
    if not math.isfinite(miss):
        return "not measured"
    if miss == 0:
        return "0"
    return f"{number(miss, 2 if miss < 1 else 1)} {unit}".rstrip()


def bound_text(value: float, unit: str) -> str:
    """A band's edge without trailing zeros: 49 for 0.49 of a rate."""
    return f"{round(value * scale(unit), 6):g}"


def band_text(band: tuple[float, float], unit: str) -> str:
    """``49-51%``, ``≥ 95%`` or ``≤ 10.5 rounds``: the band a target allows."""
    suffix = "%" if unit == RATE else (f" {unit_word(unit)}" if unit_word(unit) else "")
    lowest, highest = band
    if math.isfinite(lowest) and math.isfinite(highest):
        return f"{bound_text(lowest, unit)}-{bound_text(highest, unit)}{suffix}"
    if math.isfinite(lowest):
        return f"≥ {bound_text(lowest, unit)}{suffix}"
    if math.isfinite(highest):
        return f"≤ {bound_text(highest, unit)}{suffix}"
    return "any value"


def games_text(games: int | None) -> str:
    return f"{int(games):,}" if games else "?"


# --- the re-evaluated estimates ---------------------------------------------------------------------

def candidate_estimates(estimates: pd.DataFrame, name: str) -> pd.DataFrame:
    return estimates[estimates["candidate"] == name]


def target_rows(rows: pd.DataFrame, target: dict) -> pd.DataFrame:
    """The rows (one candidate's) a target speaks of: its metric pattern and player counts."""
    chosen = [targets_module.matches(target, str(row.metric), int(row.n_players)) for row in rows.itertuples()]
    return rows[np.array(chosen, dtype=bool)] if len(rows) else rows


def row_band(row, target: dict) -> tuple[float, float]:
    return targets_module.band(target, int(row.n_players))


def worst_row(rows: pd.DataFrame, target: dict):
    """The row that decides a target's status: the worst status, then the farthest outside its
    band, then the interval reaching farthest past it (None without rows)."""
    def badness(row):
        lowest, highest = row_band(row, target)
        value, low, high = judged(row, target)
        status = targets_module.row_status(value, low, high, (lowest, highest))
        # rounded: two players equally far from a fair share (59.1% and 40.9%) tie, and the first is shown
        outside = round(targets_module.distance_outside(value, lowest, highest), 9)
        reach = round(max(lowest - low, high - highest), 9)
        return STATUS_SEVERITY[status], outside, reach

    return max(rows.itertuples(), key=badness, default=None)


def judged(row, target: dict) -> tuple[float, float, float]:
    """What ``target`` judges in ``row``: its estimate, or its paired change from the printed rules."""
    if targets_module.is_change_target(target):
        return row.difference, row.difference_low, row.difference_high
    return row.value, row.low, row.high


def estimate_clause(row, target: dict, several_counts: bool) -> str:
    """``the first player's win rate 50.2% [49.4, 51.0] (target 49-51%)`` (and the player count if several);
    for a change target ``the median game length 64 turns [63, 65], +1.0 turns [0.0, 2.0] from the
    printed rules (target within ±2 turns)``."""
    digits = digits_for(pd.DataFrame([row._asdict()]))
    where = f" at {int(row.n_players)} players" if several_counts else ""
    level = (f"{row.metric_label}{where} {value_text(row.value, row.unit, digits)} "
             f"{interval_text(row.low, row.high, row.unit, digits)}")
    if not targets_module.is_change_target(target):
        return f"{level} (target {band_text(row_band(row, target), row.unit)})"
    change = with_unit(number(row.difference * scale(row.unit), digits, sign=True), row.unit)
    return (f"{level}, {change} {interval_text(row.difference_low, row.difference_high, row.unit, digits)} from the "
            f"printed rules (target {change_band_text(row_band(row, target), row.unit)})")


def change_band_text(band: tuple[float, float], unit: str) -> str:
    """``within ±2 turns``, ``≤ +1.5 points``: the change a target allows."""
    suffix = " points" if unit == RATE else (f" {unit_word(unit)}" if unit_word(unit) else "")
    lowest, highest = band
    if math.isfinite(lowest) and math.isfinite(highest) and math.isclose(-lowest, highest):
        return f"within ±{bound_text(highest, unit)}{suffix}"
    shown = [f"{word} {round(bound * scale(unit), 6):+g}{suffix}" for word, bound in (("≥", lowest), ("≤", highest))
             if math.isfinite(bound)]
    return " and ".join(shown) or "any change"


def estimate_clauses(estimates: pd.DataFrame, name: str, settings: TuningSettings) -> list[str]:
    """One clause per target: the estimate of candidate ``name`` that decides it."""
    rows = candidate_estimates(estimates, name)
    several_counts = len(set(settings.players or rows["n_players"])) > 1
    clauses = []
    for target in settings.targets:
        row = worst_row(target_rows(rows, target), target)
        if row is not None:
            clauses.append(estimate_clause(row, target, several_counts))
    return clauses


# --- the headline sentences -----------------------------------------------------------------------------

def best_recommended(settings: TuningSettings) -> Recommended | None:
    """The recommended change to read first: the smallest fresh miss, then the surest status
    (meets before may meet), then the smallest change."""
    candidates = [candidate for candidate in settings.recommended if not candidate.printed]
    return min(candidates, key=lambda candidate: (candidate.fresh_miss, STATUS_SEVERITY.get(candidate.overall, 9),
                                                  candidate.change), default=None)


def printed_candidate(settings: TuningSettings) -> Recommended | None:
    return next((candidate for candidate in settings.recommended if candidate.printed), None)


def verdict_words(candidate: Recommended, unit: str) -> str:
    """``meets every target`` / ``may meet every target (...)`` / ``misses by 1.2 points``."""
    every = "the target" if len(candidate.targets) == 1 else "every target"
    if candidate.overall == MEETS:
        return f"meets {every}"
    if candidate.overall == MAY_MEET:
        return (f"may meet {every} (every estimate inside its band, some interval reaching past it: more games "
                "would decide)")
    return f"misses by {miss_text(candidate.fresh_miss, unit)}"


def best_sentence(candidate: Recommended, settings: TuningSettings, estimates: pd.DataFrame) -> str:
    """"Setting start gold 5 → 3 meets every target on 16,000 fresh games per match-up: the first
    player's win rate 50.2% [49.4, 51.0] (target 49-51%); the printed rules miss by 8.1 points."""
    unit = miss_unit(estimates)
    changes = change_words(candidate.values, settings)
    subject = f"Setting {changes}" if changes else "Keeping the printed rules (no change)"
    clauses = estimate_clauses(estimates, candidate.name, settings)
    sentence = (f"{subject} {verdict_words(candidate, unit)} on "
                f"{games_text(settings.schedule.fresh_games_per_matchup)} fresh games per match-up")
    sentence += (": " + "; ".join(clauses)) if clauses else ""
    printed = printed_candidate(settings)
    if printed is None:
        sentence += "; the printed rules lie outside the tuned space, so they were not re-evaluated"
    elif printed.fresh_miss == 0:
        sentence += f"; the printed rules {'meet' if printed.overall == MEETS else 'may meet'} the targets already"
    else:
        sentence += f"; the printed rules miss by {miss_text(printed.fresh_miss, unit)}"
    return sentence + "."


def trials_sentence(settings: TuningSettings, candidates: pd.DataFrame) -> str:
    """"40 candidates tried: 14 played every rung (1,000 and 4,000 games per match-up), 26 were
    pruned after fewer; 4 are Pareto-optimal."""
    complete = int((candidates["state"] == COMPLETE).sum())
    pruned = int((candidates["state"] == PRUNED).sum())
    rungs = " and ".join(f"{games:,}" for games in settings.schedule.rungs)
    schedule = f" ({rungs} games per match-up)" if rungs else ""
    front = int(candidates["pareto"].sum())
    return (f"{len(candidates)} candidates tried: {complete} played every rung{schedule}, {pruned} "
            f"{'was' if pruned == 1 else 'were'} pruned after fewer games; {front} "
            f"{'is' if front == 1 else 'are'} Pareto-optimal (no other has both a smaller miss and a smaller change).")


def nothing_meets_sentence(settings: TuningSettings, candidates: pd.DataFrame, estimates: pd.DataFrame) -> str | None:
    """Said plainly when no candidate meets every target on fresh games (None when one does)."""
    if any(candidate.overall == MEETS for candidate in settings.recommended):
        return None
    unit = miss_unit(estimates)
    sentence = "No candidate meets every target"
    uncertain = [candidate for candidate in settings.recommended if candidate.fresh_miss == 0]
    if uncertain:          # inside every band, some interval reaching past one: a matter of games, not rules
        closest = min(uncertain, key=lambda candidate: candidate.change)
        who = "the printed rules" if closest.printed else f"{closest.name} ({change_words(closest.values, settings)})"
        return (f"No candidate surely meets every target: {who} may meet every target on fresh games (every "
                f"estimate inside its band, some interval reaching past it). Play more fresh games "
                f"(--fresh-games-per-matchup) to decide, or tighten the search with more trials.")
    if settings.recommended:
        closest = min(settings.recommended, key=lambda candidate: (candidate.fresh_miss, candidate.change))
        who = "the printed rules" if closest.printed else f"{closest.name} ({change_words(closest.values, settings)})"
        sentence += f": the smallest miss on fresh games is {miss_text(closest.fresh_miss, unit)}, by {who}"
    complete = candidates[(candidates["state"] == COMPLETE) & np.isfinite(candidates["miss"])]
    if not complete.empty:
        best = complete.loc[complete["miss"].idxmin()]
        sentence += (f"; the smallest in training was {miss_text(float(best['miss']), unit)} "
                     f"(trial {int(best['trial'])})")
    return sentence + ". Widen the space, loosen a target or run more trials."


def curse_sentence(candidate: Recommended, estimates: pd.DataFrame) -> str | None:
    """How the best candidate's miss moved from training to fresh games (the winner's curse)."""
    if candidate.training_miss is None or not math.isfinite(candidate.fresh_miss):
        return None
    unit = miss_unit(estimates)
    training, fresh = miss_text(candidate.training_miss, unit), miss_text(candidate.fresh_miss, unit)
    if training == fresh:
        return f"{candidate.name} missed by {training} in training and by as much on fresh games."
    direction = "more" if candidate.fresh_miss > candidate.training_miss else "less"
    return (f"{candidate.name} missed by {training} in training and by {fresh} on fresh games ({direction} than in "
            "training: the fresh figure is the one to trust).")


def headlines(settings: TuningSettings, candidates: pd.DataFrame, estimates: pd.DataFrame) -> list[str]:
    """The status (if unfinished), the best recommended candidate, the plain no-candidate
    sentence, the winner's-curse check and the count of candidates."""
    lines = [] if settings.status == "complete" else [
        f"This tuning is {settings.status} (tuning.yaml): its numbers are not final; run the same tuning again "
        "to finish it."]
    nothing = nothing_meets_sentence(settings, candidates, estimates)
    if nothing:
        lines.append(nothing)
    best = best_recommended(settings)
    if best is None:
        lines.append("No candidate played every rung, so there is nothing to recommend.")
    else:
        lines.append(best_sentence(best, settings, estimates))
        curse = curse_sentence(best, estimates)
        if curse:
            lines.append(curse)
    lines.append(trials_sentence(settings, candidates))
    return lines


# --- the figures --------------------------------------------------------------------------------------

def recommended_by_trial(settings: TuningSettings) -> dict[int, Recommended]:
    return {candidate.trial: candidate for candidate in settings.recommended if candidate.trial is not None}


def pareto_steps(front: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The Pareto front as a staircase: by change, the miss falling at each candidate."""
    ordered = front.sort_values(["change", "miss"])
    return ordered["change"].to_numpy(float), ordered["miss"].to_numpy(float)


def miss_change_figure(candidates: pd.DataFrame, settings: TuningSettings, unit: str):
    """Every candidate's miss against its change: pruned faded, the Pareto front as a step
    line, the recommended ones starred with their fresh miss, the printed rules marked."""
    figure, axes = plots.new_figure(9.0, 4.6)
    ax = axes[0, 0]
    finite = candidates[np.isfinite(candidates["miss"])]
    pruned, complete = finite[finite["state"] == PRUNED], finite[finite["state"] == COMPLETE]
    ax.scatter(pruned["change"], pruned["miss"], s=18, color="#999999", alpha=0.35, label="pruned (fewer games)")
    ax.scatter(complete["change"], complete["miss"], s=22, color=plots.PALETTE[0], label="played every rung")
    front = complete[complete["pareto"]]
    if not front.empty:
        changes, misses = pareto_steps(front)
        ax.step(changes, misses, where="post", color=plots.PALETTE[1], linewidth=1.5, label="Pareto front")
    recommended = recommended_by_trial(settings)
    for index, (trial, candidate) in enumerate(recommended.items()):
        ax.scatter([candidate.change], [candidate.training_miss], marker="*", s=160, color=plots.PALETTE[2],
                   edgecolor="k", linewidth=0.5, zorder=5,
                   label="recommended (training)" if trial == next(iter(recommended)) else None)
        if math.isfinite(candidate.fresh_miss):
            ax.scatter([candidate.change], [candidate.fresh_miss], marker="*", s=160, facecolor="none",
                       edgecolor=plots.PALETTE[2], linewidth=1.2, zorder=5,
                       label="recommended (fresh games)" if trial == next(iter(recommended)) else None)
            ax.plot([candidate.change] * 2, [candidate.training_miss, candidate.fresh_miss], color=plots.PALETTE[2],
                    linewidth=0.8, linestyle=":")
        ax.annotate(candidate.name, (candidate.change, candidate.training_miss), textcoords="offset points",
                    xytext=(6, 4 + 9 * index), fontsize=7)   # stacked: recommended candidates may coincide
    # the printed rules are the first candidate with no change (the sampler may propose them again later)
    printed = finite[np.isclose(finite["change"], 0.0)].head(1)
    if not printed.empty:
        ax.scatter(printed["change"], printed["miss"], marker="s", s=70, facecolor="none", edgecolor="k",
                   linewidth=1.5, zorder=6, label="printed rules")
    ax.set_xlabel("change from the printed rules (share of each range; 1 per changed category)")
    ax.set_ylabel(f"miss ({unit})" if unit else "miss (points for rates)")
    ax.grid(alpha=0.3)
    figure.legend(loc="outside right upper", fontsize=8)
    return figure


def miss_change_table(candidates: pd.DataFrame, settings: TuningSettings) -> pd.DataFrame:
    """The figure's data: every candidate, and which are recommended (with their fresh miss)."""
    recommended = recommended_by_trial(settings)
    table = candidates[["trial", "state", "rung", "games_per_matchup", "miss", "change", "changed_values", "pareto"]
                       + [parameter.name for parameter in settings.space]].copy()
    table["recommended"] = table["trial"].map(lambda trial: recommended[trial].name if trial in recommended else "")
    table["fresh_miss"] = table["trial"].map(lambda trial: recommended[trial].fresh_miss if trial in recommended
                                             else np.nan)
    return table


def parameter_positions(parameter: Parameter, candidates: pd.DataFrame) -> tuple[pd.Series, list | None]:
    """x of each candidate for ``parameter``: its value, or a category's position (with the order)."""
    if not parameter.categorical:
        return candidates[parameter.name].astype(float), None
    named = [setting_text(value) for value in parameter.values or []]
    order = [value for value in named if value in set(candidates[parameter.name])]
    order += [value for value in dict.fromkeys(candidates[parameter.name]) if value not in order]
    return candidates[parameter.name].map({value: index for index, value in enumerate(order)}).astype(float), order


def parameter_figure(parameter: Parameter, candidates: pd.DataFrame, settings: TuningSettings, unit: str):
    """The miss against one parameter's value: complete candidates solid, pruned faded,
    recommended starred, the printed value dashed (categories spread sideways to be seen)."""
    figure, axes = plots.new_figure(8.0, 3.8)
    ax = axes[0, 0]
    finite = candidates[np.isfinite(candidates["miss"])]
    x, order = parameter_positions(parameter, finite)
    if order is not None:
        # many candidates share a category: a fixed spread by trial keeps the points apart
        x = x + ((finite["trial"].to_numpy(int) * 0.6180339887) % 1 - 0.5) * 0.3
    for state, style in ((PRUNED, {"color": "#999999", "alpha": 0.35, "label": "pruned (fewer games)"}),
                         (COMPLETE, {"color": plots.PALETTE[0], "label": "played every rung"})):
        chosen = (finite["state"] == state).to_numpy()
        ax.scatter(x[chosen], finite["miss"][chosen], s=20, **style)
    recommended = recommended_by_trial(settings)
    chosen = finite["trial"].isin(list(recommended)).to_numpy()
    if chosen.any():
        ax.scatter(x[chosen], finite["miss"][chosen], marker="*", s=150, color=plots.PALETTE[2], edgecolor="k",
                   linewidth=0.5, zorder=5, label="recommended")
    printed = setting_text(parameter.printed)
    if order is None and parameter.printed is not None and not isinstance(parameter.printed, (bool, str)):
        ax.axvline(float(parameter.printed), color="k", linestyle="--", linewidth=1, label=f"printed ({printed})")
    elif order is not None and printed in order:
        ax.axvline(order.index(printed), color="k", linestyle="--", linewidth=1, label=f"printed ({printed})")
    if order is not None:
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels(order)
    ax.set_xlabel(f"{parameter.words} ({parameter.name})")
    ax.set_ylabel(f"miss ({unit})" if unit else "miss (points for rates)")
    ax.grid(alpha=0.3)
    figure.legend(loc="outside right upper", fontsize=8)
    return figure


def add_figures(store, candidates: pd.DataFrame, settings: TuningSettings, unit: str) -> tuple[Any, list]:
    """The miss-against-change figure and one figure per parameter, written into ``store``."""
    games = int(candidates["games_per_matchup"].max())
    not_measured = int((~np.isfinite(candidates["miss"])).sum())
    left_out = f" {not_measured} candidate(s) without a finite miss are left out (they are in the CSV)." \
        if not_measured else ""
    overview = store.add(
        "tuning_miss_against_change", "Every candidate's miss against its change",
        miss_change_figure(candidates, settings, unit), miss_change_table(candidates, settings),
        "Each point is a candidate at the last rung it played (pruned ones, faded, on fewer games); the orange "
        "staircase is the Pareto front; stars are the recommended candidates in training (filled) and on fresh games "
        "(hollow, joined by a dotted line); the square is the printed rules (change 0)." + left_out, games)
    by_parameter = []
    for parameter in settings.space:
        columns = ["trial", parameter.name, "state", "rung", "games_per_matchup", "miss", "change", "pareto"]
        by_parameter.append(store.add(
            f"tuning_miss_by_{parameter.name}", f"The miss against {parameter.words}",
            parameter_figure(parameter, candidates, settings, unit), candidates[columns],
            f"Each candidate's miss at the last rung it played against its value of {parameter.name} "
            f"({parameter.path}); faded: pruned; stars: recommended; dashed: the printed value "
            f"({setting_text(parameter.printed)})." + left_out, games))
    return overview, by_parameter


# --- the page's tables and paragraphs ------------------------------------------------------------------

def space_views(settings: TuningSettings) -> list[dict]:
    """One row per tuned parameter: name, words, path, kind, its range or values, printed value."""
    views = []
    for parameter in settings.space:
        if parameter.categorical:
            searched = ", ".join(setting_text(value) for value in parameter.values or [])
        else:
            step = f" in steps of {setting_text(parameter.step)}" if parameter.step else " (continuous)"
            searched = f"{setting_text(parameter.low)} to {setting_text(parameter.high)}{step}"
        views.append({"name": parameter.name, "label": parameter.words, "path": parameter.path,
                      "kind": parameter.kind, "searched": searched, "printed": setting_text(parameter.printed)})
    return views


def target_views(settings: TuningSettings) -> list[str]:
    return [str(target.get("text") or targets_module.target_text(target)) for target in settings.targets]


def value_cells(values: dict[str, Any], settings: TuningSettings) -> list[dict]:
    """Each parameter's value as text, flagged when it differs from the printed rules."""
    return [{"text": setting_text(values.get(parameter.name)),
             "changed": parameter.name in values and is_changed(parameter, values[parameter.name])}
            for parameter in settings.space]


def pareto_rows(candidates: pd.DataFrame, settings: TuningSettings, unit: str) -> list[dict]:
    """The Pareto-optimal candidates by miss then change: trial, values, miss, change, recommended name."""
    recommended = recommended_by_trial(settings)
    front = candidates[candidates["pareto"]].sort_values(["miss", "change", "trial"])
    rows = []
    for row in front.to_dict("records"):
        trial = int(row["trial"])
        rows.append({"trial": trial, "settings": value_cells(row, settings), "miss": miss_text(row["miss"], unit),
                     "change": number(row["change"], 2), "changed_values": int(row["changed_values"]),
                     "games": f"{int(row['games_per_matchup']):,}",
                     "recommended": recommended[trial].name if trial in recommended else ""})
    return rows


def recommended_rows(settings: TuningSettings, estimates: pd.DataFrame, unit: str) -> list[dict]:
    """The re-evaluated candidates: values, misses, per target status, miss and deciding
    estimate, the fresh estimates with intervals, and the variant file."""
    several_counts = len(set(settings.players or estimates["n_players"])) > 1
    rows = []
    for candidate in settings.recommended:
        own = candidate_estimates(estimates, candidate.name)
        verdicts = []
        for target, result in zip(settings.targets, candidate.targets):
            row = worst_row(target_rows(own, target), target)
            verdicts.append({"status": result.status, "miss": miss_text(result.miss, unit),
                             "estimate": estimate_clause(row, target, several_counts) if row is not None else ""})
        rows.append({"name": candidate.name, "trial": "—" if candidate.printed else str(candidate.trial),
                     "printed": candidate.printed, "settings": value_cells(candidate.values, settings),
                     "changes": change_words(candidate.values, settings) or "no change",
                     "training_miss": miss_text(candidate.training_miss, unit),
                     "fresh_miss": miss_text(candidate.fresh_miss, unit), "change": number(candidate.change, 2),
                     "overall": candidate.overall, "verdicts": verdicts,
                     "variant_file": candidate.variant_file or ""})
    return rows


def estimate_rows(estimates: pd.DataFrame, settings: TuningSettings) -> list[dict]:
    """Every fresh estimate of every re-evaluated candidate (in tuning.yaml's order): metric,
    player count, estimate [interval], games, and the band of each target it counts for."""
    order = {candidate.name: index for index, candidate in enumerate(settings.recommended)}
    ordered = estimates.assign(_order=estimates["candidate"].map(order).fillna(len(order)))
    shown = []
    for row in ordered.sort_values(["_order", "n_players", "metric"], kind="stable").itertuples():
        digits = digits_for(pd.DataFrame([row._asdict()]))
        bands = [band_text(row_band(row, target), row.unit) for target in settings.targets
                 if targets_module.matches(target, str(row.metric), int(row.n_players))]
        shown.append({"candidate": row.candidate, "label": row.metric_label, "players": int(row.n_players),
                      "estimate": f"{value_text(row.value, row.unit, digits)} "
                                  f"{interval_text(row.low, row.high, row.unit, digits)}",
                      "band": ", ".join(bands) or "—", "games": f"{int(row.games):,}"})
    return shown


def target_table(settings: TuningSettings) -> pd.DataFrame:
    """Each recommended candidate's status and miss per target (the CSV of the verdicts)."""
    return pd.DataFrame([{"candidate": candidate.name, "trial": candidate.trial, "target": result.target,
                          "status": result.status, "miss": result.miss, "fresh_miss": candidate.fresh_miss,
                          "training_miss": candidate.training_miss, "change": candidate.change,
                          "variant_file": candidate.variant_file}
                         for candidate in settings.recommended for result in candidate.targets],
                        columns=["candidate", "trial", "target", "status", "miss", "fresh_miss", "training_miss",
                                 "change", "variant_file"])


def method_paragraphs(settings: TuningSettings, candidates: pd.DataFrame) -> list[str]:
    schedule = settings.schedule
    rungs = ", then ".join(f"{games:,}" for games in schedule.rungs) or "?"
    keep = f"{schedule.keep:.0%}" if schedule.keep is not None else "a share"
    always = math.ceil(1 / schedule.keep) if schedule.keep else 1
    sampler = {"nsga2": "NSGA-II", "tpe": "TPE"}.get(schedule.sampler, schedule.sampler or "Optuna's")
    return [
        "Two objectives, both minimised. The miss: for each target, how far the worst estimate lies outside its "
        "band (in points for a rate, in the metric's own unit otherwise; 0 when it lies inside), summed over the "
        f"targets ({len(settings.targets)}). The change: how far a candidate is from the printed rules, per "
        "parameter |value - printed| as a share of its range's width (1 for a changed category), summed over the "
        f"{len(settings.space)} tuned parameter(s). A candidate is Pareto-optimal when no other has both a smaller "
        "miss and a smaller change: the front is the menu of the smallest change for each miss.",
        f"The search: {len(candidates)} candidates proposed by Optuna's {sampler} sampler"
        + (f" (seed {settings.seed} for the games)" if settings.seed is not None else "")
        + f", the printed rules first when they lie in the space. Successive halving spends the games: every "
        f"candidate plays the first rung ({rungs} games per match-up at the rungs); it goes on to the next only if "
        f"its miss is within the best {keep} of the misses played at that rung so far (the first {always} always go "
        "on, and a miss of 0 always does), else it is pruned. A pruned candidate's miss is on fewer games, so it is "
        "noisier; it is drawn faded.",
        "Common random numbers. At a rung every candidate plays the same seed and the same game indices, so the "
        "shuffles, dice and bots' random choices the tuned values do not touch draw the same numbers for every "
        "candidate: candidates are compared on equal luck, and a smaller miss is the rules' doing far more than "
        "chance's.",
        "The re-evaluation. Picking the smallest of many noisy misses favours candidates that were lucky on the "
        "training games (the winner's curse), so the recommended candidates, the Pareto-optimal ones with the "
        "smallest misses, and the printed rules are played again on "
        f"{games_text(schedule.fresh_games_per_matchup)} fresh games per match-up, game indices far from any "
        "training game. Their statuses and estimates here come from those fresh games. A candidate meets a target "
        "when every matching estimate's interval lies inside the band, may meet it when every estimate does but some "
        "interval reaches past it, and misses it when some estimate lies outside.",
    ]


def meta_line(settings: TuningSettings, candidates: pd.DataFrame, directory: Path) -> str:
    players = ", ".join(str(count) for count in settings.players) or "?"
    parts = [f"Tuning {directory} ({settings.name})"]
    if settings.tuning_file:
        parts.append(f"tuning file {settings.tuning_file}")
    if settings.experiment_file:
        parts.append(f"experiment {settings.experiment_file}")
    parts += [f"game {settings.game}", f"players {players}"]
    if settings.bots:
        parts.append(f"bots {', '.join(settings.bots)}")
    parts.append(f"{len(candidates)} candidates")
    if settings.schedule.sampler:
        parts.append(f"sampler {settings.schedule.sampler}")
    if settings.seed is not None:
        parts.append(f"seed {settings.seed}")
    if settings.created:
        parts.append(f"created {settings.created}")
    return " · ".join(parts)


def write_tuning_report(directory: Path, out: Path | None = None) -> Path:
    """Write the tuning report of ``directory`` (default ``directory/report.html``) and its
    ``<stem>_files/`` (PNG + CSV per figure, the candidates, the fresh estimates and the
    verdicts as CSV). ConfigError (one line naming the path) for a missing or malformed
    tuning.yaml, tuning.parquet or recommended.parquet, or an output that cannot be written."""
    directory = Path(directory)
    settings = read_settings(directory)
    candidates = read_candidates(directory, settings)
    estimates = read_estimates(directory)
    out = Path(out) if out is not None else directory / "report.html"
    store = writable_output(out)
    unit = miss_unit(estimates)
    with report_write_errors(out):
        overview, by_parameter = add_figures(store, candidates, settings, unit)
        files = write_tables(store.directory, candidates, estimates, settings)
        text = toolkit.render_template(
            TEMPLATE, title=f"{toolkit.game_title(settings.game)} rule tuning",
            meta=meta_line(settings, candidates, directory), description=settings.description,
            headlines=headlines(settings, candidates, estimates), space=space_views(settings),
            targets=target_views(settings), pareto=pareto_rows(candidates, settings, unit),
            recommended=recommended_rows(settings, estimates, unit), estimates=estimate_rows(estimates, settings),
            experiment=settings.experiment_file or "EXPERIMENT", overview=overview, by_parameter=by_parameter,
            method=method_paragraphs(settings, candidates), files=files, files_directory=store.directory.name)
        return toolkit.write(out, text)


def write_tables(files_directory: Path, candidates: pd.DataFrame, estimates: pd.DataFrame,
                 settings: TuningSettings) -> list[str]:
    """The full tables as CSV next to the figures; their file names."""
    tables = {"tuning_candidates.csv": candidates, "tuning_recommended_estimates.csv": estimates,
              "tuning_recommended_targets.csv": target_table(settings)}
    for name, table in tables.items():
        table.to_csv(files_directory / name, index=False)
    return list(tables)


def main(arguments: list[str] | None = None) -> int:
    return report_main(write_tuning_report, "python -m reports.pages.tuning_report", __doc__.splitlines()[0],
                       "the output directory of `courtsim tune`", arguments)


if __name__ == "__main__":
    sys.exit(main())
