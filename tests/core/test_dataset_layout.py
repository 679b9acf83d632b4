"""Each table of a run is a Parquet dataset: the directory ``<table>.parquet/`` of one part per
chunk, written there by the workers (no merge). Nothing but whole parts is ever in a table
directory, a user's file there is refused, and the run directories of earlier builds (one merged
file per table; an interrupted run's parts under ``parts/<table>/``) still work."""
from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq
import pytest
import yaml

from sim.core import results, run_directory
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError
from sim.core.results import PARTS_DIR, legacy_part_path, part_path, read_table, table_path

from .fake_engine import FakeEngine

TABLES = ("games", "seats", "events")
PART_NAME = run_directory.CHUNK_FILE


def same_tables(out_dir, reference_dir) -> bool:
    return all(read_table(out_dir, table).equals(read_table(reference_dir, table)) for table in TABLES)


def interrupted(run, out_dir, crash_at_game=35):
    with pytest.raises(RuntimeError, match="simulated crash"):
        run(out_dir, engine=FakeEngine(crash_at_game=crash_at_game), n_games=50, chunk_size=10)


def table_directory_names(out_dir) -> set[str]:
    return {path.name for table in TABLES if table_path(out_dir, table).is_dir()
            for path in table_path(out_dir, table).iterdir()}


# ----------------------------------------------------------------------------- the layout

def test_only_whole_parts_ever_land_in_a_table_directory(tmp_path, run, monkeypatch):
    """Every write (parts, entries, run.yaml) goes through a temporary outside the table
    directories; after each one, the table directories hold part names only."""
    out_dir = tmp_path / "run"
    real_write = results.write_bytes_atomically
    seen = []

    def watched(data, path, temporary=None):
        real_write(data, path, temporary)
        used = temporary or results.temporary_name(path)
        assert not any(used.parent == table_path(out_dir, table) for table in TABLES), used
        names = table_directory_names(out_dir)
        assert all(PART_NAME.fullmatch(name) and name.endswith(".parquet") for name in names), names
        seen.append(path)
    monkeypatch.setattr(results, "write_bytes_atomically", watched)
    interrupted(run, out_dir)
    run(out_dir, n_games=50, chunk_size=10)
    assert any(path.parent == table_path(out_dir, "seats") for path in seen)
    assert table_directory_names(out_dir) == {f"chunk-{first:012d}.parquet" for first in range(0, 50, 10)}


def test_an_interrupted_runs_tables_are_readable_and_its_resume_equals_a_one_shot_run(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "run"
    interrupted(run, out_dir, crash_at_game=25)
    assert read_table(out_dir, "games")["game_index"].to_pylist() == list(range(20))   # the finished chunks
    result = run(out_dir, n_games=50, chunk_size=10)
    assert result.chunks_reused == 2 and same_tables(out_dir, tmp_path / "reference")
    assert yaml.safe_load((out_dir / "run.yaml").read_text())["files"] == \
        yaml.safe_load((tmp_path / "reference" / "run.yaml").read_text())["files"]


@pytest.mark.parametrize("state", ["interrupted", "complete", "overwrite"])
def test_a_users_file_in_a_table_directory_is_refused_and_kept(tmp_path, run, state):
    out_dir = tmp_path / "run"
    if state == "interrupted":
        interrupted(run, out_dir)
    else:
        run(out_dir, n_games=50, chunk_size=10)
    notes = table_path(out_dir, "seats") / "notes.txt"
    notes.write_text("mine")
    before = sorted(str(path) for path in out_dir.rglob("*"))
    with pytest.raises(ConfigError, match=r"seats.parquet holds files that are not parts of the run \(notes.txt\)"
                                          r".*move it away"):
        run(out_dir, n_games=50, chunk_size=10, seed=8 if state == "overwrite" else 7,
            overwrite=state == "overwrite")
    assert notes.read_text() == "mine"
    assert sorted(str(path) for path in out_dir.rglob("*")) == before       # nothing deleted, nothing written
    notes.unlink()
    run(out_dir, n_games=50, chunk_size=10)


def test_a_file_named_as_a_part_of_no_chunk_is_a_users_file(tmp_path, run):
    out_dir = tmp_path / "run"
    run(out_dir, n_games=50, chunk_size=10)
    stray = table_path(out_dir, "games") / "chunk-000000000005.parquet"
    shutil.copy(part_path(out_dir, "games", 0), stray)
    with pytest.raises(ConfigError, match="chunk-000000000005.parquet"):
        run(out_dir, n_games=50, chunk_size=10)
    with pytest.raises(ConfigError, match="chunk-000000000005.parquet"):
        run(out_dir, n_games=50, chunk_size=10, seed=8, overwrite=True)
    assert stray.exists()


def test_overwrite_deletes_the_listed_parts_then_the_emptied_table_directories(tmp_path, run):
    out_dir = tmp_path / "run"
    run(out_dir, n_games=50, chunk_size=10, seed=1)
    (out_dir / "notes.txt").write_text("mine")
    (out_dir / PARTS_DIR / "my-notes.txt").write_text("mine too")

    class Other(FakeEngine):
        tables = ("games", "seats")
    run(out_dir, engine=Other(), n_games=30, chunk_size=15, seed=2, overwrite=True)
    assert not table_path(out_dir, "events").exists()           # the old run's table: gone, directory too
    assert sorted(path.name for path in table_path(out_dir, "games").iterdir()) == \
        ["chunk-000000000000.parquet", "chunk-000000000015.parquet"]
    assert (out_dir / "notes.txt").read_text() == "mine" and (out_dir / PARTS_DIR / "my-notes.txt").exists()
    assert run_directory.listed_entries(out_dir, manifests.read_manifest(out_dir)["run_hash"]) == [0, 15]
    assert len(list((out_dir / PARTS_DIR / results.ENTRIES_DIR).iterdir())) == 2


# ----------------------------------------------------------------------------- earlier builds' run directories

def to_merged_layout(out_dir) -> None:
    """What an earlier build left of a complete run: one merged file per table, its digest in
    run.yaml, no parts and no entries (as its merge and delete_parts did)."""
    manifest = manifests.read_manifest(out_dir)
    files = {}
    for table in TABLES:
        merged = read_table(out_dir, table)
        shutil.rmtree(table_path(out_dir, table))
        pq.write_table(merged, table_path(out_dir, table), compression="zstd")
        files[f"{table}.parquet"] = {"rows": merged.num_rows, **results.file_digest(table_path(out_dir, table))}
    shutil.rmtree(out_dir / PARTS_DIR)
    timings = dict(manifest["timings"])
    timings.pop("finish_seconds")
    manifest.update(files=files, timings={**timings, "merge_seconds": 0.1})
    manifests.write_manifest(out_dir, manifest)


def to_legacy_parts(out_dir) -> None:
    """What an earlier build left of an interrupted run: parts under parts/<table>/, entries naming them."""
    for table in TABLES:
        directory = table_path(out_dir, table)
        for part in directory.iterdir():
            first_game = int(part.name.removeprefix("chunk-").removesuffix(".parquet"))
            legacy_part_path(out_dir, table, first_game).parent.mkdir(parents=True, exist_ok=True)
            part.rename(legacy_part_path(out_dir, table, first_game))
        directory.rmdir()
    for entry in (out_dir / PARTS_DIR / results.ENTRIES_DIR).iterdir():
        record = json.loads(entry.read_text())
        for table, file in record["files"].items():
            file["path"] = f"parts/{table}/chunk-{record['first_game']:012d}.parquet"
        entry.write_text(json.dumps(record, indent=1))


def test_a_complete_run_of_an_earlier_build_is_read_and_verified_by_its_files_checksums(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "run"
    run(out_dir, n_games=50, chunk_size=10)
    to_merged_layout(out_dir)
    assert all(table_path(out_dir, table).is_file() for table in TABLES)
    assert same_tables(out_dir, tmp_path / "reference")
    result = run(out_dir, n_games=50, chunk_size=10)
    assert result.already_complete and result.games_played == 0
    assert result.rows == yaml.safe_load((tmp_path / "reference" / "run.yaml").read_text())["rows"]
    assert results.table_bytes(result.files["seats"]) == table_path(out_dir, "seats").stat().st_size
    merged = table_path(out_dir, "seats")
    merged.write_bytes(merged.read_bytes()[:-10])
    with pytest.raises(ConfigError, match="seats.parquet changed since the run completed"):
        run(out_dir, n_games=50, chunk_size=10)
    run(out_dir, n_games=50, chunk_size=10, seed=8, overwrite=True)       # deletes the merged files by name
    assert all(table_path(out_dir, table).is_dir() for table in TABLES)


def test_an_interrupted_run_of_an_earlier_build_resumes_with_its_verified_parts_moved_in(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    to_legacy_parts(out_dir)
    (out_dir / "games.parquet").write_bytes(b"a merged file its merge was killed after")   # listed by run.yaml
    damaged = legacy_part_path(out_dir, "events", 10)
    damaged.write_bytes(damaged.read_bytes()[:-5])
    messages = []
    result = run(out_dir, n_games=50, chunk_size=10, log=messages.append)
    assert any("games 10..19" in message and "parts/events/chunk-000000000010.parquet" in message
               for message in messages), messages
    assert result.chunks_reused == 2 and result.games_played == 30       # chunks 0 and 20 adopted
    assert same_tables(out_dir, tmp_path / "reference")
    assert [path.name for path in (out_dir / PARTS_DIR).iterdir()] == [results.ENTRIES_DIR]
    entry = run_directory.read_entry(out_dir, 0)
    assert entry["files"]["seats"]["path"] == "seats.parquet/chunk-000000000000.parquet"
    assert run(out_dir, n_games=50, chunk_size=10).already_complete


def test_a_move_of_earlier_parts_cut_short_is_finished_on_the_next_resume(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    to_legacy_parts(out_dir)
    part_path(out_dir, "games", 0).parent.mkdir()
    legacy_part_path(out_dir, "games", 0).rename(part_path(out_dir, "games", 0))   # moved, entry not yet rewritten
    result = run(out_dir, n_games=50, chunk_size=10)
    assert result.chunks_reused == 3 and same_tables(out_dir, tmp_path / "reference")
