"""Real runs through the courtsim command line, in a subprocess (a numba crash cannot take
pytest down with it): one place for every test that simulates before it reads."""
import subprocess
import sys
from pathlib import Path

COURTSIM = [sys.executable, "-c", "import sys; from cli import app; sys.argv[0] = 'courtsim'; app()"]


def courtsim(*arguments: str) -> None:
    result = subprocess.run([*COURTSIM, *arguments], capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, f"courtsim {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}"


def simulate(out: Path, game: str, players: int, games: int, bots: str | None = None, seed: int = 3) -> Path:
    arguments = ["simulate", game, "--players", str(players), "--games", str(games), "--seed", str(seed),
                 "--jobs", "1", "--out", str(out)]
    courtsim(*arguments, *(["--bots", bots] if bots else []))
    return out
