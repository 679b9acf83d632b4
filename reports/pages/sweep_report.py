"""The balance-sweep report: ``DIR/report.html`` from the two files the sweep runner writes,
``DIR/sweep.parquet`` (one row per cell, metric and player count) and ``DIR/sweep.yaml`` (the
swept dimensions, the cells, the targets and the method).

A game designer asking "which value of this parameter balances the game?" reads it: headline
sentences on how each report metric moves over each swept dimension (and whether the change
from the printed rules' cell is real, from the paired differences), the cells that meet the
targets, one figure per metric and dimension, heat maps for a two-dimensional grid, the cells
and the method. Self-contained like the comparison report (inline PNG, no scripts, nothing from
the network); every figure's data and the full table are also written as CSV into
``<report stem>_files/``.

``python -m reports.pages.sweep_report DIR [--out PATH] [--screenshot PNG]`` writes it (and a
screenshot of its top taken in headless Chromium)."""
from __future__ import annotations

import fnmatch
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import matplotlib.lines
import matplotlib.patches
import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from reports.pages import plots, toolkit
from reports.pages.toolkit import report_main, report_write_errors, setting_text, writable_output
from reports.analysis.studies import read_parquet_table, read_study_settings
from reports.analysis.targets import MAY_MEET, MEETS, Target, cell_overall, target_band, target_status
from reports.analysis.units import RATE, digits_for, interval_text, number, scale, unit_word, value_text, with_unit
from sim.core.engine import ConfigError

__all__ = ["write_sweep_report", "main"]

TABLE = "sweep.parquet"
SETTINGS = "sweep.yaml"
TEMPLATE = "sweep.html.j2"
NUMERIC, CATEGORICAL = "numeric", "categorical"
MAX_HEADLINES = 8
MAX_LINES = 8            # lines per panel before the rest only go to the CSV
MAX_LISTED_CELLS = 6     # cells named in the targets sentence
DEFAULT_REPORT_METRICS = 4
COLUMNS = {"cell": "str", "pool": "str", "metric": "str", "metric_label": "str", "group": "str", "unit": "str",
           "n_players": "int", "value": "float", "low": "float", "high": "float", "games": "int",
           "reference_cell": "str", "difference": "float", "difference_low": "float",
           "difference_high": "float", "p_value": "float"}


class Dimension(BaseModel):
    """One swept parameter: its table column (``name``), its words, its values in grid order."""
    model_config = ConfigDict(extra="ignore")
    name: str
    label: str | None = None
    kind: str = NUMERIC
    paths: list[str] = Field(default_factory=list)
    values: list[Any] = Field(default_factory=list)
    printed: Any = None

    @property
    def words(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def numeric(self) -> bool:
        return self.kind == NUMERIC


class Cell(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cell: str
    pool: str = ""
    values: dict[str, Any] = Field(default_factory=dict)
    run: str | None = None
    games: int | None = None
    printed: bool = False


class Method(BaseModel):
    model_config = ConfigDict(extra="ignore")
    confidence: float = 0.95
    interval: str = ""
    pairing: str = ""


class SweepSettings(BaseModel):
    """sweep.yaml as the sweep runner writes it (keys it may add later are ignored)."""
    model_config = ConfigDict(extra="ignore")
    courtsim_sweep: int
    status: str = "complete"
    name: str = "sweep"
    description: str = ""
    game: str
    experiment_file: str | None = None
    players: list[int] = Field(default_factory=list)
    seed: int | None = None
    games_per_matchup: int | None = None
    dimensions: list[Dimension] = Field(min_length=1)
    pools: dict[str, list[str]] = Field(default_factory=dict)
    cells: list[Cell] = Field(default_factory=list)
    targets: list[Target] = Field(default_factory=list)
    report_metrics: list[str] = Field(default_factory=list)
    method: Method = Field(default_factory=Method)
    created: str | datetime | None = None


# --- reading the two files ----------------------------------------------------------------------

def read_settings(directory: Path) -> SweepSettings:
    path = directory / SETTINGS
    settings = read_study_settings(path, SweepSettings, "sweep", "courtsim_sweep")
    kinds = {dimension.kind for dimension in settings.dimensions} - {NUMERIC, CATEGORICAL}
    if kinds:
        raise ConfigError(f"{path}: key 'dimensions.kind': expected numeric or categorical (found {sorted(kinds)[0]!r})")
    return settings


def read_table(directory: Path, settings: SweepSettings) -> pd.DataFrame:
    """sweep.parquet as pandas, its columns checked against the contract with the sweep runner
    (the fixed columns and one per swept dimension)."""
    path = directory / TABLE
    expected = dict(COLUMNS) | {dimension.name: "float" if dimension.numeric else "str"
                                for dimension in settings.dimensions}
    table = read_parquet_table(path, expected, "sweep table", "run the sweep first")
    if table.empty:
        raise ConfigError(f"{path}: expected one row per cell, metric and player count, found no rows")
    for dimension in settings.dimensions:
        # categorical values are compared as text, whatever pandas made of them
        if not dimension.numeric:
            table[dimension.name] = table[dimension.name].map(setting_text)
    return table


# --- numbers and values in the designer's words ---------------------------------------------------

def estimate_text(row, digits: int) -> str:
    """``58.1% [56.0, 60.2]``: a cell's estimate and its interval."""
    return f"{value_text(row.value, row.unit, digits)} {interval_text(row.low, row.high, row.unit, digits)}"


def difference_text(row, digits: int) -> str:
    """``+4.7 points [3.9, 5.5]``: the paired difference from the printed cell and its interval."""
    factor = scale(row.unit)
    return (f"{with_unit(number(row.difference * factor, digits, sign=True), row.unit)} "
            f"[{number(row.difference_low * factor, digits)}, {number(row.difference_high * factor, digits)}]")


def significant_direction(row) -> int:
    """+1 / -1 when the paired interval of ``row`` lies above / below 0, else 0."""
    low, high = row.difference_low, row.difference_high
    if not (np.isfinite(low) and np.isfinite(high)):
        return 0
    return 1 if low > 0 else (-1 if high < 0 else 0)


def has_reference(rows: pd.DataFrame) -> pd.Series:
    """Which rows name the printed cell they are paired with (null or empty: the grid has none)."""
    return rows["reference_cell"].notna() & (rows["reference_cell"].astype(str) != "")


# --- the grid ---------------------------------------------------------------------------------------

def dimension_values(dimension: Dimension, table: pd.DataFrame) -> list:
    """The values of ``dimension`` in grid order as the table holds them (floats or text); any the
    table has but sweep.yaml does not name come last."""
    present = list(dict.fromkeys(table[dimension.name].dropna()))
    if dimension.numeric:
        named = [float(value) for value in dimension.values if isinstance(value, (int, float))]
        ordered = sorted(set(named) & set(present))
        return ordered + sorted(set(present) - set(ordered))
    named = [setting_text(value) for value in dimension.values]
    return [value for value in named if value in present] + [value for value in present if value not in named]


def printed_value(dimension: Dimension):
    """The printed rules' value of ``dimension`` as the table holds it (None if it has none)."""
    if dimension.printed is None:
        return None if dimension.numeric else "printed rules"
    if dimension.numeric:
        return float(dimension.printed) if isinstance(dimension.printed, (int, float)) else None
    return setting_text(dimension.printed)


def report_metrics(settings: SweepSettings, table: pd.DataFrame) -> list[str]:
    """The metrics the report plots: sweep.yaml's report_metrics the table has, else its first few."""
    present = list(dict.fromkeys(table["metric"]))
    chosen = [metric for metric in settings.report_metrics if metric in present]
    return chosen or present[:DEFAULT_REPORT_METRICS]


def cell_words(values: dict, settings: SweepSettings, pool: str | None = None) -> str:
    """``own_cubes = 2, kill_bonus = 1`` (and the pool when the sweep has several)."""
    text = ", ".join(f"{dimension.name} = {setting_text(values.get(dimension.name))}"
                     for dimension in settings.dimensions)
    return text + (f" ({pool})" if pool is not None and len(settings.pools) > 1 else "")


def cell_values(table: pd.DataFrame, settings: SweepSettings) -> pd.DataFrame:
    """One row per cell: its pool and its value of every dimension (from the table)."""
    columns = ["cell", "pool"] + [dimension.name for dimension in settings.dimensions]
    return table[columns].drop_duplicates("cell").set_index("cell")


def slices(part: pd.DataFrame, dimension: Dimension, settings: SweepSettings):
    """(the other dimensions' fixed values, rows) for each line along ``dimension`` in ``part``
    (one metric, player count and pool): the printed cell's line first, so a capped figure
    keeps the line the paired differences are about."""
    others = [other.name for other in settings.dimensions if other.name != dimension.name]
    if not others:
        yield {}, part
        return
    reference = part[part["cell"].isin(part.loc[has_reference(part), "reference_cell"])]
    first = tuple(reference[others].iloc[0]) if not reference.empty else None
    groups = list(part.groupby(others, sort=False, dropna=False))
    groups.sort(key=lambda item: (item[0] if isinstance(item[0], tuple) else (item[0],)) != first)
    for key, rows in groups:
        key = key if isinstance(key, tuple) else (key,)
        yield dict(zip(others, key)), rows


def ordered_along(rows: pd.DataFrame, dimension: Dimension, order: list) -> pd.DataFrame:
    """``rows`` in the grid order of ``dimension``."""
    position = {value: index for index, value in enumerate(order)}
    return rows.assign(_position=rows[dimension.name].map(position)).sort_values("_position").drop(columns="_position")


# --- the targets -------------------------------------------------------------------------------------

def targets_sentence(statuses: pd.DataFrame, table: pd.DataFrame, settings: SweepSettings) -> str | None:
    """"3 of 12 cells meet every target: own_cubes = 2, ..." (None without targets)."""
    if statuses.empty:
        return None
    overall = cell_overall(statuses)
    values = cell_values(table, settings)
    meeting = [cell for cell, status in overall.items() if status == MEETS]
    maybe = [cell for cell, status in overall.items() if status == MAY_MEET]

    def named(cells: list[str]) -> str:
        words = [cell_words(values.loc[cell].to_dict(), settings, values.loc[cell, "pool"]) for cell in cells]
        more = len(words) - MAX_LISTED_CELLS
        return "; ".join(words[:MAX_LISTED_CELLS]) + (f"; and {more} more" if more > 0 else "")

    every = "the target" if len(settings.targets) == 1 else f"every target ({len(settings.targets)})"
    if meeting:
        sentence = f"{len(meeting)} of {len(overall)} cells meet {every}: {named(meeting)}."
        return sentence + (f" {len(maybe)} more may meet it (an interval still reaches past a band)." if maybe else "")
    if maybe:
        return (f"No cell is shown to meet {every}; {len(maybe)} of {len(overall)} may meet it (every estimate "
                f"inside, some interval reaching past a band): {named(maybe)}.")
    return f"None of the {len(overall)} cells meets {every}: every cell misses at least one."


# --- the headline sentences ----------------------------------------------------------------------------

def movement(part: pd.DataFrame, dimension: Dimension, settings: SweepSettings, order: list):
    """The most informative line along ``dimension`` of one metric, player count and pool: the
    printed cell's line when the grid has it, else the line that moves most. (fixed values, rows)."""
    lines = list(slices(part, dimension, settings))
    first_rows = lines[0][1]
    if first_rows["cell"].isin(first_rows.loc[has_reference(first_rows), "reference_cell"]).any():
        fixed, rows = lines[0]
    else:
        fixed, rows = max(lines, key=lambda line: np.nanmax(line[1]["value"]) - np.nanmin(line[1]["value"])
                          if line[1]["value"].notna().any() else -1)
    return fixed, ordered_along(rows, dimension, order)


def significance_clause(rows: pd.DataFrame, dimension: Dimension, digits: int) -> str:
    """Which values differ significantly from the printed cell (paired), in which direction, and
    the largest difference each way."""
    if not has_reference(rows).any():
        return "The grid has no printed cell, so no paired test."
    parts = []
    for direction, word in ((1, "higher"), (-1, "lower")):
        chosen = [row for row in rows.itertuples() if significant_direction(row) == direction]
        if chosen:
            largest = max(chosen, key=lambda row: abs(row.difference))
            where = " and ".join(setting_text(getattr(row, dimension.name)) for row in chosen)
            parts.append(f"significantly {word} at {where} ({difference_text(largest, digits)}"
                         f"{'' if len(chosen) == 1 else f' at {setting_text(getattr(largest, dimension.name))}'})")
    if not parts:
        return "No value differs significantly from the printed cell."
    return "Paired with the printed cell, it is " + ", and ".join(parts) + "."


def movement_sentence(rows: pd.DataFrame, fixed: dict, dimension: Dimension, settings: SweepSettings,
                      n_players: int, pool: str) -> str:
    """"At 2 players, as the assassin's own cubes go from 1 to 4, the first player's win rate falls from
    58.1% [56.0, 60.2] to 51.3% [49.1, 53.5]; printed (3): 53.4%. Paired with the printed cell, ..."."""
    digits = digits_for(rows)
    label = rows["metric_label"].iloc[0]
    where = f"At {n_players} players" + (f" with the {pool} pool" if len(settings.pools) > 1 else "")
    if fixed:
        where += ", with " + ", ".join(f"{name} = {setting_text(value)}" for name, value in fixed.items())
    finite = rows[rows["value"].notna()]
    if finite.empty:
        return f"{where}, {label} was not measured."
    if dimension.numeric:
        first, last = finite.iloc[0], finite.iloc[-1]
        shown_first, shown_last = (number(row.value * scale(row.unit), digits) for row in (first, last))
        body = (f"as {dimension.words} go{'es' if not dimension.words.endswith('s') else ''} from "
                f"{setting_text(first[dimension.name])} to {setting_text(last[dimension.name])}, {label} ")
        if shown_first == shown_last:
            body += f"stays at {estimate_text(last, digits)}"
        else:
            verb = "rises" if last.value > first.value else "falls"
            body += f"{verb} from {estimate_text(first, digits)} to {estimate_text(last, digits)}"
    else:
        lowest, highest = finite.loc[finite["value"].idxmin()], finite.loc[finite["value"].idxmax()]
        body = (f"across {dimension.words}, {label} is lowest at {setting_text(lowest[dimension.name])} "
                f"({estimate_text(lowest, digits)}) and highest at {setting_text(highest[dimension.name])} "
                f"({estimate_text(highest, digits)})")
    printed = rows[rows["cell"].isin(rows.loc[has_reference(rows), "reference_cell"])]
    if not printed.empty:
        row = printed.iloc[0]
        body += f"; printed ({setting_text(row[dimension.name])}): {value_text(row.value, row.unit, digits)}"
    return f"{where}, {body}. {significance_clause(rows, dimension, digits)}"


def movement_size(rows: pd.DataFrame) -> tuple[bool, float]:
    """(has a significant paired difference, its largest |difference| over its interval's half
    width; else the range of the estimates over their largest half width): a size without a unit,
    so that a rate, a score and a count rank together."""
    significant = [abs(row.difference) / max(abs(row.difference_high - row.difference_low) / 2, 1e-12)
                   for row in rows.itertuples() if significant_direction(row)]
    if significant:
        return True, max(significant)
    values = rows["value"].dropna()
    half_widths = ((rows["high"] - rows["low"]) / 2).dropna()
    spread = float(values.max() - values.min()) if not values.empty else 0.0
    return False, spread / max(float(half_widths.max()) if not half_widths.empty else 0.0, 1e-12)


def headlines(table: pd.DataFrame, settings: SweepSettings, statuses: pd.DataFrame) -> list[str]:
    """The status (if the sweep is unfinished), the movements (at most MAX_HEADLINES), then the
    targets. Each report metric first gets its clearest movement (in report_metrics order, the
    designer's), then the rest go by clarity: significant ones first, by their largest paired
    difference in units of its interval's half width."""
    lines = [] if settings.status == "complete" else [
        f"This sweep is {settings.status} (sweep.yaml): not every cell has been played, so the numbers below are "
        "not its final ones; run the same sweep again to finish it."]
    by_metric: dict[str, list] = {}
    metrics = report_metrics(settings, table)
    for dimension in settings.dimensions:
        order = dimension_values(dimension, table)
        for metric in metrics:
            for (n_players, pool), part in table[table["metric"] == metric].groupby(["n_players", "pool"], sort=True):
                fixed, rows = movement(part, dimension, settings, order)
                significant, size = movement_size(rows)
                by_metric.setdefault(metric, []).append(
                    ((not significant, -size), movement_sentence(rows, fixed, dimension, settings, int(n_players), pool)))
    for candidates in by_metric.values():
        candidates.sort(key=lambda candidate: candidate[0])
    firsts = [by_metric[metric][0] for metric in metrics if by_metric.get(metric)]
    rest = sorted((candidate for metric in metrics for candidate in by_metric.get(metric, [])[1:]),
                  key=lambda candidate: candidate[0])
    chosen = [candidate for candidate in firsts if not candidate[0][0]] + \
             [candidate for candidate in firsts if candidate[0][0]] + rest
    lines += [sentence for _, sentence in chosen[:MAX_HEADLINES]]
    sentence = targets_sentence(statuses, table, settings)
    return lines + ([sentence] if sentence else [])


# --- the figures ------------------------------------------------------------------------------------

def axis_label(rows: pd.DataFrame) -> str:
    unit = rows["unit"].iloc[0]
    word = "%" if unit == RATE else unit_word(unit)
    return f"{rows['metric_label'].iloc[0]} ({word})" if word else rows["metric_label"].iloc[0]


def line_name(pool: str, fixed: dict, settings: SweepSettings) -> str:
    parts = [pool] if len(settings.pools) > 1 or not fixed else []
    return ", ".join(parts + [f"{name} = {setting_text(value)}" for name, value in fixed.items()])


def metric_lines(table: pd.DataFrame, metric: str, dimension: Dimension, settings: SweepSettings
                 ) -> list[tuple[int, str, pd.DataFrame]]:
    """(player count, line name, rows in grid order) of every line of one figure."""
    order = dimension_values(dimension, table)
    lines = []
    for (n_players, pool), part in table[table["metric"] == metric].groupby(["n_players", "pool"], sort=True):
        for fixed, rows in slices(part, dimension, settings):
            lines.append((int(n_players), line_name(pool, fixed, settings), ordered_along(rows, dimension, order)))
    return lines


def draw_targets(ax, metric: str, n_players: int, unit: str, settings: SweepSettings) -> bool:
    """Shade each target band that speaks of ``metric`` at ``n_players`` (True if one was drawn)."""
    drawn = False
    for target in settings.targets:
        if fnmatch.fnmatchcase(metric, target.metric) and (target.players is None or n_players in target.players):
            lowest, highest = target_band(target, n_players)
            bottom, top = ax.get_ylim()
            factor = scale(unit)
            ax.axhspan(max(lowest * factor, bottom) if np.isfinite(lowest) else bottom,
                       min(highest * factor, top) if np.isfinite(highest) else top,
                       color="#2ca02c", alpha=0.12, zorder=0)
            ax.set_ylim(bottom, top)
            drawn = True
    return drawn


def sweep_figure(table: pd.DataFrame, metric: str, dimension: Dimension, settings: SweepSettings):
    """The metric against ``dimension``: one panel per player count, one line (estimates with
    interval error bars, dodged sideways) per pool and value of the other dimensions, at most
    MAX_LINES; a dashed vertical line at the printed value; target bands shaded."""
    lines = metric_lines(table, metric, dimension, settings)
    counts = sorted({n_players for n_players, _, _ in lines})
    figure, axes = plots.new_figure(4.6 * len(counts) + 1.0, 3.8, ncols=len(counts))
    order = dimension_values(dimension, table)
    positions = {value: (value if dimension.numeric else index) for index, value in enumerate(order)}
    # error bars of several lines are dodged sideways by a share of the gap between two values
    spacing = float(np.diff(sorted(positions.values())).min()) if len(positions) > 1 else 1.0
    printed = printed_value(dimension)
    targets_drawn = False
    for ax, n_players in zip(axes[0], counts):
        panel = [line for line in lines if line[0] == n_players][:MAX_LINES]
        step = 0.3 * spacing / max(len(panel), 1)
        for index, (_, name, rows) in enumerate(panel):
            factor = scale(rows["unit"].iloc[0])
            x = rows[dimension.name].map(positions).to_numpy(float) + (index - (len(panel) - 1) / 2) * step
            values = rows["value"].to_numpy(float) * factor
            errors = np.clip(np.nan_to_num(np.vstack([values - rows["low"].to_numpy(float) * factor,
                                                      rows["high"].to_numpy(float) * factor - values])), 0, None)
            ax.errorbar(x, values, yerr=errors, marker="o", markersize=4, capsize=3, elinewidth=1,
                        color=plots.PALETTE[index % 10], linestyle="-" if dimension.numeric else "none",
                        label=name or None)
        if printed in positions:
            ax.axvline(positions[printed], color="k", linestyle="--", linewidth=1)
        targets_drawn |= draw_targets(ax, metric, n_players, panel[0][2]["unit"].iloc[0], settings)
        ax.set_xticks([positions[value] for value in order])
        ax.set_xticklabels([setting_text(value) for value in order])
        if len(order) > 6 and not dimension.numeric:
            plots.rotate(ax, 30)
        ax.set_xlabel(dimension.words)
        ax.set_ylabel(axis_label(panel[0][2]))
        ax.set_title(f"{n_players} players", fontsize=10)
        ax.grid(alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    extras = [matplotlib.lines.Line2D([], [], color="k", linestyle="--", label="printed rules")] if printed in positions else []
    if targets_drawn:
        extras.append(matplotlib.patches.Patch(color="#2ca02c", alpha=0.25, label="target band"))
    if handles or extras:
        figure.legend(handles=handles + extras, loc="outside right upper", fontsize=8)
    return figure


def sweep_figure_table(table: pd.DataFrame, metric: str, dimension: Dimension, settings: SweepSettings) -> pd.DataFrame:
    """The rows of one figure (every line, also those past MAX_LINES), in the metric's own unit."""
    columns = ["n_players", "pool", *[other.name for other in settings.dimensions], "cell", "metric", "unit",
               "value", "low", "high", "difference", "difference_low", "difference_high", "p_value", "games"]
    return pd.concat([rows[columns] for _, _, rows in metric_lines(table, metric, dimension, settings)],
                     ignore_index=True)


def heatmap_figure(rows: pd.DataFrame, settings: SweepSettings, title: str):
    """The metric over the two dimensions of the grid, each cell annotated, the printed cell framed."""
    first, second = settings.dimensions
    unit = rows["unit"].iloc[0]
    matrix = rows.pivot_table(index=first.name, columns=second.name, values="value", aggfunc="first", dropna=False)
    matrix = matrix.reindex(index=dimension_values(first, rows), columns=dimension_values(second, rows)) * scale(unit)
    matrix.index = [setting_text(value) for value in matrix.index]
    matrix.columns = [setting_text(value) for value in matrix.columns]
    digits = digits_for(rows)
    figure = plots.heatmap(matrix, title=title, xlabel=second.words, ylabel=first.words, fmt=f"{{:.{digits}f}}",
                           colorbar_label=axis_label(rows))
    printed = (setting_text(printed_value(first)), setting_text(printed_value(second)))
    if printed[0] in matrix.index and printed[1] in matrix.columns:
        figure.axes[0].add_patch(matplotlib.patches.Rectangle(
            (list(matrix.columns).index(printed[1]) - 0.5, list(matrix.index).index(printed[0]) - 0.5), 1, 1,
            fill=False, edgecolor="red", linewidth=2))
    return figure, matrix


def add_figures(store, table: pd.DataFrame, settings: SweepSettings) -> tuple[list, list]:
    """Every line figure and (for a two-dimensional grid) every heat map, written into ``store``."""
    confidence = f"{settings.method.confidence:.0%}"
    games = int(table["games"].max())
    line_figures, heat_maps = [], []
    for metric in report_metrics(settings, table):
        rows = table[table["metric"] == metric]
        label = rows["metric_label"].iloc[0]
        for dimension in settings.dimensions:
            shown = len(metric_lines(table, metric, dimension, settings))
            more = "" if shown <= MAX_LINES else f" Only the first {MAX_LINES} lines per panel are drawn; all are in the CSV."
            line_figures.append(store.add(
                f"sweep_{metric}_by_{dimension.name}", f"{label} against {dimension.words}",
                sweep_figure(table, metric, dimension, settings), sweep_figure_table(table, metric, dimension, settings),
                f"Estimate of {label} in each cell with its {confidence} interval, one panel per player count and one "
                f"line per pool and value of the other dimensions; dashed line: the printed rules' value; shaded: the "
                f"target band (if any). Rates in percent.{more}", games))
        if len(settings.dimensions) == 2:
            for (n_players, pool), part in rows.groupby(["n_players", "pool"], sort=True):
                title = f"{label}, {n_players} players" + (f", {pool}" if len(settings.pools) > 1 else "")
                figure, matrix = heatmap_figure(part, settings, title)
                heat_maps.append(store.add(
                    f"sweep_heatmap_{metric}_{n_players}p_{pool}", title, figure, matrix,
                    f"{label} in every cell of the grid ({unit_word(part['unit'].iloc[0]) or 'count'}"
                    f"{' in percent' if part['unit'].iloc[0] == RATE else ''}); framed: the printed rules' cell.",
                    int(part["games"].max())))
    return line_figures, heat_maps


# --- the page's tables and paragraphs --------------------------------------------------------------------

def status_rows(statuses: pd.DataFrame, table: pd.DataFrame, settings: SweepSettings) -> tuple[list[str], list[dict]]:
    """(target names, one row per cell: its values and its status per target, '—' where one does not apply)."""
    names = list(dict.fromkeys(statuses["target"]))
    values = cell_values(table, settings)
    overall = cell_overall(statuses)
    rows = []
    for cell, part in statuses.groupby("cell", sort=False):
        by_target = dict(zip(part["target"], part["status"]))
        rows.append({"cell": cell, "pool": values.loc[cell, "pool"],
                     "settings": [setting_text(values.loc[cell, dimension.name]) for dimension in settings.dimensions],
                     "statuses": [by_target.get(name, "—") for name in names], "overall": overall[cell]})
    return names, rows


def cell_rows(table: pd.DataFrame, settings: SweepSettings) -> list[dict]:
    """The cells in grid order: pool, the value of every dimension, games, whether printed."""
    values = cell_values(table, settings)
    games = table.groupby("cell")["games"].max()
    references = set(table.loc[has_reference(table), "reference_cell"])
    listed = {cell.cell: cell for cell in settings.cells}
    rows = []
    for cell in list(dict.fromkeys(list(listed) + list(values.index))):
        if cell not in values.index:
            continue
        entry = listed.get(cell)
        rows.append({"cell": cell, "pool": values.loc[cell, "pool"],
                     "settings": [setting_text(values.loc[cell, dimension.name]) for dimension in settings.dimensions],
                     "games": f"{int(entry.games if entry and entry.games else games[cell]):,}",
                     "printed": "printed rules" if cell in references or (entry and entry.printed) else ""})
    return rows


def result_tables(table: pd.DataFrame, settings: SweepSettings) -> list[dict]:
    """Per player count: each cell's report metrics, the estimate [interval] and the paired difference."""
    metrics = report_metrics(settings, table)
    values = cell_values(table, settings)
    tables = []
    for n_players, part in table[table["metric"].isin(metrics)].groupby("n_players", sort=True):
        labels = [part.loc[part["metric"] == metric, "metric_label"].iloc[0] for metric in metrics
                  if (part["metric"] == metric).any()]
        chosen = [metric for metric in metrics if (part["metric"] == metric).any()]
        digits = {metric: digits_for(part[part["metric"] == metric]) for metric in chosen}
        rows = []
        for cell in values.index:
            cells = []
            for metric in chosen:
                found = part[(part["cell"] == cell) & (part["metric"] == metric)]
                if found.empty:
                    cells.append({"text": "—", "difference": "", "direction": 0})
                    continue
                row = next(found.itertuples())
                paired = np.isfinite(row.difference)
                cells.append({"text": estimate_text(row, digits[metric]),
                              "difference": difference_text(row, digits[metric]) if paired else "",
                              "direction": significant_direction(row)})
            rows.append({"cell": cell, "settings": [setting_text(values.loc[cell, dimension.name])
                                                  for dimension in settings.dimensions], "metrics": cells})
        tables.append({"players": int(n_players), "labels": labels, "rows": rows})
    return tables


def dimension_views(settings: SweepSettings, table: pd.DataFrame) -> list[dict]:
    return [{"name": dimension.name, "label": dimension.words, "kind": dimension.kind,
             "paths": dimension.paths, "grid_values": [setting_text(value) for value in dimension_values(dimension, table)],
             "printed": setting_text(printed_value(dimension)) if printed_value(dimension) is not None else "—"}
            for dimension in settings.dimensions]


def games_text(games: pd.Series) -> str:
    return f"{games.min():,}" if games.min() == games.max() else f"{games.min():,} to {games.max():,}"


def method_paragraphs(settings: SweepSettings, table: pd.DataFrame) -> list[str]:
    cells = table["cell"].nunique()
    confidence = f"{settings.method.confidence:.0%}"
    interval = f" ({settings.method.interval})" if settings.method.interval else ""
    per_matchup = (f" ({settings.games_per_matchup:,} per match-up and seating of the experiment)"
                   if settings.games_per_matchup else "")
    paragraphs = [
        f"The grid: {cells} cells, every combination of the {len(settings.dimensions)} swept dimension(s) "
        f"({', '.join(dimension.name for dimension in settings.dimensions)}) for each bot pool "
        f"({', '.join(settings.pools) or ', '.join(dict.fromkeys(table['pool']))}); each cell is a full run of the "
        f"experiment{f' {settings.experiment_file}' if settings.experiment_file else ''} with those values, "
        f"{games_text(table['games'])} games per cell and player count{per_matchup}.",
        "Common random numbers. Every cell plays the same seed" + (f" ({settings.seed})" if settings.seed is not None else "")
        + " and the same game indices, so every source of chance the swept values do not touch (shuffles, dice, bots' "
        "random choices) draws the same numbers in every cell. Game i of a cell starts like game i of the printed "
        "rules' cell and differs only where the values bite, so each cell's difference from the printed cell is the "
        "mean of paired per-game differences, usually far more precise than comparing two independent runs of as "
        "many games."
        + (f" {settings.method.pairing}" if settings.method.pairing else ""),
        f"Intervals: each estimate's {confidence} confidence interval{interval}; a difference from the printed cell is "
        f"called significant when its paired {confidence} interval excludes 0. These are many comparisons at once and "
        "are not adjusted for it: treat a lone significant cell among many with care.",
        "Targets: a cell meets a target when every matching row's interval lies inside the target's band, may meet it "
        "when every estimate does but some interval reaches past it (more games would decide), and misses it when "
        "some estimate lies outside. Rates are shown in percent and their differences in percentage points; other "
        "metrics in their own unit.",
    ]
    return paragraphs


def meta_line(settings: SweepSettings, table: pd.DataFrame, directory: Path) -> str:
    players = ", ".join(str(n) for n in sorted(set(settings.players or table["n_players"])))
    created = (f" · seed {settings.seed}" if settings.seed is not None else "") + (
        f" · created {settings.created}" if settings.created else "")
    experiment = f" · experiment {settings.experiment_file}" if settings.experiment_file else ""
    return (f"Sweep {directory} ({settings.name}){experiment}"
            + f" · game {settings.game} · players {players} · {table['cell'].nunique()} cells · "
            f"{games_text(table['games'])} games per cell{created}")


def write_sweep_report(directory: Path, out: Path | None = None) -> Path:
    """Write the sweep report of ``directory`` (default ``directory/report.html``) and its
    ``<stem>_files/`` (PNG + CSV per figure, the full table and the target statuses as CSV).
    ConfigError (one line naming the path) for a missing or malformed sweep.yaml or
    sweep.parquet, or an output that cannot be written."""
    directory = Path(directory)
    settings = read_settings(directory)
    table = read_table(directory, settings)
    out = Path(out) if out is not None else directory / "report.html"
    store = writable_output(out)
    statuses = target_status(table, [target.model_dump() for target in settings.targets])
    with report_write_errors(out):
        line_figures, heat_maps = add_figures(store, table, settings)
        full_table = store.directory / "sweep_table.csv"
        table.to_csv(full_table, index=False)
        files = [full_table.name]
        if not statuses.empty:
            statuses.to_csv(store.directory / "sweep_targets.csv", index=False)
            files.append("sweep_targets.csv")
        target_names, target_table = status_rows(statuses, table, settings) if not statuses.empty else ([], [])
        text = toolkit.render_template(
            TEMPLATE, title=f"{toolkit.game_title(settings.game)} balance sweep",
            meta=meta_line(settings, table, directory), description=settings.description,
            headlines=headlines(table, settings, statuses), dimensions=dimension_views(settings, table),
            target_names=target_names, target_rows=target_table, line_figures=line_figures, heat_maps=heat_maps,
            results=result_tables(table, settings), cells=cell_rows(table, settings),
            method=method_paragraphs(settings, table), files=files, files_directory=store.directory.name)
        return toolkit.write(out, text)


def main(arguments: list[str] | None = None) -> int:
    return report_main(write_sweep_report, "python -m reports.pages.sweep_report", __doc__.splitlines()[0],
                       "the output directory of `courtsim sweep`", arguments)


if __name__ == "__main__":
    sys.exit(main())
