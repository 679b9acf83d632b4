"""A run is identified by what it plays: an edited game or bot file is never resumed into a run
played under other rules, whichever game and command (the reproductions of the run audit)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim.core import run_manifest as manifests

runner = CliRunner()
GAMES = Path(__file__).resolve().parents[1] / "configs" / "games"


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def edit_value(path: Path, key: str, old: str, new: str) -> None:
    """Change ``key: old`` to ``key: new`` in a YAML file, keeping its comments."""
    text = path.read_text()
    line = next(line for line in text.splitlines() if line.startswith(f"{key}: {old}"))
    path.write_text(text.replace(line, line.replace(f"{key}: {old}", f"{key}: {new}", 1), 1))


@pytest.mark.parametrize("game, file_name, key, old, new", [
    ("louis-xiv", "louis_xiv.yaml", "points_per_mission", "5", "6"),
    ("heads-of-state", "heads_of_state.yaml", "display_size", "6", "5"),
])
def test_a_finished_run_whose_game_file_was_edited_is_refused_naming_the_key(tmp_path, game, file_name, key,
                                                                             old, new):
    game_file = tmp_path / file_name
    shutil.copy(GAMES / file_name, game_file)
    command = ["simulate", game, "--players", 2, "--games", 6, "--chunk-size", 3, "--seed", 5,
               "--game-file", game_file, "--out", tmp_path / "run"]
    assert invoke(*command).exit_code == 0
    edit_value(game_file, key, old, new)
    assert_one_line_error(invoke(*command), f"setup.game_data.{key}': {old} in the run, {new} now")
    shutil.copy(GAMES / file_name, game_file)
    assert "already holds this completed run" in invoke(*command).stderr


def test_the_same_rules_from_another_file_are_the_same_run(tmp_path):
    copy = tmp_path / "copy.yaml"
    shutil.copy(GAMES / "louis_xiv.yaml", copy)
    out = tmp_path / "run"
    assert invoke("simulate", "louis-xiv", "-p", 2, "-n", 4, "--out", out).exit_code == 0
    again = invoke("simulate", "louis-xiv", "-p", 2, "-n", 4, "--out", out, "--game-file", copy)
    assert again.exit_code == 0 and "already holds this completed run" in again.stderr


def test_run_yaml_records_every_resolved_value_and_bot_parameters_by_name(tmp_path):
    out = tmp_path / "run"
    assert invoke("simulate", "louis-xiv", "-p", 2, "-n", 4, "--bots", "greedy,crown_hunter",
                  "--rule", "strict_supplies=true", "--out", out).exit_code == 0
    manifest = yaml.safe_load((out / "run.yaml").read_text())
    config = manifest["config"]
    assert config["setup"]["game_data"]["points_per_mission"] == 5
    assert config["setup"]["game_data"]["courtiers"][0]["side_a"]["mode"]
    assert config["setup"]["rules"]["strict_supplies"] is True
    crown_hunter = config["bots"][1]
    assert crown_hunter["name"] == "crown_hunter" and crown_hunter["family"] == "greedy"
    assert crown_hunter["parameters"]["value_crown"] == 6.0
    assert len(config["kernel_sources"]) == 16 and config["courtsim_version"]
    assert manifest["run_hash"] == manifests.content_hash(config)
    assert manifest["provenance"]["game_file"].endswith("louis_xiv.yaml")


def test_a_bot_file_edited_after_the_run_is_refused_naming_the_parameter(tmp_path):
    bot = tmp_path / "hunter.yaml"
    bot.write_text(yaml.safe_dump({"name": "hunter", "game": "louis-xiv", "family": "greedy",
                                   "parameters": {"value_crown": 6.0}}))
    command = ["simulate", "louis-xiv", "-p", 2, "-n", 4, "--bots", f"greedy,{bot}", "--out", tmp_path / "run"]
    assert invoke(*command).exit_code == 0
    bot.write_text(bot.read_text().replace("6.0", "7.0"))
    assert_one_line_error(invoke(*command), "bots.1.parameters.value_crown': 6.0 in the run, 7.0 now")


def test_an_experiments_changed_game_file_is_refused_naming_the_key(tmp_path):
    game_file = tmp_path / "louis.yaml"
    shutil.copy(GAMES / "louis_xiv.yaml", game_file)
    experiment = tmp_path / "tiny.yaml"
    experiment.write_text(yaml.safe_dump({
        "name": "tiny", "game": "louis-xiv", "players": [2], "bots": ["greedy", "random"],
        "games_per_matchup": 4, "chunk_size": 2, "game_file": str(game_file), "out": str(tmp_path / "run")}))
    assert invoke("run", experiment).exit_code == 0
    game_file.write_text(game_file.read_text() + "# a comment changes no rule: still the same run\n")
    assert "already holds this completed run" in invoke("run", experiment).stderr
    text = game_file.read_text()
    game_file.write_text(text.replace("points_per_coat: 1", "points_per_coat: 2", 1))
    assert_one_line_error(invoke("run", experiment), "setup.game_data.points_per_coat")


def test_a_bot_file_named_like_a_built_in_bot_is_refused(tmp_path):
    impostor = tmp_path / "impostor.yaml"
    impostor.write_text(yaml.safe_dump({"name": "greedy", "game": "louis-xiv", "family": "greedy",
                                        "parameters": {"value_crown": 6.0}}))
    result = invoke("simulate", "louis-xiv", "-p", 2, "-n", 2, "--bots", f"greedy,{impostor}",
                    "--out", tmp_path / "run")
    assert_one_line_error(result, "impostor.yaml: key 'name'", "built-in bot")
    assert not (tmp_path / "run").exists()


def test_two_different_bots_of_one_name_in_simulate_are_refused(tmp_path):
    bots = []
    for crown in (5.0, 6.0):
        path = tmp_path / f"hunter{int(crown)}.yaml"
        path.write_text(yaml.safe_dump({"name": "hunter", "game": "louis-xiv", "family": "greedy",
                                        "parameters": {"value_crown": crown}}))
        bots.append(str(path))
    result = invoke("simulate", "louis-xiv", "-p", 2, "-n", 2, "--bots", ",".join(bots), "--out", tmp_path / "run")
    assert_one_line_error(result, "two different bots named 'hunter'")


class CrashesInChunk:
    """A game engine interrupted (Ctrl-C) in the chunk that holds ``crash_at_game``."""

    def __init__(self, engine, crash_at_game: int):
        self.engine, self.crash_at_game = engine, crash_at_game

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def play_chunk(self, setup, n_players, bots, seed, first_game, n_games):
        if first_game <= self.crash_at_game < first_game + n_games:
            raise KeyboardInterrupt
        return self.engine.play_chunk(setup, n_players, bots, seed, first_game, n_games)


@pytest.mark.parametrize("game, file_name, key, old, new", [
    ("louis-xiv", "louis_xiv.yaml", "points_per_mission", "5", "6"),
    ("heads-of-state", "heads_of_state.yaml", "display_size", "6", "5"),
])
def test_a_game_file_changed_between_interrupt_and_resume_is_refused_naming_the_key(tmp_path, game, file_name,
                                                                                   key, old, new):
    from sim import registry
    from sim.core.engine import ConfigError
    from sim.core.runner import run_simulation

    engine = registry.get_engine(game)
    game_file = tmp_path / file_name
    shutil.copy(GAMES / file_name, game_file)
    bots = [engine.resolve_bot("greedy")] * 4

    def simulate(play_with):
        return run_simulation(play_with, engine.load_setup(str(game_file)), 4, bots, 5, 8, tmp_path / "run",
                              chunk_size=2, progress=False, log=lambda message: None)
    with pytest.raises(KeyboardInterrupt):
        simulate(CrashesInChunk(engine, crash_at_game=5))
    edit_value(game_file, key, old, new)
    with pytest.raises(ConfigError, match=rf"key 'setup.game_data.{key}': {old} in the run, {new} now"):
        simulate(engine)
    edit_value(game_file, key, new, old)
    assert simulate(engine).chunks_reused == 2
