"""The game-independent batch runner: chunks of games in joblib workers, streamed to Parquet.

A run is a list of :class:`Table` *cells* (a player count and the bots in seat order, with a
block of game indices); ``run_simulation`` is the one-cell case and an experiment
(``sim.core.experiments``) has one cell per seating of every match-up. The runner slices each
cell's games into chunks, and each joblib worker plays one
chunk with ``engine.play_chunk`` and writes that chunk's tables straight to
``<out>/parts/<table>/chunk-<first_game>.parquet``; only small metadata travels back, so the
parent's memory stays flat however many games run. Finished parts survive a crash or Ctrl-C,
and running the same configuration again into the same directory reuses them. At the end the
parts are merged, in game order, into ``<out>/<table>.parquet`` and ``run.yaml`` is marked
complete. The output is identical whatever ``jobs`` and ``chunk_size`` are, because the engine
makes every game depend only on (seed, game index) and the runner fixes the row order.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from joblib import Parallel, delayed

from sim.core import results
from sim.core import run_manifest as manifests
from sim.core.engine import BotSeat, ConfigError, GameEngine, GameSetup
from sim.core.progress import games_progress

DEFAULT_CHUNK_SIZE = 20_000


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
    files: dict[str, Path]          # table -> merged Parquet file
    rows: dict[str, int]            # table -> number of rows
    n_games: int
    games_played: int               # in this session (the rest were reused or already done)
    chunks_total: int
    chunks_reused: int
    wall_seconds: float
    games_per_second: float         # games played in this session / wall seconds
    already_complete: bool = False  # the directory already held this finished run
    manifest: dict = field(default_factory=dict)


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


def play_chunk_to_parts(engine: GameEngine, setup: GameSetup, cell: Cell, seed: int, chunk: Chunk,
                        out_dir: Path) -> ChunkDone:
    """Worker body: play one chunk and write each of its tables as an atomic part file.

    Tables are written one after another; a chunk counts as done only when every table's part
    exists, so a crash between two tables just replays that chunk on resume."""
    started = time.perf_counter()
    tables = engine.play_chunk(setup, cell.n_players, list(cell.bots), seed, chunk.first_game, chunk.n_games)
    missing = set(engine.tables) - set(tables)
    if missing:
        raise ValueError(f"engine contract: play_chunk of {engine.name!r} did not return "
                         f"tables {sorted(missing)} (declared in engine.tables)")
    label_columns(tables, cell)
    rows = {}
    for table in engine.tables:
        arrow_table = results.columns_to_arrow(table, tables[table], chunk.first_game, chunk.n_games)
        results.write_parquet_atomically(arrow_table, results.part_path(out_dir, table, chunk.first_game))
        rows[table] = arrow_table.num_rows
    return ChunkDone(chunk.first_game, chunk.n_games, rows, time.perf_counter() - started)


def chunk_is_done(out_dir: Path, tables: tuple[str, ...], chunk: Chunk) -> bool:
    return all(results.part_path(out_dir, table, chunk.first_game).exists() for table in tables)


def ensure_writable(out_dir: Path) -> None:
    """Create ``out_dir`` and prove we can write into it, before any game is played."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".courtsim-write-test-"):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ConfigError(f"cannot write to output directory {out_dir}: {reason}") from error


def remove_run_files(out_dir: Path, tables: set[str]) -> None:
    """--overwrite: delete exactly what courtsim writes (never unrelated files in the folder)."""
    shutil.rmtree(out_dir / results.PARTS_DIR, ignore_errors=True)
    for table in tables:
        results.table_path(out_dir, table).unlink(missing_ok=True)
    manifests.manifest_path(out_dir).unlink(missing_ok=True)


def refuse(out_dir: Path, what: str) -> ConfigError:
    return ConfigError(f"{out_dir} already holds {what}; choose another --out or pass --overwrite")


def existing_run(out_dir: Path, config: dict, overwrite: bool) -> dict | None:
    """The manifest of the same run already in ``out_dir`` (to resume or report), or None to
    start afresh; ConfigError if the directory holds something else."""
    if overwrite:
        old_manifest = _readable_manifest_or_none(out_dir) or {}
        old_tables = set(old_manifest.get("config", {}).get("tables", []))
        remove_run_files(out_dir, old_tables | set(config["tables"]))
        return None
    manifest = manifests.read_manifest(out_dir)
    if manifest is None:
        leftovers = [path.name for path in [out_dir / results.PARTS_DIR,
                                            *(results.table_path(out_dir, t) for t in config["tables"])]
                     if path.exists()]
        if leftovers:
            raise refuse(out_dir, f"simulation files without a run.yaml ({', '.join(leftovers)})")
        return None
    if not manifests.same_config(manifest["config"], config):
        old = manifest["config"]
        differing = manifests.describe_difference(old, config)
        raise refuse(out_dir, f"a different run ({old.get('game')}, {old.get('n_games')} games; "
                              f"differs in: {differing})")
    return manifest


def _readable_manifest_or_none(out_dir: Path) -> dict | None:
    try:
        return manifests.read_manifest(out_dir)
    except ConfigError:
        return None  # --overwrite replaces even a corrupt run.yaml


def result_of_complete_run(out_dir: Path, manifest: dict, n_chunks: int) -> RunResult:
    """The directory already holds this finished run: report it instead of replaying it."""
    tables = manifest["config"]["tables"]
    missing = [results.table_path(out_dir, t).name for t in tables if not results.table_path(out_dir, t).exists()]
    if missing:
        raise ConfigError(f"{out_dir}/run.yaml says the run is complete but {', '.join(missing)} "
                          "is missing; pass --overwrite to run it again")
    shutil.rmtree(out_dir / results.PARTS_DIR, ignore_errors=True)  # left if we died after marking complete
    timings = manifest.get("timings") or {}
    return RunResult(
        out_dir=out_dir, files={t: results.table_path(out_dir, t) for t in tables},
        rows=dict(manifest.get("rows") or {}), n_games=manifest["config"]["n_games"], games_played=0,
        chunks_total=n_chunks, chunks_reused=n_chunks, wall_seconds=timings.get("wall_seconds", 0.0),
        games_per_second=timings.get("games_per_second", 0.0), already_complete=True, manifest=manifest)


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
    if jobs == 0:
        raise ConfigError("jobs must be a positive number of processes (or -1 for every core)")


def log_to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def run_simulation(engine: GameEngine, setup: GameSetup, n_players: int, bots: list[BotSeat],
                   seed: int, n_games: int, out_dir: str | Path, jobs: int = 1,
                   chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool = True, resume: bool = True,
                   overwrite: bool = False,
                   log: Callable[[str], None] = log_to_stderr) -> RunResult:
    """Play games ``0 .. n_games-1`` and write every table of ``engine`` to ``out_dir``.

    ``jobs`` is the number of worker processes (1 plays in this process, -1 uses every core).
    ``resume`` reuses finished chunks of an interrupted identical run in ``out_dir``;
    ``overwrite`` deletes whatever run ``out_dir`` holds first. Raises ConfigError for bad
    arguments or an ``out_dir`` holding a different run, before any game is played."""
    check_arguments(engine, n_players, bots, seed, n_games, jobs, chunk_size)
    config = manifests.run_config(engine.name, tuple(engine.tables), setup, n_players, bots, seed,
                                  n_games, chunk_size)
    cells = [Cell(n_players, tuple(bots), 0, n_games)]
    return run_cells(engine, setup, cells, seed, out_dir, config, jobs, chunk_size, progress, resume,
                     overwrite, log)


def run_cells(engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int, out_dir: str | Path,
              config: dict, jobs: int = 1, chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool = True,
              resume: bool = True, overwrite: bool = False,
              log: Callable[[str], None] = log_to_stderr) -> RunResult:
    """Play every cell's games and write every table of ``engine`` to ``out_dir`` (see
    :func:`run_simulation`); ``config`` is what run.yaml records and compares on resume."""
    started_at, started = manifests.utc_now(), time.perf_counter()
    out_dir = Path(out_dir)
    for cell in cells:
        check_arguments(engine, cell.n_players, list(cell.bots), seed, cell.n_games, jobs, chunk_size)
    n_games = sum(cell.n_games for cell in cells)
    ensure_writable(out_dir)
    chunks = plan_cell_chunks(cells, chunk_size)
    manifest = existing_run(out_dir, config, overwrite)
    if manifest is not None and manifest.get("status") == manifests.COMPLETE:
        log(f"{out_dir} already holds this completed run; nothing to do (--overwrite to run it again)")
        return result_of_complete_run(out_dir, manifest, len(chunks))
    if manifest is None:
        manifest = manifests.new_manifest(config)
        manifests.write_manifest(out_dir, manifest)
    results.remove_stale_temporaries(out_dir / results.PARTS_DIR)

    tables = tuple(engine.tables)
    pending = [c for c in chunks if not (resume and chunk_is_done(out_dir, tables, c))]
    reused = len(chunks) - len(pending)
    if reused:
        log(f"resuming: reused {reused} of {len(chunks)} finished chunks in {out_dir}")
    games_played = sum(chunk.n_games for chunk in pending)
    play_chunks_in_workers(engine, setup, cells, seed, pending, out_dir, jobs,
                           total_games=n_games, progress=progress)
    played = time.perf_counter()

    files, rows = merge_tables(out_dir, tables, chunks)
    wall_seconds = time.perf_counter() - started
    manifest.update(status=manifests.COMPLETE, rows=rows, timings={
        "started_at": started_at, "finished_at": manifests.utc_now(), "jobs": jobs,
        "wall_seconds": round(wall_seconds, 3), "play_seconds": round(played - started, 3),
        "merge_seconds": round(time.perf_counter() - played, 3),
        "games_played": games_played, "chunks_reused": reused,
        "games_per_second": round(games_played / wall_seconds, 1) if wall_seconds > 0 else 0.0,
    })
    manifests.write_manifest(out_dir, manifest)
    shutil.rmtree(out_dir / results.PARTS_DIR, ignore_errors=True)
    return RunResult(out_dir=out_dir, files=files, rows=rows, n_games=n_games,
                     games_played=games_played, chunks_total=len(chunks), chunks_reused=reused,
                     wall_seconds=wall_seconds, games_per_second=manifest["timings"]["games_per_second"],
                     manifest=manifest)


def play_chunks_in_workers(engine: GameEngine, setup: GameSetup, cells: list[Cell], seed: int,
                           chunks: list[Chunk], out_dir: Path, jobs: int, total_games: int,
                           progress: bool) -> None:
    """Run the chunks in joblib workers, advancing the progress bar as each one finishes (in
    any order: the merge restores game order)."""
    already_done = total_games - sum(chunk.n_games for chunk in chunks)
    with games_progress(total_games, already_done, enabled=progress) as advance:
        if not chunks:
            return
        n_jobs = min(jobs, len(chunks)) if jobs > 0 else jobs
        tasks = (delayed(play_chunk_to_parts)(engine, setup, cells[chunk.cell], seed, chunk, out_dir)
                 for chunk in chunks)
        for done in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks):
            advance(done.n_games)


def merge_tables(out_dir: Path, tables: tuple[str, ...], chunks: list[Chunk]) -> tuple[dict, dict]:
    """Merge every table's parts, in chunk (= game) order, into its final file."""
    files, rows = {}, {}
    for table in tables:
        parts = [results.part_path(out_dir, table, chunk.first_game) for chunk in chunks]
        files[table] = results.table_path(out_dir, table)
        rows[table] = results.merge_parts(parts, files[table])
    return files, rows
