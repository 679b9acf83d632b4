"""What courtsim may do in a run directory: verify finished chunks, and delete only its own files.

Every file courtsim writes into ``--out`` has an exact name it can compute (sim.core.results):
``run.yaml``, ``<table>.parquet`` for the run's tables, and while a run is in progress
``parts/<table>/chunk-<first game>.parquet`` with one manifest entry per chunk,
``parts/chunks/chunk-<first game>.json``. A worker writes the entry twice: ``writing`` (the
files it is about to write) before its first part, ``done`` (rows, bytes and SHA-256 of every
part) after its last. So every part file on disk is listed by an entry, and a resumed run trusts
a chunk only when its entry says done for this run's hash and every part matches its checksum.

Deleting (``--overwrite``, the end of a run, a part that failed verification) removes only files
that a courtsim-written manifest or entry lists, inside ``--out``, by exact name; never a whole
folder, never a user's file.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

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


# ----------------------------------------------------------------------------- chunk entries

def part_paths(out_dir: Path, tables: tuple[str, ...], first_game: int) -> dict[str, Path]:
    return {table: results.part_path(out_dir, table, first_game) for table in tables}


def write_entry(out_dir: Path, run_hash: str, first_game: int, n_games: int, tables: tuple[str, ...],
                files: dict[str, dict] | None) -> None:
    """The chunk's manifest entry: ``writing`` (files=None) or ``done`` with every part's record
    (``rows``, ``bytes``, ``sha256``)."""
    paths = part_paths(out_dir, tables, first_game)
    entry = {
        "run_hash": run_hash, "first_game": first_game, "n_games": n_games,
        "status": WRITING if files is None else DONE,
        "files": {table: {"path": str(path.relative_to(out_dir)), **((files or {}).get(table) or {})}
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
                  tables: tuple[str, ...]) -> str | None:
    """Why the chunk's finished parts cannot be trusted (None: every part verified), or
    "missing" when the chunk was never finished."""
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
    for table, path in part_paths(out_dir, tables, first_game).items():
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


def delete_chunk(out_dir: Path, first_game: int, tables: tuple[str, ...]) -> None:
    """Delete a chunk's parts and its entry: the exact names its entry lists (which are the names
    courtsim computes for that chunk); temporaries: :func:`remove_part_temporaries`."""
    for path in part_paths(out_dir, tables, first_game).values():
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


# ----------------------------------------------------------------------------- whole runs

def run_tables(manifest: dict) -> tuple[str, ...]:
    """The run's table names, only those that are plain names (a hand-edited ``../x`` is not)."""
    tables = manifest.get("config", {}).get("tables") or []
    return tuple(table for table in tables if isinstance(table, str) and results.TABLE_NAME.fullmatch(table))


def delete_parts(out_dir: Path, manifest: dict) -> None:
    """Every part and entry of the run, then the parts folders if nothing else is in them."""
    tables = run_tables(manifest)
    remove_part_temporaries(out_dir, tables)
    for first_game in listed_entries(out_dir, manifest["run_hash"]):
        delete_chunk(out_dir, first_game, tables)
    remove_empty_folders(out_dir, tables)


def remove_empty_folders(out_dir: Path, tables: tuple[str, ...]) -> None:
    parts = Path(out_dir) / results.PARTS_DIR
    for folder in [*(parts / table for table in tables), parts / results.ENTRIES_DIR, parts]:
        try:
            folder.rmdir()  # only when empty: a user's file inside keeps it
        except OSError:
            pass


def delete_run(out_dir: Path, manifest: dict) -> None:
    """``--overwrite``: delete every file the courtsim-written ``manifest`` lists, inside ``out_dir``,
    by exact name: parts and entries, the tables, their temporaries, and run.yaml itself."""
    delete_parts(out_dir, manifest)
    tables = [results.table_path(out_dir, table) for table in run_tables(manifest)]
    manifest_file = Path(out_dir) / MANIFEST_NAME
    results.remove_stale_temporaries([*tables, manifest_file])
    for path in tables:
        path.unlink(missing_ok=True)
    manifest_file.unlink(missing_ok=True)
