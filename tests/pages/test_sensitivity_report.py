"""The sensitivity report (reports/pages/sensitivity_report.py) and the robust / fragile section of the
main balance report, on synthetic sensitivity directories of the shape `courtsim sensitivity`
writes: three inputs at 3 players (the bribe costs, walked one at a time; the gold cards, two
options, walked; the coat points, screened only) and three conclusions (the best seat robust,
the strongest bot fragile at the other gold cards, the tie-break rate fragile within the noise)."""
import re
from pathlib import Path

import pandas as pd
import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

import cli
from page_text import headlines, section, text_of
from reports.pages.run_report import build_report, report_command
from reports.pages.sections_common import SENSITIVITY_TITLE
from reports.pages.sensitivity_report import main, write_sensitivity_report
from reports.pages.toolkit import CHROMIUM, view_in_chromium
from sim.core.engine import ConfigError
from courtsim_runs import simulate

ASSUMPTIONS = {"louis-xiv": [f"A{number}" for number in range(1, 8)],
               "heads-of-state": [f"H{number}" for number in range(1, 13)]}
OTHER_GOLD = "3 and 7"
CONCLUSIONS = [  # the verdict rows, as sim.studies.sensitivity.judge writes them
    {"conclusion": 0, "text": "the first player wins most often at 3 players (printed: 38.0%)", "kind": "best_seat",
     "n_players": 3, "metric": None, "threshold": None, "verdict": "robust",
     "points": 12, "failing_points": 0, "failing_screening_points": 0,
     "flip_input": None, "flip_assumption": None, "flip_value": None, "flip_score": float("nan"),
     "within_noise": None},
    {"conclusion": 1, "text": "greedy is the strongest bot at 3 players (printed: 60.0%)", "kind": "strongest_bot",
     "n_players": 3, "metric": None, "threshold": None, "verdict": "fragile",
     "points": 12, "failing_points": 5, "failing_screening_points": 4,
     "flip_input": "gold_cards", "flip_value": OTHER_GOLD, "flip_score": -0.10, "within_noise": False},
    {"conclusion": 2, "text": "tiebreak rate above 0.05 at 3 players (printed: 0.07)", "kind": "above",
     "n_players": 3, "metric": "tiebreak_rate", "threshold": 0.05, "verdict": "fragile",
     "points": 12, "failing_points": 2, "failing_screening_points": 1,
     "flip_input": "bribe_costs", "flip_value": "1", "flip_score": -0.005, "within_noise": True},
]
MORRIS_DESIGN = [  # two trajectories of D + 1 = 4 points: (bribe_costs, gold_cards, coat_points)
    (-1.0, "printed", 1.0), (1.0, "printed", 1.0), (1.0, OTHER_GOLD, 1.0), (1.0, OTHER_GOLD, 3.0),
    (0.0, OTHER_GOLD, 3.0), (0.0, "printed", 3.0), (-1.0, "printed", 3.0), (-1.0, "printed", 1.0)]
ONE_AT_A_TIME = [("bribe_costs", (-1.0, "printed", 1.0)), ("bribe_costs", (1.0, "printed", 1.0)),
                 ("gold_cards", (0.0, OTHER_GOLD, 1.0))]
METRICS = {"first_player_win_rate": "the first player's win rate",
           "second_player_win_rate": "the second player's win rate",
           "third_player_win_rate": "the third player's win rate", "bot_win_rate:greedy": "greedy's win rate",
           "bot_win_rate:random": "random's win rate", "tiebreak_rate": "the share of tie-break decided games"}


def estimates(bribe: float, gold: str, coats: float) -> dict[str, float]:
    """The metrics at one point: the first player leads throughout, greedy loses its lead with the other gold
    cards, the tie-break rate falls below 5% as bribes get dearer."""
    other = gold == OTHER_GOLD
    return {"first_player_win_rate": 0.38 - 0.02 * bribe, "second_player_win_rate": 0.33,
            "third_player_win_rate": 0.29 + 0.02 * bribe,
            "bot_win_rate:greedy": 0.45 if other else 0.60, "bot_win_rate:random": 0.55 if other else 0.40,
            "tiebreak_rate": 0.07 - 0.025 * bribe + 0.002 * (coats - 1)}


def point_rows(name: str, phase: str, values: tuple, trajectory=None, varied=None) -> list[dict]:
    bribe, gold, coats = values
    return [{"point": name, "phase": phase, "trajectory": trajectory, "varied_input": varied, "bribe_costs": bribe,
             "gold_cards": gold, "coat_points": coats, "metric": metric, "metric_label": METRICS[metric],
             "group": "seats", "unit": "rate", "n_players": 3, "value": value, "low": value - 0.01,
             "high": value + 0.01, "games": 600} for metric, value in estimates(*values).items()]


def sentence(row: dict, labels: dict) -> str:
    """The verdict in words, as sim.studies.sensitivity.sentence writes it."""
    if row["verdict"] == "robust":
        return f"Robust: {row['text']} holds at all {row['points']} design points over the plausible range of A2, A4, A5."
    noise = " (within the noise)" if row["within_noise"] else ""
    return (f"Fragile: {row['text']} fails when {labels[row['flip_input']]} is {row['flip_value']} "
            f"({row['flip_assumption']}){noise}; it fails at {row['failing_points']} of {row['points']} design points.")


def write_study(directory: Path, game: str = "louis-xiv", status: str = "complete") -> Path:
    """sensitivity.yaml, points.parquet, morris.parquet and conclusions.parquet of a finished study."""
    directory.mkdir(parents=True, exist_ok=True)
    varied = ASSUMPTIONS[game][1], ASSUMPTIONS[game][3], ASSUMPTIONS[game][4]
    inputs = [
        {"name": "bribe_costs", "assumption": varied[0], "label": "the bribe costs", "kind": "numeric",
         "why": "a bribe may cost one gold more or less than the card shows", "printed": 0.0, "low": -1.0,
         "high": 1.0, "integer": True, "paths": {"set": [], "shift": ["courtiers.2.side_a.value"], "scale": []}},
        {"name": "gold_cards", "assumption": varied[1], "label": "the gold cards", "kind": "options",
         "why": "the card list gives two readings of the gold values", "printed": "printed",
         "options": {"printed": {"set": {}, "rules": {}}, OTHER_GOLD: {"set": {"gold_cards": [3, 7]}, "rules": {}}}},
        {"name": "coat_points", "assumption": varied[2], "label": "the coat points", "kind": "numeric",
         "why": "a coat of arms may be worth 1 to 3", "printed": 1, "low": 1.0, "high": 3.0, "integer": True,
         "paths": {"set": ["points_per_coat"], "shift": [], "scale": []}}]
    labels = {entry["name"]: entry["label"] for entry in inputs}
    assumption_of = {entry["name"]: entry["assumption"] for entry in inputs}
    conclusions = []
    for row in CONCLUSIONS:
        row = {**row, "flip_assumption": assumption_of.get(row["flip_input"])}
        conclusions.append({**row, "sentence": sentence(row, labels)})
    rows = point_rows("printed", "printed", (0.0, "printed", 1.0))
    for index, values in enumerate(MORRIS_DESIGN):
        rows += point_rows(f"morris-{index:04d}", "morris", values, trajectory=index // 4)
    for index, (name, values) in enumerate(ONE_AT_A_TIME):
        rows += point_rows(f"oat-{name}-{index}", "oat", values, varied=name)
    pl.DataFrame(rows, infer_schema_length=None).with_columns(
        pl.col("n_players").cast(pl.Int32), pl.col("trajectory").cast(pl.Int64),
        pl.col("varied_input").cast(pl.String)).write_parquet(directory / "points.parquet")
    matters = {(0, "bribe_costs"), (1, "gold_cards"), (2, "bribe_costs")}
    morris = [{"conclusion": row["conclusion"], "conclusion_text": row["text"], "n_players": 3, "input": entry["name"],
               "assumption": entry["assumption"], "mu": 0.02, "mu_star": 0.04 if (row["conclusion"], entry["name"]) in
               matters else 0.001, "sigma": 0.005, "mu_star_conf": 0.004, "noise": 0.007,
               "matters": (row["conclusion"], entry["name"]) in matters} for row in conclusions for entry in inputs]
    pl.DataFrame(morris).write_parquet(directory / "morris.parquet")
    pl.DataFrame(conclusions, infer_schema_length=None).with_columns(
        pl.col("flip_input", "flip_assumption", "flip_value", "metric").cast(pl.String),
        pl.col("threshold").cast(pl.Float64),
        pl.col("within_noise").cast(pl.Boolean)).write_parquet(directory / "conclusions.parquet")
    plan = {"courtsim_sensitivity": 1, "status": status, "name": "synthetic", "description": "", "game": game,
            "sensitivity_file": "configs/sensitivity/synthetic.yaml", "experiment_file": "configs/experiments/x.yaml",
            "players": [3], "bots": ["greedy", "random"], "seed": 3, "games_per_matchup": 100, "inputs": inputs,
            "not_varied": [{"assumption": name, "why": f"{name} has no rules effect"}
                           for name in ASSUMPTIONS[game] if name not in varied],
            "method": {"screening": "Morris elementary effects (SALib)", "trajectories": 2, "levels": 4,
                       "sampler_seed": 4, "oat_levels": 3, "matter_share": 0.1,
                       "pairing": "every design point plays the same seed and game indices (common random numbers)"},
            "conclusions": conclusions if status == "complete" else [], "identity": {},
            "created": "2026-12-04T04:21:33+00:00"}
    (directory / "sensitivity.yaml").write_text(yaml.safe_dump(plan, sort_keys=False))
    return directory


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple[Path, str]:
    directory = write_study(tmp_path_factory.mktemp("sensitivity") / "study")
    page = write_sensitivity_report(directory)
    return page, page.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def small_heads_run(tmp_path_factory) -> Path:
    """A small Heads of State run (its report is the quickest of the two games to build)."""
    return simulate(tmp_path_factory.mktemp("runs") / "heads_small", "heads-of-state", 2, 30)


def test_the_page_is_written_with_every_figure_and_is_self_contained(study):
    page, text = study
    assert page == page.parent / "report.html"
    files = page.parent / "report_files"
    for name in ("morris_3p", "oat_bribe_costs", "oat_gold_cards"):
        assert (files / f"{name}.png").stat().st_size > 5_000
        assert len(pd.read_csv(files / f"{name}.csv")) > 0
    assert not (files / "oat_coat_points.png").exists()          # screened only, never walked
    assert len(pd.read_csv(files / "sensitivity_conclusions.csv")) == 3
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert "<script" not in text.lower() and text.count("<img ") == text.count('<img src="data:image/png;base64,') == 3


def test_the_headlines_are_the_verdicts_fragile_first(study):
    lines = headlines(study[1])
    assert [line.split(":")[0] for line in lines] == ["Fragile", "Fragile", "Robust"]
    assert lines[0] == ("Fragile: greedy is the strongest bot at 3 players (printed: 60.0%) fails when the gold cards "
                        "is 3 and 7 (A4); it fails at 5 of 12 design points.")
    assert "(within the noise)" in lines[1]


def test_every_assumption_and_the_fragile_conclusions_flips_are_named(study):
    text = text_of(study[1])
    assert all(assumption in text for assumption in ASSUMPTIONS["louis-xiv"])
    verdicts = text_of(section(study[1], "verdicts"))
    assert "greedy is the strongest bot at 3 players (printed: 60.0%) 3 fragile 5 of 12 4 the gold cards = 3 and 7 A4 " \
           "-10.0 points no" in verdicts
    assert "the bribe costs = 1 A2 -0.5 points yes" in verdicts
    inputs = text_of(section(study[1], "inputs"))
    assert "A2 the bribe costs ( bribe_costs) numeric -1 to 1 (whole numbers) 0" in inputs
    assert "A4 the gold cards ( gold_cards) options printed, 3 and 7 printed" in inputs
    assert "A6 A6 has no rules effect" in inputs


def test_the_method_says_what_the_verdicts_mean(study):
    method = text_of(section(study[1], "method"))
    assert "r (D + 1) = 8 points" in method and "Common random numbers" in method
    assert "Robust: it holds at every point played" in method and "Within the noise" in method


def test_a_missing_or_malformed_input_is_a_one_line_error_naming_the_file(tmp_path):
    directory = write_study(tmp_path / "study")
    (directory / "points.parquet").write_text("not parquet")
    with pytest.raises(ConfigError, match=r"points\.parquet: not a readable Parquet table"):
        write_sensitivity_report(directory)
    (directory / "sensitivity.yaml").unlink()
    with pytest.raises(ConfigError, match=re.escape(str(directory / "sensitivity.yaml"))) as error:
        write_sensitivity_report(directory)
    assert "\n" not in str(error.value)


def test_the_module_command_writes_the_report_or_prints_one_error_line(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere' / 'sensitivity.yaml'}: sensitivity plan file not found\n"


def test_the_main_report_shows_the_verdicts_only_with_a_sensitivity_run(small_heads_run, tmp_path, monkeypatch):
    directory = write_study(tmp_path / "study", game="heads-of-state")
    (directory / "report.html").write_text("<!DOCTYPE html><title>stand-in</title>")   # the page itself: above
    page = build_report(small_heads_run, tmp_path / "with" / "report.html", progress=False,
                        sensitivity=directory).read_text()
    part = text_of(section(page, "sensitivity"))
    assert SENSITIVITY_TITLE in page and "1 of 3 are robust" in part
    assert "fails when the gold cards is 3 and 7 (H4)" in part
    assert 'href="../study/report.html"' in page
    assert ("Of 3 conclusions, 1 is robust to the unprinted component data (sensitivity run "
            f"{directory}); fragile: greedy is the strongest bot") in " ".join(headlines(page))
    monkeypatch.chdir(tmp_path)                  # no runs/sensitivity/heads_of_state here
    plain = report_command(small_heads_run, tmp_path / "without" / "report.html", progress=False).read_text()
    assert SENSITIVITY_TITLE not in plain and 'id="sensitivity"' not in plain


def test_a_default_study_of_another_game_or_unfinished_is_a_note_but_an_explicit_one_an_error(small_heads_run,
                                                                                            tmp_path, monkeypatch):
    from reports.analysis.sensitivity_study import find_sensitivity_run

    monkeypatch.chdir(tmp_path)
    write_study(tmp_path / "runs" / "sensitivity" / "heads_of_state", game="heads-of-state", status="incomplete")
    found = find_sensitivity_run("heads-of-state")
    assert found.settings is None and "key 'status'" in found.note and "\n" not in found.note
    other = write_study(tmp_path / "louis", game="louis-xiv")
    result = CliRunner().invoke(cli.app, ["report", str(small_heads_run), "-o", str(tmp_path / "r.html"),
                                          "--sensitivity", str(other)])
    assert result.exit_code == 2 and not (tmp_path / "r.html").exists()
    assert result.stderr.strip() == (f"error: {other / 'sensitivity.yaml'}: key 'game': expected heads-of-state, the "
                                     "run's game (found louis-xiv)")


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
def test_the_sensitivity_report_renders_in_chromium(study, tmp_path):
    pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    seen = view_in_chromium(study[0], tmp_path / "sensitivity.png")
    assert seen["errors"] == [] and seen["failed"] == []
    assert len(seen["image_widths"]) == 3 and all(width > 0 for width in seen["image_widths"])
    assert seen["headlines"][0].startswith("Fragile: greedy is the strongest bot")
