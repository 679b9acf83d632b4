"""`courtsim compare`: --until-resolved decides from running sums (each batch read once,
a resumed comparison decides exactly as an uninterrupted one), a requested metric the table
always leaves out is refused before any game, and Ctrl-C anywhere in compare prints the
interrupted line. (Games that could not vary: tests/analysis/test_comparison_stats.py.)

Two-player Heads of State, greedy against greedy, batches of 250 games."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from reports.analysis import paired_metrics
from sim.studies import compare
from sim.studies.compare import PLAN_FILE, TABLE_FILE, plan_comparison, run_comparison
from variant_files import HEADS_OF_STATE, write_variant

runner = CliRunner()
BATCH = 250
REPOSITORY = Path(__file__).resolve().parents[2]


def invoke(*args):
    return runner.invoke(cli.app, [str(arg) for arg in args], terminal_width=400)


def experiment_file(folder: Path, players=(2,), games_per_matchup=BATCH) -> Path:
    path = folder / "pair.yaml"
    path.write_text(yaml.safe_dump({
        "name": "pair", "game": HEADS_OF_STATE, "players": list(players), "bots": ["greedy"],
        "matchups": "with_repeats", "games_per_matchup": games_per_matchup, "chunk_size": BATCH, "seed": 37,
        "jobs": 1, "out": str(folder / "experiment_run")}), encoding="utf-8")
    return path


def variant_files(folder: Path) -> list[str]:
    """A variant that changes nothing (smaller than the margin at 1,000 games), one that hands the
    second player 30 points (real at 1,000 games) and one that hands it 3 (a few points of win
    rate against a 5-point margin: undecided for longer)."""
    return [str(write_variant(folder, "noop", HEADS_OF_STATE)),
            str(write_variant(folder, "second_30", HEADS_OF_STATE, set={"starting_points.2": [0, 30]})),
            str(write_variant(folder, "second_3", HEADS_OF_STATE, set={"starting_points.2": [0, 3]}))]


def recording(monkeypatch) -> list[list[dict]]:
    """Every decision list --until-resolved makes, in order."""
    made: list[list[dict]] = []
    original = compare.running_decisions

    def running_decisions(plan, batches):
        made.append(original(plan, batches))
        return made[-1]

    monkeypatch.setattr(compare, "running_decisions", running_decisions)
    return made


def until_resolved(folder: Path, out: Path, max_games: int = 6 * BATCH, log=lambda message: None):
    plan = plan_comparison(experiment_file(folder), variant_files(folder), out, jobs=1, until_resolved=True,
                           margin=0.05, max_games=max_games)
    run_comparison(plan, log=log, progress=False)
    return plan


def sums_over_every_game(plan, n_players, variant_name, metric):
    """The running sums' arrays recomputed from every paired game the variant played."""
    arm = next(arm for arm in plan.variants if arm.name == variant_name)
    baseline, _ = paired_metrics.per_game(plan.baseline.runs[:len(arm.runs)], n_players, plan.bots)
    variant, _ = paired_metrics.per_game(arm.runs, n_players, plan.bots)
    baseline, variant = compare.paired_games(baseline, variant)
    b, v = (frame.select(metric.components).to_numpy() for frame in (baseline, variant))
    x = np.hstack([v - b, b])
    return len(x), x.sum(axis=0), x.T @ x, int(np.any(b != v, axis=1).sum())


# ----------------------------------------------------------------------------- running sums

def test_running_sums_decide_as_a_full_recomputation_after_every_batch(tmp_path, monkeypatch):
    """After every batch the decisions from the running sums are those of the old full
    recomputation (the table of every game so far): the same rows, decisions and games, the same
    log-likelihood ratios to rounding; and the sums themselves equal the sums over every paired
    game (exactly: win credits and counts are sums of halves)."""
    compared: list[tuple[list[dict], list[dict]]] = []
    original = compare.running_decisions

    def running_decisions(plan, batches):
        running = original(plan, batches)
        compared.append((running, compare.sequential_decisions(plan, compare.comparison_table(plan))))
        return running

    monkeypatch.setattr(compare, "running_decisions", running_decisions)
    plan = until_resolved(tmp_path, tmp_path / "comparison")
    assert len(compared) == 6 and plan.games_per_batch == BATCH
    for running, full in compared:
        assert [{key: entry[key] for key in ("metric", "n_players", "variant", "decision", "games")} for entry in running] \
            == [{key: entry[key] for key in ("metric", "n_players", "variant", "decision", "games")} for entry in full]
        for mine, theirs in zip(running, full):
            for key in ("llr_up", "llr_down"):
                assert mine[key] == pytest.approx(theirs[key], rel=1e-9, abs=1e-9), (mine, theirs)
    decided = {entry["variant"]: entry["decision"] for entry in compared[-1][0]}
    assert decided["noop"] == "smaller than the margin" and decided["second_30"] == "real"
    assert {entry["games"] for entry in compared[-1][0] if entry["variant"] != "second_3"} == {4 * BATCH}
    metrics = {metric.name: metric for metric in paired_metrics.declared_metrics(HEADS_OF_STATE, [2], plan.bots)}
    for (n_players, variant, name), sums in plan.running.sums.items():
        n, total, products, discordant = sums_over_every_game(plan, n_players, variant, metrics[name])
        assert (sums.n, sums.discordant) == (n, discordant)
        assert np.array_equal(sums.sums, total) and np.array_equal(sums.products, products)


def test_each_decision_reads_only_the_new_batch(tmp_path, monkeypatch):
    """The cost of a decision does not grow with the batches before it: each reads the new
    batch of the baseline and of every variant still playing, once, whatever the batch number
    (the old full recomputation read every batch of every arm again: 139 batches, 20.6 s a
    decision). The table at the end reads every game once."""
    read: list[list[str]] = []
    deciding = [False]
    original = paired_metrics.per_game

    def per_game(run_dirs, n_players, bots):
        if deciding[0]:
            read[-1].extend(Path(path).name for path in run_dirs)
        return original(run_dirs, n_players, bots)

    original_decisions = compare.running_decisions

    def running_decisions(plan, batches):
        read.append([])
        deciding[0] = True
        try:
            return original_decisions(plan, batches)
        finally:
            deciding[0] = False

    monkeypatch.setattr(paired_metrics, "per_game", per_game)
    monkeypatch.setattr(compare, "running_decisions", running_decisions)
    until_resolved(tmp_path, tmp_path / "comparison")
    assert read[:4] == [[f"batch-{batch:03d}"] * 4 for batch in range(4)]          # baseline + 3 variants
    assert read[4:] == [[f"batch-{batch:03d}"] * 2 for batch in (4, 5)]          # baseline + second_3


def test_a_resumed_comparison_decides_exactly_as_an_uninterrupted_one(tmp_path, monkeypatch):
    """One comparison runs through; another is interrupted after its third decision and run
    again. The resumed one rebuilds its sums from the finished batches, batch by batch (without
    playing them again), and every decision after every batch, log-likelihood ratios included,
    is the very same number as the uninterrupted one's; so are comparison.yaml's decisions and
    the table."""
    made = recording(monkeypatch)
    until_resolved(tmp_path, tmp_path / "through")
    through = list(made)

    def interrupt_after_third(message):
        if message.startswith("after batch 3:"):
            raise KeyboardInterrupt

    made.clear()
    with pytest.raises(KeyboardInterrupt):
        until_resolved(tmp_path, tmp_path / "interrupted", log=interrupt_after_third)
    assert made == through[:3]
    assert yaml.safe_load((tmp_path / "interrupted" / PLAN_FILE).read_text())["status"] == "incomplete"
    made.clear()
    messages: list[str] = []
    until_resolved(tmp_path, tmp_path / "interrupted", log=messages.append)
    assert made == through and len(made) == 6
    assert sum("already holds this completed run" in message for message in messages) == 4 * 3   # batches 1-3
    records = [yaml.safe_load((tmp_path / name / PLAN_FILE).read_text()) for name in ("through", "interrupted")]
    assert records[0]["sequential"] == records[1]["sequential"] and records[1]["status"] == "complete"
    tables = [pl.read_parquet(tmp_path / name / TABLE_FILE) for name in ("through", "interrupted")]
    assert tables[0].equals(tables[1])


# ----------------------------------------------------------------------------- --metrics refused

def test_a_requested_metric_the_table_always_leaves_out_is_refused_before_any_game(tmp_path):
    """At 2 players the second player's win rate repeats the first's, so the table leaves it out
    and --until-resolved would decide "0 of 0" and exit 0: one line, exit 2, nothing written."""
    out = tmp_path / "comparison"
    result = invoke("compare", experiment_file(tmp_path), "--variants", variant_files(tmp_path)[0],
                    "--until-resolved", "--metrics", "second_player_win_rate", "--out", out)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert lines[0].startswith("error: --metrics: second_player_win_rate is left out of the table at every player "
                               "count of pair (2 players)")
    assert "100% minus the first player's" in lines[0] and "request first_player_win_rate instead" in lines[0]
    assert not out.exists()


def test_a_metric_kept_at_some_player_count_is_accepted(tmp_path):
    plan = plan_comparison(experiment_file(tmp_path, players=(2, 3)), variant_files(tmp_path)[:1],
                           tmp_path / "comparison", until_resolved=True, metrics=["second_player_win_rate"])
    assert plan.metrics == ["second_player_win_rate"]                 # kept at 3 players
    assert compare.left_out_everywhere(plan, "first_player_win_rate") is None
    assert compare.left_out_everywhere(plan, "third_player_win_rate") is None


# ----------------------------------------------------------------------------- Ctrl-C

INTERRUPTED = "interrupted: finished chunks are kept in"


@pytest.mark.parametrize("stage", ["plan_comparison", "run_comparison"])
def test_ctrl_c_anywhere_in_compare_prints_the_interrupted_line_and_exits_130(tmp_path, monkeypatch, stage):
    """While compare imports, validates every arm (plan_comparison) or plays and decides
    (run_comparison): typer alone turns a Ctrl-C outside the play into a silent exit 130."""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(compare, stage, interrupted)
    out = tmp_path / "comparison"
    result = invoke("compare", experiment_file(tmp_path), "--variants", variant_files(tmp_path)[0],
                    "--until-resolved", "--out", out)
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().splitlines()[-1] == f"{INTERRUPTED} {out}; run the same command again to resume"


def test_ctrl_c_during_until_resolved_in_a_real_process(tmp_path):
    """The real signal: SIGINT to the process group (as a terminal's Ctrl-C) once the first
    decision is logged. Exit 130 with the interrupted line, no traceback."""
    out = tmp_path / "comparison"
    command = [sys.executable, "-c", "import sys; sys.argv[0] = 'courtsim'; from cli import app; app()", "compare",
               str(experiment_file(tmp_path, games_per_matchup=50)), "--variants", variant_files(tmp_path)[2],
               "--until-resolved", "--max-games", "100000", "--jobs", "1", "--out", str(out)]
    process = subprocess.Popen(command, cwd=REPOSITORY, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env={**os.environ, "PYTHONPATH": str(REPOSITORY)})
    lines = []
    deadline = time.monotonic() + 300
    for line in process.stderr:
        lines.append(line)
        if line.startswith("after batch 1:") or time.monotonic() > deadline:
            break
    os.killpg(process.pid, signal.SIGINT)
    _, rest = process.communicate(timeout=120)
    stderr = "".join(lines) + rest
    assert process.returncode == 130, stderr
    assert f"{INTERRUPTED} {out}; run the same command again to resume" in stderr and "Traceback" not in stderr
