"""Louis XIV metrics from the ``courtiers`` and ``seats`` tables: courtier flips, the side and
mode shown at each evaluation, side-to-side transitions, majority ties, Louis XIV's courtier,
bribes, and which gifts and missions winners collect.

The courtiers table labels its coded columns (sim/louis_xiv/tables.py): ``mode`` gold (bribe) /
first (first place) / threshold (influence), ``side`` A / B, ``louis_case`` A-E (null: Louis XIV
is elsewhere).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from reports.analysis import metrics_common
from reports.analysis.metric import COUNT, RATE, RATIO, Metric, counts_per_game, per_game_metric
from reports.analysis.metrics_common import in_label_order, sum_batches, with_rate
from reports.analysis.rundir import collect
from sim.louis_xiv import tables

# table label -> the words of the report, in the labels' (codes') order
MODE_NAMES = dict(zip(tables.MODE_NAMES, ("gold", "first place", "threshold")))
SIDE_NAMES = {side: side for side in tables.SIDE_NAMES}
OTHER_SIDE = dict(zip(tables.SIDE_NAMES, reversed(tables.SIDE_NAMES)))
LOUIS_CASES = {"A": "A: crown + second place", "B": "B: crown, tie for second", "C": "C: one player alone",
               "D": "D: tie on top, no crown", "E": "E: empty tile"}
LABELS = {"mode": tables.MODE_NAMES, "next_mode": tables.MODE_NAMES}
MAX_SEATS = 4
COAT_SOURCES = ("coats_from_gifts", "coats_from_missions", "coats_from_token_cap",
                "coats_from_conversion", "coats_from_majority")
MISSION_COLOURS = ("missions_light", "missions_blue", "missions_dark")
MISSION_POINTS = 5
COURTIER_SLICE_DIVISOR = 5   # courtier slices: BATCH_GAMES / 5 games (48 evaluations a game vs 3-4 seats)



def length_and_tiebreak(run, games_columns: list[str]) -> tuple[pl.Expr, pl.LazyFrame]:
    """The standard game frame's game-specific columns (reports.analysis.rundir.game_frame): a game
    was decided by the own-supply tie-break when its games row says so; its length is the
    influence turns its players took, summed from the seats table."""
    length = run.scan("seats").group_by("game_index").agg(pl.col("influence_turns").sum().alias("length"))
    return pl.col("decided_by_tiebreak") > 0, length

def courtier_batch() -> int:
    """Games per slice for the courtiers table (reports.analysis.metrics_common.sum_batches)."""
    return max(1, metrics_common.BATCH_GAMES // COURTIER_SLICE_DIVISOR)


def _counts(courtiers: pl.LazyFrame, keys: list[str], *aggregations: pl.Expr) -> pd.DataFrame:
    """``aggregations`` (sums and counts) per ``keys`` over the courtiers table, in slices."""
    return sum_batches(courtiers, lambda batch, _: batch.group_by(keys).agg(*aggregations), keys,
                       courtier_batch())


def flip_rates(courtiers: pl.LazyFrame) -> pd.DataFrame:
    """Per courtier and round: evaluations, flips, flip rate (Wilson interval)."""
    frame = _counts(courtiers, ["courtier", "round"],
                    pl.len().alias("evaluations"), pl.col("flipped").sum().alias("flips"))
    return with_rate(frame, "flips", "evaluations", "flip_rate")


def mode_shares(courtiers: pl.LazyFrame) -> pd.DataFrame:
    """Per courtier and round: share of evaluations showing each side and mode."""
    keys = ["courtier", "round", "side", "mode"]
    frame = in_label_order(_counts(courtiers, keys, pl.len().alias("count")), keys, LABELS)
    frame["share"] = frame["count"] / frame.groupby(["courtier", "round"])["count"].transform("sum")
    frame["mode_name"] = frame["mode"].map(MODE_NAMES)
    frame["side_name"] = frame["side"].map(SIDE_NAMES)
    return frame


def side_transitions(courtiers: pl.LazyFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Side-to-side transition matrices between consecutive evaluations of the same courtier.

    A tile keeps its side unless it flips after its evaluation, so the side at round r + 1 is
    ``side XOR flipped`` at round r; the mode of that side comes from the (courtier, side) ->
    mode pairs seen in the table. Returns (side matrix A/B -> A/B, mode matrix), each with
    rows = from, columns = to, cells = share of the row (rows sum to 1); evaluations in the
    last round are excluded (no next evaluation)."""
    last_round = collect(courtiers.select(pl.col("round").max())).item()
    keys = ["courtier", "side", "mode", "flipped"]
    counts = in_label_order(_counts(courtiers.filter(pl.col("round") < last_round), keys, pl.len().alias("count")),
                            keys, LABELS)
    modes = sum_batches(courtiers, lambda batch, _: batch.group_by(["courtier", "side"]).agg(pl.col("mode").first()),
                        ["courtier", "side"], courtier_batch(), combine="first")
    mode_of = {(c, s): m for c, s, m in modes[["courtier", "side", "mode"]].itertuples(index=False)}
    counts["next_side"] = np.where(counts["flipped"] > 0, counts["side"].map(OTHER_SIDE), counts["side"])
    counts["next_mode"] = [mode_of.get((c, s)) for c, s in zip(counts["courtier"], counts["next_side"])]
    side = _share_matrix(counts, "side", "next_side", SIDE_NAMES)
    mode = _share_matrix(counts[counts["next_mode"].notna()], "mode", "next_mode", MODE_NAMES)
    return side, mode


def _share_matrix(counts: pd.DataFrame, source: str, target: str, names: dict) -> pd.DataFrame:
    table = counts.pivot_table(index=source, columns=target, values="count", aggfunc="sum", fill_value=0)
    table = table.reindex(index=list(names), columns=list(names), fill_value=0)
    shares = table.div(table.sum(axis=1).where(table.sum(axis=1) > 0), axis=0)
    shares.index = [names[i] for i in shares.index]
    shares.columns = [names[c] for c in shares.columns]
    shares.index.name = "from"
    shares.columns.name = "to"
    return shares


def majority_ties(courtiers: pl.LazyFrame) -> pd.DataFrame:
    """Per courtier: evaluations, how often two or more colours tied for most markers, how often
    such a tie decided who got the gift, first place or Louis XIV's crown (``decisive_ties``:
    not on a threshold side, where every qualifying player receives the gift; rates with
    intervals), and how often nobody had a marker there."""
    frame = _counts(courtiers, ["courtier"],
                    pl.len().alias("evaluations"), pl.col("majority_tie").sum().alias("ties"),
                    pl.col("majority_tie_decided").sum().alias("decisive_ties"),
                    pl.col("empty").sum().alias("empty"),
                    (pl.col("once_first_seat") >= 0).sum().alias("ties_broken_by_once_first"))
    frame = with_rate(frame, "ties", "evaluations", "tie_rate")
    frame = with_rate(frame, "decisive_ties", "evaluations", "decisive_tie_rate")
    frame["empty_rate"] = frame["empty"] / frame["evaluations"]
    return frame


def louis_outcomes(courtiers: pl.LazyFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Louis XIV's courtier: (cases A-E share with interval, summary per courtier: crown taken,
    top tied, second-place gift given)."""
    louis = courtiers.filter(pl.col("louis") > 0)
    cases = _counts(louis, ["louis_case"], pl.len().alias("count"))
    cases["evaluations"] = cases["count"].sum()
    cases = with_rate(cases, "count", "evaluations", "share")
    cases["case"] = cases["louis_case"].map(LOUIS_CASES).fillna("unknown")
    per_courtier = _counts(louis, ["courtier"],
                           pl.len().alias("evaluations"),
                           (pl.col("crown_seat") >= 0).sum().alias("crown_taken"),
                           (pl.col("louis_case") == "D").sum().alias("tied_on_top"),
                           (pl.col("second_seat") >= 0).sum().alias("second_place_gift"),
                           (pl.col("louis_case") == "E").sum().alias("empty"))
    for column in ("crown_taken", "tied_on_top", "second_place_gift", "empty"):
        per_courtier[f"{column}_rate"] = per_courtier[column] / per_courtier["evaluations"]
    return cases, per_courtier


def bribes_per_courtier(courtiers: pl.LazyFrame, n_games: int) -> pd.DataFrame:
    """Per courtier: bribes paid and bribe gold spent per game, and the mean gold of a bribe."""
    frame = _counts(courtiers, ["courtier"],
                    pl.col("bribe_mask").bitwise_count_ones().sum().alias("bribes"),
                    pl.col("bribe_gold").sum().alias("bribe_gold"))
    frame["bribes_per_game"] = frame["bribes"] / n_games
    frame["gold_per_game"] = frame["bribe_gold"] / n_games
    frame["gold_per_bribe"] = frame["bribe_gold"] / frame["bribes"].where(frame["bribes"] > 0)
    return frame


def gift_mask_expr() -> pl.Expr:
    """Bitmask of the seats that received a courtier's gift (free, crown, second place, bribe)."""
    return (pl.col("free_mask") | pl.col("bribe_mask")
            | _seat_bit("crown_seat") | _seat_bit("second_seat"))


def _seat_bit(column: str) -> pl.Expr:
    return (pl.when(pl.col(column).is_between(0, MAX_SEATS - 1))
            .then(pl.lit(2, pl.Int64).pow(pl.col(column)).cast(pl.Int32)).otherwise(pl.lit(0, pl.Int32)))


def gifts_by_winners(courtiers: pl.LazyFrame, games: pl.LazyFrame) -> pd.DataFrame:
    """Per courtier: gifts received per game by a winning seat and by a non-winning seat.

    ``games`` needs ``game_index``, ``winner_mask`` and ``n_players``."""
    winner_gifts = (pl.col("gifts") & pl.col("winner_mask")).bitwise_count_ones().cast(pl.Int64)
    all_gifts = pl.col("gifts").bitwise_count_ones().cast(pl.Int64)

    def per_courtier(batch: pl.LazyFrame, in_batch: pl.Expr) -> pl.LazyFrame:
        joined = batch.select("game_index", "courtier", gift_mask_expr().alias("gifts")).join(
            games.filter(in_batch).select("game_index", pl.col("winner_mask").cast(pl.Int32)),
            on="game_index", how="inner")
        return joined.group_by("courtier").agg(winner_gifts.sum().alias("winner_gifts"),
                                               (all_gifts - winner_gifts).sum().alias("other_gifts"))

    frame = sum_batches(courtiers, per_courtier, ["courtier"], courtier_batch())
    seat_games = collect(games.select(
        pl.col("winner_mask").bitwise_count_ones().sum().alias("winner_seats"),
        (pl.col("n_players") - pl.col("winner_mask").bitwise_count_ones()).sum().alias("other_seats"))).row(0)
    frame["per_winner_game"] = frame["winner_gifts"] / max(seat_games[0], 1)
    frame["per_other_game"] = frame["other_gifts"] / max(seat_games[1], 1)
    return frame


def winner_profile(seats: pl.LazyFrame, columns: list[str]) -> pd.DataFrame:
    """Mean of each column for winning seats and for the other seats (long format)."""
    def sums(batch: pl.LazyFrame, _) -> pl.LazyFrame:
        return batch.group_by((pl.col("is_winner") > 0).alias("winner")).agg(
            *[pl.col(c).sum().cast(pl.Float64).alias(f"{c}_sum") for c in columns],
            *[pl.col(c).count().alias(f"{c}_count") for c in columns])

    totals = sum_batches(seats, sums, ["winner"])
    frame = pd.DataFrame({"winner": totals["winner"].astype(bool)})
    for c in columns:
        frame[c] = totals[f"{c}_sum"] / totals[f"{c}_count"].where(totals[f"{c}_count"] > 0)
    long = frame.melt(id_vars="winner", var_name="measure", value_name="mean")
    long["who"] = np.where(long["winner"], "winners", "others")
    return long.pivot(index="measure", columns="who", values="mean").reindex(columns).reset_index()


def score_sources(seats: pl.LazyFrame) -> pd.DataFrame:
    """Share of winners' and others' points by source: coats by source and missions (5 VP)."""
    columns = list(COAT_SOURCES)
    sources = [pl.col(c).sum().alias(c) for c in columns]
    sources.append((MISSION_POINTS * pl.sum_horizontal(MISSION_COLOURS)).sum().alias("missions_5vp"))
    sources.append(pl.col("score").sum().alias("score"))
    frame = sum_batches(seats, lambda batch, _: batch.group_by((pl.col("is_winner") > 0).alias("winner")).agg(sources),
                        ["winner"])
    frame["who"] = np.where(frame["winner"], "winners", "others")
    parts = columns + ["missions_5vp"]
    frame["other_sources"] = frame["score"] - frame[parts].sum(axis=1)
    long = frame.melt(id_vars=["who", "score"], value_vars=parts + ["other_sources"],
                      var_name="source", value_name="points")
    long["share"] = long["points"] / long["score"]
    return long


# ----------------------------------------------------------------------------- paired comparison

def paired_mechanics(run, n_players: int):
    """Per-game mechanics for a rule-variant comparison (reports.analysis.paired_metrics): bribes,
    courtier flips, ties, Louis XIV's crown, missions by colour, the imaginary player."""
    games = run.scan("games").filter(pl.col("n_players") == n_players)
    seat_sums = counts_per_game(run.scan("seats"), games, [
        pl.col("bribes").sum().alias("bribes"), pl.col("bribe_gold").sum().alias("bribe_gold"),
        pl.col("crowns_from_louis").sum().alias("crowns_from_louis"),
        pl.col("intrigue_played").sum().alias("intrigue_played"),
        (pl.col("coats").sum() / n_players).alias("coats_per_seat"),
        *[pl.col(colour).sum().alias(colour) for colour in MISSION_COLOURS]])
    courtier_sums = counts_per_game(run.scan("courtiers"), games, [
        pl.col("flipped").sum().alias("courtier_flips"), pl.col("majority_tie").sum().alias("majority_ties"),
        pl.col("majority_tie_decided").sum().alias("decisive_ties"), pl.col("empty").sum().alias("empty_courtiers"),
        (pl.col("top_seat") == 4).sum().alias("imaginary_on_top"),
        pl.col("louis").sum().alias("louis_evaluations"),
        (pl.col("crown_seat").is_not_null() & (pl.col("louis") > 0)).sum().alias("louis_crowns_taken")])
    exhausted = games.select("game_index", (pl.col("exhausted_tokens") + pl.col("exhausted_coats")
                                            + pl.col("exhausted_gold")).alias("exhausted_supplies"))
    frame = seat_sums.join(courtier_sums, on="game_index").join(exhausted, on="game_index")
    return frame


def paired_mechanics_metrics(n_players: int):
    """The metrics of ``paired_mechanics``'s components."""
    metrics = [per_game_metric("bribes", "bribes per game", "bribes"),
               per_game_metric("bribe_gold", "gold paid in bribes per game", "bribe_gold"),
               per_game_metric("courtier_flips", "courtier flips per game", "courtier_flips"),
               per_game_metric("majority_ties", "ties for most markers per game", "majority_ties"),
               per_game_metric("decisive_ties", "ties that decided a gift per game", "decisive_ties"),
               per_game_metric("empty_courtiers", "courtier evaluations with no marker per game", "empty_courtiers"),
               Metric("louis_crown_taken", "the share of Louis XIV's courtiers whose crown is taken", "mechanics",
                      RATE, ("louis_crowns_taken", "louis_evaluations"), RATIO),
               per_game_metric("crowns_from_louis", "crowns from Louis XIV per game", "crowns_from_louis"),
               per_game_metric("intrigue_played", "intrigue cards played per game", "intrigue_played"),
               per_game_metric("coats_per_seat", "coats of arms per player", "coats_per_seat"),
               *[per_game_metric(colour, f"{colour.removeprefix('missions_')} missions per game", colour)
                 for colour in MISSION_COLOURS],
               per_game_metric("exhausted_supplies", "exhausted supplies per game", "exhausted_supplies")]
    if n_players == 2:
        metrics.append(per_game_metric("imaginary_on_top", "courtiers where the imaginary player alone has most",
                                       "imaginary_on_top", COUNT))
    return metrics
