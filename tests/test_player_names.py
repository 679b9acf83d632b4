"""One name for a player: pages, sentences and metric names speak of the first, second,
... player in turn order (reports.analysis.players), computed from each table's start_position, not from
the seat index; the tables keep their 0-based ``seat``. Old metric names are one-line errors
naming the new one."""
import re
from fnmatch import fnmatch
from pathlib import Path

import polars as pl
import pytest
import yaml

from courtsim_runs import courtsim
from page_text import headlines, text_of
from study_files import tiny_study_files
from reports.analysis import paired_metrics, players, targets
from reports.pages.run_report import build_report
from variant_files import HEADS_OF_STATE, LOUIS_XIV
from sim.core.engine import ConfigError
from sim.studies import compare, sensitivity, sweep

PLAYER_COUNTS = {LOUIS_XIV: (2, 3, 4), HEADS_OF_STATE: (2, 3, 4, 5)}
NAMED_BY_TURN_ORDER = "(players are named by turn order)"


# ----------------------------------------------------------------------------- the names

def test_players_are_named_by_their_place_in_the_turn_order_in_words():
    assert [players.player_words(position) for position in range(5)] == [
        "the first player", "the second player", "the third player", "the fourth player", "the fifth player"]
    assert [players.win_rate_metric(position) for position in range(5)] == [
        "first_player_win_rate", "second_player_win_rate", "third_player_win_rate", "fourth_player_win_rate",
        "fifth_player_win_rate"]
    assert players.win_rate_label(0) == "the first player's win rate"
    assert players.sentence_start(players.player_words(2)) == "The third player"
    assert [players.position_of(players.win_rate_metric(position)) for position in range(5)] == [0, 1, 2, 3, 4]
    assert players.position_of("bot_win_rate:greedy") is None and players.position_of("balance") is None


@pytest.mark.parametrize("game", [LOUIS_XIV, HEADS_OF_STATE])
def test_the_pattern_of_every_players_win_rate_selects_exactly_them(game):
    """``*_player_win_rate`` (a target's fnmatch pattern) picks the players' win rates and nothing
    else a study estimates: no bot's win rate, no skill gap, no balance."""
    bots = ["greedy", "tuned_3p", "mission_racer", "random"]
    for n_players in PLAYER_COUNTS[game]:
        names = [metric.name for metric in paired_metrics.declared_metrics(game, [n_players], bots)]
        names += ["game_length_median", "skill_gap:random->greedy"]
        chosen = [name for name in names if fnmatch(name, players.WIN_RATE_PATTERN)]
        assert chosen == [players.win_rate_metric(position) for position in range(n_players)], n_players
        assert chosen == [name for name in names if paired_metrics.is_player_win_rate(name)]
        assert not any(name.startswith("seat_") or name == "start_player_win_rate" for name in names)


# ----------------------------------------------------------------------------- old names

OLD_NAMES = [("seat_1_win_rate", "first_player_win_rate"), ("seat_2_win_rate", "second_player_win_rate"),
             ("seat_5_win_rate", "fifth_player_win_rate"), ("seat_*_win_rate", "*_player_win_rate"),
             ("start_player_win_rate", "first_player_win_rate")]


@pytest.mark.parametrize("old, new", OLD_NAMES)
def test_an_old_metric_name_is_one_line_naming_the_new_one(old, new):
    message = f"{old} is now {new} {NAMED_BY_TURN_ORDER}"
    with pytest.raises(ConfigError) as caught:
        players.check_metric_name(old, "--metrics")
    assert str(caught.value) == f"--metrics: {message}"
    assert targets.bound_problem({"metric": old, "at_least": 0.4}) == ("metric", message)
    players.check_metric_name(new, "--metrics")                      # the new name is fine
    assert targets.bound_problem({"metric": new, "at_least": 0.4}) is None


def test_an_old_name_in_a_sweep_file_is_refused_naming_the_new_one(tmp_path):
    files = tiny_study_files(tmp_path)
    record = yaml.safe_load(files["sweep"].read_text())
    record["targets"] = [{"metric": "balance", "at_least": 0.5},
                         {"metric": "seat_*_win_rate", "fair_share_within": 0.1}]
    files["sweep"].write_text(yaml.safe_dump(record))
    with pytest.raises(ConfigError) as caught:
        sweep.plan_sweep(files["sweep"])
    assert str(caught.value) == (f"{files['sweep']}: key 'targets.1.metric': seat_*_win_rate is now *_player_win_rate "
                                 f"{NAMED_BY_TURN_ORDER}")


def test_an_old_name_in_a_sensitivity_conclusion_is_refused_naming_the_new_one(tmp_path):
    files = tiny_study_files(tmp_path)
    record = yaml.safe_load(files["sensitivity"].read_text())
    record["conclusions"] = [{"kind": "best_seat", "players": 2},
                             {"kind": "above", "metric": "seat_1_win_rate", "value": 0.5, "players": 2}]
    files["sensitivity"].write_text(yaml.safe_dump(record))
    with pytest.raises(ConfigError) as caught:
        sensitivity.plan_sensitivity(LOUIS_XIV, files["sensitivity"])
    assert str(caught.value) == (f"{files['sensitivity']}: key 'conclusions.1.metric': seat_1_win_rate is now "
                                 f"first_player_win_rate {NAMED_BY_TURN_ORDER}")


def test_a_sensitivity_conclusion_names_the_player_who_wins_most_by_turn_order():
    conclusion = sensitivity.Conclusion(kind="best_seat", players=3)
    printed = {"first_player_win_rate": (0.30, 0.28, 0.32), "second_player_win_rate": (0.31, 0.29, 0.33),
               "third_player_win_rate": (0.39, 0.37, 0.41), "bot_win_rate:greedy": (0.9, 0.8, 1.0)}
    statement = sensitivity.state(conclusion, printed)
    assert statement.text == "the third player wins most often at 3 players (printed: 39.0%)"
    assert statement.subject == "third_player_win_rate"
    threshold = sensitivity.state(sensitivity.Conclusion(kind="above", metric="first_player_win_rate", value=0.25,
                                                         players=3), printed)
    assert threshold.text == "the first player's win rate above 0.25 at 3 players (printed: 0.3)"


# ----------------------------------------------------------------------------- a random start player

@pytest.fixture(scope="module")
def random_start_run(tmp_path_factory) -> Path:
    """90 three-player Louis XIV games whose start player is drawn at random."""
    out = tmp_path_factory.mktemp("runs") / "random_start"
    courtsim("simulate", LOUIS_XIV, "--players", "3", "--games", "90", "--seed", "4", "--jobs", "1",
             "--rule", "random_start_player=true", "--out", str(out))
    return out


def test_with_a_random_start_player_the_first_players_win_rate_follows_turn_order_not_the_seat(random_start_run):
    seats = pl.read_parquet(random_start_run / "seats.parquet").with_columns(
        (pl.col("is_winner") / pl.col("is_winner").sum().over("game_index")).alias("credit"))
    assert seats.filter((pl.col("seat") == 0) & (pl.col("start_position") != 0)).height > 20   # seat 0 often not first
    frame, metrics = paired_metrics.per_game([random_start_run], 3, ["greedy"])
    rates = [metric for metric in metrics if metric.group == "seats"]
    assert [metric.name for metric in rates] == ["first_player_win_rate", "second_player_win_rate",
                                                 "third_player_win_rate", "balance"]
    assert [metric.label for metric in rates[:3]] == ["the first player's win rate", "the second player's win rate",
                                                      "the third player's win rate"]
    for position, metric in enumerate(rates[:3]):
        expected = seats.filter(pl.col("start_position") == position).sort("game_index")["credit"]
        assert frame[metric.components[0]].to_list() == pytest.approx(expected.to_list())
    by_seat = seats.filter(pl.col("seat") == 0).sort("game_index")["credit"]
    assert frame[rates[0].components[0]].to_list() != pytest.approx(by_seat.to_list())   # not seat 0's
    assert rates[3].components == tuple(metric.components[0] for metric in rates[:3])     # balance over the places


# ----------------------------------------------------------------------------- every page

def old_numbering(text: str) -> list[str]:
    """Wording that numbers a player by seat ("Seat 0 (the first player)", "seat 1's win rate", "seat
    2 wins"); the tables' own 0-based seat may be named as such ("the tables' seat 0")."""
    return [match.group(0) for match in re.finditer(r"(\S+ )?\b[Ss]eat \d+\S*", text)
            if match.group(1) != "tables' "]


def test_the_balance_report_names_players_by_turn_order(random_start_run, tmp_path):
    page = build_report(random_start_run, tmp_path / "report.html", progress=False).read_text()
    assert headlines(page)[0].startswith("The first player wins ")
    assert old_numbering(text_of(page)) == []
    assert "seat_1_win_rate" not in page and "start_player_win_rate" not in page


def write_random_start_experiment(folder: Path) -> Path:
    path = folder / "random_start.yaml"
    path.write_text(yaml.safe_dump({"name": "random_start", "game": LOUIS_XIV, "players": [3], "bots": ["greedy"],
                                    "matchups": "with_repeats", "games_per_matchup": 30, "seed": 6, "jobs": 1,
                                    "chunk_size": 30, "rules": {"random_start_player": True}}))
    return path


def test_the_comparison_and_sweep_pages_name_players_by_turn_order(tmp_path):
    experiment = write_random_start_experiment(tmp_path)
    variant = tmp_path / "rich.yaml"
    variant.write_text(yaml.safe_dump({"name": "rich", "game": LOUIS_XIV, "description": "more gold",
                                       "set": {"start_gold": 8}}))
    plan = compare.plan_comparison(experiment, [str(variant)], tmp_path / "comparison", jobs=1)
    directory = compare.run_comparison(plan, log=lambda message: None, progress=False)
    table = pl.read_parquet(directory / compare.TABLE_FILE)
    assert not any(name.startswith("seat_") or name == "start_player_win_rate" for name in table["metric"])
    rates = table.filter(pl.col("group") == "seats")
    assert rates["metric"].to_list() == ["first_player_win_rate", "second_player_win_rate", "third_player_win_rate",
                                         "balance"]
    assert rates["metric_label"].to_list()[:3] == ["the first player's win rate", "the second player's win rate",
                                                   "the third player's win rate"]
    page = text_of((directory / "report.html").read_text())
    assert "the first player's win rate" in page and old_numbering(page) == []

    sweep_file = tmp_path / "sweep.yaml"
    sweep_file.write_text(yaml.safe_dump({
        "name": "gold", "experiment": str(experiment), "grid": [{"path": "start_gold", "values": [4, 5]}],
        "targets": [{"metric": "*_player_win_rate", "fair_share_within": 0.5}], "out": str(tmp_path / "sweep")}))
    swept = sweep.run_sweep(sweep.plan_sweep(sweep_file), log=lambda message: None, progress=False)
    assert sweep.DEFAULT_REPORT_METRICS[0] == "first_player_win_rate"
    record = yaml.safe_load((swept / sweep.PLAN_FILE).read_text())
    assert record["report_metrics"][0] == "first_player_win_rate"
    page = (swept / "report.html").read_text()
    assert any("the first player's win rate" in line for line in headlines(page))
    assert old_numbering(text_of(page)) == []
