"""The sensitivity report: ``DIR/report.html`` from the files ``courtsim sensitivity GAME``
writes (sim/studies/sensitivity.py): ``sensitivity.yaml`` (the inputs with their ranges and
reasons, the method and every conclusion's verdict), ``points.parquet`` (every design point's
estimates), ``morris.parquet`` (mu*, sigma per input and conclusion) and ``conclusions.parquet``.

A game designer asking "do the report's conclusions survive the component data the rulebook does
not print?" reads it: one headline per conclusion (fragile ones first), the robust / fragile
table with the nearest flip, the inputs and the assumptions not varied, a Morris figure per player
count, the one-at-a-time curves of the inputs that were walked, and the method. Self-contained
like the sweep report (inline PNG, no scripts, nothing from the network); every figure's data is
also written as CSV into ``<report stem>_files/``.

``python -m reports.pages.sensitivity_report DIR [--out PATH] [--screenshot PNG]`` writes it (and a
screenshot of its top taken in headless Chromium).

The main balance report (reports/pages/run_report.py) shows each conclusion's verdict from the
same sensitivity.yaml (reports.analysis.sensitivity_study.find_sensitivity_run)."""
from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from reports.pages import plots, toolkit
from reports.pages.toolkit import report_main, report_write_errors, setting_text, writable_output
from reports.analysis import players
from reports.analysis.sensitivity_study import (COMPLETE, SETTINGS, InputRecord, SensitivitySettings, Verdict,
                                                read_settings)
from reports.analysis.studies import read_parquet_table
from reports.analysis.units import RATE, number, scale, unit_word, with_unit
from sim.core.engine import ConfigError

__all__ = ["write_sensitivity_report", "main"]

# the layout of a sensitivity directory (sim/studies/sensitivity.py writes these names; sensitivity.yaml:
# reports.analysis.sensitivity_study)
POINTS = "points.parquet"
MORRIS = "morris.parquet"
CONCLUSIONS = "conclusions.parquet"
TEMPLATE = "sensitivity.html.j2"
ROBUST, FRAGILE = "robust", "fragile"
BEST_OF = ("best_seat", "strongest_bot")
MAX_LINES = 8            # lines per panel before the rest only go to the CSV
PANEL_COLUMNS = 3        # panels per row of a figure
VERDICT_COLOURS = {ROBUST: "#1d7a1d", FRAGILE: "#a5321c"}
POINT_COLUMNS = {"point": "str", "phase": "str", "trajectory": "float", "varied_input": "str", "metric": "str",
                 "metric_label": "str", "group": "str", "unit": "str", "n_players": "int", "value": "float",
                 "low": "float", "high": "float", "games": "int"}
MORRIS_COLUMNS = {"conclusion": "int", "conclusion_text": "str", "n_players": "int", "input": "str",
                  "assumption": "str", "mu": "float", "mu_star": "float", "sigma": "float", "mu_star_conf": "float",
                  "noise": "float", "matters": "bool"}
CONCLUSION_COLUMNS = {"conclusion": "int", "text": "str", "kind": "str", "n_players": "int", "verdict": "str",
                      "points": "int", "failing_points": "int", "failing_screening_points": "int",
                      "flip_input": "str", "flip_assumption": "str", "flip_value": "str", "flip_score": "float",
                      "within_noise": "bool", "sentence": "str"}


# --- the parquet tables ---------------------------------------------------------------------------

def read_study_table(path: Path, columns: dict[str, str], what: str) -> pd.DataFrame:
    """A table of the study (reports.analysis.studies.read_parquet_table), with rows."""
    table = read_parquet_table(path, columns, what, "run `courtsim sensitivity GAME` first")
    if table.empty:
        raise ConfigError(f"{path}: expected rows, found none")
    return table


def read_points(directory: Path, settings: SensitivitySettings) -> pd.DataFrame:
    """points.parquet: the fixed columns and one per input (numbers, or option names as text)."""
    columns = dict(POINT_COLUMNS) | {entry.name: "float" if entry.numeric else "str" for entry in settings.inputs}
    table = read_study_table(Path(directory) / POINTS, columns, "design points table")
    for entry in settings.inputs:
        if not entry.numeric:
            table[entry.name] = table[entry.name].map(setting_text)
    return table


def read_morris(directory: Path) -> pd.DataFrame:
    return read_study_table(Path(directory) / MORRIS, MORRIS_COLUMNS, "Morris screening table")


def read_conclusions(directory: Path) -> pd.DataFrame:
    table = read_study_table(Path(directory) / CONCLUSIONS, CONCLUSION_COLUMNS, "conclusions table")
    unknown = set(table["verdict"]) - {ROBUST, FRAGILE}
    if unknown:
        raise ConfigError(f"{Path(directory) / CONCLUSIONS}: column 'verdict': expected robust or fragile "
                          f"(found {sorted(map(str, unknown))[0]!r})")
    return table


# --- conclusions and the metrics they speak of --------------------------------------------------------

def fragile_first(verdicts: list) -> list:
    """Fragile conclusions first (what a designer must look at), each group in study order."""
    return sorted(verdicts, key=lambda verdict: verdict.verdict != FRAGILE)


def conclusion_metrics(conclusion, points: pd.DataFrame) -> tuple[list[str], float | None]:
    """The metrics a conclusion compares at its player count (every player's or bot's win rate, or
    the thresholded metric) and the threshold, if any."""
    present = list(dict.fromkeys(points.loc[points["n_players"] == conclusion.n_players, "metric"]))
    if conclusion.kind == "best_seat":
        return [metric for metric in present if players.is_player_win_rate(metric)], None
    if conclusion.kind == "strongest_bot":
        return [metric for metric in present if metric.startswith("bot_win_rate:")], None
    return ([conclusion.metric] if conclusion.metric in present else []), conclusion.threshold


def conclusion_unit(conclusion, points: pd.DataFrame) -> str:
    """The unit of a conclusion's score: a rate for best-of conclusions, the metric's own otherwise."""
    metrics, _ = conclusion_metrics(conclusion, points)
    if conclusion.kind in BEST_OF or not metrics:
        return RATE
    return str(points.loc[points["metric"] == metrics[0], "unit"].iloc[0])


def score_text(value: float | None, unit: str) -> str:
    """A conclusion's score in the designer's units: -4.2 points for a rate, -3.1 turns otherwise."""
    if value is None or not np.isfinite(value):
        return "—"
    digits = 1 if unit == RATE else 2
    return with_unit(number(value * scale(unit), digits, sign=True), unit)


def inputs_by_name(settings: SensitivitySettings) -> dict[str, InputRecord]:
    return {entry.name: entry for entry in settings.inputs}


def walked_inputs(points: pd.DataFrame, settings: SensitivitySettings) -> list[InputRecord]:
    """The inputs walked one at a time (those that mattered for some conclusion), in plan order."""
    walked = set(points.loc[points["phase"] == "oat", "varied_input"].dropna())
    return [entry for entry in settings.inputs if entry.name in walked]


def input_order(entry: InputRecord, values) -> list:
    """An input's values along its axis: numbers ascending, options in the plan's order."""
    present = list(dict.fromkeys(values))
    if entry.numeric:
        return sorted(float(value) for value in present)
    named = [setting_text(option) for option in (entry.options or {})]
    return [value for value in named if value in present] + [value for value in present if value not in named]


def printed_setting(entry: InputRecord):
    """An input's printed value as points.parquet holds it (a float, or the first option's name)."""
    if entry.numeric:
        return float(entry.printed) if isinstance(entry.printed, (int, float)) else None
    return setting_text(entry.printed if entry.printed is not None else next(iter(entry.options or {"": None})))


# --- the figures ------------------------------------------------------------------------------------

def panel_grid(count: int):
    """A figure of ``count`` panels, PANEL_COLUMNS a row; the unused panels hidden."""
    columns = min(PANEL_COLUMNS, max(count, 1))
    rows = -(-max(count, 1) // columns)
    figure, axes = plots.new_figure(4.4 * columns + 0.6, 3.4 * rows + 0.4, ncols=columns, nrows=rows)
    flat = list(axes.flat)
    for ax in flat[count:]:
        ax.set_visible(False)
    return figure, flat[:count]


def panel_title(conclusion) -> str:
    return textwrap.fill(f"{conclusion.verdict.upper()}: {conclusion.text}", 48)


def morris_figure(rows: pd.DataFrame, conclusions: list, settings: SensitivitySettings, points: pd.DataFrame):
    """mu* of every input (bars with their confidence, labelled by assumption) for each conclusion
    at one player count; dark bars: the input matters; dotted line: the score's noise."""
    labels = {entry.name: f"{entry.assumption} {entry.words}" for entry in settings.inputs}
    figure, axes = panel_grid(len(conclusions))
    for ax, conclusion in zip(axes, conclusions):
        part = rows[rows["conclusion"] == conclusion.conclusion].iloc[::-1]
        unit = conclusion_unit(conclusion, points)
        factor = scale(unit)
        positions = np.arange(len(part))
        colours = ["#1f4fa8" if matters else "#a9b8d9" for matters in part["matters"]]
        ax.barh(positions, part["mu_star"].to_numpy(float) * factor,
                xerr=np.nan_to_num(part["mu_star_conf"].to_numpy(float) * factor), color=colours, capsize=3)
        ax.set_yticks(positions)
        ax.set_yticklabels([labels.get(name, name) for name in part["input"]], fontsize=8)
        noise = float(part["noise"].iloc[0]) * factor if len(part) else float("nan")
        if np.isfinite(noise):
            ax.axvline(noise, color="k", linestyle=":", linewidth=1)
        ax.set_xlabel(f"mu* of the score ({'points' if unit == RATE else unit_word(unit) or 'count'})", fontsize=8)
        ax.set_title(panel_title(conclusion), fontsize=8, color=VERDICT_COLOURS[conclusion.verdict])
        ax.grid(axis="x", alpha=0.3)
    return figure


def morris_table(rows: pd.DataFrame, settings: SensitivitySettings) -> pd.DataFrame:
    labels = {entry.name: entry.words for entry in settings.inputs}
    return rows.assign(input_label=rows["input"].map(labels))[
        ["n_players", "conclusion", "conclusion_text", "assumption", "input", "input_label", "mu", "mu_star",
         "sigma", "mu_star_conf", "noise", "matters"]]


def curve_rows(points: pd.DataFrame, entry: InputRecord) -> pd.DataFrame:
    """The points of one input's one-at-a-time curve: its walk and the printed point."""
    chosen = (points["phase"] == "printed") | ((points["phase"] == "oat") & (points["varied_input"] == entry.name))
    return points[chosen]


def curve_lines(rows: pd.DataFrame, entry: InputRecord, conclusion) -> list[tuple[str, pd.DataFrame]]:
    """(metric label, rows along the input) for each metric the conclusion compares."""
    metrics, _ = conclusion_metrics(conclusion, rows)
    order = {value: index for index, value in enumerate(input_order(entry, rows[entry.name]))}
    lines = []
    for metric in metrics:
        part = rows[(rows["metric"] == metric) & (rows["n_players"] == conclusion.n_players)]
        part = part.assign(_position=part[entry.name].map(order)).sort_values("_position").drop(columns="_position")
        if not part.empty:
            lines.append((str(part["metric_label"].iloc[0]), part))
    return lines


def curve_figure(rows: pd.DataFrame, entry: InputRecord, conclusions: list):
    """Each conclusion's metric(s) against one input's values (the others printed), with their
    intervals; dashed vertical line: the printed value; dotted horizontal line: the threshold."""
    figure, axes = panel_grid(len(conclusions))
    order = input_order(entry, rows[entry.name])
    positions = {value: (value if entry.numeric else index) for index, value in enumerate(order)}
    spacing = float(np.diff(sorted(positions.values())).min()) if len(positions) > 1 else 1.0
    printed = printed_setting(entry)
    for ax, conclusion in zip(axes, conclusions):
        lines = curve_lines(rows, entry, conclusion)[:MAX_LINES]
        step = 0.25 * spacing / max(len(lines), 1)
        for index, (label, part) in enumerate(lines):
            factor = scale(part["unit"].iloc[0])
            x = part[entry.name].map(positions).to_numpy(float) + (index - (len(lines) - 1) / 2) * step
            values = part["value"].to_numpy(float) * factor
            errors = np.clip(np.nan_to_num(np.vstack([values - part["low"].to_numpy(float) * factor,
                                                      part["high"].to_numpy(float) * factor - values])), 0, None)
            ax.errorbar(x, values, yerr=errors, marker="o", markersize=4, capsize=3, elinewidth=1,
                        color=plots.PALETTE[index % 10], linestyle="-" if entry.numeric else "none", label=label)
        _, threshold = conclusion_metrics(conclusion, rows)
        if threshold is not None and lines:
            ax.axhline(threshold * scale(lines[0][1]["unit"].iloc[0]), color="#a5321c", linestyle=":", linewidth=1)
        if printed in positions:
            ax.axvline(positions[printed], color="k", linestyle="--", linewidth=1)
        ax.set_xticks([positions[value] for value in order])
        ax.set_xticklabels([setting_text(value) for value in order], fontsize=8)
        ax.set_xlabel(f"{entry.words} ({entry.assumption})", fontsize=8)
        unit = lines[0][1]["unit"].iloc[0] if lines else RATE
        ax.set_ylabel("%" if unit == RATE else unit_word(unit) or "count", fontsize=8)
        ax.set_title(panel_title(conclusion), fontsize=8, color=VERDICT_COLOURS[conclusion.verdict])
        ax.grid(alpha=0.3)
        if len(lines) > 1:
            ax.legend(fontsize=7)
    return figure


def curve_table(rows: pd.DataFrame, entry: InputRecord, conclusions: list) -> pd.DataFrame:
    """The rows of one curve figure (every line, also those past MAX_LINES)."""
    parts = [part.assign(conclusion=conclusion.conclusion, conclusion_text=conclusion.text)
             for conclusion in conclusions for _, part in curve_lines(rows, entry, conclusion)]
    columns = ["conclusion", "conclusion_text", "n_players", "point", entry.name, "metric", "unit", "value", "low",
               "high", "games"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


def add_figures(store, settings: SensitivitySettings, points: pd.DataFrame, morris: pd.DataFrame,
                conclusions: list) -> tuple[list, list]:
    """The Morris figure of every player count and the curve of every walked input, into ``store``."""
    games = int(points["games"].max())
    morris_figures = []
    for n_players in sorted(set(morris["n_players"])):
        chosen = [conclusion for conclusion in conclusions if conclusion.n_players == n_players]
        rows = morris[morris["n_players"] == n_players]
        morris_figures.append(store.add(
            f"morris_{n_players}p", f"Which inputs move the conclusions at {n_players} players",
            morris_figure(rows, chosen, settings, points), morris_table(rows, settings),
            "Morris mu* (mean absolute elementary effect) of each input on each conclusion's score, with its "
            "bootstrap confidence; dark bars: the input matters (and was walked one at a time); dotted line: the "
            "score's noise (its median standard error). Rates in percentage points. Sigma (interactions or "
            "non-linearity) is in the CSV.", games, table_rows=20))
    curve_figures = []
    for entry in walked_inputs(points, settings):
        rows = curve_rows(points, entry)
        curve_figures.append(store.add(
            f"oat_{entry.name}", f"The conclusions against {entry.words} ({entry.assumption})",
            curve_figure(rows, entry, conclusions), curve_table(rows, entry, conclusions),
            f"Each conclusion's metric(s) at every value of {entry.words}, the other inputs at their printed "
            "values, with 95% intervals; dashed line: the printed value; dotted line: a conclusion's threshold. "
            "Rates in percent.", games, table_rows=20))
    return morris_figures, curve_figures


# --- the page's tables and paragraphs --------------------------------------------------------------

def headlines(settings: SensitivitySettings, conclusions: list) -> list[str]:
    """Every conclusion's verdict sentence, fragile ones first (after a note if the study is unfinished)."""
    lines = [] if settings.status == COMPLETE else [
        f"This sensitivity study is {settings.status} ({SETTINGS}): not every design point has been played, so the "
        "verdicts below may be a previous run's; run the same study again to finish it."]
    return lines + [conclusion.sentence for conclusion in fragile_first(conclusions)]


def verdict_rows(conclusions: list, points: pd.DataFrame, settings: SensitivitySettings) -> list[dict]:
    """The robust / fragile table: each conclusion, where it fails and the nearest flip."""
    by_name = inputs_by_name(settings)
    rows = []
    for conclusion in fragile_first(conclusions):
        entry = by_name.get(conclusion.flip_input) if conclusion.flip_input else None
        flip = "—"
        if conclusion.flip_input:
            flip = f"{entry.words if entry else conclusion.flip_input} = {conclusion.flip_value}"
        elif conclusion.verdict == FRAGILE:
            flip = "no single input (several moved at once)"
        rows.append({"text": conclusion.text, "players": conclusion.n_players, "verdict": conclusion.verdict,
                     "failing": f"{conclusion.failing_points} of {conclusion.points}",
                     "screening": conclusion.failing_screening_points,
                     "assumption": conclusion.flip_assumption or "", "flip": flip,
                     "score": score_text(conclusion.flip_score, conclusion_unit(conclusion, points))
                     if conclusion.flip_input else "—",
                     "noise": "" if conclusion.within_noise is None else ("yes" if conclusion.within_noise else "no")})
    return rows


def range_text(entry: InputRecord) -> str:
    """``-1 to 1 (whole numbers)``, or the options (the first is the printed data)."""
    if not entry.numeric:
        return ", ".join(setting_text(option) for option in (entry.options or {}))
    whole = " (whole numbers)" if entry.integer else ""
    return f"{setting_text(entry.low)} to {setting_text(entry.high)}{whole}"


def input_rows(settings: SensitivitySettings, morris: pd.DataFrame, points: pd.DataFrame) -> list[dict]:
    """The inputs table: assumption, words, range or options, printed, why, and how screening read it."""
    walked = {entry.name for entry in walked_inputs(points, settings)}
    rows = []
    for entry in sorted(settings.inputs, key=assumption_order):
        mattering = morris[(morris["input"] == entry.name) & morris["matters"].astype(bool)]
        paths = [path for kind in ("set", "shift", "scale") for path in entry.paths.get(kind, [])]
        rows.append({"assumption": entry.assumption, "name": entry.name, "label": entry.words,
                     "kind": entry.kind, "range": range_text(entry),
                     "printed": setting_text(printed_setting(entry)), "why": entry.why,
                     "paths": paths, "matters": f"{mattering['conclusion'].nunique()} of {morris['conclusion'].nunique()}",
                     "walked": "yes" if entry.name in walked else "no"})
    return rows


def assumption_order(entry) -> tuple[str, int]:
    """A2 before A10 (assumptions are numbered)."""
    digits = re.sub(r"\D", "", entry.assumption)
    return entry.assumption[:1], int(digits) if digits else 0


def method_paragraphs(settings: SensitivitySettings, points: pd.DataFrame) -> list[str]:
    """How the study was played and judged, in plain words."""
    method = settings.method
    inputs = len(settings.inputs)
    trajectories = method.trajectories or int(points.loc[points["phase"] == "morris", "trajectory"].nunique())
    screening = int(points.loc[points["phase"] == "morris", "point"].nunique())
    oat = int(points.loc[points["phase"] == "oat", "point"].nunique())
    per_matchup = f" ({settings.games_per_matchup:,} per match-up and seating)" if settings.games_per_matchup else ""
    share = f"{method.matter_share:.0%}" if method.matter_share is not None else "a share"
    levels = f" on a {method.levels}-level grid" if method.levels else ""
    sampler = f", sampler seed {method.sampler_seed}" if method.sampler_seed is not None else ""
    return [
        f"Screening: {method.screening}. With D = {inputs} inputs and r = {trajectories} trajectories the design has "
        f"r (D + 1) = {trajectories * (inputs + 1)} points ({screening} played){levels}{sampler}, plus the printed "
        "data's point. Each step of a trajectory moves one input, so the change of a conclusion's score over that "
        "step is an elementary effect of that input; mu* is the mean of their absolute values (how far the input "
        "moves the score), sigma their spread (interactions or a non-linear effect).",
        "Common random numbers. Every design point plays the same seed"
        + (f" ({settings.seed})" if settings.seed is not None else "")
        + f" and the same game indices{per_matchup}, so every source of chance the inputs do not touch draws the "
        "same numbers at every point: game luck is not mistaken for sensitivity, and an effect smaller than one "
        "point's interval can still be seen." + (f" ({method.pairing}.)" if method.pairing else ""),
        f"What matters: an input matters for a conclusion when its mu* is at least {share} of the largest mu* for "
        "that conclusion and not below the score's noise (the median standard error of the score over the "
        f"screening points). Each input that matters for some conclusion was walked one at a time over its range "
        f"({method.oat_levels or 'a few'} values, or every option), the other inputs at their printed values: "
        f"{oat} more points.",
        "Verdicts: a conclusion is stated at the printed data and scored at every point by its margin (the player "
        "who wins most or the strongest bot: its win rate minus the best other's; a threshold: the metric's "
        "distance from it on the printed side), so it holds where the score is positive. Robust: it holds at every "
        "point played. Fragile: "
        "it fails at some point; the report names the one-at-a-time input and value nearest the printed data "
        "where it fails (the nearest flip), with the score there. Within the noise: the score's 95% interval at "
        "that flip reaches 0, so more games could reverse the failure.",
    ]


def meta_line(settings: SensitivitySettings, points: pd.DataFrame, directory: Path) -> str:
    players = ", ".join(str(n) for n in sorted(set(settings.players or points["n_players"])))
    games = points["games"]
    games_text = f"{games.min():,}" if games.min() == games.max() else f"{games.min():,} to {games.max():,}"
    return (f"Sensitivity study {directory} ({settings.name})"
            + (f" · experiment {settings.experiment_file}" if settings.experiment_file else "")
            + f" · game {settings.game} · players {players}"
            + (f" · bots {', '.join(settings.bots)}" if settings.bots else "")
            + f" · {points['point'].nunique()} design points of {games_text} games"
            + (f" · seed {settings.seed}" if settings.seed is not None else "")
            + (f" · created {settings.created}" if settings.created else ""))


def write_sensitivity_report(directory: Path, out: Path | None = None) -> Path:
    """Write the sensitivity report of ``directory`` (default ``directory/report.html``) and its
    ``<stem>_files/`` (PNG + CSV per figure, the verdicts as CSV). ConfigError (one line naming
    the path) for a missing or malformed sensitivity.yaml, points.parquet, morris.parquet or
    conclusions.parquet, or an output that cannot be written."""
    directory = Path(directory)
    settings = read_settings(directory)
    points = read_points(directory, settings)
    morris = read_morris(directory)
    table = read_conclusions(directory)
    conclusions = [Verdict.model_validate(row) for row in table.replace({np.nan: None}).to_dict("records")]
    out = Path(out) if out is not None else directory / "report.html"
    store = writable_output(out)
    with report_write_errors(out):
        morris_figures, curve_figures = add_figures(store, settings, points, morris, conclusions)
        verdicts_file = store.directory / "sensitivity_conclusions.csv"
        table.to_csv(verdicts_file, index=False)
        text = toolkit.render_template(
            TEMPLATE, title=f"{toolkit.game_title(settings.game)}: do the conclusions survive the unprinted data?",
            meta=meta_line(settings, points, directory), description=settings.description or "",
            headlines=headlines(settings, conclusions), verdicts=verdict_rows(conclusions, points, settings),
            inputs=input_rows(settings, morris, points),
            not_varied=sorted(settings.not_varied, key=assumption_order),
            morris_figures=morris_figures, curve_figures=curve_figures, method=method_paragraphs(settings, points),
            files=[verdicts_file.name], files_directory=store.directory.name)
        return toolkit.write(out, text)


def main(arguments: list[str] | None = None) -> int:
    return report_main(write_sensitivity_report, "python -m reports.pages.sensitivity_report", __doc__.splitlines()[0],
                       "the output directory of `courtsim sensitivity`", arguments)


if __name__ == "__main__":
    sys.exit(main())
