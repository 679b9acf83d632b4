"""Playing a run's chunks on a Dask distributed cluster (``--cluster tcp://HOST:PORT``).

The runner (sim.core.runner) plays chunks in joblib workers on this machine; with a cluster it
submits the same chunks to a Dask scheduler instead. A worker plays a chunk and sends its
tables back (Arrow tables, never kernels or files), and this process writes each chunk's parts
(into the table directories) and manifest entry as the tables arrive, so the run directory
and resume are exactly those of a local run, and so are the results (every game depends only on the seed and
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

import asyncio
import socket
import threading
import time
from contextlib import contextmanager, suppress
from typing import Iterator
from urllib.parse import urlsplit

from sim.core.engine import ConfigError

PROBE_SECONDS = 3       # for whatever listens at the address to say it is a scheduler (it takes milliseconds)
CONNECT_SECONDS = 10    # then for the Client to register with that scheduler
REFUSED_CHECK_SECONDS = 0.25    # Dask retries a refused connection: after this, check whether anything listens
ADDRESS_HELP = ("start one with `dask scheduler` and `dask worker tcp://HOST:8786` "
                "(README: Running on a cluster)")
SCHEDULER_PORT_HELP = ("give the scheduler's address, which `dask scheduler` prints "
                       "(port 8786 unless --port says otherwise; 8787 is its dashboard)")

_ACTIVE_CLIENT = None           # the cluster runs play on (inside using_cluster), else None
_WARM_GAMES: set[str] = set()   # in a worker process: the games whose kernels are loaded


class ClusterLost(ConfigError):
    """The scheduler went away during a run (finished chunks are kept)."""


def check_address(address: str, where: str = "--cluster") -> str:
    """``address`` as ``tcp://HOST:PORT`` (or ``tls://HOST:PORT``), or a one-line ConfigError.

    Returns the address in the form Dask parses (scheme in lower case, IPv6 hosts in brackets).
    """
    def refuse(reason: str = "") -> ConfigError:
        return ConfigError(f"{where}: expected a Dask scheduler address such as tcp://HOST:8786, "
                           f"found {address!r}" + (f" ({reason})" if reason else ""))

    if not isinstance(address, str) or "://" not in address:
        raise refuse()
    if address != address.strip() or any(character.isspace() for character in address):
        raise refuse("it holds spaces")
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError as error:
        raise refuse(f"bad port: {error}") from None
    scheme, host = parts.scheme, parts.hostname
    if scheme not in ("tcp", "tls"):
        raise refuse(f"{scheme}:// is not a Dask scheduler's scheme: use tcp://" if scheme else "no scheme")
    if parts.username is not None or parts.password is not None:
        raise refuse("a scheduler address holds no user name")
    if parts.path or parts.query or parts.fragment or address.endswith(("?", "#")):
        raise refuse("nothing may follow HOST:PORT")
    if not host:
        raise refuse("no host")
    if port is None or port == 0:
        raise refuse("no port" if port is None else "port 0")
    if scheme == "tls" and tls_connection_args() is None:
        raise ConfigError(
            f"{where}: {address} needs Dask's TLS settings (distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and .key in the Dask configuration) and none are set; "
            "use tcp://HOST:PORT, or set them")
    return f"{scheme}://{'[' + host + ']' if ':' in host else host}:{port}"


def tls_connection_args() -> dict | None:
    """The client's TLS settings from Dask's configuration, or None when none are set."""
    from distributed.security import Security
    arguments = Security().get_connection_args("client")
    return arguments if arguments.get("ssl_context") is not None else None


def connect(address: str, where: str = "--cluster"):
    """A distributed Client on the scheduler at ``address``, or a one-line ConfigError.

    An unusable address fails within PROBE_SECONDS (plus a fraction of a second): a probe in a
    daemon thread asks whatever listens there who it is over Dask's protocol, so that nobody
    listening, and a server which accepts connections but is not a scheduler (the dashboard's
    port, anything silent, a worker), are found out before any Client exists. Only a scheduler
    that answered gets a Client, bounded by CONNECT_SECONDS as a whole and closed (its loop
    stopped) if it fails, so nothing is left for ``Client.__del__``.
    """
    canonical = check_address(address, where)
    deadline = time.monotonic() + PROBE_SECONDS
    host, _, port = canonical.split("://", 1)[1].rpartition(":")
    host = host.strip("[]")
    from distributed.security import Security
    security = Security()
    connection_args = security.get_connection_args("client")

    def unreachable(reason: str) -> ConfigError:
        return ConfigError(f"{where}: cannot reach a Dask scheduler at {address} ({reason}); {ADDRESS_HELP}")

    identity = _probe(canonical, host, int(port), connection_args, deadline, where, address, unreachable)
    # a scheduler (of any Scheduler class) tells its workers; a worker or a nanny does not
    kind = identity.get("type") if isinstance(identity, dict) else None
    if not (isinstance(identity, dict) and isinstance(identity.get("workers"), dict)):
        what = f"a Dask {kind}" if isinstance(kind, str) and kind else "a server that is not a Dask scheduler"
        raise ConfigError(f"{where}: {address} is {what}, not a scheduler; {SCHEDULER_PORT_HELP}")
    return _client(canonical, security, time.monotonic() + CONNECT_SECONDS, where, address)


def _probe(canonical, host, port, connection_args, deadline, where, address, unreachable) -> object:
    """What the server at ``canonical`` says it is (its ``identity``), or a one-line ConfigError.

    Dask's own connection (its handshake, then ``identity``), so a scheduler's log shows nothing
    unusual; why it could not connect is read from the error's causes.
    """
    outcome: dict = {}

    def probe() -> None:
        from distributed.comm.core import CommClosedError
        try:
            outcome["identity"] = asyncio.run(_ask_identity(canonical, host, port, connection_args, deadline))
        except TimeoutError:    # connected, but no handshake or no identity came back
            outcome["error"] = ConfigError(
                f"{where}: no Dask scheduler answered at {address} within {PROBE_SECONDS:g} s: something "
                f"accepts connections there but said nothing (a dashboard, another server, a scheduler "
                f"too busy?); {SCHEDULER_PORT_HELP}")
        except Exception as error:  # noqa: BLE001 - whatever the other end did, it is not a scheduler
            causes = _causes(error)
            if any(isinstance(cause, socket.gaierror) for cause in causes):
                outcome["error"] = unreachable(f"unknown host {host!r}")
            elif any(isinstance(cause, ConnectionRefusedError) for cause in causes):
                outcome["error"] = unreachable(f"connection refused: nothing listens on port {port}")
            elif isinstance(error, OSError) and not isinstance(error, CommClosedError):
                last = causes[-1]
                reason = last.strerror if isinstance(last, OSError) and last.strerror else None
                outcome["error"] = unreachable(reason or f"no answer within {PROBE_SECONDS:g} s")
            else:
                what = ("it closed the connection" if isinstance(error, CommClosedError)
                        else "it answered something else")
                outcome["error"] = ConfigError(
                    f"{where}: no Dask scheduler answered at {address}: the server there does not speak "
                    f"Dask's protocol ({what}); {SCHEDULER_PORT_HELP}")

    thread = threading.Thread(target=probe, name="courtsim-cluster-probe", daemon=True)
    thread.start()
    thread.join(max(deadline - time.monotonic(), 0) + 1)
    if thread.is_alive():   # a call that ignored its timeout (a DNS look-up): the thread is left to die
        raise unreachable(f"no answer within {PROBE_SECONDS:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("identity")


async def _ask_identity(address: str, host: str, port: int, connection_args: dict, deadline: float) -> object:
    """Dask's handshake and an ``identity`` request, all before ``deadline``. Dask's connect
    gives up on its own at the deadline, so its error (with the reason) comes before this
    TimeoutError; it retries a refused connection until then, so if it has not connected after
    REFUSED_CHECK_SECONDS a plain connection attempt checks whether anything listens at all."""
    from distributed.comm import connect as comm_connect

    async def ask():
        comm = await comm_connect(address, timeout=max(deadline - time.monotonic(), 0.01), **connection_args)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    asking = asyncio.ensure_future(ask())
    try:
        done, _ = await asyncio.wait({asking}, timeout=REFUSED_CHECK_SECONDS)
        if not done and await _refused(host, port, deadline):
            raise ConnectionRefusedError(f"nothing listens on port {port}")
        return await asyncio.wait_for(asking, max(deadline - time.monotonic(), 0.01) + 0.25)
    finally:
        if not asking.done():
            asking.cancel()
            with suppress(BaseException):
                await asking


async def _refused(host: str, port: int, deadline: float) -> bool:
    """Whether a connection to ``host:port`` is refused (nothing listens there); an unknown host raises."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port),
                                           max(deadline - time.monotonic(), 0.01))
    except ConnectionRefusedError:
        return True
    except socket.gaierror:     # an unknown host: Dask would retry its look-up until the deadline
        raise
    except (OSError, TimeoutError):
        return False
    writer.close()
    return False


def _causes(error: BaseException) -> list[BaseException]:
    """``error`` and what caused it, in order."""
    chain = [error]
    while len(chain) < 20 and (chain[-1].__cause__ or chain[-1].__context__) is not None:
        chain.append(chain[-1].__cause__ or chain[-1].__context__)
    return chain


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:160] if text else type(error).__name__


def _client(address: str, security, deadline: float, where: str, original: str):
    """A Client on the scheduler that answered the probe, within what is left of ``deadline``."""
    from distributed import Client

    class BoundedClient(Client):
        def start(self, **kwargs):
            # Client.__init__ starts through distributed.utils.sync, whose callback_timeout
            # cancels the whole start (Dask's own timeout leaves the comm handshake unbounded).
            try:
                super().start(callback_timeout=max(deadline - time.monotonic(), 0.01), **kwargs)
            except BaseException:
                discard(self)
                raise

    try:
        return BoundedClient(address, timeout=max(deadline - time.monotonic(), 0.01), security=security,
                             set_as_default=False)
    except (Exception, asyncio.CancelledError) as error:  # noqa: BLE001 - one line, whatever went wrong
        reason = (f"it did not finish within {CONNECT_SECONDS:g} s" if isinstance(error, TimeoutError)
                  else _reason(error))
        raise ConfigError(f"{where}: the Dask scheduler at {original} answered, but connecting a client to it "
                          f"failed ({reason}); {ADDRESS_HELP}") from None


def discard(client, seconds: float = 2) -> None:
    """Close ``client`` as far as it goes within ``seconds`` and stop its event loop, so that
    ``Client.__del__`` (at exit, with the loop gone) has nothing left to do and prints no traceback."""
    with suppress(Exception):
        client.close(timeout=seconds)
    with suppress(Exception):
        client.status = "closed"
    with suppress(Exception):
        client._loop_runner.stop()


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
        discard(client, CONNECT_SECONDS)   # a scheduler already gone: nothing to close, no __del__ traceback


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


def on_cluster(option: str | None, file_address: str | None = None, file_path=None):
    """Where a command's runs play: its --cluster option, else its file's ``cluster:``, else this
    machine (:func:`using_cluster`)."""
    if option is not None:
        return using_cluster(option, "--cluster")
    return using_cluster(file_address, f"{file_path}: key 'cluster'")
