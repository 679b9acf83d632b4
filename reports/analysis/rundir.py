"""A finished run directory as lazy polars tables, plus the standard per-seat and per-game
frames every report section starts from (the same columns for every game).

Standard seat frame (one row per game and seat): ``game_index``, ``n_players``, ``matchup``
(an experiment's match-up: its bots joined by `` vs ``; else the run's bots), ``seating`` (bot
names in seat order, comma-joined), ``seat``, ``position`` (turn-order position from the first start player), ``bot``, ``score``,
``win`` (0/1, shared wins included), ``credit`` (1 / number of winners for a winner, else 0:
shared wins are split so that the credits of a game sum to 1), ``n_winners`` (the games
table's) and
``score_after_round_<r>`` for each round the game has.

Standard game frame (one row per game): ``game_index``, ``n_players``, ``matchup``,
``n_winners``, ``tiebreak_decided`` (scores tied on top and the game's final tie-break decided;
Heads of State counts its shared wins here too, as the report always has),
``shared_win``, ``winning_score``, ``margin`` (winner's score minus the best other score),
``length`` (turns played).

Both standard frames carry the run's first and last ``game_index`` (attribute ``GAME_RANGE``):
the report's metrics slice them by game index, and finding the range through their join would
hold the whole run.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import polars as pl
import pyarrow
import pyarrow.parquet
import polars.selectors as cs
from polars.io.plugins import register_io_source

from sim import registry
from sim.core import results
from sim.core import run_manifest as manifests
from sim.core.engine import ConfigError

MANIFEST = "run.yaml"
# The standard frames carry the run's (first, last) game_index in this attribute, so that
# sliced metrics (reports.analysis.metrics_common.sum_batches) need not find it through their join.
GAME_RANGE = "courtsim_game_range"


@dataclass
class Run:
    """A complete run directory: its manifest and one lazy scan per table (each table a
    directory of Parquet parts, or an earlier build's one file: polars scans both)."""
    path: Path
    manifest: dict
    tables: dict[str, Path] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return self.manifest["config"]["game"]

    def has(self, table: str) -> bool:
        return table in self.tables

    def scan(self, table: str) -> pl.LazyFrame:
        """The table, tagged with the run's game range (every table holds games of that range).
        Labelled columns (dictionaries in Parquet, sim.core.table_schema) come as plain strings, so
        pandas group-bys downstream see labels, not categories."""
        lf = scan_table(self.tables[table]).with_columns(cs.categorical().cast(pl.String))
        setattr(lf, GAME_RANGE, self.game_range)
        return lf

    def columns(self, table: str) -> list[str]:
        return self.scan(table).collect_schema().names()

    @cached_property
    def game_range(self) -> tuple[int, int] | None:
        """First and last game_index of the games table (None when it is empty)."""
        return index_range(scan_table(self.tables["games"]))

    def bot_names_by_seat(self) -> list[str]:
        bots = self.manifest.get("config", {}).get("bots") or []
        return [str(b.get("name", f"bot{i}")) for i, b in enumerate(bots)]


# The games of the slice a metric is working on (reports.analysis.metrics_common.sum_batches), or
# None: a table scanned by scan_table then reads only the parts that hold those games.
_GAMES_SLICE: tuple[int, int] | None = None


@contextmanager
def games_slice(first: int, last: int):
    """Within: every run table read through :func:`scan_table` opens only the parts holding games
    ``first .. last`` (the slice's own filter still picks the rows). A query on a table of
    many parts otherwise reads every part's footer, once per slice: a 10^7-game run's report
    would read 500 footers for each of its 100 slices of each metric."""
    global _GAMES_SLICE
    previous, _GAMES_SLICE = _GAMES_SLICE, (first, last)
    try:
        yield
    finally:
        _GAMES_SLICE = previous


def scan_table(path: Path) -> pl.LazyFrame:
    """One run table, lazily: a directory of parts (sim.core.results; inside :func:`games_slice`
    only the parts of that slice are read), or an earlier build's one file."""
    parts = results.table_files(path)
    if Path(path).is_file() or len(parts) <= 1:
        return pl.scan_parquet(path)
    firsts = [results.first_game_of_part(part) for part in parts]

    def read_parts(with_columns, predicate, n_rows, batch_size):
        chosen = parts
        if _GAMES_SLICE is not None:
            first, last = _GAMES_SLICE
            # part k holds games firsts[k] .. firsts[k + 1] - 1 (parts are whole chunks, in game order)
            chosen = [part for k, part in enumerate(parts)
                      if firsts[k] <= last and (k + 1 == len(parts) or firsts[k + 1] > first)]
        for part in chosen:
            lf = pl.scan_parquet(part)
            if with_columns is not None:
                lf = lf.select(with_columns)
            if predicate is not None:
                lf = lf.filter(predicate)
            frame = lf.collect()
            if n_rows is not None:
                frame = frame.head(n_rows)
                n_rows -= frame.height
            yield frame
            if n_rows is not None and n_rows <= 0:
                return

    return register_io_source(read_parts, schema=pl.scan_parquet(parts[0]).collect_schema(),
                              explain_name="courtsim run table", explain_detail=str(path))


def check_run_directory_path(run_dir: Path) -> None:
    """ConfigError (one line) unless ``run_dir`` is a directory (summary and report alike)."""
    if run_dir.is_file():
        raise ConfigError(f"{run_dir}: expected a run directory, found a file")
    if not run_dir.is_dir():
        raise ConfigError(f"{run_dir}: no such run directory (run directory {run_dir} does not exist)")


def check_table_file(path: Path) -> None:
    """ConfigError (one line) unless ``path`` is a whole table: a directory of whole Parquet
    parts and nothing else (sim.core.results), or an earlier build's one merged file. A part
    or file truncated since it was written lacks the footer that Parquet reads first; a file
    that is no part (a user's, in the table's directory) would make every reader refuse it."""
    if path.is_dir():
        parts = results.table_files(path)
        if not parts:
            raise ConfigError(f"{path}: the table holds no parts; run the same simulate/run command again to repair it")
        others = [part.name for part in parts if not part.is_file() or not part.name.endswith(".parquet")
                  or part.name.startswith((".", "_"))]
        if others:
            raise ConfigError(f"{path} holds files that are not parts of the table ({', '.join(others[:3])}): "
                              "move them away")
    else:
        parts = [path]
    for part in parts:
        try:
            pyarrow.parquet.read_metadata(part)
        except pyarrow.ArrowException:
            raise ConfigError(f"{part}: not a complete Parquet file; "
                              "run the same simulate/run command again to repair it") from None
        except OSError as error:
            raise ConfigError(f"{part}: cannot read the table ({error.strerror or error})") from None


def read_run_manifest(run_dir: Path) -> dict:
    """The run.yaml of the directory ``run_dir`` (summary and report alike), read and checked by
    simulate's own reader (sim.core.run_manifest.read_manifest): ConfigError (one line) for a
    missing directory, a file, no run.yaml, or a run.yaml courtsim did not write (unreadable,
    hand-made, edited, another format such as ``courtsim_run: 99``), as simulate refuses it."""
    check_run_directory_path(run_dir)
    manifest_path = run_dir / MANIFEST
    if not manifest_path.is_file():
        raise ConfigError(f"{run_dir} is not a courtsim run directory (no {MANIFEST})")
    try:
        return manifests.read_manifest(run_dir)
    except manifests.NotACourtsimRun as error:
        raise ConfigError(f"{error}; courtsim reads only a run.yaml it wrote (simulate or run)") from None


def load_run(run_dir: Path) -> Run:
    """Open ``run_dir``; ConfigError (one line) if it is missing, incomplete or not a run."""
    run_dir = Path(run_dir)
    manifest = read_run_manifest(run_dir)
    manifest_path = run_dir / MANIFEST
    if manifest.get("status") != "complete":
        raise ConfigError(f"run in {run_dir} is {manifest.get('status', 'incomplete')}; "
                          "finish it (run the same simulate command again) before reporting")
    game = manifest["config"].get("game")
    if game not in registry.known_games():
        raise ConfigError(f"{manifest_path}: cannot report on game {game!r} "
                          f"(known: {', '.join(registry.known_games())})")
    names = manifest["config"].get("tables") or []
    tables = {}
    for name in names:
        path = results.table_path(run_dir, name)
        if not path.exists():
            raise ConfigError(f"run in {run_dir} is incomplete: table {path.name} is missing")
        check_table_file(path)
        tables[name] = path
    for needed in ("games", "seats"):
        if needed not in tables:
            raise ConfigError(f"run in {run_dir} is incomplete: table {needed}.parquet is missing")
    return Run(run_dir, manifest, tables)


def round_columns(columns: list[str], prefix: str) -> list[str]:
    """``prefix1``, ``prefix2``, ... present in ``columns``, in round order."""
    found = [c for c in columns if c.startswith(prefix) and c[len(prefix):].isdigit()]
    return sorted(found, key=lambda c: int(c[len(prefix):]))


def index_range(lf: pl.LazyFrame) -> tuple[int, int] | None:
    """First and last ``game_index`` of ``lf`` (None: no rows)."""
    low, high = collect(lf.select(pl.col("game_index").min().alias("low"),
                                  pl.col("game_index").max().alias("high"))).row(0)
    return None if low is None else (int(low), int(high))


def _matchup_expr(run: Run, games_columns: list[str]) -> pl.Expr:
    """An experiment's ``matchup`` (its bots, `` vs ``-joined); else the run's bots in seat order."""
    if "matchup" in games_columns:
        return pl.col("matchup").cast(pl.String)
    return pl.lit(" vs ".join(run.bot_names_by_seat()) or "unknown")


def _seating_expr(run: Run, games_columns: list[str]) -> pl.Expr:
    """Bot names in seat order, comma-joined (an experiment's ``seating`` column, else run.yaml)."""
    if "seating" in games_columns:
        return pl.col("seating").cast(pl.String)
    if "matchup" in games_columns:
        return pl.col("matchup").cast(pl.String).str.replace_all("|", ",", literal=True)
    return pl.lit(",".join(run.bot_names_by_seat()) or "unknown")


def _bot_expr(run: Run, seats_columns: list[str]) -> pl.Expr:
    if "bot" in seats_columns:
        return pl.col("bot").cast(pl.String)
    return pl.coalesce(pl.col("seating").str.split(",").list.get(pl.col("seat"), null_on_oob=True),
                       pl.lit("unknown"))


def seat_frame(run: Run) -> tuple[pl.LazyFrame, list[str]]:
    """The standard seat frame (module docstring) and its ``score_after_round_<r>`` columns."""
    games_columns = run.columns("games")
    seats_columns = run.columns("seats")
    games = run.scan("games").select(
        "game_index", "n_players", _matchup_expr(run, games_columns).alias("matchup"),
        _seating_expr(run, games_columns).alias("seating"), pl.col("n_winners").cast(pl.Int32))
    seats = run.scan("seats")
    # both games' seats tables share these columns (sim.core.table_schema.seat_columns)
    rounds = round_columns(seats_columns, "score_after_round_")
    drop_matchup = [c for c in ("matchup", "seating", "n_players") if c in seats_columns]
    lf = (seats.drop(drop_matchup)
          .join(games, on="game_index", how="left")
          .select("game_index", "n_players", "matchup", "seating", "seat",
                  pl.col("start_position").alias("position"), _bot_expr(run, seats_columns).alias("bot"),
                  pl.col("score"), (pl.col("is_winner") > 0).cast(pl.Int8).alias("win"), "n_winners", *rounds))
    lf = lf.with_columns(pl.when(pl.col("win") > 0).then(1.0 / pl.col("n_winners"))
                         .otherwise(0.0).alias("credit"))
    return _with_range(run, lf), rounds


def game_frame(run: Run) -> pl.LazyFrame:
    """The standard game frame (module docstring)."""
    games_columns = run.columns("games")
    games = run.scan("games")
    common = ["game_index", "n_players", _matchup_expr(run, games_columns).alias("matchup"), "n_winners"]
    outcome = [(pl.col("shared_win") > 0).alias("shared_win"), "winning_score", "margin"]
    tiebreak_decided, length = registry.descriptor(run.game).metrics().length_and_tiebreak(run, games_columns)
    if isinstance(length, pl.LazyFrame):     # counted from another table: joined by game
        frame = (games.select(*common, tiebreak_decided.alias("tiebreak_decided"), *outcome)
                 .join(length, on="game_index", how="left"))
    else:                                    # counted from the games table's own columns
        frame = games.select(*common, tiebreak_decided.alias("tiebreak_decided"), *outcome, length.alias("length"))
    return _with_range(run, frame)


def _with_range(run: Run, lf: pl.LazyFrame) -> pl.LazyFrame:
    """Tag a standard frame with the run's game_index range (see GAME_RANGE)."""
    setattr(lf, GAME_RANGE, run.game_range)
    return lf


def collect(lf: pl.LazyFrame):
    """Collect with polars' streaming engine (flat memory on big runs)."""
    return lf.collect(engine="streaming")
