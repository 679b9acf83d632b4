"""courtsim landscape (issue 41, sim/studies/landscape.py): the meta-game's pairs seat-rotated,
option values paired on common random numbers with verdicts whose truth is known, the tables and
page of a tiny landscape, and a second run that finds it complete and changes nothing."""
import numpy as np
import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

from cli import app
from sim.studies import landscape
from sim.studies.landscape_options import load_options
from strategies.bots import BotCatalogue

OPTION = load_options("louis-xiv").options[0]


def test_the_one_seat_bot_sits_in_each_seat_in_turn():
    catalogue = BotCatalogue()
    greedy, random = (catalogue.definition("louis-xiv", name).bot_seat() for name in ("greedy", "random"))
    seatings = landscape.one_against(greedy, random, 3, 100, 7, "greedy vs random")
    assert [[bot.name for bot in seating.bots] for seating in seatings] == [
        ["greedy", "random", "random"], ["random", "greedy", "random"], ["random", "random", "greedy"]]
    assert [(seating.first_game, seating.n_games) for seating in seatings] == [(100, 7), (107, 7), (114, 7)]


def test_an_option_never_taken_changes_no_game_and_is_dead():
    row = landscape.option_row(3, OPTION, np.zeros(300), 0.0)
    assert row["verdict"] == landscape.DEAD and (row["value"], row["low"], row["high"]) == (0.0, 0.0, 0.0)
    assert "changes no seat's result in 300 games" in row["sentence"]
    taken_elsewhere = landscape.option_row(3, OPTION, np.zeros(300), 0.3)      # taken, yet no result changed
    assert taken_elsewhere["verdict"] == landscape.WORTH_LITTLE


@pytest.mark.parametrize("loss, verdict", [(0.25, landscape.DOMINANT), (0.05, landscape.MATTERS),
                                           (-0.05, landscape.MISUSED), (0.0, landscape.DEAD)])
def test_an_options_verdict_follows_its_true_loss(loss, verdict):
    """Paired losses drawn around a known mean (each game's loss -1, 0 or +1, as credits give),
    over seeded repetitions: the verdict is the one the true loss calls for in nearly all."""
    found = []
    for seed in range(40):
        rng = np.random.default_rng(seed)
        # a game's loss is +1 (the restriction lost a win), -1 (it won one) or 0
        changed = rng.random(40000) < 0.3
        sign = np.where(rng.random(40000) < 0.5 + loss / 0.6, 1.0, -1.0)
        losses = np.where(changed, sign, 0.0)
        found.append(landscape.option_row(3, OPTION, losses, 0.0 if verdict == landscape.DEAD else 0.5)["verdict"])
    assert found.count(verdict) >= 36, found


def test_a_small_loss_of_an_option_the_bot_often_takes_or_nobody_counts_is_not_called_dead():
    rng = np.random.default_rng(3)
    losses = np.where(rng.random(20000) < 0.2, np.where(rng.random(20000) < 0.5, 1.0, -1.0), 0.0)
    assert landscape.option_row(3, OPTION, losses, 0.8)["verdict"] == landscape.WORTH_LITTLE
    assert landscape.option_row(3, OPTION, losses, float("nan"))["verdict"] == landscape.WORTH_LITTLE
    assert landscape.option_row(3, OPTION, losses[:300], 0.0)["verdict"] == landscape.UNRESOLVED   # too few games


def test_a_tiny_landscape_writes_its_tables_and_page_and_a_second_run_changes_nothing(tmp_path):
    out = tmp_path / "landscape"
    arguments = ["landscape", "louis-xiv", "--players", "3", "--pool", "random,greedy,tuned",
                 "--games-per-matchup", "30", "--exploit-budget", "60", "--out", str(out)]
    first = CliRunner().invoke(app, arguments)
    assert first.exit_code == 0, first.output
    tables = {name: pl.read_parquet(out / file) for name, file in landscape.TABLE_FILES.items()}
    assert set(tables["equilibrium"]["strategy"]) == {"random", "greedy", "tuned_3p"}
    assert tables["equilibrium"]["mass"].sum() == pytest.approx(1.0)
    # the one-seat bot is the strategy, the others its opponent: random rates lowest, tuned highest
    ratings = dict(zip(tables["equilibrium"]["strategy"], tables["equilibrium"]["rating"]))
    assert min(ratings, key=ratings.get) == "random" and max(ratings, key=ratings.get) == "tuned_3p"
    assert set(tables["options"]["decision"]) == {option.id for option in load_options("louis-xiv").options}
    assert set(tables["options"]["verdict"]) <= {landscape.DEAD, landscape.DOMINANT, landscape.MATTERS,
                                                 landscape.MISUSED, landscape.WORTH_LITTLE, landscape.UNRESOLVED}
    assert tables["skill"]["n_players"].to_list() == [3]
    assert tables["exploit"]["exploited"].to_list() == ["tuned_3p"] and tables["exploit"]["trials"].to_list() == [2]
    page = (out / "report.html").read_text()
    assert "Is there a dominant strategy?" in page and "Which rules matter?" in page
    again = CliRunner().invoke(app, arguments)
    assert again.exit_code == 0, again.output
    for name, file in landscape.TABLE_FILES.items():
        assert pl.read_parquet(out / file).equals(tables[name]), name
    other = CliRunner().invoke(app, [argument if argument != "30" else "31" for argument in arguments])
    assert other.exit_code == 2 and "landscape" in other.output, other.output


@pytest.mark.parametrize("win_rate, low, exploitable", [(0.40, 0.39, True), (0.36, 0.30, False)])
def test_an_exploiter_surely_five_points_above_the_fair_share_marks_the_bot_exploitable(win_rate, low, exploitable):
    row = landscape.exploit_row(3, "tuned_3p", win_rate, low, win_rate + 0.02, 1200, 10)
    assert row["exploitable"] is exploitable and row["fair_share"] == pytest.approx(1 / 3)
    assert ("exploitable bot" in row["sentence"]) is exploitable


def test_an_exploiter_that_never_beat_the_tuned_bot_is_said_to_be_the_tuned_bot():
    """No trial beat the start in training: the sentence says the search found no exploit, not a
    mirror's win rate as if an exploiter had reached it."""
    row = landscape.exploit_row(2, "tuned_2p", 0.5, 0.485, 0.515, 4000, 50, beat_start=False)
    assert not row["exploitable"] and not row["beat_start"]
    assert "no trial of 50 tuned against tuned_2p alone beat tuned_2p itself" in row["sentence"]
    assert "found no exploit" in row["sentence"]


def test_a_comparison_shows_a_variant_that_changes_how_often_an_option_is_used(tmp_path):
    """Each counted option's uses per game is a compare metric, paired: with 10 markers a player
    instead of 16 the tuned bots take LB-MARKER (a marker from the general supply back to their
    own) fewer times a game, and the comparison resolves it (0.27 fewer in these 400 games)."""
    from variant_files import write_variant

    experiment = tmp_path / "tuned_3p.yaml"
    experiment.write_text(yaml.safe_dump({"name": "tuned_3p", "game": "louis-xiv", "players": [3],
                                          "bots": ["tuned_3p"], "matchups": "with_repeats", "games_per_matchup": 400,
                                          "seed": 4}))
    variant = write_variant(tmp_path, "fewer_markers", set={"markers_per_player": 10})
    result = CliRunner().invoke(app, ["compare", str(experiment), "--variants", str(variant), "--jobs", "1",
                                      "--out", str(tmp_path / "comparison")])
    assert result.exit_code == 0, result.output
    table = pl.read_parquet(tmp_path / "comparison" / "comparison.parquet")
    uses = table.filter(pl.col("metric") == "option_uses:lb_marker").row(0, named=True)
    assert uses["games"] >= 400 and uses["verdict"] == "real" and uses["high"] < 0, uses
    assert set(table["metric"]) >= {f"option_uses:{option.id}" for option in load_options("louis-xiv").options
                                    if option.counted}


def test_the_page_warns_next_to_the_verdicts_that_rest_on_an_exploitable_bot():
    """A player count whose tuned bot the exploit check beats by more than 5 points gets a caution
    beside its equilibrium verdict and its option values; the other counts get none."""
    import pandas as pd

    from reports.pages import sections_landscape

    exploit = pd.DataFrame([landscape.exploit_row(3, "tuned_3p", 0.45, 0.43, 0.47, 4000, 50),
                            landscape.exploit_row(4, "tuned_4p", 0.25, 0.23, 0.27, 4000, 50)])
    verdicts = pd.DataFrame({"n_players": [3, 4], "sentence": ["three", "four"]})
    equilibrium = pd.DataFrame(columns=["n_players", "strategy", "mass", "mass_low", "mass_high", "rating", "low",
                                        "high"])
    options = pd.DataFrame({"n_players": [3, 4], "decision": ["x", "x"], "sentence": ["x at 3", "x at 4"]})
    tables = {"exploit": exploit, "verdicts": verdicts, "equilibrium": equilibrium, "options": options}
    for section in (sections_landscape.equilibrium_section(tables), sections_landscape.options_section(tables)):
        cautions = [bullet for bullet in section.bullets if bullet.startswith("Caution")]
        assert len(cautions) == 1 and "at 3 players" in cautions[0] and "+11.7 points" in cautions[0]
