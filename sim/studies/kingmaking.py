"""Kingmaking (issue 40, balance-questions.md "Who decides it?"): how often does a seat that
cannot win decide which other seat wins?

**Method.** For a deterministic sample of at most ``games`` games of a run with a standings table
(game_arc.sample_point: the games whose Fibonacci-hashed index is lowest), the win-probability
model of reports.analysis.game_arc says from which turn each seat is *out of contention* (its
probability stays below 0.05 to the end). Every later decision of such a seat, i.e. every turn t
after that one at which it acts (the standings table's ``acting_seat``; t counts every seat's
turns of the game from 1), is played again with the seat's other choices: its next-best options
by the game's greedy score (alternatives 1, 2) and two uniformly random other legal options (-1,
-2). A game is a pure function of (rules, bots, seed, game index) and every source of chance has
a stream of its own, so the engine replays the game from its start with that one turn overridden
(``engine.play_counterfactuals``): every draw the change does not touch is the original game's
(common random numbers). Heads of State overrides the turn's main decision (its option, §4.2)
and lets the rest of the turn be the bot's.

**Verdicts.** A replay *changes the winner* when its winner set differs from the original game's.
If the out-of-contention seat itself wins the replay, it was not out of contention after all:
the replay is counted as *misjudged* (the model's error, shown to the designer) and not as
kingmaking. A game is *kingmade* when some out-of-contention seat has an alternative that changes
the winner (and is not misjudged). **Kingmaker index** = kingmade games / sampled games, per player
count (all seats) and per seat (games where that seat's choice decided the winner), with Wilson
intervals (statsmodels ``proportion_confint``). Of the replays that change the winner, the share
that hand the win to the seat after the kingmaker in turn order, and to the seat before it (a
replay's new winners are the seats that win it and did not win the original game).

A 2-player game has no kingmaker by definition (a seat that cannot win hands the win to the only
other seat whatever it does): its rows say so and nothing is played.

Results go to ``RUN/kingmaking/requests.parquet`` (one row per replay),
``RUN/kingmaking/summary.parquet`` and ``RUN/kingmaking/games.parquet`` (one row per sampled game:
``game_index``, ``n_players``, ``counted``: the game counts in the index, false at 2 players and at
a player count without a model, ``kingmade`` 0/1 and ``misjudged`` 0/1), which the paired metric
``kingmaker_index`` of compare, sweep and tune reads (reports.analysis.paired_metrics): the sample
is a function of the game indices alone, so two arms played on the same games sample the same
games. ``RUN/kingmaking/kingmaking.yaml``, written last, records the games asked and the run the
results are of (paired_metrics.run_identity): a study does not play a kingmaking again that is
already there for the same run and games (:func:`ensure_kingmaking`), and the paired metric reads
no results of another run played since into the same directory. Replays are played in ``jobs``
joblib workers, one compiled call per part (in this process when the replays take less than
starting workers would, :func:`workers_for`).
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl
import yaml
from joblib import Parallel, delayed
from statsmodels.stats.proportion import proportion_confint

from reports.analysis import game_arc, paired_metrics
from reports.analysis.rundir import Run, collect, load_run
from sim import registry
from sim.core import locking, results
from sim.core import run_manifest as manifests
from sim.core.engine import BotSeat, ConfigError
from sim.core.experiments import DEFAULT_KINGMAKING_GAMES
from strategies.bots import bot_package
from strategies.parameters import bot_seat, parameter_vector

DIRECTORY = game_arc.KINGMAKING_DIRECTORY   # the report reads the summary there too
REQUESTS_FILE = "requests.parquet"
SUMMARY_FILE = game_arc.KINGMAKING_SUMMARY_FILE
GAMES_FILE = paired_metrics.KINGMAKING_GAMES_FILE     # one row per sampled game: what the paired metric reads
RECORD_FILE = paired_metrics.KINGMAKING_RECORD_FILE   # the games asked and the run analysed, written last
FORMAT = 1
DEFAULT_GAMES = DEFAULT_KINGMAKING_GAMES
ALTERNATIVES = (1, 2, -1, -2)       # next-best by the greedy's score, then two random other options
CONFIDENCE = 0.95
PARTS_PER_JOB = 4                   # parts of the requests per worker: even loads on a shared machine
# Replays worth a worker process: starting one and loading the compiled kernels there took ~3-5 s
# (2 cores, shared), while one core replays ~25,000 Louis XIV games per second (measured with
# benchmarks/kingmaking_time.py: 30,000 replays in 1.1 s in-process, 6.0 s on 2 new workers).
REPLAYS_PER_WORKER = 100_000
BY_DEFINITION = "2 players: no kingmaker by definition (nothing played)"
ALL_SEATS = game_arc.ALL_SEATS   # the summary's seat for a player count's row over every seat


@dataclass
class Seating:
    """Seats' bots of a group of sampled games (one compiled call plays their requests)."""
    n_players: int
    bots: tuple[BotSeat, ...]


@dataclass
class Kingmaking:
    """What ``courtsim kingmaking`` prints and writes."""
    directory: Path
    summary: pl.DataFrame
    requests: pl.DataFrame
    seconds: float
    notes: list[str] = field(default_factory=list)
    games: pl.DataFrame | None = None     # one row per sampled game (per_game_results)


# ----------------------------------------------------------------------------- the run's inputs

def check_run(run: Run) -> None:
    """ConfigError (one line) unless the run has a standings table with the columns needed."""
    if not game_arc.has_standings(run):
        raise ConfigError(f"{run.path}: no standings table (kingmaking needs the turn-by-turn standings); "
                          "rerun the run with --tables standings")
    game_arc.check_standings(run)
    if "acting_seat" not in run.columns(game_arc.TABLE):
        raise ConfigError(f"{run.tables[game_arc.TABLE]}: expected column acting_seat, found "
                          f"{', '.join(run.columns(game_arc.TABLE))}")


def sampled_games(game_index: np.ndarray, games: int) -> np.ndarray:
    """The at most ``games`` game indices with the lowest sample point (sorted): a deterministic
    sample spread over the run whatever its game order (game_arc.sample_point)."""
    game_index = np.asarray(game_index, dtype=np.int64)
    order = np.argsort(game_arc.sample_point(game_index), kind="stable")
    return np.sort(game_index[order[:games]])


def game_frame(run: Run, sample: np.ndarray) -> pl.DataFrame:
    """Per sampled game: game_index, n_players, winner_mask (bit s: seat s won), seating (the bot
    names in seat order, comma-joined)."""
    seats = collect(run.scan("seats").filter(pl.col("game_index").is_in(sample.tolist()))
                    .select("game_index", "seat", "is_winner", pl.col("bot").cast(pl.String)))
    return (seats.sort("game_index", "seat").group_by("game_index", maintain_order=True)
            .agg(pl.len().cast(pl.Int32).alias("n_players"),
                 ((pl.col("is_winner") > 0).cast(pl.Int64) * (pl.lit(2, pl.Int64) ** pl.col("seat").cast(pl.Int64)))
                 .sum().alias("winner_mask"),
                 pl.col("bot").str.join(",").alias("seating")))


def acting_turns(run: Run, sample: np.ndarray) -> pl.DataFrame:
    """Per sampled game, each turn and the seat that took it (game_index, turn, acting_seat)."""
    return collect(run.scan(game_arc.TABLE).filter(pl.col("game_index").is_in(sample.tolist())
                                                   & pl.col("acting_seat").is_not_null())
                   .select("game_index", pl.col("turn").cast(pl.Int64), pl.col("acting_seat").cast(pl.Int32))
                   .unique().sort("game_index", "turn"))


def out_of_contention(run: Run, models: game_arc.FittedModels, sample: np.ndarray) -> pl.DataFrame:
    """game_index, seat, out_of_contention_turn of the sampled games' seats that are out of
    contention by the game arc's model; only the sampled games' standings are read (they are the
    games below a sample point, slice by slice, as game_arc reads its own sample)."""
    below = float(game_arc.sample_point(sample).max()) + 0.5 / game_arc.HASH_RANGE
    fractions = {n_players: below for n_players in models.models}
    parts = []
    for first, last in game_arc.slices(run):
        for positions in game_arc.read_positions(run, first, last, fractions):
            model = models.models[positions.n_players]
            parts.append(game_arc.arc_of(positions, model.probabilities(positions)).seats)
    if not parts:
        return pl.DataFrame(schema=OUT_OF_CONTENTION_SCHEMA)
    return (pl.concat(parts).filter(pl.col("game_index").is_in(sample.tolist())
                                    & pl.col("out_of_contention_turn").is_not_null())
            .select(*(pl.col(name).cast(dtype) for name, dtype in OUT_OF_CONTENTION_SCHEMA.items())))


OUT_OF_CONTENTION_SCHEMA = {"game_index": pl.Int64, "seat": pl.Int32, "out_of_contention_turn": pl.Int64}
TURNS_SCHEMA = {"game_index": pl.Int64, "turn": pl.Int64, "acting_seat": pl.Int32}


def run_setup(run: Run, engine) -> Any:
    """The rules the run played, rebuilt from run.yaml's resolved record (not from a file that
    may have changed since) and checked against it. A run under a rule variant (a study's cell)
    records the variant's name and overrides beside the resolved data and rules: they say where
    the rules came from, the data and rules are what was played."""
    record = manifests.to_plain(run.manifest["config"]["setup"])
    record.pop("variant", None)
    game_data = integer_keys(record.get("game_data", {}))
    setup = engine.load_setup(None, record.get("rules") or None, edit_game_data=lambda raw: copy.deepcopy(game_data))
    if manifests.canonical(manifests.setup_record(setup)) != manifests.canonical(record):
        raise ConfigError(f"{manifests.manifest_path(run.path)}: key 'config.setup': expected rules this courtsim can "
                          "rebuild, found a record that differs once rebuilt (a run of another courtsim version?)")
    return setup


def integer_keys(value):
    """run.yaml's game data with digit-string mapping keys back to integers (the record is JSON-like)."""
    if isinstance(value, dict):
        return {(int(key) if isinstance(key, str) and key.isdigit() else key): integer_keys(item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [integer_keys(item) for item in value]
    return value


def run_bots(run: Run) -> dict[str, BotSeat]:
    """Every bot of the run by name, from run.yaml's records (family and every parameter)."""
    strategies = bot_package(run.game)
    bots = {}
    for record in run.manifest["config"].get("bots") or []:
        family = record["family"]
        parameters = strategies.FAMILY_PARAMETERS[family]
        values = record.get("parameters") or {}
        if not parameters:    # a family without named parameters records its vector by position
            vector = np.array([values[key] for key in sorted(values, key=int)], dtype=np.float64)
        else:
            vector = parameter_vector(parameters, values, strategies.N_PARAMETERS,
                                      f"{manifests.manifest_path(run.path)}: bot '{record['name']}'")
        bots[record["name"]] = bot_seat(record["name"], family, strategies.FAMILIES, parameters, vector)
    return bots


def seatings_of(games: pl.DataFrame, bots: dict[str, BotSeat], where: str) -> dict[str, Seating]:
    seatings = {}
    for name in games["seating"].unique().to_list():
        names = name.split(",")
        missing = [bot for bot in names if bot not in bots]
        if missing:
            raise ConfigError(f"{where}: key 'config.bots': expected every bot of the seats table, "
                              f"found none named {', '.join(missing)}")
        seatings[name] = Seating(len(names), tuple(bots[bot] for bot in names))
    return seatings


# ----------------------------------------------------------------------------- the method

def decisions_after(out: pl.DataFrame, turns: pl.DataFrame) -> pl.DataFrame:
    """Each decision of an out-of-contention seat after the turn from which it is out:
    game_index, seat, out_of_contention_turn, turn."""
    return (out.join(turns, left_on=["game_index", "seat"], right_on=["game_index", "acting_seat"], how="inner")
            .filter(pl.col("turn") > pl.col("out_of_contention_turn"))
            .select("game_index", "seat", "out_of_contention_turn", "turn").sort("game_index", "turn"))


def requests_of(decisions: pl.DataFrame, alternatives=ALTERNATIVES) -> pl.DataFrame:
    """Every decision with every alternative."""
    return decisions.join(pl.DataFrame({"alternative": list(alternatives)}, schema={"alternative": pl.Int64}),
                          how="cross").sort("game_index", "turn", "alternative")


def play_requests(game: str, setup, seatings: dict[str, Seating], seed: int, requests: pl.DataFrame, jobs: int,
                  engine=None) -> pl.DataFrame:
    """The requests (with their game's ``seating``) played: winner_mask_after, acting_seat_after,
    available, n_options; parts of one seating each, in ``jobs`` joblib workers."""
    jobs = workers_for(requests.height, jobs)
    parts = []
    for name, seating in seatings.items():
        rows = requests.filter(pl.col("seating") == name)
        n_parts = min(rows.height, max(1, jobs) * PARTS_PER_JOB)
        parts += [(seating, rows[chunk]) for chunk in np.array_split(np.arange(rows.height), max(1, n_parts))
                  if len(chunk)]
    if not parts:
        return requests.with_columns(pl.lit(0, pl.Int64).alias(name) for name in
                                     ("winner_mask_after", "acting_seat_after", "n_options")).with_columns(
            pl.lit(False).alias("available"))
    if engine is not None or jobs == 1:
        played = [play_part(game, setup, seating, seed, rows, engine) for seating, rows in parts]
    else:
        played = Parallel(n_jobs=jobs)(delayed(play_part)(game, setup, seating, seed, rows) for seating, rows in parts)
    return pl.concat(played).sort("game_index", "turn", "alternative")


def workers_for(replays: int, jobs: int) -> int:
    """``jobs`` workers, but no more than the replays are worth (REPLAYS_PER_WORKER): for a few
    seconds of replays, starting workers costs more than it saves (1: in this process)."""
    return max(1, min(jobs, -(-replays // REPLAYS_PER_WORKER)))


def play_part(game: str, setup, seating: Seating, seed: int, rows: pl.DataFrame, engine=None) -> pl.DataFrame:
    """One compiled call: the part's requests, all of one seating."""
    engine = engine if engine is not None else registry.get_engine(game)
    played = engine.play_counterfactuals(setup, seating.n_players, list(seating.bots), seed,
                                         rows["game_index"].to_numpy(), rows["turn"].to_numpy(),
                                         rows["alternative"].to_numpy())
    return rows.with_columns(pl.Series("winner_mask_after", np.asarray(played["winner_mask"], dtype=np.int64)),
                             pl.Series("acting_seat_after", np.asarray(played["acting_seat"], dtype=np.int64)),
                             pl.Series("available", np.asarray(played["available"], dtype=bool)),
                             pl.Series("n_options", np.asarray(played["n_options"], dtype=np.int64)))


def bit(seat: pl.Expr) -> pl.Expr:
    return pl.lit(2, pl.Int64) ** seat.cast(pl.Int64)


def judged(played: pl.DataFrame) -> pl.DataFrame:
    """Each replay's verdict: changes_winner, misjudged (the out-of-contention seat wins it),
    kingmaking (changes the winner, not misjudged), gainers (bit mask of the new winners),
    to_next / to_previous (the seat after / before in turn order is a new winner)."""
    n_players = pl.col("n_players").cast(pl.Int64)
    seat = pl.col("seat").cast(pl.Int64)
    # a replay counts when its alternative exists and the seat that acted at the turn is the
    # standings' (they can only disagree for a standings table of another build)
    counted = pl.col("available") & (pl.col("acting_seat_after") == seat)
    gainers = pl.col("winner_mask_after") & ~pl.col("winner_mask")
    changes = pl.col("counted") & (pl.col("winner_mask_after") != pl.col("winner_mask"))
    misjudged = pl.col("counted") & ((pl.col("winner_mask_after") & bit(seat)) != 0)
    played = played.with_columns(counted.alias("counted"))
    return played.with_columns(changes.alias("changes_winner"), misjudged.alias("misjudged"),
                               gainers.alias("gainers")).with_columns(
        (pl.col("changes_winner") & ~pl.col("misjudged")).alias("kingmaking"),
        ((pl.col("gainers") & bit((seat + 1) % n_players)) != 0).alias("to_next"),
        ((pl.col("gainers") & bit((seat - 1 + n_players) % n_players)) != 0).alias("to_previous"))


def wilson(count: int, total: int) -> tuple[float, float]:
    if total == 0:
        return float("nan"), float("nan")
    low, high = proportion_confint(count, total, alpha=1 - CONFIDENCE, method="wilson")
    rate = count / total   # the bounds' rounding can leave a rate of 0 or 1 a hair outside
    return min(float(low), rate), max(float(high), rate)


def summarise(games: pl.DataFrame, replays: pl.DataFrame) -> pl.DataFrame:
    """Per player count, one row over all seats (seat -1) and one per seat: games, games with the
    seat (any seat) out of contention, decisions replayed, kingmaker games, the kingmaker index
    with its Wilson interval, misjudged games, the shares of winner-changing replays that hand
    the win to the next / previous seat, and a note (2 players: by definition)."""
    rows = []
    for n_players in sorted(games["n_players"].unique().to_list()):
        count = games.filter(pl.col("n_players") == n_players).height
        mine = replays.filter(pl.col("n_players") == n_players)
        for seat in [ALL_SEATS, *range(n_players)]:
            part = mine if seat == ALL_SEATS else mine.filter(pl.col("seat") == seat)
            rows.append(summary_row(n_players, seat, count, part))
    return pl.DataFrame(rows, schema=SUMMARY_SCHEMA, orient="row")


SUMMARY_SCHEMA = {"n_players": pl.Int32, "seat": pl.Int32, "games": pl.Int64, "games_out_of_contention": pl.Int64,
                  "decisions": pl.Int64, "replays": pl.Int64, "kingmaker_games": pl.Int64,
                  "kingmaker_index": pl.Float64, "index_low": pl.Float64, "index_high": pl.Float64,
                  "misjudged_games": pl.Int64, "winner_changes": pl.Int64, "share_to_next": pl.Float64,
                  "share_to_previous": pl.Float64, "note": pl.String}


def summary_row(n_players: int, seat: int, games: int, part: pl.DataFrame) -> tuple:
    if n_players == 2:
        return (n_players, seat, games, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0, 0, float("nan"), float("nan"), BY_DEFINITION)
    out_games = part.select(pl.col("game_index").n_unique()).item() if part.height else 0
    decisions = part.select(pl.struct("game_index", "turn").n_unique()).item() if part.height else 0
    played = part.filter(pl.col("counted"))
    kingmade = played.filter(pl.col("kingmaking"))
    kingmaker_games = kingmade["game_index"].n_unique()
    misjudged_games = played.filter(pl.col("misjudged"))["game_index"].n_unique()
    low, high = wilson(kingmaker_games, games)
    changes = kingmade.height
    share = (lambda column: kingmade[column].sum() / changes if changes else float("nan"))
    return (n_players, seat, games, out_games, decisions, played.height, kingmaker_games,
            kingmaker_games / games if games else float("nan"), low, high, misjudged_games, changes,
            share("to_next"), share("to_previous"), "")


def per_game_results(sampled: pl.DataFrame, replays: pl.DataFrame, counted_players: list[int]) -> pl.DataFrame:
    """One row per sampled game (``sampled``: game_index, n_players): ``counted`` (the game
    counts in the kingmaker index: its player count is in ``counted_players``, i.e. more than 2
    players and a win-probability model), ``kingmade`` (1 when some counted replay of the game is
    kingmaking, as :func:`summarise` counts it) and ``misjudged`` (1 when some counted replay
    was won by its out-of-contention seat). A game outside the sample has no row, so it counts
    in neither sum of the paired ratio kingmade / counted."""
    played = replays.filter(pl.col("counted")) if replays.height else replays
    flags = (played.group_by("game_index").agg(pl.col("kingmaking").any().cast(pl.Int8).alias("kingmade"),
                                               pl.col("misjudged").any().cast(pl.Int8).alias("misjudged"))
             if played.height else pl.DataFrame(schema={"game_index": pl.Int64, "kingmade": pl.Int8,
                                                        "misjudged": pl.Int8}))
    counted = pl.col("n_players").is_in([int(n) for n in counted_players])
    return (sampled.select(pl.col("game_index").cast(pl.Int64), pl.col("n_players").cast(pl.Int32))
            .join(flags.with_columns(pl.col("game_index").cast(pl.Int64)), on="game_index", how="left")
            .with_columns(counted.alias("counted"))
            .with_columns(*(pl.when(pl.col("counted")).then(pl.col(name).fill_null(0)).otherwise(0)
                            .cast(pl.Int8).alias(name) for name in ("kingmade", "misjudged")))
            .select(*GAMES_SCHEMA).sort("game_index"))


GAMES_SCHEMA = {"game_index": pl.Int64, "n_players": pl.Int32, "counted": pl.Boolean, "kingmade": pl.Int8,
                "misjudged": pl.Int8}


def kingmaking_of(games: pl.DataFrame, out: pl.DataFrame, turns: pl.DataFrame,
                  play: Callable[[pl.DataFrame], pl.DataFrame]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The method on its inputs: ``games`` (game_index, n_players, winner_mask, seating), the
    out-of-contention seats, the acting seat of each turn, and ``play`` (requests -> played);
    returns (replays judged, summary). Games of 2 players are never played."""
    playable = games.filter(pl.col("n_players") > 2)
    requests = requests_of(decisions_after(out.filter(pl.col("game_index").is_in(playable["game_index"].implode())),
                                           turns))
    requests = requests.join(playable.select("game_index", "n_players", "winner_mask", "seating"),
                             on="game_index", how="inner")
    replays = judged(play(requests))
    return replays, summarise(games, replays)


# ----------------------------------------------------------------------------- the study

def analyse_kingmaking(run_dir: Path, games: int = DEFAULT_GAMES, jobs: int = 1,
                       log: Callable[[str], None] = lambda message: None) -> Kingmaking:
    """Kingmaking of a run (module docstring); writes RUN/kingmaking/ and returns what it wrote."""
    if games < 1:
        raise ConfigError(f"--games: expected a number of games of 1 or more, found {games}")
    run = load_run(Path(run_dir))
    check_run(run)
    started = time.perf_counter()
    engine = registry.get_engine(run.game)
    if not hasattr(engine, "play_counterfactuals"):
        raise ConfigError(f"{run.path}: kingmaking expected a game with counterfactual replays, found {run.game}")
    all_games = collect(run.scan("games").select("game_index"))["game_index"].to_numpy()
    sample = sampled_games(all_games, games)
    frame = game_frame(run, sample)
    sampled = frame.select("game_index", "n_players")
    notes = []
    if (frame["n_players"] == 2).any():
        notes.append(BY_DEFINITION)
    setup = run_setup(run, engine)
    seatings = seatings_of(frame, run_bots(run), str(manifests.manifest_path(run.path)))
    seed = int(run.manifest["config"]["seed"])
    out = pl.DataFrame(schema=OUT_OF_CONTENTION_SCHEMA)
    turns = pl.DataFrame(schema=TURNS_SCHEMA)
    if (frame["n_players"] > 2).any():
        log(f"kingmaking: {len(sample):,} games sampled; fitting the win-probability model (game arc)")
        models = game_arc.fit_models(run)
        unmodelled = sorted(set(frame.filter(pl.col("n_players") > 2)["n_players"].to_list()) - set(models.models))
        for n_players in unmodelled:
            notes.append(f"{n_players} players: not analysed, too few games for a win-probability model "
                         f"(at least {game_arc.MIN_FIT_GAMES} fitting games)")
        frame = frame.filter(~pl.col("n_players").is_in(unmodelled))
        out, turns = out_of_contention(run, models, sample), acting_turns(run, sample)
        log(f"kingmaking: replaying the decisions of {out.height:,} seats out of contention")
        warm_up(engine, setup, seatings, seed, frame, log)
    replays, summary = kingmaking_of(frame, out, turns,
                                     lambda requests: play_requests(run.game, setup, seatings, seed, requests, jobs))
    disagreeing = replays.filter(pl.col("available") & (pl.col("acting_seat_after") != pl.col("seat"))).height
    if disagreeing:
        notes.append(f"{disagreeing:,} replays not counted: the standings name another acting seat at that turn "
                     "than the replayed game (a standings table of another build?)")
    per_game = per_game_results(sampled, replays, [n for n in frame["n_players"].unique().to_list() if n > 2])
    directory = write(run.path, replays, summary, per_game, record_of(run, games))
    return Kingmaking(directory, summary, replays, time.perf_counter() - started, notes, per_game)


def record_of(run: Run, games: int) -> dict:
    """What a kingmaking's results are of: the games asked and the run analysed (its identity)."""
    return {"courtsim_kingmaking": FORMAT, "games": int(games), "run": paired_metrics.run_identity(run)}


def played_for(run_dir: Path, games: int) -> bool:
    """Is the kingmaking of ``games`` games already there, complete, for this very run?"""
    path = Path(run_dir) / DIRECTORY / RECORD_FILE
    if not path.is_file() or not (Path(run_dir) / DIRECTORY / GAMES_FILE).is_file():
        return False
    try:
        record = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError:
        return False
    return record == record_of(load_run(Path(run_dir)), games)


def ensure_kingmaking(run_dir: Path, games: int, jobs: int = 1,
                      log: Callable[[str], None] = lambda message: None) -> bool:
    """Play the kingmaking of a study's finished run unless it is already there for this run and
    these games (a resumed study plays none again); True when it was played now."""
    if played_for(run_dir, games):
        return False
    log(f"kingmaking of {run_dir}: at most {games:,} games")
    analyse_kingmaking(run_dir, games=games, jobs=jobs, log=log)
    return True


def warm_up(engine, setup, seatings: dict[str, Seating], seed: int, games: pl.DataFrame, log) -> None:
    """Compile the counterfactual kernel here (once) before the workers start, so that they load
    it from numba's cache instead of each compiling it at the same time."""
    cached = getattr(engine, "counterfactuals_cached", None)
    for seating in seatings.values():
        if seating.n_players > 2 and cached is not None and not cached(list(seating.bots)):
            log("kingmaking: compiling the counterfactual kernel (first use: about a minute)")
            first = int(games["game_index"][0])
            engine.play_counterfactuals(setup, seating.n_players, list(seating.bots), seed, np.array([first]),
                                        np.array([1]), np.array([0]))


def write(run_dir: Path, replays: pl.DataFrame, summary: pl.DataFrame, games: pl.DataFrame | None = None,
          record: dict | None = None) -> Path:
    """RUN/kingmaking/requests.parquet, summary.parquet and games.parquet (atomic), under the
    run's lock; the record last (its absence says the results are not whole), the old one
    removed first so that an interrupted write is never taken for finished results."""
    directory = Path(run_dir) / DIRECTORY
    with locking.exclusive(Path(run_dir), "courtsim kingmaking"):
        directory.mkdir(exist_ok=True)
        (directory / RECORD_FILE).unlink(missing_ok=True)
        results.write_parquet_atomically(replays.to_arrow(), directory / REQUESTS_FILE)
        results.write_parquet_atomically(summary.to_arrow(), directory / SUMMARY_FILE)
        if games is not None:
            results.write_parquet_atomically(games.to_arrow(), directory / GAMES_FILE)
        if record is not None:
            text = yaml.safe_dump(record, sort_keys=True, allow_unicode=True).encode("utf-8")
            results.write_bytes_atomically(text, directory / RECORD_FILE)
    return directory
