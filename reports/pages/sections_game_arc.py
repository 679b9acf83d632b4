"""The run report's "Game arc" section (issue 40), shown only when the run has a standings table:
how far to trust the win-probability model (reliability curve and Brier score on held-out
games), when games are decided (the distribution of decided-at per player count), how often
they are comebacks, and a fan of the leader's probability over the game, with the plain
sentence per player count in the headlines. What it shows is computed on the analysis floor
(reports.analysis.game_arc.analyse)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from reports.analysis import game_arc
from reports.analysis.rundir import Run
from reports.pages import plots
from reports.pages.sections_common import Context, Section, pct

SECTION_TITLE = "Game arc"
SECTION_ANCHOR = "game-arc"


def game_arc_section(ctx: Context, run: Run) -> Section | None:
    """The section, or None when the run has no standings table (the report is then unchanged)."""
    if not game_arc.has_standings(run):
        return None
    arc = game_arc.analyse(run)
    section = Section(SECTION_TITLE, SECTION_ANCHOR)
    section.paragraphs.append(
        "A win-probability model, fitted per player count on the standings after every turn (a logistic regression "
        "on the share of the game played and each seat's score and position-value gaps to the best other seat, the "
        "seats' probabilities of a position scaled to add up to 1), gives each seat's chance of winning as the game "
        f"goes. A game is decided at the share of the game from which the eventual winner's probability stays above "
        f"{game_arc.DECIDED:.0%} to the end (100%: only the last turn or the final scoring decides it); a comeback is a "
        f"game whose winner was below {game_arc.COMEBACK:.0%} at some point at 2 players, below "
        f"{game_arc.COMEBACK_SHARE:.0%} of the fair share 1/n at n players ({game_arc.comeback_threshold(4):.0%} at 4). "
        f"The final standing, where the result is known, is left out. The model is judged on games it was not fitted on (at most {game_arc.FIT_GAMES:,} games "
        f"per player count are used, {game_arc.HELD_OUT_SHARE:.0%} of them held out).")
    missing = sorted(set(arc.fitted.games) - set(arc.fitted.models))
    if missing:
        section.paragraphs.append(f"No model at {', '.join(str(n) for n in missing)} players: fewer than "
                                  f"{game_arc.MIN_FIT_GAMES} games to fit it on.")
    for calibration in arc.fitted.calibrations.values():
        section.paragraphs.append(game_arc.calibration_sentence(calibration))
    for row in arc.summary.itertuples():
        sentence = arc.sentences[int(row.n_players)]
        section.paragraphs.append(
            f"{sentence} Lead changes per game {row.lead_changes_mean:.1f} (95% CI {row.lead_changes_low:.1f}–"
            f"{row.lead_changes_high:.1f}); drama {row.drama_mean:.3f} (the winner's mean distance below the leader's "
            f"probability); {pct(row.out_of_contention_rate)} of losing seats fall out of contention (below "
            f"{game_arc.OUT_OF_CONTENTION:.0%} for good), half of them by {pct(row.out_of_contention_share_median, 0)} "
            "of the game.")
        ctx.headlines.append(f"Game arc: {sentence}")
    if arc.fitted.calibrations:
        section.figures.append(calibration_figure(ctx, arc))
    if not arc.summary.empty:
        section.figures.append(decided_at_figure(ctx, arc))
        section.figures.append(comeback_figure(ctx, arc))
    if not arc.fan.empty:
        section.figures.append(fan_figure(ctx, arc))
    kingmaking = game_arc.kingmaking_summary(run)
    if kingmaking is not None:
        section.paragraphs.append(
            "Kingmaking (courtsim kingmaking): for a sample of games, every decision a seat takes once the model puts "
            "it out of contention is played again with its other choices, every other draw the same; the kingmaker "
            "index is the share of games in which such a choice changes the winner.")
        for row in kingmaking.itertuples():
            sentence = game_arc.kingmaking_sentence(row)
            section.paragraphs.append(sentence)
            if row.n_players > 2:
                ctx.headlines.append(f"Kingmaking: {sentence}")
    return section


def calibration_figure(ctx: Context, arc: game_arc.GameArc):
    calibrations = list(arc.fitted.calibrations.values())
    figure, axes = plots.new_figure(4.0 * len(calibrations) + 1, 4.0, ncols=len(calibrations))
    for ax, calibration in zip(axes[0], calibrations):
        table = calibration.reliability
        errors = np.clip(np.nan_to_num(np.vstack([table["observed"] - table["observed_low"],
                                                  table["observed_high"] - table["observed"]])), 0, None) * 100
        ax.plot([0, 100], [0, 100], color="k", linestyle="--", linewidth=1, label="perfect calibration")
        ax.errorbar(table["mean_predicted"] * 100, table["observed"] * 100, yerr=errors, fmt="o-",
                    color=plots.PALETTE[0], capsize=3, label="held-out games")
        ax.set_title(f"{calibration.n_players} players: Brier {calibration.brier:.3f} "
                     f"(1/{calibration.n_players}: {calibration.base_rate_brier:.3f})", fontsize=9)
        ax.set_xlabel("predicted win probability (%)")
        ax.set_ylabel("observed win rate (%)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    table = pd.concat([calibration.reliability.assign(
        n_players=calibration.n_players, brier=calibration.brier, brier_low=calibration.brier_low,
        brier_high=calibration.brier_high, base_rate_brier=calibration.base_rate_brier,
        held_out_games=calibration.held_out_games) for calibration in calibrations], ignore_index=True)
    table = table[["n_players", *[c for c in table.columns if c != "n_players"]]]
    return ctx.store.add(
        "game_arc_calibration", "How far to trust the win-probability model", figure, table,
        "Reliability on held-out games: per decile of the model's predicted probability, the mean prediction against "
        "the observed win rate (win credit: a shared win counts 1/k), with 95% bootstrap intervals over games; on the "
        "dashed line the model is calibrated. Brier score: the mean squared error of the predictions (lower is "
        "better), beside that of always predicting the fair share 1/n.", ctx.n_games, table_rows=20)


def decided_at_figure(ctx: Context, arc: game_arc.GameArc):
    figure, axes = plots.new_figure(7.5, 4.0)
    ax = axes[0, 0]
    for i, (n_players, part) in enumerate(arc.decided_at.groupby("n_players", sort=True)):
        part = part.sort_values("decided_at")
        ax.step(np.append(0.0, part["decided_at"]) * 100, np.append(0.0, part["cumulative_share"]) * 100,
                where="post", color=plots.PALETTE[i % 10], label=f"{n_players} players")
    ax.axhline(50, color="k", linestyle=":", linewidth=1)
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_xlabel("share of the game played (%)")
    ax.set_ylabel("games decided by then (%)")
    ax.set_title(f"When games are decided (winner above {game_arc.DECIDED:.0%} for good)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return ctx.store.add(
        "game_arc_decided_at", "When games are decided", figure, arc.decided_at,
        "Share of games decided by each share of the game played, per player count (the dotted line: half of the "
        "games). A game ending at 100% is decided only by its last turn or the final scoring. Table: the number of "
        "games decided at each share.", ctx.n_games)


def comeback_figure(ctx: Context, arc: game_arc.GameArc):
    summary = arc.summary.assign(players=arc.summary["n_players"].map(lambda n: f"{n} players"))
    figure, axes = plots.new_figure(9.0, 3.8, ncols=2)
    plots.bars_with_intervals(summary, "players", "comeback_rate", "comeback_rate_low", "comeback_rate_high",
                              xlabel="player count", ylabel="comebacks (% of games)", title="Comeback rate", ax=axes[0, 0])
    plots.bars_with_intervals(summary, "players", "decided_at_median", "decided_at_median_low",
                              "decided_at_median_high", xlabel="player count", ylabel="share of the game (%)",
                              title="Half of the games are decided by", ax=axes[0, 1])
    return ctx.store.add(
        "game_arc_summary", "Comebacks and the median decided-at", figure, arc.summary,
        f"Left: share of games whose winner's probability was below {game_arc.COMEBACK:.0%} at some point ({game_arc.COMEBACK_SHARE:.0%} "
        "of the fair share 1/n at n players), 95% Wilson intervals. Right: "
        "the median decided-at with its 95% distribution-free interval. Table: per player count, also the quartiles "
        "of decided-at, lead changes and drama per game (means, 95% intervals) and the losing seats that fall out "
        "of contention.", ctx.n_games)


def fan_figure(ctx: Context, arc: game_arc.GameArc):
    counts = sorted(arc.fan["n_players"].unique())
    figure, axes = plots.new_figure(4.2 * len(counts) + 1, 3.8, ncols=len(counts))
    for ax, n_players in zip(axes[0], counts):
        part = arc.fan[arc.fan["n_players"] == n_players]
        leader = part[part["curve"] == "leader"].sort_values("share_played")
        winner = part[part["curve"] == "winner"].sort_values("share_played")
        x = leader["share_played"] * 100
        ax.fill_between(x, leader["q25"] * 100, leader["q75"] * 100, color=plots.PALETTE[0], alpha=0.25,
                        label="leader: quartiles")
        ax.fill_between(x, leader["median_low"] * 100, leader["median_high"] * 100, color=plots.PALETTE[0],
                        alpha=0.5, linewidth=0)
        ax.plot(x, leader["median"] * 100, color=plots.PALETTE[0], label="leader: median (95% CI)")
        ax.plot(winner["share_played"] * 100, winner["median"] * 100, color=plots.PALETTE[1], linestyle="--",
                label="eventual winner: median")
        ax.axhline(100 / n_players, color="k", linestyle=":", linewidth=1, label="fair share")
        ax.set_ylim(0, 100)
        ax.set_xlim(0, 100)
        ax.set_title(f"{n_players} players", fontsize=9)
        ax.set_xlabel("share of the game played (%)")
        ax.set_ylabel("win probability (%)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    return ctx.store.add(
        "game_arc_leader_fan", "The leader's win probability over the game", figure, arc.fan,
        "Per 5% of the game played: the median (line; darker band: its 95% distribution-free interval) and quartiles "
        "(lighter band) over games of the highest win probability of any seat at that point, and the eventual "
        "winner's median (dashed). Each game counts once per bin.", ctx.n_games, table_rows=20)
