"""Louis XIV report sections: courtier-flip dynamics, majority ties, Louis XIV's courtier,
bribes, and what winners collect."""
from __future__ import annotations

import pandas as pd

from reports.analysis import metrics_louis_xiv as lx
from reports.pages import plots
from reports.analysis.rundir import Run
from reports.pages.sections_common import Context, Section, pct

ABILITY_PREFIX = "uses_"


def sections(run: Run, ctx: Context) -> list[Section]:
    """Louis XIV's own sections of the run report (its descriptor names this module): the courtiers'
    flips, the Louis XIV courtier, gifts."""
    if not run.has("courtiers"):
        return [Section("Courtiers", "courtiers", ["This run has no courtiers table."])]
    courtiers = run.scan("courtiers")
    return [flip_section(courtiers, ctx), louis_section(courtiers, ctx), gifts_section(run, courtiers, ctx)]


def flip_section(courtiers, ctx: Context) -> Section:
    section = Section("Courtier-flip dynamics", "flips")
    flips = lx.flip_rates(courtiers)
    flipping = flips[flips["flips"] > 0]
    matrix = flips.pivot(index="courtier", columns="round", values="flip_rate")
    figure = plots.heatmap(matrix, xlabel="round", ylabel="courtier", colorbar_label="flip rate",
                           vmin=0, vmax=1)
    section.figures.append(ctx.store.add(
        "courtier_flip_rate", "Flip rate per courtier and round", figure, flips,
        "Share of evaluations after which the courtier tile flips (no flipping in the last round); "
        "Wilson intervals in the CSV.", ctx.n_games))
    if not flipping.empty:
        by_courtier = flipping.groupby("courtier")[["flips", "evaluations"]].sum()
        rate = by_courtier["flips"] / by_courtier["evaluations"]
        ctx.headlines.append(f"Courtier {rate.idxmax()} flips most often ({pct(rate.max())} of its evaluations "
                             f"before the last round), courtier {rate.idxmin()} least ({pct(rate.min())}).")
    shares = lx.mode_shares(courtiers)
    rounds = sorted(shares["round"].unique())
    figure, axes = plots.new_figure(4.2 * len(rounds) + 1.5, 3.8, ncols=len(rounds), sharey=True)
    for ax, round_number in zip(axes[0], rounds):
        part = shares[shares["round"] == round_number].pivot_table(
            index="courtier", columns="mode_name", values="share", aggfunc="sum", fill_value=0)
        part = part.reindex(columns=[m for m in lx.MODE_NAMES.values() if m in part.columns])
        plots.stacked_shares(part, title=f"round {round_number}", xlabel="courtier", ax=ax, legend_title="mode")
        if ax is not axes[0, -1]:
            ax.get_legend().remove()
    section.figures.append(ctx.store.add(
        "courtier_modes_by_round", "Side shown at each evaluation", figure, shares,
        "Share of evaluations of each courtier, per round, showing a gold (bribe), first-place or threshold "
        "(influence) side; the CSV also gives the side letter A/B.", ctx.n_games))
    side_matrix, mode_matrix = lx.side_transitions(courtiers)
    figure, axes = plots.new_figure(10, 3.6, ncols=2)
    plots.heatmap(side_matrix, title="tile side", xlabel="next evaluation", ylabel="this evaluation",
                  ax=axes[0, 0], vmin=0, vmax=1)
    plots.heatmap(mode_matrix, title="mode", xlabel="next evaluation", ylabel="this evaluation",
                  ax=axes[0, 1], vmin=0, vmax=1)
    both = pd.concat({"side": side_matrix, "mode": mode_matrix}, names=["matrix", "from"])
    section.figures.append(ctx.store.add(
        "courtier_transition_matrix", "Side-to-side transition matrices", figure, both,
        "Rows: side (or mode) at one evaluation; columns: at the same courtier's next evaluation; "
        "each row sums to 100%.", ctx.n_games))
    ties = lx.majority_ties(courtiers)
    figure = plots.bars_with_intervals(ties, "courtier", "decisive_tie_rate", "decisive_tie_rate_low",
                                       "decisive_tie_rate_high", xlabel="courtier", ylabel="deciding majority tie (%)")
    section.figures.append(ctx.store.add(
        "courtier_majority_ties", "Majority ties per courtier", figure, ties,
        "Share of evaluations where two or more colours tie for most markers and the tie decides who gets "
        "the gift, first place or Louis XIV's crown (not on threshold sides; 95% Wilson intervals); the CSV "
        "also gives all ties, empty tiles and ties broken by DB-ONCEFIRST.", ctx.n_games))
    top = ties.loc[ties["decisive_tie_rate"].idxmax()]
    ctx.headlines.append(f"Majority ties that decide a gift are most frequent on courtier {int(top.courtier)} "
                         f"({pct(top.decisive_tie_rate)} of its evaluations).")
    return section


def louis_section(courtiers, ctx: Context) -> Section:
    section = Section("Louis XIV's courtier and bribes", "louis")
    cases, per_courtier = lx.louis_outcomes(courtiers)
    if not cases.empty:
        figure = plots.bars_with_intervals(cases, "case", "share", "share_low", "share_high",
                                           xlabel="case (rules §4.3.4)", ylabel="share of Louis XIV evaluations (%)")
        plots.rotate(figure.axes[0], 20)
        section.figures.append(ctx.store.add(
            "louis_cases", "Outcomes on Louis XIV's courtier", figure, cases,
            "Cases A–E of rules §4.3.4 on the courtier where Louis XIV stands, 95% Wilson intervals; "
            "per-courtier crown/tie/second-place rates in louis_outcomes_by_courtier.csv.", ctx.n_games))
        per_courtier.to_csv(ctx.store.directory / "louis_outcomes_by_courtier.csv", index=False)
        crown = per_courtier["crown_taken"].sum() / per_courtier["evaluations"].sum()
        tied = per_courtier["tied_on_top"].sum() / per_courtier["evaluations"].sum()
        second = per_courtier["second_place_gift"].sum() / per_courtier["evaluations"].sum()
        section.paragraphs.append(f"On Louis XIV's courtier the crown is taken in {pct(crown)} of evaluations, "
                                  f"the top is tied (no crown) in {pct(tied)}, and a second-place gift is given in {pct(second)}.")
        ctx.headlines.append(f"Louis XIV's crown is taken in {pct(crown)} of his evaluations; ties on top deny it in {pct(tied)}.")
    bribes = lx.bribes_per_courtier(courtiers, ctx.n_games)
    figure = plots.bars_with_intervals(bribes.assign(low=bribes["gold_per_game"], high=bribes["gold_per_game"]),
                                       "courtier", "gold_per_game", "low", "high", percent=False,
                                       xlabel="courtier", ylabel="bribe gold spent per game")
    section.figures.append(ctx.store.add(
        "bribe_gold_per_courtier", "Bribe gold spent per courtier", figure, bribes,
        "Gold paid in bribes on each courtier per game (all seats), with bribes per game and gold per bribe.",
        ctx.n_games))
    total = bribes["bribe_gold"].sum() / ctx.n_games
    section.paragraphs.append(f"Players spend {total:.1f} gold on bribes per game in total.")
    return section


def gifts_section(run: Run, courtiers, ctx: Context) -> Section:
    section = Section("What winners collect", "winners")
    games = run.scan("games")
    gifts = lx.gifts_by_winners(courtiers, games)
    long = gifts.melt(id_vars="courtier", value_vars=["per_winner_game", "per_other_game"],
                      var_name="who", value_name="gifts")
    long["who"] = long["who"].map({"per_winner_game": "winners", "per_other_game": "others"})
    long["low"] = long["high"] = long["gifts"]
    figure = plots.bars_with_intervals(long, "courtier", "gifts", "low", "high", hue="who", percent=False,
                                       xlabel="courtier", ylabel="gifts received per seat and game")
    section.figures.append(ctx.store.add(
        "gifts_winners_vs_others", "Gifts collected by winners and by the others", figure, gifts,
        "Mean number of times a winning seat (others: a non-winning seat) received each courtier's gift "
        "in a game: free gifts, crown and second-place gifts under Louis XIV, and bribes.", ctx.n_games))
    ratio = gifts["per_winner_game"] / gifts["per_other_game"].where(gifts["per_other_game"] > 0)
    if ratio.notna().any():
        best = gifts.loc[ratio.idxmax(), "courtier"]
        ctx.headlines.append(f"Winners take courtier {best}'s gift {ratio.max():.2f}× as often as the other players.")
    seats = run.scan("seats")
    columns = seats.collect_schema().names()
    missions = list(lx.MISSION_COLOURS) + ["missions_in_hand"]
    abilities = [c for c in columns if c.startswith(ABILITY_PREFIX)]
    profile = lx.winner_profile(seats, missions + abilities)
    figure, axes = plots.new_figure(13, 4.2, ncols=2, gridspec_kw={"width_ratios": [1, 3]})
    for ax, names, title in ((axes[0, 0], missions, "missions per game"),
                             (axes[0, 1], abilities, "mission ability uses per game")):
        part = profile[profile["measure"].isin(names)].melt(id_vars="measure", var_name="who", value_name="mean")
        part["measure"] = part["measure"].str.replace(ABILITY_PREFIX, "", regex=False).str.replace("missions_", "", regex=False)
        part["low"] = part["high"] = part["mean"]
        plots.bars_with_intervals(part, "measure", "mean", "low", "high", hue="who", percent=False,
                                  xlabel="", ylabel="mean per seat and game", title=title, ax=ax)
        plots.rotate(ax, 60 if len(names) > 6 else 0)
    section.figures.append(ctx.store.add(
        "missions_winners_vs_others", "Missions and mission abilities: winners vs others", figure, profile,
        "Mean missions completed by colour (and left in hand) and mean uses of each mission ability, "
        "for winning and non-winning seats.", ctx.n_games, table_rows=30))
    sources = lx.score_sources(seats)
    sources = sources[~((sources["source"] == "other_sources") & (sources["points"] == 0))]
    shares = sources.pivot(index="who", columns="source", values="share")
    figure = plots.stacked_shares(shares, xlabel="", ylabel="share of points (%)", legend_title="source")
    section.figures.append(ctx.store.add(
        "score_sources", "Where the points come from", figure, sources,
        "Share of all points of winning and of non-winning seats by source: coats of arms by how they "
        "were obtained, and missions (5 VP each).", ctx.n_games))
    winners = sources[sources["who"] == "winners"].set_index("source")["share"]
    ctx.headlines.append(f"Winners' points: {pct(winners.get('missions_5vp', float('nan')))} from missions, "
                         f"{pct(winners.get('coats_from_gifts', float('nan')))} from courtier gifts' coats of arms.")
    return section
