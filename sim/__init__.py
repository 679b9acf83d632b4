"""courtsim simulation engines: shared machinery in sim.core, one package per game.

Importing this package points numba's on-disk cache at a directory named after a hash of all
kernel sources (sim/ and strategies/). numba invalidates a cached function only when its *own*
file changes, not when a function it calls in another module does; without this, an edited
rule could keep running its stale compiled caller. A user-set NUMBA_CACHE_DIR is respected.
"""
import hashlib
import os
import shutil
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
_KERNEL_PACKAGES = ("sim", "strategies")
_STALE_AFTER_SECONDS = 24 * 3600


def _kernel_source_hash() -> str:
    digest = hashlib.sha256()
    for package in _KERNEL_PACKAGES:
        for path in sorted((_ROOT / package).rglob("*.py")):
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


def _use_source_keyed_numba_cache() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    parent = _ROOT / ".numba-cache"
    current = parent / _kernel_source_hash()
    try:
        current.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # read-only checkout: numba falls back to its default locations
    os.environ["NUMBA_CACHE_DIR"] = str(current)
    import sys
    if "numba" in sys.modules:  # numba read its configuration already: update it too
        sys.modules["numba"].config.CACHE_DIR = str(current)
    _prune_old_caches(parent, current)


_use_source_keyed_numba_cache()
