"""Flat memory however many games run, guarded without timing or RSS: every group-by and join
of the report reads the run in slices of game indices (reports.analysis.metrics_common.sum_batches),
and the sliced report equals the one computed in a single slice."""
import re

import numpy as np
import pandas as pd
import polars as pl
import pytest

from reports.analysis import metrics_common as mc
from reports.pages.run_report import build_report
from reports.analysis.rundir import GAME_RANGE, game_frame, load_run, seat_frame

SLICE = re.compile(r'col\("game_index"\)\.is_between\(')


def unsliced_scans(plan: str) -> list[str]:
    """The Parquet scans of an (optimized) query plan that have no game_index slice filter."""
    lines = plan.splitlines()
    found = []
    for number, line in enumerate(lines):
        if "Parquet SCAN" not in line:
            continue
        indent = len(line) - len(line.lstrip())
        properties = []
        for following in lines[number + 1:]:
            if len(following) - len(following.lstrip()) != indent:
                break
            properties.append(following)
        if not any("SELECTION:" in p and SLICE.search(p) for p in properties):
            found.append(line.strip())
    return found


@pytest.fixture
def checked_collect(monkeypatch):
    """Make every LazyFrame.collect fail on a group-by or join that reads a whole table; scalar
    reductions (game range, row count, a column's maximum) stream in constant memory."""
    original = pl.LazyFrame.collect
    plans = []

    def collect(self, *args, **kwargs):
        plan = self.explain()
        if "AGGREGATE" in plan or "JOIN" in plan:
            plans.append(plan)
            whole = unsliced_scans(plan)
            assert not whole, f"group-by or join over a whole table {whole}:\n{plan}"
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pl.LazyFrame, "collect", collect)
    return plans


def report_tables(output) -> dict[str, pd.DataFrame]:
    return {path.name: pd.read_csv(path) for path in sorted((output.parent / f"{output.stem}_files").glob("*.csv"))}


def report_text(output) -> str:
    text = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", output.read_text())
    return text.replace(output.stem + "_files", "FILES")


@pytest.mark.parametrize("run_fixture", ["louis_run", "heads_run", "experiment_run"])
def test_report_in_small_slices_equals_the_whole_run_in_one(run_fixture, request, tmp_path, monkeypatch,
                                                            checked_collect):
    run = request.getfixturevalue(run_fixture)
    monkeypatch.setattr(mc, "BATCH_GAMES", 10 ** 9)
    whole = build_report(run, tmp_path / "whole" / "report.html", progress=False)
    monkeypatch.setattr(mc, "BATCH_GAMES", 70)          # 500 games: 8 slices (courtiers: 36)
    sliced = build_report(run, tmp_path / "sliced" / "report.html", progress=False)
    assert checked_collect, "no group-by was checked"
    assert report_text(sliced) == report_text(whole)
    expected, actual = report_tables(whole), report_tables(sliced)
    assert list(actual) == list(expected)
    for name, frame in expected.items():
        pd.testing.assert_frame_equal(actual[name], frame, check_dtype=False, rtol=1e-12, obj=name)


def test_standard_frames_know_the_game_range(louis_run):
    run = load_run(louis_run)
    seats, _ = seat_frame(run)
    assert getattr(seats, GAME_RANGE) == (0, 499)
    assert getattr(game_frame(run), GAME_RANGE) == (0, 499)
    assert mc.game_range(run.scan("seats")) == (0, 499)


def test_sum_batches_reads_one_slice_at_a_time():
    frame = pl.DataFrame({"game_index": np.repeat(np.arange(10, 33), 3), "key": np.tile([0, 1, 1], 23)}).lazy()
    spans = []

    def count(batch, _):
        spans.append(batch.select(pl.col("game_index").n_unique()).collect().item())
        return batch.group_by("key").agg(pl.len().alias("rows"))

    result = mc.sum_batches(frame, count, ["key"], batch_games=5)
    assert result["rows"].tolist() == [23, 46]
    assert spans == [5, 5, 5, 5, 3]
    assert mc.sum_batches(frame, lambda batch, _: batch.select(pl.len().alias("rows")), [], 4)["rows"].tolist() == [69]


@pytest.mark.parametrize("seed", range(6))
def test_histogram_quantiles_match_polars(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 12, size=int(rng.integers(1, 60)))
    expected = pl.DataFrame({"v": values}).select(
        pl.col("v").quantile(0.1).alias("p10"), pl.col("v").median().alias("median"),
        pl.col("v").quantile(0.9).alias("p90")).row(0, named=True)
    distinct, counts = np.unique(values, return_counts=True)
    actual = mc.histogram_quantiles(distinct, counts, {"p10": (0.1, "nearest"), "median": (0.5, "linear"),
                                                       "p90": (0.9, "nearest")})
    assert actual == pytest.approx(expected)
