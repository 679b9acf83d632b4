"""Optional tables (issue 40: ``standings``): asked for with ``simulate --tables`` or an
experiment's ``tables:`` key, listed by ``courtsim tables``, part of a run's identity, and every
other table the same as without them."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim.core import run_manifest as manifests
from sim.core.experiments import prepare_experiment
from sim.heads_of_state.engine import ENGINE as HEADS_OF_STATE
from sim.louis_xiv.engine import ENGINE as LOUIS_XIV

runner = CliRunner()


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args])


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def simulate(out: Path, *options):
    return invoke("simulate", "louis-xiv", "--players", 2, "--games", 4, "--chunk-size", 2, "--seed", 5,
                  "--out", out, *options)


def parts(run: Path, table: str) -> dict[str, bytes]:
    return {part.name: part.read_bytes() for part in sorted((run / f"{table}.parquet").glob("*.parquet"))}


@pytest.mark.parametrize("game, engine", [("louis-xiv", LOUIS_XIV), ("heads-of-state", HEADS_OF_STATE)])
def test_courtsim_tables_lists_the_optional_standings_table(game, engine):
    assert engine.optional_tables == ("standings",)
    result = invoke("tables", game, "--table", "standings", "--markdown")
    assert result.exit_code == 0, result.output
    assert "`standings.parquet`: one row per game and position" in result.output
    assert "opt-in (--tables standings)" in result.output
    max_players = engine.player_counts[-1]
    for column in ("game_index", "turn", "round", "acting_seat", "score_seat_0", f"score_seat_{max_players - 1}",
                   "position_value_seat_0", f"position_value_seat_{max_players - 1}"):
        assert f"| `{column}` |" in result.output
    assert "| `position_value_seat_0` | float32 |" in result.output


def test_simulate_tables_standings_writes_it_and_leaves_every_other_table_byte_identical(tmp_path):
    assert simulate(tmp_path / "without").exit_code == 0
    result = simulate(tmp_path / "with", "--tables", "standings")
    assert result.exit_code == 0, result.output
    for table in LOUIS_XIV.tables:
        assert parts(tmp_path / "with", table) == parts(tmp_path / "without", table), table
    standings = pl.read_parquet(tmp_path / "with" / "standings.parquet")
    seats = pl.read_parquet(tmp_path / "with" / "seats.parquet")
    assert standings["game_index"].unique().sort().to_list() == [0, 1, 2, 3]
    final = standings.group_by("game_index", maintain_order=True).last().sort("game_index")
    n_players = seats.group_by("game_index").len()["len"].max()
    final_scores = final.select(f"score_seat_{seat}" for seat in range(n_players)).to_numpy().ravel().tolist()
    assert final_scores == seats.sort("game_index", "seat")["score"].to_list()
    absent = final.select(f"score_seat_{seat}" for seat in range(n_players, 4))   # seats a 2-player game lacks
    assert absent.null_count().sum_horizontal().item() == final.height * (4 - n_players)
    config = manifests.read_manifest(tmp_path / "with")["config"]
    assert config["tables"] == ["games", "seats", "courtiers", "standings"]
    assert manifests.read_manifest(tmp_path / "without")["config"]["tables"] == ["games", "seats", "courtiers"]


def test_a_run_asked_again_with_other_tables_is_refused_in_one_line(tmp_path):
    out = tmp_path / "run"
    assert simulate(out).exit_code == 0
    assert_one_line_error(simulate(out, "--tables", "standings"), "already holds a different run", "tables")
    assert "already holds this completed run" in simulate(out).stderr


@pytest.mark.parametrize("asked, message", [
    ("standing", "--tables: expected one of standings for louis-xiv, found 'standing'"),
    ("seats", "found 'seats' (seats is always written)"),
])
def test_an_unknown_optional_table_is_one_error_line(tmp_path, asked, message):
    result = simulate(tmp_path / "run", "--tables", asked)
    assert_one_line_error(result, message)
    assert not (tmp_path / "run" / "run.yaml").exists()


def experiment_file(tmp_path: Path, **fields) -> Path:
    text = {"name": "standings_trial", "game": "heads-of-state", "players": [3], "bots": ["greedy", "random"],
            "matchups": "with_repeats", "games_per_matchup": 3, "seed": 2, "chunk_size": 3} | fields
    path = tmp_path / "experiment.yaml"
    path.write_text(yaml.safe_dump(text))
    return path


def test_an_experiment_with_tables_standings_writes_it(tmp_path):
    path = experiment_file(tmp_path, tables=["standings"])
    result = invoke("run", path, "--out", tmp_path / "run")
    assert result.exit_code == 0, result.output
    standings = pl.read_parquet(tmp_path / "run" / "standings.parquet")
    games = pl.read_parquet(tmp_path / "run" / "games.parquet")
    assert sorted(standings["game_index"].unique().to_list()) == sorted(games["game_index"].to_list())
    assert manifests.read_manifest(tmp_path / "run")["config"]["tables"][-1] == "standings"


def test_an_experiment_naming_an_unknown_table_is_refused_naming_file_and_key(tmp_path):
    path = experiment_file(tmp_path, tables=["standing"])
    assert_one_line_error(invoke("run", path, "--out", tmp_path / "run"),
                          f"{path}: key 'tables': expected one of standings for heads-of-state, found 'standing'")


def test_an_experiment_without_the_key_keeps_its_identity(tmp_path):
    """Runs of experiments written before the key existed keep their run_hash: the identity
    holds the tables once, and the same as before when none is asked for."""
    *_, config = prepare_experiment(experiment_file(tmp_path))
    assert "tables" not in config["experiment"]
    assert config["tables"] == list(HEADS_OF_STATE.tables)
    *_, asking = prepare_experiment(experiment_file(tmp_path, tables=["standings"]))
    assert asking["experiment"] == config["experiment"]
    assert asking["tables"] == [*HEADS_OF_STATE.tables, "standings"]
