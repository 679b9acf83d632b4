"""Rich terminal tables for ``courtsim summary`` and ``courtsim bots``."""
from __future__ import annotations

import math

from rich.console import Console
from rich.table import Table

from reports.analysis.players import ordinal
from reports.analysis.summary import RunSummary


def rate_with_interval(rate: float, low: float, high: float) -> str:
    """``40.5% [39.8, 41.2]``."""
    if not math.isfinite(rate):
        return "-"
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{100 * rate:.1f}%"
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def mean_with_interval(mean: float, low: float, high: float) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{mean:+.2f}"
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def count(value: float) -> str:
    if not math.isfinite(value):
        return "-"
    return f"{math.ceil(value):,}"


def new_table(title: str, columns: tuple[str, ...], left: tuple[str, ...] = ("bot", "match-up")) -> Table:
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right", overflow="fold")
    return table


def bot_table(summary: RunSummary) -> Table:
    table = new_table("Per bot: win rate and score difference to the other seats [95% interval]",
                      ("players", "bot", "games", "win rate", "fair", "score diff", "more games¹",
                       f"games for ±{100 * summary.difference:g} pt²"))
    for row in summary.by_bot.sort_values(["n_players", "win_rate"], ascending=[True, False]).itertuples():
        table.add_row(str(row.n_players), row.bot, f"{row.games:,}",
                      rate_with_interval(row.win_rate, row.win_low, row.win_high), f"{100 * row.fair_share:.1f}%",
                      mean_with_interval(row.score_difference, row.difference_low, row.difference_high),
                      "resolved" if row.more_games_gap == 0 else count(row.more_games_gap),
                      count(row.games_for_difference))
    table.caption = ("¹ further games until the gap to the fair share is significant (95%, power 80%); "
                     f"² games to resolve a win-rate difference of {100 * summary.difference:g} point(s)")
    return table


def seat_table(summary: RunSummary) -> Table:
    table = new_table("Per player in turn order: win rate [95% interval]",
                      ("players", "player", "games", "win rate", "fair", "mean score"))
    for row in summary.by_seat.itertuples():
        table.add_row(str(row.n_players), ordinal(int(row.position)), f"{row.games:,}",
                      rate_with_interval(row.win_rate, row.win_low, row.win_high),
                      f"{100 * row.fair_share:.1f}%", f"{row.mean_score:.2f}")
    return table


def matchup_table(summary: RunSummary) -> Table:
    table = new_table("Per match-up: each bot's win rate [95% interval]",
                      ("players", "match-up", "bot", "games", "win rate", "score diff"))
    previous = None
    for row in summary.by_matchup.itertuples():
        first = (row.n_players, row.matchup) != previous
        previous = (row.n_players, row.matchup)
        table.add_row(str(row.n_players) if first else "", row.matchup if first else "", row.bot,
                      f"{row.games:,}", rate_with_interval(row.win_rate, row.win_low, row.win_high),
                      f"{row.score_difference:+.2f}", end_section=False)
    return table


def rating_table(summary: RunSummary) -> Table:
    table = new_table("Bradley-Terry rating from every pair of seats (Elo scale) [95% interval]",
                      ("bot", "rating", "comparisons"))
    for row in summary.ratings.itertuples():
        span = "" if not math.isfinite(row.low) else f" [{row.low:.0f}, {row.high:.0f}]"
        table.add_row(row.bot, f"{row.rating:.0f}{span}", f"{row.comparisons:,.0f}")
    return table


def print_summary(summary: RunSummary, console: Console) -> None:
    console.print(f"[bold]{summary.game}[/bold]: {summary.n_games:,} games")
    console.print(bot_table(summary))
    console.print(seat_table(summary))
    if summary.by_matchup["matchup"].nunique() > 1:
        console.print(matchup_table(summary))
    if len(summary.ratings) > 1:
        console.print(rating_table(summary))
    if summary.ladder_result is not None:
        ladder_text(summary, console)


def ladder_text(summary: RunSummary, console: Console) -> None:
    """A skill-ladder run: the level matrix, the steps and whether each finding holds per level."""
    from reports.analysis import skill_ladder

    console.print("[bold]Skill ladder[/bold] (levels weakest first: "
                  f"{', '.join(summary.ladder.level_names)})")
    for table in skill_ladder.summary_tables(summary.ladder_result, summary.ladder):
        console.print(table)
    for line in skill_ladder.summary_lines(summary.ladder_result):
        console.print(f"- {line}", highlight=False)
