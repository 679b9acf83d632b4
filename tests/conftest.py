"""What every test shares: Ctrl-C taken as Python does, and small real runs simulated once per
session through the courtsim command line (tests/courtsim_runs.py) for the analysis and page tests.

Every test process takes Ctrl-C as Python does by default, even when its shell started it in
the background (a script's `cmd &` ignores SIGINT, and an ignored SIGINT is inherited): the
interrupt tests send SIGINT to this process and to courtsim subprocesses, which get the default
disposition back on exec once this process has a handler."""
import signal
from pathlib import Path

import pytest
import yaml

from courtsim_runs import courtsim, simulate

signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def louis_run(tmp_path_factory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "louis", "louis-xiv", 4, 500, "greedy,random,greedy,random")


@pytest.fixture(scope="session")
def heads_run(tmp_path_factory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "heads", "heads-of-state", 4, 500)


@pytest.fixture(scope="session")
def experiment_run(tmp_path_factory) -> Path:
    """A seat-rotated experiment (`courtsim run`): 3 and 4 players in one run directory, with
    the ``matchup`` and ``seating`` columns."""
    directory = tmp_path_factory.mktemp("runs")
    experiment = {"name": "report_test", "game": "louis-xiv", "players": [3, 4], "bots": ["greedy", "random"],
                  "matchups": "with_repeats", "seating": "rotation", "games_per_matchup": 60, "seed": 5,
                  "jobs": 1, "chunk_size": 500, "out": str(directory / "experiment")}
    path = directory / "experiment.yaml"
    path.write_text(yaml.safe_dump(experiment))
    courtsim("run", str(path))
    return directory / "experiment"
