"""Heads of State report sections: assassination odds, betrayal usage, tie-breaks, noble-card
majorities, score sources and round lengths."""
from __future__ import annotations

import pandas as pd

from reports.analysis import metrics_heads_of_state as hs
from reports.pages import plots
from reports.analysis.rundir import Run, round_columns
from reports.pages.sections_common import Context, Section, half_width, pct


def round_label(manifest: dict, number: int) -> str:
    """Round ``number`` (1-based, as in every table) with its year: 1 (1589), 2 (1689), 3 (1789)."""
    years = hs.game_data(manifest).get("rounds") or []
    return f"{number} ({years[number - 1]})" if 1 <= number <= len(years) else str(number)


def sections(run: Run, ctx: Context) -> list[Section]:
    """Heads of State's own sections of the run report (its descriptor names this module):
    assassinations, the tie-breaks of country scoring, score sources."""
    result = []
    if run.has("betrayals"):
        result.append(assassination_section(run, ctx))
    else:
        result.append(Section("Assassinations", "assassinations", ["This run has no betrayals table."]))
    if run.has("country_scoring"):
        result.append(tiebreak_section(run, ctx))
    result.append(sources_section(run, ctx))
    return result


def assassination_section(run: Run, ctx: Context) -> Section:
    section = Section("Assassinations and betrayal cards", "assassinations")
    betrayals = run.scan("betrayals")
    odds = hs.bag_odds(run.manifest)
    overall = hs.assassinations(betrayals, [])
    if overall["attempts"].iloc[0] == 0:
        section.paragraphs.append("No assassination was attempted in this run.")
    else:
        row = overall.iloc[0]
        verdict = "consistent with" if row.success_rate_low <= odds <= row.success_rate_high else "different from"
        ctx.headlines.append(f"Assassinations succeed {pct(row.success_rate)} ± {half_width(row.success_rate_low, row.success_rate_high)} "
                             f"of {int(row.attempts):,} attempts, {verdict} the bag's {pct(odds)}.")
        target = hs.assassinations(betrayals, ["capital"])
        target["target"] = target["capital"].map({0: "province", 1: "capital"})
        rank = hs.assassinations(betrayals, ["target_rank"])
        rank["rank"] = rank["target_rank"]
        by_round = hs.assassinations(betrayals, ["round"])
        by_round["round_label"] = [round_label(run.manifest, int(r)) for r in by_round["round"]]
        figure, axes = plots.new_figure(15, 3.8, ncols=3, sharey=True)
        for ax, frame, x, title in ((axes[0, 0], target, "target", "by target"),
                                    (axes[0, 1], rank, "rank", "by target rank"),
                                    (axes[0, 2], by_round, "round_label", "by round")):
            plots.bars_with_intervals(frame, x, "success_rate", "success_rate_low", "success_rate_high",
                                      reference=odds, reference_label=f"bag odds {pct(odds)}", xlabel=x.replace("_label", ""),
                                      ylabel="success (%)", title=title, ax=ax)
            ax.set_ylim(0, 105)
        table = pd.concat([target.assign(split="target").rename(columns={"target": "group"}),
                           rank.assign(split="target_rank").rename(columns={"rank": "group"}),
                           by_round.assign(split="round").rename(columns={"round_label": "group"})],
                          ignore_index=True)[["split", "group", "attempts", "successes", "success_rate",
                                              "success_rate_low", "success_rate_high"]]
        section.figures.append(ctx.store.add(
            "assassination_odds", "Assassination success against the bag's odds", figure, table,
            f"Realised success of assassination attempts (assassin plays resolved by the bag draw) with 95% Wilson "
            f"intervals; dashed line: the bag's {pct(odds)}. Attempts: {int(row.attempts):,}.", ctx.n_games))
    usage = hs.betrayal_usage(betrayals, ctx.n_games)
    usage["play"] = usage["card"] + " → " + usage["target"]
    usage["low"] = usage["high"] = usage["plays_per_game"]
    figure = plots.bars_with_intervals(usage, "play", "plays_per_game", "low", "high", percent=False,
                                       xlabel="betrayal card(s) → target", ylabel="plays per game")
    plots.rotate(figure.axes[0], 15)
    section.figures.append(ctx.store.add(
        "betrayal_usage", "Betrayal card usage", figure, usage.drop(columns=["low", "high"]),
        "Plays per game of each kind of betrayal card by target; the CSV gives kills, success rate and how many "
        "vacated boxes were refilled (refill_rate = refilled / kills).", ctx.n_games))
    kills = usage["kills"].sum()
    if kills:
        refilled = usage["refilled"].sum() / kills
        section.paragraphs.append(f"{pct(refilled)} of the boxes emptied by a kill were refilled "
                                  f"({int(kills):,} kills, {kills / ctx.n_games:.2f} per game).")
    return section


def tiebreak_section(run: Run, ctx: Context) -> Section:
    section = Section("Tie-breaks", "tiebreaks")
    country = run.scan("country_scoring")
    frame = hs.tiebreaks(country, ["country", "round"])
    frame["country_name"] = frame["country"]
    frame["round_label"] = [round_label(run.manifest, int(r)) for r in frame["round"]]
    figure, axes = plots.new_figure(13, 4.0, ncols=2, sharey=True)
    for ax, place in zip(axes[0], ("first", "second")):
        part = frame[frame["place"] == place]
        shares = part.pivot_table(index=["country_name", "round_label"], columns="level_name",
                                  values="share", aggfunc="sum", fill_value=0)
        order = [name for name in hs.TIEBREAK_LEVELS.values() if name in shares.columns]
        shares = shares[order]
        shares.index = [f"{c} r{r.split(' ')[0]}" for c, r in shares.index]
        plots.stacked_shares(shares, title=f"{place} place decided by", xlabel="country, round", ax=ax,
                             legend_title="tie-break level")
        if place == "first":
            ax.get_legend().remove()
    section.figures.append(ctx.store.add(
        "country_tiebreaks", "Round-end country scoring: which tie-break decided", figure, frame,
        "For each country and round, the share of round-end scorings whose first (left) and second (right) "
        "place was decided by influence alone, by the highest rank, by hexagon values, or left to chance; "
        "Wilson intervals in the CSV.", ctx.n_games, table_rows=20))
    overall = hs.tiebreaks(country, [])
    for place in ("first", "second"):
        part = overall[overall["place"] == place].set_index("level")
        rank = part["share"].get("highest_rank", 0.0)
        hexagon = part["share"].get("hexagon_value", 0.0)
        ctx.headlines.append(f"At round-end country scoring, {place} place is decided by the highest rank in "
                             f"{pct(rank)} and by the hexagon tie-break in {pct(hexagon, 2)} of scorings.")
    seats = run.scan("seats")
    cards = [c for c in seats.collect_schema().names() if c.startswith("cards_")]
    if cards:
        majorities = hs.majority_ties(seats, cards)
        shares = majorities.pivot_table(index="rank", columns="outcome", values="share", aggfunc="sum", fill_value=0)
        shares = shares.reindex(index=[r for r in hs.RANK_NAMES if r in shares.index])
        shares = shares[[c for c in ("sole leader", "two-way split", "3+-way void", "nobody") if c in shares.columns]]
        figure = plots.stacked_shares(shares, xlabel="noble rank", legend_title="end-game majority")
        section.figures.append(ctx.store.add(
            "noble_card_majorities", "End-game noble-card majorities", figure, majorities,
            "Per rank, share of games in which the most noble cards of that rank are held by one player, "
            "split by two, void (three or more tied) or nobody holds one.", ctx.n_games, table_rows=28))
        void = majorities[majorities["outcome"] != "sole leader"].groupby("rank")["share"].sum()
        void = void.drop(labels=[r for r in void.index if r not in hs.RANK_NAMES])
        if not void.empty:
            ctx.headlines.append(f"End-game majority of {void.idxmax()}s is tied or unheld in {pct(void.max())} of games.")
    games = run.scan("games")
    winner = hs.winner_tiebreak(games)
    winner.to_csv(ctx.store.directory / "winner_tiebreak.csv", index=False)
    for row in winner.itertuples():
        section.paragraphs.append(f"{row.n_players} players: {row.outcome} in {pct(row.share, 2)} of games "
                                  f"({int(row.count):,} of {int(row.games):,}).")
    return section


def sources_section(run: Run, ctx: Context) -> Section:
    section = Section("Score sources and round lengths", "sources")
    seats = run.scan("seats")
    columns = [c for c in hs.SCORE_SOURCES if c in seats.collect_schema().names()]
    sources = hs.score_sources(seats, columns)
    shares = sources.pivot(index="who", columns="source", values="share")
    shares = shares[[hs.SCORE_SOURCES[c] for c in columns]]
    figure = plots.stacked_shares(shares, xlabel="", ylabel="share of points (%)", legend_title="source")
    section.figures.append(ctx.store.add(
        "score_sources", "Where the points come from", figure, sources,
        "Share of all points of winning and of non-winning seats by source.", ctx.n_games))
    winners = sources[sources["who"] == "winners"].sort_values("share", ascending=False)
    if not winners.empty:
        top = winners.iloc[0]
        ctx.headlines.append(f"Winners' biggest score source is {top.source} ({pct(top.share)} of their points).")
    games = run.scan("games")
    turns = round_columns(games.collect_schema().names(), "turns_round_")
    if turns:
        lengths = hs.round_lengths(games, turns)
        figure = plots.bars_with_intervals(lengths.assign(low=lengths["p10"], high=lengths["p90"]), "round", "mean",
                                           "low", "high", hue="n_players" if lengths["n_players"].nunique() > 1 else None,
                                           percent=False, xlabel="round", ylabel="turns (mean, whiskers 10th–90th percentile)")
        section.figures.append(ctx.store.add(
            "round_lengths", "Round lengths", figure, lengths,
            "Turns started in each round (an interrupted turn counts in the round it started).", ctx.n_games))
    return section
