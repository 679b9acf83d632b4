"""Runs a designer can trust: a run is its resolved rules, finished parts are verified before
they are reused, a dead worker's chunk is played again, and courtsim deletes only its own files."""
from __future__ import annotations

import errno
import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from sim.core import results, run_directory
from sim.core import run_manifest as manifests
from sim.core.engine import GAME_INDEX_LIMIT, ConfigError
from sim.core.results import PARTS_DIR, part_path, read_table
from sim.core.runner import MAX_CHUNKS, Cell, run_cells

from .fake_engine import FakeEngine

TABLES = ("games", "seats", "events")
ROOT = Path(__file__).resolve().parents[2]


def same_tables(out_dir, reference_dir) -> bool:
    return all(read_table(out_dir, table).equals(read_table(reference_dir, table)) for table in TABLES)


def interrupted(run, out_dir, crash_at_game=35, **options):
    """A run that crashed in the chunk holding ``crash_at_game`` (earlier chunks finished)."""
    with pytest.raises(RuntimeError, match="simulated crash"):
        run(out_dir, engine=FakeEngine(crash_at_game=crash_at_game), n_games=50, chunk_size=10, **options)


# ----------------------------------------------------------------------------- identity

def test_run_yaml_records_the_resolved_rules_bots_by_name_versions_and_one_hash(tmp_path, run):
    run(tmp_path / "run")
    manifest = yaml.safe_load((tmp_path / "run" / "run.yaml").read_text())
    config = manifest["config"]
    assert manifest["courtsim_run"] == manifests.FORMAT
    assert manifest["run_hash"] == hashlib.sha256(manifests.canonical(config).encode()).hexdigest()
    assert config["setup"]["rules"] == {"bonus": 1.0, "rounds": 3.0}
    assert config["bots"][0]["parameters"] == {"aggression": 0.5, "name_length": 6.0}
    assert config["kernel_sources"] and config["courtsim_version"]
    assert manifest["provenance"] == {"game_file": ""}
    assert set(manifest["files"]) == {f"{table}.parquet" for table in TABLES}


def test_rules_changed_between_interrupt_and_resume_are_refused_naming_the_key(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    changed = FakeEngine()
    original = changed.load_setup

    def load_setup(game_file=None, rule_overrides=None):
        return original(game_file, {"bonus": 2.0})
    changed.load_setup = load_setup
    with pytest.raises(ConfigError, match=r"key 'setup.rules.bonus': 1.0 in the run, 2.0 now"):
        run(out_dir, engine=changed, n_games=50, chunk_size=10)
    run(out_dir, n_games=50, chunk_size=10)  # the unchanged command still resumes


def test_a_refusal_suggests_overwrite_only_where_the_command_has_it(tmp_path, run):
    """A study's cell runs (sweep, tune, sensitivity) have no --overwrite to suggest."""
    run(tmp_path / "run", seed=7)
    with pytest.raises(ConfigError, match=r"choose another --out or pass --overwrite$"):
        run(tmp_path / "run", seed=8)
    engine = FakeEngine()
    setup, bots = engine.load_setup(), [engine.resolve_bot(name) for name in ("greedy", "random", "greedy")]
    config = manifests.run_config(engine, setup, 3, bots, 8, 45, 10)
    with pytest.raises(ConfigError, match=r"key 'seed': 7 in the run, 8 now\); choose another --out$"):
        run_cells(engine, setup, [Cell(3, tuple(bots), 0, 45)], 8, tmp_path / "run", config, chunk_size=10,
                  progress=False, offers_overwrite=False)


def test_a_bot_changed_between_interrupt_and_resume_is_refused_naming_the_parameter(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)

    class Retuned(FakeEngine):
        def resolve_bot(self, name):
            seat = super().resolve_bot(name)
            return type(seat)(seat.name, seat.family, seat.params * 2, seat.family_name, seat.parameter_names)
    with pytest.raises(ConfigError, match=r"key 'bots.0.parameters.aggression': 0.5 in the run, 1.0 now"):
        run(out_dir, engine=Retuned(), n_games=50, chunk_size=10)


def test_an_edited_run_yaml_is_neither_resumed_nor_deleted(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    manifest_file = out_dir / "run.yaml"
    manifest_file.write_text(manifest_file.read_text().replace("seed: 7", "seed: 8"))
    for overwrite in (False, True):
        with pytest.raises(ConfigError, match="edited after courtsim wrote it"):
            run(out_dir, n_games=50, chunk_size=10, overwrite=overwrite)
    assert "seed: 8" in manifest_file.read_text()


# ----------------------------------------------------------------------------- verified parts

def test_a_truncated_part_is_named_deleted_and_played_again(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    part = part_path(out_dir, "seats", 10)
    part.write_bytes(part.read_bytes()[:100])
    messages = []
    result = run(out_dir, n_games=50, chunk_size=10, log=messages.append)
    assert any("games 10..19" in message and "seats.parquet/chunk-000000000010.parquet" in message
               and "truncated" in message for message in messages), messages
    assert result.chunks_reused == 2 and result.games_played == 30
    assert same_tables(out_dir, tmp_path / "reference")


def test_a_part_of_another_chunk_copied_over_a_chunk_is_detected(tmp_path, run):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    for table in TABLES:  # a valid part of chunk 0 in place of chunk 1: games duplicated, games missing
        part_path(out_dir, table, 10).write_bytes(part_path(out_dir, table, 0).read_bytes())
    messages = []
    run(out_dir, n_games=50, chunk_size=10, log=messages.append)
    assert any("games 10..19" in message and "deleting its parts" in message for message in messages)
    assert read_table(out_dir, "games")["game_index"].to_pylist() == list(range(50))
    assert same_tables(out_dir, tmp_path / "reference")


def test_a_part_with_one_byte_changed_fails_its_checksum(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    part = part_path(out_dir, "games", 0)
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))
    messages = []
    run(out_dir, n_games=50, chunk_size=10, log=messages.append)
    assert any("games 0..9" in message and "checksum" in message for message in messages), messages


def test_a_chunk_entry_of_another_run_is_not_trusted(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    entry = results.entry_path(out_dir, 0)
    entry.write_text(entry.read_text().replace('"run_hash": "', '"run_hash": "0'))
    messages = []
    result = run(out_dir, n_games=50, chunk_size=10, log=messages.append)
    assert result.chunks_reused == 2
    assert any("another run" in message for message in messages)


@pytest.mark.parametrize("damage", ["truncated", "one byte", "missing", "entry missing"])
def test_a_completed_run_whose_part_was_damaged_names_it_and_plays_that_chunk_again(tmp_path, run, damage):
    """A complete run is verified part by part against its chunks' entries (kept for this), as an
    interrupted run is: a damaged part is named and only its chunk is played again."""
    run(tmp_path / "reference")
    out_dir = tmp_path / "run"
    run(out_dir)
    part = part_path(out_dir, "seats", 20)
    if damage == "truncated":
        part.write_bytes(part.read_bytes()[:-10])
    elif damage == "one byte":
        data = bytearray(part.read_bytes())
        data[len(data) // 2] ^= 0xFF
        part.write_bytes(bytes(data))
    elif damage == "missing":
        part.unlink()
    else:
        results.entry_path(out_dir, 20).unlink()
    messages = []
    result = run(out_dir, log=messages.append)
    said = {"truncated": "seats.parquet/chunk-000000000020.parquet has", "one byte": "does not match its checksum",
            "missing": "seats.parquet/chunk-000000000020.parquet is missing", "entry missing": "no finished entry"}
    assert any("completed run" in message and "games 20..29" in message and said[damage] in message
               for message in messages), messages
    assert not result.already_complete and result.games_played == 10 and result.chunks_reused == 4
    assert same_tables(out_dir, tmp_path / "reference")
    assert yaml.safe_load((out_dir / "run.yaml").read_text())["files"] == \
        yaml.safe_load((tmp_path / "reference" / "run.yaml").read_text())["files"]
    assert run(out_dir).already_complete


def test_a_completed_run_whose_entries_disagree_with_run_yaml_is_refused(tmp_path, run):
    out_dir = tmp_path / "run"
    run(out_dir)
    manifest = manifests.read_manifest(out_dir)
    manifest["files"]["seats.parquet"]["rows"] += 1
    manifests.write_manifest(out_dir, manifest)
    with pytest.raises(ConfigError, match=r"seats.parquet: the entries of its parts do not add up to run.yaml"):
        run(out_dir)


# ----------------------------------------------------------------------------- dead processes

class KillsItsWorkerOnce(FakeEngine):
    """Kills the worker process playing game ``kill_at_game``, the first time only (a marker
    file remembers it across processes): what an out-of-memory kill or `kill -9` does."""

    def __init__(self, marker: Path, kill_at_game: int):
        super().__init__()
        self.marker, self.kill_at_game = marker, kill_at_game

    def play_chunk(self, setup, n_players, bots, seed, first_game, n_games):
        if first_game <= self.kill_at_game < first_game + n_games and not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return super().play_chunk(setup, n_players, bots, seed, first_game, n_games)


def test_a_killed_worker_has_its_chunk_played_again_and_the_run_completes(tmp_path, run):
    run(tmp_path / "reference", n_games=60, chunk_size=10)
    messages = []
    engine = KillsItsWorkerOnce(tmp_path / "killed", kill_at_game=25)
    result = run(tmp_path / "run", engine=engine, n_games=60, chunk_size=10, jobs=2, log=messages.append)
    assert (tmp_path / "killed").exists()
    assert any("worker process died" in message for message in messages), messages
    assert result.games_played == 60
    assert same_tables(tmp_path / "run", tmp_path / "reference")


SLOW_RUN = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, {root!r})
    from tests.core.fake_engine import FakeEngine
    from sim.core.runner import run_simulation

    class Slow(FakeEngine):
        def play_chunk(self, *args):
            open(os.path.join({pids!r}, str(os.getpid())), "w").close()
            time.sleep(0.5)
            return super().play_chunk(*args)

    engine = Slow()
    seats = [engine.resolve_bot("greedy")] * 2
    run_simulation(engine, engine.load_setup(), 2, seats, 1, 4000, {out!r}, jobs=2, chunk_size=10,
                   progress=False, log=lambda message: None)
""")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped) is not running
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


def test_sigkill_of_the_main_process_leaves_no_worker_running(tmp_path):
    pids = tmp_path / "pids"
    pids.mkdir()
    script = SLOW_RUN.format(root=str(ROOT), pids=str(pids), out=str(tmp_path / "run"))
    main = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while len([p for p in pids.iterdir() if int(p.name) != main.pid]) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = [int(p.name) for p in pids.iterdir() if int(p.name) != main.pid]
        assert len(workers) >= 2, "the workers never started"
        main.send_signal(signal.SIGKILL)
        main.wait()
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if alive(pid)]
    finally:
        if main.poll() is None:
            main.kill()
    # and the same run resumes from what the killed run finished
    assert (tmp_path / "run" / "run.yaml").exists()


def test_a_full_disk_is_one_line_and_keeps_every_finished_chunk(tmp_path, run, monkeypatch):
    run(tmp_path / "reference", n_games=50, chunk_size=10)
    real_write = results.write_bytes_atomically
    calls = {"n": 0}

    def write_until_full(data, path, temporary=None):
        calls["n"] += 1
        if calls["n"] > 10:  # a chunk writes 2 entries and 3 parts: the third chunk finds the disk full
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(data, path, temporary)
    monkeypatch.setattr(results, "write_bytes_atomically", write_until_full)
    with pytest.raises(ConfigError, match="No space left on device; every finished chunk is kept"):
        run(tmp_path / "run", n_games=50, chunk_size=10)
    monkeypatch.setattr(results, "write_bytes_atomically", real_write)
    result = run(tmp_path / "run", n_games=50, chunk_size=10)
    assert result.chunks_reused == 2
    assert same_tables(tmp_path / "run", tmp_path / "reference")


# ----------------------------------------------------------------------------- files

def test_a_completed_rerun_leaves_no_temporary_file(tmp_path, run):
    out_dir = tmp_path / "run"
    run(out_dir)
    leftovers = [out_dir / ".seats.parquet.4242.tmp", out_dir / ".run.yaml.17.tmp"]
    for path in leftovers:
        path.write_bytes(b"half written")
    (out_dir / ".my-notes.tmp").write_text("a user's file")
    result = run(out_dir)
    assert result.already_complete
    assert not any(path.exists() for path in leftovers)
    assert (out_dir / ".my-notes.tmp").exists()
    assert [path.name for path in (out_dir / PARTS_DIR).iterdir()] == [results.ENTRIES_DIR]   # the entries stay


def test_a_resumed_run_removes_the_temporaries_of_killed_writers(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    stale = out_dir / PARTS_DIR / "seats" / ".chunk-000000000030.parquet.999.tmp"   # where parts are written
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_bytes(b"half")
    run(out_dir, n_games=50, chunk_size=10)
    assert not stale.exists()
    assert [path.name for path in (out_dir / PARTS_DIR).iterdir()] == [results.ENTRIES_DIR]


def test_a_write_test_left_by_a_ctrl_c_is_removed_not_taken_for_a_users_file(tmp_path, run):
    """A Ctrl-C between creating the empty file that proves --out writable and removing it leaves
    the file behind in a directory without a run.yaml yet: the same command again plays the run."""
    out_dir = tmp_path / "run"
    out_dir.mkdir()
    left_over = out_dir / f"{run_directory.WRITE_TEST_PREFIX}fbi84dgp"
    left_over.write_bytes(b"")
    run(out_dir)
    run(tmp_path / "reference")
    assert not left_over.exists() and same_tables(out_dir, tmp_path / "reference")


def test_overwrite_never_deletes_outside_out_through_a_hand_made_run_yaml(tmp_path, run):
    victim = tmp_path / "victim.parquet"
    victim.write_text("precious")
    out_dir = tmp_path / "run"
    out_dir.mkdir()
    (out_dir / "run.yaml").write_text(yaml.safe_dump({"status": "complete", "config": {"tables": ["../victim"]}}))
    with pytest.raises(ConfigError, match="not written by this courtsim"):
        run(out_dir, overwrite=True)
    assert victim.read_text() == "precious"
    assert (out_dir / "run.yaml").exists()


def test_overwrite_keeps_a_users_run_yaml_it_cannot_read(tmp_path, run):
    out_dir = tmp_path / "run"
    out_dir.mkdir()
    (out_dir / "run.yaml").write_text("my own notes: [unclosed")
    with pytest.raises(ConfigError, match="not a readable courtsim run file"):
        run(out_dir, overwrite=True)
    assert (out_dir / "run.yaml").read_text() == "my own notes: [unclosed"


def test_overwrite_deletes_only_listed_parts(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    old_hash = yaml.safe_load((out_dir / "run.yaml").read_text())["run_hash"]
    users = [out_dir / PARTS_DIR / "my-notes.txt", out_dir / PARTS_DIR / "seats" / "chunk-keep.parquet"]
    for path in users:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("a user's file")
    run(out_dir, seed=99, n_games=50, chunk_size=10, overwrite=True)
    assert all(path.read_text() == "a user's file" for path in users)
    assert not list((out_dir / PARTS_DIR).rglob("chunk-0*.parquet"))
    assert old_hash not in {run_directory.read_entry(out_dir, first)["run_hash"] for first in range(0, 50, 10)}


@pytest.mark.parametrize("where", ["/", "home"])
def test_out_at_the_root_or_home_is_refused(tmp_path, run, where):
    out_dir = Path("/") if where == "/" else Path.home()
    with pytest.raises(ConfigError, match="expected a directory of the run's own"):
        run(out_dir, overwrite=True)


# ----------------------------------------------------------------------------- sizes

def test_more_games_than_a_table_can_index_are_refused_at_once(tmp_path, run):
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=r"in one run .*expected a number of games in 1 .. 2,147,483,647"):
        run(tmp_path / "run", n_games=10_000_000_000_000_000_000)
    assert time.perf_counter() - started < 30  # no chunk list was built (a guard, not a timing)
    assert not (tmp_path / "run").exists()
    assert GAME_INDEX_LIMIT == 2**31


def test_more_chunks_than_a_directory_should_hold_are_refused(tmp_path, run):
    with pytest.raises(ConfigError, match="raise the chunk size"):
        run(tmp_path / "run", n_games=MAX_CHUNKS + 1, chunk_size=1)


def test_every_file_of_a_finished_chunk_is_listed_by_its_entry(tmp_path, run):
    out_dir = tmp_path / "run"
    interrupted(run, out_dir)
    entry = run_directory.read_entry(out_dir, 10)
    assert entry["status"] == "done" and (entry["first_game"], entry["n_games"]) == (10, 10)
    for table in TABLES:
        record = entry["files"][table]
        path = out_dir / record["path"]
        assert path == part_path(out_dir, table, 10)
        assert results.file_digest(path) == {"bytes": record["bytes"], "sha256": record["sha256"]}
    assert entry["files"]["seats"]["rows"] == 30
