"""Playing a run's chunks on a Dask distributed cluster (``--cluster tcp://HOST:PORT``).

The runner (sim.core.runner) plays chunks in joblib workers on this machine; with a cluster it
submits the same chunks to a Dask scheduler instead. A worker plays a chunk and sends its
tables back (Arrow tables, never kernels or files), and this process writes each chunk's parts
and manifest entry as the tables arrive, so the run directory, resume and the merge are
exactly those of a local run, and so are the results (every game depends only on the seed and
its index). Workers need only the installed package: each one loads (or compiles) a game's
kernels once, in a warm-up through ``client.run`` before the first chunk, never per chunk.

Faults are Dask's to handle: a worker that dies mid-chunk has its chunk rescheduled elsewhere
(up to ``distributed.scheduler.allowed-failures`` times); a scheduler that goes away stops the
run with every chunk written so far kept, and the same command resumes it.

``using_cluster(address)`` makes a cluster the place where every run inside the ``with``
block plays, so that studies (compare, sweep, tune, sensitivity), which plan many runs, reach
the cluster without threading an address through each of them.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sim.core.engine import ConfigError

CONNECT_SECONDS = 10
ADDRESS_HELP = ("start one with `dask scheduler` and `dask worker tcp://HOST:8786` "
                "(README: Running on a cluster)")

_ACTIVE_CLIENT = None           # the cluster runs play on (inside using_cluster), else None
_WARM_GAMES: set[str] = set()   # in a worker process: the games whose kernels are loaded


class ClusterLost(ConfigError):
    """The scheduler went away during a run (finished chunks are kept)."""


def check_address(address: str, where: str = "--cluster") -> str:
    if not isinstance(address, str) or "://" not in address:
        raise ConfigError(f"{where}: expected a Dask scheduler address such as tcp://HOST:8786, "
                          f"found {address!r}")
    return address


def connect(address: str, where: str = "--cluster"):
    """A distributed Client on the scheduler at ``address``, or a one-line ConfigError."""
    from distributed import Client
    check_address(address, where)
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        reason = str(error).strip().splitlines()[0][:160] if str(error).strip() else type(error).__name__
        raise ConfigError(f"{where}: cannot reach a Dask scheduler at {address} ({reason}); "
                          f"{ADDRESS_HELP}") from None


@contextmanager
def using_cluster(address: str | None, where: str = "--cluster") -> Iterator[object | None]:
    """Inside the block every run plays its chunks on the cluster at ``address`` (None: locally)."""
    global _ACTIVE_CLIENT
    if address is None:
        yield None
        return
    client = connect(address, where)
    previous, _ACTIVE_CLIENT = _ACTIVE_CLIENT, client
    try:
        yield client
    finally:
        _ACTIVE_CLIENT = previous
        try:
            client.close(timeout=CONNECT_SECONDS)
        except Exception:  # noqa: BLE001 - a scheduler already gone: nothing left to close
            pass


def active_client():
    return _ACTIVE_CLIENT


def warm_worker(game: str) -> str:
    """On a worker: load the game's kernels once per process (numba's disk cache, or compile)."""
    if game not in _WARM_GAMES:
        from sim.core.warm_up import warm_up_game
        warm_up_game(game)
        _WARM_GAMES.add(game)
    return game


def warm_up_workers(client, game: str) -> None:
    """Every worker loads ``game``'s kernels before its first chunk (in parallel)."""
    client.run(warm_worker, game)


def scheduler_lost(error: BaseException) -> bool:
    """Whether ``error`` means the scheduler (not a chunk) failed."""
    from distributed.comm.core import CommClosedError
    names = {"CancelledError", "FutureCancelledError"}
    return isinstance(error, (CommClosedError, OSError, TimeoutError)) or type(error).__name__ in names
