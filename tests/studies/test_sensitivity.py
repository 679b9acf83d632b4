"""courtsim sensitivity: a conclusion is fragile when an input can flip it, robust when none can."""
from pathlib import Path

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from study_files import write_two_greedy_experiment
from sim.core.engine import ConfigError
from sim import registry
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from sim.studies import directory, sensitivity

runner = CliRunner()
OTHERS = [{"assumption": f"A{number}", "why": "not varied in this test"} for number in (1, 2, 3, 5, 6, 7)]


def write_experiment(folder: Path) -> Path:
    return write_two_greedy_experiment(folder, games=60, chunk_size=60)


def write_file(folder: Path, conclusions: list[dict], **changes) -> Path:
    record = {"name": "coat_points", "game": "louis-xiv", "experiment": str(write_experiment(folder)),
              "trajectories": 2, "levels": 4, "oat_levels": 3, "seed": 4,
              "inputs": [{"name": "coat_points", "assumption": "A4", "why": "a coat of arms may be worth 1 to 6",
                          "set": ["points_per_coat"], "range": {"from": 1, "to": 6}, "integer": True},
                         {"name": "bank_size", "assumption": "A4", "why": "the bank never runs dry (Q14)",
                          "scale": ["bank_gold"], "range": {"from": 1, "to": 2}, "integer": True}],
              "not_varied": OTHERS, "conclusions": conclusions, "out": str(folder / "study")}
    record.update(changes)
    path = folder / "sensitivity.yaml"
    path.write_text(yaml.safe_dump(record, sort_keys=False))
    return path


@pytest.fixture(scope="module")
def studied(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sensitivity")
    probe = sensitivity.plan_sensitivity("louis-xiv", write_file(folder, [{"kind": "best_seat", "players": 2}]),
                                         out_dir=folder / "probe")
    rows = pl.DataFrame(sensitivity.play_point(probe, sensitivity.printed_point(probe)))
    winning = rows.filter(pl.col("metric") == "winning_score")["value"][0]
    conclusions = [{"kind": "above", "metric": "winning_score", "value": float(winning) + 4.0, "players": 2},
                   {"kind": "above", "metric": "game_length", "value": 1.0, "players": 2}]
    plan = sensitivity.plan_sensitivity("louis-xiv", write_file(folder, conclusions))
    sensitivity.run_sensitivity(plan, log=lambda message: None, progress=False)
    return plan, winning


def verdicts(plan) -> list[dict]:
    return yaml.safe_load((plan.out_dir / sensitivity.PLAN_FILE).read_text())["conclusions"]


def test_a_conclusion_an_input_can_flip_is_fragile_and_names_the_input_and_value(studied):
    plan, winning = studied
    flipped = verdicts(plan)[0]
    assert flipped["verdict"] == "fragile" and flipped["flip_input"] == "coat_points"
    assert int(flipped["flip_value"]) > 1          # the printed coat is worth 1: more points flip it
    assert "fails when coat points is" in flipped["sentence"] and "(A4)" in flipped["sentence"]


def test_a_conclusion_no_input_can_flip_is_robust(studied):
    plan, _ = studied
    robust = verdicts(plan)[1]
    assert robust["verdict"] == "robust" and robust["failing_points"] == 0
    assert robust["sentence"].startswith("Robust:")


def test_morris_screening_finds_the_input_that_matters_and_every_point_plays_the_same_games(studied):
    plan, _ = studied
    morris = pl.read_parquet(plan.out_dir / sensitivity.MORRIS_FILE)
    first = morris.filter(pl.col("conclusion") == 0)
    by_input = dict(zip(first["input"], first["mu_star"]))
    assert by_input["coat_points"] > by_input["bank_size"]
    assert first.filter(pl.col("input") == "coat_points")["matters"][0]
    points = pl.read_parquet(plan.out_dir / sensitivity.POINTS_FILE)
    assert set(points["phase"]) == {"printed", "morris", "oat"}
    assert points.filter(pl.col("phase") == "morris")["point"].n_unique() == 2 * (2 + 1)
    assert set(points.filter(pl.col("phase") == "oat")["varied_input"]) <= {"coat_points", "bank_size"}
    runs = sorted((plan.out_dir / "cells").glob("*/run/run.yaml"))
    seeds = {yaml.safe_load(path.read_text())["config"]["seed"] for path in runs}
    assert len(runs) == points["point"].n_unique() and seeds == {3}


def test_every_assumption_must_be_an_input_or_excused(tmp_path):
    path = write_file(tmp_path, [{"kind": "best_seat", "players": 2}], not_varied=OTHERS[1:])
    with pytest.raises(ConfigError, match="missing A1"):
        sensitivity.plan_sensitivity("louis-xiv", path)


@pytest.mark.parametrize("game", ["louis-xiv", "heads-of-state"])
def test_the_shipped_sensitivity_configs_cover_every_assumption_with_a_reason(game, tmp_path):
    plan = sensitivity.plan_sensitivity(game, directory.find_study_file("sensitivity", None, game), out_dir=tmp_path)
    named = {entry.assumption for entry in plan.inputs} | {entry.assumption for entry in plan.sensitivity.not_varied}
    assert named == set(registry.descriptor(game).assumptions)
    assert all(entry.why.strip() for entry in plan.inputs)
    sensitivity.check_every_value(plan)       # every option and both ends of every range are valid data


def test_a_bad_input_path_is_a_one_line_error(tmp_path):
    path = write_file(tmp_path, [{"kind": "best_seat", "players": 2}])
    record = yaml.safe_load(path.read_text())
    record["inputs"][0]["set"] = ["points_per_cot"]
    path.write_text(yaml.safe_dump(record))
    result = runner.invoke(cli.app, ["sensitivity", "louis-xiv", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "points_per_cot" in result.output and str(path) in result.output
    assert "Traceback" not in result.output


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_a_played_studys_report_opens_in_chromium_with_its_verdicts(studied):
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    plan, _ = studied
    seen = view_in_chromium(plan.out_dir / "report.html")
    assert not seen["errors"] and not seen["failed"]
    assert seen["image_widths"] and all(width > 0 for width in seen["image_widths"])
    assert any(line.startswith("Fragile:") for line in seen["headlines"])


def test_the_command_lines_budget_replaces_the_files_and_joins_the_studys_identity(tmp_path):
    path = write_file(tmp_path, [{"kind": "best_seat", "players": 2}])
    plan = sensitivity.plan_sensitivity("louis-xiv", path, trajectories=3, oat_levels=2)
    assert (plan.sensitivity.trajectories, plan.sensitivity.oat_levels) == (3, 2)
    file_plan = sensitivity.plan_sensitivity("louis-xiv", path)
    assert (file_plan.sensitivity.trajectories, file_plan.sensitivity.oat_levels) == (2, 3)
    assert sensitivity.identity(plan) != sensitivity.identity(file_plan)
    assert len(sensitivity.morris_points(plan)[1]) == 3 * (len(plan.inputs) + 1)


def check_recorded_study(plan) -> None:
    """What opening a study directory from before study.yaml checks: its plan file's identity."""
    directory.check_plan_identity(plan.out_dir / sensitivity.PLAN_FILE, sensitivity.identity(plan),
                                  sensitivity.SENSITIVITY_WORDS, added=("oat_levels",))


def test_a_study_recorded_before_oat_levels_joined_its_identity_resumes_but_another_curve_is_refused(tmp_path):
    plan = sensitivity.plan_sensitivity("louis-xiv", write_file(tmp_path, [{"kind": "best_seat", "players": 2}]))
    plan.out_dir.mkdir(parents=True)
    recorded = {key: value for key, value in sensitivity.identity(plan).items() if key != "oat_levels"}
    (plan.out_dir / sensitivity.PLAN_FILE).write_text(yaml.safe_dump({"identity": recorded}))
    check_recorded_study(plan)
    (plan.out_dir / sensitivity.PLAN_FILE).write_text(yaml.safe_dump({"identity": {**recorded, "oat_levels": 5}}))
    with pytest.raises(ConfigError, match="holds another sensitivity study"):
        check_recorded_study(plan)


@pytest.mark.parametrize("option, value, message", [
    ("--trajectories", "1", "--trajectories: expected 2 to 100 Morris trajectories, found 1"),
    ("--oat-levels", "22", "--oat-levels: expected 2 to 21 points per one-at-a-time curve, found 22"),
])
def test_a_bad_budget_on_the_command_line_is_one_line_naming_the_option(tmp_path, option, value, message):
    path = write_file(tmp_path, [{"kind": "best_seat", "players": 2}])
    result = runner.invoke(cli.app, ["sensitivity", "louis-xiv", str(path), "--out", str(tmp_path / "out"),
                                     option, value])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("game", ["louis-xiv", "heads-of-state"])
def test_every_shipped_sensitivity_plays_at_a_tiny_budget_and_its_report_renders_in_chromium(game, tmp_path):
    """The shipped files end to end on 2 trajectories, 2-point curves and 10 games per match-up
    (the verdicts are noise; the page is what is checked): every conclusion judged, the page whole."""
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    from courtsim_runs import courtsim
    out = tmp_path / "study"
    courtsim("sensitivity", game, "--trajectories", "2", "--oat-levels", "2", "--games-per-matchup", "10",
             "--jobs", "1", "--out", str(out))
    record = yaml.safe_load((out / sensitivity.PLAN_FILE).read_text(encoding="utf-8"))
    assert record["method"]["trajectories"] == 2 and record["conclusions"]
    assert all(verdict["sentence"].startswith(("Robust:", "Fragile:")) for verdict in record["conclusions"])
    seen = view_in_chromium(out / "report.html")
    assert not seen["errors"] and not seen["failed"]
    assert seen["image_widths"] and all(width > 0 for width in seen["image_widths"])
    assert len(seen["headlines"]) >= len(record["conclusions"])
