"""The game arc (issue 40): when is a game decided, and how often does it turn round?

Read from the opt-in ``standings`` table: one row per game and *position*, in game order
(``game_index``, ``turn`` = the position after that turn, ``acting_seat``, null on the rows
written after a round's end phases and after the end-of-game scoring, and each seat's
``score_seat_s`` and ``position_value_seat_s`` = points as the search bot values the position:
score plus what is held that will score), and the games table's ``n_players`` and
``winner_mask``. Any other column is not used.

**Positions.** The last row of a game is its final standing: the result is known there, so it is
left out of the model and of every measure below (``final`` positions; a measure that needs a
value there takes the winner's probability as 1).

**Win-probability model** (balance-questions.md, "When is a game decided?"): per player count,
a logistic regression (statsmodels GLM, binomial family) of a seat's win credit (1 for a sole
winner, 1/k to each of k sharing a win, else 0) on features relative to the other seats at that
moment, so that one model serves every seat: the share of the game played (``turn`` / the game's
last turn), the score gap and the position-value gap to the best other seat, and the two gaps
times the share played (a lead late in the game says more than the same lead early). The
model gives each seat a probability on its own; the probabilities of the seats of one position
are then **divided by their sum**, so that they add up to 1 like the win credits they predict.

It is fitted on a deterministic sample of at most :data:`FIT_GAMES` games per player count
(:func:`sample_point`: game indices spread over [0, 1) by Fibonacci hashing, so the sample is
not tied to any period of the run's game order, e.g. player counts or match-ups taking turns);
the lowest fifth of the sample's points (:data:`HELD_OUT_SHARE`) is held out and the model is
judged there: the Brier score (mean squared error of the normalised probabilities against the
win credits, with a bootstrap interval over games) beside that of always predicting the base
rate 1/n, and a reliability curve over the deciles of the predicted probability (mean prediction
against the observed win credit, bootstrap intervals over games: the positions of one game share
its outcome, so they are not independent).

**Per game** (:func:`per_game`, keyed by game_index; the winner's probability of a shared win is
the winners' combined probability, the chance that the win goes to one of them):

- ``decided_at``: the share of the game played at the first position from which the winner's
  probability stays at or above :data:`DECIDED` (0.9) up to the final standing; 1.0 when the
  position before the final standing is below it (the game is decided by its last turn or the
  final scoring). Ludii's ``DecisivenessMoves`` (Evaluation/src/metrics/single/stateEvaluation/
  decisiveness/DecisivenessMoves.java) measures the moves played before a winner's evaluation
  first exceeds a threshold, over all moves; here the threshold is a probability and the
  winner must stay above it (a game that looked decided and turned round is not decided).
  A game decided from its first recorded position has ``decided_at`` = its first turn's share.
- ``comeback``: the winner's probability was below :func:`comeback_threshold` at some position:
  0.2 at 2 players (the issue's threshold), the same 40% of the fair share 1/n at more (0.2 at 5
  players would be the fair share itself: every winner would have "come back" from a level start).
- ``lead_changes``: Ludii's ``LeadChange`` (Evaluation/src/metrics/single/stateEvaluation/
  LeadChange.java) on the model's probabilities: the leaders of a position are the seats with
  the highest probability (ties included); a lead change is a position whose set of leaders
  differs from the position before. Ludii also counts the first position (against an empty set)
  and divides by the number of moves; here the first position is not a change (as the per-round
  ``lead_changes`` of reports.analysis.paired_metrics) and ``lead_change_rate`` divides the count
  by the number of transitions (positions - 1), so that it is a share, 0 for a game that never
  changes leader.
- ``drama``: Ludii's ``Drama`` (Evaluation/src/metrics/multiple/metrics/Drama.java, after Browne
  2008), its average over the game: at each position, the highest probability of any seat minus
  the winner's probability (averaged over the winners of a shared win), averaged over the game's
  positions; 0 when the winner always leads.

**Per seat** (:func:`seats_out_of_contention`): ``out_of_contention_turn`` is the first turn from
which the seat's probability stays below :data:`OUT_OF_CONTENTION` (0.05) up to the final
standing (null: in contention at the end).

Memory stays flat: the sample is read in slices of game indices, and the per-game values are
computed slice by slice (:func:`slices`, :func:`analyse` keeps only sums and histograms).
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl
import pyarrow.parquet
from scipy import stats as scipy_stats

from reports.analysis import metrics_common, stats
from reports.analysis.rundir import Run, collect, games_slice
from sim.core import results, table_schema
from sim.core.engine import ConfigError

TABLE = "standings"
NEEDED_COLUMNS = ("game_index", "turn", "score_seat_0", "position_value_seat_0")

DECIDED = 0.9                 # the winner's probability from which a game counts as decided
COMEBACK = 0.2                # at 2 players, a winner whose probability was ever below this came back
COMEBACK_SHARE = COMEBACK * 2  # ... and at n players, below this share of the fair 1/n
OUT_OF_CONTENTION = 0.05      # a seat whose probability stays below this is out of contention
LEADER_TOLERANCE = 1e-9       # seats this close to the highest probability share the lead

FIT_GAMES = 5000              # games per player count the model sees (fitted and held out)
HELD_OUT_SHARE = 0.2          # the share of those games held out to judge it
MIN_FIT_GAMES = 10            # fewer fitting games than this: no model at that player count
FEATURES = ("intercept", "share_played", "score_gap", "value_gap", "score_gap_x_share", "value_gap_x_share")

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 400
BOOTSTRAP_SEED = 40           # the bootstrap's own seed: the report is the same every time
RELIABILITY_BINS = 10         # deciles of the predicted probability

SHARE_BINS = 20               # the fan chart's bins of the share of the game played (5% each)
PROBABILITY_STEP = 0.005      # the fan chart's resolution of a probability
SHARE_DIGITS = 3              # decided-at and out-of-contention shares are counted to 0.001

STANDINGS_ROWS_PER_SLICE = 500_000   # rows (positions) of the standings table read at a time

FIBONACCI_MULTIPLIER = 2654435761      # about 2^32 / golden ratio (Knuth's multiplicative hashing)
HASH_RANGE = 2 ** 32


# ----------------------------------------------------------------------------- reading positions

def has_standings(run: Run) -> bool:
    return run.has(TABLE)


def check_standings(run: Run) -> None:
    """ConfigError (one line) unless the standings table has the columns the arc reads."""
    found = run.columns(TABLE)
    missing = [column for column in NEEDED_COLUMNS if column not in found]
    if missing:
        raise ConfigError(f"{run.tables[TABLE]}: expected columns {', '.join(NEEDED_COLUMNS)}, "
                          f"found {', '.join(found)} (missing {', '.join(missing)})")


def sample_point(game_index) -> np.ndarray:
    """Each game index's point in [0, 1): Fibonacci hashing spreads consecutive indices evenly
    over the interval, whatever period the run's game order has, so "the games below f" is a
    deterministic sample of a share f of any player count or match-up."""
    hashed = (np.asarray(game_index, dtype=np.uint64) * np.uint64(FIBONACCI_MULTIPLIER)) % np.uint64(HASH_RANGE)
    return hashed.astype(np.float64) / HASH_RANGE


def sample_point_expression() -> pl.Expr:
    """:func:`sample_point` as a polars expression (the same numbers)."""
    hashed = (pl.col("game_index").cast(pl.UInt64) * FIBONACCI_MULTIPLIER) % HASH_RANGE
    return hashed.cast(pl.Float64) / HASH_RANGE


@dataclass
class Positions:
    """The non-final and final positions of some games of one player count, in game order:
    arrays of one entry per position, or per position and seat (columns = seats 0 .. n - 1)."""
    n_players: int
    game_index: np.ndarray       # (P,)
    turn: np.ndarray             # (P,)
    share_played: np.ndarray     # (P,) turn / the game's last turn
    final: np.ndarray            # (P,) the game's final standing
    score: np.ndarray            # (P, n)
    position_value: np.ndarray   # (P, n)
    winner: np.ndarray           # (P, n) bool: the seat won the game (alone or shared)

    @property
    def credit(self) -> np.ndarray:
        """(P, n) win credit: 1 / number of winners for each winner, else 0."""
        winners = self.winner.sum(axis=1, keepdims=True)
        return np.where(self.winner, 1.0 / np.maximum(winners, 1), 0.0)

    def select(self, chosen: np.ndarray) -> "Positions":
        return Positions(self.n_players, self.game_index[chosen], self.turn[chosen], self.share_played[chosen],
                         self.final[chosen], self.score[chosen], self.position_value[chosen], self.winner[chosen])


def slices(run: Run) -> list[tuple[int, int]]:
    """Consecutive game-index ranges holding about :data:`STANDINGS_ROWS_PER_SLICE` standings rows."""
    if run.game_range is None:
        return []
    first, last = run.game_range
    games = last - first + 1
    rows = sum(pyarrow.parquet.read_metadata(part).num_rows for part in results.table_files(run.tables[TABLE]))
    per_slice = max(1, int(STANDINGS_ROWS_PER_SLICE * games // max(rows, 1)))
    return [(start, min(last, start + per_slice - 1)) for start in range(first, last + 1, per_slice)]


def read_positions(run: Run, first: int, last: int, fractions: dict[int, float] | None = None) -> list[Positions]:
    """The positions of games ``first .. last`` (only those whose :func:`sample_point` is below
    ``fractions[n_players]`` when given), one :class:`Positions` per player count."""
    in_slice = pl.col("game_index").is_between(first, last)
    if fractions is not None:     # no player count samples more: the other rows are not read on
        in_slice = in_slice & (sample_point_expression() < max(fractions.values(), default=0.0))
    seat_columns = [column for column in run.columns(TABLE) if column.startswith(SEAT_COLUMN_PREFIXES)]
    with games_slice(first, last):
        games = run.scan("games").filter(in_slice).select("game_index", pl.col("n_players").cast(pl.Int32),
                                                          pl.col("winner_mask").cast(pl.Int64))
        if fractions is not None:
            wanted = pl.col("n_players").replace_strict(fractions, default=0.0, return_dtype=pl.Float64)
            games = games.filter(sample_point_expression() < wanted)
        # the row number keeps the table's game order through the join
        standings = (run.scan(TABLE).filter(in_slice)
                     .select("game_index", pl.col("turn").cast(pl.Int32),
                             *(pl.col(column).cast(pl.Float64) for column in seat_columns))
                     .with_row_index("row"))
        frame = collect(standings.join(games, on="game_index", how="inner"))
    frame = (frame.sort("row")
             .with_columns((pl.col("turn") / pl.col("turn").max().over("game_index")).alias("share_played"),
                           (pl.col("row") == pl.col("row").max().over("game_index")).alias("final")))
    return [_positions_of(run, part, int(n_players))
            for (n_players,), part in frame.group_by("n_players", maintain_order=True)]


SEAT_COLUMN_PREFIXES = ("score_seat_", "position_value_seat_")


def _positions_of(run: Run, frame: pl.DataFrame, n_players: int) -> Positions:
    """One player count's rows as position arrays; ConfigError when a seat's standing is missing."""
    wanted = [table_schema.standing_seat_columns(column, n_players) for column in ("score", "position_value")]
    for column in (name for names in wanted for name in names):
        missing = frame[column].is_null() if column in frame.columns else pl.Series([True] * frame.height)
        if missing.any():
            game = frame["game_index"].filter(missing)[0]
            raise ConfigError(f"{run.tables[TABLE]}: game {game}: expected a {column} at every position "
                              f"({n_players} seats), found none")
    seats = np.arange(n_players)
    winner_mask = frame["winner_mask"].to_numpy()
    return Positions(n_players, frame["game_index"].to_numpy(), frame["turn"].to_numpy(),
                     frame["share_played"].to_numpy(), frame["final"].to_numpy(),
                     frame.select(wanted[0]).to_numpy(), frame.select(wanted[1]).to_numpy(),
                     ((winner_mask[:, None] >> seats) & 1) == 1)


# ----------------------------------------------------------------------------- the model

def best_of_the_others(values: np.ndarray) -> np.ndarray:
    """(P, n): for each seat, the highest value of the other seats at that position."""
    n_players = values.shape[1]
    return np.stack([np.delete(values, seat, axis=1).max(axis=1) for seat in range(n_players)], axis=1)


def features(positions: Positions) -> np.ndarray:
    """The model's design matrix: one row per position and seat (position-major), columns
    :data:`FEATURES`."""
    share = np.repeat(positions.share_played, positions.n_players)
    score_gap = (positions.score - best_of_the_others(positions.score)).ravel()
    value_gap = (positions.position_value - best_of_the_others(positions.position_value)).ravel()
    return np.column_stack([np.ones_like(share), share, score_gap, value_gap, score_gap * share, value_gap * share])


@dataclass
class WinProbabilityModel:
    """A fitted model of one player count (module docstring)."""
    n_players: int
    coefficients: np.ndarray
    fit_games: int
    fit_positions: int

    def probabilities(self, positions: Positions) -> np.ndarray:
        """(P, n) each seat's probability of winning, the seats of a position summing to 1."""
        linear = features(positions) @ self.coefficients
        alone = (1.0 / (1.0 + np.exp(-np.clip(linear, -700, 700)))).reshape(-1, positions.n_players)
        return alone / alone.sum(axis=1, keepdims=True)

    def coefficient_table(self) -> pd.DataFrame:
        return pd.DataFrame({"n_players": self.n_players, "feature": FEATURES, "coefficient": self.coefficients})


def fit_model(positions: Positions) -> WinProbabilityModel:
    """The logistic model of one player count, fitted on ``positions`` (final standings left
    out) with statsmodels' binomial GLM; the win credit is the response (a shared win is a
    fraction). A feature that never varies, or repeats another (a game whose position value is
    its score), leaves the fit rank-deficient: the least-squares steps of IRLS then take the
    smallest solution."""
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

    playing = positions.select(~positions.final)
    with warnings.catch_warnings():   # late positions nearly separate winners from losers: expected
        warnings.simplefilter("ignore", PerfectSeparationWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = sm.GLM(playing.credit.ravel(), features(playing), family=sm.families.Binomial()).fit()
    return WinProbabilityModel(positions.n_players, np.asarray(fit.params, dtype=np.float64),
                               int(np.unique(playing.game_index).size), int(len(playing.game_index)))


@dataclass
class Calibration:
    """How far to trust a model: its held-out Brier score and reliability curve."""
    n_players: int
    held_out_games: int
    held_out_positions: int
    brier: float
    brier_low: float
    brier_high: float
    base_rate_brier: float        # always predicting 1 / n_players
    reliability: pd.DataFrame     # bin, mean_predicted, observed, observed_low, observed_high, positions, games

    @property
    def skill(self) -> float:
        """Brier skill score: 1 - Brier / base-rate Brier (0: no better than 1/n, 1: perfect)."""
        return 1.0 - self.brier / self.base_rate_brier if self.base_rate_brier > 0 else math.nan

    @property
    def bins_within(self) -> int:
        """Reliability bins whose interval holds the mean prediction."""
        table = self.reliability
        return int(((table["observed_low"] <= table["mean_predicted"])
                    & (table["mean_predicted"] <= table["observed_high"])).sum())


def ratio_interval(numerators: np.ndarray, denominators: np.ndarray, rate: bool = False) -> tuple[float, float]:
    """Percentile bootstrap interval (scipy.stats.bootstrap, resampling games) of
    sum(numerators) / sum(denominators), one entry per game; NaN with fewer than 2 games.
    ``rate``: the ratio is a win rate in [0, 1]."""
    if len(numerators) < 2:
        return math.nan, math.nan
    ratios = numerators / denominators
    if np.all(ratios == ratios[0]):
        if not rate:
            return float(ratios[0]), float(ratios[0])
        # every game alike (e.g. all lost): resampling has no spread to show, so the games are
        # taken as independent trials (Wilson), which still says how far such a rate could be
        low, high = stats.wilson_interval(ratios[0] * len(ratios), len(ratios), CONFIDENCE)
        return float(low), float(high)
    result = scipy_stats.bootstrap(
        (numerators, denominators), lambda top, bottom, axis: top.sum(axis=axis) / bottom.sum(axis=axis),
        paired=True, vectorized=True, n_resamples=BOOTSTRAP_RESAMPLES, confidence_level=CONFIDENCE,
        method="percentile", rng=np.random.default_rng(BOOTSTRAP_SEED))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def per_game_sums(game_index: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Sum of ``values`` per game (games in order of first appearance of their index)."""
    _, inverse = np.unique(game_index, return_inverse=True)
    return np.bincount(inverse, weights=values)


def calibrate(model: WinProbabilityModel, positions: Positions) -> Calibration:
    """Brier score and reliability curve of ``model`` on the held-out ``positions``."""
    playing = positions.select(~positions.final)
    predicted = model.probabilities(playing).ravel()
    observed = playing.credit.ravel()
    games = np.repeat(playing.game_index, playing.n_players)
    squared = (predicted - observed) ** 2
    ones = np.ones_like(predicted)
    brier = float(squared.mean()) if len(squared) else math.nan
    low, high = ratio_interval(per_game_sums(games, squared), per_game_sums(games, ones)) if len(squared) else (math.nan,) * 2
    base = float(((1.0 / playing.n_players - observed) ** 2).mean()) if len(squared) else math.nan
    return Calibration(playing.n_players, int(np.unique(games).size), int(len(playing.game_index)), brier, low, high,
                       base, reliability_curve(predicted, observed, games))


def reliability_curve(predicted: np.ndarray, observed: np.ndarray, games: np.ndarray) -> pd.DataFrame:
    """Per decile of the predicted probability: its mean prediction, the observed mean win
    credit with a bootstrap interval over the games that have a position in the bin."""
    columns = ["bin", "mean_predicted", "observed", "observed_low", "observed_high", "positions", "games"]
    if len(predicted) == 0:
        return pd.DataFrame(columns=columns)
    bins = pd.qcut(predicted, RELIABILITY_BINS, labels=False, duplicates="drop")
    rows = []
    for number in np.unique(bins):
        chosen = bins == number
        successes = per_game_sums(games[chosen], observed[chosen])
        counts = per_game_sums(games[chosen], np.ones(chosen.sum()))
        low, high = ratio_interval(successes, counts, rate=True)
        rows.append({"bin": int(number) + 1, "mean_predicted": float(predicted[chosen].mean()),
                     "observed": float(observed[chosen].mean()), "observed_low": low, "observed_high": high,
                     "positions": int(chosen.sum()), "games": int(len(counts))})
    return pd.DataFrame(rows, columns=columns)


@dataclass
class FittedModels:
    """Per player count: the model (absent when too few games) and its held-out calibration."""
    models: dict[int, WinProbabilityModel] = field(default_factory=dict)
    calibrations: dict[int, Calibration] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)   # games of the run per player count


def games_per_player_count(run: Run) -> dict[int, int]:
    frame = metrics_common.sum_batches(run.scan("games"), lambda batch, _: batch.group_by("n_players").agg(
        pl.len().alias("games")), ["n_players"])
    return {int(row.n_players): int(row.games) for row in frame.itertuples()}


def fit_models(run: Run, fit_games: int = FIT_GAMES) -> FittedModels:
    """Fit each player count's model on its sample of at most ``fit_games`` games and judge it on
    the held-out part (module docstring), reading the standings slice by slice."""
    check_standings(run)
    fitted = FittedModels(games=games_per_player_count(run))
    fractions = {n_players: min(1.0, fit_games / games) for n_players, games in fitted.games.items()}
    sampled: dict[int, list[Positions]] = {}
    for first, last in slices(run):
        for positions in read_positions(run, first, last, fractions):
            sampled.setdefault(positions.n_players, []).append(positions)
    for n_players, parts in sorted(sampled.items()):
        positions = concatenate(parts)
        held_out = sample_point(positions.game_index) < HELD_OUT_SHARE * fractions[n_players]
        fitting = positions.select(~held_out)
        if np.unique(fitting.game_index).size < MIN_FIT_GAMES or fitting.final.all():
            continue
        model = fit_model(fitting)
        fitted.models[n_players] = model
        if held_out.any():
            fitted.calibrations[n_players] = calibrate(model, positions.select(held_out))
    return fitted


def concatenate(parts: list[Positions]) -> Positions:
    return Positions(parts[0].n_players, *(np.concatenate([getattr(part, name) for part in parts])
                                           for name in ("game_index", "turn", "share_played", "final", "score",
                                                        "position_value", "winner")))


# ----------------------------------------------------------------------------- per game and per seat

def position_frame(positions: Positions, probabilities: np.ndarray) -> pl.DataFrame:
    """One row per non-final position: game_index, n_players, position (0-based within the game),
    turn, share_played, winner_probability (the winners' combined probability), leader_probability
    (the highest), leaders (bit s set: seat s has the highest probability), behind (the highest
    probability minus the winner's, averaged over the winners: Ludii's drama at that position)."""
    playing = ~positions.final
    probabilities, winner = probabilities[playing], positions.winner[playing]
    highest = probabilities.max(axis=1)
    leaders = (probabilities >= highest[:, None] - LEADER_TOLERANCE).astype(np.int64) @ (
        np.int64(2) ** np.arange(positions.n_players, dtype=np.int64))
    winners = np.maximum(winner.sum(axis=1), 1)
    behind = ((highest[:, None] - probabilities) * winner).sum(axis=1) / winners
    game_index = positions.game_index[playing]
    frame = pl.DataFrame({"game_index": game_index, "n_players": np.full(len(game_index), positions.n_players, np.int32),
                          "turn": positions.turn[playing], "share_played": positions.share_played[playing],
                          "winner_probability": (probabilities * winner).sum(axis=1),
                          "leader_probability": highest, "leaders": leaders, "behind": behind})
    return frame.with_columns(pl.int_range(pl.len()).over("game_index").alias("position"))


def comeback_threshold(n_players):
    """The probability a winner must have fallen below to have come back (module docstring)."""
    return COMEBACK_SHARE / n_players


def first_after_last(condition: pl.Expr, column: str) -> pl.Expr:
    """In a group of positions in order: ``column`` at the first position after the last one
    where ``condition`` holds (at the first position when it never holds; null when it holds at
    the last), i.e. where a run of positions without ``condition`` begins that lasts to the end."""
    last_holding = pl.col("position").filter(condition).max().fill_null(-1)
    return pl.col(column).filter(pl.col("position") > last_holding).first()


def games_arc(frame: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """Per game (every game of ``games``: game_index, n_players) from its :func:`position_frame`
    rows: decided_at, decided_turn, comeback, lowest_winner_probability, lead_changes,
    lead_change_rate, drama, positions (module docstring). A game with no position before its
    final standing is decided at 1.0, without comeback, lead change or drama."""
    not_decided = pl.col("winner_probability") < DECIDED
    per_game = frame.group_by("game_index", maintain_order=True).agg(
        first_after_last(not_decided, "share_played").alias("decided_at"),
        first_after_last(not_decided, "turn").alias("decided_turn"),
        pl.col("winner_probability").min().alias("lowest_winner_probability"),
        (pl.col("leaders") != pl.col("leaders").shift(1)).sum().cast(pl.Int32).alias("lead_changes"),
        pl.col("behind").mean().alias("drama"),
        pl.len().cast(pl.Int32).alias("positions"))
    arc = games.join(per_game, on="game_index", how="left", maintain_order="left").with_columns(
        pl.col("decided_at").fill_null(1.0),
        (pl.col("lowest_winner_probability") < comeback_threshold(pl.col("n_players"))).fill_null(False).alias("comeback"),
        pl.col("lead_changes").fill_null(0),
        pl.col("drama").fill_null(0.0),
        pl.col("positions").fill_null(0))
    rate = pl.when(pl.col("positions") > 1).then(pl.col("lead_changes") / (pl.col("positions") - 1)).otherwise(0.0)
    return arc.with_columns(rate.alias("lead_change_rate")).select(
        "game_index", "n_players", "decided_at", "decided_turn", "comeback", "lowest_winner_probability",
        "lead_changes", "lead_change_rate", "drama", "positions")


def seats_arc(positions: Positions, probabilities: np.ndarray) -> pl.DataFrame:
    """Per game and seat: is_winner, out_of_contention_turn and out_of_contention_share (the
    first position from which the seat's probability stays below :data:`OUT_OF_CONTENTION` to
    the final standing; null when it is in contention at the end)."""
    playing = ~positions.final
    n_players = positions.n_players
    long = pl.DataFrame({
        "game_index": np.repeat(positions.game_index[playing], n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int32), int(playing.sum())),
        "turn": np.repeat(positions.turn[playing], n_players),
        "share_played": np.repeat(positions.share_played[playing], n_players),
        "probability": probabilities[playing].ravel(),
        "is_winner": positions.winner[playing].ravel()})
    long = long.with_columns(pl.int_range(pl.len()).over("game_index", "seat").alias("position"))
    in_contention = pl.col("probability") >= OUT_OF_CONTENTION
    return long.group_by("game_index", "seat", maintain_order=True).agg(
        pl.col("is_winner").first(),
        first_after_last(in_contention, "turn").alias("out_of_contention_turn"),
        first_after_last(in_contention, "share_played").alias("out_of_contention_share"))


@dataclass
class SliceArc:
    positions: pl.DataFrame   # position_frame rows of every player count
    games: pl.DataFrame       # games_arc rows
    seats: pl.DataFrame       # seats_arc rows


def arc_of(positions: Positions, probabilities: np.ndarray) -> SliceArc:
    """Everything the arc needs from some games of one player count and the probabilities of
    their seats at each position (a model's, or hand-made in the tests)."""
    frame = position_frame(positions, probabilities)
    games = pl.DataFrame({"game_index": np.unique(positions.game_index)}).with_columns(
        pl.lit(positions.n_players, dtype=pl.Int32).alias("n_players"))
    return SliceArc(frame, games_arc(frame, games), seats_arc(positions, probabilities))


def slice_arc(run: Run, models: FittedModels, first: int, last: int) -> SliceArc | None:
    """The arc of games ``first .. last`` of the player counts that have a model."""
    parts = [arc_of(positions, models.models[positions.n_players].probabilities(positions))
             for positions in read_positions(run, first, last) if positions.n_players in models.models]
    if not parts:
        return None
    return SliceArc(*(pl.concat([getattr(part, name) for part in parts]) for name in ("positions", "games", "seats")))


def per_game(run: Run, models: FittedModels | None = None, first: int | None = None,
             last: int | None = None) -> pl.DataFrame:
    """Per-game values keyed by game_index (sorted): n_players, decided_at, decided_turn,
    comeback, lowest_winner_probability, lead_changes, lead_change_rate, drama, positions; for
    games ``first .. last`` (default: the whole run) of the player counts that have a model
    (``models``: fitted on the run when not given). For paired metrics (common random numbers)."""
    return _gathered(run, models, first, last, "games")


def seats_out_of_contention(run: Run, models: FittedModels | None = None, first: int | None = None,
                            last: int | None = None) -> pl.DataFrame:
    """Per game and seat (sorted): is_winner, out_of_contention_turn, out_of_contention_share."""
    return _gathered(run, models, first, last, "seats")


def _gathered(run: Run, models, first, last, which: str) -> pl.DataFrame:
    models = models if models is not None else fit_models(run)
    low, high = run.game_range or (0, -1)
    first, last = max(low, first if first is not None else low), min(high, last if last is not None else high)
    parts = []
    for start, end in slices(run):
        if end >= first and start <= last:
            arc = slice_arc(run, models, max(start, first), min(end, last))
            if arc is not None:
                parts.append(getattr(arc, which))
    keys = ["game_index"] + (["seat"] if which == "seats" else [])
    return pl.concat(parts).sort(keys) if parts else pl.DataFrame()


# ----------------------------------------------------------------------------- the run's summaries

@dataclass
class GameArc:
    """What the report's "Game arc" section shows (all small tables)."""
    fitted: FittedModels
    summary: pd.DataFrame          # per player count (see summarise)
    decided_at: pd.DataFrame       # n_players, decided_at, games, cumulative_share
    fan: pd.DataFrame              # n_players, share_played, curve, median, median_low, median_high, q25, q75, games
    sentences: dict[int, str]      # the plain sentence per player count


def analyse(run: Run) -> GameArc:
    """Fit the models, then go through the run slice by slice keeping only counts, sums and
    histograms; derive the summaries with intervals."""
    fitted = fit_models(run)
    tallies = Tallies()
    for first, last in slices(run):
        arc = slice_arc(run, fitted, first, last)
        if arc is not None:
            tallies.add(arc)
    summary, decided = tallies.summary()
    fan = tallies.fan()
    sentences = {int(row.n_players): plain_sentence(row) for row in summary.itertuples()}
    return GameArc(fitted, summary, decided, fan, sentences)


def rounded_share(column: str) -> pl.Expr:
    return pl.col(column).round(SHARE_DIGITS)


class Tallies:
    """Sums, counts and histograms of the per-game values, added up slice by slice."""

    def __init__(self):
        self.parts: dict[str, list[pd.DataFrame]] = {"totals": [], "decided": [], "fan": [], "out": []}

    def add(self, arc: SliceArc) -> None:
        games = arc.games
        self.parts["totals"].append(games.group_by("n_players").agg(
            pl.len().alias("games"), pl.col("comeback").sum().alias("comebacks"),
            pl.col("lead_changes").sum().cast(pl.Float64).alias("lead_changes_sum"),
            (pl.col("lead_changes").cast(pl.Float64) ** 2).sum().alias("lead_changes_squares"),
            pl.col("drama").sum().alias("drama_sum"), (pl.col("drama") ** 2).sum().alias("drama_squares")).to_pandas())
        self.parts["decided"].append(games.group_by("n_players", rounded_share("decided_at")).agg(
            pl.len().alias("games")).to_pandas())
        losers = arc.seats.filter(~pl.col("is_winner")).join(games.select("game_index", "n_players"), on="game_index")
        self.parts["out"].append(losers.group_by("n_players", rounded_share("out_of_contention_share")).agg(
            pl.len().alias("seats")).to_pandas())
        self.parts["fan"].append(fan_histogram(arc.positions).to_pandas())

    def summed(self, name: str, keys: list[str]) -> pd.DataFrame:
        frame = pd.concat(self.parts[name], ignore_index=True)
        return frame.groupby(keys, as_index=False, dropna=False).sum().sort_values(keys).reset_index(drop=True)

    def summary(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        if not self.parts["totals"]:
            return pd.DataFrame(columns=SUMMARY_COLUMNS), pd.DataFrame(columns=["n_players", "decided_at", "games",
                                                                                "cumulative_share"])
        totals = self.summed("totals", ["n_players"])
        decided = self.summed("decided", ["n_players", "decided_at"])
        decided["cumulative_share"] = decided.groupby("n_players")["games"].cumsum() / decided.groupby(
            "n_players")["games"].transform("sum")
        out = self.summed("out", ["n_players", "out_of_contention_share"])
        rows = []
        for total in totals.itertuples():
            n_players = int(total.n_players)
            histogram = decided[decided["n_players"] == n_players]
            quantiles = histogram_quantiles(histogram["decided_at"].to_numpy(), histogram["games"].to_numpy())
            out_part = out[out["n_players"] == n_players]
            went_out = out_part.dropna(subset=["out_of_contention_share"])
            out_quantiles = histogram_quantiles(went_out["out_of_contention_share"].to_numpy(),
                                                went_out["seats"].to_numpy())
            row = {"n_players": n_players, "games": int(total.games),
                   **{f"decided_at_{name}": value for name, value in quantiles.items()},
                   "comebacks": int(total.comebacks)}
            row["comeback_rate"] = total.comebacks / total.games
            row["comeback_rate_low"], row["comeback_rate_high"] = (
                float(v) for v in stats.wilson_interval(total.comebacks, total.games, CONFIDENCE))
            for name in ("lead_changes", "drama"):
                mean, low, high = mean_with_interval(getattr(total, f"{name}_sum"), getattr(total, f"{name}_squares"),
                                                     total.games)
                row[f"{name}_mean"], row[f"{name}_low"], row[f"{name}_high"] = mean, low, high
            losing = int(out_part["seats"].sum())
            row["losing_seats"], row["out_of_contention_seats"] = losing, int(went_out["seats"].sum())
            row["out_of_contention_rate"] = row["out_of_contention_seats"] / losing if losing else math.nan
            row["out_of_contention_share_median"] = out_quantiles["median"]
            rows.append(row)
        return pd.DataFrame(rows, columns=SUMMARY_COLUMNS), decided

    def fan(self) -> pd.DataFrame:
        columns = ["n_players", "share_played", "curve", "median", "median_low", "median_high", "q25", "q75", "games"]
        if not self.parts["fan"]:
            return pd.DataFrame(columns=columns)
        histogram = self.summed("fan", ["n_players", "share_bin", "curve", "probability"])
        rows = []
        for (n_players, share_bin, curve), part in histogram.groupby(["n_players", "share_bin", "curve"], sort=True):
            quantiles = histogram_quantiles(part["probability"].to_numpy(), part["weight"].to_numpy())
            rows.append({"n_players": int(n_players), "share_played": share_bin / SHARE_BINS, "curve": curve,
                         **{name: quantiles[name] for name in ("median", "median_low", "median_high", "q25", "q75")},
                         "games": int(round(part["weight"].sum()))})
        return pd.DataFrame(rows, columns=columns)


SUMMARY_COLUMNS = ["n_players", "games", "decided_at_median", "decided_at_median_low", "decided_at_median_high",
                   "decided_at_q25", "decided_at_q75", "comebacks", "comeback_rate", "comeback_rate_low",
                   "comeback_rate_high", "lead_changes_mean", "lead_changes_low", "lead_changes_high",
                   "drama_mean", "drama_low", "drama_high", "losing_seats", "out_of_contention_seats",
                   "out_of_contention_rate", "out_of_contention_share_median"]


def fan_histogram(frame: pl.DataFrame) -> pl.DataFrame:
    """Per player count, bin of the share played (upper edge in 1/SHARE_BINS), curve (leader:
    the highest probability; winner: the eventual winner's) and probability (to
    PROBABILITY_STEP): the number of games, each game weighing 1 in each bin it has positions in
    (a game's positions in a bin share its weight), so the quantiles are over games."""
    share_bin = (pl.col("share_played") * SHARE_BINS).ceil().clip(1, SHARE_BINS).cast(pl.Int32).alias("share_bin")
    binned = frame.with_columns(share_bin)
    weight = (1.0 / pl.len().over("game_index", "share_bin")).alias("weight")
    parts = []
    for curve, column in (("leader", "leader_probability"), ("winner", "winner_probability")):
        parts.append(binned.select("n_players", "share_bin", pl.lit(curve).alias("curve"),
                                   ((pl.col(column) / PROBABILITY_STEP).round() * PROBABILITY_STEP)
                                   .round(6).alias("probability"), weight))
    return pl.concat(parts).group_by("n_players", "share_bin", "curve", "probability").agg(pl.col("weight").sum())


def histogram_quantiles(values: np.ndarray, weights: np.ndarray, confidence: float = CONFIDENCE) -> dict:
    """Median (with its distribution-free interval), quartiles of a histogram (values and
    weights; the weights count observations). A quantile is the smallest value whose cumulative
    weight reaches its rank; the median's interval is the pair of order statistics whose ranks
    are the binomial(n, 1/2) quantiles at (1 -/+ confidence) / 2 (the classic interval for a
    quantile; scipy.stats.binom)."""
    empty = {"median": math.nan, "median_low": math.nan, "median_high": math.nan, "q25": math.nan, "q75": math.nan}
    weights = np.asarray(weights, dtype=np.float64)
    if len(values) == 0 or weights.sum() <= 0:
        return empty
    order = np.argsort(values)
    values, cumulative = np.asarray(values, dtype=np.float64)[order], np.cumsum(weights[order])
    total = cumulative[-1]

    def at_rank(rank: float) -> float:
        index = np.searchsorted(cumulative, min(max(rank, 1e-12), total) - 1e-9, side="left")
        return float(values[min(index, len(values) - 1)])

    n = int(round(total))
    alpha = 1.0 - confidence
    lower_rank = scipy_stats.binom.ppf(alpha / 2, n, 0.5)
    upper_rank = scipy_stats.binom.ppf(1 - alpha / 2, n, 0.5) + 1
    return {"median": at_rank(0.5 * total), "median_low": at_rank(max(lower_rank, 1)),
            "median_high": at_rank(min(upper_rank, total)), "q25": at_rank(0.25 * total), "q75": at_rank(0.75 * total)}


def mean_with_interval(total: float, squares: float, count: int) -> tuple[float, float, float]:
    """Mean and its normal interval (reports.analysis.stats.mean_interval) from a sum, a sum of
    squares and a count."""
    if count <= 0:
        return math.nan, math.nan, math.nan
    mean = total / count
    variance = max(squares / count - mean ** 2, 0.0) * count / max(count - 1, 1)
    low, high = stats.mean_interval(mean, math.sqrt(variance), count, CONFIDENCE)
    return float(mean), float(low), float(high)


def percent(value: float) -> str:
    return "n/a" if value is None or not np.isfinite(value) else f"{100 * value:.0f}%"


def plain_sentence(row) -> str:
    """"Half of 4-player games are decided by 62% of the game (95% CI 60–64%); 8% are comebacks
    (95% CI 7–9%).\""""
    comebacks = 100 * row.comeback_rate
    digits = 0 if comebacks >= 10 else 1
    comeback_part = (f"{comebacks:.{digits}f}% are comebacks (95% CI {100 * row.comeback_rate_low:.{digits}f}–"
                     f"{100 * row.comeback_rate_high:.{digits}f}%).")
    if row.decided_at_median >= 1.0:
        # "decided by 100% of the game" says it badly: the winner's probability does not reach
        # the threshold for good before the final standing in at least half of the games
        quarter = (f"a quarter are decided by {percent(row.decided_at_q25)} of the game"
                   if row.decided_at_q25 < 1.0 else "not even a quarter are decided earlier")
        return (f"Half of {row.n_players}-player games are open until the end: the winner's win probability "
                f"reaches {percent(DECIDED)} for good only at the final standing ({quarter}); " + comeback_part)
    return (f"Half of {row.n_players}-player games are decided by {percent(row.decided_at_median)} of the game "
            f"(95% CI {percent(row.decided_at_median_low).rstrip('%')}–{percent(row.decided_at_median_high)}); "
            + comeback_part)


def calibration_sentence(calibration: Calibration) -> str:
    """How far to trust the model of one player count, in a line."""
    table = calibration.reliability
    return (f"{calibration.n_players} players: on {calibration.held_out_games:,} held-out games the win-probability "
            f"model's Brier score is {calibration.brier:.3f} (95% CI {calibration.brier_low:.3f}–"
            f"{calibration.brier_high:.3f}) against {calibration.base_rate_brier:.3f} for always predicting "
            f"1/{calibration.n_players} (skill {calibration.skill:.2f}); the observed win rate is within the interval "
            f"of {calibration.bins_within} of {len(table)} deciles of the prediction.")


# ----------------------------------------------------------------------------- kingmaking, when played

# where `courtsim kingmaking RUN` (sim/studies/kingmaking.py) writes, and its summary's seat for
# the row of every seat together
KINGMAKING_DIRECTORY = "kingmaking"
KINGMAKING_SUMMARY_FILE = "summary.parquet"
ALL_SEATS = -1


def kingmaking_summary(run: Run) -> pd.DataFrame | None:
    """The kingmaker index per player count (every seat together) of ``courtsim kingmaking`` on
    this run (sim/studies/kingmaking.py), or None when it has not been played."""
    path = run.path / KINGMAKING_DIRECTORY / KINGMAKING_SUMMARY_FILE
    if not path.is_file():
        return None
    summary = pl.read_parquet(path).filter(pl.col("seat") == ALL_SEATS).sort("n_players")
    return summary.to_pandas()


def kingmaking_sentence(row) -> str:
    """The kingmaker index of one player count in a sentence: "At 4 players an out-of-contention
    seat's other choice changes the winner in 65% of games (95% CI 59–70%; ...)."."""
    if row.n_players == 2:
        return "At 2 players nobody can hand the game to another: no kingmaker by definition."
    return (f"At {row.n_players} players an out-of-contention seat's other choice changes the winner in "
            f"{percent(row.kingmaker_index)} of games (95% CI {percent(row.index_low).rstrip('%')}–"
            f"{percent(row.index_high)}; of {row.games:,} games, {row.games_out_of_contention:,} with a seat out of "
            f"contention; {percent(row.share_to_next)} of the changes hand it to the next seat in turn order, "
            f"{percent(row.share_to_previous)} to the previous one).")
