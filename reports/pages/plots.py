"""Matplotlib (Agg) figure helpers: bars with interval whiskers, heat-maps, stacked shares and
distributions. Each returns a Figure; :class:`FigureStore` writes it as PNG + CSV of its table
and keeps the base64 PNG for the self-contained HTML."""
from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

DPI = 100
PALETTE = plt.get_cmap("tab10").colors
FOREST_MARKERS = "osD^vP*X"  # one marker shape per series of a forest plot


@dataclass
class StoredFigure:
    name: str
    title: str
    caption: str
    games: int
    png: Path
    csv: Path
    data_uri: str
    table_html: str


class FigureStore:
    """Writes ``<name>.png`` and ``<name>.csv`` into ``directory`` and remembers them."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.figures: list[StoredFigure] = []

    def add(self, name: str, title: str, figure, table: pd.DataFrame, caption: str, games: int,
            table_rows: int = 12) -> StoredFigure:
        name = re.sub(r"[^a-z0-9_]+", "_", name.lower())
        png = self.directory / f"{name}.png"
        csv = self.directory / f"{name}.csv"
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
        plt.close(figure)
        data = buffer.getvalue()
        png.write_bytes(data)
        table.to_csv(csv, index=not isinstance(table.index, pd.RangeIndex))
        stored = StoredFigure(name, title, caption, int(games), png, csv,
                              "data:image/png;base64," + base64.b64encode(data).decode("ascii"),
                              html_table(table, table_rows))
        self.figures.append(stored)
        return stored


def html_table(table: pd.DataFrame, max_rows: int = 12) -> str:
    """A compact HTML table (first ``max_rows`` rows; floats rounded)."""
    shown = table.head(max_rows).copy()
    for column in shown.columns:
        if pd.api.types.is_float_dtype(shown[column]):
            shown[column] = shown[column].map(lambda v: "" if pd.isna(v) else f"{v:.4g}")
    html = shown.to_html(classes="data", border=0, index=not isinstance(table.index, pd.RangeIndex))
    if len(table) > max_rows:
        html += f'<p class="more">{len(table) - max_rows} more rows in the CSV.</p>'
    return html


def new_figure(width: float = 7.5, height: float = 4.0, ncols: int = 1, nrows: int = 1, **kwargs):
    kwargs.setdefault("layout", "constrained")
    figure, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False, **kwargs)
    return figure, axes


def bars_with_intervals(frame: pd.DataFrame, x: str, y: str, low: str, high: str, hue: str | None = None,
                        reference=None, reference_label: str = "", xlabel: str = "", ylabel: str = "",
                        title: str = "", percent: bool = True, ax=None):
    """Grouped bars of ``y`` over ``x`` (one colour per ``hue``) with [low, high] whiskers.
    ``reference``: a number, or a dict hue -> number, drawn as dashed lines."""
    if ax is None:
        figure, axes = new_figure()
        ax = axes[0, 0]
    else:
        figure = ax.figure
    groups = [None] if hue is None else list(dict.fromkeys(frame[hue]))
    categories = list(dict.fromkeys(frame[x]))
    width = 0.8 / len(groups)
    scale = 100.0 if percent else 1.0
    for i, group in enumerate(groups):
        part = frame if group is None else frame[frame[hue] == group]
        positions = np.array([categories.index(v) for v in part[x]]) + (i - (len(groups) - 1) / 2) * width
        values = part[y].to_numpy(float) * scale
        errors = np.vstack([values - part[low].to_numpy(float) * scale,
                            part[high].to_numpy(float) * scale - values])
        errors = np.clip(np.nan_to_num(errors), 0, None)
        has_errors = bool(errors.any())
        ax.bar(positions, values, width=width * 0.95, color=PALETTE[i % 10],
               label=None if group is None else str(group),
               yerr=errors if has_errors else None, capsize=3, error_kw={"elinewidth": 1})
        if isinstance(reference, dict) and group in reference:
            span = positions.min() - width / 2, positions.max() + width / 2
            ax.hlines(reference[group] * scale, *span, colors="k", linestyles="--", linewidth=1)
    if isinstance(reference, (int, float)):
        ax.axhline(reference * scale, color="k", linestyle="--", linewidth=1, label=reference_label or None)
    ax.set_xticks(range(len(categories)))
    ax.set_xticklabels([str(c) for c in categories])
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or (f"{y} (%)" if percent else y))
    if title:
        ax.set_title(title)
    if hue is not None or reference_label:
        ax.legend(fontsize=8, title=None if hue is None else hue.replace("_", " "), title_fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return figure


def heatmap(matrix: pd.DataFrame, title: str = "", xlabel: str = "", ylabel: str = "", fmt: str = "{:.0%}",
            cmap: str = "viridis", ax=None, vmin=None, vmax=None, colorbar_label: str = ""):
    """A labelled heat-map of ``matrix`` with each cell's value written in it."""
    if ax is None:
        label_width = 0.075 * max((len(str(i)) for i in matrix.index), default=0)
        figure, axes = new_figure(max(4.0, 0.8 * matrix.shape[1] + 2.5 + label_width),
                                  max(3.0, 0.35 * matrix.shape[0] + 1.8))
        ax = axes[0, 0]
    else:
        figure = ax.figure
    values = matrix.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=cmap, aspect="auto", vmin=vmin, vmax=vmax)
    ax.set_xticks(range(matrix.shape[1]))
    ax.set_xticklabels([str(c) for c in matrix.columns])
    if matrix.shape[1] >= 8 or max((len(str(c)) for c in matrix.columns), default=0) * matrix.shape[1] > 30:
        rotate(ax, 30)
    ax.set_yticks(range(matrix.shape[0]))
    ax.set_yticklabels([str(i) for i in matrix.index])
    ax.set_xlabel(xlabel or (matrix.columns.name or ""))
    ax.set_ylabel(ylabel or (matrix.index.name or ""))
    if title:
        ax.set_title(title)
    finite = values[np.isfinite(values)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0
    if matrix.size <= 200:
        for (r, c), value in np.ndenumerate(values):
            if np.isfinite(value):
                ax.text(c, r, fmt.format(value), ha="center", va="center", fontsize=7,
                        color="white" if value < middle else "black")
    bar = figure.colorbar(image, ax=ax)
    if colorbar_label:
        bar.set_label(colorbar_label)
    return figure


def stacked_shares(shares: pd.DataFrame, title: str = "", xlabel: str = "", ylabel: str = "share (%)",
                   ax=None, legend_title: str = ""):
    """Stacked bars: rows of ``shares`` are bars, columns the stacked parts (each row sums to 1)."""
    if ax is None:
        figure, axes = new_figure()
        ax = axes[0, 0]
    else:
        figure = ax.figure
    bottom = np.zeros(len(shares))
    labels = [str(i) for i in shares.index]
    for i, column in enumerate(shares.columns):
        values = shares[column].fillna(0).to_numpy(float) * 100
        ax.bar(labels, values, bottom=bottom, color=PALETTE[i % 10], label=str(column))
        bottom += values
    ax.set_ylim(0, 100)
    ax.set_xlabel(xlabel or (shares.index.name or ""))
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8, title=legend_title or None, bbox_to_anchor=(1.01, 1), loc="upper left")
    if len(labels) > 8:
        rotate(ax, 45)
    return figure


def distributions(frame: pd.DataFrame, value: str, group: str, title: str = "", xlabel: str = "",
                  ax=None):
    """One step histogram (share of rows per integer value) per ``group``; ``frame`` holds
    ``group``, ``value``, ``share`` (as :func:`reports.analysis.metrics_common.value_counts`)."""
    if ax is None:
        figure, axes = new_figure()
        ax = axes[0, 0]
    else:
        figure = ax.figure
    for i, (name, part) in enumerate(frame.groupby(group, sort=True)):
        part = part.sort_values(value)
        ax.step(part[value], part["share"] * 100, where="mid", color=PALETTE[i % 10], label=f"{group} {name}")
    ax.set_xlabel(xlabel or value)
    ax.set_ylabel("share of games (%)")
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return figure


def interval_lines(frame: pd.DataFrame, x: str, y: str, low: str, high: str, group: str,
                   title: str = "", xlabel: str = "", ylabel: str = "", percent: bool = True, reference=None,
                   ax=None):
    """Lines of ``y`` over ``x`` per ``group`` with shaded [low, high] bands."""
    if ax is None:
        figure, axes = new_figure()
        ax = axes[0, 0]
    else:
        figure = ax.figure
    scale = 100.0 if percent else 1.0
    for i, (name, part) in enumerate(frame.groupby(group, sort=True)):
        part = part.sort_values(x)
        ax.plot(part[x], part[y] * scale, marker="o", color=PALETTE[i % 10], label=f"{group} {name}")
        ax.fill_between(part[x], part[low] * scale, part[high] * scale, color=PALETTE[i % 10], alpha=0.2)
    if reference is not None:
        ax.axhline(reference * scale, color="k", linestyle="--", linewidth=1)
    if pd.api.types.is_integer_dtype(frame[x]):
        ax.set_xticks(sorted(frame[x].unique()))
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or y)
    if title:
        ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return figure


def rotate(ax, degrees: float = 45) -> None:
    """Rotate the x tick labels, anchored at their right end so they stay under their bars."""
    for label in ax.get_xticklabels():
        label.set_rotation(degrees)
        label.set_horizontalalignment("right")
        label.set_rotation_mode("anchor")


def forest(frame: pd.DataFrame, row: str, series: str, estimate: str, low: str, high: str, margin: str,
           colour: str, colours: dict, title: str = "", xlabel: str = "", ax=None):
    """A forest plot: one line per distinct ``row`` (top to bottom in order of appearance), a dot
    at ``estimate`` with a [``low``, ``high``] bar for each ``series`` (offset within the line,
    one marker shape each), coloured by the ``colour`` column through ``colours``; a solid line
    at 0 and, per line, dashed ticks at -``margin`` and +``margin`` (margins may differ by line)."""
    if ax is None:
        figure, axes = new_figure(7.5, 0.35 * frame[row].nunique() + 1.2)
        ax = axes[0, 0]
    else:
        figure = ax.figure
    rows = list(dict.fromkeys(frame[row]))
    groups = list(dict.fromkeys(frame[series]))
    step = 0.7 / len(groups)
    ax.axvline(0, color="k", linewidth=1)
    for line, name in enumerate(rows):
        width = frame.loc[frame[row] == name, margin].max()
        if np.isfinite(width) and width > 0:
            y = len(rows) - 1 - line
            ax.vlines([-width, width], y - 0.42, y + 0.42, colors="0.45", linestyles="--", linewidth=0.9)
    for i, group in enumerate(groups):
        part = frame[frame[series] == group]
        y = np.array([len(rows) - 1 - rows.index(v) for v in part[row]]) + ((len(groups) - 1) / 2 - i) * step
        values = part[estimate].to_numpy(float)
        errors = np.clip(np.nan_to_num(np.vstack([values - part[low].to_numpy(float),
                                                   part[high].to_numpy(float) - values])), 0, None)
        for key, colour_name in colours.items():
            chosen = (part[colour] == key).to_numpy()
            if chosen.any():
                ax.errorbar(values[chosen], y[chosen], xerr=errors[:, chosen], fmt=FOREST_MARKERS[i % len(FOREST_MARKERS)],
                            color=colour_name, markersize=5, elinewidth=1.4, capsize=2)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([str(name) for name in reversed(rows)])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel(xlabel or estimate)
    if title:
        ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return figure
