"""courtsim tune: the smallest rule change that meets the targets, with successive halving and a
re-evaluation on fresh games."""
import importlib.util
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from study_files import write_two_greedy_experiment
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from sim.core.engine import ConfigError
from sim.core.variants import load_variant
from sim.studies import tune_rules

runner = CliRunner()


def write_experiment(folder: Path) -> Path:
    return write_two_greedy_experiment(folder, games=40, chunk_size=20)


def write_tuning(folder: Path, **changes) -> Path:
    record = {"name": "seat_balance", "experiment": str(write_experiment(folder)),
              "space": [{"path": "start_gold", "range": {"from": 0, "to": 8, "step": 1}},
                        {"path": "points_per_mission", "range": {"from": 3, "to": 7, "step": 1}}],
              "targets": [{"metric": "first_player_win_rate", "between": [0.49, 0.51]}],
              "trials": 40, "rungs": [2000, 8000], "sampler": "tpe", "seed": 1, "top": 2, "out": str(folder / "tuning")}
    record.update(changes)
    path = folder / "seat_balance.yaml"
    path.write_text(yaml.safe_dump(record, sort_keys=False))
    return path


class SyntheticGame:
    """The first player wins 50% + 4 points per gold above 3, whatever the mission points, measured with the
    noise of ``games`` games (seeded by the games played and the gold): its optimum is start_gold 3
    (miss 0) with the printed 5 mission points, the smallest change from the printed rules (5 gold,
    5 points) that meets the target."""

    def __init__(self):
        self.calls = []

    def __call__(self, values, games, first_game, name):
        self.calls.append((dict(values), games, first_game, name))
        truth = 0.5 + 0.04 * (values["start_gold"] - 3)
        noise = np.random.default_rng([first_game, games, values["start_gold"]])
        standard_error = 0.5 / math.sqrt(games)
        value = truth + noise.normal(0.0, standard_error)
        return [{"metric": "first_player_win_rate", "metric_label": "the first player's win rate", "unit": "rate",
                 "n_players": 2, "value": value, "low": value - 2 * standard_error,
                 "high": value + 2 * standard_error, "games": games}]


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tune")
    plan = tune_rules.plan_tuning(write_tuning(folder))
    plan.evaluator = game = SyntheticGame()
    tune_rules.tune(plan, log=lambda message: None, progress=False, report=False)
    return plan, game


def test_tuning_finds_the_smallest_change_that_meets_the_target(tuned):
    plan, _ = tuned
    record = yaml.safe_load((plan.out_dir / tune_rules.PLAN_FILE).read_text())
    best = record["recommended"][1]          # [0] is the printed rules, re-evaluated beside them
    assert record["recommended"][0]["name"] == "printed"
    assert best["values"] == {"start_gold": 3.0, "points_per_mission": 5.0}
    assert best["fresh_miss"] == 0.0 and best["targets"][0]["status"] in ("meets", "may meet")
    assert best["change"] == pytest.approx(2 / 8)
    assert record["recommended"][0]["fresh_miss"] > 6.0     # printed: the first player wins about 58%


def test_the_recommended_candidates_are_re_evaluated_on_fresh_games(tuned):
    plan, game = tuned
    fresh = [call for call in game.calls if call[3].startswith("fresh-")]
    assert fresh and all(first_game == tune_rules.FRESH_GAMES_OFFSET and games == 16000 for _, games, first_game, _ in fresh)
    training = [call for call in game.calls if not call[3].startswith("fresh-")]
    assert all(first_game == 0 for _, _, first_game, _ in training)


def test_successive_halving_prunes_candidates_after_the_first_rung_and_plays_no_candidate_twice(tuned):
    plan, game = tuned
    table = pl.read_parquet(plan.out_dir / tune_rules.TABLE_FILE)
    assert table.height == 40 and set(table["state"]) == {"complete", "pruned"}
    assert (table.filter(pl.col("state") == "pruned")["rung"] == 0).all()
    full = [call for call in game.calls if call[1] == 8000]
    played = table.filter((pl.col("state") == "complete") & pl.col("same_as_trial").is_null())
    assert len(full) == played.height < 40           # a candidate asked again is not played again
    assert len({tuple(call[0].items()) for call in game.calls if call[1] == 2000}) == len(
        [call for call in game.calls if call[1] == 2000])
    assert table.filter(pl.col("pareto"))["miss"].min() == 0.0


def test_each_recommended_candidate_is_a_variant_file_that_loads(tuned):
    plan, _ = tuned
    record = yaml.safe_load((plan.out_dir / tune_rules.PLAN_FILE).read_text())
    path = Path(record["recommended"][1]["variant_file"])
    variant = load_variant(str(path), "louis-xiv")
    assert {override.path: override.value for override in variant.overrides} == {"start_gold": 3}
    assert "fresh games" in variant.description and "start_gold 5 -> 3" in variant.description


def test_a_tuning_resumes_from_its_study_and_refuses_another_plan(tuned, tmp_path):
    plan, game = tuned
    before = len(game.calls)
    tune_rules.tune(plan, log=lambda message: None, progress=False, report=False)
    assert all(call[3].startswith("fresh-") for call in game.calls[before:])     # no trial played again
    other = tune_rules.plan_tuning(write_tuning(tmp_path, rungs=[500, 8000]), out_dir=plan.out_dir)
    other.evaluator = SyntheticGame()
    with pytest.raises(ConfigError, match="holds another tuning \\(key 'experiment_file'"):
        tune_rules.tune(other, log=lambda message: None, progress=False, report=False)


def test_a_list_value_is_asked_by_its_position_and_set_whole(tmp_path):
    path = write_tuning(tmp_path, space=[{"path": "extra_start_gold.2", "name": "second_seat_gold",
                                          "values": [[0, 0], [0, 2]]}])
    plan = tune_rules.plan_tuning(path)
    parameter = plan.parameters[0]
    assert parameter.distribution().choices == (0, 1) and parameter.decoded(1) == [0, 2]
    assert tune_rules.printed_values(plan) == {"second_seat_gold": [0, 0]}
    assert tune_rules.as_cell(plan, "x", {"second_seat_gold": [0, 2]}).overrides == {"extra_start_gold.2": [0, 2]}
    tune_rules.check_space(plan)                  # both lists are valid game data


def test_the_promotion_rule_keeps_the_best_share_of_a_rung():
    assert tune_rules.promoted(5.0, [], 0.34) and tune_rules.promoted(5.0, [1.0, 2.0], 0.34)
    assert not tune_rules.promoted(5.0, [1.0, 2.0, 3.0, 4.0], 0.34)
    assert tune_rules.promoted(0.5, [1.0, 2.0, 3.0, 4.0], 0.34)
    assert tune_rules.promoted(0.0, [0.0] * 10, 0.1)           # a met target always goes on


def test_a_real_tuning_plays_each_candidate_as_a_sweep_cell(tmp_path):
    path = write_tuning(tmp_path, trials=2, rungs=[20], top=1,
                        space=[{"path": "start_gold", "range": {"from": 4, "to": 6, "step": 1}}])
    plan = tune_rules.plan_tuning(path)
    tune_rules.tune(plan, log=lambda message: None, progress=False)
    assert (plan.out_dir / "cells" / "trial-0000-rung-0" / "run" / "seats.parquet").is_dir()
    assert not (plan.out_dir / "cells" / "trial-0000-rung-0" / "variant.yaml").exists()   # the printed rules first
    record = yaml.safe_load((plan.out_dir / tune_rules.PLAN_FILE).read_text())
    assert record["trials"]["complete"] == 2 and record["recommended"][0]["name"] == "printed"
    assert all(entry["change"] > 0 for entry in record["recommended"][1:])   # a recommendation changes a rule
    if CHROMIUM.exists() and importlib.util.find_spec("playwright"):      # the played tuning's report, as a reader sees it
        seen = view_in_chromium(plan.out_dir / "report.html")
        assert not seen["errors"] and not seen["failed"] and seen["headlines"]
        assert seen["image_widths"] and all(width > 0 for width in seen["image_widths"])


def test_a_change_target_is_judged_on_the_paired_change_from_the_printed_rules_played_on_the_same_games(tmp_path):
    from reports.analysis import paired_metrics

    target = {"metric": "winning_score", "change_within": 2, "label": "the winner's score within 2 points"}
    path = write_tuning(tmp_path, trials=4, rungs=[20], top=1, fresh_games_per_matchup=40,
                        space=[{"path": "start_gold", "range": {"from": 4, "to": 6, "step": 1}}],
                        targets=[{"metric": "first_player_win_rate", "between": [0.49, 0.51]}, target])
    plan = tune_rules.plan_tuning(path)
    tune_rules.tune(plan, log=lambda message: None, progress=False)
    cells = plan.out_dir / "cells"
    # the printed rules are played once per rung and once on fresh games, and are trial 0 themselves
    assert (cells / "printed-rung-0" / "run" / "games.parquet").is_dir()
    assert not (cells / "trial-0000-rung-0").exists()
    record = yaml.safe_load((plan.out_dir / tune_rules.PLAN_FILE).read_text())
    estimates = pl.read_parquet(plan.out_dir / tune_rules.RECOMMENDED_TABLE).filter(
        pl.col("metric") == "winning_score")
    printed = estimates.filter(pl.col("candidate") == "printed").row(0, named=True)
    assert (printed["difference"], printed["difference_low"], printed["difference_high"]) == (0.0, 0.0, 0.0)
    assert record["recommended"][0]["targets"][1]["status"] == "meets"     # no change from itself
    # a candidate's change is the mean paired difference over the games both played
    candidate = record["recommended"][1]
    row = estimates.filter(pl.col("candidate") == candidate["name"]).row(0, named=True)
    printed_scores, candidate_scores = (
        paired_metrics.per_game([cells / name / "run"], 2, ["greedy"])[0].sort("game_index")["winning_score"].to_numpy()
        for name in ("fresh-printed", f"fresh-{candidate['name']}"))
    assert len(printed_scores) == len(candidate_scores) == 40
    assert row["difference"] == pytest.approx((candidate_scores - printed_scores).mean())
    assert row["difference_low"] <= row["difference"] <= row["difference_high"]
    status = ("misses" if abs(row["difference"]) > 2 else
              "meets" if -2 <= row["difference_low"] and row["difference_high"] <= 2 else "may meet")
    assert candidate["targets"][1] == {"target": "the winner's score within 2 points", "status": status,
                                       "miss": pytest.approx(max(0.0, abs(row["difference"]) - 2))}


@pytest.mark.parametrize("changes, message", [
    ({"rungs": [400, 100]}, "rising"),
    ({"space": [{"path": "start_gol", "range": {"from": 0, "to": 8, "step": 1}}]}, "unknown key 'start_gol'"),
    ({"targets": [{"metric": "third_player_win_rate", "at_least": 0.1}]}, "targets.0.metric"),   # 2 players
    ({"targets": [{"metric": "seat_1_win_rate", "at_least": 0.1}]},
     "key 'targets.0.metric': seat_1_win_rate is now first_player_win_rate (players are named by turn order)"),
    ({"targets": [{"metric": "seat_*_win_rate", "fair_share_within": 0.01}]},
     "key 'targets.0.metric': seat_*_win_rate is now *_player_win_rate (players are named by turn order)"),
    ({"space": [{"path": "start_gold"}]}, "either range"),
    ({"space": [{"path": "start_gold", "range": {"from": -2, "to": 5, "step": 1}}]}, "start_gold = -2"),
    ({"targets": [{"metric": "game_length_median", "change_within": 2, "at_most": 70}]}, "expected one band"),
    ({"targets": [{"metric": "balance", "change_at_least": 0.02, "change_at_most": -0.02}]},
     "expected change_at_least <= change_at_most"),
])
def test_bad_tuning_files_are_one_line_errors(tmp_path, changes, message):
    path = write_tuning(tmp_path, **changes)
    result = runner.invoke(cli.app, ["tune", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert message in result.output and str(path) in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("path", sorted(tune_rules.TUNING_DIR.glob("*.yaml")), ids=lambda path: path.stem)
def test_every_shipped_tuning_plans_starts_from_the_printed_rules_and_its_space_is_valid(path, tmp_path):
    plan = tune_rules.plan_tuning(path, out_dir=tmp_path)
    assert tune_rules.printed_values(plan) is not None
    tune_rules.check_space(plan)


def test_the_command_lines_budget_replaces_the_files_and_a_resumed_study_takes_more_trials(tmp_path):
    path = write_tuning(tmp_path)
    plan = tune_rules.plan_tuning(path, out_dir=tmp_path / "out", trials=5, rungs=[20, 40], fresh_games_per_matchup=60)
    assert (plan.tuning.trials, plan.tuning.rungs, plan.fresh_games) == (5, [20, 40], 60)
    assert tune_rules.plan_tuning(path, out_dir=tmp_path / "out", rungs=[30]).fresh_games == 60   # twice the last
    file_plan = tune_rules.plan_tuning(path, out_dir=tmp_path / "out")
    assert (file_plan.tuning.trials, file_plan.tuning.rungs) == (40, [2000, 8000])


@pytest.mark.parametrize("option, value, message", [
    ("--rungs", "200,100", "--rungs: expected rising games per match-up, found 200, 100"),
    ("--rungs", "200,lots", "--rungs: expected whole numbers of games separated by commas"),
    ("--rungs", "0", "--rungs"),
    ("--trials", "0", "--trials: expected 1 to 10,000 candidates, found 0"),
    ("--fresh-games-per-matchup", "0", "--fresh-games-per-matchup"),
])
def test_a_bad_budget_on_the_command_line_is_one_line_naming_the_option(tmp_path, option, value, message):
    result = runner.invoke(cli.app, ["tune", str(write_tuning(tmp_path)), "--out", str(tmp_path / "out"), option, value])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("path", sorted(tune_rules.TUNING_DIR.glob("*.yaml")), ids=lambda path: path.stem)
def test_every_shipped_tuning_plays_at_a_tiny_budget_and_its_report_renders_in_chromium(path, tmp_path):
    """The shipped files end to end on 3 candidates and 20 games per match-up (the figures are
    noise; the page is what is checked): candidates played, variants written, the report whole."""
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    from courtsim_runs import courtsim
    out = tmp_path / path.stem
    courtsim("tune", str(path), "--trials", "3", "--rungs", "20", "--fresh-games-per-matchup", "20",
             "--jobs", "1", "--out", str(out))
    record = yaml.safe_load((out / "tuning.yaml").read_text(encoding="utf-8"))
    assert record["schedule"]["trials"] == 3 and record["schedule"]["rungs"] == [20]
    seen = view_in_chromium(out / "report.html")
    assert seen["errors"] == [] and seen["failed"] == []
    assert seen["image_widths"] and all(width > 0 for width in seen["image_widths"])
