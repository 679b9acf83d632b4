"""One game is a pure function of (data, rules, bots, seed, game index): results do not depend
on chunking or on the number of worker processes."""
import numpy as np
import polars as pl
from typer.testing import CliRunner

from cli import app
from sim.louis_xiv.engine import ENGINE


def test_chunking_does_not_change_any_row():
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot(name) for name in ("greedy", "random", "greedy", "random")]
    whole = ENGINE.play_chunk(setup, 4, bots, 99, 0, 12)
    first = ENGINE.play_chunk(setup, 4, bots, 99, 0, 5)
    second = ENGINE.play_chunk(setup, 4, bots, 99, 5, 7)
    for table in ENGINE.tables:
        for column, values in whole[table].items():
            np.testing.assert_array_equal(values, np.concatenate([first[table][column], second[table][column]]),
                                          err_msg=f"{table}.{column}")


def test_other_seed_gives_other_games():
    setup = ENGINE.load_setup()
    bots = [ENGINE.resolve_bot("greedy")] * 3
    one = ENGINE.play_chunk(setup, 3, bots, 1, 0, 20)["seats"]["score"]
    two = ENGINE.play_chunk(setup, 3, bots, 2, 0, 20)["seats"]["score"]
    assert not np.array_equal(one, two)


def test_jobs_and_chunk_size_give_identical_tables(tmp_path):
    runner = CliRunner()
    common = ["simulate", "louis-xiv", "--players", "3", "--games", "300", "--seed", "5",
              "--bots", "greedy,random,greedy"]
    one = runner.invoke(app, common + ["--jobs", "1", "--chunk-size", "300", "--out", str(tmp_path / "one")])
    two = runner.invoke(app, common + ["--jobs", "2", "--chunk-size", "70", "--out", str(tmp_path / "two")])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    for table in ENGINE.tables:
        left = pl.read_parquet(tmp_path / "one" / f"{table}.parquet")
        right = pl.read_parquet(tmp_path / "two" / f"{table}.parquet")
        assert left.equals(right), table
