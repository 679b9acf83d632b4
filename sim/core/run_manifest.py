"""``run.yaml``: what a run directory holds, so a run can be resumed, refused or reported on.

A run is identified by what it plays, never by file names: ``config`` records every value the
kernels get (the validated game data and every rule switch, each bot's family and parameters by
name), the courtsim version and a hash of the game's kernel sources; ``run_hash`` is one content
hash of all of it. Resume, "already complete" and ``--overwrite`` decide on that hash, and a
refusal names the first key that differs. Layout::

    courtsim_run: 2                # marks a run.yaml courtsim wrote (format version)
    status: incomplete | complete
    run_hash: <sha256 of config>
    config:                        # the run's identity
      game, players, seed, n_games, chunk_size, tables,
      bots: [{seat, name, family, parameters: {name: value}}, ...],
      setup: {game_data: {...}, rules: {...}},
      kernel_sources, courtsim_version
    provenance: {game_file: ...}   # where the data came from: not part of the identity
    files:                         # once complete: each table, a Parquet dataset (directory of parts)
      <table>.parquet: {rows, parts, bytes, parts_sha256}
    rows: {table: n_rows}          # once complete
    timings: {started_at, finished_at, wall_seconds, play_seconds, finish_seconds, games_per_second, ...}

``files`` stays small whatever the run's size: each part's rows, bytes and SHA-256 are in its
chunk's entry (``parts/chunks/chunk-<first game>.json``, kept with the run), and
``parts_sha256`` is the SHA-256 of those parts' SHA-256 in game order, one hex digest a line
(sim.core.run_directory.table_records): the entries must add up to this record for a complete
run to be taken as complete. A run of an earlier build recorded ``<table>.parquet: {rows, bytes,
sha256}`` of one merged file; such runs are still read and verified.

A run.yaml is courtsim's only if it parses, carries the format marker and its ``run_hash`` is
the hash of its ``config``: a hand-made or edited one is never resumed, and nothing it lists is
ever deleted.
"""
from __future__ import annotations

import hashlib
import os
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from sim.core.engine import BotSeat, ConfigError, GameSetup, run_tables
from sim.core.results import write_bytes_atomically
from sim.core.yaml_files import dump_yaml, load_yaml_file

MANIFEST_NAME = "run.yaml"
FORMAT = 2
INCOMPLETE = "incomplete"
COMPLETE = "complete"


class NotACourtsimRun(ConfigError):
    """``run.yaml`` exists but courtsim did not write it (or it was edited): never resumed,
    never deleted."""


def courtsim_version() -> str:
    """The installed package version ("unknown" when run from a bare source tree)."""
    try:
        return metadata.version("courtsim")
    except metadata.PackageNotFoundError:
        return "unknown"


def to_plain(value: Any) -> Any:
    """Convert numpy scalars/arrays, tuples and paths to plain YAML-safe Python data."""
    if isinstance(value, dict):
        return {str(key): to_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(item) for item in value]
    if isinstance(value, np.ndarray):
        return to_plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


def bot_record(bot: BotSeat, seat: int | None = None) -> dict:
    """A bot as run.yaml records it: name, family and every parameter by name."""
    record = {"seat": seat} if seat is not None else {}
    record.update(name=bot.name, family=bot.family_name or int(bot.family), parameters=bot.parameters())
    return record


def setup_record(setup: GameSetup) -> dict:
    """The resolved rules played: every value of the game data and every switch."""
    return to_plain(setup.resolved or setup.description)


def setup_provenance(setup: GameSetup) -> dict:
    """Where a setup came from (recorded, not part of the identity): the game file, and the
    variant file with its rationale when a variant was played."""
    extra = {key: setup.description[key] for key in ("variant_file", "variant_description")
             if key in (setup.description or {})}
    return {"game_file": setup.source, **extra}


def identity_versions(engine) -> dict:
    """The code that played: a run resumed across a change of it would mix two engines."""
    return {"kernel_sources": str(getattr(engine, "kernel_sources_hash", "none")),
            "courtsim_version": courtsim_version()}


def run_config(engine, setup: GameSetup, n_players: int, bots: list[BotSeat], seed: int,
               n_games: int, chunk_size: int) -> dict:
    """The identity of a ``simulate`` run: what must match for a directory to be resumed."""
    return {
        "game": engine.name,
        "players": int(n_players),
        "seed": int(seed),
        "n_games": int(n_games),
        "chunk_size": int(chunk_size),
        "tables": list(run_tables(engine, setup)),
        "bots": [bot_record(bot, seat) for seat, bot in enumerate(bots)],
        "setup": setup_record(setup),
        **identity_versions(engine),
    }


def canonical(config: dict) -> str:
    """A stable text form for comparing and hashing configurations (handles NaN, which != itself)."""
    return yaml.safe_dump(to_plain(config), sort_keys=True)


def content_hash(config: dict) -> str:
    return hashlib.sha256(canonical(config).encode("utf-8")).hexdigest()


def first_difference(old: Any, new: Any, path: tuple[str, ...] = ()) -> tuple[str, Any, Any] | None:
    """(dotted key, value in ``old``, value in ``new``) of the first place two configurations
    differ, keys in ``old``'s order (then keys only ``new`` has); None if they are equal."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(key for key in new if key not in old)]:
            if key not in old or key not in new:
                return ".".join((*path, str(key))), old.get(key, "(absent)"), new.get(key, "(absent)")
            found = first_difference(old[key], new[key], (*path, str(key)))
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        for index, (old_item, new_item) in enumerate(zip(old, new)):
            found = first_difference(old_item, new_item, (*path, str(index)))
            if found:
                return found
        if len(old) != len(new):
            return ".".join(path), f"{len(old)} items", f"{len(new)} items"
        return None
    if canonical({"value": old}) != canonical({"value": new}):
        return ".".join(path) or "configuration", old, new
    return None


def short(value: Any, limit: int = 60) -> str:
    text = " ".join(repr(value).split()) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[:limit - 3] + "..."


def describe_difference(old: dict, new: dict, where: str = "the run") -> str:
    """``key 'a.b': 5 in the run, 6 now`` for the first key that differs (``where`` names the old)."""
    found = first_difference(to_plain(old), to_plain(new))
    if found is None:
        return "no key (same configuration)"
    key, old_value, new_value = found
    return f"key '{key}': {short(old_value)} in {where}, {short(new_value)} now"


def manifest_path(out_dir: Path) -> Path:
    return Path(out_dir) / MANIFEST_NAME


def read_manifest(out_dir: Path) -> dict | None:
    """The courtsim-written run.yaml of ``out_dir``; None if there is none; NotACourtsimRun if
    the file is not one (unreadable, hand-made, edited, or from a courtsim without hashes or of
    another format). ``simulate``/``run`` (resume, overwrite) and ``summary``/``report`` all read
    a run.yaml through here, so a file one of them refuses the others refuse alike."""
    path = manifest_path(out_dir)
    if not path.exists():
        return None
    try:
        manifest = load_yaml_file(path, "run")
    except ConfigError as error:
        problem = str(error).removeprefix(f"{path}: ")
        raise NotACourtsimRun(f"{path} is not a readable courtsim run file ({problem})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("config"), dict):
        raise NotACourtsimRun(f"{path} is not a courtsim run file (no config mapping)")
    if manifest.get("courtsim_run") != FORMAT or "run_hash" not in manifest:
        found = (f"courtsim_run: {short(manifest['courtsim_run'])}" if "courtsim_run" in manifest
                 else "no courtsim_run")
        raise NotACourtsimRun(f"{path} was not written by this courtsim (expected courtsim_run: {FORMAT} "
                              f"and a run_hash, found {found}{'' if 'run_hash' in manifest else ' and no run_hash'})")
    if manifest["run_hash"] != content_hash(manifest["config"]):
        raise NotACourtsimRun(f"{path} was edited after courtsim wrote it (its run_hash does not match "
                              "its config)")
    return manifest


def write_manifest(out_dir: Path, manifest: dict) -> None:
    """Atomic write (temporary file + rename), so run.yaml is never half written."""
    write_bytes_atomically(dump_yaml(to_plain(manifest), sort_keys=False).encode("utf-8"),
                           manifest_path(out_dir))


def new_manifest(config: dict, provenance: dict | None = None) -> dict:
    config = to_plain(config)
    return {"courtsim_run": FORMAT, "status": INCOMPLETE, "run_hash": content_hash(config),
            "config": config, "provenance": to_plain(provenance or {}), "files": None, "rows": None,
            "timings": None}


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
