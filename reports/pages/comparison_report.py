"""The rule-comparison report: ``DIR/report.html`` from the two files ``courtsim compare``
writes, ``DIR/comparison.parquet`` (one row per metric, player count and variant) and
``DIR/comparison.yaml`` (the variants, their overrides and the method).

A game designer asking "what does this rule change do?" reads it: headline sentences for the
real differences, a forest plot of every difference against the margin, the variants' changes
and rationale, the metrics that did not move, the full table and the method in plain words.
Self-contained like the balance report (inline PNG, no scripts, nothing from the network); the
plot's data and the full table are also written as CSV into ``<report stem>_files/``.

``python -m reports.pages.comparison_report DIR [--out PATH] [--screenshot PNG]`` writes it (and a
screenshot of its top taken in headless Chromium, for docs/compare_report.png)."""
from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import matplotlib.lines
import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from reports.pages import plots, toolkit
from reports.pages.toolkit import report_main, report_write_errors, writable_output
from reports.analysis.studies import read_parquet_table, read_study_settings
from reports.analysis.units import RATE, decimals, number, scale, unit_word, with_unit
from sim.core.engine import ConfigError

TABLE = "comparison.parquet"
SETTINGS = "comparison.yaml"
TEMPLATE = "comparison.html.j2"
REAL, NOT_RESOLVED, SMALLER = "real", "not resolved", "smaller than the margin"
VERDICTS = (REAL, NOT_RESOLVED, SMALLER)
VERDICT_COLOURS = {REAL: "#c23b22", NOT_RESOLVED: "#e69f00", SMALLER: "#8c8c8c"}
GROUPS = ("seats", "bots", "scores", "outcome", "arc", "mechanics")
MAX_HEADLINES = 12
# A description longer than this reads badly as the subject of a headline: the name is used.
SUBJECT_LENGTH = 80
COLUMNS = {"metric": "str", "metric_label": "str", "group": "str", "unit": "str", "n_players": "int",
           "variant": "str", "baseline_value": "float", "variant_value": "float", "difference": "float",
           "low": "float", "high": "float", "p_value": "float", "p_adjusted": "float", "verdict": "str",
           "crn_gain": "float", "games": "int", "margin": "float"}
ADJUSTMENTS = {
    "holm": ("Holm's step-down correction", "family-wise",
             "the chance that even one difference in the whole table is called real although the rule "
             "change does nothing to it stays at or below alpha"),
    "fdr_bh": ("the Benjamini-Hochberg correction", "false discovery rate",
               "among the differences called real, at most a share alpha are expected to be flukes "
               "(a weaker promise than Holm's, so more differences pass)"),
}


class Change(BaseModel):
    """A value the variant sets: a game-file path (``path``) or a rule switch (``name``)."""
    model_config = ConfigDict(extra="ignore")
    path: str | None = None
    name: str | None = None
    printed: Any = None
    value: Any = None


class Variant(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str
    label: str | None = None          # the change in a few words, for headlines (the name if none)
    description: str = ""             # the one-line rationale
    file: str | None = None
    extends: list[str] = Field(default_factory=list)
    overrides: list[Change] = Field(default_factory=list)
    rules: list[Change] = Field(default_factory=list)

    @property
    def subject(self) -> str:
        """Who does it in a headline: the label ("Keeping the 12-point token"). courtsim compare
        writes the name as the label of a variant file without one: then the name, since the
        description is a rationale, not a subject. Without a label key at all, the description if
        it is a short phrase, else the name."""
        text = (self.label if self.label is not None else self.description).strip().rstrip(".").strip()
        if text and text != self.name and len(text) <= SUBJECT_LENGTH:
            return text[0].upper() + text[1:]
        return f"The variant {self.name}"


class Baseline(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str = "printed rules"
    label: str | None = None
    description: str = ""


class Method(BaseModel):
    model_config = ConfigDict(extra="ignore")
    confidence: float = 0.95
    adjustment: str = "holm"
    alpha: float = 0.05
    margin: float | None = None
    until_resolved: bool = False
    metrics: list[str] = Field(default_factory=list)
    games_per_batch: int | None = None
    batches: int | None = None
    max_games: int | None = None
    seed: int | None = None


class Decision(BaseModel):
    model_config = ConfigDict(extra="ignore")
    metric: str
    n_players: int
    variant: str
    decision: str
    games: int


class ComparisonSettings(BaseModel):
    """comparison.yaml as ``courtsim compare`` writes it (keys it may add later are ignored)."""
    model_config = ConfigDict(extra="ignore")
    courtsim_comparison: int
    status: str = "complete"          # "incomplete" while courtsim compare is still playing (or was stopped)
    game: str
    experiment: str = ""
    players: list[int] = Field(default_factory=list)
    baseline: Baseline = Field(default_factory=Baseline)
    variants: list[Variant] = Field(default_factory=list)
    method: Method = Field(default_factory=Method)
    sequential: list[Decision] | None = None
    created: str | datetime | None = None


# --- reading the two files ----------------------------------------------------------------------

def read_settings(directory: Path) -> ComparisonSettings:
    return read_study_settings(directory / SETTINGS, ComparisonSettings, "comparison", "courtsim_comparison")


def read_table(directory: Path) -> pd.DataFrame:
    """comparison.parquet as pandas, its columns checked against the contract with ``courtsim compare``."""
    path = directory / TABLE
    table = read_parquet_table(path, COLUMNS, "comparison table", "run `courtsim compare` first")
    if table.empty:
        raise ConfigError(f"{path}: expected one row per metric, player count and variant, found no rows")
    unknown = sorted(set(table["verdict"]) - set(VERDICTS))
    if unknown:
        raise ConfigError(f"{path}: column 'verdict': expected one of {', '.join(VERDICTS)} (found {unknown[0]!r})")
    return table


# --- numbers in the designer's units -------------------------------------------------------------

class Shown:
    """One row's numbers as text: the values, the difference and its interval, in its unit."""

    def __init__(self, row):
        self.unit = row.unit
        factor = scale(row.unit)
        self.digits = decimals((row.high - row.low) * factor, 1 if row.unit == RATE else 0)
        self.baseline = self.value(row.baseline_value)
        self.variant = self.value(row.variant_value)
        self.difference = number(row.difference * factor, self.digits, sign=True)
        self.interval = f"[{number(row.low * factor, self.digits)}, {number(row.high * factor, self.digits)}]"
        self.margin = number(row.margin * factor, self.digits)

    def value(self, value: float) -> str:
        """54.1% for a rate, 48.2 points for a score."""
        text = self.bare(value)
        return text if self.unit == RATE else with_unit(text, self.unit)

    def bare(self, value: float) -> str:
        """54.1% for a rate, 48.2 for a score (the table says the unit once, in its own column)."""
        text = number(value * scale(self.unit), self.digits)
        return text + "%" if self.unit == RATE and text != "n/a" else text

    def difference_with_interval(self) -> str:
        """``-2.8 points [-3.4, -2.2]`` (the unit after the difference, the interval in the same unit)."""
        return f"{with_unit(self.difference, self.unit)} {self.interval}"


def p_text(p: float) -> str:
    if p is None or not np.isfinite(p):
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def gain_text(gain: float) -> str:
    return "n/a" if gain is None or not np.isfinite(gain) else f"{gain:.1f}×"


# --- the sentences --------------------------------------------------------------------------------

def headline(row, subjects: dict[str, str]) -> str:
    """"Keeping the 12-point token in 2-player games moves the first player's win rate from 54.1% to 51.3%:
    -2.8 points [-3.4, -2.2], real"."""
    shown = Shown(row)
    return (f"{subject(row.variant, subjects)} in {row.n_players}-player games moves {row.metric_label} "
            f"from {shown.baseline} to {shown.variant}: {shown.difference_with_interval()}, {row.verdict}")


def group_order(groups) -> list[str]:
    """The groups a designer asks about first (seats, bots, scores, outcome, mechanics), then others."""
    present = set(groups)
    return [group for group in GROUPS if group in present] + sorted(present - set(GROUPS))


def headline_order(table: pd.DataFrame) -> pd.DataFrame:
    """Rows by what a designer asks first: by group (seats before mechanics), rates before other
    units within a group, then the largest |difference| in margins first (for rates, whose margin
    is the same points everywhere, the largest |difference|). |difference| alone cannot rank a
    rate against a score, and against its margin alone a count near zero (a margin relative to a
    tiny baseline) would top the list."""
    margin = table["margin"].where(table["margin"] > 0)
    keys = pd.DataFrame({"group": table["group"].map({group: rank for rank, group in enumerate(group_order(table["group"]))}),
                         "not_rate": table["unit"] != RATE,
                         "size": -(table["difference"].abs() / margin).fillna(table["difference"].abs())},
                        index=table.index)
    return table.loc[keys.sort_values(["group", "not_rate", "size"], kind="stable").index]


def headlines(table: pd.DataFrame, settings: ComparisonSettings) -> list[str]:
    """One sentence per real difference in :func:`headline_order` (at most MAX_HEADLINES), then one per
    variant that moved nothing; if nothing at all is real, that is said plainly."""
    subjects = {variant.name: variant.subject for variant in settings.variants}
    real = table[table["verdict"] == REAL]
    real = headline_order(real)
    lines = [] if settings.status == "complete" else [
        f"This comparison is {settings.status} (comparison.yaml): courtsim compare has not finished its batches, "
        "so the numbers below are not its final ones; run the same command again to finish it."]
    lines += [headline(row, subjects) + "." for row in real.head(MAX_HEADLINES).itertuples()]
    if len(real) > MAX_HEADLINES:
        lines.append(f"… and {len(real) - MAX_HEADLINES} more real differences, smaller ones: see the full table.")
    counts = table["verdict"].value_counts()
    if real.empty:
        lines.append(f"No rule change made a real difference to any metric: of the {len(table)} comparisons, "
                     f"{counts.get(SMALLER, 0)} are smaller than the margin and {counts.get(NOT_RESOLVED, 0)} "
                     "are not resolved (more games could still show a difference there).")
        return lines
    for variant in variant_order(table, settings):
        part = table[table["variant"] == variant]
        if not part.empty and not (part["verdict"] == REAL).any():
            lines.append(f"{subject(variant, subjects)} makes no real difference to any of the "
                         f"{part['metric'].nunique()} metrics at {players_text(part['n_players'])} players.")
    return lines


def subject(variant: str, subjects: dict[str, str]) -> str:
    """A variant's headline subject (:attr:`Variant.subject`; its name if only the table names it)."""
    return subjects.get(variant, f"The variant {variant}")


def players_text(counts) -> str:
    counts = sorted(set(int(n) for n in counts))
    return ", ".join(str(n) for n in counts[:-1]) + (" or " if len(counts) > 1 else "") + str(counts[-1])


def variant_order(table: pd.DataFrame, settings: ComparisonSettings) -> list[str]:
    """The variants in comparison.yaml's order, then any only the table names."""
    named = [variant.name for variant in settings.variants]
    return named + [name for name in dict.fromkeys(table["variant"]) if name not in named]


# --- the forest plot ------------------------------------------------------------------------------

def forest_panels(table: pd.DataFrame) -> list[tuple[str, str, pd.DataFrame]]:
    """(group, unit, rows in display units) for each group and unit: one x axis per panel."""
    panels = []
    for group in group_order(table["group"]):
        part = table[table["group"] == group]
        for unit in dict.fromkeys(part["unit"]):
            # metrics in the order the table first names them, each one's player counts together
            rows = part[part["unit"] == unit].copy()
            rows["metric"] = pd.Categorical(rows["metric"], list(dict.fromkeys(part["metric"])))
            rows = rows.sort_values(["metric", "n_players"], kind="stable")
            rows["row"] = rows["metric_label"] + " (" + rows["n_players"].astype(str) + "p)"
            factor = scale(unit)
            for column in ("difference", "low", "high", "margin"):
                rows[column] = rows[column] * factor
            panels.append((group, unit, rows))
    return panels


def axis_label(unit: str) -> str:
    return "difference (percentage points)" if unit == RATE else f"difference ({unit})"


def forest_figure(table: pd.DataFrame, variants: list[str]):
    panels = forest_panels(table)
    heights = [rows["row"].nunique() + 1.5 for _, _, rows in panels]
    figure, axes = plots.new_figure(9.0, 0.3 * sum(heights) + 1.0, nrows=len(panels),
                                    gridspec_kw={"height_ratios": heights})
    split = {group for group, _, _ in panels if sum(other == group for other, _, _ in panels) > 1}
    for ax, (group, unit, rows) in zip(axes[:, 0], panels):
        rows = rows.assign(variant=pd.Categorical(rows["variant"], variants))
        plots.forest(rows.sort_values("variant", kind="stable"), "row", "variant", "difference", "low", "high",
                     "margin", "verdict", VERDICT_COLOURS, title=f"{group} ({unit})" if group in split else group,
                     xlabel=axis_label(unit), ax=ax)
    verdicts = [matplotlib.lines.Line2D([], [], color=colour, marker="o", linestyle="", label=verdict)
                for verdict, colour in VERDICT_COLOURS.items()]
    verdicts.append(matplotlib.lines.Line2D([], [], color="0.45", linestyle="--", label="± margin"))
    markers = plots.FOREST_MARKERS
    shapes = [matplotlib.lines.Line2D([], [], color="black", marker=markers[i % len(markers)], markerfacecolor="white",
                                      linestyle="", label=name) for i, name in enumerate(variants)]
    figure.legend(handles=verdicts, loc="outside upper left", ncols=2, fontsize=8, title="verdict", title_fontsize=8)
    figure.legend(handles=shapes, loc="outside upper right", ncols=1, fontsize=8, title="variant", title_fontsize=8)
    return figure


def forest_table(table: pd.DataFrame) -> pd.DataFrame:
    columns = ["group", "metric", "n_players", "variant", "unit", "difference", "low", "high", "margin", "verdict"]
    return pd.concat([rows[columns] for _, _, rows in forest_panels(table)], ignore_index=True)


# --- the page's parts -----------------------------------------------------------------------------

def table_rows(part: pd.DataFrame) -> list[dict]:
    rows = []
    for row in part.itertuples():
        shown = Shown(row)
        rows.append({"metric": row.metric_label, "name": row.metric, "players": row.n_players,
                     "baseline": shown.bare(row.baseline_value), "variant": shown.bare(row.variant_value),
                     "difference": f"{shown.difference} {shown.interval}", "unit": unit_word(row.unit) or "—",
                     "p": p_text(row.p_value), "p_adjusted": p_text(row.p_adjusted), "verdict": row.verdict,
                     "crn_gain": gain_text(row.crn_gain), "games": f"{int(row.games):,}",
                     "margin": shown.margin})
    return rows


def by_variant_and_players(table: pd.DataFrame, variants: list[str]):
    """(variant, player count, its rows in the table's metric order) for each pair present."""
    for variant in variants:
        part = table[table["variant"] == variant]
        for n_players in sorted(part["n_players"].unique()):
            yield variant, int(n_players), part[part["n_players"] == n_players]


def verdict_lists(table: pd.DataFrame, variants: list[str]) -> tuple[list[dict], list[dict]]:
    """The metrics that did not move (labels only) and the ones not resolved (with their
    difference and interval, to show how far from either verdict they are)."""
    unchanged, unresolved = [], []
    for variant, n_players, part in by_variant_and_players(table, variants):
        smaller = part[part["verdict"] == SMALLER]
        if not smaller.empty:
            unchanged.append({"variant": variant, "players": n_players, "metrics": list(smaller["metric_label"])})
        open_rows = part[part["verdict"] == NOT_RESOLVED]
        if not open_rows.empty:
            unresolved.append({"variant": variant, "players": n_players, "metrics": [
                f"{row.metric_label} ({Shown(row).difference_with_interval()})" for row in open_rows.itertuples()]})
    return unchanged, unresolved


def shown_setting(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def variant_views(settings: ComparisonSettings, table: pd.DataFrame) -> list[dict]:
    views = []
    for variant in settings.variants:
        part = table[table["variant"] == variant.name]
        views.append({
            "name": variant.name, "label": variant.label if variant.label != variant.name else None,
            "description": variant.description, "file": variant.file, "extends": variant.extends,
            "overrides": [{"path": change.path or change.name or "?", "printed": shown_setting(change.printed),
                           "value": shown_setting(change.value)} for change in variant.overrides],
            "rules": [{"name": change.name or change.path or "?", "printed": shown_setting(change.printed),
                       "value": shown_setting(change.value)} for change in variant.rules],
            "real": int((part["verdict"] == REAL).sum()), "rows": len(part)})
    return views


def method_paragraphs(settings: ComparisonSettings, table: pd.DataFrame) -> list[str]:
    method = settings.method
    gains = table["crn_gain"].to_numpy(float)
    finite = gains[np.isfinite(gains)]
    gain_summary = (f" In this comparison the CRN gain ranges from {finite.min():.1f} to {finite.max():.1f} "
                    f"(median {np.median(finite):.1f})" if finite.size else " No CRN gain could be computed here")
    missing = int((~np.isfinite(gains)).sum())
    gain_summary += (f"; it is n/a for {missing} row(s), where the paired differences have no variance "
                     "(e.g. a metric the rule change cannot touch)." if missing else ".")
    adjustment_name, family, promise = ADJUSTMENTS.get(
        method.adjustment, (f"the {method.adjustment} correction", method.adjustment, "see statsmodels' multipletests"))
    margin = " (each row's margin, in its own unit, is in the full table)"
    if method.margin is not None:
        points = method.margin * 100
        margin = (f" (here {points:g} percentage point{'' if points == 1 else 's'} for rates; each row's margin, "
                  "in its own unit, is in the full table)")
    confidence = f"{method.confidence:.0%}"
    return [
        "Common random numbers. Every variant was played on the same games as the baseline: the same experiment "
        "seed and the same game indices, so every source of chance the rule change does not touch (shuffles, "
        "dice, bots' random choices) draws the same numbers. Game i under a variant starts like game i under the "
        f"baseline ({settings.baseline.label or settings.baseline.name}) and differs only where the change "
        "bites, so each difference is the mean of paired per-game differences, compared within one player count "
        "only.",
        "CRN gain = (variance under the baseline + variance under the variant) / variance of the paired "
        "differences: how many times fewer games the paired comparison needs than two independent runs for the "
        "same precision. A gain of 4 means these games are worth four times as many unpaired ones; a gain near 1 "
        "means the change reshuffles the games so much that pairing does not help, and below 1 the two arms moved in "
        "opposite directions game by game (pairing cost precision)." + gain_summary,
        f"Interval: the {confidence} confidence interval of the mean paired difference, from the paired games "
        "(the games column). Rates are shown in percent and their differences in percentage points; other metrics "
        "in their own unit. Where fewer than 30 paired games differ at all, the t interval would rest on games "
        "that could not vary: the interval then bounds the share of games that moved up and down (Wilson score "
        "intervals, combined by MOVER: Newcombe 1998, Zou & Donner 2008) times the most one game moved, so "
        "identical games show an interval of about 3.84 / games, not [0, 0].",
        f"Many comparisons at once: the table holds {len(table)} tests, and at alpha = {method.alpha:g} about "
        f"{len(table) * method.alpha:.0f} would look real by chance alone. The p-values are therefore adjusted over "
        f"the whole table with {adjustment_name} ({method.adjustment}: {family}): {promise}. The p adjusted column "
        "is the one the verdict uses.",
        f"Verdicts. Smaller than the margin: the whole {confidence} interval lies inside ± the margin{margin}, so "
        "whatever the change does to this metric is too small to matter. Real: otherwise, if the adjusted p-value "
        f"is below alpha = {method.alpha:g} (the difference is not zero; its size is the interval). "
        "Not resolved: neither; more games would narrow the interval.",
    ] + sequential_paragraphs(settings)


def sequential_paragraphs(settings: ComparisonSettings) -> list[str]:
    method = settings.method
    size = f" of {method.games_per_batch:,} games" if method.games_per_batch else ""
    per_rule_set = " per rule set (every match-up and seating of the experiment)"
    if not method.until_resolved:
        count = f"{method.batches} batch{'' if method.batches == 1 else 'es'}" if method.batches else "batches"
        return [f"Fixed number of games: {count}{size}{per_rule_set}, decided once at the end; the paired games of "
                "each comparison (one player count) are in the games column."]
    cap = f", at most {method.max_games:,} games per rule set" if method.max_games else ""
    metrics = f" ({', '.join(method.metrics)})" if method.metrics else ""
    decided = len(settings.sequential or [])
    return [f"Played until resolved, in batches{size}{per_rule_set}{cap}: after every batch each requested difference"
            f"{metrics} was tested again, on all its paired games so far, with a generalised sequential probability "
            "ratio test (GSPRT, as chess-engine testing uses): two one-sided tests of no difference against a "
            "difference of + the margin and of − the margin, alpha = beta = 0.05. Alpha is shared out over the "
            f"{decided or 'requested'} requested differences (Bonferroni), so the chance that any of them is called "
            "real although the change does nothing to it is at most 5%; each difference as large as the margin is "
            "called smaller than the margin at most 5% of the time. Unlike repeating a fixed test after each batch "
            "(which would call far more than 5% of no-effect changes real), this may stop at any batch. "
            "The games each decision took are in the table below; a variant whose requested differences are all "
            "decided plays no further batch."]


def sequential_rows(settings: ComparisonSettings, table: pd.DataFrame) -> list[dict]:
    labels = dict(zip(table["metric"], table["metric_label"]))
    return [{"metric": labels.get(entry.metric, entry.metric), "players": entry.n_players,
             "variant": entry.variant, "games": f"{entry.games:,}",
             "decision": "undecided when play stopped" if entry.decision == "continue" else entry.decision}
            for entry in (settings.sequential or [])]


def meta_line(settings: ComparisonSettings, table: pd.DataFrame, directory: Path) -> str:
    games = table["games"]
    games_text = f"{games.min():,}" if games.min() == games.max() else f"{games.min():,} to {games.max():,}"
    players = ", ".join(str(n) for n in sorted(set(settings.players or table["n_players"])))
    baseline = (settings.baseline.label or settings.baseline.name) + (
        f" ({settings.baseline.description})" if settings.baseline.description else "")
    created = (f" · seed {settings.method.seed}" if settings.method.seed is not None else "") + (
        f" · created {settings.created}" if settings.created else "")
    return (f"Comparison {directory}" + (f" (experiment {settings.experiment})" if settings.experiment else "")
            + f" · game {settings.game} · players {players} · baseline: {baseline} · "
            f"{table['variant'].nunique()} variant(s) · {games_text} paired games per comparison{created}")


def write_comparison_report(directory: Path, out: Path | None = None) -> Path:
    """Write the comparison report of ``directory`` (default ``directory/report.html``) and its
    ``<stem>_files/`` (forest plot PNG + CSV, the full table as CSV). ConfigError (one line naming
    the path) for a missing or malformed comparison.yaml or comparison.parquet, or an output
    that cannot be written."""
    directory = Path(directory)
    settings = read_settings(directory)
    table = read_table(directory)
    out = Path(out) if out is not None else directory / "report.html"
    store = writable_output(out)
    variants = variant_order(table, settings)
    with report_write_errors(out):
        figure = store.add("comparison_forest", "Every difference against the margin",
                           forest_figure(table, variants), forest_table(table),
                           "Paired difference (variant minus baseline) of each metric with its "
                           f"{settings.method.confidence:.0%} interval; solid line: no difference; dashed ticks: "
                           "± the row's margin; colour: verdict; marker: variant. Rates in percentage points.",
                           int(table["games"].max()), table_rows=20)
        full_table = store.directory / "comparison_table.csv"
        table.to_csv(full_table, index=False)
        unchanged, unresolved = verdict_lists(table, variants)
        text = toolkit.render_template(
            TEMPLATE, title=f"{toolkit.game_title(settings.game)} rule comparison",
            meta=meta_line(settings, table, directory),
            headlines=headlines(table, settings), variants=variant_views(settings, table), figure=figure,
            unchanged=unchanged, unresolved=unresolved, method=method_paragraphs(settings, table),
            sequential=sequential_rows(settings, table), baseline=settings.baseline,
            tables=[{"variant": variant, "players": n_players, "rows": table_rows(part)}
                    for variant, n_players, part in by_variant_and_players(table, variants)],
            files=[figure.png.name, figure.csv.name, full_table.name], files_directory=store.directory.name)
        return toolkit.write(out, text)


def main(arguments: list[str] | None = None) -> int:
    return report_main(write_comparison_report, "python -m reports.pages.comparison_report", __doc__.splitlines()[0],
                       "the --out directory of `courtsim compare`", arguments)


if __name__ == "__main__":
    sys.exit(main())
