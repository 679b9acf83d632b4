"""``courtsim tune-bot``: tune a bot family's parameter vector against a pool of bots with Optuna.

Each candidate (a parameter vector of the family, inside every parameter's documented range)
plays the pool, in every seat rotation, the same number of games per seating. With the ``mean``
objective it meets every multiset of N - 1 opponents from the pool and its score is its mean win
credit (1 / winners for a win, shared wins split). With ``worst`` it meets N - 1 copies of each
pool bot in turn (the match-ups of a seat-rotated experiment such as ``<game>_tuned``) and its
score is its win rate in its worst match-up: a bot that must beat every opponent, the search bot
included, is tuned for the opponent it beats least. With ``field`` the candidate takes N - 1 seats
against one of each pool bot in turn, and its score is its seats' mean win credit in the worst
match-up: a bot that one search bot among its copies must not beat (self-play from the other side).
``both`` scores the worst match-up of ``worst`` and ``field`` together, so the bot holds its own
in either direction. Every candidate plays the *same* games (one seed, the same game
indices: common random numbers), so candidates are compared on equal luck.

Every evaluation is a cell of the study layer (sim.studies.cells): the candidate in its seatings
against the pool (or a mirror: every seat one bot), with its block of game indices, played through
the runner into ``DIR/cells/<name>/run`` (a trial's games: ``trial-<number>``; its re-evaluation:
``fresh-trial-<number>``; mirror games: ``<name>-mirror``), on ``--jobs`` workers or a
``--cluster``; its win credits are read from the run's tables. A game is a pure function of the
rules, the bots, the seed and its index, so the values are those the candidate's games have
whatever the chunks, jobs or machines that played them.

Optuna's ask-and-tell proposes candidates in batches (TPE by default; CMA-ES on request, centred
on the starting point with a population of one batch, to refine a bot already tuned); the
study is stored in SQLite in the output directory, so an interrupted tuning resumes where it
stopped (its trials from Optuna's storage, an interrupted trial's finished chunks from its run
directory), and is the same study as an uninterrupted one: the candidates an interrupted batch had
asked are played in place, and every ask's randomness comes from the seed and the trial's
position, not from the process (sim.studies.optuna_resume).
When the game budget is spent, the best few candidates are re-evaluated on fresh games (other
game indices), because the winner of a noisy search is optimistically biased; the best of the
re-evaluation is written as a bot YAML whose description carries its re-evaluated win rate and
95% interval against the pool.

With a speed floor (``--speed-floor 0.8``) a candidate must also play at that fraction of greedy's
games per second. A bot's games per second fall mostly with the turns its games last (a bot that
takes fewer cards per turn makes the deck last longer), so its speed is estimated,
deterministically, as greedy's turns per game over its own, both in mirror games (every seat the
same bot) on the same seeds. The estimate does not see a costlier turn (Heads of State's betrayal
reach, betrayal_take_weight and betrayal_collect_value, costs ~10% more per turn): check the
written bot with ``courtsim bench``. A candidate below the floor loses the shortfall from its score
(one point of win rate per point of speed), so the study settles on a bot that is fast enough.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl
import yaml

from sim import registry
from sim.core import results
from sim.core.arguments import check_game_count, check_jobs
from reports.analysis.stats import wilson_interval
from sim.core.engine import BotSeat, ConfigError, GameSetup
from sim.core.results import write_bytes_atomically
from sim.core.runner import Cell
from sim.studies import cells as study_cells
from sim.studies import directory, optuna_resume
from strategies.bots import BotCatalogue, bot_package, family_parameters
from strategies.parameters import Parameter, bot_seat, parameter_vector

STUDY_FILE = directory.OPTUNA_FILE
STUDY_NAME = "tune-bot"
SAMPLERS = ("tpe", "cmaes")
OBJECTIVES = ("mean", "worst", "field", "both")
# CMA-ES starts at the starting point with a step of this fraction of every parameter's range
# (Optuna's CMA-ES works on ranges scaled to 0..1): it refines a good bot rather than forgetting it
CMAES_SIGMA0 = 0.03
# fresh games for the re-evaluation start here, far beyond any training game index
FRESH_GAMES_OFFSET = 2**30
# the bot whose games per second a speed floor is a fraction of
SPEED_BASELINE = "greedy"
RECORD_FILE = "tuning.yaml"       # the study's record: the best trial, its fresh figures, the plan


@dataclass
class TuningPlan:
    game: str
    n_players: int
    family: str
    pool: list[BotSeat]
    budget: int                      # training games in all, over every trial
    games_per_trial: int             # games one candidate plays (split over match-ups and seats)
    batch: int                       # candidates asked at once
    seed: int
    out_dir: Path
    name: str
    start: dict[str, float]          # the first candidate (the family defaults or --start's bot)
    sampler: str = "tpe"
    top: int = 3                     # candidates re-evaluated on fresh games
    fresh_games: int | None = None   # games of each re-evaluation (default: 4 x games_per_trial)
    setup: GameSetup | None = None   # the printed rules, loaded once for every evaluation
    command: str = ""                # the courtsim command that makes this study (the bot file's header)
    objective: str = "mean"          # mean, worst, field or both (module docstring)
    speed_floor: float | None = None  # least estimated fraction of greedy's games per second (None: any speed)
    baseline: BotSeat | None = None  # greedy, whose mirror games the speed is measured against
    # greedy's mean turns per game by (games, first game): the same for every candidate, played once
    baseline_turns: dict[tuple[int, int], float] = field(default_factory=dict)
    jobs: int = 1                    # worker processes playing each evaluation's chunks (not in the identity)
    log: Callable[[str], None] = lambda message: None     # the runner's messages (resuming, workers)

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        return family_parameters(self.game, self.family)


def plan_tuning(game: str, n_players: int, against: list[str], budget: int, out_dir: Path, family: str = "greedy",
                games_per_trial: int = 400, batch: int = 8, seed: int = 0, name: str | None = None,
                start: str | None = None, sampler: str = "tpe", top: int = 3, objective: str = "mean",
                speed_floor: float | None = None, jobs: int = 1) -> TuningPlan:
    """Validate everything before a game is played (one-line ConfigErrors). ``jobs``: worker
    processes playing each evaluation's chunks (the results do not depend on it)."""
    engine = registry.get_engine(game)
    if n_players not in engine.player_counts:
        raise ConfigError(f"--players: {game} is played by {', '.join(map(str, engine.player_counts))} players, "
                          f"found {n_players}")
    strategies = bot_package(game)
    if family not in strategies.FAMILY_PARAMETERS or not strategies.FAMILY_PARAMETERS[family]:
        tunable = [name for name, parameters in strategies.FAMILY_PARAMETERS.items() if parameters]
        raise ConfigError(f"--family: expected a {game} family with parameters ({', '.join(tunable)}), found {family!r}")
    if not against:
        raise ConfigError("--against: expected one or more bot names, comma-separated")
    catalogue = BotCatalogue()
    pool = [catalogue.definition(game, bot, "--against").bot_seat() for bot in against]
    check_jobs(jobs, "--jobs")
    check_game_count(budget, "--budget")
    check_game_count(games_per_trial, "--games-per-trial")
    if budget < games_per_trial:
        raise ConfigError(f"--budget: expected at least --games-per-trial ({games_per_trial:,}) games, found {budget:,}")
    if not 1 <= batch <= 256:
        raise ConfigError(f"--batch: expected 1..256 candidates at a time, found {batch}")
    if sampler not in SAMPLERS:
        raise ConfigError(f"--sampler: expected {' or '.join(SAMPLERS)}, found {sampler!r}")
    if objective not in OBJECTIVES:
        raise ConfigError(f"--objective: expected {' or '.join(OBJECTIVES)}, found {objective!r}")
    if name is not None:   # the bot file is DIR/<name>.yaml: a bot name, as every bot file's name: is
        import re
        from sim.core.yaml_files import shown
        from strategies.bots import NAME_PATTERN as BOT_NAME
        if not re.fullmatch(BOT_NAME, name):
            raise ConfigError(f"--name: expected a bot name (a letter, then letters, digits, _ or -), "
                              f"found {shown(repr(name), 80)}")
    if speed_floor is not None and not 0.0 < speed_floor <= 1.0:
        raise ConfigError(f"--speed-floor: expected a fraction of {SPEED_BASELINE}'s games per second above 0 and "
                          f"at most 1, found {speed_floor}")
    baseline = (catalogue.definition(game, SPEED_BASELINE, "--speed-floor").bot_seat()
                if speed_floor is not None else None)
    if start is not None:
        definition = catalogue.definition(game, start, "--start")
        if definition.family != family:
            raise ConfigError(f"--start: expected a bot of family {family}, found {definition.name} ({definition.family})")
        start_values = dict(definition.parameters)
    else:
        start_values = {parameter.name: parameter.default for parameter in family_parameters(game, family)}
    command = (f"courtsim tune-bot {game} --players {n_players} --against {','.join(against)} --budget {budget} "
               f"--games-per-trial {games_per_trial} --batch {batch} --seed {seed} --sampler {sampler}"
               + (f" --objective {objective}" if objective != "mean" else "")
               + (f" --speed-floor {speed_floor:g}" if speed_floor else "")
               + (f" --family {family}" if family != "greedy" else "") + (f" --start {start}" if start else "")
               + (f" --name {name}" if name else "") + f" --out {out_dir}")
    return TuningPlan(game, n_players, family, pool, budget, games_per_trial, batch, seed, Path(out_dir),
                      name or f"tuned_{n_players}p", start_values, sampler, top, setup=engine.load_setup(),
                      command=command, objective=objective, speed_floor=speed_floor, baseline=baseline, jobs=jobs)


# ----------------------------------------------------------------------------- evaluation

def rotations(opponents: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The candidate (-1) in each seat among these opponents (pool indices)."""
    return [opponents[:seat] + (-1,) + opponents[seat:] for seat in range(len(opponents) + 1)]


def field_rotations(opponent: int, n_players: int) -> list[tuple[int, ...]]:
    """One opponent (a pool index) in each seat, the candidate (-1) in every other seat."""
    return [(-1,) * seat + (opponent,) + (-1,) * (n_players - 1 - seat) for seat in range(n_players)]


def matchups(plan: TuningPlan) -> list[tuple[str, list[tuple[int, ...]]]]:
    """(opponents' label, seat orders) of each match-up whose win rate is scored on its own: the
    whole pool as one (``mean``: every multiset of N - 1 opponents), each pool bot's N - 1 copies
    (``worst``), one of each pool bot among N - 1 candidates (``field``), or both of the last two."""
    copies = [(bot.name, rotations((index,) * (plan.n_players - 1))) for index, bot in enumerate(plan.pool)]
    fields = [(f"one {bot.name}", field_rotations(index, plan.n_players)) for index, bot in enumerate(plan.pool)]
    if plan.objective in ("worst", "field", "both"):
        return {"worst": copies, "field": fields, "both": copies + fields}[plan.objective]
    multisets = itertools.combinations_with_replacement(range(len(plan.pool)), plan.n_players - 1)
    return [("the pool", [order for opponents in multisets for order in rotations(opponents)])]


def seatings(plan: TuningPlan) -> list[tuple[int, ...]]:
    """Every seat order the candidate plays, as pool indices with -1 for the candidate."""
    return [order for _, orders in matchups(plan) for order in orders]


def candidate_bot(plan: TuningPlan, values: dict[str, float]) -> BotSeat:
    strategies = bot_package(plan.game)
    vector = parameter_vector(plan.parameters, values, strategies.N_PARAMETERS, f"candidate of {plan.family}")
    return bot_seat(plan.name, plan.family, strategies.FAMILIES, plan.parameters, vector)


def candidate_name(values: dict[str, float], games: int, first_game: int) -> str:
    """The cell of an evaluation named by what it plays (outside a trial: a test, a look)."""
    digest = hashlib.sha256(repr(sorted(values.items())).encode("utf-8")).hexdigest()[:12]
    return f"candidate-{digest}-{first_game}-{games}"


def tuning_cell(plan: TuningPlan, name: str, seatings: list[Cell], bots: list[BotSeat]) -> study_cells.StudyCell:
    """A cell of the study (sim.studies.cells): ``seatings`` (runner cells) under the printed
    rules, its run in DIR/cells/<name>/run; its identity every bot with its parameters and every
    seating with its games."""
    return study_cells.seatings_cell(name, plan.out_dir / study_cells.CELLS_DIR / name / "run", plan.game, plan.setup,
                                     seatings, plan.seed, bots, {"tune_bot": str(plan.out_dir)})


def evaluation_cell(plan: TuningPlan, values: dict[str, float], games: int, first_game: int,
                    name: str) -> tuple[study_cells.StudyCell, list[tuple[str, list[tuple[int, ...]]]]]:
    """(the cell of the candidate's seats in every match-up, ``games`` games split evenly over
    every seating, game indices from ``first_game`` (the same for every candidate); the
    match-ups, in the cell's order)."""
    candidate = candidate_bot(plan, values)
    per_seating = max(1, math.ceil(games / len(seatings(plan))))
    played, runner_cells = matchups(plan), []
    for label, orders in played:
        for order in orders:
            bots = tuple(candidate if index < 0 else plan.pool[index] for index in order)
            runner_cells.append(Cell(plan.n_players, bots, first_game + len(runner_cells) * per_seating, per_seating,
                                     (("matchup", label), ("seating", ",".join(bot.name for bot in bots)))))
    return tuning_cell(plan, name, runner_cells, [candidate, *plan.pool]), played


def evaluate_matchups(plan: TuningPlan, values: dict[str, float], games: int, first_game: int = 0,
                      name: str | None = None) -> list[tuple[str, float, int]]:
    """(opponents, win credits, seats played) of the candidate's seats in each match-up, over ``games``
    games split evenly over every seating; game indices from ``first_game`` (the same for every
    candidate). Played through the runner into DIR/cells/<name>/run (resumed, or read when done)."""
    cell, played = evaluation_cell(plan, values, games, first_game, name or candidate_name(values, games, first_game))
    study_cells.play(cell, plan.jobs, log=plan.log)
    seats = pl.read_parquet(results.table_path(cell.run_dir, "seats"), columns=["game_index", "seat", "is_winner"])
    game_rows = pl.read_parquet(results.table_path(cell.run_dir, "games"), columns=["game_index", "n_winners"])
    seat_games, seat_numbers, is_winner = (seats[column].to_numpy() for column in ("game_index", "seat", "is_winner"))
    game_indices, n_winners = game_rows["game_index"].to_numpy(), game_rows["n_winners"].to_numpy()
    outcomes, seating = [], iter(cell.seatings)
    for label, orders in played:
        credits, seat_count = 0.0, 0
        for order in orders:
            block = next(seating)
            end = block.first_game + block.n_games
            games_from, games_to = np.searchsorted(game_indices, [block.first_game, end])
            seats_from, seats_to = np.searchsorted(seat_games, [block.first_game, end])
            winners = np.repeat(np.asarray(n_winners[games_from:games_to], dtype=np.float64), plan.n_players)
            credit = np.where(np.asarray(is_winner[seats_from:seats_to]) > 0, 1.0 / np.maximum(winners, 1.0), 0.0)
            mine = np.isin(np.asarray(seat_numbers[seats_from:seats_to]),
                           [seat for seat, index in enumerate(order) if index < 0])
            credits += float(credit[mine].sum())
            seat_count += int(mine.sum())
        outcomes.append((label, credits, seat_count))
    return outcomes


def evaluate(plan: TuningPlan, values: dict[str, float], games: int, first_game: int = 0,
             name: str | None = None) -> tuple[float, int]:
    """(win credits, seats played) of the candidate in the match-up that scores it: the pool
    (``mean``) or the match-up of its lowest win rate (``worst``)."""
    _, credits, seats = min(evaluate_matchups(plan, values, games, first_game, name),
                            key=lambda entry: entry[1] / entry[2])
    return credits, seats


def mirror_games(games: int) -> int:
    """Mirror games a speed estimate plays: a quarter of the evaluation's, at least 100."""
    return max(100, games // 4)


def mean_turns(plan: TuningPlan, bot: BotSeat, games: int, first_game: int, name: str) -> float:
    """Mean turns per game of ``bot`` in every seat, over ``games`` games from ``first_game``,
    played into DIR/cells/<name>/run."""
    seating = Cell(plan.n_players, (bot,) * plan.n_players, first_game, games,
                   (("matchup", "mirror"), ("seating", ",".join([bot.name] * plan.n_players))))
    cell = tuning_cell(plan, name, [seating], [bot])
    study_cells.play(cell, plan.jobs, log=plan.log)
    tables = {table: {column: values.to_numpy() for column, values in pl.read_parquet(
        results.table_path(cell.run_dir, table)).to_dict().items()} for table in ("games", "seats")}
    return float(np.mean(cell.engine.turns_per_game(tables)))


def relative_speed(plan: TuningPlan, values: dict[str, float], games: int, first_game: int = 0,
                   name: str | None = None) -> tuple[float, float, float]:
    """(estimated speed as a fraction of greedy's games per second, the candidate's turns per game,
    greedy's): greedy's turns per game over the candidate's, in mirror games on the same seeds."""
    count = mirror_games(games)
    key = (count, first_game)
    if key not in plan.baseline_turns:
        plan.baseline_turns[key] = mean_turns(plan, plan.baseline, count, first_game,
                                              f"{SPEED_BASELINE}-mirror-{first_game}-{count}")
    baseline = plan.baseline_turns[key]
    turns = mean_turns(plan, candidate_bot(plan, values), count, first_game,
                       f"{name or candidate_name(values, games, first_game)}-mirror")
    return baseline / turns, turns, baseline


def scored(plan: TuningPlan, rate: float, speed: float | None) -> float:
    """The study's value of a candidate: its win rate, less its speed's shortfall below the floor."""
    if plan.speed_floor is None or speed is None:
        return rate
    return rate - max(0.0, plan.speed_floor - speed)


def trial_name(position: int, fresh: bool = False) -> str:
    """The cell of the games of the trial at ``position`` (its re-evaluation's: ``fresh``): by
    position, never by number, so an interrupted study's cells are the uninterrupted one's."""
    return f"{'fresh-' if fresh else ''}trial-{position:04d}"


def evaluate_trial(plan: TuningPlan, trial, games: int) -> float:
    """Play one asked trial (DIR/cells/trial-<position>/, resumed if an interrupted session
    began it); keep its win rate (and speed) on the trial; return its value."""
    name = trial_name(optuna_resume.position_of(trial.study, trial))
    credits, seats = evaluate(plan, trial.params, games, name=name)
    trial.set_user_attr("win_rate", credits / seats)
    speed = None
    if plan.speed_floor is not None:
        speed, turns, _ = relative_speed(plan, trial.params, games, name=name)
        trial.set_user_attr("speed", speed)
        trial.set_user_attr("turns_per_game", turns)
    return scored(plan, credits / seats, speed)


# ----------------------------------------------------------------------------- the study

def distributions(plan: TuningPlan) -> dict:
    import optuna

    return {parameter.name: (optuna.distributions.IntDistribution(int(parameter.low), int(parameter.high))
                             if parameter.integer else
                             optuna.distributions.FloatDistribution(parameter.low, parameter.high))
            for parameter in plan.parameters}


def open_study(plan: TuningPlan):
    """The SQLite study of ``plan.out_dir`` (created, or resumed: sim.studies.optuna_resume); the
    starting point is its first candidate. Trials an interrupted session asked and never told are
    played by the resumed one (:func:`tune_held`), in place; one whose ask was cut short is marked
    failed and asked again."""
    return optuna_resume.open_stored(plan.out_dir, STUDY_NAME, plan_record(plan), sampler_of(plan, plan.seed),
                                     plan.start, [parameter.name for parameter in plan.parameters],
                                     direction="maximize")


def sampler_of(plan: TuningPlan, seed: int):
    """The plan's Optuna sampler seeded ``seed`` (each ask has its own: optuna_resume)."""
    import optuna

    if plan.sampler == "cmaes":     # a local search: CMA-ES centred on the starting point
        with warnings.catch_warnings():     # x0 and sigma0 are deprecated in Optuna 4.9, kept until 6.0
            warnings.simplefilter("ignore", FutureWarning)
            return optuna.samplers.CmaEsSampler(x0=plan.start, sigma0=CMAES_SIGMA0, seed=seed,
                                                popsize=plan.batch if plan.batch >= 4 else None)
    return optuna.samplers.TPESampler(seed=seed)


def batch_end(position: int, batch: int, total: int) -> int:
    """The position after the last of the batch that asks ``position``: the starting point (0)
    alone, then batches of ``batch`` from position 1, the last one cut at ``total``."""
    if position == 0:
        return 1
    return min(1 + ((position - 1) // batch + 1) * batch, total)


def plan_record(plan: TuningPlan) -> dict:
    """What a resumed study must share with this one (the games its values were measured on)."""
    return {"game": plan.game, "players": plan.n_players, "family": plan.family,
            "pool": [bot.name for bot in plan.pool], "games_per_trial": plan.games_per_trial,
            "seed": plan.seed, "start": plan.start,
            **({"objective": plan.objective} if plan.objective != "mean" else {}),
            **({"speed_floor": plan.speed_floor} if plan.speed_floor is not None else {})}


def completed(study) -> list:
    import optuna

    return study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))


def tune(plan: TuningPlan, log: Callable[[str], None] = print, progress: bool = True) -> Path:
    """Run trials until the budget is spent, re-evaluate the best, write the bot file."""
    with directory.open_study(plan.out_dir, "tune-bot", plan_record(plan), "bot tuning"):
        plan.log = log
        return tune_held(plan, log, progress)


def tune_held(plan: TuningPlan, log: Callable[[str], None], progress: bool) -> Path:
    """:func:`tune` in its held directory."""
    study = open_study(plan)
    space = distributions(plan)
    total_trials = max(1, plan.budget // plan.games_per_trial)
    done = [trial.value for trial in completed(study)]
    resumed = optuna_resume.unfinished(study)     # the rest of a batch an interrupted session asked
    with trial_progress(progress, total_trials) as advance:
        advance(done)
        while len(done) < total_trials:
            # the starting point is played alone first: a sampler that models the results (CMA-ES
            # around it, TPE after its startup) then has one to build on in the first batch. A
            # batch is asked whole before any of it is played; a resumed one asks only what its
            # interrupted session had not (each ask's randomness comes from its position)
            size = batch_end(len(done), plan.batch, total_trials) - len(done) - len(resumed)
            asked = resumed + [optuna_resume.ask(study, space, lambda seed: sampler_of(plan, seed), plan.seed)
                               for _ in range(size)]
            resumed = []
            for trial in asked:
                value = evaluate_trial(plan, trial, plan.games_per_trial)
                study.tell(trial, value)
                advance([value])
                done.append(value)
    return write_best(plan, study, log)


def worst(results: list[tuple[str, float, int]]) -> tuple[str, float, int]:
    """The match-up of the lowest win rate among (opponents, credits, seats)."""
    return min(results, key=lambda entry: entry[1] / entry[2])


def write_best(plan: TuningPlan, study, log) -> Path:
    """Re-evaluate the best ``plan.top`` candidates on fresh games; write the best as a bot."""
    fresh = plan.fresh_games or 4 * plan.games_per_trial
    best = sorted(completed(study), key=lambda trial: trial.value, reverse=True)[:plan.top]
    positions = optuna_resume.positions(study)
    results = []
    for trial in best:
        name = trial_name(positions[trial.number], fresh=True)
        matchup_results = evaluate_matchups(plan, trial.params, fresh, first_game=FRESH_GAMES_OFFSET, name=name)
        _, credits, seats = worst(matchup_results)
        speed = (relative_speed(plan, trial.params, fresh, FRESH_GAMES_OFFSET, name=name)
                 if plan.speed_floor is not None else None)
        value = scored(plan, credits / seats, speed[0] if speed else None)
        results.append((value, credits / seats, matchup_results, speed, trial))
        log(f"re-evaluated trial {positions[trial.number]} (training {trial.value:.1%}): {credits / seats:.1%} on {seats:,} fresh seats"
            + (f", an estimated {speed[0]:.0%} of {SPEED_BASELINE}'s games per second" if speed else ""))
    _, rate, matchup_results, speed, trial = max(results, key=lambda entry: entry[0])
    label, credits, seats = worst(matchup_results)
    _, start_credits, start_seats = worst(evaluate_matchups(plan, plan.start, fresh, first_game=FRESH_GAMES_OFFSET,
                                                            name="fresh-start"))
    low, high = (float(bound) for bound in wilson_interval(credits, seats))
    pool = ", ".join(bot.name for bot in plan.pool)
    if plan.objective != "mean":
        others = ", ".join(f"{name} {matchup_credits / matchup_seats:.1%}"
                           for name, matchup_credits, matchup_seats in matchup_results)
        copies = f"{plan.n_players - 1} {'copy' if plan.n_players == 2 else 'copies'}"
        against = {"worst": f"against {copies} of each of {pool}",
                   "field": f"in {plan.n_players - 1} seats against one of each of {pool}",
                   "both": f"against {copies} of each of {pool}, and in {plan.n_players - 1} seats against one of each"
                   }[plan.objective]
        result = (f"{against}, seat-rotated, wins at least {rate:.1%} "
                  f"[{low:.1%}, {high:.1%}] of {seats:,} fresh seats (worst: {label}; {others}; its starting "
                  f"point's worst: {start_credits / start_seats:.1%})")
    else:
        result = (f"against {pool}: wins {rate:.1%} [{low:.1%}, {high:.1%}] of {seats:,} fresh seat-rotated seats "
                  f"(its starting point: {start_credits / start_seats:.1%})")
    if speed:
        result += (f"; its games last {speed[1]:.1f} turns ({SPEED_BASELINE}'s {speed[2]:.1f}): an estimated "
                   f"{speed[0]:.0%} of {SPEED_BASELINE}'s games per second (floor {plan.speed_floor:.0%})")
    bot = {
        "name": plan.name, "game": plan.game, "family": plan.family,
        "description": f"Tuned by courtsim tune-bot at {plan.n_players} players {result}.",
        "parameters": {name: (int(value) if isinstance(value, int) else round(float(value), 6))
                       for name, value in trial.params.items()},
    }
    path = plan.out_dir / f"{plan.name}.yaml"
    header = f"# Made by: {plan.command}\n" if plan.command else ""
    text = header + yaml.safe_dump(bot, sort_keys=False, allow_unicode=True, width=100)
    write_bytes_atomically(text.encode("utf-8"), path)
    directory.write_plan(plan.out_dir, "tune-bot", {
        "best_trial": positions[trial.number], "training_value": float(trial.value),
        "fresh": {"win_rate": rate, "low": low, "high": high, "seats": seats},
        "fresh_matchups": {name: {"win_rate": matchup_credits / matchup_seats, "seats": matchup_seats}
                           for name, matchup_credits, matchup_seats in matchup_results},
        "start_fresh_win_rate": start_credits / start_seats,
        **({"fresh_speed": {"relative": speed[0], "turns_per_game": speed[1],
                            f"{SPEED_BASELINE}_turns_per_game": speed[2]}} if speed else {}),
        "trials": len(completed(study)), "plan": plan_record(plan)}, name=RECORD_FILE)
    return path


class trial_progress:
    """A rich progress bar of trials with the best value so far (silent when ``enabled`` is
    false); ``best`` picks the best of values (max, or min for a miss), ``shown`` writes it."""

    def __init__(self, enabled: bool, total: int, best: Callable = max, shown: Callable = "{:.1%}".format):
        self.enabled, self.total, self.bar, self.best = enabled, total, None, None
        self.pick, self.shown = best, shown

    def __enter__(self):
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn("trials"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("best {task.fields[best]}"), TimeRemainingColumn())
            self.bar.start()
            self.task = self.bar.add_task("tune", total=self.total, best="-")
        return self.advance

    def advance(self, values: list[float]) -> None:
        """Count the trials with these values; show the best value so far."""
        if self.bar is None or not values:
            return
        self.best = self.pick([*values, *([] if self.best is None else [self.best])])
        self.bar.update(self.task, advance=len(values), best=self.shown(self.best))

    def __exit__(self, *exception):
        if self.bar is not None:
            self.bar.stop()
        return False
