"""Rich terminal tables for ``courtsim summary`` and ``courtsim bots``."""
from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table

from reports.summary import RunSummary


def percent(value: float) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{100 * value:.1f}%"


def interval(low: float, high: float, as_percent: bool = True) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "-"
    if as_percent:
        return f"{100 * low:.1f}-{100 * high:.1f}%"
    return f"{low:+.2f} .. {high:+.2f}"


def count(value: float) -> str:
    if not math.isfinite(value):
        return "never (no gap)"
    return f"{math.ceil(value):,}"


def bot_table(summary: RunSummary) -> Table:
    table = Table(title="Win rates and score differences per bot (95% intervals)")
    for column in ("players", "bot", "games", "win rate", "95% interval", "fair", "score diff",
                   "95% interval ", "more games to resolve gap",
                   f"games to resolve ±{100 * summary.difference:g} pts"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary.by_bot.sort_values(["n_players", "win_rate"], ascending=[True, False]).itertuples():
        table.add_row(str(row.n_players), row.bot, f"{row.games:,}", percent(row.win_rate),
                      interval(row.win_low, row.win_high), percent(row.fair_share),
                      f"{row.score_difference:+.2f}", interval(row.difference_low, row.difference_high, False),
                      "resolved" if row.more_games_gap == 0 else count(row.more_games_gap),
                      count(row.games_for_difference))
    return table


def seat_table(summary: RunSummary) -> Table:
    table = Table(title="Win rate per seat (seat 1 starts)")
    for column in ("players", "seat", "games", "win rate", "95% interval", "fair", "mean score"):
        table.add_column(column, justify="right")
    for row in summary.by_seat.itertuples():
        table.add_row(str(row.n_players), str(row.seat + 1), f"{row.games:,}", percent(row.win_rate),
                      interval(row.win_low, row.win_high), percent(row.fair_share), f"{row.mean_score:.2f}")
    return table


def matchup_table(summary: RunSummary) -> Table:
    table = Table(title="Win rate per match-up")
    for column in ("players", "match-up", "bot", "games", "win rate", "95% interval", "score diff"):
        table.add_column(column, justify="left" if column in ("match-up", "bot") else "right")
    for row in summary.by_matchup.itertuples():
        table.add_row(str(row.n_players), row.matchup, row.bot, f"{row.games:,}", percent(row.win_rate),
                      interval(row.win_low, row.win_high), f"{row.score_difference:+.2f}")
    return table


def rating_table(summary: RunSummary) -> Table:
    table = Table(title="Bradley-Terry rating from every pair of seats (Elo scale, 95% interval)")
    for column in ("bot", "rating", "95% interval", "comparisons"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in summary.ratings.itertuples():
        span = "-" if not math.isfinite(row.low) else f"{row.low:.0f} .. {row.high:.0f}"
        table.add_row(row.bot, f"{row.rating:.0f}", span, f"{row.comparisons:,.0f}")
    return table


def print_summary(summary: RunSummary, console: Console) -> None:
    console.print(f"[bold]{summary.game}[/bold]: {summary.n_games:,} games")
    console.print(bot_table(summary))
    console.print(seat_table(summary))
    if summary.by_matchup["matchup"].nunique() > 1:
        console.print(matchup_table(summary))
    if len(summary.ratings) > 1:
        console.print(rating_table(summary))
