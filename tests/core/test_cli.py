"""The command line: a successful run, and every user error as one line with exit code 2."""
from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim import registry
from sim.core import bench

from . import fake_engine
from .fake_engine import FakeEngine

runner = CliRunner()


@pytest.fixture(autouse=True)
def fake_game(monkeypatch):
    """Register the fake engine as game "fake" (the real games may not exist yet)."""
    real_get_engine = registry.get_engine
    monkeypatch.setitem(registry.GAMES, "fake", f"{fake_engine.__name__}:DESCRIPTOR")
    monkeypatch.setattr(registry, "get_engine",
                        lambda name: FakeEngine() if name == "fake" else real_get_engine(name))


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def simulate(out_dir, *extra):
    return invoke("simulate", "fake", "--players", 3, "--games", 30, "--chunk-size", 8, "--out", out_dir, *extra)


def assert_user_error(result, message):
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0], lines[0]


def test_simulate_writes_tables_and_summary(tmp_path):
    result = simulate(tmp_path / "run", "--bots", "greedy,random,greedy", "--seed", 3)
    assert result.exit_code == 0, result.output
    for name in ("run.yaml", "games.parquet", "seats.parquet", "events.parquet"):
        assert (tmp_path / "run" / name).exists()
    assert "games.parquet" in result.stdout and "games/s" in result.stdout
    config = yaml.safe_load((tmp_path / "run" / "run.yaml").read_text())["config"]
    assert [bot["name"] for bot in config["bots"]] == ["greedy", "random", "greedy"]
    assert config["seed"] == 3


def test_single_bot_name_fills_every_seat_and_rules_reach_the_setup(tmp_path):
    result = simulate(tmp_path / "run", "--bots", "random", "--rule", "bonus=2.5")
    assert result.exit_code == 0, result.output
    config = yaml.safe_load((tmp_path / "run" / "run.yaml").read_text())["config"]
    assert [bot["name"] for bot in config["bots"]] == ["random"] * 3
    assert config["setup"]["rules"]["bonus"] == 2.5


def test_simulate_twice_in_same_directory_is_a_noop(tmp_path):
    assert simulate(tmp_path / "run").exit_code == 0
    again = simulate(tmp_path / "run")
    assert again.exit_code == 0 and "already complete" in again.stdout


def test_bad_yaml_game_file(tmp_path):
    game_file = tmp_path / "fake.yaml"
    game_file.write_text("rules: [unclosed\n")
    assert_user_error(simulate(tmp_path / "run", "--game-file", game_file), "invalid YAML")


def test_invalid_game_file_content(tmp_path):
    game_file = tmp_path / "fake.yaml"
    game_file.write_text("rules: {bonus: lots}\nextra: 1\n")
    assert_user_error(simulate(tmp_path / "run", "--game-file", game_file), "invalid FakeGameFile")


@pytest.mark.parametrize("args, message", [
    (["simulate", "chess", "--players", 4, "--games", 5], "unknown game 'chess'"),
    (["simulate", "fake", "--players", 6, "--games", 5], "played by 2, 3, 4 players, not 6"),
    (["simulate", "fake", "--players", 3, "--games", 5, "--bots", "greedy,random"], "there are 3 players"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--bots", "greedy,wizard"], "unknown bot 'wizard'"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--bots", "greedy,,random"], "empty bot name"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--rule", "bonus"], "bad --rule 'bonus'"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--rule", "=3"], "bad --rule"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--rule", "bonus=1", "--rule", "bonus=2"], "twice"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--rule", "speed=2"], "unknown rule"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--game-file", "/nonexistent/x.yaml"], "does not exist"),
    (["simulate", "fake", "--players", 2, "--games", 0], "at least 1"),
    (["simulate", "fake", "--players", 2, "--games", 5, "--seed", -3], "seed"),
    (["replay", "chess", "--seed", 0, "--game", 1], "unknown game"),
    (["replay", "fake", "--seed", 0, "--game", -1], "--game"),
    (["bench", "fake", "--players", 9], "not 9"),
])
def test_user_errors_are_one_line(tmp_path, args, message):
    assert_user_error(invoke(*args, *(["--out", tmp_path / "o"] if args[0] == "simulate" else [])), message)


def test_unwritable_output_directory(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert_user_error(simulate(blocker / "run"), "cannot write to output directory")


def test_different_run_in_out_directory(tmp_path):
    assert simulate(tmp_path / "run", "--seed", 1).exit_code == 0
    assert_user_error(simulate(tmp_path / "run", "--seed", 2), "--overwrite")
    assert simulate(tmp_path / "run", "--seed", 2, "--overwrite").exit_code == 0


def test_replay_prints_the_engine_log():
    result = invoke("replay", "fake", "--seed", 4, "--game", 11, "--players", 2)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("fake game 11 (seed 4)")


def test_bench_json_is_the_last_line():
    result = invoke("bench", "fake", "--players", 4, "--games", 50, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"games_per_second_per_core", "game", "players", "games", "seconds", "settle_games"} <= set(report)
    assert (report["game"], report["players"], report["games"]) == ("fake", 4, 50)
    # one untimed chunk of at most the run's chunk size came before the timed games
    assert bench.BENCH_CALIBRATION_GAMES <= report["settle_games"] <= report["chunk_size"]
    assert report["games_per_second_per_core"] > 0


def test_bench_default_game_count_targets_a_few_seconds(monkeypatch):
    monkeypatch.setattr(bench, "BENCH_TARGET_SECONDS", 0.05)
    result = invoke("bench", "fake", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["games"] >= bench.BENCH_CALIBRATION_GAMES and report["seconds"] < 5


def test_bench_scaling_times_one_core_and_every_core_and_gives_their_ratio_as_scaling_ratio():
    """Not a speed test (machines differ): the figures exist and agree with each other."""
    result = invoke("bench", "louis-xiv", "--players", 2, "--games", 400, "--scaling", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["games"] == 400 and report["cores"] >= 1
    assert report["scaling_ratio"] == pytest.approx(
        report["games_per_second_every_core"] / report["games_per_second_one_core"], rel=1e-2)
    assert report["whole_run_scaling_ratio"] > 0
    assert 0 <= report["scheduling_share"] < 1
    assert "scaling ratio" in result.stdout


def test_bench_human_output():
    result = invoke("bench", "fake", "--games", 20)
    assert result.exit_code == 0, result.output
    assert "games/s per core" in result.stdout


def test_games_lists_engines_and_missing_ones(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "ghost", f"{fake_engine.__name__}:GHOST")
    result = invoke("games")
    assert result.exit_code == 0, result.output
    assert "fake" in result.stdout and "2, 3, 4" in result.stdout and "ghost" in result.stdout


def test_version():
    result = invoke("--version")
    assert result.exit_code == 0 and result.stdout.startswith("courtsim ")
