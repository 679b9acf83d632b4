"""Sweep and tuning files refused early: ranges counted before they are listed, values
given twice, unknown named variants and target bands that hold no value, each one line naming
the file and the key."""
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from courtsim_runs import COURTSIM
from study_files import write_two_greedy_experiment
from sim.core.engine import ConfigError
from sim.studies import sweep, tune_rules


def write_sweep(folder: Path, grid_yaml: str, extra: str = "") -> Path:
    """A sweep file of ``grid:`` as YAML text (``.inf`` and ``1.0e-300`` written as a user would)."""
    path = folder / "checked_sweep.yaml"
    path.write_text(f"name: checked_sweep\nexperiment: {write_two_greedy_experiment(folder)}\n"
                    f"out: {folder / 'out'}\ngrid:\n{grid_yaml}{extra}", encoding="utf-8")
    return path


def refused(path: Path, key: str) -> str:
    """The start of the one line that refuses ``key`` of the file."""
    return f"{path}: key '{key}': expected "


def plan_error(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        sweep.plan_sweep(path)
    return str(caught.value)


# ----------------------------------------------------------------------------- 1. ranges

@pytest.mark.parametrize("range_yaml, key, found", [
    ("{from: 1, to: .inf, step: 1}", "grid.0.range.to", "expected a finite number, found inf"),
    ("{from: -.inf, to: 4, step: 1}", "grid.0.range.from", "expected a finite number, found -inf"),
    ("{from: 1, to: 4, step: .nan}", "grid.0.range.step", "expected a finite number, found nan"),
    ("{from: 1, to: 4, step: 0}", "grid.0.range.step", "expected a positive step, found 0"),
    ("{from: 1, to: 4, step: -1}", "grid.0.range.step", "expected a positive step, found -1"),
    ("{from: 5, to: 3, step: 1}", "grid.0.range", "expected from <= to, found from 5 and to 3"),
])
def test_a_range_with_a_number_that_is_not_finite_or_a_step_that_is_not_positive_is_refused(tmp_path, range_yaml,
                                                                                             key, found):
    path = write_sweep(tmp_path, f"  - path: start_gold\n    range: {range_yaml}\n")
    assert plan_error(path) == f"{path}: key '{key}': {found}"


@pytest.mark.parametrize("range_yaml, found", [
    ("{from: 0, to: 1.0e+300, step: 1}", "found 1e+300 values"),          # 10**300 values
    ("{from: 0, to: 1, step: 1.0e-300}", "found 1e+300 values"),           # hung, growing memory
    ("{from: -1.0e+308, to: 1.0e+308, step: 1.0e-10}", "found more than 1.8e+308 values"),   # beyond a float
    ("{from: 1, to: 1000001, step: 1}", "found 1,000,001 values"),         # took 12 s
])
def test_a_range_of_too_many_values_is_counted_not_listed_and_refused_in_well_under_a_second(tmp_path, range_yaml,
                                                                                             found):
    path = write_sweep(tmp_path, f"  - path: start_gold\n    range: {range_yaml}\n")
    start = time.perf_counter()
    message = plan_error(path)
    assert time.perf_counter() - start < 0.5
    assert message.startswith(refused(path, "grid.0.range") + f"at most {sweep.MAX_CELLS:,} values")
    assert message.endswith(found)


def test_the_cells_are_counted_over_dimensions_and_pools_before_they_are_listed(tmp_path):
    three = "".join(f"  - path: {name}\n    range: {{from: 1, to: 100, step: 1}}\n"
                    for name in ("start_gold", "points_per_mission", "imaginary_player.markers"))
    path = write_sweep(tmp_path, three)
    start = time.perf_counter()
    assert plan_error(path) == (f"{path}: key 'grid': expected at most 1,000 cells, found 1,000,000 "
                                "(100 x 100 x 100 values x 1 pool)")
    assert time.perf_counter() - start < 0.5
    pools = write_sweep(tmp_path, "  - path: start_gold\n    range: {from: 1, to: 600, step: 1}\n",
                        "bot_pools: {one: [greedy], two: [greedy]}\n")
    assert plan_error(pools) == (f"{pools}: key 'grid': expected at most 1,000 cells, found 1,200 "
                                 "(600 values x 2 pools)")


# ----------------------------------------------------------------------------- 2. repeated values

@pytest.mark.parametrize("grid_yaml, key, found", [
    ("  - path: start_gold\n    values: [5, 5.0]\n", "grid.0.values.1",
     "expected distinct values (grid.0.values.0 is 5, the same), found 5.0"),
    ("  - path: start_gold\n    values: [3, 4]\n  - path: rules.strict_supplies\n    values: [true, false, 'yes']\n",
     "grid.1.values.2", "expected distinct values (grid.1.values.0 is True, the same), found 'yes'"),
    ("  - path: rules.strict_supplies\n    values: ['off', 0]\n", "grid.0.values.1",
     "expected distinct values (grid.0.values.0 is 'off', the same), found 0"),
    ("  - path: variant\n    values: [printed, null]\n", "grid.0.values.1",
     "expected distinct values (grid.0.values.0 is 'printed', the same), found None"),
    ("  - path: start_gold\n    range: {from: 0, to: 1.0e-11, step: 1.0e-12}\n", "grid.0.range.step",
     "expected a step that gives distinct values (rounded to 10 decimals), found 1e-12 (0.0 twice)"),
])
def test_a_value_given_twice_in_a_dimension_is_refused_naming_the_key_and_value(tmp_path, grid_yaml, key, found):
    path = write_sweep(tmp_path, grid_yaml)
    assert plan_error(path) == f"{path}: key '{key}': {found}"


def test_a_cells_list_naming_the_same_rules_twice_is_refused(tmp_path):
    path = tmp_path / "listed.yaml"
    path.write_text(yaml.safe_dump({"name": "listed", "experiment": str(write_two_greedy_experiment(tmp_path)),
                                    "cells": [{"start_gold": 4}, {"start_gold": 5.0}, {}]}))   # {}: printed 5 gold
    assert plan_error(path).startswith(refused(path, "cells.2") + "distinct cells (cells.1 has the same rules)")


# ----------------------------------------------------------------------------- 3. named variants

def test_an_unknown_named_variant_names_the_file_key_game_and_its_variants(tmp_path):
    path = write_sweep(tmp_path, "  - path: start_gold\n    values: [4, 5]\n"
                                 "  - path: variant\n    values: [printed, imaginary_six_markers_2p, xyz]\n")
    message = plan_error(path)
    assert message.startswith(refused(path, "grid.1.values.2") + "printed, a variant of louis-xiv (")
    assert "imaginary_six_markers_2p" in message and message.endswith("or a variant YAML file, found 'xyz'")
    listed = tmp_path / "listed.yaml"
    listed.write_text(yaml.safe_dump({"name": "listed", "experiment": str(write_two_greedy_experiment(tmp_path)),
                                      "cells": [{"variant": "printed"}, {"variant": "xyz", "start_gold": 6}]}))
    assert plan_error(listed).startswith(refused(listed, "cells.1.variant") + "printed, a variant of louis-xiv (")


# ----------------------------------------------------------------------------- 4. target bands

BAD_TARGETS = [
    ({"metric": "first_player_win_rate", "at_least": 0.6, "at_most": 0.4}, "targets.0.at_most",
     "expected at_least <= at_most, found at_least 0.6 and at_most 0.4 (no value lies in that band)"),
    ({"metric": "winning_score", "change_at_least": 1, "change_at_most": -1}, "targets.0.change_at_most",
     "expected change_at_least <= change_at_most, found change_at_least 1 and change_at_most -1 "
     "(no value lies in that band)"),
    ({"metric": "first_player_win_rate", "at_least": float("nan")}, "targets.0.at_least",
     "expected a number, found nan"),
    ({"metric": "first_player_win_rate", "between": [0.4, float("nan")]}, "targets.0.between.1",
     "expected a number, found nan"),
]


@pytest.mark.parametrize("target, key, found", BAD_TARGETS)
def test_a_sweep_target_whose_band_holds_no_value_is_refused(tmp_path, target, key, found):
    path = write_sweep(tmp_path, "  - path: start_gold\n    values: [4, 5]\n",
                       "targets: " + yaml.safe_dump([target], default_flow_style=True))
    assert plan_error(path) == f"{path}: key '{key}': {found}"


def test_a_target_band_of_one_value_is_kept(tmp_path):
    path = write_sweep(tmp_path, "  - path: start_gold\n    values: [4, 5]\n",
                       "targets:\n  - {metric: balance, at_least: 0.9, at_most: 0.9}\n")
    assert sweep.plan_sweep(path).sweep.targets[0].at_most == 0.9


def write_tuning(folder: Path, **changes) -> Path:
    record = {"name": "checked_tuning", "experiment": str(write_two_greedy_experiment(folder)),
              "space": [{"path": "start_gold", "range": {"from": 0, "to": 8, "step": 1}}],
              "targets": [{"metric": "first_player_win_rate", "between": [0.49, 0.51]}],
              "trials": 4, "rungs": [20], "out": str(folder / "tuning")}
    path = folder / "checked_tuning.yaml"
    path.write_text(yaml.safe_dump({**record, **changes}, sort_keys=False))
    return path


@pytest.mark.parametrize("target, key, found", BAD_TARGETS)
def test_a_tuning_target_whose_band_holds_no_value_is_refused(tmp_path, target, key, found):
    path = write_tuning(tmp_path, targets=[target])
    with pytest.raises(ConfigError) as caught:
        tune_rules.plan_tuning(path)
    assert str(caught.value) == f"{path}: key '{key}': {found}"


@pytest.mark.parametrize("space, key, found", [
    ({"path": "start_gold", "range": {"from": 0, "to": float("inf")}}, "space.0.range.to",
     "expected a finite number, found inf"),
    ({"path": "start_gold", "range": {"from": 0, "to": 8, "step": 0}}, "space.0.range.step",
     "expected a positive step, found 0"),
    ({"path": "start_gold", "range": {"from": 8, "to": 8}}, "space.0.range", "expected from < to, found from 8 and to 8"),
    ({"path": "start_gold", "values": [5, 4, 5.0]}, "space.0.values.2",
     "expected distinct values (space.0.values.0 is 5, the same), found 5.0"),
])
def test_a_tuning_space_range_that_is_not_finite_or_a_value_given_twice_is_refused(tmp_path, space, key, found):
    path = write_tuning(tmp_path, space=[space])
    with pytest.raises(ConfigError) as caught:
        tune_rules.plan_tuning(path)
    assert str(caught.value) == f"{path}: key '{key}': {found}"


# ----------------------------------------------------------------------------- the command line

@pytest.mark.parametrize("grid_yaml, extra, key", [
    ("  - path: start_gold\n    range: {from: 0, to: 1, step: 1.0e-300}\n", "", "grid.0.range"),
    ("  - path: start_gold\n    values: [5, 5.0]\n", "", "grid.0.values.1"),
    ("  - path: variant\n    values: [printed, xyz]\n", "", "grid.0.values.1"),
    ("  - path: start_gold\n    values: [4, 5]\n", "targets:\n  - {metric: balance, at_least: 0.6, at_most: 0.4}\n",
     "targets.0.at_most"),
])
def test_courtsim_sweep_refuses_them_in_one_line_with_exit_code_2(tmp_path, grid_yaml, extra, key):
    path = write_sweep(tmp_path, grid_yaml, extra)
    result = subprocess.run([*COURTSIM, "sweep", str(path), "--out", str(tmp_path / "out")], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {refused(path, key)}"), result.stderr
    assert ", found " in lines[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()
