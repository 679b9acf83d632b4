"""courtsim tune-bot: Optuna tunes a bot family's parameters against a pool on shared games."""
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim.studies import tune_bot
from strategies.bots import BotCatalogue

runner = CliRunner()


def near_random_start(folder: Path) -> Path:
    """A greedy whose move scores are all noise: about as strong as random play."""
    path = folder / "noisy_greedy.yaml"
    values = {"value_crown": 0.0, "value_token": 0.0, "value_needed_token": 0.0, "value_coat": 0.0,
              "value_gold": 0.0, "value_influence_card": 0.0, "value_intrigue_card": 0.0, "noise": 10.0}
    path.write_text(yaml.safe_dump({"name": "noisy_greedy", "game": "louis-xiv", "family": "greedy",
                                    "description": "Scores every move by noise.", "parameters": values}))
    return path


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tune")
    plan = tune_bot.plan_tuning("louis-xiv", 2, ["random"], 16 * 60, folder / "study", games_per_trial=60, batch=4,
                                seed=5, start=str(near_random_start(folder)))
    return plan, tune_bot.tune(plan, log=lambda message: None, progress=False)


def test_tuning_on_a_tiny_budget_improves_on_its_starting_point_against_random(tuned):
    plan, written = tuned
    record = yaml.safe_load((plan.out_dir / "tuning.yaml").read_text())
    assert record["trials"] == 16
    assert record["fresh"]["win_rate"] > record["start_fresh_win_rate"], record   # fixed seeds: deterministic


def test_the_tuned_bot_file_validates_loads_and_carries_its_interval(tuned):
    plan, written = tuned
    definition = BotCatalogue().definition("louis-xiv", str(written))
    assert definition.family == "greedy" and definition.bot_seat().name == "tuned_2p"
    assert "fresh seat-rotated seats" in definition.description and "[" in definition.description
    assert written.read_text().startswith("# Made by: courtsim tune-bot louis-xiv --players 2 --against random ")


def test_the_tuned_bot_is_reproducible_from_its_study(tuned):
    plan, written = tuned
    first = written.read_text()
    again = tune_bot.tune(plan, log=lambda message: None, progress=False)   # resumes: every trial is done
    assert again.read_text() == first


def test_another_plan_in_the_same_study_is_refused(tuned):
    plan, _ = tuned
    other = tune_bot.plan_tuning("louis-xiv", 2, ["random"], 16 * 60, plan.out_dir, games_per_trial=60, seed=6)
    with pytest.raises(Exception, match="another plan"):
        tune_bot.tune(other, log=lambda message: None, progress=False)


@pytest.mark.parametrize("arguments, message", [
    (["--players", "5"], "--players"),
    (["--against", "nobody"], "--against"),
    (["--budget", "10"], "--budget"),
    (["--family", "random"], "--family"),
    (["--sampler", "grid"], "--sampler"),
])
def test_bad_tune_bot_options_are_one_line(tmp_path, arguments, message):
    base = {"--players": "2", "--against": "random", "--budget": "800", "--out": str(tmp_path / "t")}
    for key, value in zip(arguments[::2], arguments[1::2]):
        base[key] = value
    result = runner.invoke(cli.app, ["tune-bot", "louis-xiv", *[item for pair in base.items() for item in pair]])
    assert result.exit_code == 2 and message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_every_shipped_tuned_bot_validates_and_names_the_command_that_made_it():
    catalogue = BotCatalogue()
    shipped = sorted((Path(__file__).resolve().parent.parent / "configs" / "bots").rglob("tuned_*p.yaml"))
    assert shipped, "no tuned bot is shipped"
    for path in shipped:
        game = yaml.safe_load(path.read_text())["game"]
        definition = catalogue.definition(game, path.stem)
        assert definition.family == "greedy" and "fresh seat-rotated seats" in definition.description
        assert path.read_text().startswith(f"# Made by: courtsim tune-bot {game} --players {path.stem[6]} ")
