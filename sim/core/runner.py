"""The game-independent batch runner: chunks of games in joblib workers, streamed to Parquet.

A run is a list of :class:`Cell` *cells* (a player count and the bots in seat order, with a
block of game indices); ``run_simulation`` is the one-cell case and an experiment
(``sim.core.experiments``) has one cell per seating of every match-up. The runner slices each
cell's games into chunks, and each joblib worker plays one
chunk with ``engine.play_chunk`` and writes that chunk's tables straight into the run's
tables: each table is a Parquet dataset, the directory ``<out>/<table>.parquet/`` of one part
per chunk, ``chunk-<first_game:012d>.parquet`` (sim.core.results), renamed in whole from a
temporary; only small metadata travels back, so the parent's memory stays flat however many
games run. Finished parts survive a crash or Ctrl-C, and running the same configuration again
into the same directory reuses them once their manifest entries verify them
(sim.core.run_directory); a worker that dies has its chunk played again. A run is identified by
the hash of everything it resolved (sim.core.run_manifest). There is no merge: once the last
chunk is written, ``run.yaml`` is marked complete with each table's rows, parts and bytes, and
the tables are read as they are (polars, pyarrow and pandas read a directory of parts as one
table, in file name = game order). The output is identical whatever ``jobs`` and
``chunk_size`` are, because the engine makes every game depend only on (seed, game index) and
the runner fixes the row order (within a part, and by the parts' names).
Inside ``sim.core.cluster.using_cluster`` the same chunks play on a Dask cluster instead, their
tables sent back and written here (:func:`play_chunks_on_cluster`).
"""
from __future__ import annotations

import errno
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from joblib import Parallel, delayed
from joblib.externals.loky.process_executor import TerminatedWorkerError

from sim.core import buffers, cluster, locking, results, run_directory, warm_up
from sim.core import run_manifest as manifests
from sim.core.arguments import check_game_count, check_jobs
from sim.core.engine import BotSeat, ConfigError, GameEngine, GameSetup, run_tables
from sim.core.progress import games_progress

DEFAULT_CHUNK_SIZE = 20_000
MAX_CHUNKS = 2**17              # parts per table (files in its directory)
MAX_WORKER_DEATHS = 3           # worker processes that may die in one session before it gives up
PARENT_GONE_EXIT = 70           # a worker's exit status when its parent process has gone
DISK_FULL = {errno.ENOSPC, errno.EDQUOT}


@dataclass(frozen=True)
class Cell:
    """Games ``first_game .. first_game + n_games - 1`` with ``bots`` in seat order.

    ``labels`` are constant string columns added to the games and seats tables of this cell
    (an experiment's ``matchup`` and ``seating``); the seats table always gets ``bot``."""
    n_players: int
    bots: tuple[BotSeat, ...]
    first_game: int
    n_games: int
    labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Chunk:
    """Games ``first_game .. first_game + n_games - 1``, all of cell number ``cell``."""
    first_game: int
    n_games: int
    cell: int = 0


@dataclass(frozen=True)
class ChunkDone:
    """What a worker sends back: counts and time, never the rows themselves."""
    first_game: int
    n_games: int
    rows: dict[str, int]
    seconds: float


@dataclass
class RunResult:
    out_dir: Path
    files: dict[str, Path]          # table -> its Parquet dataset (directory of parts; a file in earlier runs)
    rows: dict[str, int]            # table -> number of rows
    n_games: int
    games_played: int               # in this session (the rest were reused or already done)
    chunks_total: int
    chunks_reused: int
    wall_seconds: float
    games_per_second: float         # games played in this session / wall seconds
    already_complete: bool = False  # the directory already held this finished run
    compile_seconds: float = 0.0    # compiling the kernels on first use (in wall_seconds, not in games/s)
    manifest: dict = field(default_factory=dict)


def log_to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def plan_chunks(n_games: int, chunk_size: int) -> list[Chunk]:
    """Consecutive chunks covering ``range(n_games)``; the last may be shorter."""
    return plan_cell_chunks([Cell(0, (), 0, n_games)], chunk_size)


def plan_cell_chunks(cells: list[Cell], chunk_size: int) -> list[Chunk]:
    """Chunks of at most ``chunk_size`` games, never spanning two cells, in game order."""
    return [Chunk(first, min(chunk_size, cell.first_game + cell.n_games - first), number)
            for number, cell in enumerate(cells)
            for first in range(cell.first_game, cell.first_game + cell.n_games, chunk_size)]


def label_columns(tables: dict[str, dict], cell: Cell) -> None:
    """Record who played: ``bot`` per seat, and the cell's labels on games and seats rows."""
    seats = tables.get("seats")
    if seats is not None and "seat" in seats and cell.bots:
        seats["bot"] = np.array([bot.name for bot in cell.bots])[np.asarray(seats["seat"])]
    for table in ("games", "seats"):
        if table in tables:
            n_rows = len(tables[table][results.GAME_INDEX])
            for name, value in cell.labels:
                tables[table][name] = np.full(n_rows, value)


def play_chunk_tables(engine: GameEngine, setup: GameSetup, cell: Cell, seed: int, chunk: Chunk) -> dict:
    """Play one chunk: its tables as Arrow tables, labelled (what a cluster worker sends back)."""
    tables = engine.play_chunk(setup, cell.n_players, list(cell.bots), seed, chunk.first_game, chunk.n_games)
    written = run_tables(engine, setup)
    missing = set(written) - set(tables)
    if missing:
        raise ValueError(f"engine contract: play_chunk of {engine.name!r} did not return "
                         f"tables {sorted(missing)} (declared in engine.tables or asked for in setup.optional_tables)")
    label_columns(tables, cell)
    return {table: results.columns_to_arrow(table, tables[table], chunk.first_game, chunk.n_games)
            for table in written}


def write_chunk_parts(out_dir: Path, run_hash: str, chunk: Chunk, arrow_tables: dict) -> dict[str, int]:
    """Write a played chunk's tables as atomic part files with its manifest entry
    (sim.core.run_directory): ``writing`` before the first part, ``done`` with every part's rows
    and checksum after the last; returns the rows per table."""
    names = tuple(arrow_tables)
    run_directory.write_entry(out_dir, run_hash, chunk.first_game, chunk.n_games, names, None)
    files = {}
    for table, arrow_table in arrow_tables.items():
        record = results.write_parquet_atomically(arrow_table, results.part_path(out_dir, table, chunk.first_game),
                                                  results.part_temporary(out_dir, table, chunk.first_game))
        files[table] = {"rows": arrow_table.num_rows, **record}
    run_directory.write_entry(out_dir, run_hash, chunk.first_game, chunk.n_games, names, files)
    return {table: files[table]["rows"] for table in names}


def play_chunk_to_parts(engine: GameEngine, setup: GameSetup, cell: Cell, seed: int, chunk: Chunk,
                        out_dir: Path, run_hash: str = "", parent_pid: int | None = None) -> ChunkDone:
    """Worker body: play one chunk and write its parts. A chunk counts as finished only with a
    done entry whose parts verify, so a crash anywhere just replays that chunk on resume."""
    watch_parent(parent_pid)
    started = time.perf_counter()
    with buffers.reused_between_chunks():   # the tables are written before this thread's next chunk plays
        rows = write_chunk_parts(out_dir, run_hash, chunk, play_chunk_tables(engine, setup, cell, seed, chunk))
    return ChunkDone(chunk.first_game, chunk.n_games, rows, time.perf_counter() - started)


_WATCHED_PARENT: int | None = None


def watch_parent(parent_pid: int | None) -> None:
    """In a worker process of ``parent_pid``: exit as soon as that parent is gone (killed with
    SIGKILL, it cannot stop its workers; they would play on for minutes, holding memory).
    Started once per worker process; nothing to do in the parent itself or in a process that is
    not its direct child (a cluster worker)."""
    global _WATCHED_PARENT
    if parent_pid is None or os.getpid() == parent_pid or _WATCHED_PARENT == parent_pid:
        return
    if os.getppid() != parent_pid:
        return
    _WATCHED_PARENT = parent_pid
    threading.Thread(target=exit_when_orphaned, args=(parent_pid,), daemon=True,
                     name="courtsim-parent-watch").start()


def exit_when_orphaned(parent_pid: int, interval: float = 0.5) -> None:
    while os.getppid() == parent_pid:
        time.sleep(interval)
    os._exit(PARENT_GONE_EXIT)


def ensure_writable(out_dir: Path) -> None:
    """Create ``out_dir`` and prove we can write into it, before any game is played (an
    interrupted earlier test's file is removed: the directory's lock is held, the file is ours)."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for left_over in out_dir.glob(f"{run_directory.WRITE_TEST_PREFIX}*"):
            left_over.unlink(missing_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=run_directory.WRITE_TEST_PREFIX):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ConfigError(f"cannot write to output directory {out_dir}: {reason}") from error


def remedy(offers_overwrite: bool, again: str = "") -> str:
    """What a refused user can do: another --out, or --overwrite where the command has it (a
    study's cell runs do not: the study refuses another study before its runs are reached)."""
    return f"choose another --out or pass --overwrite{again}" if offers_overwrite else "choose another --out"


def refuse(out_dir: Path, what: str, offers_overwrite: bool = True) -> ConfigError:
    return ConfigError(f"{out_dir} already holds {what}; {remedy(offers_overwrite)}")


def open_run_directory(out_dir: Path, config: dict, overwrite: bool, offers_overwrite: bool = True) -> dict | None:
    """The manifest of this same run already in ``out_dir`` (to resume or report), or None to
    start afresh. Refuses (ConfigError) the root or home directory, a directory of other files,
    a run.yaml courtsim did not write, and (without ``overwrite``) a different run, naming the
    first key that differs; ``overwrite`` deletes only the files the old run's manifest lists."""
    run_directory.refuse_unsafe_out(out_dir)
    try:
        manifest = manifests.read_manifest(out_dir)
    except manifests.NotACourtsimRun as error:
        raise ConfigError(f"{error}; courtsim neither resumes nor deletes it: choose another --out "
                          "or move the file away") from None
    if manifest is None:
        run_directory.refuse_foreign_files(out_dir)
        return None
    if overwrite:
        run_directory.delete_run(out_dir, manifest)
        return None
    if manifest["run_hash"] != manifests.content_hash(config):
        old = manifest["config"]
        raise refuse(out_dir, f"a different run ({old.get('game')}, {old.get('n_games')} games; "
                              f"{manifests.describe_difference(old, config)})", offers_overwrite)
    return manifest


def result_of_complete_run(out_dir: Path, manifest: dict, chunks: list[Chunk], tables: tuple[str, ...],
                           offers_overwrite: bool = True,
                           log: Callable[[str], None] = log_to_stderr) -> RunResult | None:
    """The directory already holds this finished run: verify its tables and report it instead
    of replaying it. Every part must match the checksum its chunk's entry holds, and the entries
    must add up to run.yaml's record of each table; a part that fails is named and None is
    returned (its chunks are played again, as for an interrupted run). A run of an earlier
    build, merged into one file per table, is verified by that file's checksum in run.yaml."""
    records = manifest.get("files") or {}
    if any(run_directory.is_merged_file_record(record) for record in records.values()):
        return result_of_complete_merged_run(out_dir, manifest, len(chunks), offers_overwrite)
    run_hash = manifest["run_hash"]
    for chunk in chunks:
        problem = run_directory.chunk_problem(out_dir, run_hash, chunk.first_game, chunk.n_games, tables)
        if problem is not None:
            log(f"{out_dir} holds this completed run, but the chunk of games {chunk.first_game}.."
                f"{chunk.first_game + chunk.n_games - 1} "
                f"{'has no finished entry' if problem == 'missing' else 'fails verification: ' + problem}; "
                "playing again every chunk whose parts fail verification")
            return None
    found = run_directory.table_records(out_dir, run_hash, [chunk.first_game for chunk in chunks], tables)
    for name, record in found.items():
        if records.get(name) != record:
            raise ConfigError(f"{out_dir / name}: the entries of its parts do not add up to run.yaml's record of "
                              "the table (rows, parts, bytes or checksums: an entry in parts/chunks was edited "
                              f"or replaced); {remedy(offers_overwrite, ' to run it again')}")
    run_directory.remove_part_temporaries(out_dir, tables)   # left if we died after marking complete
    run_directory.remove_empty_folders(out_dir, tables)
    remove_top_level_temporaries(out_dir, tables)
    return complete_result(out_dir, manifest, tables, len(chunks))


def result_of_complete_merged_run(out_dir: Path, manifest: dict, n_chunks: int,
                                  offers_overwrite: bool = True) -> RunResult:
    """A complete run of an earlier build: one merged file per table, its checksum in run.yaml."""
    tables = run_directory.run_tables(manifest)
    records = manifest.get("files") or {}
    for table in tables:
        path = results.table_path(out_dir, table)
        if not path.is_file():
            raise ConfigError(f"{out_dir}/run.yaml says the run is complete but {path.name} is missing; "
                              f"{remedy(offers_overwrite, ' to run it again')}")
        if results.file_digest(path) != {key: records.get(path.name, {}).get(key) for key in ("bytes", "sha256")}:
            raise ConfigError(f"{path} changed since the run completed (its checksum differs from run.yaml); "
                              f"{remedy(offers_overwrite, ' to run it again')}")
    run_directory.delete_parts(out_dir, manifest)  # left if the earlier build died after marking complete
    remove_top_level_temporaries(out_dir, tables)
    return complete_result(out_dir, manifest, tables, n_chunks)


def complete_result(out_dir: Path, manifest: dict, tables: tuple[str, ...], n_chunks: int) -> RunResult:
    timings = manifest.get("timings") or {}
    return RunResult(
        out_dir=out_dir, files={t: results.table_path(out_dir, t) for t in tables},
        rows=dict(manifest.get("rows") or {}), n_games=manifest["config"]["n_games"], games_played=0,
        chunks_total=n_chunks, chunks_reused=n_chunks, wall_seconds=timings.get("wall_seconds", 0.0),
        games_per_second=timings.get("games_per_second", 0.0), already_complete=True, manifest=manifest)


def remove_top_level_temporaries(out_dir: Path, tables: tuple[str, ...]) -> None:
    """Temporaries a killed manifest write (or an earlier build's killed merge) left:
    ``.run.yaml.<pid>.tmp``, ``.<table>.parquet.<pid>.tmp``."""
    results.remove_stale_temporaries([*(results.table_path(out_dir, table) for table in tables),
                                      manifests.manifest_path(out_dir)])


def remove_merged_tables_of_an_unfinished_run(out_dir: Path, tables: tuple[str, ...]) -> None:
    """An earlier build killed in its merge, before it marked the run complete, left some tables
    merged into one file ``<table>.parquet`` (a name run.yaml lists) beside all the parts: the
    parts are the run, and the table's directory takes that name."""
    for table in tables:
        path = results.table_path(out_dir, table)
        if path.is_file():
            path.unlink()


def check_arguments(engine: GameEngine, n_players: int, bots: list[BotSeat], seed: int,
                    n_games: int, jobs: int, chunk_size: int) -> None:
    """Cheap sanity checks that the CLI also makes; repeated here for library callers."""
    if n_players not in engine.player_counts:
        raise ConfigError(f"{engine.name} is played by {', '.join(map(str, engine.player_counts))} "
                          f"players, not {n_players}")
    if len(bots) != n_players:
        raise ConfigError(f"{n_players} players need {n_players} bots, got {len(bots)}")
    if not 0 <= seed < 2**64:
        raise ConfigError(f"seed must be an integer in [0, 2**64), got {seed}")
    if n_games < 1:
        raise ConfigError(f"the number of games must be at least 1, got {n_games}")
    if chunk_size < 1:
        raise ConfigError(f"the chunk size must be at least 1, got {chunk_size}")
    check_jobs(jobs, "jobs")


def check_plan_size(cells: list[Cell], chunk_size: int) -> None:
    """Refuse, before planning anything, a run its tables cannot record (game indices are
    int32) or one of more chunks than a directory should hold (a file per table each)."""
    n_games = check_game_count(sum(cell.n_games for cell in cells), "the number of games in one run (game "
                               "indices are 32-bit integers in the tables)")
    n_chunks = sum(-(-cell.n_games // chunk_size) for cell in cells)
    if n_chunks > MAX_CHUNKS:
        raise ConfigError(f"--chunk-size {chunk_size:,}: {n_games:,} games would make {n_chunks:,} chunks; "
                          f"expected at most {MAX_CHUNKS:,} (each is a file per table): raise the chunk size")


def run_simulation(engine: GameEngine, setup: GameSetup, n_players: int, bots: list[BotSeat],
                   seed: int, n_games: int, out_dir: str | Path, jobs: int = 1,
                   chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool = True, resume: bool = True,
                   overwrite: bool = False,
                   log: Callable[[str], None] = log_to_stderr, provenance: dict | None = None) -> RunResult:
    """Play games ``0 .. n_games-1`` and write every table of ``engine`` to ``out_dir``.

    ``jobs`` is the number of worker processes (1 plays in this process, -1 uses every core).
    ``resume`` reuses finished, verified chunks of an interrupted identical run in ``out_dir``;
    ``overwrite`` deletes the run ``out_dir`` holds first (only the files courtsim wrote).
    Raises ConfigError for bad arguments or an ``out_dir`` holding a different run, before any
    game is played."""
    check_arguments(engine, n_players, bots, seed, n_games, jobs, chunk_size)
    config = manifests.run_config(engine, setup, n_players, bots, seed, n_games, chunk_size)
    cells = [Cell(n_players, tuple(bots), 0, n_games)]
    return run_cells(engine, setup, cells, seed, out_dir, config, jobs, chunk_size, progress, resume,
                     overwrite, log, provenance=provenance or {"game_file": setup.source})


def run_cells(engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int, out_dir: str | Path,
              config: dict, jobs: int = 1, chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool = True,
              resume: bool = True, overwrite: bool = False,
              log: Callable[[str], None] = log_to_stderr, provenance: dict | None = None,
              offers_overwrite: bool = True) -> RunResult:
    """Play every cell's games and write every table of ``engine`` to ``out_dir`` (see
    :func:`run_simulation`); ``config`` is the run's identity that run.yaml records and hashes,
    ``provenance`` where its data came from (recorded, not compared); ``offers_overwrite``: the
    command has --overwrite, so a refusal may suggest it."""
    started_at, started = manifests.utc_now(), time.perf_counter()
    out_dir = Path(out_dir)
    for cell in cells:
        check_arguments(engine, cell.n_players, list(cell.bots), seed, cell.n_games, jobs, chunk_size)
    check_plan_size(cells, chunk_size)
    run_directory.refuse_unsafe_out(out_dir)
    with locking.exclusive(out_dir, "courtsim run"):     # one writer per directory (sim.core.locking)
        return run_cells_locked(engine, setup, cells, seed, out_dir, config, jobs, chunk_size, progress, resume,
                                overwrite, log, provenance, started_at, started, offers_overwrite)


def run_cells_locked(engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int, out_dir: Path,
                     config: dict, jobs: int, chunk_size: int, progress: bool, resume: bool, overwrite: bool,
                     log: Callable[[str], None], provenance: dict | None, started_at: str,
                     started: float, offers_overwrite: bool) -> RunResult:
    """:func:`run_cells` once the directory's lock is held."""
    manifest = open_run_directory(out_dir, config, overwrite, offers_overwrite)
    ensure_writable(out_dir)
    chunks = plan_cell_chunks(cells, chunk_size)
    tables = run_tables(engine, setup)
    if manifest is not None:    # this same run: its table directories hold its parts, nothing else
        run_directory.refuse_foreign_table_files(
            out_dir, tables, run_directory.part_name_of_chunks(chunk.first_game for chunk in chunks))
    if manifest is not None and manifest.get("status") == manifests.COMPLETE:
        result = result_of_complete_run(out_dir, manifest, chunks, tables, offers_overwrite, log)
        if result is not None:
            log(f"{out_dir} already holds this completed run; nothing to do"
                + (" (--overwrite to run it again)" if offers_overwrite else ""))
            return result
        manifest.update(status=manifests.INCOMPLETE, files=None, rows=None)   # some parts are played again
        manifests.write_manifest(out_dir, manifest)
    fresh = manifest is None
    if fresh:
        manifest = manifests.new_manifest(config, provenance)
        manifests.write_manifest(out_dir, manifest)
    try:
        return finish_run(engine, setup, cells, seed, out_dir, manifest, chunks, tables, jobs,
                          progress, resume and not fresh, log, started_at, started)
    except OSError as error:
        if error.errno in DISK_FULL:
            raise ConfigError(f"cannot write in {out_dir}: {error.strerror}; every finished chunk is kept: "
                              "free some space and run the same command again to resume") from None
        raise


def finish_run(engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int, out_dir: Path,
               manifest: dict, chunks: list[Chunk], tables: tuple[str, ...], jobs: int, progress: bool,
               resume: bool, log: Callable[[str], None], started_at: str, started: float) -> RunResult:
    """Verify what an earlier session finished, play the rest, and mark the run complete (the
    parts are the tables: nothing is merged)."""
    run_hash = manifest["run_hash"]
    remove_top_level_temporaries(out_dir, tables)
    run_directory.remove_part_temporaries(out_dir, tables)
    remove_merged_tables_of_an_unfinished_run(out_dir, tables)
    pending = chunks_to_play(out_dir, run_hash, chunks, tables, resume, log)
    reused = len(chunks) - len(pending)
    if reused:
        log(f"resuming: reused {reused} of {len(chunks)} finished chunks in {out_dir}")
    games_played = sum(chunk.n_games for chunk in pending)
    n_games = sum(cell.n_games for cell in cells)
    compile_seconds = 0.0
    if pending and cluster.active_client() is None:   # cluster workers warm up on their own (cluster.py)
        compile_seconds = warm_up.compile_before_play(
            engine, setup, [cells[number] for number in dict.fromkeys(chunk.cell for chunk in pending)], log)
    workers_started = time.perf_counter()
    chunk_seconds = play_chunks_in_workers(engine, setup, cells, seed, pending, out_dir, jobs, total_games=n_games,
                                           progress=progress, run_hash=run_hash, log=log)
    played = time.perf_counter()

    records = run_directory.table_records(out_dir, run_hash, [chunk.first_game for chunk in chunks], tables)
    rows = {table: records[f"{table}.parquet"]["rows"] for table in tables}
    files = {table: results.table_path(out_dir, table) for table in tables}
    wall_seconds = time.perf_counter() - started
    manifest.update(status=manifests.COMPLETE, rows=rows, files=records, timings={
        "started_at": started_at, "finished_at": manifests.utc_now(), "jobs": jobs,
        "wall_seconds": round(wall_seconds, 3), "play_seconds": round(played - started, 3),
        # after the play: the chunks' entries summed into run.yaml's record of each table
        "finish_seconds": round(time.perf_counter() - played, 3),
        "games_played": games_played, "chunks_reused": reused,
        # compiling the kernels on first use, before the workers started (not play: games/s leaves it out)
        "compile_seconds": round(compile_seconds, 3),
        # the workers' phase, and the seconds they spent inside chunks (summed over workers)
        "workers_seconds": round(played - workers_started, 3),
        **({} if chunk_seconds is None else {"chunk_seconds": round(chunk_seconds, 3)}),
        "games_per_second": (round(games_played / (wall_seconds - compile_seconds), 1)
                             if wall_seconds > compile_seconds else 0.0),
    })
    manifests.write_manifest(out_dir, manifest)
    run_directory.remove_empty_folders(out_dir, tables)    # parts/<table>/ held only the temporaries
    return RunResult(out_dir=out_dir, files=files, rows=rows, n_games=n_games,
                     games_played=games_played, chunks_total=len(chunks), chunks_reused=reused,
                     wall_seconds=wall_seconds, games_per_second=manifest["timings"]["games_per_second"],
                     manifest=manifest, compile_seconds=compile_seconds)


def chunks_to_play(out_dir: Path, run_hash: str, chunks: list[Chunk], tables: tuple[str, ...],
                   resume: bool, log: Callable[[str], None]) -> list[Chunk]:
    """The chunks without verified parts. A chunk whose parts fail verification (truncated,
    corrupt, replaced by another chunk's, from another run) is named, deleted and played again;
    the verified parts of an earlier build's interrupted run are moved into the table directories."""
    if not resume:  # a fresh run (or one played again from scratch): every chunk, nothing to check
        return list(chunks)
    pending = []
    for chunk in chunks:
        problem = run_directory.adopt_legacy_parts(out_dir, run_hash, chunk.first_game, chunk.n_games, tables)
        if problem is None:
            continue
        if problem != "missing":
            log(f"chunk of games {chunk.first_game}..{chunk.first_game + chunk.n_games - 1}: {problem}; "
                "deleting its parts and playing it again")
        run_directory.delete_chunk(out_dir, chunk.first_game, tables)
        pending.append(chunk)
    return pending


def play_chunks_in_workers(engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int,
                           chunks: list[Chunk], out_dir: Path, jobs: int, total_games: int,
                           progress: bool, run_hash: str = "",
                           log: Callable[[str], None] = log_to_stderr) -> float | None:
    """Run the chunks in joblib workers, advancing the progress bar as each one finishes (in
    any order: the parts' names give the game order); return the seconds the workers spent in chunks
    (their sum; None on a cluster), so a run can tell its play from the scheduling around it. A worker process that dies (killed, out of
    memory) takes its chunk with it: the chunks without a verified entry are played again in
    fresh workers, up to MAX_WORKER_DEATHS times. Inside ``cluster.using_cluster`` the chunks
    are played on that Dask cluster instead (:func:`play_chunks_on_cluster`)."""
    already_done = total_games - sum(chunk.n_games for chunk in chunks)
    tables = run_tables(engine, setup)
    client = cluster.active_client()
    if client is not None:
        play_chunks_on_cluster(client, engine, setup, cells, seed, chunks, out_dir, total_games,
                               already_done, progress, run_hash)
        return None
    chunk_seconds = 0.0
    with games_progress(total_games, already_done, enabled=progress) as advance:
        remaining = list(chunks)
        for deaths in range(MAX_WORKER_DEATHS + 1):
            if not remaining:
                return chunk_seconds
            n_jobs = min(jobs, len(remaining)) if jobs > 0 else jobs
            tasks = (delayed(play_chunk_to_parts)(engine, setup, cells[chunk.cell], seed, chunk, out_dir,
                                                  run_hash, os.getpid())
                     for chunk in remaining)
            finished: set[int] = set()
            try:
                for done in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks):
                    finished.add(done.first_game)
                    chunk_seconds += done.seconds
                    advance(done.n_games)
                return chunk_seconds
            except TerminatedWorkerError as error:
                unreported = [chunk for chunk in remaining if chunk.first_game not in finished]
                remaining = [chunk for chunk in unreported if run_directory.chunk_problem(
                    out_dir, run_hash, chunk.first_game, chunk.n_games, tables) is not None]
                advance(sum(chunk.n_games for chunk in unreported if chunk not in remaining))
                if deaths == MAX_WORKER_DEATHS:
                    raise RuntimeError(f"worker processes died {deaths + 1} times; every finished chunk is "
                                       f"kept in {out_dir}: run the same command again to resume") from error
                log(f"a worker process died ({first_line(error)}); playing its chunk again "
                    f"({len(remaining)} chunks left)")


def play_chunks_on_cluster(client, engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int,
                           chunks: list[Chunk], out_dir: Path, total_games: int, already_done: int,
                           progress: bool, run_hash: str) -> None:
    """Submit every chunk to the Dask cluster and write each one's parts here as its tables
    arrive (sim.core.cluster). The engine and setup travel to the workers once (scattered), the
    workers warm the game's kernels up once; Dask replays the chunk of a worker that dies."""
    from distributed import as_completed
    if not chunks:
        return
    with games_progress(total_games, already_done, enabled=progress) as advance:
        try:
            cluster.warm_up_workers(client, engine.name)
            engine_on_cluster, setup_on_cluster = client.scatter([engine, setup], broadcast=True, hash=False)
            futures = [client.submit(play_chunk_tables, engine_on_cluster, setup_on_cluster, cells[chunk.cell],
                                     seed, chunk, key=f"courtsim-chunk-{run_hash[:16]}-{chunk.first_game}",
                                     pure=False)
                       for chunk in chunks]
            by_key = {future.key: chunk for future, chunk in zip(futures, chunks)}
            for future in as_completed(futures, loop=client.loop):
                chunk = by_key[future.key]
                write_chunk_parts(out_dir, run_hash, chunk, future.result())
                future.release()
                advance(chunk.n_games)
        except Exception as error:
            if cluster.scheduler_lost(error):
                raise cluster.ClusterLost(
                    f"the Dask scheduler went away ({first_line(error)}); every finished chunk is kept in "
                    f"{out_dir}: run the same command again to resume") from None
            raise


def first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__
