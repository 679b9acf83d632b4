"""Report sections every game has: seat advantage, bots and match-ups, scores, game-level
balance indicators and drama. Each builder returns a :class:`Section` and may add plain
sentences to the report's headline findings."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from reports.analysis import metrics_common as mc
from reports.pages import plots
from reports.analysis.players import ordinal, player_words, sentence_start
from reports.pages.plots import FigureStore, StoredFigure


@dataclass
class Section:
    title: str
    anchor: str
    paragraphs: list[str] = field(default_factory=list)
    figures: list[StoredFigure] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)      # a list after the paragraphs
    link_href: str | None = None                          # a page next to the report it points to
    link_text: str = ""


@dataclass
class Context:
    """What section builders share: the lazy frames, the figure store and the headlines."""
    seats: pl.LazyFrame
    games: pl.LazyFrame
    round_columns: list[str]
    store: FigureStore
    n_games: int
    headlines: list[str] = field(default_factory=list)


def pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.{digits}f}%"


def half_width(low: float, high: float) -> str:
    return pct((high - low) / 2, 1 if (high - low) / 2 >= 0.001 else 2)


def p_text(p: float) -> str:
    if not np.isfinite(p):
        return "p = n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def seat_section(ctx: Context) -> Section:
    section = Section("Seat advantage", "seats")
    rates = mc.win_rates(ctx.seats, ["n_players", "position"])
    tests = mc.seat_advantage(ctx.seats)
    counts = sorted(rates["n_players"].unique())
    figure, axes = plots.new_figure(4.0 * len(counts) + 1, 3.8, ncols=len(counts))
    for ax, n_players in zip(axes[0], counts):
        part = rates[rates.n_players == n_players].sort_values("position")
        part = part.assign(player=[ordinal(int(position)) for position in part["position"]])
        plots.bars_with_intervals(part, "player", "win_rate", "win_rate_low", "win_rate_high",
                                  reference=1 / n_players, reference_label="fair share",
                                  xlabel="player in turn order (first = the start player)", ylabel="win rate (%)",
                                  title=f"{n_players} players", ax=ax)
    section.figures.append(ctx.store.add(
        "win_rate_by_seat", "Win rate by place in the turn order", figure, rates,
        "Win rate of the first, second, ... player in turn order with 95% Wilson intervals (the table's "
        "position: 0 = the start player); dashed line: fair share (1 / players). Shared wins count as 1/k for "
        "each of k winners.", int(rates.groupby("n_players")["games"].first().sum())))
    for test in tests.itertuples():
        part = rates[rates.n_players == test.n_players].sort_values("position")
        best = part.loc[part["win_rate"].idxmax()]
        first = part.iloc[0]
        ctx.headlines.append(
            f"{sentence_start(player_words(int(first.position)))} wins {pct(first.win_rate)} ± "
            f"{half_width(first.win_rate_low, first.win_rate_high)} of {test.n_players}-player games; "
            f"fair share is {pct(1 / test.n_players)}"
            + (f"; {player_words(int(best.position))} wins most, {pct(best.win_rate)}."
               if int(best.position) != int(first.position) else "; no other player wins more."))
        verdict = ("significant" if test.p_value < 0.05 else "not significant")
        caveat = "" if test.rotation_balanced else (
            " Bots differ by seat and are not seat-rotated, so this mixes seat and bot strength.")
        sentence = (f"{test.n_players} players ({test.games:,} games): χ² = {test.chi2:.1f} "
                    f"(dof {test.dof}), {p_text(test.p_value)}, Cohen's w = {test.cohens_w:.3f} "
                    f"({mc.effect_size_words(test.cohens_w)}); the seat difference is {verdict}. "
                    f"Balance (1 − largest gap between the players' win rates) = {test.balance:.3f}.{caveat}")
        section.paragraphs.append(sentence)
        ctx.headlines.append(f"Seat advantage at {test.n_players} players is {verdict} "
                             f"({p_text(test.p_value)}) with a {mc.effect_size_words(test.cohens_w)} effect "
                             f"(Cohen's w = {test.cohens_w:.3f}); balance = {test.balance:.3f}.{caveat}")
    tests.to_csv(ctx.store.directory / "seat_advantage_test.csv", index=False)
    section.paragraphs.append("Test: chi-square of win credits by turn-order position against equal "
                              "shares (scipy.stats.chisquare); effect size w = √(χ²/N). Table: "
                              "seat_advantage_test.csv.")
    return section


def bot_section(ctx: Context) -> Section | None:
    section = Section("Bots and match-ups", "bots")
    by_bot = mc.win_rates(ctx.seats, ["n_players", "bot"])
    table = mc.matchup_seat_table(ctx.seats)
    if by_bot["bot"].nunique() < 2:
        name = by_bot["bot"].iloc[0]
        section.paragraphs.append(f"Every seat is played by the same bot ({name}); there is no "
                                  "bot comparison or match-up matrix in this run.")
        return section
    by_bot["bot_fair_share"] = 1 / by_bot["n_players"]
    figure = plots.bars_with_intervals(by_bot, "bot", "win_rate", "win_rate_low", "win_rate_high",
                                       hue="n_players" if by_bot["n_players"].nunique() > 1 else None,
                                       reference=None if by_bot["n_players"].nunique() > 1 else
                                       1 / by_bot["n_players"].iloc[0], reference_label="fair share",
                                       xlabel="bot", ylabel="win rate per seat played (%)")
    section.figures.append(ctx.store.add(
        "win_rate_by_bot", "Win rate by bot", figure, by_bot,
        "Win rate per seat played by each bot, 95% Wilson intervals.", ctx.n_games))
    for row in by_bot.itertuples():
        ctx.headlines.append(f"{row.bot} wins {pct(row.win_rate)} ± {half_width(row.win_rate_low, row.win_rate_high)} "
                             f"of the seats it plays in {row.n_players}-player games (fair share {pct(1 / row.n_players)}).")
    matrix = mc.matchup_matrix(table)
    if not matrix.empty:
        pivot = matrix.pivot(index="bot", columns="opponent", values="win_rate")
        figure = plots.heatmap(pivot, xlabel="opponent present in the game", ylabel="bot",
                               colorbar_label="win rate per seat", vmin=0, vmax=1)
        section.figures.append(ctx.store.add(
            "matchup_matrix", "Head-to-head match-up matrix", figure, matrix,
            "Cell (row, column): win rate of the row bot's seats in games where at least one other "
            "seat plays the column bot (intervals in the CSV).", ctx.n_games))
    rates = mc.with_rate(table.copy(), "wins", "games", "win_rate")
    rates.to_csv(ctx.store.directory / "win_rate_by_matchup_and_seat.csv", index=False)
    by_matchup = mc.with_rate(table.groupby(["n_players", "matchup", "bot"], as_index=False)[["games", "wins"]].sum(),
                              "wins", "games", "win_rate")
    if by_matchup["matchup"].nunique() > 1:
        by_matchup["match-up"] = by_matchup["n_players"].astype(str) + "p: " + by_matchup["matchup"]
        pivot = by_matchup.pivot(index="match-up", columns="bot", values="win_rate")
        figure = plots.heatmap(pivot, xlabel="bot", ylabel="match-up", colorbar_label="win rate per seat",
                               vmin=0, vmax=1)
        section.figures.append(ctx.store.add(
            "win_rate_by_matchup", "Win rate per match-up", figure, by_matchup,
            "Win rate of each bot in each match-up (over all its seatings), 95% Wilson intervals in the CSV; "
            "per seating and seat: win_rate_by_matchup_and_seat.csv.", ctx.n_games, table_rows=20))
    else:
        section.paragraphs.append("Win rate per match-up and seat: win_rate_by_matchup_and_seat.csv.")
    ratings = bot_ratings(ctx.seats)
    if ratings is None:
        section.paragraphs.append("Bot ratings: not computed (reports.analysis.stats.bradley_terry is not available).")
    elif not ratings.empty:
        ratings = ratings.sort_values("rating", ascending=False).reset_index(drop=True)
        frame = ratings.assign(rating_low=ratings["low"], rating_high=ratings["high"])
        figure = plots.bars_with_intervals(frame, "bot", "rating", "rating_low", "rating_high", percent=False,
                                           xlabel="bot", ylabel="Bradley-Terry rating (Elo scale)")
        figure.axes[0].set_ylim(frame["rating_low"].min() - 50, frame["rating_high"].max() + 50)
        section.figures.append(ctx.store.add(
            "bot_ratings", "Bot ratings", figure, ratings,
            "Bradley-Terry ratings from every pair of seats with different bots (who finished ahead), on the "
            "Elo scale centred at 1500, with 95% intervals (reports.analysis.stats.bradley_terry).", ctx.n_games))
        best = ratings.iloc[0]
        ctx.headlines.append(f"Strongest bot: {best.bot} (rating {best.rating:.0f}, 95% CI {best.low:.0f}–{best.high:.0f}).")
    return section


def bot_ratings(seats: pl.LazyFrame) -> pd.DataFrame | None:
    """Bradley-Terry ratings through the lead's reports.analysis.stats, when it is there."""
    try:
        from reports.analysis.stats import bradley_terry
    except ImportError:
        return None
    pairs = mc.pairwise_results(seats)
    if pairs.empty:
        return pd.DataFrame()
    return bradley_terry(pairs)


def score_section(ctx: Context) -> Section:
    section = Section("Scores", "scores")
    by_seat = mc.value_counts(ctx.seats, "score", ["n_players", "position"])
    by_bot = mc.value_counts(ctx.seats, "score", ["bot"])
    by_players = mc.value_counts(ctx.seats, "score", ["n_players"])
    panels = [("position", by_seat, "by turn-order position"), ("bot", by_bot, "by bot"),
              ("n_players", by_players, "by player count")]
    figure, axes = plots.new_figure(15, 3.8, ncols=3)
    for ax, (group, frame, label) in zip(axes[0], panels):
        if group == "position" and frame["n_players"].nunique() > 1:
            frame = frame[frame.n_players == frame["n_players"].max()]
            label += f" ({frame['n_players'].iloc[0]} players)"
        plots.distributions(frame, "score", group, title=f"Final score {label}", xlabel="final score", ax=ax)
    summary = mc.score_summary(ctx.seats, ["n_players", "position", "bot"])
    section.figures.append(ctx.store.add(
        "score_distributions", "Final score distributions", figure, summary,
        "Share of seat-games at each final score; table: mean, sd and quartiles per player count, "
        "seat and bot.", ctx.n_games))
    winning = mc.value_counts(ctx.games, "winning_score", ["n_players"])
    margin = mc.value_counts(ctx.games, "margin", ["n_players"])
    figure, axes = plots.new_figure(11, 3.8, ncols=2)
    plots.distributions(winning, "winning_score", "n_players", title="Winning score", xlabel="winning score", ax=axes[0, 0])
    plots.distributions(margin, "margin", "n_players", title="Margin of victory", xlabel="winner's score − best other score", ax=axes[0, 1])
    both = pd.concat([winning.assign(measure="winning_score").rename(columns={"winning_score": "value"}),
                      margin.assign(measure="margin").rename(columns={"margin": "value"})], ignore_index=True)
    section.figures.append(ctx.store.add(
        "winning_score_and_margin", "Winning score and margin of victory", figure, both,
        "Distribution of the winner's score and of the margin over the best other score "
        "(0 = tied on points).", ctx.n_games))
    return section


def indicators_section(ctx: Context, tiebreak_words: str) -> Section:
    section = Section("Game-level balance indicators", "indicators")
    indicators = mc.game_indicators(ctx.games)
    tests = mc.seat_advantage(ctx.seats)
    merged = indicators.merge(tests[["n_players", "balance", "first_player_rate", "fair_share"]], on="n_players")
    merged["first_player_advantage"] = merged["first_player_rate"] - merged["fair_share"]
    upsets = mc.drama(ctx.seats, ctx.round_columns)
    merged.to_csv(ctx.store.directory / "balance_indicators.csv", index=False)
    for row in merged.itertuples():
        section.paragraphs.append(
            f"{row.n_players} players ({row.games:,} games): balance {row.balance:.3f}; first-player advantage "
            f"{100 * row.first_player_advantage:+.1f} points; {tiebreak_words} decided "
            f"{pct(row.tiebreak_rate)} (95% CI {pct(row.tiebreak_rate_low)}–{pct(row.tiebreak_rate_high)}); "
            f"shared wins {pct(row.shared_rate, 2)}; mean winning score {row.mean_winning_score:.1f}, "
            f"mean margin {row.mean_margin:.1f}, mean length {row.mean_length:.1f} turns.")
        ctx.headlines.append(f"In {row.n_players}-player games the final tie-break decides "
                             f"{pct(row.tiebreak_rate)} of games and {pct(row.shared_rate, 2)} end in a shared win.")
    section.paragraphs.append("Table: balance_indicators.csv (game length = turns played: "
                              "influence turns for Louis XIV, turns of all rounds for Heads of State).")
    if not upsets.empty:
        figure = plots.interval_lines(upsets, "round", "upset_rate", "upset_rate_low", "upset_rate_high",
                                      "n_players", xlabel="after round", ylabel="leader does not win (%)",
                                      title="Drama: the leader after each round is not a final winner")
        section.figures.append(ctx.store.add(
            "drama_by_round", "Drama: comebacks after each round", figure, upsets,
            "Share of games in which no seat leading (ties included) after the round wins the game, "
            "95% Wilson intervals.", ctx.n_games))
        for n_players, part in upsets.groupby("n_players"):
            first = part.sort_values("round").iloc[0]
            last = part.sort_values("round").iloc[-1]
            ctx.headlines.append(f"Drama at {n_players} players: the leader after round {int(first['round'])} "
                                 f"fails to win {pct(first.upset_rate)} of games; after round "
                                 f"{int(last['round'])}, {pct(last.upset_rate)}.")
    return section


SENSITIVITY_TITLE = "Do the conclusions survive the unprinted data?"


def sensitivity_section(ctx: Context, sensitivity, output: Path) -> Section:
    """Each conclusion's robust / fragile verdict from a sensitivity run (a
    reports.analysis.sensitivity_study.SensitivityRun), a link to its report, and one headline; a run
    that could not be used is only a note."""
    section = Section(SENSITIVITY_TITLE, "sensitivity")
    if sensitivity.settings is None:
        section.paragraphs.append(sensitivity.note or f"The sensitivity run in {sensitivity.directory} was not used.")
        return section
    settings = sensitivity.settings
    verdicts = sorted(settings.conclusions, key=lambda verdict: verdict.verdict != "fragile")
    fragile = [verdict for verdict in verdicts if verdict.verdict == "fragile"]
    robust = len(verdicts) - len(fragile)
    assumptions = ", ".join(dict.fromkeys(entry.assumption for entry in settings.inputs))
    section.paragraphs.append(
        f"The sensitivity study {settings.name} ({sensitivity.directory}) varied the component data the rulebook does "
        f"not print ({assumptions}) over plausible ranges, every design point playing the same games (common random "
        f"numbers). Each conclusion is stated at the printed data; robust: it holds at every point played, fragile: it "
        f"fails somewhere (the nearest input value where it fails is named). {robust} of {len(verdicts)} are robust.")
    section.bullets = [verdict.sentence for verdict in verdicts]
    href = sensitivity.href_from(output)
    if href is not None:
        section.link_href, section.link_text = href, f"The sensitivity report: {sensitivity.report}"
    else:
        section.paragraphs.append(f"The sensitivity report is not written yet: python -m reports.pages.sensitivity_report "
                                  f"{sensitivity.directory}")
    ctx.headlines.append(
        f"Of {len(verdicts)} conclusions, {robust} {'is' if robust == 1 else 'are'} robust to the unprinted component "
        f"data (sensitivity run {sensitivity.directory}); fragile: "
        + ("; ".join(verdict.text for verdict in fragile) if fragile else "none") + ".")
    return section
