"""Result buffers a process reuses from one chunk to the next.

A chunk's kernel writes its tables into zeroed numpy arrays of some tens of megabytes. Fresh from
the operating system, every page of them is a page fault on first write: measured here, a fresh
standings buffer cost a 20,000-game Louis XIV chunk 0.15-0.2 s of its 1.2 s, against 0.02 s to
zero one already mapped. Inside :func:`reused_between_chunks` (the runner's chunk, the bench's
timed games), :func:`zeros` hands out the array it gave the same role the last time, zeroed,
when the shape and type are the same; outside it, a new array as ``np.zeros`` would.

What a chunk returns may be views of these buffers: its tables must be written (the runner
writes a chunk's parts before it plays the next) before the next chunk of the same thread
plays. Callers that keep a chunk's tables (tests, studies that hold results in memory) call
``play_chunk`` outside the context and get fresh arrays. The pool is per thread, so two chunks
played at once in threads of one process never share a buffer; it holds one buffer per role, so
memory stays that of one chunk.

:func:`overwritten` is the same without the zeroing, for a buffer whose every cell that is read
the kernel writes first (a standings table: each row's columns are written as the row is
recorded, and only the rows recorded are read). Zeroing the standings buffers, sized for the
longest games, cost a Heads of State chunk more than a quarter of the table's whole cost.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager

import numpy as np

_local = threading.local()


@contextmanager
def reused_between_chunks():
    """Within: :func:`zeros` reuses this thread's buffers of earlier chunks."""
    previous = getattr(_local, "reusing", False)
    _local.reusing = True
    try:
        yield
    finally:
        _local.reusing = previous


def zeros(role: str, shape, dtype, order: str = "C") -> np.ndarray:
    """A zeroed array for ``role`` (e.g. ``"louis-xiv.courtiers"``): inside
    :func:`reused_between_chunks` the one this thread's last chunk had, when it has the same
    shape, type and order; else a new one."""
    array, kept = pooled(role, shape, dtype, order)
    if kept:
        array.fill(0)
    return array


def overwritten(role: str, shape, dtype, order: str = "C") -> np.ndarray:
    """As :func:`zeros`, but a reused array keeps what the last chunk wrote: only for a buffer
    whose every cell that is read its kernel writes first (module docstring)."""
    return pooled(role, shape, dtype, order)[0]


def pooled(role: str, shape, dtype, order: str) -> tuple[np.ndarray, bool]:
    """(the array for ``role``, whether it is one an earlier chunk used): outside
    :func:`reused_between_chunks`, or at a new shape, type or order, a new zeroed one."""
    if not getattr(_local, "reusing", False):
        return np.zeros(shape, dtype, order=order), False
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = {}
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    wanted = (shape, np.dtype(dtype), order)
    kept = pool.get(role)
    if kept is not None and kept[0] == wanted:
        return kept[1], True
    pool[role] = (wanted, np.zeros(shape, dtype, order=order))
    return pool[role][1], False
