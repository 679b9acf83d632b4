"""`courtsim run`, `courtsim summary` and `courtsim bots` as a new user would try them."""
from __future__ import annotations

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli

runner = CliRunner()


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def assert_user_error(result, message):
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0], lines[0]


@pytest.mark.parametrize("game, bots", [
    ("louis-xiv", ["greedy", "crown_hunter", "random"]),
    ("heads-of-state", ["greedy", "random", "search"]),
])
def test_run_then_summary_of_a_small_experiment(tmp_path, game, bots):
    experiment = tmp_path / "tiny.yaml"
    experiment.write_text(yaml.safe_dump({
        "name": "tiny", "game": game, "players": [3], "bots": bots, "seating": "rotation",
        "games_per_matchup": 6, "seed": 1, "chunk_size": 2, "out": str(tmp_path / "run")}))
    if "search" in bots:  # a small budget keeps the test quick
        bot_file = tmp_path / "quick_search.yaml"
        bot_file.write_text(yaml.safe_dump({"name": "quick_search", "game": game, "extends": "search",
                                            "parameters": {"rollouts": 2}}))
        data = yaml.safe_load(experiment.read_text())
        data["bots"] = [str(bot_file) if bot == "search" else bot for bot in bots]
        experiment.write_text(yaml.safe_dump(data))
    result = invoke("run", experiment)
    assert result.exit_code == 0, result.output
    games = pl.read_parquet(tmp_path / "run" / "games.parquet")
    assert games.height == 6 and games["matchup"].n_unique() == 1 and games["seating"].n_unique() == 3
    result = invoke("summary", tmp_path / "run")
    assert result.exit_code == 0, result.output
    assert "Per bot" in result.output and "Bradley-Terry" in result.output
    assert "greedy" in result.output


def test_summary_of_a_missing_directory_is_one_line(tmp_path):
    assert_user_error(invoke("summary", tmp_path / "nothing"), "no such run directory")


def test_run_rejects_a_bad_experiment_before_playing(tmp_path):
    experiment = tmp_path / "bad.yaml"
    experiment.write_text("name: bad\ngame: louis-xiv\nplayers: [9]\nbots: [greedy]\ngames_per_matchup: 1\n")
    assert_user_error(invoke("run", experiment), "key 'players'")
    assert not (tmp_path / "runs").exists()


def test_bots_list_shows_every_archetype():
    result = invoke("bots", "list")
    assert result.exit_code == 0, result.output
    for name in ("crown_hunter", "mission_racer", "gold_briber", "coat_hoarder"):
        assert name in result.output


def test_bots_show_resolves_parameters_and_validates_a_file(tmp_path):
    result = invoke("bots", "show", "crown_hunter")
    assert result.exit_code == 0, result.output
    assert "value_crown" in result.output and "6*" in result.output
    draft = tmp_path / "draft.yaml"
    draft.write_text("name: draft\ngame: louis-xiv\nfamily: greedy\nparameters: {value_crown: -1}\n")
    assert_user_error(invoke("bots", "show", draft), "value_crown: expected a value in 0..20, found -1")


def test_simulate_accepts_archetype_names(tmp_path):
    result = invoke("simulate", "louis-xiv", "--players", 2, "--games", 3, "--bots", "crown_hunter,coat_hoarder",
                    "--out", tmp_path / "run")
    assert result.exit_code == 0, result.output
    seats = pl.read_parquet(tmp_path / "run" / "seats.parquet")
    assert set(seats["bot"]) == {"crown_hunter", "coat_hoarder"}
