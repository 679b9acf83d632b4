"""What the command line prints: every command's result as rich tables and lines on stdout,
progress and logs on stderr (the commands in cli.py parse, call one function and print here)."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import yaml
from rich.console import Console
from rich.table import Table

from reports.analysis.players import ordinal
from reports.analysis.summary import RunSummary
from sim.core import results
from sim.core.yaml_files import read_yaml_mapping

stdout = Console(highlight=False, width=None if sys.stdout.isatty() else 160)  # piped: no 80-column wrap
TERMINAL_DIFFERENCES = 20   # real differences the terminal lists (the report has them all)


def log(message: str) -> None:
    """A command's progress line, on stderr (stdout holds its result)."""
    print(message, file=sys.stderr)


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
    for table in ladder_tables(summary.ladder_result, summary.ladder):
        console.print(table)
    for line in skill_ladder.summary_lines(summary.ladder_result):
        console.print(f"- {line}", highlight=False)


def ladder_tables(result, ladder) -> list[Table]:
    """The skill ladder's level matrix per player count (row level finishes ahead of column
    level) and its steps (reports.analysis.skill_ladder.LadderResult)."""
    tables = []
    levels = ladder.level_names
    for n_players, part in result.matrix.groupby("n_players"):
        table = Table(title=f"Skill ladder, {n_players} players: row level finishes ahead of column level "
                            "[95% interval] (games)", title_justify="left")
        table.add_column("level", justify="left")
        for level in levels:
            table.add_column(level, justify="right")
        cells = {(row.level, row.opponent): row for row in part.itertuples()}
        for level in levels:
            table.add_row(level, *[ladder_cell(cells.get((level, opponent))) if opponent != level else "—"
                                   for opponent in levels])
        tables.append(table)
    table = Table(title="Skill gap: the stronger level finishes ahead of the weaker [95% interval]",
                  title_justify="left")
    for column in ("step", "players", "games", "stronger ahead", "verdict"):
        table.add_column(column, justify="left" if column in ("step", "verdict") else "right")
    for row in result.gaps.itertuples():
        table.add_row(f"{row.weaker} → {row.stronger}", str(row.n_players), f"{row.games:,}",
                      rate_with_interval(row.rate, row.rate_low, row.rate_high), row.verdict)
    tables.append(table)
    return tables


def ladder_cell(row) -> str:
    if row is None or row.games == 0:
        return "-"
    return f"{rate_with_interval(row.ahead_rate, row.ahead_rate_low, row.ahead_rate_high)} ({row.games:,})"


# ----------------------------------------------------------------------------- runs

def print_run_summary(result) -> None:
    """What a run (sim.core.runner.RunResult) played and wrote."""
    summary = Table(title=f"courtsim run: {result.out_dir}", show_header=False, box=None)
    summary.add_column(style="bold")
    summary.add_column()
    summary.add_row("games", f"{result.n_games:,}")
    if result.already_complete:
        summary.add_row("status", "already complete (nothing played)")
    else:
        summary.add_row("played", f"{result.games_played:,}"
                        + (f" ({result.chunks_reused} chunks reused)" if result.chunks_reused else ""))
        summary.add_row("seconds", f"{result.wall_seconds:,.1f}")
        if result.compile_seconds:
            summary.add_row("compiling", f"{result.compile_seconds:,.1f} s of those (first use on this machine)")
        summary.add_row("games/s", f"{result.games_per_second:,.0f}"
                        + (" (without the compiling)" if result.compile_seconds else ""))
    summary.add_row("output", str(result.out_dir))
    summary.add_row("run.yaml", "configuration, status, timings")
    for table, path in result.files.items():
        size = results.table_bytes(path) / 1e6    # the sum of its parts
        summary.add_row(path.name, f"{result.rows.get(table, 0):,} rows, {size:,.1f} MB")
    stdout.print(summary)


def print_experiment_plan(experiment, cells, out_dir: Path) -> None:
    stdout.print(f"{experiment.name}: {experiment.game}, players {', '.join(map(str, experiment.players))}, "
                 f"{len(experiment.bots)} bots, {len(cells)} seatings, "
                 f"{sum(cell.n_games for cell in cells):,} games -> {out_dir}")


# ----------------------------------------------------------------------------- bench

def print_compile(timings: list[tuple[str, float]], wall_seconds: float, as_json: bool) -> None:
    """``courtsim compile``: each game's seconds (the games compile side by side) and the wall time."""
    if as_json:
        print(json.dumps({"games": {game: round(seconds, 1) for game, seconds in timings},
                          "wall_seconds": round(wall_seconds, 1)}))
        return
    for game, seconds in timings:
        stdout.print(f"{game}: kernels ready in {seconds:.1f} s")
    stdout.print(f"all kernels ready in {wall_seconds:.1f} s")


def print_bench(report: dict, as_json: bool) -> None:
    """One timing of ``courtsim bench``."""
    if as_json:
        print(json.dumps(report))
        return
    stdout.print(f"{report['game']}, {report['players']} players, {report['games']:,} games in "
                 f"{report['seconds']:.2f} s (warm-up {report['warmup_seconds']:.2f} s): "
                 f"[bold]{report['games_per_second_per_core']:,.0f} games/s per core[/bold]", soft_wrap=True)


def print_bench_of_each_bot(game: str, players: int, reports: dict[str, dict], as_json: bool) -> None:
    """``courtsim bench --each-bot``: every bot's games per second, all seats alike."""
    listing = Table("bot", "games/s per core", "games", "seconds", title=f"{game}, {players} players")
    for name, report in reports.items():
        listing.add_row(name, f"{report['games_per_second_per_core']:,.0f}", f"{report['games']:,}",
                        f"{report['seconds']:.2f}")
    stdout.print(listing)
    if as_json:
        print(json.dumps({"game": game, "players": players, "bots": reports}))


def print_scaling(report: dict, as_json: bool) -> None:
    """``courtsim bench --scaling``: one core against every core."""
    stdout.print(f"{report['game']}, {report['players']} players, {report['games']:,} games per run, playing: "
                 f"1 core {report['games_per_second_one_core']:,.0f} games/s, "
                 f"{report['cores']} cores {report['games_per_second_every_core']:,.0f} games/s: "
                 f"[bold]scaling ratio {report['scaling_ratio']:.2f}[/bold]; the whole run (to run.yaml complete): "
                 f"{report['whole_run_games_per_second_one_core']:,.0f} and "
                 f"{report['whole_run_games_per_second_every_core']:,.0f} games/s, "
                 f"ratio {report['whole_run_scaling_ratio']:.2f}; "
                 f"{report['scheduling_share']:.1%} of the play's core time outside chunks", soft_wrap=True)
    if as_json:
        print(json.dumps(report))


# ----------------------------------------------------------------------------- games, tables, bots, variants

def print_games(rows: list[tuple[str, str, str]]) -> None:
    listing = Table("game", "players", "tables")
    for row in rows:
        listing.add_row(*row)
    stdout.print(listing)


def print_tables(schemas: list, markdown: bool) -> None:
    """Every column of the tables (sim.core.table_schema.TableSchema), as rich or Markdown tables."""
    from sim.core import table_schema

    for schema in schemas:
        if markdown:
            print(table_markdown(schema))
            continue
        listing = Table("column", "type", "meaning", title=f"{schema.name}.parquet: {schema.meaning}",
                        title_justify="left")
        for column in schema.columns:
            listing.add_row(column.name, column.type, table_schema.describe(column))
        stdout.print(listing)


def table_markdown(schema) -> str:
    """One table's columns as a Markdown table (the README's list is this output)."""
    from sim.core import table_schema

    rows = [f"| `{column.name}` | {column.type} | {table_schema.describe(column)} |" for column in schema.columns]
    return "\n".join([f"#### `{schema.name}.parquet`: {schema.meaning}", "", "| column | type | meaning |",
                      "|---|---|---|", *rows, ""])


def print_bots(definitions: list) -> None:
    """``courtsim bots list``: (game, bot definition) pairs."""
    listing = Table("game", "bot", "family", "description")
    for game, definition in definitions:
        listing.add_row(game, definition.name, definition.family, definition.description)
    stdout.print(listing)


def print_bot(definition, parameters: list) -> None:
    """``courtsim bots show``: a bot's family and every parameter's value, default, range and meaning."""
    stdout.print(f"[bold]{definition.name}[/bold] ({definition.game}, family {definition.family}; "
                 f"{definition.source}" + (f"; extends {' -> '.join(definition.chain)}" if definition.chain else "")
                 + f")\n{definition.description}")
    listing = Table("parameter", "value", "default", "range", "meaning")
    for parameter in parameters:
        value = definition.parameters[parameter.name]
        marker = "*" if parameter.name in definition.overrides else ""
        listing.add_row(parameter.name, f"{value:g}{marker}", f"{parameter.default:g}",
                        f"{parameter.low:g}..{parameter.high:g}", parameter.meaning)
    stdout.print(listing)


def print_variants(variants: list) -> None:
    """``courtsim variants list``: (game, variant) pairs."""
    listing = Table("game", "variant", "extends", "overrides", "description")
    for game, variant in variants:
        listing.add_row(game, variant.name, " -> ".join(variant.chain),
                        str(len(variant.overrides) + len(variant.rules)), variant.description)
    stdout.print(listing)


def print_variant(variant, rows: list[dict], rule_rows: list[dict]) -> None:
    """``courtsim variants show``: each override with the printed value and the variant's."""
    chain = f"; extends {' -> '.join(variant.chain)}" if variant.chain else ""
    stdout.print(f"[bold]{variant.name}[/bold] ({variant.game}; {variant.path}{chain})\n{variant.description}")
    listing = Table("override", "printed", "variant")
    for row in rows:
        listing.add_row(row["path"], yaml_text(row["printed"]), yaml_text(row["value"]))
    for row in rule_rows:
        listing.add_row(f"rules.{row['name']}", yaml_text(row["printed"]), yaml_text(row["value"]))
    stdout.print(listing)


def yaml_text(value) -> str:
    """A value as the YAML files write it (true, [16, 12, 8])."""
    return yaml.safe_dump(value, default_flow_style=True, width=1000).strip().removesuffix("...").strip()


# ----------------------------------------------------------------------------- studies

def print_comparison(directory: Path) -> None:
    """The real differences (and how many did not move), as the report's headlines."""
    import polars as pl

    table = pl.read_parquet(directory / "comparison.parquet")
    listing = Table("players", "variant", "metric", "baseline", "variant", "difference [95%]", "verdict", "CRN gain")
    # the largest first, measured in margins, so that a rate and a count rank together
    real = table.filter(pl.col("verdict") == "real").sort(
        (pl.col("difference").abs() / pl.col("margin")).fill_nan(0.0), descending=True)
    for row in real.head(TERMINAL_DIFFERENCES).iter_rows(named=True):
        scale, suffix = (100.0, "%") if row["unit"] == "rate" else (1.0, "")
        listing.add_row(str(row["n_players"]), row["variant"], row["metric_label"],
                        f"{row['baseline_value'] * scale:.1f}{suffix}", f"{row['variant_value'] * scale:.1f}{suffix}",
                        f"{row['difference'] * scale:+.2f} [{row['low'] * scale:+.2f}, {row['high'] * scale:+.2f}]",
                        row["verdict"], f"{row['crn_gain']:.1f}")
    stdout.print(listing)
    if real.height > TERMINAL_DIFFERENCES:
        stdout.print(f"... and {real.height - TERMINAL_DIFFERENCES} more real differences in the report")
    counts = table["verdict"].value_counts().sort("verdict")
    stdout.print(", ".join(f"{count} {verdict}" for verdict, count in counts.iter_rows()) +
                 f" (of {table.height}); report: {directory / 'report.html'}")


def print_sweep(directory: Path) -> None:
    """Each target's cells that meet it, and where the report is."""
    import polars as pl

    from reports.analysis.targets import target_status

    record = read_yaml_mapping(directory / "sweep.yaml", "sweep")
    statuses = target_status(pl.read_parquet(directory / "sweep.parquet").to_pandas(), record.get("targets") or [])
    if len(statuses):
        listing = Table("target", "meets", "may meet", "misses")
        for target, rows in statuses.groupby("target", sort=False):
            counts = rows["status"].value_counts()
            listing.add_row(str(target), *(str(int(counts.get(status, 0))) for status in ("meets", "may meet", "misses")))
        stdout.print(listing)
    stdout.print(f"{len(record['cells'])} cells; table: {directory / 'sweep.parquet'}; report: {directory / 'report.html'}")


def print_tuning(directory: Path) -> None:
    """The recommended candidates with their fresh misses, and where the report is."""
    record = read_yaml_mapping(directory / "tuning.yaml", "tuning")
    listing = Table("candidate", "values", "change", "fresh miss", "targets")
    for entry in record["recommended"]:
        listing.add_row(entry["name"], ", ".join(f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}"
                                                 for name, value in entry["values"].items()),
                        f"{entry['change']:.2f}", f"{entry['fresh_miss']:.2f}",
                        "; ".join(target["status"] for target in entry["targets"]))
    stdout.print(listing)
    stdout.print(f"variants: {directory / 'recommended'}; report: {directory / 'report.html'}")


def print_sensitivity(directory: Path) -> None:
    """Every conclusion's verdict in a sentence, and where the report is."""
    for verdict in read_yaml_mapping(directory / "sensitivity.yaml", "sensitivity")["conclusions"]:
        stdout.print(f"- {verdict['sentence']}")
    stdout.print(f"report: {directory / 'report.html'}")


def print_tuned_bot(written: Path) -> None:
    stdout.print(f"tuned bot: {written}\n{read_yaml_mapping(written, 'bot')['description']}")


def print_kingmaking(result) -> None:
    """The kingmaker index per player count and seat (sim.studies.kingmaking)."""
    table = new_table("Kingmaker index: share of games where a seat out of contention decides the winner "
                      "[95% interval]", ("players", "seat", "games", "seat out", "decisions", "replays",
                                         "kingmaker games", "index", "to next seat", "to previous seat",
                                         "misjudged", "note"), left=("seat", "note"))
    for row in result.summary.iter_rows(named=True):
        share = (lambda value: "-" if value is None or not math.isfinite(value) else f"{100 * value:.0f}%")
        index = "0 (by definition)" if row["note"] else rate_with_interval(
            row["kingmaker_index"], row["index_low"], row["index_high"])
        table.add_row(str(row["n_players"]), "all" if row["seat"] < 0 else str(row["seat"]), f"{row['games']:,}",
                      f"{row['games_out_of_contention']:,}", f"{row['decisions']:,}", f"{row['replays']:,}",
                      f"{row['kingmaker_games']:,}", index, share(row["share_to_next"]),
                      share(row["share_to_previous"]), f"{row['misjudged_games']:,}", row["note"])
    stdout.print(table)
    for note in result.notes:
        stdout.print(f"- {note}")
    counted = int(result.requests["counted"].sum()) if len(result.requests) else 0
    stdout.print(f"{len(result.requests):,} replays ({counted:,} with an alternative to the seat's own choice) in "
                 f"{result.seconds:.1f} s; written to {result.directory}")


def print_landscape(directory: Path) -> None:
    """The strategy landscape's verdicts (sim.studies.landscape): the meta-game per player count,
    every option's verdict, the luck-skill index, and where the tables and the page are."""
    import polars as pl

    for name in ("verdicts", "options", "skill", "exploit"):
        frame = pl.read_parquet(Path(directory) / f"{name}.parquet")
        for sentence in frame["sentence"].to_list() if frame.height else []:
            stdout.print(f"- {sentence}")
    stdout.print(f"tables: {directory}/equilibrium.parquet, options.parquet, skill.parquet; "
                 f"report: {Path(directory) / 'report.html'}")


def print_report_written(written: Path) -> None:
    stdout.print(f"report: {written} (figures and CSV tables in {written.parent / (written.stem + '_files')})")
