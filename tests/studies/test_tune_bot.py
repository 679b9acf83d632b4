"""courtsim tune-bot: Optuna tunes a bot family's parameters against a pool on shared games."""
import dataclasses
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import cli
from sim.studies import tune_bot
from strategies.bots import BotCatalogue

runner = CliRunner()


def probe(plan: tune_bot.TuningPlan, folder: Path) -> tune_bot.TuningPlan:
    """The plan with its evaluations played into ``folder`` (every evaluation is a run of the study's
    directory: one looked at outside the study must not leave runs in the study's directory)."""
    return dataclasses.replace(plan, out_dir=folder, baseline_turns={})


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
    with pytest.raises(Exception, match="holds another bot tuning \\(key 'seed': 5 in the study, 6 now\\)"):
        tune_bot.tune(other, log=lambda message: None, progress=False)


def test_the_worst_objective_scores_a_candidate_by_the_opponent_it_beats_least(tmp_path):
    plan = tune_bot.plan_tuning("louis-xiv", 3, ["random", "greedy"], 4 * 60, tmp_path / "study", games_per_trial=60,
                                batch=2, seed=5, objective="worst")
    assert [(label, len(orders)) for label, orders in tune_bot.matchups(plan)] == [("random", 3), ("greedy", 3)]
    assert tune_bot.matchups(plan)[1][1] == [(-1, 1, 1), (1, -1, 1), (1, 1, -1)]   # n - 1 copies, every seat
    per_matchup = tune_bot.evaluate_matchups(probe(plan, tmp_path / "probe"), plan.start, 60)
    assert tune_bot.evaluate(probe(plan, tmp_path / "probe"), plan.start, 60) == min(
        (credits, seats) for _, credits, seats in per_matchup)
    written = tune_bot.tune(plan, log=lambda message: None, progress=False)
    record = yaml.safe_load((plan.out_dir / "tuning.yaml").read_text())
    rates = {name: matchup["win_rate"] for name, matchup in record["fresh_matchups"].items()}
    assert set(rates) == {"random", "greedy"} and record["fresh"]["win_rate"] == min(rates.values())
    description = yaml.safe_load(written.read_text())["description"]
    assert f"worst: {min(rates, key=rates.get)}" in description and "2 copies of each of random, greedy" in description
    assert "--objective worst" in written.read_text().splitlines()[0]
    first, second = tune_bot.open_study(plan).trials[:2]
    assert second.datetime_start >= first.datetime_complete   # the starting point is told before the first batch


def test_the_field_objective_seats_the_candidate_n_minus_1_times_against_one_pool_bot(tmp_path):
    plan = tune_bot.plan_tuning("louis-xiv", 3, ["random", "greedy"], 4 * 60, tmp_path / "study", games_per_trial=60,
                                batch=2, seed=5, objective="field")
    assert [label for label, _ in tune_bot.matchups(plan)] == ["one random", "one greedy"]
    assert tune_bot.matchups(plan)[1][1] == [(1, -1, -1), (-1, 1, -1), (-1, -1, 1)]   # the pool bot in every seat
    (_, random_credits, random_seats), (_, greedy_credits, greedy_seats) = tune_bot.evaluate_matchups(plan, plan.start, 60)
    assert random_seats == greedy_seats == 2 * 30   # 60 games over two match-ups, two candidate seats in each
    assert random_credits / random_seats > greedy_credits / greedy_seats
    # the candidate is greedy's defaults: in the mirror match-up its seats share the games with greedy's
    assert 0.2 < greedy_credits / greedy_seats < 0.45 and random_credits / random_seats > 0.45
    both = tune_bot.plan_tuning("louis-xiv", 3, ["random", "greedy"], 4 * 60, tmp_path / "both", games_per_trial=60,
                                batch=2, seed=5, objective="both")
    assert [label for label, _ in tune_bot.matchups(both)] == ["random", "greedy", "one random", "one greedy"]
    written = tune_bot.tune(both, log=lambda message: None, progress=False)
    description = yaml.safe_load(written.read_text())["description"]
    assert "in 2 seats against one of each" in description and "one greedy" in description


def test_cmaes_searches_around_the_starting_point(tmp_path):
    plan = tune_bot.plan_tuning("louis-xiv", 2, ["random"], 800, tmp_path / "study", batch=4, seed=3,
                                sampler="cmaes", start="tuned_2p")
    study = tune_bot.open_study(plan)
    space = tune_bot.distributions(plan)
    first = study.ask(space)
    assert first.params == plan.start                      # the starting point is played first
    study.tell(first, 0.5)
    ranges = {parameter.name: parameter.high - parameter.low for parameter in plan.parameters}
    for _ in range(8):
        trial = study.ask(space)
        steps = [abs(trial.params[name] - plan.start[name]) / ranges[name] for name in ranges if ranges[name]]
        assert max(steps) < 0.25 and sum(steps) / len(steps) < 0.06, trial.params   # sigma0: 3% of each range
        study.tell(trial, 0.4)


@pytest.mark.parametrize("arguments, message", [
    (["--players", "5"], "--players"),
    (["--against", "nobody"], "--against"),
    (["--budget", "10"], "--budget"),
    (["--family", "random"], "--family"),
    (["--sampler", "grid"], "--sampler"),
    (["--objective", "best"], "--objective"),
    (["--speed-floor", "1.5"], "--speed-floor"),
])
def test_bad_tune_bot_options_are_one_line(tmp_path, arguments, message):
    base = {"--players": "2", "--against": "random", "--budget": "800", "--out": str(tmp_path / "t")}
    for key, value in zip(arguments[::2], arguments[1::2]):
        base[key] = value
    result = runner.invoke(cli.app, ["tune-bot", "louis-xiv", *[item for pair in base.items() for item in pair]])
    assert result.exit_code == 2 and message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_every_shipped_tuned_bot_validates_and_names_the_command_that_made_it():
    catalogue = BotCatalogue()
    shipped = sorted((Path(__file__).resolve().parents[2] / "configs" / "bots").rglob("tuned_*p.yaml"))
    assert shipped, "no tuned bot is shipped"
    for path in shipped:
        game = yaml.safe_load(path.read_text())["game"]
        definition = catalogue.definition(game, path.stem)
        assert definition.family == "greedy"
        assert "fresh seat-rotated seats" in definition.description or "fresh seats (worst:" in definition.description
        assert path.read_text().startswith(f"# Made by: courtsim tune-bot {game} --players {path.stem[6]} ")


def test_a_speed_floor_costs_a_slow_candidate_its_shortfall_and_the_bot_file_states_its_speed(tmp_path):
    """Heads of State's tuned_2p makes the deck last (Option 1b and 2 take fewer character cards):
    its mirror games last longer than greedy's, so it is estimated below a 0.95 floor."""
    plan = tune_bot.plan_tuning("heads-of-state", 2, ["greedy"], 4 * 40, tmp_path / "study", games_per_trial=40,
                                batch=2, seed=5, start="tuned_2p", sampler="cmaes", speed_floor=0.95)
    looked = probe(plan, tmp_path / "probe")
    speed, turns, greedy_turns = tune_bot.relative_speed(looked, plan.start, 400)
    assert speed == greedy_turns / turns and turns > greedy_turns and speed < 0.95
    assert tune_bot.scored(plan, 0.6, speed) == pytest.approx(0.6 - (0.95 - speed))
    assert tune_bot.scored(plan, 0.6, 0.97) == 0.6                       # above the floor: no cost
    defaults = {parameter.name: parameter.default for parameter in plan.parameters}
    assert tune_bot.relative_speed(looked, defaults, 400)[0] == 1.0          # greedy's own defaults
    written = tune_bot.tune(plan, log=lambda message: None, progress=False)
    text = written.read_text()
    description = yaml.safe_load(text)["description"]
    assert "--speed-floor 0.95" in text.splitlines()[0] and "of greedy's games per second (floor 95%)" in description
    record = yaml.safe_load((plan.out_dir / "tuning.yaml").read_text())
    assert record["plan"]["speed_floor"] == 0.95 and 0 < record["fresh_speed"]["relative"] <= 1.5
    trial = tune_bot.completed(tune_bot.open_study(plan))[0]
    assert trial.value == pytest.approx(tune_bot.scored(plan, trial.user_attrs["win_rate"], trial.user_attrs["speed"]))
