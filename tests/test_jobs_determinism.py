"""Results do not depend on the number of worker processes or the chunk size (through the CLI,
as a designer runs it), for every game."""
import polars as pl
import pytest
from typer.testing import CliRunner

from cli import app
from sim.registry import get_engine

RUNS = {
    "louis-xiv": ["--players", "3", "--games", "300", "--seed", "5", "--bots", "greedy,random,greedy"],
    "heads-of-state": ["--players", "5", "--games", "240", "--seed", "3",
                       "--bots", "greedy,random,greedy,random,greedy"],
}


@pytest.mark.parametrize("game", sorted(RUNS))
def test_jobs_and_chunk_size_give_identical_tables(tmp_path, game):
    runner = CliRunner()
    # with the opt-in standings: its reused, never zeroed buffers (sim/core/buffers.py) hold a
    # bigger chunk's rows when a smaller one follows, and no stale row may reach the table
    common = ["simulate", game] + RUNS[game] + ["--tables", "standings"]
    one = runner.invoke(app, common + ["--jobs", "1", "--chunk-size", "1000", "--out", str(tmp_path / "one")])
    two = runner.invoke(app, common + ["--jobs", "2", "--chunk-size", "55", "--out", str(tmp_path / "two")])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    for table in [*get_engine(game).tables, "standings"]:
        left = pl.read_parquet(tmp_path / "one" / f"{table}.parquet")
        right = pl.read_parquet(tmp_path / "two" / f"{table}.parquet")
        assert left.equals(right), table
