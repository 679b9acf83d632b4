"""End to end: `courtsim report` on small real runs of both games, an experiment-like run with
several player counts and a match-up column, and the one-line errors."""
import shutil

import polars as pl
import pytest
import yaml

from reports.analysis import metrics_louis_xiv as lx
from reports.pages.run_report import build_report
from reports.analysis.rundir import load_run
from sim.core.engine import ConfigError


def check_report(output, expected_figures):
    html = output.read_text()
    files = output.parent / f"{output.stem}_files"
    assert "<h2>Summary</h2>" in html
    assert "http://" not in html and "https://" not in html          # self-contained
    for name in expected_figures:
        assert (files / f"{name}.png").stat().st_size > 1000, name
        assert (files / f"{name}.csv").stat().st_size > 0, name
        assert f'id="fig-{name}"' in html, name
    assert html.count("data:image/png;base64,") == len(list(files.glob("*.png")))
    return html


def test_louis_xiv_report(louis_run, tmp_path):
    output = build_report(louis_run, tmp_path / "report.html", progress=False)
    html = check_report(output, ["win_rate_by_seat", "win_rate_by_bot", "matchup_matrix", "score_distributions",
                                 "winning_score_and_margin", "drama_by_round", "courtier_flip_rate",
                                 "courtier_modes_by_round", "courtier_transition_matrix", "courtier_majority_ties",
                                 "louis_cases", "bribe_gold_per_courtier", "gifts_winners_vs_others",
                                 "missions_winners_vs_others", "score_sources"])
    assert "of 4-player games; fair share is 25.0%" in html
    assert "not seat-rotated" in html            # greedy,random,greedy,random is not rotated
    test = pl.read_csv(tmp_path / "report_files" / "seat_advantage_test.csv")
    assert test["games"].to_list() == [500]
    assert 0 <= test["p_value"][0] <= 1


def test_transition_shortcut_matches_consecutive_rounds(louis_run):
    """side_transitions derives the next side from `flipped`; check it against a join of
    consecutive evaluations of the same courtier in a real run."""
    courtiers = load_run(louis_run).scan("courtiers")       # labels as strings, as the report reads them
    side, _ = lx.side_transitions(courtiers)
    frame = courtiers.select("game_index", "courtier", "round", "side").collect()
    joined = frame.join(frame.with_columns(pl.col("round") - 1), on=["game_index", "courtier", "round"],
                        suffix="_next")
    counts = joined.group_by(["side", "side_next"]).len().to_pandas().pivot(
        index="side", columns="side_next", values="len").reindex(index=["A", "B"], columns=["A", "B"])
    shares = counts.div(counts.sum(axis=1), axis=0)
    assert side.to_numpy() == pytest.approx(shares.to_numpy())


def test_heads_of_state_report(heads_run, tmp_path):
    output = build_report(heads_run, tmp_path / "hos.html", progress=False)
    html = check_report(output, ["win_rate_by_seat", "score_distributions", "assassination_odds", "betrayal_usage",
                                 "country_tiebreaks", "noble_card_majorities", "score_sources", "round_lengths"])
    assert "the bag&#39;s 75.0%" in html or "the bag's 75.0%" in html
    assert "same bot (greedy)" in html


def test_report_on_an_experiment_with_two_player_counts(experiment_run, tmp_path):
    output = build_report(experiment_run, tmp_path / "exp.html", progress=False)
    html = check_report(output, ["win_rate_by_seat", "win_rate_by_bot", "matchup_matrix", "win_rate_by_matchup",
                                 "bot_ratings", "courtier_flip_rate"])
    assert "of 3-player games; fair share is 33.3%" in html
    assert "of 4-player games; fair share is 25.0%" in html
    assert "not seat-rotated" not in html         # rotation seating balances bots over seats
    by_seat = pl.read_csv(tmp_path / "exp_files" / "win_rate_by_seat.csv")
    assert sorted(by_seat["n_players"].unique().to_list()) == [3, 4]
    seats = pl.read_parquet(experiment_run / "seats.parquet")
    matchups = pl.read_csv(tmp_path / "exp_files" / "win_rate_by_matchup.csv")
    assert matchups["games"].sum() == seats.height
    assert set(matchups["bot"]) == {"greedy", "random"}


def test_progress_lines(louis_run, tmp_path, capsys):
    build_report(louis_run, tmp_path / "r.html", progress=True)
    err = capsys.readouterr().err
    assert "report: [1/6] seat advantage" in err and "done in" in err


def test_missing_and_incomplete_run_directories(louis_run, tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        build_report(tmp_path / "nowhere", tmp_path / "r.html", progress=False)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="not a courtsim run directory"):
        build_report(tmp_path / "empty", tmp_path / "r.html", progress=False)
    copy = tmp_path / "copy"
    shutil.copytree(louis_run, copy)
    manifest = yaml.safe_load((copy / "run.yaml").read_text())
    manifest["status"] = "incomplete"
    (copy / "run.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(ConfigError, match="incomplete") as error:
        build_report(copy, tmp_path / "r.html", progress=False)
    assert "\n" not in str(error.value)
    manifest["status"] = "complete"
    (copy / "run.yaml").write_text(yaml.safe_dump(manifest))
    shutil.rmtree(copy / "courtiers.parquet")          # the table: the directory of its parts
    with pytest.raises(ConfigError, match="courtiers.parquet is missing"):
        build_report(copy, tmp_path / "r.html", progress=False)
