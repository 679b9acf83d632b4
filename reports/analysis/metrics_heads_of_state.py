"""Heads of State metrics from the ``betrayals``, ``country_scoring``, ``seats`` and ``games``
tables: assassination odds against the bag's 3/4, betrayal card usage and refills, round-end
tie-breaks, end-game noble-card majority ties, score sources and round lengths.

Labels (sim/heads_of_state/tables.py): card_type assassin / single_country / double_country /
mixed (assassin + country card, Q9 switch); tie-break levels no_contest / influence / highest_rank /
hexagon_value / unresolved (random); games.win_decided_by score / tiebreak / shared. Metrics list
labelled groups in the labels' declared order.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from reports.analysis.metric import RATE, RATIO, Metric, counts_per_game, per_game_metric
from reports.analysis.metrics_common import histogram_quantiles, in_label_order, sum_batches, with_rate
from sim.core.table_schema import WIN_DECIDED_BY_NAMES
from sim.heads_of_state.state import COUNTRY_NAMES, RANK_NAMES
from sim.heads_of_state.tables import CARD_TYPE_NAMES, TIEBREAK_LEVEL_NAMES

ASSASSIN_ODDS = 3 / 4          # default bag: 3 own cubes + 1 target cube (data key assassin_bag)
# table label -> the words of the report, in the labels' (codes') order
CARD_TYPES = dict(zip(CARD_TYPE_NAMES, ("assassin", "single-country", "double-country", "mixed")))
ASSASSINATION_CARD_TYPES = ("assassin", "mixed")   # the plays resolved by the bag draw
TIEBREAK_LEVELS = dict(zip(TIEBREAK_LEVEL_NAMES, ("no contest", "influence alone", "highest rank",
                                                   "hexagon value", "unresolved (random)")))
LABELS = {"card_type": CARD_TYPE_NAMES, "target_rank": RANK_NAMES, "country": COUNTRY_NAMES,
          "level": TIEBREAK_LEVEL_NAMES, "win_decided_by": WIN_DECIDED_BY_NAMES}
SCORE_SOURCES = {"score_hexagon": "hexagon tokens", "score_country": "country tokens",
                 "score_all_ranks": "all-ranks tokens", "score_round_influence": "round-end influence",
                 "score_noble_card_majority": "end-game majorities"}
# a comparison also shows the start compensation (data key starting_points, 0 as printed), so a
# variant that gives points at setup shows them
PAIRED_SCORE_SOURCES = {**SCORE_SOURCES, "score_start_compensation": "starting points"}
WINNER_TIEBREAK = dict(zip(WIN_DECIDED_BY_NAMES, ("highest score alone", "noble cards decided", "shared win")))



def length_and_tiebreak(run, games_columns: list[str]) -> tuple[pl.Expr, pl.Expr]:
    """The standard game frame's game-specific columns (reports.analysis.rundir.game_frame): the
    Heads of State report has always counted a shared win (noble cards tied too) as decided by the
    noble-card tie-break; a game's length is its turns, summed over its rounds."""
    from reports.analysis.rundir import round_columns

    turns = round_columns(games_columns, "turns_round_")
    tiebreak_decided = (pl.col("decided_by_tiebreak") > 0) | (pl.col("shared_win") > 0)
    return tiebreak_decided, pl.sum_horizontal(turns) if turns else pl.lit(None)

def game_data(manifest: dict) -> dict:
    """The resolved game data a run played (run.yaml ``config.setup.game_data``)."""
    setup = manifest.get("config", {}).get("setup", {}) or {}
    data = setup.get("game_data", setup) if isinstance(setup, dict) else {}
    return data if isinstance(data, dict) else {}


def bag_odds(manifest: dict) -> float:
    """P(assassination succeeds) of the run's bag (own / (own + target) cubes), default 3/4."""
    bag = game_data(manifest).get("assassin_bag")
    if isinstance(bag, dict) and {"own_cubes", "target_cubes"} <= set(bag):
        return bag["own_cubes"] / (bag["own_cubes"] + bag["target_cubes"])
    return ASSASSIN_ODDS


def assassinations(betrayals: pl.LazyFrame, by: list[str]) -> pd.DataFrame:
    """Assassination attempts (card types resolved by the bag: assassin and mixed) per group:
    attempts, successes, success rate with Wilson interval."""
    attempts = betrayals.filter(pl.col("card_type").is_in(ASSASSINATION_CARD_TYPES))
    counts = [pl.len().alias("attempts"), pl.col("success").sum().alias("successes")]
    frame = sum_batches(attempts, lambda batch, _: batch.group_by(by).agg(*counts) if by else batch.select(*counts),
                        by)
    return with_rate(in_label_order(frame, by, LABELS) if by else frame, "successes", "attempts", "success_rate")


def betrayal_usage(betrayals: pl.LazyFrame, n_games: int) -> pd.DataFrame:
    """Per card type and target (province / capital): plays per game, success rate, and how
    many of the boxes emptied by a successful play got refilled."""
    keys = ["card_type", "capital"]
    frame = sum_batches(betrayals, lambda batch, _: batch.group_by(keys).agg(
        pl.len().alias("plays"), pl.col("success").sum().alias("kills"),
        (pl.col("success").cast(pl.Boolean) & (pl.col("box_refilled") > 0)).sum().alias("refilled")), keys)
    frame = in_label_order(frame, keys, LABELS)
    frame["card"] = frame["card_type"].map(CARD_TYPES).fillna("unknown")
    frame["target"] = np.where(frame["capital"] > 0, "capital", "province")
    frame["plays_per_game"] = frame["plays"] / n_games
    frame = with_rate(frame, "kills", "plays", "success_rate")
    return with_rate(frame, "refilled", "kills", "refill_rate")


def tiebreaks(country: pl.LazyFrame, by: list[str]) -> pd.DataFrame:
    """Share of round-end country scorings whose first (and second) place was decided at each
    tie-break level, per group (long format: place, level, count, share with interval)."""
    frames = []
    for place in ("first", "second"):
        column = f"{place}_tiebreak"
        keys = by + [column]
        frame = sum_batches(country, lambda batch, _, keys=keys: batch.group_by(keys).agg(pl.len().alias("count")),
                            keys).rename(columns={column: "level"})
        frame = in_label_order(frame, by + ["level"], LABELS)
        frame["place"] = place
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True)
    frame["scorings"] = frame.groupby(by + ["place"])["count"].transform("sum")
    frame = with_rate(frame, "count", "scorings", "share")
    frame["level_name"] = frame["level"].map(TIEBREAK_LEVELS).fillna("unknown")
    return frame


def majority_ties(seats: pl.LazyFrame, columns: list[str]) -> pd.DataFrame:
    """End-game noble-card majorities per rank: share of games with a sole leader, a two-way
    split, a void three-or-more-way tie, or nobody holding a card of that rank."""
    outcome = [pl.when(pl.col(f"{c}_max") <= 0).then(pl.lit("nobody"))
               .when(pl.col(f"{c}_at_top") == 1).then(pl.lit("sole leader"))
               .when(pl.col(f"{c}_at_top") == 2).then(pl.lit("two-way split"))
               .otherwise(pl.lit("3+-way void")).alias(c) for c in columns]

    def outcomes(batch: pl.LazyFrame, in_batch: pl.Expr) -> pl.LazyFrame:
        per_game = batch.group_by("game_index").agg(
            *[(pl.col(c) == pl.col(c).max()).sum().alias(f"{c}_at_top") for c in columns],
            *[pl.col(c).max().alias(f"{c}_max") for c in columns])
        return (per_game.select(outcome).unpivot(variable_name="rank", value_name="outcome")
                .group_by(["rank", "outcome"]).agg(pl.len().alias("count")))

    frame = sum_batches(seats, outcomes, ["rank", "outcome"])
    frame["games"] = frame.groupby("rank")["count"].transform("sum")
    frame = with_rate(frame, "count", "games", "share")
    frame["rank"] = frame["rank"].str.replace("cards_", "", regex=False)
    order = {r: i for i, r in enumerate(RANK_NAMES)}
    return frame.sort_values(["rank", "outcome"], key=lambda s: s.map(order) if s.name == "rank" else s
                             ).reset_index(drop=True)


def score_sources(seats: pl.LazyFrame, columns: list[str]) -> pd.DataFrame:
    """Share of winners' and others' points by source (long format: who, source, points, share)."""
    frame = sum_batches(seats, lambda batch, _: batch.group_by(pl.col("is_winner") > 0).agg(
        [pl.col(c).sum() for c in columns] + [pl.col("score").sum()]), ["is_winner"])
    frame["who"] = np.where(frame["is_winner"], "winners", "others")
    long = frame.melt(id_vars=["who", "score"], value_vars=columns, var_name="source", value_name="points")
    long["share"] = long["points"] / long["score"]
    long["source"] = long["source"].map(SCORE_SOURCES).fillna(long["source"])
    return long


def round_lengths(games: pl.LazyFrame, columns: list[str]) -> pd.DataFrame:
    """Turns per round per player count: games, mean, std (sample), 10th percentile, median and
    90th percentile (as polars' quantile(0.1), median(), quantile(0.9)), from the histogram of
    turns (a small table, so memory does not grow with the run)."""
    keys = ["n_players", "round", "turns"]

    def histogram(batch: pl.LazyFrame, _) -> pl.LazyFrame:
        long = batch.select("n_players", *columns).unpivot(index="n_players", variable_name="round",
                                                           value_name="turns")
        return long.group_by(keys).agg(pl.len().alias("count"))

    rows = []
    for (n_players, round_name), part in sum_batches(games, histogram, keys).groupby(["n_players", "round"]):
        played = part[part["turns"].notna()]
        values, counts = played["turns"].to_numpy(dtype=float), played["count"].to_numpy()
        total = counts.sum()
        mean = float((values * counts).sum() / total) if total else np.nan
        variance = float((counts * (values - mean) ** 2).sum() / (total - 1)) if total > 1 else np.nan
        rows.append({"n_players": n_players, "round": round_name, "games": int(part["count"].sum()),
                     "mean": mean, "std": np.sqrt(variance),
                     **histogram_quantiles(values, counts, {"p10": (0.1, "nearest"), "median": (0.5, "linear"),
                                                            "p90": (0.9, "nearest")})})
    frame = pd.DataFrame(rows, columns=["n_players", "round", "games", "mean", "std", "p10", "median", "p90"])
    frame["round"] = frame["round"].str.extract(r"(\d+)").astype(int)
    return frame


def winner_tiebreak(games: pl.LazyFrame) -> pd.DataFrame:
    """Per player count: share of games won on score alone, decided by noble cards, shared."""
    keys = ["n_players", "win_decided_by"]
    frame = in_label_order(sum_batches(games, lambda batch, _: batch.group_by(keys).agg(pl.len().alias("count")), keys),
                           keys, LABELS)
    frame["games"] = frame.groupby("n_players")["count"].transform("sum")
    frame = with_rate(frame, "count", "games", "share")
    frame["outcome"] = frame["win_decided_by"].map(WINNER_TIEBREAK).fillna("unknown")
    return frame


# ----------------------------------------------------------------------------- paired comparison

def paired_mechanics(run, n_players: int):
    """Per-game mechanics for a rule-variant comparison (reports.analysis.paired_metrics): assassination
    use and success, kills, betrayal plays, round-scoring tie-break levels, nobles raised,
    courtesans, hand-limit discards, score sources."""
    games = run.scan("games").filter(pl.col("n_players") == n_players)
    assassination = pl.col("card_type").is_in(list(ASSASSINATION_CARD_TYPES))
    betrayal_sums = counts_per_game(run.scan("betrayals"), games, [
        pl.len().alias("betrayal_plays"), assassination.sum().alias("assassination_attempts"),
        (assassination & (pl.col("success") > 0)).sum().alias("assassination_successes"),
        (pl.col("success") > 0).sum().alias("kills")])
    contested = pl.col("first_tiebreak") != "no_contest"
    country_sums = counts_per_game(run.scan("country_scoring"), games, [
        pl.col("first_seat").is_not_null().sum().alias("country_scorings"),
        contested.sum().alias("contested_scorings"),
        *[(pl.col("first_tiebreak") == level).sum().alias(f"tiebreak_{level}")
          for level in TIEBREAK_LEVEL_NAMES if level != "no_contest"]])
    raised = [f"raised_{rank}" for rank in RANK_NAMES]
    sources = list(PAIRED_SCORE_SOURCES)
    seat_sums = counts_per_game(run.scan("seats"), games, [
        pl.sum_horizontal(raised).sum().alias("nobles_raised"),
        pl.col("courtesans_used").sum().alias("courtesans_used"),
        (pl.col("discards_turn_end_character") + pl.col("discards_turn_end_betrayal")
         + pl.col("discards_round_change_character") + pl.col("discards_round_change_betrayal")).sum().alias("discards"),
        *[(pl.col(source).sum() / n_players).alias(source) for source in sources]])
    frame = betrayal_sums.join(country_sums, on="game_index").join(seat_sums, on="game_index")
    return frame


def paired_mechanics_metrics(n_players: int):
    """The metrics of ``paired_mechanics``'s components."""
    metrics = [per_game_metric("assassination_attempts", "assassination attempts per game", "assassination_attempts"),
               Metric("assassination_success", "the share of assassinations that succeed", "mechanics", RATE,
                      ("assassination_successes", "assassination_attempts"), RATIO),
               per_game_metric("betrayal_plays", "betrayal plays per game", "betrayal_plays"),
               per_game_metric("kills", "nobles killed per game", "kills"),
               per_game_metric("nobles_raised", "nobles raised per game", "nobles_raised"),
               per_game_metric("courtesans_used", "courtesans used per game", "courtesans_used"),
               per_game_metric("discards", "cards discarded to hand limits per game", "discards")]
    metrics += [Metric(f"tiebreak_{level}", f"the share of contested country scorings decided by "
                       f"{TIEBREAK_LEVELS[level]}", "mechanics", RATE, (f"tiebreak_{level}", "contested_scorings"), RATIO)
                for level in TIEBREAK_LEVEL_NAMES if level != "no_contest"]
    metrics += [per_game_metric(source, f"points per player from {PAIRED_SCORE_SOURCES[source]}", source, "points")
                for source in PAIRED_SCORE_SOURCES]
    return metrics
