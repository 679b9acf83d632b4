"""One writer per directory: every command that writes a run or study directory holds its lock.

Two commands writing one ``--out`` at once would interleave their parts, plans and tables (two
runs of other seeds both "finish" into one directory; two equal runs race to mark it complete). So a
writer takes an exclusive ``flock`` on ``DIR/.courtsim.lock`` before it reads or writes anything
there, and keeps it until it is done; a second writer is refused at once with one line naming
the holder's pid. The kernel releases a ``flock`` when its process dies, however it dies, so
the lock of a killed command is simply taken over by the next one (the stale pid in the file is
overwritten). The lock file itself stays: removing it while another process waits on it would
let two writers hold "the" lock at once, and it is courtsim's own file, ignored wherever
courtsim looks for a user's files (:data:`LOCK_NAME`).

Within one process the lock is re-entrant per directory (a study that plays a run into a
directory it already holds is not refused by itself); the file is opened close-on-exec, so
worker processes never inherit it.
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sim.core.engine import ConfigError

LOCK_NAME = ".courtsim.lock"

_HELD: dict[Path, list] = {}      # directory -> [file descriptor, depth] held by this process


def lock_path(directory: Path) -> Path:
    return Path(directory) / LOCK_NAME


def holder(directory: Path) -> str:
    """What the lock file says of its holder ("pid 1234 (courtsim simulate)"), or "another process"."""
    try:
        text = lock_path(directory).read_text(encoding="utf-8").strip()
    except OSError:
        return "another process"
    return text.splitlines()[0][:120] if text else "another process"


@contextmanager
def exclusive(directory: Path, what: str = "courtsim") -> Iterator[None]:
    """Hold ``directory``'s lock for the block (creating the directory), or raise a one-line
    ConfigError naming the process that holds it. ``what`` is recorded beside the pid."""
    key = Path(os.path.abspath(directory))
    if key in _HELD:
        _HELD[key][1] += 1
        try:
            yield
        finally:
            _HELD[key][1] -= 1
        return
    try:
        key.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock_path(key), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise ConfigError(f"cannot write to output directory {directory}: "
                          f"{error.strerror or type(error).__name__}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        raise ConfigError(f"{directory} is in use by {holder(key)}: one command writes a directory at a time; "
                          "wait for it to finish or choose another --out") from None
    try:
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"pid {os.getpid()} ({what})\n".encode("utf-8"))
    except OSError:
        pass   # the pid is a courtesy for the refused; the lock itself holds
    _HELD[key] = [descriptor, 1]
    try:
        yield
    finally:
        del _HELD[key]
        fcntl.flock(descriptor, fcntl.LOCK_UN)
        os.close(descriptor)
