"""``run.yaml``: what a run directory holds, so a run can be resumed, refused or reported on.

Layout::

    status: incomplete | complete
    config:            # everything that determines the output tables; compared on resume
      courtsim_version, game, players, seed, n_games, chunk_size, tables,
      bots: [{seat, name, family, params: [...]}, ...],
      setup: <GameSetup.description>
    rows: {table: n_rows}          # once complete
    timings: {started_at, finished_at, wall_seconds, games_per_second, ...}
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from sim.core.engine import BotSeat, ConfigError, GameSetup

MANIFEST_NAME = "run.yaml"
INCOMPLETE = "incomplete"
COMPLETE = "complete"


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


def bot_record(seat: int, bot: BotSeat) -> dict:
    return {"seat": seat, "name": bot.name, "family": int(bot.family),
            "params": [float(p) for p in np.asarray(bot.params, dtype=np.float64).ravel()]}


def run_config(game: str, tables: tuple[str, ...], setup: GameSetup, n_players: int,
               bots: list[BotSeat], seed: int, n_games: int, chunk_size: int) -> dict:
    """The part of run.yaml that must match for a directory to be resumed."""
    return {
        "courtsim_version": courtsim_version(),
        "game": game,
        "players": int(n_players),
        "seed": int(seed),
        "n_games": int(n_games),
        "chunk_size": int(chunk_size),
        "tables": list(tables),
        "bots": [bot_record(seat, bot) for seat, bot in enumerate(bots)],
        "setup": to_plain(setup.description),
    }


def canonical(config: dict) -> str:
    """A stable text form for comparing configurations (handles NaN, which != itself)."""
    return yaml.safe_dump(to_plain(config), sort_keys=True)


def same_config(a: dict, b: dict) -> bool:
    return canonical(a) == canonical(b)


def describe_difference(old: dict, new: dict) -> str:
    """Name the top-level keys that differ, for the refusal message."""
    keys = sorted(set(old) | set(new))
    differing = [key for key in keys if canonical({key: old.get(key)}) != canonical({key: new.get(key)})]
    return ", ".join(differing) or "configuration"


def manifest_path(out_dir: Path) -> Path:
    return Path(out_dir) / MANIFEST_NAME


def read_manifest(out_dir: Path) -> dict | None:
    """The run.yaml of ``out_dir``; None if there is none; ConfigError if it is not ours."""
    path = manifest_path(out_dir)
    if not path.exists():
        return None
    try:
        manifest = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as error:
        raise ConfigError(f"{path} is not a readable courtsim run file ({type(error).__name__}); "
                          "choose another --out or pass --overwrite") from error
    if not isinstance(manifest, dict) or not isinstance(manifest.get("config"), dict):
        raise ConfigError(f"{path} is not a courtsim run file; choose another --out or pass --overwrite")
    return manifest


def write_manifest(out_dir: Path, manifest: dict) -> None:
    """Atomic write (temporary file + rename), so run.yaml is never half written."""
    path = manifest_path(out_dir)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(yaml.safe_dump(to_plain(manifest), sort_keys=False))
    os.replace(temporary, path)


def new_manifest(config: dict) -> dict:
    return {"status": INCOMPLETE, "config": config, "rows": None, "timings": None}


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
