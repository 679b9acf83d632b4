"""A run table is a directory of parts (one per chunk); a metric working on a slice of games reads
only the parts that hold them (reports.analysis.rundir.games_slice), and gets the same rows."""
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from reports.analysis.metrics_common import sum_batches
from reports.analysis.rundir import games_slice, scan_table
from sim.core import results

CHUNKS = ((0, 700), (700, 700), (1400, 650), (2050, 300))   # (first game, games), as a runner writes them


def write_table(directory):
    directory.mkdir()
    for first, n_games in CHUNKS:
        games = np.arange(first, first + n_games, dtype=np.int32)
        pq.write_table(pa.table({"game_index": np.repeat(games, 2), "score": (np.repeat(games, 2) % 7).astype(np.int32),
                                 "bot": pa.array(["greedy", "random"] * n_games).dictionary_encode()}),
                       directory / results.part_name(first))
    return directory


def test_a_slice_opens_only_the_parts_holding_its_games(tmp_path):
    table = write_table(tmp_path / "seats.parquet")
    (table / results.part_name(2050)).write_bytes(b"not parquet")   # a part the slice must not open
    with games_slice(650, 1500):
        rows = scan_table(table).filter(pl.col("game_index").is_between(650, 1500)).collect()
    assert rows["game_index"].min() == 650 and rows["game_index"].max() == 1500 and rows.height == 2 * 851
    try:
        scan_table(table).collect()
    except Exception:
        pass
    else:
        raise AssertionError("without a slice every part is read")


def test_sliced_sums_equal_the_sums_of_the_whole_table(tmp_path):
    table = write_table(tmp_path / "seats.parquet")
    whole = pl.scan_parquet(table).collect()
    lf = scan_table(table)
    setattr(lf, "courtsim_game_range", (0, 2349))
    for batch in (100, 333, 700, 5000):
        frame = sum_batches(lf, lambda rows, _: rows.group_by("bot").agg(pl.col("score").sum(), pl.len().alias("n")),
                            ["bot"], batch_games=batch)
        expected = whole.group_by("bot").agg(pl.col("score").sum(), pl.len().alias("n")).sort("bot")
        assert frame["score"].tolist() == expected["score"].to_list()
        assert frame["n"].tolist() == expected["n"].to_list()
