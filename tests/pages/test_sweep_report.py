"""The balance-sweep report (reports/pages/sweep_report.py) from synthetic sweep directories of exactly
the shape the sweep runner writes: a one-dimensional grid (the assassin's own cubes, 1 to 4,
printed 3) with two targets, and a two-dimensional grid (own cubes × a rule switch) without,
both at 2 and 3 players."""
import re
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
import yaml

from page_text import headlines, section, text_of
from reports.analysis.targets import target_status
from reports.pages.sweep_report import main, write_sweep_report
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from sim.core.engine import ConfigError

# metric -> (label, group, unit, {n_players: {own_cubes: value}}, half width of the interval)
ONE_DIMENSION_METRICS = {
    "first_player_win_rate": ("the first player's win rate", "seats", "rate",
                        {2: {1: 0.581, 2: 0.556, 3: 0.527, 4: 0.508}, 3: {1: 0.40, 2: 0.37, 3: 0.35, 4: 0.34}}),
    "second_player_win_rate": ("the second player's win rate", "seats", "rate",
                        {2: {1: 0.419, 2: 0.444, 3: 0.473, 4: 0.492}, 3: {1: 0.30, 2: 0.31, 3: 0.33, 4: 0.33}}),
    "third_player_win_rate": ("the third player's win rate", "seats", "rate",
                              {3: {1: 0.30, 2: 0.32, 3: 0.32, 4: 0.33}}),
    "balance": ("balance (1 - largest gap between seats)", "seats", "rate",
                {2: {1: 0.838, 2: 0.888, 3: 0.955, 4: 0.984}, 3: {1: 0.85, 2: 0.90, 3: 0.95, 4: 0.97}}),
    "game_length": ("the game's length", "outcome", "rounds",
                    {2: {1: 9.1, 2: 9.6, 3: 10.0, 4: 10.2}, 3: {1: 8.7, 2: 9.0, 3: 9.3, 4: 9.4}}),
    "tiebreak_rate": ("the share of tie-break decided games", "outcome", "rate",
                      {2: {1: 0.05, 2: 0.05, 3: 0.05, 4: 0.05}, 3: {1: 0.06, 2: 0.06, 3: 0.06, 4: 0.06}}),
}
# half widths of the estimate's and of the paired difference's interval
HALF_WIDTH = {("rate", 2): (0.015, 0.008), ("rate", 3): (0.01, 0.006), ("rounds", 2): (0.2, 0.1),
              ("rounds", 3): (0.2, 0.1)}
OWN_CUBES = {"name": "own_cubes", "label": "the assassin's own cubes", "kind": "numeric",
             "paths": ["assassin_bag.own_cubes"], "values": [1, 2, 3, 4], "printed": 3}
DOUBLE_KILL = {"name": "double_kill", "label": "the double-kill rule", "kind": "categorical",
               "paths": ["rules.double_kill"], "values": [False, True], "printed": False}
TARGETS = [
    {"metric": "balance", "players": [2], "pool": None, "at_least": 0.95, "at_most": None, "between": None,
     "fair_share_within": None, "label": None},
    {"metric": "*_player_win_rate", "players": None, "pool": None, "at_least": None, "at_most": None, "between": None,
     "fair_share_within": 0.03, "label": "every player within 3 points of the fair share"},
]
FIRST_PLAYER_HEADLINE = ("At 2 players, as the assassin's own cubes go from 1 to 4, the first player's win rate "
                         "falls from 58.1% [56.6, 59.6] to 50.8% [49.3, 52.3]; printed (3): 52.7%. Paired with the "
                         "printed cell, it is significantly higher at 1 and 2 (+5.4 points [4.6, 6.2] at 1), and "
                         "significantly lower at 4 (-1.9 points [-2.7, -1.1]).")


def sweep_rows(cells: list[dict], dimensions: list[dict], metrics: dict) -> pd.DataFrame:
    """The long table: one row per (cell, metric, player count), paired with the printed cell."""
    printed = next(cell["cell"] for cell in cells if cell["printed"])
    rows = []
    for metric, (label, group, unit, by_players) in metrics.items():
        for n_players, by_cell in by_players.items():
            half, paired_half = HALF_WIDTH[(unit, n_players)]
            reference_value = by_cell[printed]
            for cell in cells:
                value = by_cell[cell["cell"]]
                difference = np.nan if cell["cell"] == printed else value - reference_value
                rows.append({"cell": cell["cell"], "pool": "greedy",
                             **{dimension["name"]: cell["values"][dimension["name"]] for dimension in dimensions},
                             "metric": metric, "metric_label": label, "group": group, "unit": unit,
                             "n_players": n_players, "value": value, "low": value - half, "high": value + half,
                             "games": 2000, "reference_cell": printed, "difference": difference,
                             "difference_low": difference - paired_half, "difference_high": difference + paired_half,
                             "p_value": np.nan if cell["cell"] == printed else 0.01})
    return pd.DataFrame(rows)


def write_sweep(directory: Path, dimensions: list[dict], cells: list[dict], table: pd.DataFrame,
                targets: list[dict], report_metrics: list[str]) -> Path:
    """sweep.parquet (numeric dimensions Float64, categorical ones String) and sweep.yaml."""
    directory.mkdir(parents=True, exist_ok=True)
    frame = pl.from_pandas(table).with_columns(
        [pl.col(dimension["name"]).cast(pl.Float64 if dimension["kind"] == "numeric" else pl.String)
         for dimension in dimensions] + [pl.col("n_players").cast(pl.Int32), pl.col("games").cast(pl.Int64)])
    frame.write_parquet(directory / "sweep.parquet")
    settings = {
        "courtsim_sweep": 1, "status": "complete", "name": directory.name,
        "description": "How many of their own cubes the assassin draws from", "game": "heads-of-state",
        "experiment_file": "configs/experiments/heads_of_state_2p_tweaks.yaml", "players": [2, 3], "seed": 1,
        "games_per_matchup": 500, "dimensions": dimensions, "pools": {"greedy": ["greedy"]},
        "cells": [{**cell, "pool": "greedy", "run": f"{directory}/cells/{cell['cell']}/run", "games": 2000}
                  for cell in cells],
        "targets": targets, "report_metrics": report_metrics,
        "method": {"confidence": 0.95, "interval": "t interval of the delta-method linearised per-game values",
                   "pairing": "Cells share the seed and the game indices."},
        "created": "2026-12-04T04:00:00+00:00"}
    (directory / "sweep.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    return directory


def one_dimension_sweep(directory: Path,
                        report_metrics: tuple[str, ...] = ("first_player_win_rate", "balance", "game_length",
                                                           "tiebreak_rate")) -> Path:
    cells = [{"cell": f"cell-00{index}", "values": {"own_cubes": cubes}, "printed": cubes == 3}
             for index, cubes in enumerate(OWN_CUBES["values"])]
    metrics = {metric: (label, group, unit, {n: {f"cell-00{cubes - 1}": value for cubes, value in by_cubes.items()}
                                             for n, by_cubes in by_players.items()})
               for metric, (label, group, unit, by_players) in ONE_DIMENSION_METRICS.items()}
    return write_sweep(directory, [OWN_CUBES], cells, sweep_rows(cells, [OWN_CUBES], metrics), TARGETS,
                       list(report_metrics))


def two_dimension_sweep(directory: Path) -> Path:
    """own_cubes 2 or 3 × double_kill false or true: the first player gains 2 points per cube, loses 3 with
    double kills."""
    cells, index = [], 0
    for cubes in (2, 3):
        for switch in ("false", "true"):
            cells.append({"cell": f"cell-00{index}", "values": {"own_cubes": cubes, "double_kill": switch},
                          "printed": cubes == 3 and switch == "false"})
            index += 1
    first = {n: {cell["cell"]: base + 0.02 * cell["values"]["own_cubes"] - 0.03 * (cell["values"]["double_kill"] == "true")
                 for cell in cells} for n, base in ((2, 0.48), (3, 0.30))}
    balance = {n: {cell: 1 - abs(value - 1 / n) * 2 for cell, value in by_cell.items()} for n, by_cell in first.items()}
    metrics = {"first_player_win_rate": ("the first player's win rate", "seats", "rate", first),
               "balance": ("balance (1 - largest gap between seats)", "seats", "rate", balance)}
    return write_sweep(directory, [OWN_CUBES, DOUBLE_KILL], cells, sweep_rows(cells, [OWN_CUBES, DOUBLE_KILL], metrics),
                       [], ["first_player_win_rate", "balance"])


@pytest.fixture(scope="module")
def one_dimension(tmp_path_factory) -> tuple[Path, str]:
    page = write_sweep_report(one_dimension_sweep(tmp_path_factory.mktemp("sweeps") / "assassin_cubes"))
    return page, page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def two_dimensions(tmp_path_factory) -> tuple[Path, str]:
    page = write_sweep_report(two_dimension_sweep(tmp_path_factory.mktemp("sweeps") / "cubes_and_double_kill"))
    return page, page.read_text(encoding="utf-8")


def target_table(page: str) -> dict[str, list[str]]:
    """cell -> its statuses (one per target, then every target) from the page's target table."""
    rows = re.findall(r"<tr><td class=\"label\"><code>(cell-\d+)</code></td>(.*?)</tr>", section(page, "targets"), re.S)
    return {cell: re.findall(r'class="label status-[a-z-]+">([a-z ]+)</td>', cells) for cell, cells in rows}


def test_the_report_is_written_next_to_the_sweep_with_every_figure_and_the_table_as_csv(one_dimension):
    page, _ = one_dimension
    assert page == page.parent / "report.html"
    files = page.parent / "report_files"
    for metric in ("first_player_win_rate", "balance", "game_length", "tiebreak_rate"):
        assert (files / f"sweep_{metric}_by_own_cubes.png").stat().st_size > 5_000
        figure_data = pd.read_csv(files / f"sweep_{metric}_by_own_cubes.csv")
        assert set(figure_data["n_players"]) == {2, 3} and len(figure_data) == 8
    assert len(pd.read_csv(files / "sweep_table.csv")) == 4 * (2 + 2 + 1 + 2 + 2 + 2)
    assert set(pd.read_csv(files / "sweep_targets.csv")["status"]) == {"meets", "may meet", "misses"}


def test_the_page_is_self_contained(one_dimension, two_dimensions):
    for _, page in (one_dimension, two_dimensions):
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
        assert "<script" not in page.lower() and "@import" not in page and "url(" not in page
        assert page.count("<img ") == page.count('<img src="data:image/png;base64,') > 0


def test_every_dimension_is_named_with_its_words_values_and_printed_value(one_dimension, two_dimensions):
    dimensions = text_of(section(two_dimensions[1], "dimensions"))
    assert "own_cubes the assassin's own cubes numeric assassin_bag.own_cubes 2, 3 3" in dimensions
    assert "double_kill the double-kill rule categorical rules.double_kill false, true false" in dimensions
    assert "own_cubes the assassin's own cubes numeric assassin_bag.own_cubes 1, 2, 3, 4 3" in text_of(
        section(one_dimension[1], "dimensions"))


def test_heat_maps_only_for_a_two_dimensional_grid(one_dimension, two_dimensions):
    assert 'id="heat-maps"' not in one_dimension[1]
    heat_maps = section(two_dimensions[1], "heat-maps")
    assert heat_maps.count('<figure id="fig-sweep_heatmap_') == 2 * 2   # two report metrics × two player counts
    assert "the first player's win rate, 2 players" in text_of(heat_maps)
    # one line figure per report metric and dimension, the categorical one as well
    assert section(two_dimensions[1], "figures").count("<figure ") == 2 * 2
    matrix = pd.read_csv(two_dimensions[0].parent / "report_files" / "sweep_heatmap_first_player_win_rate_2p_greedy.csv",
                         index_col=0)
    assert list(matrix.columns) == ["false", "true"] and list(matrix.index) == [2, 3]
    assert matrix.loc[3, "true"] == pytest.approx(100 * (0.48 + 0.06 - 0.03))


def test_the_target_table_gives_each_cells_status_per_target(one_dimension):
    assert target_table(one_dimension[1]) == {
        "cell-000": ["misses", "misses", "misses"],
        "cell-001": ["misses", "misses", "misses"],
        "cell-002": ["may meet", "may meet", "may meet"],    # balance 95.5% [94.5, 96.5]; first player 52.7% [51.2, 54.2]
        "cell-003": ["meets", "meets", "meets"]}
    assert "balance (1 - largest gap between seats) ≥ 95.0% at 2 players" in text_of(section(one_dimension[1], "targets"))


def test_a_headline_says_how_a_metric_moves_over_the_dimension_and_which_change_is_significant(one_dimension):
    lines = headlines(one_dimension[1])
    assert FIRST_PLAYER_HEADLINE in lines
    assert 1 < len(lines) <= 9


def test_each_report_metric_gets_its_clearest_movement_first_and_flat_metrics_say_so(one_dimension):
    lines = headlines(one_dimension[1])
    # report_metrics puts the first player's win rate first: its clearest movement (3 players) leads, then balance's
    assert lines[0].startswith("At 3 players, as the assassin's own cubes go from 1 to 4, the first player's win rate "
                               "falls")
    assert lines[1].startswith("At 3 players, as the assassin's own cubes go from 1 to 4, balance (1 - largest gap "
                               "between seats) rises from 85.0%")
    assert any(line.startswith("At 2 players, as the assassin's own cubes go from 1 to 4, balance (1 - largest gap "
                               "between seats) rises from 83.8% [82.3, 85.3] to 98.4% [96.9, 99.9]; printed (3): 95.5%.")
               for line in lines)
    flat = [line for line in lines if "the share of tie-break decided games" in line]
    assert flat and all(line.endswith("the share of tie-break decided games stays at 5.0% [3.5, 6.5]; printed (3): "
                                      "5.0%. No value differs significantly from the printed cell.")
                        for line in flat if line.startswith("At 2 players"))
    # a flat metric's line comes after every metric's clearest significant movement, before the other movements
    assert 1 < min(lines.index(line) for line in flat) < lines.index(FIRST_PLAYER_HEADLINE)


def test_the_last_headline_names_the_cells_that_meet_every_target(one_dimension):
    assert headlines(one_dimension[1])[-1] == (
        "1 of 4 cells meet every target (2): own_cubes = 4. 1 more may meet it (an interval still reaches past a band).")


def test_a_two_dimensional_headline_holds_the_other_dimension_at_its_printed_value(two_dimensions):
    lines = headlines(two_dimensions[1])
    assert ("At 2 players, with double_kill = false, as the assassin's own cubes go from 2 to 3, the first player's "
            "win rate rises from 52.0% [50.5, 53.5] to 54.0% [52.5, 55.5]; printed (3): 54.0%. Paired with the printed cell, "
            "it is significantly lower at 2 (-2.0 points [-2.8, -1.2]).") in lines
    assert ("At 2 players, with own_cubes = 3, across the double-kill rule, the first player's win rate is lowest at "
            "true (51.0% [49.5, 52.5]) and highest at false (54.0% [52.5, 55.5]); printed (false): 54.0%. Paired with the "
            "printed cell, it is significantly lower at true (-3.0 points [-3.8, -2.2]).") in lines
    assert not any("target" in line for line in lines)


def test_without_a_printed_cell_and_with_two_pools_the_report_says_there_is_no_paired_test(tmp_path):
    directory = one_dimension_sweep(tmp_path / "sweep", report_metrics=("first_player_win_rate",))
    table = pl.read_parquet(directory / "sweep.parquet")
    unpaired = table.with_columns(pl.lit(None, pl.String).alias("reference_cell"),
                                  *[pl.lit(float("nan")).alias(column) for column in
                                    ("difference", "difference_low", "difference_high", "p_value")])
    random_pool = unpaired.with_columns(pl.lit("random").alias("pool"), pl.col("cell").str.replace("cell-0", "cell-1"),
                                        pl.col("value") * 0.9, pl.col("low") * 0.9, pl.col("high") * 0.9)
    pl.concat([unpaired, random_pool]).write_parquet(directory / "sweep.parquet")
    settings = yaml.safe_load((directory / "sweep.yaml").read_text())
    settings.update(status="incomplete", pools={"greedy": ["greedy"], "random": ["random"]},
                    dimensions=[{**OWN_CUBES, "printed": None}])
    (directory / "sweep.yaml").write_text(yaml.safe_dump(settings))
    page = write_sweep_report(directory).read_text()
    lines = headlines(page)
    assert lines[0].startswith("This sweep is incomplete (sweep.yaml)")
    assert any(line.startswith("At 2 players with the random pool, as the assassin's own cubes go from 1 to 4, the first "
                               "player's win rate falls from ") and line.endswith("The grid has no printed cell, so no paired test.")
               for line in lines)
    assert "printed (" not in " ".join(lines)
    assert set(target_table(page)) == {f"cell-{pool}0{index}" for pool in (0, 1) for index in range(4)}


def hand_made_rows() -> pd.DataFrame:
    """Three 2-player cells against balance ≥ 95% and players within 2 points of 1/n, plus rows
    the targets must not read (another metric, another player count)."""
    rows = [  # cell, pool, metric, n_players, value, low, high
        ("cell-a", "greedy", "balance", 2, 0.97, 0.96, 0.98),
        ("cell-b", "greedy", "balance", 2, 0.955, 0.94, 0.97),
        ("cell-c", "random", "balance", 2, 0.93, 0.92, 0.96),
        ("cell-a", "greedy", "first_player_win_rate", 2, 0.505, 0.49, 0.52),
        ("cell-a", "greedy", "second_player_win_rate", 2, 0.495, 0.48, 0.51),
        ("cell-b", "greedy", "first_player_win_rate", 2, 0.515, 0.50, 0.53),
        ("cell-b", "greedy", "second_player_win_rate", 2, 0.485, 0.47, 0.50),
        ("cell-c", "random", "first_player_win_rate", 2, 0.53, 0.515, 0.545),
        ("cell-c", "random", "second_player_win_rate", 2, 0.47, 0.455, 0.485),
        ("cell-a", "greedy", "third_player_win_rate", 3, 0.34, 0.33, 0.35),   # 1/3 ± 0.02: inside
        ("cell-a", "greedy", "first_player_score", 2, 40.0, 38.0, 42.0),   # not a win rate: the glob skips it
        ("cell-a", "greedy", "balance", 3, 0.50, 0.45, 0.55),           # 3 players: the balance target skips it
    ]
    table = pd.DataFrame(rows, columns=["cell", "pool", "metric", "n_players", "value", "low", "high"])
    return table.assign(metric_label=table["metric"].str.replace("_", " "),
                        unit=np.where(table["metric"] == "first_player_score", "points", "rate"))


def statuses_of(result: pd.DataFrame) -> dict[str, str]:
    return dict(zip(result["cell"], result["status"]))


def test_target_status_meets_may_meet_and_misses_a_lower_bound():
    result = target_status(hand_made_rows(), [{"metric": "balance", "players": [2], "at_least": 0.95}])
    assert list(result.columns) == ["cell", "pool", "target", "status"]
    assert statuses_of(result) == {"cell-a": "meets", "cell-b": "may meet", "cell-c": "misses"}
    assert set(result["target"]) == {"balance ≥ 95.0% at 2 players"}


def test_target_status_reads_a_glob_metric_against_the_fair_share_of_each_player_count():
    result = target_status(hand_made_rows(), [{"metric": "*_player_win_rate", "fair_share_within": 0.02,
                                               "label": "fair players"}])
    assert statuses_of(result) == {"cell-a": "meets", "cell-b": "may meet", "cell-c": "misses"}
    assert set(result["target"]) == {"fair players"}
    # the third player at 3 players is judged against 1/3, not 1/2: moved outside 1/3 ± 0.02, cell-a misses
    moved = hand_made_rows()
    moved.loc[moved["metric"] == "third_player_win_rate", ["value", "low", "high"]] = [0.36, 0.35, 0.37]
    assert statuses_of(target_status(moved, [{"metric": "*_player_win_rate", "fair_share_within": 0.02}]))[
        "cell-a"] == "misses"


def test_an_interval_ending_exactly_on_the_band_meets_it():
    row = pd.DataFrame({"cell": ["cell-a"], "pool": ["greedy"], "metric": ["first_player_win_rate"], "n_players": [2],
                        "value": [0.52], "low": [0.50], "high": [0.53]})
    assert statuses_of(target_status(row, [{"metric": "*_player_win_rate", "fair_share_within": 0.03}])) == {
        "cell-a": "meets"}


def test_target_status_reads_at_most_between_and_a_pool():
    rows = hand_made_rows()
    assert statuses_of(target_status(rows, [{"metric": "first_player_win_rate", "players": [2], "at_most": 0.52}])) == {
        "cell-a": "meets", "cell-b": "may meet", "cell-c": "misses"}
    assert statuses_of(target_status(rows, [{"metric": "second_player_win_rate", "between": [0.49, 0.52]}])) == {
        "cell-a": "may meet", "cell-b": "misses", "cell-c": "misses"}
    only_random = target_status(rows, [{"metric": "balance", "pool": "random", "players": [2], "at_least": 0.925}])
    assert statuses_of(only_random) == {"cell-c": "may meet"}


def test_a_missing_sweep_table_is_a_one_line_error_naming_the_file(tmp_path):
    directory = one_dimension_sweep(tmp_path / "sweep")
    (directory / "sweep.parquet").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "sweep.parquet"))) as error:
        write_sweep_report(directory)
    (directory / "sweep.yaml").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "sweep.yaml"))) as other:
        write_sweep_report(directory)
    assert "\n" not in str(error.value) and "\n" not in str(other.value)


def test_a_malformed_sweep_is_a_one_line_error_naming_the_file_and_what_is_wrong(tmp_path):
    directory = one_dimension_sweep(tmp_path / "sweep")
    (directory / "sweep.parquet").write_text("not parquet")
    with pytest.raises(ConfigError, match=r"sweep\.parquet: not a readable Parquet table"):
        write_sweep_report(directory)
    directory = one_dimension_sweep(tmp_path / "other")
    pl.read_parquet(directory / "sweep.parquet").drop("own_cubes").write_parquet(directory / "sweep.parquet")
    with pytest.raises(ConfigError, match=r"sweep\.parquet: column 'own_cubes' required but missing$"):
        write_sweep_report(directory)
    settings = yaml.safe_load((directory / "sweep.yaml").read_text())
    (directory / "sweep.yaml").write_text(yaml.safe_dump({**settings, "courtsim_sweep": 2}))
    with pytest.raises(ConfigError, match=r"sweep\.yaml: key 'courtsim_sweep': expected 1"):
        write_sweep_report(directory)


def test_the_method_explains_the_pairing_and_the_cells_are_listed(one_dimension):
    method = text_of(section(one_dimension[1], "method"))
    assert "4 cells" in method and "2,000 games per cell" in method
    assert "Common random numbers. Every cell plays the same seed (1) and the same game indices" in method
    cells = text_of(section(one_dimension[1], "cells"))
    assert "cell-002 greedy 3 2,000 printed rules" in cells and "cell-000 greedy 1 2,000" in cells


def test_the_module_command_writes_the_report_or_prints_one_error_line(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere' / 'sweep.yaml'}: sweep file not found\n"
    directory = one_dimension_sweep(tmp_path / "sweep", report_metrics=("balance",))
    assert main([str(directory), "--out", str(tmp_path / "s.html")]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 's.html'}\n" and (tmp_path / "s_files" / "sweep_table.csv").exists()


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_the_sweep_report_renders_in_chromium(one_dimension, tmp_path):
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    seen = view_in_chromium(one_dimension[0], tmp_path / "sweep.png")
    assert seen["errors"] == [] and seen["failed"] == []
    assert seen["title"] == "Heads of State balance sweep"
    assert len(seen["image_widths"]) == 4 and all(width > 0 for width in seen["image_widths"])
    assert FIRST_PLAYER_HEADLINE in seen["headlines"]
    assert (tmp_path / "sweep.png").stat().st_size > 10_000


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("sweep", sorted(path.stem for path in (Path(__file__).parents[2] / "configs" / "sweeps").glob("*.yaml")))
def test_every_shipped_sweep_plays_at_a_tiny_budget_and_its_report_renders_in_chromium(sweep, tmp_path):
    """The shipped files end to end (20 games per match-up: the figures are noise, the page is
    what is checked): every cell played, the report written, and Chromium shows it whole, with
    no share's interval outside 0 to 100%."""
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    from courtsim_runs import courtsim
    courtsim("sweep", sweep, "--games-per-matchup", "20", "--jobs", "1", "--out", str(tmp_path / sweep))
    rates = pl.read_parquet(tmp_path / sweep / "sweep.parquet").filter(pl.col("unit") == "rate")
    # an option's value (the landscape's option_value:<id>) is a difference of shares: -1 to 1
    signed = pl.col("metric").str.starts_with("option_value:")
    table, differences = rates.filter(~signed), rates.filter(signed)
    assert table.height > 0 and table["low"].min() >= 0 and table["high"].max() <= 1
    assert differences.is_empty() or (differences["low"].min() >= -1 and differences["high"].max() <= 1)
    seen = view_in_chromium(tmp_path / sweep / "report.html")
    assert seen["errors"] == [] and seen["failed"] == []
    assert seen["title"].endswith("balance sweep") and len(seen["headlines"]) >= 2
    assert seen["image_widths"] and all(width > 0 for width in seen["image_widths"])
