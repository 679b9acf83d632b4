"""--cluster: the same chunks on a Dask distributed cluster (a LocalCluster on loopback, started
and stopped by the tests) give the same tables as --jobs 1; a worker killed mid-run has its
chunk played elsewhere; a scheduler that goes away stops the run with its finished chunks kept,
and the same run resumes; a sweep on the cluster equals the local sweep; an address that is no
usable scheduler (malformed, closed, silent, an HTTP server, tls:// unconfigured, a Dask server
that cannot take a client) is one error line within seconds, leaving nothing behind."""
import asyncio
import http.server
import os
import signal
import socket
import socketserver
import subprocess
import tempfile
import threading
import time
from contextlib import closing
from pathlib import Path

import polars as pl
import pytest
from distributed import Client, LocalCluster

from courtsim_runs import COURTSIM, courtsim
from sim import registry
from sim.core.cluster import ClusterLost, tls_connection_args, using_cluster
from sim.core.engine import ConfigError
from sim.core.runner import run_simulation
from sim.studies import sweep
from strategies.bots import bot_package
from study_files import write_two_greedy_experiment


def start_cluster(n_workers: int = 2) -> LocalCluster:
    return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=":0", silence_logs=40)


@pytest.fixture(scope="module")
def cluster():
    local_cluster = start_cluster()
    yield local_cluster
    local_cluster.close()


def tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    found = {path.stem: pl.read_parquet(path) for path in sorted(Path(run_dir).glob("*.parquet"))}
    assert found, f"no tables in {run_dir}"
    return found


def same_tables(first: Path, second: Path) -> bool:
    left, right = tables(first), tables(second)
    return left.keys() == right.keys() and all(left[name].equals(right[name]) for name in left)


def louis_xiv_run(bots: list[str], players: int = 3):
    engine = registry.get_engine("louis-xiv")
    strategies = bot_package("louis-xiv")
    return engine, engine.load_setup(), [strategies.resolve_bot(name) for name in bots][:players]


def test_a_simulation_on_a_local_cluster_writes_the_tables_of_jobs_1(cluster, tmp_path):
    common = ["simulate", "louis-xiv", "--players", "3", "--games", "600", "--chunk-size", "100", "--seed", "11"]
    courtsim(*common, "--jobs", "1", "--out", str(tmp_path / "local"))
    courtsim(*common, "--cluster", cluster.scheduler_address, "--out", str(tmp_path / "cluster"))
    assert same_tables(tmp_path / "local", tmp_path / "cluster")
    for table in ("games", "seats", "courtiers"):      # this process wrote the parts, as the workers do
        assert sorted(path.name for path in (tmp_path / "cluster" / f"{table}.parquet").iterdir()) == \
            [f"chunk-{first:012d}.parquet" for first in range(0, 600, 100)]


def test_every_worker_loads_the_kernels_once_before_its_first_chunk(cluster, tmp_path):
    engine, setup, seats = louis_xiv_run(["greedy", "greedy", "random"])
    with using_cluster(cluster.scheduler_address) as client:
        run_simulation(engine, setup, 3, seats, 5, 200, tmp_path / "run", chunk_size=50, progress=False,
                       log=lambda message: None)
        warm = client.run(lambda: sorted(__import__("sim.core.cluster", fromlist=["x"])._WARM_GAMES))
    assert all(games == ["louis-xiv"] for games in warm.values()), warm


def test_a_worker_killed_during_a_cluster_run_has_its_chunk_played_again_and_the_tables_are_identical(tmp_path):
    """Search bots make each chunk last about a second; a worker is killed (SIGKILL) once the
    first chunk is written, while both workers hold a chunk; its nanny starts a new worker and
    the scheduler gives the lost chunk to a live one."""
    engine, setup, seats = louis_xiv_run(["search", "greedy", "greedy"])
    run = dict(chunk_size=20, progress=False, log=lambda message: None)
    run_simulation(engine, setup, 3, seats, 7, 240, tmp_path / "reference", **run)
    local_cluster = start_cluster()
    try:
        with Client(local_cluster.scheduler_address) as watcher:
            outcome: dict = {}

            def play():
                try:
                    with using_cluster(local_cluster.scheduler_address):
                        outcome["result"] = run_simulation(engine, setup, 3, seats, 7, 240, tmp_path / "run", **run)
                except BaseException as error:  # noqa: BLE001 - reported by the assertion below
                    outcome["error"] = error

            player = threading.Thread(target=play)
            player.start()
            run_dir = tmp_path / "run"
            deadline = time.monotonic() + 300
            while not any(run_dir.glob("*.parquet/chunk-*.parquet")) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "result" not in outcome, "the run finished before a worker could be killed"
            victim = next(iter(watcher.run(os.getpid).values()))
            os.kill(victim, signal.SIGKILL)
            player.join(timeout=600)
    finally:
        local_cluster.close()
    assert "error" not in outcome, outcome.get("error")
    assert outcome["result"].games_played == 240
    assert same_tables(tmp_path / "reference", tmp_path / "run")


def test_a_scheduler_that_goes_away_stops_the_run_with_its_chunks_kept_and_the_same_run_resumes(tmp_path):
    engine, setup, seats = louis_xiv_run(["search", "greedy", "greedy"])
    run = dict(chunk_size=20, progress=False, log=lambda message: None)
    local_cluster = start_cluster()
    outcome: dict = {}

    def play():
        try:
            with using_cluster(local_cluster.scheduler_address):
                outcome["result"] = run_simulation(engine, setup, 3, seats, 9, 400, tmp_path / "run", **run)
        except BaseException as error:  # noqa: BLE001 - inspected below
            outcome["error"] = error

    player = threading.Thread(target=play)
    player.start()
    parts = tmp_path / "run" / "games.parquet"       # the games table's parts, one per finished chunk
    deadline = time.monotonic() + 300
    while len(list(parts.glob("chunk-*.parquet"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    local_cluster.close()
    player.join(timeout=600)
    assert isinstance(outcome.get("error"), ClusterLost), outcome
    assert "run the same command again to resume" in str(outcome["error"])
    kept = len(list(parts.glob("chunk-*.parquet")))
    assert 2 <= kept < 20
    messages = []
    second_cluster = start_cluster()
    try:
        with using_cluster(second_cluster.scheduler_address):
            resumed = run_simulation(engine, setup, 3, seats, 9, 400, tmp_path / "run",
                                     **{**run, "log": messages.append})
    finally:
        second_cluster.close()
    assert resumed.chunks_reused == kept and resumed.games_played == 400 - 20 * kept
    run_simulation(engine, setup, 3, seats, 9, 400, tmp_path / "reference", **run)
    assert same_tables(tmp_path / "reference", tmp_path / "run")


def test_a_sweep_on_the_cluster_equals_the_local_sweep(cluster, tmp_path):
    experiment = write_two_greedy_experiment(tmp_path, games=40, chunk_size=20)
    results = {}
    for where in ("local", "cluster"):
        path = tmp_path / f"{where}.yaml"
        path.write_text(f"name: gold_{where}\nexperiment: {experiment}\nout: {tmp_path / where}\n"
                        "grid:\n  - path: start_gold\n    values: [4, 6]\n", encoding="utf-8")
        plan = sweep.plan_sweep(path)
        with using_cluster(cluster.scheduler_address if where == "cluster" else None):
            results[where] = sweep.run_sweep(plan, log=lambda message: None, progress=False)
    local, on_cluster = (pl.read_parquet(tmp_path / where / "sweep.parquet") for where in ("local", "cluster"))
    assert local.equals(on_cluster)


@pytest.fixture
def impatient(monkeypatch):
    """Give up on an unreachable scheduler after 1 s, not the seconds a real cluster gets."""
    monkeypatch.setattr("sim.core.cluster.PROBE_SECONDS", 1)
    monkeypatch.setattr("sim.core.cluster.CONNECT_SECONDS", 1)


def test_a_cluster_nobody_listens_on_is_one_error_line_from_the_option_or_the_files_key(tmp_path, impatient):
    from typer.testing import CliRunner

    import cli

    runner = CliRunner()
    result = runner.invoke(cli.app, ["simulate", "louis-xiv", "--players", "2", "--games", "10",
                                     "--cluster", "tcp://127.0.0.1:9", "--out", str(tmp_path / "a")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--cluster: cannot reach a Dask scheduler at tcp://127.0.0.1:9" in result.output
    experiment = write_two_greedy_experiment(tmp_path)
    experiment.write_text(experiment.read_text() + "cluster: tcp://127.0.0.1:9\n", encoding="utf-8")
    result = runner.invoke(cli.app, ["run", str(experiment), "--out", str(tmp_path / "b")])
    assert result.exit_code == 2, result.output
    assert f"{experiment}: key 'cluster': cannot reach a Dask scheduler" in " ".join(result.output.split())
    assert not (tmp_path / "b").exists() or not any((tmp_path / "b").rglob("*.parquet"))


def test_a_cluster_address_nobody_listens_on_is_a_one_line_error(impatient):
    with pytest.raises(ConfigError, match=r"--cluster: cannot reach a Dask scheduler at tcp://127.0.0.1:9"):
        with using_cluster("tcp://127.0.0.1:9"):
            pass
    with pytest.raises(ConfigError, match="expected a Dask scheduler address"):
        with using_cluster("localhost"):
            pass


# ----------------------------------------------------------------------------- unusable addresses
# Each test starts its own servers on loopback (port 0: a free port), bounded in time and closed at
# the end, and runs `courtsim simulate ... --cluster ADDRESS` in a subprocess (a Client.__del__
# traceback shows only when the interpreter exits) with a temporary directory of its own.

SCRATCH = Path(tempfile.gettempdir()) / "dask-scratch-space"
SECONDS_ALLOWED = 15        # the promise is 10 s; slack for a loaded machine, so the test is not flaky
SERVER_SECONDS = 30         # no test server holds a connection longer than this


def scratch_entries() -> set[str]:
    return set(os.listdir(SCRATCH)) if SCRATCH.is_dir() else set()


def assert_one_cluster_error(address: str, tmp_path: Path, *expected: str, prelude: str = "") -> str:
    """``courtsim simulate ... --cluster address``: exit 2, one stderr line ``error: --cluster``
    holding every ``expected`` text, no traceback, within SECONDS_ALLOWED, nothing left in
    /tmp/dask-scratch-space, its own temporary directory or the run directory."""
    own_tmp = tmp_path / "tmp"
    own_tmp.mkdir()
    command = list(COURTSIM)
    if prelude:  # python code to run before the command line (e.g. a shorter deadline)
        command[-1] = f"{prelude}; {command[-1]}"
    before = scratch_entries()
    started = time.monotonic()
    result = subprocess.run(
        [*command, "simulate", "louis-xiv", "--players", "2", "--games", "10", "--cluster", address,
         "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "TMPDIR": str(own_tmp)})
    seconds = time.monotonic() - started
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "Traceback" not in output and "Exception ignored" not in output, output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --cluster"), result.stderr
    assert all(text in lines[0] for text in expected), lines[0]
    assert seconds < SECONDS_ALLOWED, f"{seconds:.1f} s: {lines[0]}"
    assert scratch_entries() - before == set()
    assert not any(own_tmp.iterdir()), sorted(own_tmp.iterdir())
    assert not (tmp_path / "run").exists()
    return lines[0]


class Serving:
    """``server`` serving in a thread until the ``with`` block ends (``release`` set at the end)."""

    def __init__(self, server: socketserver.BaseServer, release: threading.Event | None = None):
        self.server, self.release = server, release or threading.Event()
        self.thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    @property
    def address(self) -> str:
        host, port = self.server.server_address[:2]
        return f"tcp://{host}:{port}"

    def __enter__(self) -> "Serving":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(SERVER_SECONDS)


class LoopbackServer(socketserver.ThreadingTCPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass    # a peer that hangs up is what these tests do


def silent_server() -> Serving:
    """Accepts every connection and says nothing (for at most SERVER_SECONDS, or until closed)."""
    release = threading.Event()

    class Silent(socketserver.BaseRequestHandler):
        def handle(self):
            release.wait(SERVER_SECONDS)

    return Serving(LoopbackServer(("127.0.0.1", 0), Silent), release)


class Page(http.server.BaseHTTPRequestHandler):
    timeout = SERVER_SECONDS    # a connection that sends no request line is dropped after this

    def do_GET(self):
        body = b"<html><body>Dask dashboard</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class LoopbackHTTPServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


@pytest.mark.parametrize("address, problem", [
    ("tcp://", "(no host)"),
    ("tcp://127.0.0.1", "(no port)"),
    ("tcp://127.0.0.1:99999", "bad port"),
    ("http://x", "http:// is not a Dask scheduler's scheme"),
    ("inproc://x", "inproc:// is not a Dask scheduler's scheme"),
])
def test_a_malformed_cluster_address_is_one_line_at_once(tmp_path, address, problem):
    line = assert_one_cluster_error(address, tmp_path, "expected a Dask scheduler address such as tcp://HOST:8786",
                                    problem)
    assert repr(address) in line


def test_a_closed_port_is_one_line(tmp_path):
    # bound, never listening: refused, and no other process can take the port meanwhile
    with closing(socket.socket()) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        assert_one_cluster_error(f"tcp://127.0.0.1:{port}", tmp_path,
                                 f"cannot reach a Dask scheduler at tcp://127.0.0.1:{port} (connection refused")


def test_a_server_that_accepts_and_says_nothing_is_one_line(tmp_path):
    with silent_server() as server:
        assert_one_cluster_error(server.address, tmp_path, f"no Dask scheduler answered at {server.address}",
                                 "said nothing")


def test_an_http_server_such_as_the_dashboard_is_one_line(tmp_path):
    with Serving(LoopbackHTTPServer(("127.0.0.1", 0), Page)) as server:
        assert_one_cluster_error(server.address, tmp_path, f"no Dask scheduler answered at {server.address}",
                                 "8787 is its dashboard")


@pytest.mark.skipif(tls_connection_args() is not None, reason="this machine's Dask configuration sets TLS")
def test_tls_without_dask_tls_settings_is_one_line(tmp_path):
    with silent_server() as server:
        address = server.address.replace("tcp://", "tls://")
        assert_one_cluster_error(address, tmp_path, f"{address} needs Dask's TLS settings",
                                 "distributed.comm.tls.ca-file")


def test_a_dask_server_that_cannot_take_a_client_is_one_line_and_its_client_is_closed(tmp_path):
    """A Dask server that says it is a scheduler but has no register-client handler: the Client
    fails (here after 1 s, not CONNECT_SECONDS) and is closed, so no Client.__del__ traceback."""
    from distributed.core import Server

    ready, stop, where = threading.Event(), threading.Event(), {}

    def identity(n_workers: int = -1) -> dict:
        return {"type": "Scheduler", "id": "fake", "address": where.get("address"), "workers": {}}

    async def serve():
        server = Server({"identity": identity}, local_directory=str(tmp_path / "server"))
        await server.listen("tcp://127.0.0.1:0")
        where["address"] = server.address
        ready.set()
        deadline = time.monotonic() + SERVER_SECONDS
        while not stop.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await server.close()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    try:
        assert ready.wait(SERVER_SECONDS)
        assert_one_cluster_error(where["address"], tmp_path,
                                 f"the Dask scheduler at {where['address']} answered, but connecting a client",
                                 "within 1 s", prelude="import sim.core.cluster as c; c.CONNECT_SECONDS = 1")
    finally:
        stop.set()
        thread.join(SERVER_SECONDS)
