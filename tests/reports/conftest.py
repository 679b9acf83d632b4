"""Small real runs for the report tests: simulated once per session through the courtsim
command line, in a subprocess (a numba crash cannot take pytest down with it)."""
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

COURTSIM = [sys.executable, "-c", "import sys; from cli import app; sys.argv[0] = 'courtsim'; app()"]


def courtsim(*arguments: str) -> None:
    result = subprocess.run([*COURTSIM, *arguments], capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, f"courtsim {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}"


def simulate(out: Path, game: str, players: int, games: int, bots: str | None = None, seed: int = 3) -> Path:
    arguments = ["simulate", game, "--players", str(players), "--games", str(games), "--seed", str(seed),
                 "--jobs", "1", "--out", str(out)]
    courtsim(*arguments, *(["--bots", bots] if bots else []))
    return out


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
