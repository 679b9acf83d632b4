"""Parquet storage of simulation results: chunk parts, atomic writes, streaming merge.

A run directory looks like::

    <out>/run.yaml                        configuration, status, timings (sim.core.run_manifest)
    <out>/<table>.parquet                 one file per table, rows in game order (when complete)
    <out>/parts/<table>/chunk-<first_game:012d>.parquet   while the run is in progress
    <out>/parts/chunks/chunk-<first_game:012d>.json      the chunk's manifest entry

Parts are written by the joblib workers themselves, so the parent process never holds more
than one chunk's worth of rows; the final merge streams them one part at a time. Every file
courtsim writes has an exact name that courtsim can compute: these are the only files it ever
deletes.
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
GAME_INDEX = "game_index"
TABLE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
HASH_BLOCK = 1 << 20
TEMPORARY = re.compile(r"\.(?P<name>.+)\.[0-9]+\.tmp")


def part_path(out_dir: Path, table: str, first_game: int) -> Path:
    """Where one chunk's rows of one table live until the final merge. The zero-padded first
    game makes lexical order equal game order."""
    return Path(out_dir) / PARTS_DIR / table / f"chunk-{first_game:012d}.parquet"


def table_path(out_dir: Path, table: str) -> Path:
    """The merged, final file of one table."""
    return Path(out_dir) / f"{table}.parquet"


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


def write_parquet_atomically(arrow_table: pa.Table, path: Path) -> dict:
    """Write to a temporary name, then rename: a reader (or a resumed run) sees either no file
    or a complete one, never half of one. Returns the file's ``{"bytes", "sha256"}``, taken
    from the bytes written (no second read)."""
    sink = pa.BufferOutputStream()
    pq.write_table(arrow_table, sink, compression=COMPRESSION)
    data = sink.getvalue()
    write_bytes_atomically(memoryview(data), path)
    return {"bytes": data.size, "sha256": hashlib.sha256(data).hexdigest()}


def write_bytes_atomically(data, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = temporary_name(path)
    try:
        with open(temporary, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


MERGED_ROW_GROUP_ROWS = 65_536   # small parts (tiny chunks) are gathered into row groups of about this many rows


def merge_parts(parts: list[Path], destination: Path) -> int:
    """Concatenate ``parts`` (already in game order) into ``destination``; return the number of
    rows. A part of at least MERGED_ROW_GROUP_ROWS rows is one row group and only it is in memory;
    smaller parts (a study's many small cells) are gathered into row groups of about that size, so
    neither the merge nor later reads pay for thousands of tiny row groups. Later parts are cast to
    the first part's schema so a kernel returning e.g. int32 in one chunk and int64 in another
    still gives one clean file."""
    temporary = temporary_name(destination)
    rows = 0
    writer = None
    gathered: list[pa.Table] = []
    gathered_rows = 0

    def write_gathered() -> None:
        nonlocal gathered_rows
        writer.write_table(gathered[0] if len(gathered) == 1 else pa.concat_tables(gathered))
        gathered.clear()
        gathered_rows = 0

    try:
        for part in parts:
            arrow_table = pq.read_table(part)
            if writer is None:
                writer = pq.ParquetWriter(temporary, arrow_table.schema, compression=COMPRESSION)
            elif arrow_table.schema != writer.schema:
                arrow_table = arrow_table.cast(writer.schema)
            gathered.append(arrow_table)
            gathered_rows += arrow_table.num_rows
            rows += arrow_table.num_rows
            if gathered_rows >= MERGED_ROW_GROUP_ROWS:
                write_gathered()
        if writer is not None:
            if gathered:
                write_gathered()
            writer.close()
            writer = None
            os.replace(temporary, destination)
    finally:
        if writer is not None:
            writer.close()
        temporary.unlink(missing_ok=True)
    return rows


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
    """Load one finished table of a run directory (for reports and tests)."""
    return pq.read_table(table_path(out_dir, table))
