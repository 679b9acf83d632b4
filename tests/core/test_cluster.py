"""--cluster: the same chunks on a Dask distributed cluster (a LocalCluster on loopback, started
and stopped by the tests) give the same tables as --jobs 1; a worker killed mid-run has its
chunk played elsewhere; a scheduler that goes away stops the run with its finished chunks kept,
and the same run resumes; a sweep on the cluster equals the local sweep."""
import os
import signal
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from distributed import Client, LocalCluster

from courtsim_runs import courtsim
from sim import registry
from sim.core.cluster import ClusterLost, using_cluster
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
            parts = tmp_path / "run" / "parts"
            deadline = time.monotonic() + 300
            while not any(parts.glob("*/chunk-*.parquet")) and time.monotonic() < deadline:
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
    parts = tmp_path / "run" / "parts"
    deadline = time.monotonic() + 300
    while len(list(parts.glob("games/chunk-*.parquet"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    local_cluster.close()
    player.join(timeout=600)
    assert isinstance(outcome.get("error"), ClusterLost), outcome
    assert "run the same command again to resume" in str(outcome["error"])
    kept = len(list(parts.glob("games/chunk-*.parquet")))
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
    """Give up on an unreachable scheduler after 1 s, not the 10 s a real cluster gets."""
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
