"""``courtsim landscape`` (issue 41): the strategy landscape of a game at each player count, as
cells of the one study layer (sim.studies.cells), resumed like every study.

- **Meta-game** (Balduzzi et al. 2018, reports.analysis.meta_game): a pool of bots (the
  archetypes, greedy, random and the player count's tuned bot: ``pool`` in
  configs/landscape/<game>.yaml, or ``--pool``) plays every ordered pair, one seat of A against
  n - 1 of B, A in each seat in turn (cell ``meta-<n>p``). Nash averaging of the pair win rates:
  the maximum-entropy equilibrium, each bot's rating against it, "dominant strategy", "a few
  strategies" or "diverse".
- **Option values** (restricted play, Jaffe et al. 2012; sim.studies.landscape_options): the
  tuned bot with one option switched off plays one seat against n - 1 unrestricted tuned bots
  (cell ``option-<id>-<n>p``), on the same game indices as the tuned bot's mirror games (cell
  ``mirror-<n>p``): every draw the restriction does not touch is the same (common random
  numbers). A game's paired loss is the seat's win credit in the mirror game minus the
  restricted seat's in the same seat of the same game; the option's value is their mean (in
  points of win rate) with its t interval. A tuned bot that never takes the option plays the
  same games with or without it: the loss is exactly 0 in every game, and the sentence says that
  no seat's result changed rather than giving an interval of zero width.
- **Luck and skill** (Duersch et al. 2020, Lantz et al. 2017; reports.analysis.luck_skill): the
  meta-game's games between bots of the ladder (``skill_levels``, weakest first) give the
  luck-skill index and the skill chain.

Tables in DIR: ``equilibrium.parquet`` (n_players, strategy, mass, mass_low, mass_high, rating,
low, high), ``options.parquet`` (n_players, decision, name, take_rate, value, low, high, games,
verdict, sentence), ``skill.parquet`` (n_players, luck_skill_index, low, high, skill_chain,
steps, games, sentence), ``verdicts.parquet`` (the meta-game's verdict per player count), and
``report.html`` (reports.pages.landscape_report).

- **Exploitability** (``--exploit-budget N`` training games per player count; 0: not checked): a
  bot of the tuned bot's family tuned against the tuned bot alone (courtsim tune-bot, objective
  mean, starting from the tuned bot, a CMA-ES local search centred on it: a best response is
  sought near the bot, where a global sampler's first trials never look; in DIR/exploit-<n>p),
  re-evaluated on fresh games: how far it
  rises above the fair share. A large gain means the verdicts above rest on an exploitable
  player (``exploit.parquet``).

A study cell whose experiment asks for ``landscape: {games: N}`` has the landscape of its rules
played into RUN/landscape once its run is played (:func:`ensure_cell_landscape`), on the game
indices of the run's own first games; its figures are the cell's metrics
(reports.analysis.landscape_metrics): option values paired game by game in compare, "no option
dead" and "no dominant strategy" as sweep and tune targets. ``option_games.parquet`` holds each
option's paired loss game by game.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
import polars as pl
import yaml
from scipy import stats as scipy_stats

from reports.analysis import luck_skill, meta_game, rundir
from sim import registry
from sim.core import results, variants
from sim.core.arguments import check_game_count, check_jobs
from sim.core.engine import BotSeat, ConfigError, GameSetup
from sim.core.runner import Cell
from sim.studies import cells as study_cells
from sim.studies import directory
from sim.studies import landscape_options as inventory_of
from strategies.bots import BotCatalogue

TUNED = "tuned"                 # in a pool or a ladder: the player count's shipped tuned bot (tuned_<n>p)
CONFIDENCE = 0.95
DEAD_MARGIN = 0.02              # an option whose loss lies within 2 points of win rate either way is dead...
RARELY_TAKEN = 0.05             # ...when the tuned bot takes it in fewer than 5% of its seats' games
DOMINANT_LOSS = 0.10            # an option whose loss is surely above 10 points is dominant
BOOTSTRAP = 400                 # Nash averaging's resamples (its intervals)
EXPLOITABLE_GAIN = 0.05         # an exploiter surely 5 points above the fair share: the tuned bot is exploitable
DEAD, DOMINANT, MATTERS, MISUSED, WORTH_LITTLE, UNRESOLVED = (
    "dead", "dominant", "matters", "misused", "worth little", "not resolved at this budget")


@dataclass
class LandscapePlan:
    game: str
    players: list[int]
    pools: dict[int, list[str]]           # per player count: the meta-game's bots (names)
    ladders: dict[int, list[str]]         # per player count: the skill ladder, weakest first
    games_per_matchup: int
    seed: int
    jobs: int
    out_dir: Path
    setup: GameSetup
    inventory: inventory_of.OptionInventory
    variant: str | None = None
    exploit_budget: int = 0               # training games of each player count's exploiter (0: none)
    first_games: dict[int, int] = field(default_factory=dict)   # per player count: its first game index (0)
    meta_game: bool = True                # play the meta-game (a study cell's landscape may ask for options only)
    bots: dict[str, BotSeat] = field(default_factory=dict, repr=False)
    log: Callable[[str], None] = print


def plan_landscape(game: str, out_dir: Path, players: list[int] | None = None, pool: list[str] | None = None,
                   games_per_matchup: int = 400, seed: int = 0, jobs: int = 1, variant: str | None = None,
                   exploit_budget: int = 0) -> LandscapePlan:
    """Validate everything before a game is played (one-line ConfigErrors)."""
    if exploit_budget and exploit_budget < games_per_matchup:
        raise ConfigError(f"--exploit-budget: expected 0 (no check) or at least --games-per-matchup "
                          f"({games_per_matchup:,}) training games, found {exploit_budget:,}")
    engine = registry.get_engine(game)
    players = list(players or engine.player_counts)
    for count in players:
        if count not in engine.player_counts:
            raise ConfigError(f"--players: {game} is played by {', '.join(map(str, engine.player_counts))} players, "
                              f"found {count}")
    check_game_count(games_per_matchup, "--games-per-matchup")
    check_jobs(jobs, "--jobs")
    inventory = inventory_of.load_options(game)
    named_pool = pool or inventory.pool
    if len(named_pool) < 2:
        raise ConfigError(f"--pool: expected at least two bots, found {len(named_pool)}")
    loaded_variant = variants.load_variant(variant, game) if variant else None
    setup = variants.load_setup(engine, None, loaded_variant) if loaded_variant else engine.load_setup()
    catalogue = BotCatalogue()
    plan = LandscapePlan(game, players, {}, {}, games_per_matchup, seed, jobs, Path(out_dir), setup, inventory,
                         variant, exploit_budget)
    for count in players:
        plan.pools[count] = [bot_name(name, count) for name in named_pool]
        plan.ladders[count] = [bot_name(name, count) for name in inventory.skill_levels]
        if len(set(plan.pools[count])) != len(plan.pools[count]):
            raise ConfigError(f"--pool: a bot is named twice at {count} players: {', '.join(plan.pools[count])}")
        for name in {*plan.pools[count], *plan.ladders[count]}:
            if name not in plan.bots:
                plan.bots[name] = catalogue.definition(game, name, "--pool").bot_seat()
    return plan


def bot_name(name: str, n_players: int) -> str:
    """A pool entry as a bot name: ``tuned`` is the player count's tuned bot."""
    return inventory_of.tuned_bot_name(n_players) if name == TUNED else name


def plan_record(plan: LandscapePlan) -> dict:
    """What a resumed landscape must share with this one."""
    return {"game": plan.game, "players": plan.players, "pools": {str(n): pool for n, pool in plan.pools.items()},
            "ladders": {str(n): ladder for n, ladder in plan.ladders.items()},
            "games_per_matchup": plan.games_per_matchup, "seed": plan.seed, "variant": plan.variant,
            "options": [option.id for option in plan.inventory.options],
            **({"exploit_budget": plan.exploit_budget} if plan.exploit_budget else {}),
            **({"first_games": {str(n): first for n, first in plan.first_games.items()}} if plan.first_games else {}),
            **({} if plan.meta_game else {"meta_game": False})}


# ----------------------------------------------------------------------------- cells

def landscape_cell(plan: LandscapePlan, name: str, seatings: list[Cell]) -> study_cells.StudyCell:
    """A cell of the landscape: ``seatings`` under the plan's rules, in DIR/cells/<name>/run."""
    bots = list({bot.name: bot for seating in seatings for bot in seating.bots}.values())
    return study_cells.seatings_cell(name, plan.out_dir / study_cells.CELLS_DIR / name / "run", plan.game, plan.setup,
                                     seatings, plan.seed, bots, {"landscape": str(plan.out_dir)})


def one_against(focal: BotSeat, others: BotSeat, n_players: int, first_game: int, games_per_seat: int,
                label: str) -> list[Cell]:
    """``focal`` in each seat in turn against n - 1 ``others``, ``games_per_seat`` games a seat."""
    seatings = []
    for seat in range(n_players):
        bots = tuple(focal if place == seat else others for place in range(n_players))
        seatings.append(Cell(n_players, bots, first_game + seat * games_per_seat, games_per_seat,
                             (("matchup", label), ("seating", ",".join(bot.name for bot in bots)))))
    return seatings


def games_per_seat(plan: LandscapePlan, n_players: int) -> int:
    return max(1, math.ceil(plan.games_per_matchup / n_players))


def seat_credits(run_dir: Path) -> pl.DataFrame:
    """Every seat of a played run: game_index, seat, bot and its win credit (a shared win split),
    from the standard seat frame (reports.analysis.rundir), where the credit is defined."""
    seats, _ = rundir.seat_frame(rundir.load_run(run_dir))
    return (seats.select("game_index", "seat", pl.col("bot").cast(pl.String), "credit")
            .sort("game_index", "seat").collect())


# ----------------------------------------------------------------------------- the meta-game

def play_meta_game(plan: LandscapePlan, n_players: int) -> pl.DataFrame:
    """The pool's ordered pairs at ``n_players`` (cell meta-<n>p): every seat of every game with
    its pair (strategy: the one-seat bot, opponent: the others) and credit."""
    pool = plan.pools[n_players]
    per_seat = games_per_seat(plan, n_players)
    first = plan.first_games.get(n_players, 0)
    seatings = []
    for strategy in pool:
        for opponent in pool:
            if strategy != opponent:
                seatings += one_against(plan.bots[strategy], plan.bots[opponent], n_players,
                                        first + len(seatings) * per_seat, per_seat, f"{strategy} vs {opponent}")
    cell = landscape_cell(plan, f"meta-{n_players}p", seatings)
    study_cells.play(cell, plan.jobs, log=plan.log)
    credits = seat_credits(cell.run_dir)
    focal = pl.DataFrame({"block": list(range(len(seatings))),
                          "strategy": [seating.bots[index % n_players].name for index, seating in enumerate(seatings)],
                          "opponent": [seating.bots[(index + 1) % n_players].name
                                       for index, seating in enumerate(seatings)],
                          "focal_seat": [index % n_players for index in range(len(seatings))]})
    return (credits.with_columns(block=((pl.col("game_index") - first) // per_seat).cast(pl.Int64))
            .join(focal, on="block")
            .with_columns(n_players=pl.lit(n_players, pl.Int64)))


def meta_frame(seats: pl.DataFrame) -> pl.DataFrame:
    """meta_game's input: the focal seat's credit in each game of each ordered pair."""
    return (seats.filter(pl.col("seat") == pl.col("focal_seat"))
            .select("n_players", "strategy", "opponent", "game_index", "credit"))


def ladder_frame(seats: pl.DataFrame, ladder: list[str]) -> pl.DataFrame:
    """luck_skill's input: the games between two bots of the ladder, each seat's level."""
    return (seats.filter(pl.col("strategy").is_in(ladder) & pl.col("opponent").is_in(ladder))
            .select("n_players", "game_index", "seat", pl.col("bot").alias("level"), "credit"))


# ----------------------------------------------------------------------------- option values

def play_options(plan: LandscapePlan, n_players: int) -> tuple[list[dict], list[pl.DataFrame]]:
    """Every option's value at ``n_players``: the tuned bot's mirror games (cell mirror-<n>p) and,
    on the same game indices, the restricted bot in each seat (cell option-<id>-<n>p); and each
    option's paired loss game by game (n_players, decision, game_index, loss)."""
    tuned = plan.bots.get(inventory_of.tuned_bot_name(n_players)) or BotCatalogue().definition(
        plan.game, inventory_of.tuned_bot_name(n_players), "the landscape's options").bot_seat()
    per_seat = games_per_seat(plan, n_players)
    first = plan.first_games.get(n_players, 0)
    mirror = landscape_cell(plan, f"mirror-{n_players}p",
                            [Cell(n_players, (tuned,) * n_players, first, per_seat * n_players,
                                  (("matchup", "mirror"), ("seating", ",".join([tuned.name] * n_players))))])
    study_cells.play(mirror, plan.jobs, log=plan.log)
    mirror_credits = seat_credits(mirror.run_dir).select("game_index", "seat", mirror_credit="credit")
    rows, games = [], []
    mirror_run = rundir.load_run(mirror.run_dir)      # the options' take rates, read once
    for option in plan.inventory.options:
        restricted = inventory_of.restricted_bot(plan.inventory, option, n_players)
        cell = landscape_cell(plan, f"option-{option.id}-{n_players}p",
                              one_against(restricted, tuned, n_players, first, per_seat, f"without {option.id}"))
        study_cells.play(cell, plan.jobs, log=plan.log)
        paired = (seat_credits(cell.run_dir).filter(pl.col("bot") == restricted.name)
                  .join(mirror_credits, on=["game_index", "seat"])
                  .select("game_index", loss=pl.col("mirror_credit") - pl.col("credit")))
        rates = inventory_of.take_rates(mirror_run, plan.inventory, option)
        take_rate = float(rates["take_rate"].sum()) if rates is not None and rates.height else math.nan
        rows.append(option_row(n_players, option, paired["loss"].to_numpy(), take_rate))
        games.append(paired.select(pl.lit(n_players, pl.Int64).alias("n_players"),
                                   pl.lit(option.id).alias("decision"), "game_index", "loss"))
    return rows, games


def option_row(n_players: int, option, losses: np.ndarray, take_rate: float) -> dict:
    """An option's value (mean paired loss), its interval and verdict at one player count."""
    value, low, high = mean_interval(losses)
    verdict = option_verdict(losses, low, high, take_rate)
    return {"n_players": n_players, "decision": option.id, "name": option.name, "take_rate": take_rate,
            "value": value, "low": low, "high": high, "games": int(losses.size), "verdict": verdict,
            "sentence": option_sentence(n_players, option.name, value, low, high, take_rate, verdict, losses)}


def mean_interval(losses: np.ndarray) -> tuple[float, float, float]:
    """The mean and its t interval at CONFIDENCE ([m, m] when every game's loss is the same)."""
    if losses.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(losses.mean())
    if losses.size < 2 or np.all(losses == losses[0]):
        return mean, mean, mean
    half = float(scipy_stats.t.ppf(0.5 + CONFIDENCE / 2, losses.size - 1) * losses.std(ddof=1) / math.sqrt(losses.size))
    return mean, mean - half, mean + half


def option_verdict(losses: np.ndarray, low: float, high: float, take_rate: float) -> str:
    """dead: switching it off changes no game, or its loss lies within DEAD_MARGIN and the tuned
    bot rarely takes it (a take rate no table counts is not "rarely"); worth little: within the
    margin though taken often (or uncounted); dominant: the loss is surely above DOMINANT_LOSS;
    matters: surely a loss; misused: surely a gain (the bot is better without it); else not
    resolved at this budget."""
    if losses.size and np.all(losses == 0):       # no seat's result changed: worth exactly nothing here
        return DEAD if take_rate < RARELY_TAKEN else WORTH_LITTLE
    if low > DOMINANT_LOSS:
        return DOMINANT
    if -DEAD_MARGIN <= low and high <= DEAD_MARGIN:
        return DEAD if take_rate < RARELY_TAKEN else WORTH_LITTLE
    if low > 0:
        return MATTERS
    if high < 0:
        return MISUSED
    return UNRESOLVED


def option_sentence(n_players: int, name: str, value: float, low: float, high: float, take_rate: float,
                    verdict: str, losses: np.ndarray) -> str:
    taken = ("never taken by the tuned bot" if take_rate == 0 else
             "its uses are not counted in any table" if not np.isfinite(take_rate) else
             f"the tuned bot takes it {take_rate:.2f} times a game")
    words = {DEAD: "is dead", DOMINANT: "is dominant", MATTERS: "matters", MISUSED: "is misused (the bot wins more "
             "without it)", WORTH_LITTLE: f"is worth little (within {100 * DEAD_MARGIN:.0f} points)",
             UNRESOLVED: "is not resolved at this budget"}[verdict]
    if losses.size and np.all(losses == 0):
        return (f"{name} {words} at {n_players} players: switching it off changes no seat's result in "
                f"{losses.size:,} games ({taken}).")
    figure = f"switching it off costs {100 * value:+.1f} points of win rate [{100 * low:+.1f}, {100 * high:+.1f}]"
    return f"{name} {words} at {n_players} players: {figure}, over {losses.size:,} games ({taken})."


# ----------------------------------------------------------------------------- the study

# ----------------------------------------------------------------------------- exploitability

EXPLOIT_COLUMNS = ["n_players", "exploited", "win_rate", "low", "high", "fair_share", "gain", "seats", "trials",
                   "beat_start", "exploitable", "sentence"]


def exploit(plan: LandscapePlan, n_players: int) -> dict:
    """Tune a bot against the player count's tuned bot alone (DIR/exploit-<n>p, resumed like any
    tune-bot study) and read its fresh win rate against n - 1 copies of it."""
    from sim.studies import tune_bot

    tuned = inventory_of.tuned_bot_name(n_players)
    exploiter = tune_bot.plan_tuning(plan.game, n_players, [tuned], plan.exploit_budget,
                                     plan.out_dir / f"exploit-{n_players}p", family=plan.inventory.family,
                                     games_per_trial=plan.games_per_matchup, seed=plan.seed, start=tuned,
                                     sampler="cmaes", name=f"exploiter_{n_players}p", jobs=plan.jobs)
    exploiter.setup = plan.setup          # under the landscape's rules (a variant's too)
    tune_bot.tune(exploiter, log=plan.log, progress=False)
    record = yaml.safe_load((exploiter.out_dir / tune_bot.RECORD_FILE).read_text(encoding="utf-8"))
    fresh = record["fresh"]
    return exploit_row(n_players, tuned, float(fresh["win_rate"]), float(fresh["low"]), float(fresh["high"]),
                       int(fresh["seats"]), int(record["trials"]), beat_start=int(record.get("best_trial", 0)) != 0)


def exploit_row(n_players: int, tuned: str, win_rate: float, low: float, high: float, seats: int, trials: int,
                beat_start: bool = True) -> dict:
    """The exploit check's row. ``beat_start``: some trial beat the tuned bot itself (trial 0, the
    start) in training; if none did, the exploiter *is* the tuned bot, and the sentence says that
    the search found nothing at this budget rather than quoting a mirror's win rate as a result."""
    fair = 1.0 / n_players
    exploitable = low - fair > EXPLOITABLE_GAIN
    words = ("the verdicts rest on an exploitable bot" if exploitable else
             f"not exploitable by more than {100 * EXPLOITABLE_GAIN:.0f} points at this budget")
    if beat_start:
        found = (f"a bot tuned against {tuned} alone ({trials} trials) wins {100 * win_rate:.1f}% "
                 f"[{100 * low:.1f}%, {100 * high:.1f}%] of {seats:,} fresh seats against it, "
                 f"{100 * (win_rate - fair):+.1f} points from the fair share {100 * fair:.1f}%")
    else:
        found = (f"no trial of {trials} tuned against {tuned} alone beat {tuned} itself in training, so the exploiter "
                 f"is {tuned} ({100 * win_rate:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] of {seats:,} fresh seats, "
                 f"the fair share {100 * fair:.1f}%): the search found no exploit")
    sentence = f"At {n_players} players {found}{': ' if beat_start else '; '}{words}."
    return {"n_players": n_players, "exploited": tuned, "win_rate": win_rate, "low": low, "high": high,
            "fair_share": fair, "gain": win_rate - fair, "seats": seats, "trials": trials, "beat_start": beat_start,
            "exploitable": exploitable, "sentence": sentence}


@dataclass
class Landscape:
    equilibrium: pd.DataFrame
    verdicts: pd.DataFrame
    options: pd.DataFrame
    skill: pd.DataFrame
    exploit: pd.DataFrame
    option_games: pd.DataFrame


def landscape(plan: LandscapePlan, log: Callable[[str], None] = print) -> Path:
    """Play every cell (resuming a held directory), analyse, write the tables and the report."""
    plan.log = log
    with directory.open_study(plan.out_dir, "landscape", plan_record(plan), "landscape (other players, pool, games "
                              "or seed)"):
        found = analyse(plan)
        write_tables(plan.out_dir, found)
    from reports.pages.landscape_report import write_landscape_report
    write_landscape_report(plan.out_dir)
    return plan.out_dir


def analyse(plan: LandscapePlan) -> Landscape:
    meta_seats, option_rows, option_games, skill_tables, exploit_rows = [], [], [], [], []
    for count in plan.players:
        if plan.meta_game:
            plan.log(f"{plan.game} at {count} players: meta-game of {', '.join(plan.pools[count])}")
            seats = play_meta_game(plan, count)
            meta_seats.append(meta_frame(seats))
            ladder = [level for level in plan.ladders[count] if level in plan.pools[count]]
            if len(ladder) >= 2:
                skill_tables.append(luck_skill.luck_and_skill(ladder_frame(seats, ladder), ladder, [count],
                                                               seed=plan.seed).table)
        plan.log(f"{plan.game} at {count} players: {len(plan.inventory.options)} options switched off in turn")
        rows, games = play_options(plan, count)
        option_rows += rows
        option_games += games
        if plan.exploit_budget:
            plan.log(f"{plan.game} at {count} players: a bot tuned against {inventory_of.tuned_bot_name(count)} "
                     f"({plan.exploit_budget:,} training games)")
            exploit_rows.append(exploit(plan, count))
    if meta_seats:
        averaging = meta_game.nash_averaging(pl.concat(meta_seats), bootstrap=BOOTSTRAP, seed=plan.seed)
        equilibrium, verdicts = averaging.table, averaging.verdicts
    else:
        equilibrium, verdicts = (pd.DataFrame(columns=EQUILIBRIUM_COLUMNS),
                                 pd.DataFrame(columns=["n_players", "verdict", "sentence"]))
    skill = pd.concat(skill_tables, ignore_index=True) if skill_tables else pd.DataFrame(
        columns=["n_players", "games", "luck_skill_index", "low", "high", "skill_chain", "steps", "sentence"])
    return Landscape(equilibrium, verdicts, pd.DataFrame(option_rows), skill,
                     pd.DataFrame(exploit_rows, columns=EXPLOIT_COLUMNS),
                     pl.concat(option_games).to_pandas() if option_games else pd.DataFrame(columns=OPTION_GAMES_COLUMNS))


OPTION_GAMES_COLUMNS = ["n_players", "decision", "game_index", "loss"]
EQUILIBRIUM_COLUMNS = ["n_players", "strategy", "mass", "mass_low", "mass_high", "rating", "low", "high"]


TABLE_FILES = {"equilibrium": "equilibrium.parquet", "verdicts": "verdicts.parquet", "options": "options.parquet",
               "skill": "skill.parquet", "exploit": "exploit.parquet", "option_games": "option_games.parquet"}


def write_tables(out_dir: Path, found: Landscape) -> None:
    for name, file in TABLE_FILES.items():
        frame = pl.from_pandas(getattr(found, name).reset_index(drop=True))
        results.write_parquet_atomically(frame.to_arrow(), out_dir / file)


# ----------------------------------------------------------------------------- a study cell's landscape

def check_request(game: str, request, where: str) -> None:
    """An experiment's ``landscape:`` (``where``: "FILE: key 'landscape") names options of the
    game's inventory and bots the catalogue knows: one line naming the key otherwise."""
    inventory = inventory_of.load_options(game)
    if request.options != "all":
        known = [option.id for option in inventory.options]
        unknown = [option for option in request.options if option not in known]
        if unknown or not request.options:
            raise ConfigError(f"{where}.options': expected all or ids of configs/landscape options ({', '.join(known)}), "
                              f"found {', '.join(unknown) or 'none'}")
    catalogue = BotCatalogue()
    for name in request.pool or []:
        if name != TUNED:
            catalogue.definition(game, name, f"{where}.pool'")


def cell_plan(run_dir: Path, setup: GameSetup, seatings: list[Cell], seed: int, request, jobs: int) -> LandscapePlan:
    """The landscape of a study cell's rules (``setup``) at its player counts, in RUN/landscape,
    each player count's games from the run's own first game index there (two arms of a comparison,
    or a sweep's cells, value their options on the same games)."""
    from reports.analysis import landscape_metrics

    players = sorted({int(seating.n_players) for seating in seatings})
    plan = plan_landscape(setup.game, Path(run_dir) / landscape_metrics.DIRECTORY, players=players, pool=request.pool,
                          games_per_matchup=int(request.games), seed=seed, jobs=jobs)
    plan.setup = dataclasses.replace(setup, optional_tables=())   # the landscape reads no optional table
    plan.meta_game = bool(request.meta_game)
    plan.first_games = {count: min(int(seating.first_game) for seating in seatings if seating.n_players == count)
                        for count in players}
    if request.options != "all":
        plan.inventory = dataclasses.replace(plan.inventory, options=[
            option for option in plan.inventory.options if option.id in request.options])
    return plan


def ensure_cell_landscape(run_dir: Path, setup: GameSetup, seatings: list[Cell], seed: int, request, jobs: int = 1,
                          log: Callable[[str], None] = lambda message: None) -> bool:
    """Play the landscape of a study cell's finished run unless it is there for this very run and
    plan (a resumed study plays none again; its own cells resume like any cell); its tables in
    RUN/landscape, the record last (its absence says they are not whole). True when played now."""
    from reports.analysis import landscape_metrics, paired_metrics

    plan = cell_plan(run_dir, setup, seatings, seed, request, jobs)
    plan.log = log
    run = rundir.load_run(run_dir)
    record = {"run": paired_metrics.run_identity(run), "plan": plan_record(plan)}
    record_path = plan.out_dir / landscape_metrics.RECORD_FILE
    if record_path.is_file() and yaml.safe_load(record_path.read_text(encoding="utf-8")) == record:
        return False
    log(f"landscape of {run_dir}: {', '.join(map(str, plan.players))} players, {plan.games_per_matchup:,} games a "
        f"match-up, {len(plan.inventory.options)} options")
    plan.out_dir.mkdir(parents=True, exist_ok=True)
    record_path.unlink(missing_ok=True)
    write_tables(plan.out_dir, analyse(plan))
    results.write_bytes_atomically(yaml.safe_dump(record, sort_keys=True, allow_unicode=True).encode("utf-8"),
                                   record_path)
    return True
