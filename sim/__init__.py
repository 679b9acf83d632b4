"""courtsim simulation engines: shared machinery in sim.core, one package per game.

Each game package calls :func:`use_source_keyed_numba_cache` before its kernels are defined:
numba's on-disk cache then lives in a directory named after a hash of that game's kernel sources
(the kernel modules of sim/core, sim/<game>, and whatever else the game names, such as
strategies/<game>/). numba invalidates a cached function only when its
*own* file changes, not when a function it calls in another module does; without this, an
edited rule could keep running its stale compiled caller. Keying per game means editing one
game never recompiles the other. A user-set NUMBA_CACHE_DIR is respected.
"""
import hashlib
import os
import shutil
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_STALE_AFTER_SECONDS = 24 * 3600


def _kernel_source_hash(sources: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for source in sources:
        root = _ROOT / source
        paths = sorted(root.rglob("*.py")) if root.is_dir() else [root] if root.exists() else []
        for path in paths:
            digest.update(str(path.relative_to(_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _prune_old_caches(parent: Path, current: Path) -> None:
    now = time.time()
    for entry in parent.glob("*"):
        try:
            if entry != current and entry.is_dir() and now - entry.stat().st_mtime > _STALE_AFTER_SECONDS:
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            pass


# NUMBA_CACHE_DIR as the user set it. One that courtsim set itself (marked, and inherited by
# joblib workers from a parent that imported some game last) is not the user's: a worker
# recomputes the directory of each game it imports.
_MANAGED_MARKER = "COURTSIM_NUMBA_CACHE_MANAGED"
_USER_CACHE_DIR = None if os.environ.get(_MANAGED_MARKER) else os.environ.get("NUMBA_CACHE_DIR")


# sim/core modules that hold kernels (the runner, experiments, ... are plain Python)
CORE_KERNEL_SOURCES = (
    "sim/core/kernels.py", "sim/core/random_streams.py", "sim/core/records.py", "sim/core/determinization.py",
    "sim/core/compiled_calls.py")


# game package -> hash of its kernel sources, as computed when the package was imported
_KERNEL_SOURCE_HASHES: dict[str, str] = {}


def kernel_source_hash(game_package: str) -> str:
    """The hash of the kernel sources the game package ``game_package`` was imported with (run.yaml
    records it: a run resumed after its rules' code changed would mix two engines)."""
    return _KERNEL_SOURCE_HASHES[game_package]


def use_source_keyed_numba_cache(game_package: str, extra_sources: tuple[str, ...] = ()) -> None:
    """Point numba's cache at .numba-cache/<game>-<hash of the game's kernel sources>.

    numba reads ``config.CACHE_DIR`` when a ``cache=True`` function is decorated, so this must
    run before the game's kernel modules are imported (the game package's ``__init__``)."""
    sources = (*CORE_KERNEL_SOURCES, f"sim/{game_package}", *extra_sources)
    _KERNEL_SOURCE_HASHES[game_package] = _kernel_source_hash(sources)
    if _USER_CACHE_DIR:
        return
    parent = _ROOT / ".numba-cache"
    current = parent / f"{game_package}-{_KERNEL_SOURCE_HASHES[game_package]}"
    try:
        current.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # read-only checkout: numba falls back to its default locations
    os.environ["NUMBA_CACHE_DIR"] = str(current)
    os.environ[_MANAGED_MARKER] = "1"
    import numba
    numba.config.CACHE_DIR = str(current)
    _prune_old_caches(parent, current)
