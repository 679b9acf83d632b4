"""courtsim sweep: every cell of a grid is the experiment under its own rules, on common random numbers."""
from pathlib import Path

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from study_files import write_two_greedy_experiment
from sim.core.engine import ConfigError
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from sim.studies import sweep

runner = CliRunner()
GAMES = 40


def write_experiment(folder: Path) -> Path:
    return write_two_greedy_experiment(folder, games=GAMES, chunk_size=20)


def write_sweep(folder: Path, grid: list[dict], **extra) -> Path:
    path = folder / "gold_sweep.yaml"
    path.write_text(yaml.safe_dump({"name": "gold_sweep", "experiment": str(write_experiment(folder)),
                                    "grid": grid, "out": str(folder / "sweep"), **extra}, sort_keys=False))
    return path


GRID = [{"path": "start_gold", "values": [4, 5]},
        {"path": "rules.strict_supplies", "values": [False, True]}]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sweep")
    plan = sweep.plan_sweep(write_sweep(folder, GRID, targets=[{"metric": "*_player_win_rate", "fair_share_within": 0.5}]))
    return plan, sweep.run_sweep(plan, log=lambda message: None, progress=False)


def tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    return {path.stem: pl.read_parquet(path) for path in sorted(Path(run_dir).glob("*.parquet"))}


def test_a_grid_has_a_cell_for_every_combination_and_the_printed_one_plays_the_printed_rules(swept):
    plan, _ = swept
    assert [cell.values for cell in plan.cells] == [{"start_gold": 4, "strict_supplies": False},
                                                    {"start_gold": 4, "strict_supplies": True},
                                                    {"start_gold": 5, "strict_supplies": False},
                                                    {"start_gold": 5, "strict_supplies": True}]
    assert [cell.printed for cell in plan.cells] == [False, False, True, False]
    assert not (plan.cells[2].directory(plan.out_dir) / "variant.yaml").exists()
    variant = yaml.safe_load((plan.cells[1].directory(plan.out_dir) / "variant.yaml").read_text())
    assert variant["set"] == {"start_gold": 4} and variant["rules"] == {"strict_supplies": True}


def test_a_grid_sweeps_cells_equal_single_runs_with_the_same_seeds(swept, tmp_path):
    plan, _ = swept
    experiment = write_experiment(tmp_path)
    own_variant = tmp_path / "four_gold_strict.yaml"
    own_variant.write_text(yaml.safe_dump({"name": "four_gold_strict", "game": "louis-xiv", "description": "4 gold.",
                                           "set": {"start_gold": 4}, "rules": {"strict_supplies": True}}))
    single = tmp_path / "single"
    result = runner.invoke(cli.app, ["run", str(experiment), "--variant", str(own_variant), "--out", str(single)])
    assert result.exit_code == 0, result.output
    printed = tmp_path / "printed"
    assert runner.invoke(cli.app, ["run", str(experiment), "--out", str(printed)]).exit_code == 0
    for cell, run_dir in ((plan.cells[1], single), (plan.cells[2], printed)):
        swept_tables, single_tables = tables(cell.directory(plan.out_dir) / "run"), tables(run_dir)
        assert swept_tables.keys() == single_tables.keys()
        for name, frame in swept_tables.items():
            assert frame.equals(single_tables[name]), (cell.name, name)


def test_the_sweep_table_has_every_cell_metric_and_a_paired_difference_from_the_printed_cell(swept):
    plan, directory = swept
    table = pl.read_parquet(directory / sweep.TABLE_FILE)
    assert {"cell", "pool", "start_gold", "strict_supplies", "metric", "n_players", "value", "low", "high",
            "games"} <= set(table.columns)
    assert table["start_gold"].dtype == pl.Float64 and table["strict_supplies"].dtype == pl.String
    win = table.filter(pl.col("metric") == "first_player_win_rate").sort("cell")
    assert win["games"].to_list() == [GAMES] * 4
    assert (win["low"] <= win["value"]).all() and (win["value"] <= win["high"]).all()
    reference = win.filter(pl.col("cell") == "cell-002")
    assert reference["difference"].is_nan().all()
    others = win.filter(pl.col("cell") != "cell-002")
    assert (others["reference_cell"] == "cell-002").all()
    expected = others["value"] - reference["value"][0]
    assert ((others["difference"] - expected).abs() < 1e-12).all()
    record = yaml.safe_load((directory / sweep.PLAN_FILE).read_text())
    assert record["status"] == "complete" and [cell["games"] for cell in record["cells"]] == [GAMES] * 4
    assert record["dimensions"][0]["printed"] == 5.0 and record["dimensions"][1]["printed"] == "false"


def test_the_median_game_length_has_its_paired_change_from_the_printed_cell(swept):
    """A median is no mean of per-game values: its change is the paired bootstrap and sign-flip
    test of reports.analysis.comparison_stats on the games both cells played."""
    from reports.analysis.comparison_stats import paired_median_difference
    plan, directory = swept
    median = pl.read_parquet(directory / sweep.TABLE_FILE).filter(pl.col("metric") == sweep.MEDIAN_LENGTH).sort("cell")
    assert median.filter(pl.col("cell") == "cell-002")["difference"].is_nan().all()
    other = median.filter(pl.col("cell") == "cell-000").row(0, named=True)
    assert other["reference_cell"] == "cell-002"
    from reports.analysis import paired_metrics
    lengths = {cell.name: paired_metrics.per_game([cell.directory(plan.out_dir) / "run"], 2, [])[0].sort("game_index")
               for cell in plan.cells[::2]}
    assert lengths["cell-000"]["game_index"].equals(lengths["cell-002"]["game_index"])
    expected = paired_median_difference(lengths["cell-002"]["length"].to_numpy(),
                                        lengths["cell-000"]["length"].to_numpy())
    assert (other["difference"], other["difference_low"], other["difference_high"], other["p_value"]) == (
        expected.difference, expected.low, expected.high, expected.p_value)
    assert other["difference_low"] <= other["difference"] <= other["difference_high"]


def test_a_finished_sweep_resumes_without_playing_again_and_refuses_another_sweep_in_its_directory(swept, tmp_path):
    plan, directory = swept
    stamps = {cell.name: (cell.directory(directory) / "run" / "run.yaml").stat().st_mtime_ns for cell in plan.cells}
    sweep.run_sweep(plan, log=lambda message: None, progress=False, report=False)
    assert stamps == {cell.name: (cell.directory(directory) / "run" / "run.yaml").stat().st_mtime_ns
                      for cell in plan.cells}
    other = sweep.plan_sweep(write_sweep(tmp_path, [{"path": "start_gold", "values": [3, 5]}]), out_dir=directory)
    with pytest.raises(ConfigError, match="another sweep"):
        sweep.run_sweep(other, log=lambda message: None, progress=False, report=False)


def test_a_range_and_linked_paths_make_the_cells_values(tmp_path):
    plan = sweep.plan_sweep(write_sweep(tmp_path, [
        {"path": "imaginary_player.markers", "name": "markers", "values": [4, 8],
         "linked": {"imaginary_player.cards_revealed": [1, 3]}},
        {"path": "start_gold", "range": {"from": 3, "to": 7, "step": 2}}]))
    assert [(cell.values["markers"], cell.values["start_gold"]) for cell in plan.cells] == [
        (4, 3), (4, 5), (4, 7), (8, 3), (8, 5), (8, 7)]
    assert plan.cells[0].overrides == {"imaginary_player.markers": 4, "imaginary_player.cards_revealed": 1,
                                       "start_gold": 3}
    assert [cell.printed for cell in plan.cells] == [False, False, False, False, True, False]


def test_a_list_of_cells_and_a_named_variant_dimension(tmp_path):
    path = tmp_path / "listed.yaml"
    path.write_text(yaml.safe_dump({"name": "listed", "experiment": str(write_experiment(tmp_path)),
                                    "cells": [{"variant": "printed"},
                                              {"variant": "imaginary_six_markers_2p", "start_gold": 6}]}))
    plan = sweep.plan_sweep(path)
    assert [cell.values for cell in plan.cells] == [{"variant": "printed", "start_gold": 5},
                                                    {"variant": "imaginary_six_markers_2p", "start_gold": 6}]
    assert plan.cells[0].printed and not plan.cells[1].printed
    record = sweep.cell_variant(plan, plan.cells[1])
    assert record["extends"].endswith("imaginary_six_markers_2p.yaml") and record["set"] == {"start_gold": 6}


@pytest.mark.parametrize("grid, message", [
    ([{"path": "start_gold"}], "either values"),
    ([{"path": "start_gol", "values": [1]}], "unknown key 'start_gol'"),
    ([{"path": "rules.no_such_switch", "values": [True]}], "unknown rule switch"),
    ([{"path": "start_gold", "values": [4, 4]}], "distinct values"),
    ([{"path": "imaginary_player.markers", "values": [4, 8], "linked": {"imaginary_player.cards_revealed": [1]}}],
     "expected 2 values"),
    ([{"path": "start_gold", "values": [-3]}], "cell cell-000"),
])
def test_bad_sweep_files_are_one_line_errors_naming_the_file_and_key(tmp_path, grid, message):
    path = write_sweep(tmp_path, grid)
    result = runner.invoke(cli.app, ["sweep", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert message in result.output and str(path) in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_an_unknown_target_metric_is_refused(tmp_path):
    path = write_sweep(tmp_path, GRID, targets=[{"metric": "seat_9_winrate", "at_least": 0.1}])
    with pytest.raises(ConfigError, match="targets.0.metric"):
        sweep.plan_sweep(path)


def test_a_change_target_is_judged_on_each_cells_paired_change_and_the_printed_cell_has_none(swept):
    from reports.analysis import targets
    from reports.analysis.targets import target_status
    _, directory = swept
    table = pl.read_parquet(directory / sweep.TABLE_FILE).to_pandas()
    target = {"metric": "winning_score", "change_within": 1}
    statuses = target_status(table, [target]).set_index("cell")["status"]
    assert statuses["cell-002"] == "meets"                  # the printed cell: no change from itself
    changed = table[(table["metric"] == "winning_score") & (table["cell"] != "cell-002")]
    assert (changed["difference"].abs() > 0).any()          # the start gold moves the winner's score
    for row in table[table["metric"] == "winning_score"].itertuples():
        if row.cell != "cell-002":
            band = (-1 - 1e-12, 1 + 1e-12)
            expected = ("misses" if not band[0] <= row.difference <= band[1] else
                        "meets" if band[0] <= row.difference_low and row.difference_high <= band[1] else "may meet")
            assert statuses[row.cell] == expected, row.cell
    assert targets.evaluate(table.to_dict("records"), target)[0] == max(
        statuses, key=targets.STATUS_SEVERITY.get)


@pytest.mark.parametrize("grid, target, message", [
    ([{"path": "start_gold", "values": [3, 4]}], {"metric": "game_length_median", "change_within": 2},
     "no cell plays them"),
    ([{"path": "start_gold", "values": [4, 5]}], {"metric": "skill_gap:*", "change_at_least": 0.0},
     "a skill gap is not paired"),
])
def test_a_change_target_needs_the_printed_cell_and_a_paired_metric(tmp_path, grid, target, message):
    experiment = tmp_path / "ladder.yaml"
    experiment.write_text(yaml.safe_dump({"name": "ladder", "game": "louis-xiv", "players": [2],
                                          "bots": ["random", "greedy"], "matchups": "pairs", "games_per_matchup": 20,
                                          "seed": 5, "jobs": 1, "chunk_size": 20, "skill_levels": ["random", "greedy"]}))
    path = tmp_path / "change_sweep.yaml"
    path.write_text(yaml.safe_dump({"name": "change_sweep", "experiment": str(experiment), "grid": grid,
                                    "targets": [target], "out": str(tmp_path / "out")}))
    with pytest.raises(ConfigError, match=message):
        sweep.plan_sweep(path)


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_a_played_sweeps_report_opens_in_chromium(swept):
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    _, directory = swept
    seen = view_in_chromium(directory / "report.html")
    assert not seen["errors"] and not seen["failed"]
    assert seen["image_widths"] and all(width > 0 for width in seen["image_widths"])
    assert any("start gold" in line or "start_gold" in line for line in seen["headlines"])


def test_a_cell_has_its_median_game_length_and_a_ladders_skill_gap_as_targets_can_ask(tmp_path):
    experiment = tmp_path / "ladder.yaml"
    experiment.write_text(yaml.safe_dump({"name": "ladder", "game": "louis-xiv", "players": [2],
                                          "bots": ["random", "greedy"], "matchups": "pairs", "games_per_matchup": 20,
                                          "seed": 5, "jobs": 1, "chunk_size": 20, "skill_levels": ["random", "greedy"]}))
    path = tmp_path / "ladder_sweep.yaml"
    path.write_text(yaml.safe_dump({"name": "ladder_sweep", "experiment": str(experiment),
                                    "grid": [{"path": "start_gold", "values": [4, 5]}],
                                    "targets": [{"metric": "skill_gap:*", "at_least": 0.8},
                                                {"metric": "game_length_median", "at_most": 1000}],
                                    "out": str(tmp_path / "out")}))
    directory = sweep.run_sweep(sweep.plan_sweep(path), log=lambda message: None, progress=False, report=False)
    table = pl.read_parquet(directory / sweep.TABLE_FILE)
    median = table.filter(pl.col("metric") == "game_length_median")
    assert median.height == 2 and ((median["low"] <= median["value"]) & (median["value"] <= median["high"])).all()
    gap = table.filter(pl.col("metric") == "skill_gap:random->greedy")
    assert gap.height == 2 and (gap["value"] > 0.8).all() and (gap["unit"] == "rate").all()   # greedy beats random
    from reports.analysis.targets import target_status
    statuses = target_status(table.to_pandas(), yaml.safe_load((directory / sweep.PLAN_FILE).read_text())["targets"])
    assert set(statuses["status"]) <= {"meets", "may meet"}


@pytest.mark.parametrize("path", sorted(sweep.SWEEPS_DIR.glob("*.yaml")), ids=lambda path: path.stem)
def test_every_shipped_sweep_plans_and_its_corner_cells_rules_are_valid(path, tmp_path):
    plan = sweep.plan_sweep(path, out_dir=tmp_path)
    assert sum(cell.printed for cell in plan.cells) == len(plan.pools)     # each pool has its printed cell
    for cell in (plan.cells[0], plan.cells[len(plan.cells) // len(plan.pools) - 1]):   # the grid's first and last
        sweep.prepare_cell(plan, cell)
