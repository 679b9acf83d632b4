"""Parquet storage of simulation results: one Parquet dataset per table, atomic writes.

A run directory looks like::

    <out>/run.yaml                        configuration, status, timings (sim.core.run_manifest)
    <out>/<table>.parquet/                one Parquet dataset (a directory) per table:
        chunk-<first_game:012d>.parquet   one part per chunk; lexical order is game order
    <out>/parts/chunks/chunk-<first_game:012d>.json   each chunk's manifest entry (kept: the
                                          parts' rows, bytes and SHA-256, what a run is verified by)
    <out>/parts/<table>/.chunk-<first_game:012d>.parquet.<pid>.tmp   a part being written

polars (``read_parquet``/``scan_parquet``), pyarrow (``pq.read_table``) and pandas read the
directory as one table, its files in lexical (= game) order; there is no merge. Parts are
written by the joblib workers themselves (by this process for chunks played on a Dask cluster),
each to a temporary under ``parts/<table>/`` and renamed into its table's directory, so a table
directory only ever holds whole parts (polars refuses a directory holding any other file) and
the parent process never holds more than one chunk's worth of rows. Every file courtsim writes
has an exact name that courtsim can compute: these are the only files it ever deletes.

Runs of earlier builds merged each table into one file ``<out>/<table>.parquet`` and kept the
parts of an unfinished run under ``parts/<table>/`` (:func:`legacy_part_path`): such a file is
still read as the table, and such parts are adopted by a resumed run (sim.core.run_directory).
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core import table_schema

PARTS_DIR = "parts"
ENTRIES_DIR = "chunks"       # under PARTS_DIR: one manifest entry per chunk
COMPRESSION = "zstd"
BULK_COMPRESSION = "lz4"      # a table declared bulk (table_schema.TableSchema.bulk)
GAME_INDEX = "game_index"
TABLE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
HASH_BLOCK = 1 << 20
TEMPORARY = re.compile(r"\.(?P<name>.+)\.[0-9]+\.tmp")


def part_path(out_dir: Path, table: str, first_game: int) -> Path:
    """One chunk's rows of one table: a file of the table's dataset directory. The zero-padded
    first game makes lexical order equal game order."""
    return table_path(out_dir, table) / part_name(first_game)


def part_name(first_game: int) -> str:
    return f"chunk-{first_game:012d}.parquet"


def legacy_part_path(out_dir: Path, table: str, first_game: int) -> Path:
    """Where an earlier build kept a part until its merge (an interrupted run of it has them)."""
    return Path(out_dir) / PARTS_DIR / table / part_name(first_game)


def part_temporary(out_dir: Path, table: str, first_game: int) -> Path:
    """The temporary a part is written to before it is renamed into its table's directory:
    outside that directory (polars refuses a dataset holding any other file), on the same file
    system, under ``parts/<table>/`` with :func:`temporary_name`'s exact-name scheme."""
    return temporary_name(legacy_part_path(out_dir, table, first_game))


def table_path(out_dir: Path, table: str) -> Path:
    """One table of a run: the directory of its parts (a Parquet dataset). A run written by an
    earlier build has one merged file here instead; both read alike."""
    return Path(out_dir) / f"{table}.parquet"


def table_files(path: Path) -> list[Path]:
    """The Parquet files of a table (``table_path``): its parts in game order, or the one file
    of an earlier build's run; [] when there is none."""
    path = Path(path)
    if path.is_dir():
        return sorted(child for child in path.iterdir())
    return [path] if path.is_file() else []


def first_game_of_part(part: Path) -> int:
    """The first game of the chunk a part holds, from its name (``part_path``)."""
    return int(Path(part).name.removeprefix("chunk-").removesuffix(".parquet"))


def table_bytes(path: Path) -> int:
    """The size of a table on disk: the sum of its parts (or its one file)."""
    return sum(part.stat().st_size for part in table_files(path))


def entry_path(out_dir: Path, first_game: int) -> Path:
    """The manifest entry of the chunk starting at ``first_game`` (sim.core.chunk_entries)."""
    return Path(out_dir) / PARTS_DIR / ENTRIES_DIR / f"chunk-{first_game:012d}.json"


def temporary_name(path: Path) -> Path:
    """A hidden sibling of ``path`` unique to this process, so concurrent writers never clash
    and a crash leaves only an obviously-temporary file behind."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def temporary_target(candidate: Path) -> str | None:
    """The name of the file a :func:`temporary_name` ``candidate`` was written for, or None."""
    match = TEMPORARY.fullmatch(candidate.name)
    return match["name"] if match else None


def file_digest(path: Path) -> dict:
    """``{"bytes", "sha256"}`` of a file, read in blocks (a table may be gigabytes)."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as stream:
        while block := stream.read(HASH_BLOCK):
            digest.update(block)
            size += len(block)
    return {"bytes": size, "sha256": digest.hexdigest()}


def columns_to_arrow(table: str, columns: dict[str, np.ndarray], first_game: int,
                     n_games: int) -> pa.Table:
    """Check one table returned by ``play_chunk`` against the engine contract and convert it,
    rows stably sorted by ``game_index``.

    Sorting makes the row order independent of the chunking even if a kernel emits rows in
    another order (e.g. seat-major); engines that already emit game order pay one cheap check.
    Columns declared by the table's ``sim.core.table_schema.TableSchema`` (``columns`` is then a
    ``DeclaredColumns``) are stored as declared: coded columns as dictionaries of their labels,
    missing codes as nulls.
    """
    if GAME_INDEX not in columns:
        raise ValueError(f"engine contract: table {table!r} has no {GAME_INDEX!r} column "
                         f"(columns: {sorted(columns)})")
    arrays = {name: np.asarray(values) for name, values in columns.items()}
    lengths = {name: values.shape for name, values in arrays.items()}
    n_rows = len(arrays[GAME_INDEX])
    if any(values.ndim != 1 or len(values) != n_rows for values in arrays.values()):
        raise ValueError(f"engine contract: columns of table {table!r} must be 1-D arrays of "
                         f"equal length, got shapes {lengths}")
    game_index = arrays[GAME_INDEX]
    if n_rows and (game_index.min() < first_game or game_index.max() >= first_game + n_games):
        raise ValueError(f"engine contract: table {table!r} has game_index outside "
                         f"[{first_game}, {first_game + n_games}) for that chunk")
    if n_rows > 1 and np.any(game_index[1:] < game_index[:-1]):
        order = np.argsort(game_index, kind="stable")
        arrays = {name: values[order] for name, values in arrays.items()}
    return table_schema.arrow_table(getattr(columns, "schema", None), arrays, table)


def write_parquet_atomically(arrow_table: pa.Table, path: Path, temporary: Path | None = None) -> dict:
    """Write to a temporary name (``temporary``, by default :func:`temporary_name` beside
    ``path``), then rename: a reader (or a resumed run) sees either no file or a complete one,
    never half of one. Returns the file's ``{"bytes", "sha256"}``, taken from the bytes written
    (no second read)."""
    sink = pa.BufferOutputStream()
    metadata = arrow_table.schema.metadata or {}
    if table_schema.BULK_KEY in metadata:   # declared so (TableSchema.bulk)
        arrow_table = arrow_table.replace_schema_metadata(
            {key: value for key, value in metadata.items() if key != table_schema.BULK_KEY} or None)
        pq.write_table(arrow_table, sink, compression=BULK_COMPRESSION, use_dictionary=False,
                       write_statistics=[GAME_INDEX])
    else:
        pq.write_table(arrow_table, sink, compression=COMPRESSION)
    data = sink.getvalue()
    write_bytes_atomically(memoryview(data), path, temporary)
    return {"bytes": data.size, "sha256": hashlib.sha256(data).hexdigest()}


def write_bytes_atomically(data, path: Path, temporary: Path | None = None) -> None:
    """``data`` to ``path`` through ``temporary`` (same file system; default: beside ``path``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = temporary_name(path) if temporary is None else temporary
    temporary.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(temporary, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def remove_stale_temporaries(paths: list[Path]) -> None:
    """Delete the temporaries a crashed writer of any of ``paths`` left beside it (exact names
    of :func:`temporary_name` only: nothing else in the directory is touched)."""
    by_directory: dict[Path, set[str]] = {}
    for path in paths:
        by_directory.setdefault(Path(path).parent, set()).add(Path(path).name)
    for directory, names in by_directory.items():
        if directory.is_dir():
            for candidate in directory.glob(".*.tmp"):
                if temporary_target(candidate) in names:
                    candidate.unlink(missing_ok=True)


def read_table(out_dir: Path, table: str) -> pa.Table:
    """Load one finished table of a run directory (for reports and tests): its parts in game
    order as one table (or an earlier build's one file)."""
    return pq.read_table(table_path(out_dir, table))
