"""Issue 37: a resumed tuning is the same study as an uninterrupted one. ``courtsim tune`` and
``courtsim tune-bot`` are interrupted (KeyboardInterrupt, as Ctrl-C, leaving a RUNNING trial or the
unfinished rest of a batch) after k evaluations, resumed with the same plan, and must end with the
same trials, candidate table, recommended variants and tuned bot as a study never interrupted, for
every sampler they use (tune: TPE, NSGA-II; tune-bot: TPE, CMA-ES)."""
import math
import os
import pickle
import signal
from pathlib import Path

import numpy as np
import optuna
import polars as pl
import pytest
import yaml

from study_files import write_two_greedy_experiment
from sim.studies import optuna_resume, tune_bot, tune_rules

QUIET = {"log": lambda message: None, "progress": False}


def stored_trials(study) -> list[tuple]:
    """Everything a study holds of its trials but their times."""
    return [(trial.number, trial.state.name, trial.params, trial.values, trial.user_attrs,
             comparable(trial.system_attrs)) for trial in study.get_trials(deepcopy=True)]


def comparable(system_attrs: dict) -> dict:
    """A trial's system attrs, CMA-ES's pickled optimizer as its state: the pickle also holds the
    cmaes package's function history for its stopping rule (np.empty: other bytes in every run,
    never read by Optuna), and unpickling gives it a random generator seeded afresh (Optuna
    seeds it before every ask)."""
    chunks = sorted((key for key in system_attrs if key.startswith("cma:optimizer:")),
                    key=lambda key: int(key.rsplit(":", 1)[1]))
    if not chunks:
        return system_attrs
    optimizer = pickle.loads(bytes.fromhex("".join(system_attrs[key] for key in chunks)))
    state = {name: value.tolist() if isinstance(value, np.ndarray) else value
             for name, value in vars(optimizer).items() if name not in ("_funhist_values", "_rng")}
    return {**{key: value for key, value in system_attrs.items() if key not in chunks}, "cma:optimizer": state}


def study_attrs(study) -> dict:
    return study._storage.get_study_system_attrs(study._study_id)


def resumed_sessions(run, stops: tuple[int, ...]) -> None:
    """``run(stop)`` once per interruption point (each raising KeyboardInterrupt when the
    evaluations of every session so far reach ``stop``), then to the end."""
    for stop in stops:
        with pytest.raises(KeyboardInterrupt):
            run(stop)
    run(None)


# ----------------------------------------------------------------------------- tune

class SyntheticGame:
    """The first player wins 50% + 4 points per gold above 3 and 1 per mission point above 5, with
    the noise of ``games`` games. Its calls go to ``calls``; it raises KeyboardInterrupt when the
    training calls there reach ``stop``."""

    def __init__(self, calls: list, stop: int | None):
        self.calls, self.stop = calls, stop

    def __call__(self, values, games, first_game, name):
        if not name.startswith("fresh-"):
            if sum(not call[0].startswith("fresh-") for call in self.calls) == self.stop:
                raise KeyboardInterrupt
        self.calls.append((name, dict(values), games, first_game))
        truth = 0.5 + 0.04 * (values["start_gold"] - 3) + 0.01 * (values["points_per_mission"] - 5)
        standard_error = 0.5 / math.sqrt(games)
        value = truth + np.random.default_rng([first_game, games, values["start_gold"],
                                               values["points_per_mission"]]).normal(0.0, standard_error)
        return [{"metric": "first_player_win_rate", "metric_label": "the first player's win rate", "unit": "rate",
                 "n_players": 2, "value": value, "low": value - 2 * standard_error,
                 "high": value + 2 * standard_error, "games": games}]


def write_tuning(folder: Path, sampler: str) -> Path:
    record = {"name": "seat_balance", "experiment": str(write_two_greedy_experiment(folder)),
              "space": [{"path": "start_gold", "range": {"from": 0, "to": 8, "step": 1}},
                        {"path": "points_per_mission", "range": {"from": 3, "to": 7, "step": 1}}],
              "targets": [{"metric": "first_player_win_rate", "between": [0.49, 0.51]}],
              "trials": 14, "rungs": [100, 400], "keep": 0.5, "sampler": sampler, "seed": 3, "top": 2}
    path = folder / "seat_balance.yaml"
    path.write_text(yaml.safe_dump(record, sort_keys=False))
    return path


@pytest.fixture
def small_population(monkeypatch):
    """NSGA-II with a population of 4 (instead of 50), so a tiny study has several generations
    and selects parents: the state NSGA-II keeps in the storage."""
    original = tune_rules.sampler_of

    def sampler_of(plan, seed):
        if plan.tuning.sampler == "nsga2":
            return optuna.samplers.NSGAIISampler(seed=seed, population_size=4)
        return original(plan, seed)

    monkeypatch.setattr(tune_rules, "sampler_of", sampler_of)


def tune_in_sessions(folder: Path, sampler: str, stops: tuple[int, ...]) -> tuple[tune_rules.TuningPlan, list]:
    """A tuning interrupted at each of ``stops`` (training evaluations) and resumed to the end."""
    path, calls = write_tuning(folder, sampler), []

    def run(stop):
        plan = tune_rules.plan_tuning(path, out_dir=folder / "out")
        plan.evaluator = SyntheticGame(calls, stop)
        tune_rules.tune(plan, report=False, **QUIET)
        return plan

    resumed_sessions(run, stops)
    return tune_rules.plan_tuning(path, out_dir=folder / "out"), calls


def tune_outputs(plan: tune_rules.TuningPlan) -> dict:
    """What a tuning leaves, its folder's path written DIR (each study has a folder of its own)."""
    study = tune_rules.open_study(plan)
    record = yaml.safe_load((plan.out_dir / tune_rules.PLAN_FILE).read_text().replace(str(plan.path.parent), "DIR"))
    del record["created"]
    return {"trials": stored_trials(study), "study_attrs": study_attrs(study),
            "candidates": pl.read_parquet(plan.out_dir / tune_rules.TABLE_FILE),
            "recommended": pl.read_parquet(plan.out_dir / tune_rules.RECOMMENDED_TABLE),
            # parsed, then the folder written DIR: the file's line breaks depend on the folder's length
            "variants": {path.name: {key: value.replace(str(plan.path.parent), "DIR") if isinstance(value, str) else value
                                     for key, value in yaml.safe_load(path.read_text()).items()}
                         for path in sorted((plan.out_dir / "recommended").glob("*.yaml"))},
            "record": record}


_uninterrupted_tunings: dict = {}


def uninterrupted_tuning(sampler: str, tmp_path_factory) -> tuple[dict, list]:
    if sampler not in _uninterrupted_tunings:
        plan, calls = tune_in_sessions(tmp_path_factory.mktemp(f"whole-{sampler}"), sampler, ())
        _uninterrupted_tunings[sampler] = tune_outputs(plan), calls
    return _uninterrupted_tunings[sampler]


@pytest.mark.parametrize("sampler", ["tpe", "nsga2"])
@pytest.mark.parametrize("stops", [(0,), (3,), (8,), (2, 7)], ids=lambda stops: "stop-" + "-".join(map(str, stops)))
def test_a_resumed_tuning_is_the_same_study_as_an_uninterrupted_one(sampler, stops, small_population, tmp_path,
                                                                    tmp_path_factory):
    whole, whole_calls = uninterrupted_tuning(sampler, tmp_path_factory)
    plan, calls = tune_in_sessions(tmp_path, sampler, stops)
    resumed = tune_outputs(plan)
    assert [state for _, state, *_ in resumed["trials"]] == [state for _, state, *_ in whole["trials"]]
    assert "FAIL" not in {state for _, state, *_ in resumed["trials"]}
    assert resumed["trials"] == whole["trials"]             # parameters, values, attrs, the samplers' state
    assert resumed["study_attrs"] == whole["study_attrs"]   # NSGA-II's parents of each generation
    assert resumed["candidates"].equals(whole["candidates"])
    assert resumed["recommended"].equals(whole["recommended"])
    assert resumed["variants"] == whole["variants"] and resumed["variants"]
    assert resumed["record"] == whole["record"]
    # every evaluation of the uninterrupted study, in its order; only an interrupted trial's rungs played again
    first_calls = {}
    for name, values, games, first_game in calls:
        first_calls.setdefault(name, (name, values, games, first_game))
    assert list(first_calls.values()) == whole_calls
    assert len(calls) - len(whole_calls) <= len(stops)
    if sampler == "nsga2":          # the study reached NSGA-II's later generations
        generations = [attrs.get("NSGAIISampler:generation", 0) for *_, attrs in resumed["trials"]]
        assert max(generations) >= 1


def ctrl_c(self, study, trial, *arguments) -> None:
    """A Ctrl-C while the sampler samples (a SIGINT to this process)."""
    assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler     # held by the ask
    os.kill(os.getpid(), signal.SIGINT)


def cut_short(self, study, trial, *arguments) -> None:
    """An ask that stops here, as when the process is killed (or a second Ctrl-C stops it at once)."""
    raise KeyboardInterrupt


@pytest.mark.parametrize("sampler", ["tpe", "nsga2"])
@pytest.mark.parametrize("stop", [ctrl_c, cut_short], ids=lambda stop: stop.__name__)
def test_a_tuning_interrupted_inside_an_ask_asks_the_same_candidate(sampler, stop, small_population, tmp_path,
                                                                   tmp_path_factory, monkeypatch):
    """Interrupted while Optuna samples a trial's second value (its first one stored). A Ctrl-C
    waits for the ask to end: the trial is stored whole and played by the resumed session. An ask
    cut short leaves a trial with one value: it is failed, and the resumed study asks the same
    candidate at the same position (only the numbers of the trials after it move on by one)."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    whole, _ = uninterrupted_tuning(sampler, tmp_path_factory)
    plan = tune_rules.plan_tuning(write_tuning(tmp_path, sampler), out_dir=tmp_path / "out")
    plan.evaluator = SyntheticGame([], None)
    original, sampled = optuna_resume.AtPosition.sample_independent, []

    def interrupted_sampling(self, study, trial, name, distribution):
        if self.position == 2:          # generation 0 of NSGA-II, TPE's startup: each value on its own
            if sampled:
                stop(self, study, trial)
            sampled.append(name)
        return original(self, study, trial, name, distribution)

    monkeypatch.setattr(optuna_resume.AtPosition, "sample_independent", interrupted_sampling)
    with pytest.raises(KeyboardInterrupt):
        tune_rules.tune(plan, report=False, **QUIET)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    monkeypatch.setattr(optuna_resume.AtPosition, "sample_independent", original)
    interrupted = tune_rules.open_study(plan).trials[-1]
    tune_rules.tune(plan, report=False, **QUIET)
    resumed = tune_outputs(plan)
    if stop is ctrl_c:
        assert interrupted.state.name == "RUNNING" and len(interrupted.params) == 2
        assert resumed["trials"] == whole["trials"] and resumed["candidates"].equals(whole["candidates"])
    else:
        assert interrupted.state.name == "FAIL" and len(interrupted.params) == 1
        counted = [(state, params, values) for _, state, params, values, *_ in resumed["trials"] if state != "FAIL"]
        assert counted == [(state, params, values) for _, state, params, values, *_ in whole["trials"]]
        assert resumed["candidates"].equals(whole["candidates"])     # trials named by position
    assert resumed["variants"] == whole["variants"]


# ----------------------------------------------------------------------------- tune-bot

# sampler, batch, trials: CMA-ES's generation is one batch of 4, or (below 4) its default population
# of 14 for the greedy family's 38 parameters, over batches of 3 (positions 1..15 are its generation 0)
BOT_PLANS = {"tpe": ("tpe", 4, 12), "cmaes": ("cmaes", 4, 13), "cmaes-batch-3": ("cmaes", 3, 19)}
GAMES_PER_TRIAL = 20


def bot_plan(out: Path, key: str) -> tune_bot.TuningPlan:
    sampler, batch, trials = BOT_PLANS[key]
    return tune_bot.plan_tuning("louis-xiv", 2, ["greedy"], trials * GAMES_PER_TRIAL, out,
                                games_per_trial=GAMES_PER_TRIAL, batch=batch, seed=7, sampler=sampler,
                                start="tuned_2p" if sampler == "cmaes" else None)


def tune_bot_in_sessions(folder: Path, key: str, stops: tuple[int, ...], monkeypatch) -> tune_bot.TuningPlan:
    """A bot tuning interrupted at each of ``stops`` (evaluations) and resumed to the end; the
    evaluations made are ``plan.evaluated``."""
    original, evaluated = tune_bot.evaluate_trial, []

    def run(stop):
        def evaluate_trial(plan, trial, games):
            if len(evaluated) == stop:
                raise KeyboardInterrupt
            evaluated.append(dict(trial.params))
            return original(plan, trial, games)

        monkeypatch.setattr(tune_bot, "evaluate_trial", evaluate_trial)
        tune_bot.tune(bot_plan(folder / "out", key), **QUIET)

    resumed_sessions(run, stops)
    monkeypatch.setattr(tune_bot, "evaluate_trial", original)
    plan = bot_plan(folder / "out", key)
    plan.evaluated = evaluated
    return plan


def bot_outputs(plan: tune_bot.TuningPlan) -> dict:
    study = tune_bot.open_study(plan)
    return {"trials": stored_trials(study), "study_attrs": study_attrs(study),
            "bot": (plan.out_dir / f"{plan.name}.yaml").read_text().replace(str(plan.out_dir), "DIR"),
            "record": yaml.safe_load((plan.out_dir / "tuning.yaml").read_text()),
            "cells": sorted(path.name for path in (plan.out_dir / "cells").iterdir())}


_uninterrupted_bots: dict = {}


def uninterrupted_bot(key: str, tmp_path_factory, monkeypatch) -> tuple[dict, list]:
    if key not in _uninterrupted_bots:
        plan = tune_bot_in_sessions(tmp_path_factory.mktemp(f"whole-{key}"), key, (), monkeypatch)
        _uninterrupted_bots[key] = bot_outputs(plan), plan.evaluated
    return _uninterrupted_bots[key]


@pytest.mark.parametrize("key", list(BOT_PLANS))
@pytest.mark.parametrize("stops", [(0,), (2,), (5,), (11,), (3, 10)],
                         ids=lambda stops: "stop-" + "-".join(map(str, stops)))
def test_a_resumed_bot_tuning_is_the_same_study_as_an_uninterrupted_one(key, stops, tmp_path, tmp_path_factory,
                                                                        monkeypatch):
    whole, whole_evaluated = uninterrupted_bot(key, tmp_path_factory, monkeypatch)
    plan = tune_bot_in_sessions(tmp_path, key, stops, monkeypatch)
    resumed = bot_outputs(plan)
    assert len({state for _, state, *_ in whole["trials"]}) == 1
    assert resumed["trials"] == whole["trials"]           # no failed trial; CMA-ES's generations and optimizer
    assert resumed["study_attrs"] == whole["study_attrs"]
    assert plan.evaluated == whole_evaluated              # the interrupted batch's candidates, in its order
    assert resumed["bot"] == whole["bot"] and resumed["record"] == whole["record"]
    if key.startswith("cmaes"):     # the study reached CMA-ES's later generations, its optimizer stored
        assert max(attrs.get("cma:generation", 0) for *_, attrs in resumed["trials"]) >= 1
        assert any("cma:optimizer" in attrs for *_, attrs in resumed["trials"])


@pytest.mark.parametrize("key", ["tpe", "cmaes-batch-3"])
@pytest.mark.parametrize("where", ["between asks", "ctrl_c inside an ask", "an ask cut short"])
def test_a_bot_tuning_interrupted_while_asking_a_batch_asks_its_rest_on_resume(key, where, tmp_path,
                                                                              tmp_path_factory, monkeypatch):
    """Interrupted while a batch is being asked (the first asked are RUNNING, the rest never
    asked): the resumed session asks the rest of the batch, the same candidates. A Ctrl-C inside
    an ask waits for it; an ask cut short (its sampler's state stored, no parameter yet) leaves a
    failed trial, whose candidate is asked again at its position."""
    whole, whole_evaluated = uninterrupted_bot(key, tmp_path_factory, monkeypatch)
    plan = bot_plan(tmp_path / "out", key)
    ask, sample_relative, sample_independent = (optuna_resume.ask, optuna_resume.AtPosition.sample_relative,
                                                optuna_resume.AtPosition.sample_independent)
    # between asks: after the third of the batch of positions 5..8 (the first of 7..9 in batches of 3);
    # inside one: the fourth of 5..8 (the second of 7..9)
    stop_position = 7 if where == "between asks" else 8

    def interrupting_ask(study, space, sampler_of, seed):
        trial = ask(study, space, sampler_of, seed)
        if optuna_resume.next_position(study) == stop_position + 1:
            raise KeyboardInterrupt
        return trial

    def interrupting(sample):
        def sampled(self, study, trial, *arguments):
            result = sample(self, study, trial, *arguments)
            if self.position == stop_position and not stopped:
                stopped.append(self.position)
                (ctrl_c if where.startswith("ctrl_c") else cut_short)(self, study, trial)
            return result
        return sampled

    stopped = []
    if where == "between asks":
        monkeypatch.setattr(optuna_resume, "ask", interrupting_ask)
    else:
        monkeypatch.setattr(optuna_resume.AtPosition, "sample_relative", interrupting(sample_relative))
        monkeypatch.setattr(optuna_resume.AtPosition, "sample_independent", interrupting(sample_independent))
    with pytest.raises(KeyboardInterrupt):
        tune_bot.tune(plan, **QUIET)
    monkeypatch.undo()
    states = [trial.state.name for trial in tune_bot.open_study(plan).trials]
    assert states.count("RUNNING") >= 1 and states[-1] == ("FAIL" if where == "an ask cut short" else "RUNNING")
    tune_bot.tune(bot_plan(tmp_path / "out", key), **QUIET)
    resumed = bot_outputs(plan)
    counted = [(state, params, values) for _, state, params, values, *_ in resumed["trials"] if state != "FAIL"]
    assert counted == [(state, params, values) for _, state, params, values, *_ in whole["trials"]]
    # cells, the record and its best trial are named by position: a failed ask shifts no name
    assert resumed["bot"] == whole["bot"] and resumed["record"] == whole["record"]
    assert resumed["cells"] == whole["cells"]
    if where != "an ask cut short":
        assert resumed["trials"] == whole["trials"]


def test_a_sampler_is_seeded_by_the_study_seed_and_the_position():
    seeds = {optuna_resume.position_seed(seed, position) for seed in (0, 1, 2**64 - 1) for position in range(50)}
    assert len(seeds) == 150 and all(0 <= seed < 2**32 for seed in seeds)
    assert optuna_resume.position_seed(5, 3) == optuna_resume.position_seed(5, 3)
    assert [tune_bot.batch_end(position, 4, 11) for position in range(11)] == [1, 5, 5, 5, 5, 9, 9, 9, 9, 11, 11]
