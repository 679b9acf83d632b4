"""What courtsim may do in a run directory: verify finished chunks, and delete only its own files.

Every file courtsim writes into ``--out`` has an exact name it can compute (sim.core.results):
``run.yaml``, and for every chunk one part per table, ``<table>.parquet/chunk-<first
game>.parquet`` (each table is a Parquet dataset: the directory of its parts), with one manifest
entry per chunk, ``parts/chunks/chunk-<first game>.json``. A part is written to a temporary
under ``parts/<table>/`` and renamed into its table's directory, which never holds anything else.
A worker writes the entry twice: ``writing`` (the files it is about to write) before its first
part, ``done`` (rows, bytes and SHA-256 of every part) after its last. So every part file on
disk is listed by an entry, and a resumed run trusts a chunk only when its entry says done for
this run's hash and every part matches its checksum. The entries are kept once the run is
complete: they are the checksums the same command verifies a complete run against.

Deleting (``--overwrite``, a part that failed verification) removes only files that a
courtsim-written manifest or entry lists, inside ``--out``, by exact name, then the folders
this emptied; never a folder's other files, never a user's file. A file in a table directory
that is not one of the run's parts is a user's file: the run is refused (never read, resumed,
or deleted around it) until it is moved away.

Earlier builds merged every table into one file ``<table>.parquet`` at the end of a run, its
checksum in run.yaml, and kept an unfinished run's parts under ``parts/<table>/``: a complete
run of theirs is verified by its file's checksum; an interrupted one has its verified parts
moved into the table directories (:func:`adopt_legacy_parts`) and is resumed.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Callable, Iterable

from sim.core import results
from sim.core.run_manifest import MANIFEST_NAME
from sim.core.engine import ConfigError
from sim.core.locking import LOCK_NAME

# the empty file that proves a directory writable (runner.ensure_writable); a Ctrl-C between its
# creation and its removal leaves it behind, and it is courtsim's, not a user's
WRITE_TEST_PREFIX = ".courtsim-write-test-"
WRITING = "writing"
DONE = "done"
CHUNK_FILE = re.compile(r"chunk-[0-9]{12}\.(parquet|json)")


def refuse_unsafe_out(out_dir: Path) -> None:
    """``--out`` must be a run's own directory: never the file system's root or the home folder,
    and never a folder holding files of another kind (checked in :func:`refuse_foreign_files`)."""
    resolved = Path(out_dir).resolve()
    if resolved == Path(resolved.anchor) or resolved == Path.home().resolve():
        raise ConfigError(f"--out {out_dir}: expected a directory of the run's own, found {resolved} "
                          "(the root or home directory)")
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise ConfigError(f"--out {out_dir}: expected a run directory, found a file")


def refuse_foreign_files(out_dir: Path, what: str = "a courtsim run") -> None:
    """A directory without a courtsim run.yaml (or study.yaml) must be empty, its lock file and
    a left-over write test aside: courtsim writes nothing beside a user's files it could later
    mistake for its own."""
    if not Path(out_dir).is_dir():
        return
    names = sorted(path.name for path in Path(out_dir).iterdir()
                   if path.name != LOCK_NAME and not path.name.startswith(WRITE_TEST_PREFIX))
    if names:
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        raise ConfigError(f"{out_dir} holds files that are not {what} ({shown}); "
                          "expected an empty or new directory for --out")


def refuse_foreign_table_files(out_dir: Path, tables: tuple[str, ...], is_part) -> None:
    """ConfigError naming the first files in a table directory of ``out_dir`` that are not parts
    of the run (``is_part(name)`` says which names are): a user's file there would make every
    reader refuse the table, and courtsim writes, resumes and deletes nothing around it."""
    for table in tables:
        directory = results.table_path(out_dir, table)
        if not directory.is_dir():
            continue
        foreign = sorted(path.name for path in directory.iterdir() if not (path.is_file() and is_part(path.name)))
        if foreign:
            shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise ConfigError(f"{directory} holds files that are not parts of the run ({shown}): a table "
                              "directory holds only the parts courtsim wrote; courtsim neither reads, resumes "
                              "nor deletes the run beside a foreign file: move it away")


def part_name_of_chunks(first_games: Iterable[int]) -> Callable[[str], bool]:
    """``is_part`` for :func:`refuse_foreign_table_files`: the part names of these chunks."""
    names = {results.part_name(first_game) for first_game in first_games}
    return names.__contains__


# ----------------------------------------------------------------------------- chunk entries

def part_paths(out_dir: Path, tables: tuple[str, ...], first_game: int) -> dict[str, Path]:
    return {table: results.part_path(out_dir, table, first_game) for table in tables}


def legacy_part_paths(out_dir: Path, tables: tuple[str, ...], first_game: int) -> dict[str, Path]:
    return {table: results.legacy_part_path(out_dir, table, first_game) for table in tables}


def write_entry(out_dir: Path, run_hash: str, first_game: int, n_games: int, tables: tuple[str, ...],
                files: dict[str, dict] | None) -> None:
    """The chunk's manifest entry: ``writing`` (files=None) or ``done`` with every part's record
    (``rows``, ``bytes``, ``sha256``)."""
    paths = part_paths(out_dir, tables, first_game)
    entry = {
        "run_hash": run_hash, "first_game": first_game, "n_games": n_games,
        "status": WRITING if files is None else DONE,
        "files": {table: {"path": str(path.relative_to(out_dir)),
                          **{key: value for key, value in ((files or {}).get(table) or {}).items() if key != "path"}}
                  for table, path in paths.items()},
    }
    results.write_bytes_atomically(json.dumps(entry, indent=1).encode("utf-8"),
                                   results.entry_path(out_dir, first_game))


def read_entry(out_dir: Path, first_game: int) -> dict | None:
    """The chunk's entry, or None if there is none or it cannot be read as one."""
    path = results.entry_path(out_dir, first_game)
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) else None


def chunk_problem(out_dir: Path, run_hash: str, first_game: int, n_games: int,
                  tables: tuple[str, ...], paths: dict[str, Path] | None = None) -> str | None:
    """Why the chunk's finished parts cannot be trusted (None: every part verified), or
    "missing" when the chunk was never finished. ``paths``: where its parts are (default: in
    their tables' directories)."""
    entry = read_entry(out_dir, first_game)
    if entry is None:
        return "missing" if not results.entry_path(out_dir, first_game).exists() else "its entry is unreadable"
    if entry.get("status") != DONE:
        return "missing"
    if entry.get("run_hash") != run_hash:
        return "its entry belongs to another run"
    if (entry.get("first_game"), entry.get("n_games")) != (first_game, n_games):
        return f"its entry is of games {entry.get('first_game')} +{entry.get('n_games')} (misplaced)"
    files = entry.get("files") or {}
    for table, path in (paths or part_paths(out_dir, tables, first_game)).items():
        expected = files.get(table) or {}
        if not path.is_file():
            return f"{path.relative_to(out_dir)} is missing"
        found = results.file_digest(path)
        if found["bytes"] != expected.get("bytes"):
            return (f"{path.relative_to(out_dir)} has {found['bytes']} bytes, its entry says "
                    f"{expected.get('bytes')} (truncated or replaced)")
        if found["sha256"] != expected.get("sha256"):
            return f"{path.relative_to(out_dir)} does not match its checksum (corrupt or replaced)"
    return None


def adopt_legacy_parts(out_dir: Path, run_hash: str, first_game: int, n_games: int,
                       tables: tuple[str, ...]) -> str | None:
    """A chunk an earlier build finished keeps its parts under ``parts/<table>/``: once they
    verify against its entry, move them into their tables' directories (a rename, no copy) and
    rewrite the entry to name them there. Returns the chunk's problem as :func:`chunk_problem`
    (None: its parts are in place and verified); nothing to adopt is :func:`chunk_problem`."""
    legacy = legacy_part_paths(out_dir, tables, first_game)
    if not any(path.is_file() for path in legacy.values()):
        return chunk_problem(out_dir, run_hash, first_game, n_games, tables)
    # a move cut short leaves some parts moved, some not: each is checked where it is
    located = {table: path if path.is_file() else results.part_path(out_dir, table, first_game)
               for table, path in legacy.items()}
    problem = chunk_problem(out_dir, run_hash, first_game, n_games, tables, located)
    if problem is None:
        for table, path in located.items():
            if path == legacy[table]:
                target = results.part_path(out_dir, table, first_game)
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, target)
        write_entry(out_dir, run_hash, first_game, n_games, tables, read_entry(out_dir, first_game)["files"])
    return problem


def delete_chunk(out_dir: Path, first_game: int, tables: tuple[str, ...]) -> None:
    """Delete a chunk's parts and its entry: the exact names its entry lists (which are the names
    courtsim computes for that chunk, in the table directories or, from an earlier build, under
    parts/); temporaries: :func:`remove_part_temporaries`."""
    for paths in (part_paths(out_dir, tables, first_game), legacy_part_paths(out_dir, tables, first_game)):
        for path in paths.values():
            path.unlink(missing_ok=True)
    results.entry_path(out_dir, first_game).unlink(missing_ok=True)


def remove_part_temporaries(out_dir: Path, tables: tuple[str, ...]) -> None:
    """The temporaries crashed or killed writers left of parts and entries: hidden files whose
    name is a part's or an entry's exact name plus ``.<pid>.tmp`` (nothing else is touched)."""
    parts = Path(out_dir) / results.PARTS_DIR
    for folder, suffix in [*((parts / table, ".parquet") for table in tables), (parts / results.ENTRIES_DIR, ".json")]:
        if folder.is_dir():
            for candidate in folder.glob(".*.tmp"):
                target = results.temporary_target(candidate) or ""
                if CHUNK_FILE.fullmatch(target) and target.endswith(suffix):
                    candidate.unlink(missing_ok=True)


def listed_entries(out_dir: Path, run_hash: str) -> list[int]:
    """First games of every entry of run ``run_hash`` in ``parts/chunks`` (exact names only)."""
    directory = Path(out_dir) / results.PARTS_DIR / results.ENTRIES_DIR
    if not directory.is_dir():
        return []
    firsts = []
    for path in directory.glob("chunk-*.json"):
        if CHUNK_FILE.fullmatch(path.name):
            first_game = int(path.name.removeprefix("chunk-").removesuffix(".json"))
            entry = read_entry(out_dir, first_game)
            if entry is not None and entry.get("run_hash") == run_hash:
                firsts.append(first_game)
    return sorted(firsts)


def table_records(out_dir: Path, run_hash: str, first_games: list[int], tables: tuple[str, ...]) -> dict[str, dict]:
    """What run.yaml records of each table of a finished run, from its chunks' entries:
    ``{"<table>.parquet": {rows, parts, bytes, parts_sha256}}``, where ``parts_sha256`` is the
    SHA-256 of the parts' SHA-256 (hex, one a line, in game order): small and deterministic,
    while each part's own checksum stays in its entry. RuntimeError if a chunk has no done entry."""
    records = {table: {"rows": 0, "parts": 0, "bytes": 0} for table in tables}
    digests = {table: hashlib.sha256() for table in tables}
    for first_game in sorted(first_games):
        entry = read_entry(out_dir, first_game)
        if entry is None or entry.get("status") != DONE or entry.get("run_hash") != run_hash:
            raise RuntimeError(f"the chunk of games from {first_game} has no finished entry in "
                               f"{results.entry_path(out_dir, first_game)}")
        for table in tables:
            record = entry["files"][table]
            records[table]["rows"] += record["rows"]
            records[table]["parts"] += 1
            records[table]["bytes"] += record["bytes"]
            digests[table].update(f"{record['sha256']}\n".encode("ascii"))
    return {f"{table}.parquet": {**records[table], "parts_sha256": digests[table].hexdigest()} for table in tables}


def is_merged_file_record(record) -> bool:
    """A run.yaml ``files`` record of an earlier build's merged file (``{rows, bytes, sha256}``),
    not of a table written as a dataset (``{rows, parts, bytes, parts_sha256}``)."""
    return isinstance(record, dict) and "sha256" in record and "parts" not in record


# ----------------------------------------------------------------------------- whole runs

def run_tables(manifest: dict) -> tuple[str, ...]:
    """The run's table names, only those that are plain names (a hand-edited ``../x`` is not)."""
    tables = manifest.get("config", {}).get("tables") or []
    return tuple(table for table in tables if isinstance(table, str) and results.TABLE_NAME.fullmatch(table))


def delete_parts(out_dir: Path, manifest: dict) -> None:
    """Every part and entry of the run, then the folders this emptied (never one holding
    anything else)."""
    tables = run_tables(manifest)
    remove_part_temporaries(out_dir, tables)
    for first_game in listed_entries(out_dir, manifest["run_hash"]):
        delete_chunk(out_dir, first_game, tables)
    remove_empty_folders(out_dir, tables, entries_too=True)


def remove_empty_folders(out_dir: Path, tables: tuple[str, ...], entries_too: bool = False) -> None:
    """The run's folders that are empty: ``parts/<table>/`` (temporaries only), and with
    ``entries_too`` the tables' directories, ``parts/chunks/`` and ``parts/``."""
    parts = Path(out_dir) / results.PARTS_DIR
    folders = [parts / table for table in tables]
    if entries_too:
        folders += [*(results.table_path(out_dir, table) for table in tables), parts / results.ENTRIES_DIR, parts]
    for folder in folders:
        try:
            if folder.is_dir():
                folder.rmdir()  # only when empty: a user's file inside keeps it
        except OSError:
            pass


def delete_run(out_dir: Path, manifest: dict) -> None:
    """``--overwrite``: delete every file the courtsim-written ``manifest`` lists, inside ``out_dir``,
    by exact name: parts and entries, an earlier build's merged tables, their temporaries, and
    run.yaml itself; then the emptied table directories. Refuses first (ConfigError, nothing
    deleted) when a table directory holds a file no entry of the run lists."""
    tables = run_tables(manifest)
    refuse_foreign_table_files(out_dir, tables, part_name_of_chunks(listed_entries(out_dir, manifest["run_hash"])))
    delete_parts(out_dir, manifest)
    paths = [results.table_path(out_dir, table) for table in tables]
    manifest_file = Path(out_dir) / MANIFEST_NAME
    results.remove_stale_temporaries([*paths, manifest_file])
    for path in paths:
        if path.is_file():      # an earlier build's merged table
            path.unlink()
    manifest_file.unlink(missing_ok=True)
