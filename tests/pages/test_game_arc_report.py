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
