"""Results do not depend on the number of worker processes or the chunk size (through the CLI,
as a designer runs it)."""
import polars as pl
from typer.testing import CliRunner

from cli import app
from sim.heads_of_state.engine import ENGINE


def test_jobs_and_chunk_size_give_identical_tables(tmp_path):
    runner = CliRunner()
    common = ["simulate", "heads-of-state", "--players", "5", "--games", "240", "--seed", "3",
              "--bots", "greedy,random,greedy,random,greedy"]
    one = runner.invoke(app, common + ["--jobs", "1", "--chunk-size", "240", "--out", str(tmp_path / "one")])
    two = runner.invoke(app, common + ["--jobs", "2", "--chunk-size", "55", "--out", str(tmp_path / "two")])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    for table in ENGINE.tables:
        left = pl.read_parquet(tmp_path / "one" / f"{table}.parquet")
        right = pl.read_parquet(tmp_path / "two" / f"{table}.parquet")
        assert left.equals(right), table
