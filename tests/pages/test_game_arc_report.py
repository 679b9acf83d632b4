"""The run report's "Game arc" section on a run with a standings table (a copy of a small real
Louis XIV run given a synthetic standings table, tests/standings_tables.py), and the report of a
run without standings unchanged."""
import pandas as pd
import pytest

from reports.analysis import game_arc as ga
from reports.pages.run_report import build_report
from standings_tables import with_standings


@pytest.fixture(scope="module")
def standings_run(louis_run, tmp_path_factory):
    return with_standings(louis_run, tmp_path_factory.mktemp("arc") / "louis_with_standings")


@pytest.fixture(scope="module")
def arc_report(standings_run, tmp_path_factory):
    return build_report(standings_run, tmp_path_factory.mktemp("arc_report") / "report.html", progress=False)


def test_a_run_with_standings_gets_the_game_arc_section_and_its_sentence(arc_report):
    html = arc_report.read_text()
    files = arc_report.parent / "report_files"
    assert '<section id="game-arc">' in html and "<h2>Game arc</h2>" in html
    assert "Half of 4-player games are decided by" in html and "are comebacks (95% CI" in html
    summary = html.split('<section class="summary"')[1].split("</section>")[0]
    assert "Game arc: Half of 4-player games are decided by" in summary
    assert "Brier score is" in html
    for name in ("game_arc_calibration", "game_arc_decided_at", "game_arc_summary", "game_arc_leader_fan"):
        assert (files / f"{name}.png").stat().st_size > 1000, name
        assert f'id="fig-{name}"' in html, name
    table = pd.read_csv(files / "game_arc_summary.csv")
    assert table["games"].tolist() == [500]
    row = table.iloc[0]
    assert row.decided_at_median_low <= row.decided_at_median <= row.decided_at_median_high
    assert row.comeback_rate_low <= row.comeback_rate <= row.comeback_rate_high
    fan = pd.read_csv(files / "game_arc_leader_fan.csv")
    leader = fan[fan["curve"] == "leader"]
    assert len(leader) == ga.SHARE_BINS and (leader["q25"] <= leader["median"]).all()
    assert (leader["median"] >= 0.25 - 1e-9).all()       # the leader of 4 has at least the fair share


def test_the_report_without_standings_is_unchanged(louis_run, arc_report, tmp_path):
    """The same run without its standings table: no Game arc section, and every other figure's
    table is the same as in the report with it."""
    plain = build_report(louis_run, tmp_path / "report.html", progress=False)
    html = plain.read_text()
    assert "Game arc" not in html and "game_arc" not in html
    with_arc = {path.name for path in (arc_report.parent / "report_files").glob("*.csv")}
    without = {path.name for path in (tmp_path / "report_files").glob("*.csv")}
    assert without == {name for name in with_arc if not name.startswith("game_arc_")}
    for name in sorted(without):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "report_files" / name),
                                      pd.read_csv(arc_report.parent / "report_files" / name), obj=name)


def test_a_kingmaking_played_on_the_run_is_in_the_section_and_the_headlines(louis_run, tmp_path):
    """``courtsim kingmaking RUN`` writes RUN/kingmaking/summary.parquet: the section then gives
    the kingmaker index per player count in a sentence (2 players: none by definition)."""
    from html import unescape

    import polars as pl

    run = with_standings(louis_run, tmp_path / "run")
    (run / "kingmaking").mkdir()
    pl.DataFrame({"n_players": [4, 4], "seat": [ga.ALL_SEATS, 0], "games": [300, 300],
                  "games_out_of_contention": [250, 90], "kingmaker_index": [0.4, 0.1], "index_low": [0.35, 0.07],
                  "index_high": [0.46, 0.14], "share_to_next": [0.3, 0.3], "share_to_previous": [0.25, 0.2]}
                 ).write_parquet(run / "kingmaking" / "summary.parquet")
    html = unescape(build_report(run, tmp_path / "report.html", progress=False).read_text())
    sentence = ("At 4 players an out-of-contention seat's other choice changes the winner in 40% of games (95% CI "
                "35–46%; of 300 games, 250 with a seat out of contention; 30% of the changes hand it to the next seat "
                "in turn order, 25% to the previous one).")
    assert sentence in html
    assert f"Kingmaking: {sentence}" in html.split('<section class="summary"')[1].split("</section>")[0]
