"""Skill ladder (issue 13): does a balance finding hold whoever plays, weak or strong bots?

A skill-ladder run is an experiment with ``skill_levels`` (sim/core/experiments.py): its pool's
bots as ordered levels, weakest first (e.g. random, greedy, tuned, search), played in mirror
match-ups (every seat one level) and mixed ones. run.yaml records the levels per player count
with the bots' table names (``config.skill_ladder``). From the standard seat frame
(:mod:`reports.analysis.rundir`) this module computes, per player count:

- the **win-rate matrix** between levels: for levels i and j, over the games in which both sit,
  how often i finishes ahead of j. Within a game every (i seat, j seat) pair is compared (a
  higher score is ahead; at equal scores a winner is ahead of a non-winner; otherwise half each)
  and the game's value is the mean over its pairs, so each game counts once and the Wilson
  interval is over games (a value between 0 and 1 per game, as shared wins are counted);
- the **skill gap**: for each step of the ladder (weaker -> stronger level), the matrix cell
  "stronger ahead of weaker", per player count and over all player counts, with a verdict: the
  stronger level is better (its interval lies above 50%), not significantly different, or worse;
- **findings level by level**: the report's headline findings recomputed on each level's mirror
  games alone: the seat advantage per player count (chi-square of win credits by turn-order
  position, as the report's seat section, and which player in turn order wins most: "the first
  player", reports.analysis.players) and the ranking of the bots
  (the Bradley-Terry ratings of all games against the declared order of the levels; within a
  level of several bots, the strongest of its mirror games). A finding *holds* for a level when
  its mirror games show it too: the same player best and the test significant (or, for "no
  significant seat advantage", not significant either).

Every group-by runs on slices of game indices (:func:`reports.analysis.metrics_common.sum_batches`), so
memory stays flat with the run's size. The HTML report's section is built from :func:`analyse`
(reports.pages.sections_skill_ladder), :func:`summary_lines` (and reports.terminal's ladder tables) give the
``courtsim summary`` text.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl

from reports.analysis import metrics_common as mc
from reports.analysis import stats
from reports.analysis.players import player_words, sentence_start
from reports.analysis.rundir import GAME_RANGE

SIGNIFICANCE = 0.05


@dataclass
class Ladder:
    """The levels of a skill-ladder run: per player count, (level, bot names) weakest first."""
    levels_by_players: dict[int, list[tuple[str, tuple[str, ...]]]]

    @property
    def level_names(self) -> list[str]:
        """Every level, weakest first (the same at every player count)."""
        first = next(iter(self.levels_by_players.values()))
        return [level for level, _ in first]

    @property
    def steps(self) -> list[tuple[str, str]]:
        """(weaker, stronger) for each step of the ladder."""
        names = self.level_names
        return list(zip(names[:-1], names[1:]))

    def frame(self) -> pl.DataFrame:
        """n_players, bot, level, rank (0 = weakest): the join that labels seats with levels."""
        rows = [(n_players, bot, level, rank) for n_players, levels in self.levels_by_players.items()
                for rank, (level, bots) in enumerate(levels) for bot in bots]
        return pl.DataFrame(rows, schema={"n_players": pl.Int64, "bot": pl.String, "level": pl.String,
                                          "rank": pl.Int64}, orient="row")

    def bots_of(self, level: str) -> list[str]:
        """The distinct bot names of ``level`` over every player count."""
        found = []
        for levels in self.levels_by_players.values():
            for name, bots in levels:
                found += [bot for bot in bots if name == level and bot not in found]
        return found


def ladder_of(manifest: dict) -> Ladder | None:
    """The skill ladder a run's run.yaml records (None: the run is not a skill ladder)."""
    record = (manifest.get("config") or {}).get("skill_ladder")
    if not record:
        return None
    return Ladder({int(entry["players"]): [(level["level"], tuple(level["bots"])) for level in entry["levels"]]
                   for entry in record})


@dataclass
class LadderResult:
    matrix: pd.DataFrame        # n_players, level, opponent, games, wins, ahead_rate (+ _low, _high)
    gaps: pd.DataFrame          # n_players ("all" too), weaker, stronger, games, wins, rate, low, high, verdict
    mirror_seats: pd.DataFrame  # n_players, level, position, games, wins, win_rate (+ _low, _high)
    mirror_tests: pd.DataFrame  # n_players, level, games, chi2, p_value, cohens_w, best_position, best_rate
    overall_tests: pd.DataFrame  # the same over all games of the run (level "all")
    ratings: pd.DataFrame       # bot, rating, low, high, level
    gap_sentences: list[str] = field(default_factory=list)
    finding_sentences: list[str] = field(default_factory=list)


def with_levels(seats: pl.LazyFrame, ladder: Ladder) -> pl.LazyFrame:
    """The seat frame with each seat's ``level`` and ``rank`` (null for a bot outside the ladder)
    and ``mirror_level`` (the level of a game whose seats all play it, else null)."""
    levels = ladder.frame().lazy().with_columns(pl.col("n_players").cast(seats.collect_schema()["n_players"]))
    labelled = seats.join(levels, on=["n_players", "bot"], how="left")
    setattr(labelled, GAME_RANGE, mc.game_range(seats))
    return labelled


def mirror_expression() -> pl.Expr:
    """Within a slice of whole games: the level every seat of the game plays, else null."""
    one_level = (pl.col("rank").n_unique().over("game_index") == 1) & pl.col("rank").is_not_null()
    return pl.when(one_level).then(pl.col("level")).otherwise(None).alias("mirror_level")


def ahead_points() -> pl.Expr:
    """1 when seat a finished ahead of seat b, 0.5 when neither did, else 0 (as the ratings)."""
    ahead = (pl.col("score_a") > pl.col("score_b")) | (
        (pl.col("score_a") == pl.col("score_b")) & (pl.col("won_a") > pl.col("won_b")))
    tied = (pl.col("score_a") == pl.col("score_b")) & (pl.col("won_a") == pl.col("won_b"))
    return pl.when(ahead).then(1.0).when(tied).then(0.5).otherwise(0.0)


def level_matrix(labelled: pl.LazyFrame) -> pd.DataFrame:
    """Per player count and ordered pair of levels (level, opponent): the games where both sit
    and the sum over them of each game's share of (level seat, opponent seat) pairs in which the
    level's seat finished ahead; ``ahead_rate`` with its Wilson interval."""
    def sums(batch: pl.LazyFrame, _) -> pl.LazyFrame:
        seated = batch.filter(pl.col("rank").is_not_null())
        left = seated.select("game_index", "n_players", pl.col("level"), pl.col("rank").alias("rank_a"),
                             pl.col("score").alias("score_a"), pl.col("win").alias("won_a"))
        right = seated.select("game_index", pl.col("level").alias("opponent"), pl.col("rank").alias("rank_b"),
                              pl.col("score").alias("score_b"), pl.col("win").alias("won_b"))
        per_game = (left.join(right, on="game_index").filter(pl.col("rank_a") != pl.col("rank_b"))
                    .with_columns(ahead_points().alias("points"))
                    .group_by("game_index", "n_players", "level", "opponent").agg(pl.col("points").mean()))
        return per_game.group_by("n_players", "level", "opponent").agg(
            pl.len().alias("games"), pl.col("points").sum().alias("wins"))

    keys = ["n_players", "level", "opponent"]
    frame = mc.sum_batches(labelled, sums, keys)
    if frame.empty:
        return pd.DataFrame(columns=[*keys, "games", "wins", "ahead_rate", "ahead_rate_low", "ahead_rate_high"])
    return mc.with_rate(frame, "wins", "games", "ahead_rate")


def skill_gaps(matrix: pd.DataFrame, ladder: Ladder) -> pd.DataFrame:
    """Each step (weaker -> stronger) per player count and over all of them: how often the
    stronger level finished ahead of the weaker, with interval and verdict."""
    rows = []
    for weaker, stronger in ladder.steps:
        cells = matrix[(matrix["level"] == stronger) & (matrix["opponent"] == weaker)]
        for n_players, part in cells.groupby("n_players"):
            rows.append({"n_players": str(n_players), "weaker": weaker, "stronger": stronger,
                         "games": int(part["games"].sum()), "wins": float(part["wins"].sum())})
        rows.append({"n_players": "all", "weaker": weaker, "stronger": stronger,
                     "games": int(cells["games"].sum()), "wins": float(cells["wins"].sum())})
    frame = pd.DataFrame(rows, columns=["n_players", "weaker", "stronger", "games", "wins"])
    frame = mc.with_rate(frame, "wins", "games", "rate")
    frame["verdict"] = [gap_verdict(row.rate_low, row.rate_high, row.games) for row in frame.itertuples()]
    return frame


def gap_verdict(low: float, high: float, games: int) -> str:
    if games == 0 or not np.isfinite(low):
        return "no games"
    if low > 0.5:
        return "stronger"
    if high < 0.5:
        return "weaker"
    return "not significant"


def gap_sentences(gaps: pd.DataFrame) -> list[str]:
    """One sentence per step over all player counts, and one for each player count where the
    step is not significant or reversed."""
    sentences = []
    for (weaker, stronger), part in gaps.groupby(["weaker", "stronger"], sort=False):
        pooled = part[part["n_players"] == "all"].iloc[0]
        step = f"{weaker} → {stronger}"
        figures = (f"{stronger} finishes ahead of {weaker} {pct(pooled.rate)} "
                   f"[{pct(pooled.rate_low)}, {pct(pooled.rate_high)}] of {pooled.games:,} games")
        if pooled.verdict == "stronger":
            sentences.append(f"Step {step}: {figures}; {stronger} is significantly stronger.")
        elif pooled.verdict == "weaker":
            sentences.append(f"Step {step}: {figures}; {stronger} is significantly WEAKER than {weaker}: "
                             "the ladder's order is wrong here.")
        elif pooled.verdict == "no games":
            sentences.append(f"Step {step}: no game seats both {weaker} and {stronger}.")
        else:
            sentences.append(f"Step {step}: {figures}; the step is not significant (its interval includes 50%): "
                             f"at this number of games {stronger} plays no better than {weaker}.")
        for row in part[part["n_players"] != "all"].itertuples():
            if row.verdict in ("not significant", "weaker") and pooled.verdict != row.verdict:
                words = "not significant" if row.verdict == "not significant" else f"reversed ({weaker} is stronger)"
                sentences.append(f"Step {step} at {row.n_players} players is {words}: {pct(row.rate)} "
                                 f"[{pct(row.rate_low)}, {pct(row.rate_high)}] of {row.games:,} games.")
    return sentences


def mirror_seat_rates(labelled: pl.LazyFrame) -> pd.DataFrame:
    """Win credits per (player count, mirror level, turn-order position) over mirror games."""
    def sums(batch: pl.LazyFrame, _) -> pl.LazyFrame:
        return (batch.with_columns(mirror_expression()).filter(pl.col("mirror_level").is_not_null())
                .group_by("n_players", "mirror_level", "position")
                .agg(pl.len().alias("games"), pl.col("credit").sum().alias("wins")))

    keys = ["n_players", "mirror_level", "position"]
    frame = mc.sum_batches(labelled, sums, keys).rename(columns={"mirror_level": "level"})
    if frame.empty:
        return pd.DataFrame(columns=["n_players", "level", "position", "games", "wins", "win_rate"])
    return mc.with_rate(frame, "wins", "games", "win_rate")


def seat_tests(rates: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per group of ``keys``: the chi-square test of wins by position (as the report's seat
    section), the best position and its win rate with interval."""
    rows = []
    for key, group in rates.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        group = group.sort_values("position")
        test = mc.seat_advantage_test(group["wins"].to_numpy())
        best = group.loc[group["win_rate"].idxmax()]
        rows.append({**dict(zip(keys, key)), "games": int(round(test["games"])), "chi2": test["chi2"],
                     "p_value": test["p_value"], "cohens_w": test["cohens_w"],
                     "best_position": int(best.position), "best_rate": float(best.win_rate),
                     "best_low": float(best.win_rate_low), "best_high": float(best.win_rate_high)})
    return pd.DataFrame(rows)


def holds(overall, test) -> tuple[bool, str]:
    """Whether one level's mirror test shows the run's seat finding, and what it shows instead."""
    significant = test.p_value < SIGNIFICANCE
    games = f"{test.games:,} mirror games"
    if overall.p_value < SIGNIFICANCE:
        if significant and test.best_position == overall.best_position:
            return True, ""
        if not significant:
            return False, f"not significant, {p_words(test.p_value)}, {games}"
        return False, f"{player_words(test.best_position)} wins most there, {pct(test.best_rate)}, {games}"
    if not significant:
        return True, ""
    return False, f"{player_words(test.best_position)} wins {pct(test.best_rate)}, {p_words(test.p_value)}, {games}"


def seat_finding_sentences(overall_tests: pd.DataFrame, mirror_tests: pd.DataFrame, ladder: Ladder) -> list[str]:
    """Per player count: the report's seat-advantage finding and the levels it holds for."""
    sentences = []
    for overall in overall_tests.itertuples():
        tests = {row.level: row for row in mirror_tests[mirror_tests["n_players"] == overall.n_players].itertuples()}
        fair = 1 / overall.n_players
        if overall.p_value < SIGNIFICANCE:
            finding = (f"{sentence_start(player_words(overall.best_position))}'s advantage at {overall.n_players} "
                       f"players (it wins {pct(overall.best_rate)} of all the run's games, fair share {pct(fair)}, "
                       f"{p_words(overall.p_value)})")
        else:
            finding = (f"No significant seat advantage at {overall.n_players} players over all the run's games "
                       f"({p_words(overall.p_value)})")
        held, failed, untested = [], [], []
        for level in ladder.level_names:
            if level not in tests:
                untested.append(level)
                continue
            ok, instead = holds(overall, tests[level])
            (held if ok else failed).append(level if ok else f"{level} ({instead})")
        sentences.append(finding + ": " + holds_words(held, failed, untested, ladder.level_names) + ".")
    return sentences


def holds_words(held: list[str], failed: list[str], untested: list[str], every: list[str]) -> str:
    if held and not failed and not untested and len(held) == len(every):
        return f"holds at every skill level ({join_words(held)} play)"
    parts = []
    if held:
        parts.append(f"holds for {join_words(held)} play")
    if failed:
        parts.append(("not for " if held else "holds for no level: not for ") + join_words(failed))
    if untested:
        parts.append(f"{join_words(untested)} not tested (no mirror games)")
    return ", ".join(parts)


def ranking_sentences(labelled: pl.LazyFrame, ratings: pd.DataFrame, ladder: Ladder) -> list[str]:
    """The report's strongest bot and ratings against the declared order of the levels; the
    strongest bot within each level that has several, from its mirror games."""
    sentences = []
    if not ratings.empty and ratings["level"].notna().any():
        rated = ratings[ratings["level"].notna()]
        per_level = (rated.groupby("level").agg(rating=("rating", "mean"), low=("low", "min"), high=("high", "max"))
                     .reindex(ladder.level_names).dropna(subset=["rating"]))
        best = ratings.iloc[0]
        declared = list(per_level.index)
        by_rating = list(per_level.sort_values("rating").index)
        if declared == by_rating:
            order = " < ".join(f"{level} {row.rating:.0f}" for level, row in per_level.iterrows())
            where = "the top level" if best.level == ladder.level_names[-1] else f"of level {best.level}"
            sentences.append(f"The report's strongest bot, {best.bot}, is {where}; the Bradley-Terry ratings of all "
                             f"games order the levels as declared: {order}.")
        else:
            order = ", ".join(f"{level} {row.rating:.0f}" for level, row in per_level.iterrows())
            swapped = []
            for weaker, stronger in zip(declared[:-1], declared[1:]):
                if per_level.loc[weaker, "rating"] > per_level.loc[stronger, "rating"]:
                    overlap = per_level.loc[weaker, "low"] <= per_level.loc[stronger, "high"]
                    swapped.append(f"{weaker} is rated above {stronger}"
                                   + (" (their 95% intervals overlap)" if overlap else ""))
            sentences.append(f"The report's strongest bot is {best.bot}; the Bradley-Terry ratings of all games do "
                             f"NOT order the levels as declared ({order}): {'; '.join(swapped) or 'the order differs'}.")
    for level in ladder.level_names:
        if len(ladder.bots_of(level)) < 2:
            continue
        pairs = mc.pairwise_results(mirror_games(labelled, level))
        if pairs.empty:
            continue
        inner = stats.bradley_terry(pairs)
        top = inner.iloc[0]
        sentences.append(f"In the mirror games of level {level} the strongest bot is {top.bot} (rating {top.rating:.0f}, "
                         f"95% CI {top.low:.0f}–{top.high:.0f}, of {join_words(list(inner['bot']))}).")
    return sentences


def mirror_games(labelled: pl.LazyFrame, level: str) -> pl.LazyFrame:
    """The seats of ``level``'s mirror games. The mirror level is computed over whole games
    before filtering; pairwise_results slices by game index, so whole games stay together."""
    games = labelled.with_columns(mirror_expression()).filter(pl.col("mirror_level") == level)
    setattr(games, GAME_RANGE, mc.game_range(labelled))
    return games


def analyse(seats: pl.LazyFrame, ladder: Ladder) -> LadderResult:
    """Every table and sentence of the section, from the standard seat frame (or any frame with
    game_index, n_players, position, bot, score, win, credit)."""
    labelled = with_levels(seats, ladder)
    matrix = level_matrix(labelled)
    gaps = skill_gaps(matrix, ladder)
    mirror_seats = mirror_seat_rates(labelled)
    mirror_tests = seat_tests(mirror_seats, ["n_players", "level"]) if not mirror_seats.empty else pd.DataFrame(
        columns=["n_players", "level", "p_value", "best_position", "best_rate"])
    overall_tests = seat_tests(mc.win_rates(seats, ["n_players", "position"]), ["n_players"])
    pairs = mc.pairwise_results(seats)
    ratings = stats.bradley_terry(pairs) if not pairs.empty else pd.DataFrame(columns=["bot", "rating", "low", "high"])
    level_of = {bot: level for level in ladder.level_names for bot in ladder.bots_of(level)}
    ratings["level"] = ratings["bot"].map(level_of)
    result = LadderResult(matrix, gaps, mirror_seats, mirror_tests, overall_tests, ratings)
    result.gap_sentences = gap_sentences(gaps)
    result.finding_sentences = (seat_finding_sentences(overall_tests, mirror_tests, ladder)
                                + ranking_sentences(labelled, ratings, ladder))
    return result


# ----------------------------------------------------------------------------- courtsim summary

def summary_lines(result: LadderResult) -> list[str]:
    return [*result.finding_sentences, *result.gap_sentences]


# ----------------------------------------------------------------------------- words

def pct(x: float) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.1f}%"


def p_words(p: float) -> str:
    if not np.isfinite(p):
        return "p = n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def join_words(words: list[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
