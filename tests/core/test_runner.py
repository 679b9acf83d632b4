"""The batch runner: chunking, ordering, determinism across jobs/chunk sizes, resume, refusal."""
from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest
import yaml

from sim.core.engine import ConfigError
from sim.core.results import ENTRIES_DIR, PARTS_DIR, part_path, read_table, table_path
from sim.core.runner import Chunk, plan_chunks

from .fake_engine import FakeEngine

TABLES = ("games", "seats", "events")


def read_all(out_dir):
    return {table: read_table(out_dir, table) for table in TABLES}


def test_plan_chunks_covers_every_game_once():
    assert plan_chunks(45, 10) == [Chunk(0, 10), Chunk(10, 10), Chunk(20, 10), Chunk(30, 10), Chunk(40, 5)]
    assert plan_chunks(5, 100) == [Chunk(0, 5)]
    assert plan_chunks(10, 5) == [Chunk(0, 5), Chunk(5, 5)]


def test_tables_are_complete_and_in_game_order(tmp_path, run):
    result = run(tmp_path / "run", n_games=45, chunk_size=10)
    tables = read_all(tmp_path / "run")
    assert tables["games"]["game_index"].to_numpy().tolist() == list(range(45))
    seats = tables["seats"]
    assert seats.num_rows == 45 * 3
    assert seats["game_index"].to_numpy().tolist() == np.repeat(np.arange(45), 3).tolist()
    assert seats["seat"].to_numpy().tolist() == [0, 1, 2] * 45  # seat order kept inside a game
    assert np.all(np.diff(tables["events"]["game_index"].to_numpy()) >= 0)
    assert result.rows == {table: tables[table].num_rows for table in TABLES}
    assert result.games_played == 45 and result.chunks_total == 5 and result.chunks_reused == 0
    # every table is a directory of one part per chunk and nothing else; the entries are kept
    chunk_names = [f"chunk-{first:012d}" for first in range(0, 45, 10)]
    for table in TABLES:
        assert result.files[table] == table_path(tmp_path / "run", table)
        assert sorted(path.name for path in table_path(tmp_path / "run", table).iterdir()) == \
            [f"{name}.parquet" for name in chunk_names]
    assert [path.name for path in (tmp_path / "run" / PARTS_DIR).iterdir()] == [ENTRIES_DIR]
    assert sorted(path.name for path in (tmp_path / "run" / PARTS_DIR / ENTRIES_DIR).iterdir()) == \
        [f"{name}.json" for name in chunk_names]
    assert sorted(path.name for path in (tmp_path / "run").iterdir()) == \
        sorted([".courtsim.lock", PARTS_DIR, "run.yaml", *(f"{table}.parquet" for table in TABLES)])


def test_run_yaml_describes_each_table_as_a_dataset(tmp_path, run):
    result = run(tmp_path / "run", n_games=45, chunk_size=10)
    manifest = yaml.safe_load((tmp_path / "run" / "run.yaml").read_text())
    for table in TABLES:
        record = manifest["files"][f"{table}.parquet"]
        parts = sorted(table_path(tmp_path / "run", table).iterdir())
        assert record["rows"] == result.rows[table] == manifest["rows"][table]
        assert record["parts"] == len(parts) == 5
        assert record["bytes"] == sum(path.stat().st_size for path in parts)
        assert len(record["parts_sha256"]) == 64
    assert "merge_seconds" not in manifest["timings"] and manifest["timings"]["finish_seconds"] < 5
    run(tmp_path / "again", n_games=45, chunk_size=10)      # deterministic: the same record
    assert yaml.safe_load((tmp_path / "again" / "run.yaml").read_text())["files"] == manifest["files"]


def test_output_identical_whatever_jobs_and_chunk_size(tmp_path, run):
    run(tmp_path / "reference", jobs=1, chunk_size=1000)
    reference = read_all(tmp_path / "reference")
    for jobs, chunk_size in [(1, 1), (1, 7), (2, 7), (2, 45)]:
        out_dir = tmp_path / f"jobs{jobs}-chunk{chunk_size}"
        run(out_dir, jobs=jobs, chunk_size=chunk_size)
        for table, expected in reference.items():
            assert read_table(out_dir, table).equals(expected), (table, jobs, chunk_size)


def test_different_seed_gives_different_games(tmp_path, run):
    run(tmp_path / "a", seed=1)
    run(tmp_path / "b", seed=2)
    assert not read_table(tmp_path / "a", "seats").equals(read_table(tmp_path / "b", "seats"))


def test_run_yaml_records_configuration_and_timings(tmp_path, run):
    run(tmp_path / "run", seed=7, n_games=45, chunk_size=10, jobs=1)
    manifest = yaml.safe_load((tmp_path / "run" / "run.yaml").read_text())
    assert manifest["status"] == "complete"
    config = manifest["config"]
    assert config["game"] == "fake"
    assert (config["players"], config["seed"], config["n_games"], config["chunk_size"]) == (3, 7, 45, 10)
    assert config["tables"] == list(TABLES)
    assert config["bots"][1] == {"seat": 1, "name": "random", "family": "random",
                                 "parameters": {"aggression": 0.5, "name_length": 6.0}}
    assert config["setup"] == {"source": "builtin", "rules": {"bonus": 1.0, "rounds": 3.0}}
    assert config["courtsim_version"]
    assert manifest["rows"]["games"] == 45
    timings = manifest["timings"]
    assert {"started_at", "finished_at", "wall_seconds", "games_per_second", "jobs"} <= set(timings)
    assert timings["games_played"] == 45


def test_crash_keeps_finished_chunks_and_resume_reuses_them(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "crashed"
    with pytest.raises(RuntimeError, match="simulated crash"):
        run(out_dir, engine=FakeEngine(crash_at_game=25), n_games=50, chunk_size=10)
    assert yaml.safe_load((out_dir / "run.yaml").read_text())["status"] == "incomplete"
    for first_game in (0, 10):
        assert all(part_path(out_dir, table, first_game).exists() for table in TABLES)
    assert not part_path(out_dir, "games", 20).exists()

    messages = []
    result = run(out_dir, n_games=50, chunk_size=10, log=messages.append)
    assert result.chunks_reused == 2 and result.games_played == 30
    assert any("reused 2 of 5" in message for message in messages)
    for table, expected in read_all(tmp_path / "reference").items():
        assert read_table(out_dir, table).equals(expected), table


def test_chunk_missing_one_table_is_played_again(tmp_path, run):
    out_dir = tmp_path / "run"
    with pytest.raises(RuntimeError):
        run(out_dir, engine=FakeEngine(crash_at_game=15), n_games=30, chunk_size=10)
    part_path(out_dir, "events", 0).unlink()  # as if the crash hit between two tables
    result = run(out_dir, n_games=30, chunk_size=10)
    assert result.chunks_reused == 0 and result.games_played == 30


def test_same_completed_run_again_does_nothing(tmp_path, run):
    run(tmp_path / "run")

    def stamps():
        return {str(path): path.stat().st_mtime_ns for path in sorted((tmp_path / "run").rglob("*"))
                if path.name != ".courtsim.lock"}      # the lock is taken again
    before = stamps()
    result = run(tmp_path / "run")
    assert result.already_complete and result.games_played == 0
    assert stamps() == before


def test_completed_run_with_a_missing_table_plays_its_chunks_again(tmp_path, run):
    run(tmp_path / "reference")
    run(tmp_path / "run")
    shutil.rmtree(tmp_path / "run" / "seats.parquet")
    messages = []
    result = run(tmp_path / "run", log=messages.append)
    assert any("seats.parquet/chunk-000000000000.parquet is missing" in message for message in messages), messages
    assert not result.already_complete and result.games_played == 45
    for table, expected in read_all(tmp_path / "reference").items():
        assert read_table(tmp_path / "run", table).equals(expected), table
    assert run(tmp_path / "run").already_complete


def test_refuses_a_different_run_in_the_same_directory(tmp_path, run):
    run(tmp_path / "run", seed=1)
    with pytest.raises(ConfigError, match=r"different run.*seed.*--overwrite"):
        run(tmp_path / "run", seed=2)
    with pytest.raises(ConfigError, match="chunk_size"):
        run(tmp_path / "run", seed=1, chunk_size=3)


def test_overwrite_replaces_a_different_run(tmp_path, run):
    run(tmp_path / "run", seed=1)
    run(tmp_path / "run", seed=2, overwrite=True)
    run(tmp_path / "fresh", seed=2)
    assert read_table(tmp_path / "run", "seats").equals(read_table(tmp_path / "fresh", "seats"))
    assert yaml.safe_load((tmp_path / "run" / "run.yaml").read_text())["config"]["seed"] == 2


def test_refuses_a_directory_of_other_files_without_run_yaml(tmp_path, run):
    out_dir = tmp_path / "run"
    out_dir.mkdir()
    (out_dir / "games.parquet").write_bytes(b"not ours")
    (out_dir / "notes.txt").write_text("a user's file")
    for overwrite in (False, True):
        with pytest.raises(ConfigError, match="not a courtsim run"):
            run(out_dir, overwrite=overwrite)
    assert (out_dir / "games.parquet").read_bytes() == b"not ours"


def test_files_added_to_a_run_directory_are_left_alone(tmp_path, run):
    out_dir = tmp_path / "run"
    run(out_dir)
    (out_dir / "notes.txt").write_text("keep me")
    (out_dir / "report.html").write_text("keep me too")
    run(out_dir, seed=99, overwrite=True)
    assert (out_dir / "notes.txt").read_text() == "keep me"
    assert (out_dir / "report.html").read_text() == "keep me too"


def test_unwritable_output_directory_fails_before_playing(tmp_path, run):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ConfigError, match="cannot write to output directory"):
        run(blocker / "run", engine=FakeEngine(crash_at_game=0))  # would crash if it played


@pytest.mark.parametrize("options, message", [
    ({"n_players": 5, "bots": ("greedy",) * 5}, "played by"),
    ({"bots": ("greedy", "greedy")}, "need 3 bots"),
    ({"n_games": 0}, "at least 1"),
    ({"chunk_size": 0}, "at least 1"),
    ({"seed": -1}, "seed"),
    ({"jobs": 0}, "jobs"),
])
def test_bad_arguments_are_config_errors(tmp_path, run, options, message):
    with pytest.raises(ConfigError, match=message):
        run(tmp_path / "run", **options)


def test_engine_contract_violation_is_reported(tmp_path, run):
    class NoGameIndex(FakeEngine):
        def play_chunk(self, *args):
            tables = super().play_chunk(*args)
            del tables["events"]["game_index"]
            return tables

    with pytest.raises(ValueError, match="'events' has no 'game_index'"):
        run(tmp_path / "run", engine=NoGameIndex())


def test_part_files_are_valid_parquet_while_running(tmp_path, run):
    out_dir = tmp_path / "run"
    with pytest.raises(RuntimeError):
        run(out_dir, engine=FakeEngine(crash_at_game=12), n_games=20, chunk_size=10)
    part = pq.read_table(part_path(out_dir, "seats", 0))
    assert part.num_rows == 30
    assert not list(out_dir.rglob("*.tmp"))


def write_part(path, game_indexes, modes):
    import pyarrow as pa
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.table({"game_index": pa.array(game_indexes, pa.int64()),
                      "mode": pa.array(modes).dictionary_encode()})          # each part its own dictionary
    pq.write_table(table, path)
    return path


def test_a_directory_of_parts_reads_as_one_table_in_game_order_with_every_reader(tmp_path):
    """What the reports rely on: polars, pyarrow and pandas read a table's directory as one table,
    parts in name (= game) order, each part with its own dictionary of labels (none is empty)."""
    directory = tmp_path / "courtiers.parquet"
    write_part(directory / "chunk-000000000010.parquet", [10, 11, 12], ["influence", "gold", "mission"])
    write_part(directory / "chunk-000000000000.parquet", [0, 1], ["gold", "gold"])
    write_part(directory / "chunk-000000000013.parquet", [], [])
    write_part(directory / "chunk-000000000020.parquet", [20], ["influence"])
    modes = ["gold", "gold", "influence", "gold", "mission", "influence"]
    games = [0, 1, 10, 11, 12, 20]
    frame = pl.read_parquet(directory)
    assert frame["game_index"].to_list() == games and frame["mode"].cast(pl.String).to_list() == modes
    assert pl.scan_parquet(directory).filter(pl.col("mode") == "gold").select(pl.len()).collect().item() == 3
    table = pq.read_table(directory)
    assert table["game_index"].to_pylist() == games and table["mode"].to_pylist() == modes
    assert pd.read_parquet(directory)["mode"].astype(str).tolist() == modes
