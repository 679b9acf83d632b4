"""Per-game values of every metric a rule-variant comparison reports, for paired statistics.

A comparison (sim/studies/compare.py) pairs game i of the baseline with game i of a variant
(common random numbers), so each metric is computed from per-game *components*: one row per
game, one column per component. A metric is a function of the components' means
(reports.analysis.comparison_stats): a player's win rate is the mean of the win credit of the player at
that place in the turn order (``first_player_win_rate``: the start player's, whichever seat it is;
reports.analysis.players names them); a bot's win rate is its wins over its seats (a ratio, since a bot may
hold several seats of a game); balance is 1 - (largest - smallest of the players' win rates);
assassination success is successes over attempts.

Common metrics come from the standard frames every game has (reports.analysis.rundir: seats, win
credit, scores after each round, game outcome); each game adds its mechanics
(``reports.analysis.metrics_louis_xiv.paired_mechanics``, ``reports.analysis.metrics_heads_of_state.paired_mechanics``).
Wins are counted as win credit: 1 / number of winners for each winner, so a game's credits sum
to 1 and a shared win is split.

A run with a standings table adds the game arc's metrics (:data:`ARC_METRICS`); a run with a
kingmaking played on it (sim.studies.kingmaking: ``RUN/kingmaking/games.parquet``, one row per
sampled game) adds the **kingmaker index** (:data:`KINGMAKER_INDEX`) at 3 players and more: the
ratio of kingmade games over the sampled games that count, so that a game outside the sample
counts in neither sum. It is a *sampled* metric (:class:`SampledMetric`): its estimates and
paired differences are taken over the games of its sample (:func:`in_sample`; the sample is a
function of the game index alone, so two arms on the same games sample the same games). At 2
players the metric is absent: a seat that cannot win hands the game to the only other seat
whatever it does, so there is no kingmaker by definition, and a row of 0 would be a definition,
not a measurement.

A run with the landscape of its rules played on it (``RUN/landscape/``, an experiment's
``landscape:``) adds each valued option's ``option_value:<id>``, a sampled metric too
(reports.analysis.landscape_metrics).
"""
from __future__ import annotations

import functools
import json
import polars as pl
import yaml

from reports.analysis import game_arc, landscape_metrics, players, rundir
from reports.analysis.rundir import collect
from reports.analysis.metric import (BALANCE, MEAN, POINTS, RATE, RATIO, TURNS, Metric,  # noqa: F401  (the studies ask here)
                                     SampledMetric, counts_per_game, is_sampled, per_game_metric)
from sim import registry

# is a metric one player's win rate (first_player_win_rate, ...)? For the studies that select them all
is_player_win_rate = players.is_player_win_rate


def common_components(run: rundir.Run, n_players: int, bots: list[str]) -> tuple[pl.LazyFrame, list[Metric]]:
    """Per-game components from the standard seat and game frames, at ``n_players``."""
    seats, rounds = rundir.seat_frame(run)
    seats = seats.filter(pl.col("n_players") == n_players)
    games = rundir.game_frame(run).filter(pl.col("n_players") == n_players)
    aggregations = [pl.col("credit").filter(pl.col("position") == position).sum().alias(win_component(position))
                    for position in range(n_players)]
    aggregations += [(pl.col("score").max() - pl.col("score").min()).alias("score_spread"),
                     pl.col("score").mean().alias("mean_score")]
    for bot in bots:
        is_bot = pl.col("bot") == bot
        aggregations += [pl.col("credit").filter(is_bot).sum().alias(f"bot_wins:{bot}"),
                         is_bot.sum().alias(f"bot_seats:{bot}"),
                         pl.col("score").filter(is_bot).sum().alias(f"bot_score:{bot}")]
    aggregations += lead_aggregations(rounds)
    per_game = seats.group_by("game_index").agg(aggregations)
    outcome = games.select("game_index", pl.col("winning_score"), pl.col("margin"), pl.col("length"),
                           pl.col("tiebreak_decided").cast(pl.Int8), pl.col("shared_win").cast(pl.Int8))
    frame = per_game.join(outcome, on="game_index", how="inner")
    return frame, common_metrics(run.game, n_players, bots)


def common_metrics(game: str, n_players: int, bots: list[str]) -> list[Metric]:
    """The metrics every game has, at ``n_players`` with the pool ``bots``."""
    metrics = [Metric(players.win_rate_metric(position), players.win_rate_label(position), "seats", RATE,
                      (win_component(position),)) for position in range(n_players)]
    metrics += [Metric("balance", "balance (1 - largest gap between the players' win rates)", "seats", RATE,
                       tuple(win_component(position) for position in range(n_players)), BALANCE)]
    for bot in bots:
        metrics += [Metric(f"bot_win_rate:{bot}", f"{bot}'s win rate", "bots", RATE,
                           (f"bot_wins:{bot}", f"bot_seats:{bot}"), RATIO),
                    Metric(f"bot_score:{bot}", f"{bot}'s score", "bots", POINTS,
                           (f"bot_score:{bot}", f"bot_seats:{bot}"), RATIO)]
    metrics += [Metric("mean_score", "the mean score", "scores", POINTS, ("mean_score",)),
                Metric("score_spread", "the score spread (best - worst)", "scores", POINTS, ("score_spread",)),
                Metric("winning_score", "the winning score", "scores", POINTS, ("winning_score",)),
                Metric("margin", "the winning margin", "scores", POINTS, ("margin",)),
                Metric("game_length", f"the game length ({run_length_unit(game)})", "outcome", TURNS, ("length",)),
                Metric("tiebreak_rate", "the share of games decided by the final tie-break", "outcome", RATE,
                       ("tiebreak_decided",)),
                Metric("shared_win_rate", "the share of shared wins", "outcome", RATE, ("shared_win",))]
    metrics += [Metric("drama", "drama (the leader after a round does not win)", "outcome", RATE, ("drama",)),
                Metric("lead_changes", "lead changes (share of rounds after which the leader changes)",
                       "outcome", RATE, ("lead_changes",))]
    return metrics


def win_component(position: int) -> str:
    """The per-game component of a player's win rate: the win credit of the player at turn-order
    ``position`` (0 = the start player), whichever seat that is."""
    return f"win_position_{position}"


def run_length_unit(game: str) -> str:
    return registry.descriptor(game).length_unit


def lead_aggregations(rounds: list[str]) -> list[pl.Expr]:
    """Drama and lead changes of a game from the scores after each round (Ludii's definitions,
    comparison-notes.md): the leaders after a round are the seats with its top score;
    ``drama`` = share of rounds before the last whose leaders include no winner, ``lead_changes``
    = share of rounds after the first whose leaders differ from the round before."""
    if len(rounds) < 2:
        return []
    leaders = [((pl.col(column) == pl.col(column).max()).cast(pl.Int64)
                * pl.lit(2, dtype=pl.Int64).pow(pl.col("seat"))).sum() for column in rounds]
    winners = (pl.col("credit") > 0).cast(pl.Int64) * pl.lit(2, dtype=pl.Int64).pow(pl.col("seat"))
    winner_mask = winners.sum()
    drama = pl.sum_horizontal([((mask & winner_mask) == 0).cast(pl.Float64) for mask in leaders[:-1]]) / (len(rounds) - 1)
    changes = pl.sum_horizontal([(leaders[index] != leaders[index - 1]).cast(pl.Float64)
                                 for index in range(1, len(rounds))]) / (len(rounds) - 1)
    return [drama.alias("drama"), changes.alias("lead_changes")]


def game_module(game: str):
    """The game's metrics module: it declares the game's own per-game mechanics
    (``paired_mechanics(run, n_players)`` -> frame, ``paired_mechanics_metrics(n_players)``)."""
    return registry.descriptor(game).metrics()


ARC_METRICS = [
    Metric("decided_at", "the share of the game played when it was decided (the winner's win probability "
           "reaches 0.9 for good)", "arc", RATE, ("decided_at",)),
    Metric("comeback_rate", "the share of comebacks (the winner's win probability was below 0.2)", "arc", RATE,
           ("comeback",)),
    Metric("turn_lead_changes", "lead changes per turn (the seats with the highest win probability change)", "arc",
           RATE, ("lead_change_rate",)),
    Metric("turn_drama", "drama per turn (the leader's win probability minus the winner's)", "arc", RATE,
           ("turn_drama",)),
]


KINGMADE, KINGMAKING_SAMPLED = "kingmade", "kingmaking_sampled"
KINGMAKER_INDEX = SampledMetric(
    # the label is a headline's subject ("... moves the kingmaker index (...) from 22% to 20%"); the
    # module docstring and the README say why there is none at 2 players
    "kingmaker_index", "the kingmaker index (games a seat out of contention could decide)", "arc", RATE,
    (KINGMADE, KINGMAKING_SAMPLED), RATIO, sample=KINGMAKING_SAMPLED)
KINGMAKING_PLAYERS = 3      # the fewest players with a kingmaker: at 2 a seat that cannot win hands it on
# where sim.studies.kingmaking writes a run's per-game results, and the record of what they are of
KINGMAKING_GAMES_FILE = "games.parquet"
KINGMAKING_RECORD_FILE = "kingmaking.yaml"


def kingmaking_metrics(n_players: int) -> list[Metric]:
    """The kingmaker index at ``n_players`` (none at 2 players: no kingmaker by definition)."""
    return [KINGMAKER_INDEX] if n_players >= KINGMAKING_PLAYERS else []


def kingmaking_components(run: rundir.Run, n_players: int) -> pl.LazyFrame | None:
    """The kingmaking's per-game results as components (``kingmade``, ``kingmaking_sampled``: 1
    for a sampled game that counts), for a run with a kingmaking played on it whose record names
    this very run (one of an earlier run into the same directory is not read); None without one,
    at 2 players, or with no counted game at ``n_players``."""
    if n_players < KINGMAKING_PLAYERS:
        return None
    directory = run.path / game_arc.KINGMAKING_DIRECTORY
    games, record = directory / KINGMAKING_GAMES_FILE, directory / KINGMAKING_RECORD_FILE
    if not games.is_file() or not record.is_file():
        return None
    recorded = yaml.safe_load(record.read_text(encoding="utf-8")) or {}
    if recorded.get("run") != run_identity(run):
        return None
    frame = pl.read_parquet(games).filter((pl.col("n_players") == n_players) & pl.col("counted"))
    if frame.is_empty():
        return None
    return frame.lazy().select(pl.col("game_index").cast(pl.Int64), pl.col("kingmade").cast(pl.Float64).alias(KINGMADE),
                               pl.lit(1.0).alias(KINGMAKING_SAMPLED))


def in_sample(metric: Metric, frame: pl.DataFrame,
              reference: pl.DataFrame | None = None) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """``frame`` (and ``reference``, the same games row for row) as a metric is estimated on: for
    a sampled metric the games in its sample (in both, when paired: the sample is the same for
    the same games, and a game one arm could not count is left out of both; a reference without
    the sample, e.g. no kingmaking counted there, gives None: nothing to pair with); else unchanged."""
    if not is_sampled(metric) or metric.sample not in frame.columns:
        return frame, reference
    if reference is None or metric.sample not in reference.columns:
        return frame.filter(frame[metric.sample] > 0), None
    keep = (frame[metric.sample] > 0) & (reference[metric.sample] > 0)
    return frame.filter(keep), reference.filter(keep)


def arc_components(run: rundir.Run, n_players: int) -> pl.LazyFrame | None:
    """The game arc's per-game values (reports.analysis.game_arc, from the run's own win-probability
    model) as components, for a run with a standings table; None without one."""
    if not game_arc.has_standings(run):
        return None
    arc = arc_per_game(str(run.path.resolve()), run_identity(run))
    if arc.is_empty():
        return None
    return arc.lazy().filter(pl.col("n_players") == n_players).select(
        "game_index", "decided_at", pl.col("comeback").cast(pl.Float64), "lead_change_rate",
        pl.col("drama").alias("turn_drama"))


@functools.lru_cache(maxsize=8)
def arc_per_game(path: str, identity: str) -> pl.DataFrame:
    """``game_arc.per_game`` of a finished run, once: a study asks it at each player count and
    again for each cell that takes the run as its reference, and each call would fit the
    models and read the standings anew."""
    return game_arc.per_game(rundir.load_run(path))


def run_identity(run: rundir.Run) -> str:
    """What tells a finished run's tables apart (a run resumed or played again into the same
    directory gets another): its identity, when it finished and its tables' checksums."""
    manifest = run.manifest
    return json.dumps([manifest.get("run_hash"), (manifest.get("timings") or {}).get("finished_at"),
                       manifest.get("files")], sort_keys=True, default=str)


# ----------------------------------------------------------------------------- the options' uses

OPTION_USES = "option_uses:"       # + an option's id (configs/landscape/<game>.yaml)


@functools.cache
def counted_options(game: str) -> tuple:
    """The options of the game's landscape inventory (sim.studies.landscape_options) whose uses a
    table counts; none for a game without an inventory."""
    from sim.studies.landscape_options import load_options, options_path   # the inventory is the landscape's

    if not options_path(game).is_file():
        return ()
    return tuple(option for option in load_options(game).options if option.counted)


def option_metrics(game: str) -> list[Metric]:
    """Each counted option's uses per game (issue 41: a variant that revives an option the bots
    never take, or kills one, shows it in a comparison, paired game by game)."""
    return [per_game_metric(f"{OPTION_USES}{option.id}", f"{option.name} uses per game", f"{OPTION_USES}{option.id}")
            for option in counted_options(game)]


def option_components(run: rundir.Run, n_players: int) -> pl.LazyFrame | None:
    """Per game: each counted option's uses over its seats (every game at ``n_players`` a row)."""
    options = counted_options(run.game)
    if not options:
        return None
    games = run.scan("games").filter(pl.col("n_players") == n_players).select("game_index")
    return counts_per_game(run.scan("seats"), games, [pl.sum_horizontal(*option.take_columns).sum()
                                                      .alias(f"{OPTION_USES}{option.id}") for option in options])


def declared_metrics(game: str, players: list[int], bots: list[str]) -> list[Metric]:
    """Every metric of a comparison of ``game`` at these player counts (no data needed; the game
    arc's only where the arms record standings, the kingmaker index at 3 players and more only
    where the experiment asks for kingmaking: the studies refuse a request for it without one)."""
    found: dict[str, Metric] = {}
    for n_players in players:
        for metric in (common_metrics(game, n_players, bots) + game_module(game).paired_mechanics_metrics(n_players)
                       + option_metrics(game) + ARC_METRICS + kingmaking_metrics(n_players)):
            found.setdefault(metric.name, metric)
    return list(found.values())


def requestable_metrics(game: str, players: list[int], bots: list[str]) -> list[Metric]:
    """What a study's request (--metrics, a target, a report metric) may name: the declared
    metrics, and the kingmaker index even at 2 players only, so that a request for it there is
    refused with the reason (no kingmaker by definition) rather than as an unknown metric."""
    metrics = declared_metrics(game, players, bots)
    return metrics if KINGMAKER_INDEX in metrics else metrics + [KINGMAKER_INDEX]


def per_game(run_dirs: list, n_players: int, bots: list[str]) -> tuple[pl.DataFrame, list[Metric]]:
    """Every metric's components, one row per game (sorted by game_index), over the runs
    ``run_dirs`` (a comparison's batches of one arm), and the metrics."""
    frames, found = [], {}
    for path in run_dirs:
        run = rundir.load_run(path)
        frame, metrics = common_components(run, n_players, bots)
        module = game_module(run.game)
        frame = frame.join(module.paired_mechanics(run, n_players), on="game_index", how="left")
        metrics = metrics + module.paired_mechanics_metrics(n_players)
        options = option_components(run, n_players)
        if options is not None:
            frame = frame.join(options, on="game_index", how="left")
            metrics = metrics + option_metrics(run.game)
        arc = arc_components(run, n_players)
        if arc is not None:
            frame = frame.join(arc, on="game_index", how="left")
            metrics = metrics + ARC_METRICS
        kingmaking = kingmaking_components(run, n_players)
        if kingmaking is not None:       # games outside the sample: 0 kingmade of 0 sampled (filled below)
            frame = frame.join(kingmaking, on="game_index", how="left")
            metrics = metrics + [KINGMAKER_INDEX]
        options = landscape_metrics.option_components(landscape_metrics.played_landscape_of(run), n_players)
        if options is not None:          # a game outside the options' sample: 0 lost of 0 sampled
            frame = frame.join(options[0], on="game_index", how="left")
            metrics = metrics + options[1]
        frames.append(frame)
        for metric in metrics:       # every run's metrics (a batch without a kingmaking has none of its own)
            found.setdefault(metric.name, metric)
    metrics = list(found.values())
    columns = sorted({component for metric in metrics for component in metric.components})
    table = collect(pl.concat(frames, how="diagonal_relaxed")).sort("game_index")
    table = table.with_columns([pl.col(column).cast(pl.Float64).fill_null(0.0) for column in columns])
    return table.select("game_index", *columns), metrics
