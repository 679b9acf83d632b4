"""Luck against skill (issue 41): how much of a game skill decides, and how many steps of a
skill ladder are clear.

Both measures read the games of a skill ladder at one player count (reports.analysis.skill_ladder:
bots at ordered levels, weakest first, in mirror and mixed games). Input: a polars frame with one
row per seat: ``n_players``, ``game_index``, ``seat``, ``level``, ``credit`` (the seat's win
credit in [0, 1]; a shared win gives each of the k winners 1/k), optionally ``score``.

**The luck-skill index** (Duersch, Lambrecht & Oechssler, "Measuring skill and chance in games",
European Economic Review 2020; working paper: University of Heidelberg discussion paper 643,
2017). Their idea: the more skill matters, the wider the ratings of players of different skill
spread; a benchmark game in which skill decides a known share p of the results and a coin flip
decides the rest ("p-chess": chess with 1 - p of its results replaced by coin flips) turns the
spread into p. They rate every player of an online platform with a best-fit Elo; a ladder has a
few levels and many games each, so here the levels are rated by Bradley-Terry, Elo's model
fitted to all games at once (as reports.analysis.stats rates bots), and the benchmark's skill
is the ladder's declared order instead of chess results:

- *Ratings.* For every game and every two levels seated in it (weaker i, stronger j), the game's
  ahead share of j over i: over the (i seat, j seat) pairs, 1 when the j seat's win credit is
  higher, 1/2 when equal, 0 when lower, averaged over the pairs (skill_ladder's "ahead" with the
  win credit as the result, :func:`reports.analysis.skill_ladder.ahead_points`), so a game counts
  once for each pair of levels in it. Bradley-Terry ratings of the levels, P(j ahead of i) =
  logistic(s_j - s_i), are fitted to these shares summed over the games, with one drawn game
  between every two levels added as a prior: a level that always finishes ahead (the benchmark
  at p = 1) keeps a finite rating. The *spread* is the standard deviation of the levels' ratings
  (Elo scale).
- *Benchmark.* Each real game gets a companion game with the same seating (the same levels in
  as many seats) whose result is drawn so: with probability p skill decides: the seats of the
  strongest level present share the win (credit 1/k each, so a mirror game is a k-way tie);
  otherwise a fair coin: one seat drawn uniformly wins. A companion draws its uniform number u
  and its coin winner once and is decided by skill for every p above u (common random numbers),
  so one set of companions gives the benchmark's whole curve of spread against p (on a grid of
  p, linear in between; made non-decreasing by its running maximum, as the curve is in
  expectation). The benchmark spread at p is the mean over ``companions`` independent sets.
- *Index.* The p at which the benchmark spread equals the observed spread: 0 when the observed
  is at most the benchmark's at p = 0, 1 when it is at least the benchmark's at p = 1.
- *Interval.* Percentile bootstrap over games: each replicate draws the games with replacement
  together with their companions and computes the index again. A companion set has exactly as
  many games as the real set and is resampled with it, so the sampling noise that widens a
  spread of fitted ratings is the same on both sides, in the estimate and in every replicate
  (resampling one side only would give it twice the noise and push the index up).
- *Why it compares across player counts and variants.* Everything but who wins is shared by the
  observed games and their benchmark: the seatings (mirror games, two-level and three-level
  games and how often each occurs), the number of games, the player count's fair share and the
  ahead share's dilution at many players (two seats that both lose tie), the rating model and its
  prior. So p has one meaning everywhere: the share of games that a game in which either skill
  decides outright or a fair coin decides would have to give to skill to spread the levels as
  far apart. The raw spread has no such meaning (it grows with the games and shrinks with the
  players).
- *Limits.* The spread does not see the order: a ladder in the wrong order spreads too (the
  skill chain below and skill_ladder's gaps check the order). A real game's shared wins count as
  ties in its ahead shares; its benchmark's coin never shares a win. Mirror games compare no
  two levels: they carry no weight in the ratings (they are resampled like every game).

**The skill chain** (Lantz, Isaksen, Jaffe, Nealen & Togelius, "Depth in strategic games",
2017): the steps of a skill ladder at which each level
beats the one below at least ``threshold`` of the time; their number is a game's depth at that
threshold. At n players, a level *beats* the one below as skill_ladder's win-rate matrix says:
over the games seating both, the mean ahead share (a higher score is ahead, at equal scores a
winner ahead of a non-winner, else half each; the frame's ``score`` when it has one, else the
win credit, with which a third seat's win is a tie between the two), with a Wilson interval
over games
(:func:`reports.analysis.skill_ladder.level_matrix`). A step counts when its share reaches the
threshold; it is significant when its interval lies wholly above or wholly below the threshold.
Only neighbouring levels are compared: a step that falls short is not bridged by skipping a level.

Cost: the games are read once, in slices (metrics_common.sum_batches), and counted by kind; the
index then fits (1 + replicates) x (1 + companions x grid points) rating models at once, whatever
the number of games, and its bootstrap goes through every game once per replicate and companion
set (numpy bincounts): at the defaults about 0.4 s for 600 four-player games, 4 s for 200,000.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl
from scipy.special import expit

from reports.analysis import metrics_common as mc
from reports.analysis import skill_ladder
from reports.analysis.rundir import collect
from reports.analysis.stats import CONFIDENCE, ELO_PER_LOGIT
from sim.core.engine import ConfigError

NEEDED_COLUMNS = ("n_players", "game_index", "seat", "level", "credit")
THRESHOLD = 0.6                 # "beats often enough" (docs: balance-questions.md's example)
BOOTSTRAP_REPLICATES = 400      # percentile interval over games
COMPANIONS = 4                  # companion sets averaged into the benchmark spread
GRID_POINTS = 41                # p = 0, 0.025, ..., 1; linear in between (21 biased the index near 1)
PRIOR_DRAWS = 1.0               # drawn games added between every two levels (finite ratings)
NEWTON_STEPS = 100              # the rating fit converges in ~10; a cap, never reached in tests
LARGEST_NEWTON_STEP = 4.0       # logits: damps the first steps of a fit to extreme shares
SAME_SPREAD = 1e-8              # relative: the observed spread equals the benchmark's at an end


# ----------------------------------------------------------------------------- the games

@dataclass(frozen=True)
class GameKinds:
    """The games at one player count, counted by kind: a kind is a seating (seats per level)
    with the ahead shares its result gives. Pairs of levels are (weaker, stronger) in
    :func:`level_pairs` order."""
    levels: tuple[str, ...]
    n_players: int
    seats_per_level: np.ndarray   # (kinds, levels)
    stronger_ahead: np.ndarray    # (kinds, pairs): the stronger level's ahead share; 0 where absent
    games: np.ndarray             # (kinds,)

    @property
    def meets(self) -> np.ndarray:
        """(kinds, pairs): 1 where both levels of the pair sit in the game."""
        weaker, stronger = pair_ends(len(self.levels))
        return ((self.seats_per_level[:, weaker] > 0) & (self.seats_per_level[:, stronger] > 0)).astype(np.float64)


def level_pairs(levels) -> list[tuple[int, int]]:
    """Every (weaker, stronger) pair of level positions, weakest first."""
    return [(weaker, stronger) for stronger in range(len(levels)) for weaker in range(stronger)]


def pair_ends(level_count: int) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.array(level_pairs(range(level_count)), dtype=np.int64).reshape(-1, 2)
    return pairs[:, 0], pairs[:, 1]


def seats_at(frame: pl.DataFrame | pl.LazyFrame, levels, n_players: int) -> pl.LazyFrame:
    """The seats of the games at ``n_players`` with each level's position in the ladder
    (``rank``, 0 = weakest); a one-line ConfigError for a frame the measures cannot read."""
    seats = frame.lazy()
    names = seats.collect_schema().names()
    missing = [column for column in NEEDED_COLUMNS if column not in names]
    if missing:
        raise ConfigError(f"skill-ladder seat frame: expected columns {', '.join(NEEDED_COLUMNS)}; "
                          f"missing {', '.join(missing)}")
    levels = list(levels)
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise ConfigError(f"skill-ladder levels: expected at least two distinct levels, weakest first, found {levels}")
    seats = seats.filter(pl.col("n_players") == n_players)
    found = collect(seats.select(pl.col("level").cast(pl.String).unique()))["level"].to_list()
    unknown = sorted(str(level) for level in found if level not in levels)
    if unknown:
        raise ConfigError(f"skill-ladder seat frame at {n_players} players: level {unknown[0]!r} is not one of "
                          f"the ladder's levels ({', '.join(levels)})")
    credit = collect(seats.select(pl.col("credit").min().alias("low"), pl.col("credit").max().alias("high"),
                                  pl.col("credit").null_count().alias("missing"))).row(0, named=True)
    if credit["missing"] or (credit["low"] is not None and (credit["low"] < 0 or credit["high"] > 1)):
        raise ConfigError(f"skill-ladder seat frame at {n_players} players: expected every credit in [0, 1], "
                          f"found {'missing credits' if credit['missing'] else (credit['low'], credit['high'])}")
    check_seat_counts(seats, n_players)
    rank = pl.col("level").cast(pl.String).replace_strict(levels, list(range(len(levels))), return_dtype=pl.Int64)
    return seats.with_columns(rank.alias("rank"))


def check_seat_counts(seats: pl.LazyFrame, n_players: int) -> None:
    """A one-line ConfigError unless there are games at ``n_players`` and every one has as many
    seats (counted in slices of games, so memory stays flat)."""
    counts = mc.sum_batches(seats, lambda batch, _: batch.group_by("game_index").agg(pl.len().alias("seats"))
                            .group_by("seats").agg(pl.len().alias("games")), ["seats"])
    if counts.empty or counts["games"].sum() == 0:
        raise ConfigError(f"skill-ladder seat frame: no games at {n_players} players")
    wrong = counts[counts["seats"] != n_players]
    if not wrong.empty:
        raise ConfigError(f"skill-ladder seat frame at {n_players} players: expected {n_players} seats in every game, "
                          f"found {int(wrong['games'].iloc[0])} games with {int(wrong['seats'].iloc[0])} seats")


def game_kinds(frame: pl.DataFrame | pl.LazyFrame, levels, n_players: int) -> GameKinds:
    """Count the games at ``n_players`` by kind (seating and ahead shares), in slices of games
    (metrics_common.sum_batches: memory stays flat however many games)."""
    levels = tuple(levels)
    seats = seats_at(frame, levels, n_players)
    pairs = level_pairs(levels)
    seat_columns = [f"seats_{rank}" for rank in range(len(levels))]
    ahead_columns = [f"ahead_{weaker}_{stronger}" for weaker, stronger in pairs]

    def kinds_in(batch: pl.LazyFrame, _) -> pl.LazyFrame:
        per_game = batch.group_by("game_index").agg(*[(pl.col("rank") == rank).sum().alias(name)
                                                      for rank, name in enumerate(seat_columns)])
        stronger = batch.select("game_index", pl.col("rank").alias("stronger"), pl.col("credit").alias("score_a"),
                                (pl.col("credit") > 0).cast(pl.Int8).alias("won_a"))
        weaker = batch.select("game_index", pl.col("rank").alias("weaker"), pl.col("credit").alias("score_b"),
                              (pl.col("credit") > 0).cast(pl.Int8).alias("won_b"))
        # twice the ahead points (0, 1, 2) summed: whole numbers, so equal kinds group together
        half_points = (stronger.join(weaker, on="game_index").filter(pl.col("weaker") < pl.col("stronger"))
                       .with_columns((2 * skill_ladder.ahead_points()).cast(pl.Int64).alias("half_points"))
                       .group_by("game_index").agg(*[
                           pl.col("half_points").filter((pl.col("weaker") == low) & (pl.col("stronger") == high)).sum()
                           .alias(name) for (low, high), name in zip(pairs, ahead_columns)]))
        games = per_game.join(half_points, on="game_index", how="left").fill_null(0)
        return games.group_by(*seat_columns, *ahead_columns).agg(pl.len().alias("games"))

    keys = [*seat_columns, *ahead_columns]
    counted = mc.sum_batches(seats, kinds_in, keys)
    seats_per_level = counted[seat_columns].to_numpy(dtype=np.int64)
    weaker, stronger = pair_ends(len(levels))
    seat_pairs = seats_per_level[:, weaker] * seats_per_level[:, stronger]
    ahead = counted[ahead_columns].to_numpy(dtype=np.float64) / np.where(seat_pairs > 0, 2.0 * seat_pairs, 1.0)
    return GameKinds(levels, n_players, seats_per_level, ahead, counted["games"].to_numpy(dtype=np.int64))


# ----------------------------------------------------------------------------- the benchmark

def skill_decides_shares(kinds: GameKinds) -> np.ndarray:
    """(kinds, pairs): the ahead shares of a benchmark game that skill decides. The seats of the
    strongest level present share the win, so that level is ahead of every other (share 1) and
    every two levels below it tie (share 1/2)."""
    weaker, stronger = pair_ends(len(kinds.levels))
    present = kinds.seats_per_level > 0
    strongest = present.shape[1] - 1 - np.argmax(present[:, ::-1], axis=1)
    shares = np.where(stronger[None, :] == strongest[:, None], 1.0, 0.5)
    return shares * kinds.meets


def coin_decides_shares(kinds: GameKinds) -> np.ndarray:
    """(kinds, winner level, pairs): the ahead shares of a benchmark game that the coin gives to
    a seat of the winner level. Of the weaker x stronger seat pairs, the winner's own are won or
    lost and the rest tie: the stronger level's share is 1/2 + 1/(2 c_stronger) when it holds the
    winner, 1/2 - 1/(2 c_weaker) when the weaker level does, 1/2 otherwise (c: seats of a level)."""
    weaker, stronger = pair_ends(len(kinds.levels))
    seats = np.maximum(kinds.seats_per_level, 1).astype(np.float64)
    winner = np.arange(len(kinds.levels))[None, :, None]
    shares = np.full((len(kinds.games), len(kinds.levels), len(weaker)), 0.5)
    shares = np.where(winner == stronger[None, None, :], 0.5 + 0.5 / seats[:, None, stronger], shares)
    shares = np.where(winner == weaker[None, None, :], 0.5 - 0.5 / seats[:, None, weaker], shares)
    return shares * kinds.meets[:, None, :]


@dataclass(frozen=True)
class Benchmark:
    """One companion game per real game, ``sets`` times over. A companion is decided by skill
    at grid point m when m >= its ``first_skill_point`` (its uniform number lies below p_m),
    otherwise by the coin, which gave the win to a seat of level ``coin_winner``. The shares
    each way of deciding gives a game of each kind come with them."""
    first_skill_point: np.ndarray  # (sets, games)
    coin_winner: np.ndarray        # (sets, games)
    skill_shares: np.ndarray       # (kinds, pairs): skill_decides_shares
    coin_shares: np.ndarray        # (kinds x levels, pairs): coin_decides_shares, kind-major


def draw_benchmark(kinds: GameKinds, kind_of_game: np.ndarray, grid: np.ndarray, sets: int,
                   rng: np.random.Generator) -> Benchmark:
    """Each companion's uniform number (as the first grid point above it) and its coin's winner:
    a uniformly drawn seat, so level w wins with probability (seats of w) / n_players."""
    uniform = rng.random((sets, len(kind_of_game)))
    first_skill_point = np.searchsorted(grid, uniform, side="right")
    seat_levels = np.stack([np.repeat(np.arange(len(kinds.levels)), seats) for seats in kinds.seats_per_level])
    seat = rng.integers(0, kinds.n_players, size=(sets, len(kind_of_game)))
    coin_shares = coin_decides_shares(kinds)
    return Benchmark(first_skill_point, seat_levels[kind_of_game[None, :], seat], skill_decides_shares(kinds),
                     coin_shares.reshape(-1, coin_shares.shape[-1]))


def benchmark_wins(benchmark: Benchmark, kind_of_game: np.ndarray, weights: np.ndarray, grid_points: int) -> np.ndarray:
    """(sets, grid points, pairs): the stronger level's ahead shares summed over the weighted
    companion games, at every grid point of p."""
    kind_count = len(benchmark.skill_shares)
    level_count = len(benchmark.coin_shares) // kind_count
    sums = []
    for first_skill_point, coin_winner in zip(benchmark.first_skill_point, benchmark.coin_winner):
        by_point = first_skill_point * kind_count + kind_of_game
        decided = np.bincount(by_point, weights, grid_points * kind_count).reshape(grid_points, kind_count)
        coin = np.bincount(by_point * level_count + coin_winner, weights,
                           grid_points * kind_count * level_count).reshape(grid_points, -1)
        skill_games = np.cumsum(decided, axis=0)                  # decided by skill at p_m: first point <= m
        coin_games = coin.sum(axis=0) - np.cumsum(coin, axis=0)   # by the coin: first point > m
        sums.append(skill_games @ benchmark.skill_shares + coin_games @ benchmark.coin_shares)
    return np.stack(sums)


# ----------------------------------------------------------------------------- ratings and the index

def level_ratings(wins: np.ndarray, comparisons: np.ndarray) -> np.ndarray:
    """Bradley-Terry ratings of the levels (Elo scale, mean 0) for many sets of results at once.

    ``wins`` and ``comparisons`` (..., pairs): the stronger level's ahead shares and the games
    seating both, per (weaker, stronger) pair. With :data:`PRIOR_DRAWS` drawn games added to
    every pair the log-likelihood is strictly concave, and Newton's method (the iteratively
    reweighted least squares statsmodels' binomial GLM runs in reports.analysis.stats.bradley_terry,
    here over every set at once: a call fits thousands) finds its maximum; the tests check it
    against stats.bradley_terry."""
    level_count = int(round((1 + np.sqrt(1 + 8 * wins.shape[-1])) / 2))
    weaker, stronger = pair_ends(level_count)
    incidence = np.zeros((len(weaker), level_count))
    incidence[np.arange(len(weaker)), stronger] = 1.0
    incidence[np.arange(len(weaker)), weaker] = -1.0
    free = incidence[:, 1:]                              # the weakest level's strength is held at 0
    wins = wins + PRIOR_DRAWS / 2
    comparisons = np.broadcast_to(comparisons + PRIOR_DRAWS, wins.shape)
    scale = comparisons.sum(axis=-1, keepdims=True)     # the same maximum, gradients of order 1
    wins, comparisons = wins / scale, comparisons / scale
    strengths = np.zeros((*wins.shape[:-1], level_count - 1))
    for _ in range(NEWTON_STEPS):
        expected = expit(strengths @ free.T)
        gradient = (wins - comparisons * expected) @ free
        curvature = np.einsum("...p,pa,pb->...ab", comparisons * expected * (1 - expected), free, free)
        step = np.linalg.solve(curvature, gradient[..., None])[..., 0]
        largest = np.abs(step).max(axis=-1, keepdims=True)
        step *= np.minimum(1.0, LARGEST_NEWTON_STEP / np.maximum(largest, 1e-300))
        strengths += step
        if largest.max() < 1e-12:
            break
    ratings = np.concatenate([np.zeros((*strengths.shape[:-1], 1)), strengths], axis=-1)
    return ELO_PER_LOGIT * (ratings - ratings.mean(axis=-1, keepdims=True))


def rating_spread(wins: np.ndarray, comparisons: np.ndarray) -> np.ndarray:
    """The standard deviation of the levels' ratings (Elo points) for each set of results."""
    return level_ratings(wins, comparisons).std(axis=-1)


def matching_share(observed: float, curve: np.ndarray, grid: np.ndarray) -> float:
    """The p at which the benchmark spread (``curve`` over ``grid``) equals the observed spread:
    the curve made non-decreasing by its running maximum, linear between grid points, 0 or 1 when
    the observed spread lies at or beyond an end."""
    curve = np.maximum.accumulate(curve)
    if observed <= curve[0] * (1 + SAME_SPREAD):
        return 0.0
    if observed >= curve[-1] * (1 - SAME_SPREAD):
        return 1.0
    above = int(np.searchsorted(curve, observed, side="left"))
    low, high = curve[above - 1], curve[above]
    return float(grid[above - 1] + (observed - low) / (high - low) * (grid[above] - grid[above - 1]))


@dataclass(frozen=True)
class LuckSkillIndex:
    """The luck-skill index at one player count: 0 pure luck, 1 pure skill, with its bootstrap
    interval; the observed spread of the level ratings and the benchmark's at p = 0 and p = 1."""
    n_players: int
    index: float
    low: float
    high: float
    games: int
    rating_spread: float
    luck_spread: float
    skill_spread: float


def luck_skill_index(frame: pl.DataFrame | pl.LazyFrame, levels, n_players: int, *,
                     replicates: int = BOOTSTRAP_REPLICATES, companions: int = COMPANIONS,
                     grid_points: int = GRID_POINTS, confidence: float = CONFIDENCE, seed: int = 0) -> LuckSkillIndex:
    """Duersch, Lambrecht & Oechssler's luck-skill index (European Economic Review 2020) of the
    skill ladder's games at ``n_players``: the share p of games skill would have to decide in a
    benchmark of the same seatings (skill or a fair coin, see the module docstring) to spread the
    levels' Bradley-Terry ratings as far as the real games do; with a percentile bootstrap
    interval over games (``replicates``, at ``confidence``). ``levels`` weakest first. The same
    frame and ``seed`` give the same answer, whatever the order of its rows. Not a number when no
    game seats two levels."""
    kinds = game_kinds(frame, levels, n_players)
    kind_of_game = np.repeat(np.arange(len(kinds.games)), kinds.games)   # in kind order: row order is irrelevant
    if not kinds.meets.any():                       # mirror games only: no two levels ever compared
        return LuckSkillIndex(n_players, np.nan, np.nan, np.nan, len(kind_of_game), np.nan, np.nan, np.nan)
    grid = np.linspace(0.0, 1.0, grid_points)
    companion_stream, bootstrap_stream = (np.random.default_rng(child)
                                          for child in np.random.SeedSequence(seed).spawn(2))
    benchmark = draw_benchmark(kinds, kind_of_game, grid, companions, companion_stream)
    meets, stronger_ahead = kinds.meets, kinds.stronger_ahead
    results = [replicate_results(meets, stronger_ahead, benchmark, kind_of_game, weights, grid_points)
               for weights in bootstrap_weights(len(kind_of_game), replicates, bootstrap_stream)]
    spreads = rating_spread(np.stack([wins for wins, _ in results]), np.stack([games for _, games in results])[:, None])
    observed = spreads[:, 0]
    curves = spreads[:, 1:].reshape(len(results), companions, grid_points).mean(axis=1)
    shares = np.array([matching_share(spread, curve, grid) for spread, curve in zip(observed, curves)])
    low, high = np.quantile(shares[1:], [(1 - confidence) / 2, (1 + confidence) / 2]) if replicates else (np.nan,) * 2
    return LuckSkillIndex(n_players, float(shares[0]), float(low), float(high), len(kind_of_game),
                          float(observed[0]), float(curves[0, 0]), float(curves[0, -1]))


def bootstrap_weights(game_count: int, replicates: int, rng: np.random.Generator):
    """Every game once (the estimate), then ``replicates`` draws of the games with replacement,
    as how many times each game was drawn."""
    yield np.ones(game_count)
    for _ in range(replicates):
        yield np.bincount(rng.integers(0, game_count, game_count), minlength=game_count).astype(np.float64)


def replicate_results(meets: np.ndarray, stronger_ahead: np.ndarray, benchmark: Benchmark,
                      kind_of_game: np.ndarray, weights: np.ndarray, grid_points: int) -> tuple[np.ndarray, np.ndarray]:
    """The stronger levels' ahead shares summed over the weighted real games, then over each
    companion set at each grid point ((1 + sets x grid points, pairs)); and the games seating
    each pair of levels (pairs,), the same on both sides (``meets``, ``stronger_ahead``: GameKinds')."""
    games_per_kind = np.bincount(kind_of_game, weights, len(meets))
    observed_wins = games_per_kind @ stronger_ahead
    companion_wins = benchmark_wins(benchmark, kind_of_game, weights, grid_points).reshape(-1, len(observed_wins))
    return np.vstack([observed_wins, companion_wins]), games_per_kind @ meets


# ----------------------------------------------------------------------------- the skill chain

@dataclass(frozen=True)
class SkillChain:
    """The steps of the ladder at one player count: ``steps`` has weaker, stronger, games, wins,
    rate, low, high (how often the stronger level is ahead, Wilson 95%), reaches (rate >= the
    threshold) and verdict ("above the threshold", "below the threshold", "not significant",
    "no games"); ``length`` counts the steps that reach the threshold."""
    n_players: int
    threshold: float
    length: int
    steps: pd.DataFrame = field(repr=False)


def skill_chain(frame: pl.DataFrame | pl.LazyFrame, levels, n_players: int, threshold: float = THRESHOLD) -> SkillChain:
    """Lantz, Isaksen, Jaffe, Nealen & Togelius's skill chain ("Depth in strategic games", 2017)
    of the ladder's games at ``n_players``: the steps (weaker -> stronger level, ``levels``
    weakest first) where the stronger level beats the one below at least ``threshold`` of the
    time, "beats" being skill_ladder's ahead share (the module docstring), with each step's
    Wilson interval and whether it lies significantly above or below the threshold."""
    if not 0.5 <= threshold < 1:
        raise ConfigError(f"skill chain threshold: expected a share in [0.5, 1), found {threshold}")
    levels = list(levels)
    seats = seats_at(frame, levels, n_players)
    score = pl.col("score") if "score" in seats.collect_schema().names() else pl.col("credit")
    labelled = seats.with_columns(pl.col("level").cast(pl.String), score.alias("score"),
                                  (pl.col("credit") > 0).cast(pl.Int8).alias("win"))
    matrix = skill_ladder.level_matrix(labelled)
    rows = [step_row(matrix, weaker, stronger, threshold) for weaker, stronger in zip(levels[:-1], levels[1:])]
    steps = pd.DataFrame(rows, columns=["weaker", "stronger", "games", "wins", "rate", "low", "high", "reaches",
                                        "verdict"])
    return SkillChain(n_players, threshold, int(steps["reaches"].sum()), steps)


def step_row(matrix: pd.DataFrame, weaker: str, stronger: str, threshold: float) -> dict:
    cell = matrix[(matrix["level"] == stronger) & (matrix["opponent"] == weaker)]
    if cell.empty or cell["games"].iloc[0] == 0:
        return {"weaker": weaker, "stronger": stronger, "games": 0, "wins": 0.0, "rate": np.nan, "low": np.nan,
                "high": np.nan, "reaches": False, "verdict": "no games"}
    cell = cell.iloc[0]
    if cell.ahead_rate_low > threshold:
        verdict = "above the threshold"
    elif cell.ahead_rate_high < threshold:
        verdict = "below the threshold"
    else:
        verdict = "not significant"
    return {"weaker": weaker, "stronger": stronger, "games": int(cell.games), "wins": float(cell.wins),
            "rate": float(cell.ahead_rate), "low": float(cell.ahead_rate_low), "high": float(cell.ahead_rate_high),
            "reaches": bool(cell.ahead_rate >= threshold), "verdict": verdict}


# ----------------------------------------------------------------------------- the table

@dataclass
class LuckAndSkill:
    """``table``: one row per player count: n_players, games, luck_skill_index, low, high,
    skill_chain, steps, sentence; ``steps``: every step of every player count (SkillChain.steps
    with n_players)."""
    table: pd.DataFrame
    steps: pd.DataFrame


def luck_and_skill(frame: pl.DataFrame | pl.LazyFrame, levels, player_counts=None, threshold: float = THRESHOLD,
                   **index_options) -> LuckAndSkill:
    """The luck-skill index and the skill chain at each player count of the ladder's games (all
    of the frame's by default), in one table with a sentence per player count."""
    if player_counts is None:
        player_counts = sorted(collect(frame.lazy().select(pl.col("n_players").unique()))["n_players"].to_list())
    rows, steps = [], []
    for n_players in player_counts:
        index = luck_skill_index(frame, levels, n_players, **index_options)
        chain = skill_chain(frame, levels, n_players, threshold)
        rows.append({"n_players": n_players, "games": index.games, "luck_skill_index": index.index,
                     "low": index.low, "high": index.high, "skill_chain": chain.length,
                     "steps": len(chain.steps), "sentence": sentence(index, chain)})
        steps.append(chain.steps.assign(n_players=n_players))
    return LuckAndSkill(pd.DataFrame(rows, columns=["n_players", "games", "luck_skill_index", "low", "high",
                                                    "skill_chain", "steps", "sentence"]),
                        pd.concat(steps, ignore_index=True) if steps else pd.DataFrame())


def sentence(index: LuckSkillIndex, chain: SkillChain) -> str:
    """"At 4 players skill decides about 38% of games [31%, 45%]; 2 of 3 ladder steps are clear
    at 60%", and the steps whose share is not significantly on either side of the threshold."""
    if np.isfinite(index.index):
        words = (f"At {index.n_players} players skill decides about {percent(index.index)} of games "
                 f"[{percent(index.low)}, {percent(index.high)}]")
    else:
        words = f"At {index.n_players} players no game seats two levels, so luck and skill cannot be told apart"
    words += f"; {chain.length} of {len(chain.steps)} ladder steps are clear at {percent(chain.threshold)}"
    unresolved = chain.steps[chain.steps["verdict"].isin(["not significant", "no games"])]
    if not unresolved.empty:
        words += "; not resolved at this number of games: " + ", ".join(
            f"{step.weaker} → {step.stronger} " + (f"{percent(step.rate)} [{percent(step.low)}, {percent(step.high)}]"
                                                   if step.games else "(no games)")
            for step in unresolved.itertuples())
    return words + "."


def percent(share: float) -> str:
    return "n/a" if share is None or not np.isfinite(share) else f"{100 * share:.0f}%"
