"""Declared result tables: every column's name, type and meaning, and the labels of coded columns.

Each engine declares its tables once (``TableSchema`` per table, built from the game's constants
and data); that declaration is the single source for

* the Parquet schema: ``to_arrow`` turns a coded column (the kernels keep writing integer codes)
  into a ``pa.DictionaryArray`` of its labels, with the same dictionary in every chunk so the
  parts of a run read as one column (read back as polars Categorical / pandas Categorical:
  ``pl.col("mode") == "gold"``);
* ``courtsim tables GAME`` and the README list (``describe``).

Missing values: a column declared with ``missing`` stores nulls where the kernel wrote a code
outside its labels (coded columns), -1 (plain integer columns, e.g. ``intrigue_seat`` when no
intrigue card was played) or NaN (float columns); ``missing`` says what a null means. A coded column without
``missing`` refuses unknown codes (a kernel and its labels drifted apart).

``play_chunk`` hands its tables to the runner as ``DeclaredColumns`` (a dict of numpy arrays that
also carries its ``TableSchema``), so the runner's in-memory labelling (``bot``, ``matchup``,
``seating``) keeps working on plain arrays and ``sim.core.results.columns_to_arrow`` finds the
declaration without a change to the runner's call.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
from sim.core.engine import ConfigError

# index type of every dictionary column: one Arrow type for all chunks and both games
DICTIONARY_INDEX = pa.int32()
MISSING_CODE = -1
WIN_DECIDED_BY_NAMES = ("score", "tiebreak", "shared")   # games.win_decided_by, both games


@dataclass(frozen=True)
class Column:
    """One declared column. ``labels[i]`` names code ``first_code + i``; ``type`` is the stored
    type: a numpy integer type (``int32``, ``int64``, ``uint64``; 0/1 flags are int32 and their
    meaning says "1 if ..."), ``float32``, ``label`` (a coded column, stored as a dictionary of ``labels``) or
    ``string`` (names repeated on many rows, stored as a dictionary too)."""
    name: str
    type: str
    meaning: str
    labels: tuple[str, ...] | None = None
    first_code: int = 0
    missing: str | None = None
    only_in: str | None = None        # e.g. "experiments": the column is not in every run

    @property
    def coded(self) -> bool:
        return self.labels is not None


# schema metadata key of an Arrow table whose Parquet file is written for speed (TableSchema.bulk)
BULK_KEY = b"courtsim.bulk"


@dataclass(frozen=True)
class TableSchema:
    name: str
    meaning: str
    columns: tuple[Column, ...]
    # True: a table of many rows per game (the standings), whose Parquet write would cost a run
    # more than a tenth of its speed, is written for speed: without dictionary pages (its position
    # values are mostly distinct numbers: trying a dictionary cost a third of the write and saved
    # nothing), lz4 rather than zstd (a third faster, files 1.7x larger), and statistics only on
    # game_index, the one column sliced scans filter on (results.write_parquet_atomically)
    bulk: bool = False
    by_name: dict[str, Column] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "by_name", {column.name: column for column in self.columns})

    def names(self) -> list[str]:
        return [column.name for column in self.columns]


class DeclaredColumns(dict):
    """``{column: numpy array}`` of one table plus the ``TableSchema`` that declares it."""

    def __init__(self, schema: TableSchema, columns: dict):
        super().__init__(columns)
        self.schema = schema


def declared_tables(schemas: dict[str, TableSchema], tables: dict[str, dict]) -> dict[str, DeclaredColumns]:
    """``play_chunk``'s result: each table's columns in declared order, with its declaration."""
    return {table: DeclaredColumns(schemas[table], ordered(schemas[table], columns)) for table, columns in tables.items()}


def bot_column(bots, seat: np.ndarray) -> np.ndarray:
    """seats.bot: the name of each row's bot (``bots`` in seat order)."""
    return np.array([bot.name for bot in bots])[np.asarray(seat)]


def ordered(schema: TableSchema, columns: dict) -> dict:
    """``columns`` in the declared order (undeclared ones last, as ``columns_to_arrow`` stores them)."""
    declared = [name for name in schema.names() if name in columns]
    return {name: columns[name] for name in declared + [name for name in columns if name not in schema.by_name]}


def label_column(name: str, meaning: str, labels, first_code: int = 0, missing: str | None = None,
                 only_in: str | None = None) -> Column:
    return Column(name, "label", meaning, tuple(labels), first_code, missing, only_in)


def seat_column(name: str, meaning: str, missing: str) -> Column:
    """A seat number (0-based, as in every table) that is null when no seat applies."""
    return Column(name, "int32", meaning, missing=missing)


def coded_to_arrow(column: Column, codes: np.ndarray, table: str) -> pa.DictionaryArray:
    """Integer codes -> dictionary array over ``column.labels`` (indices = code - first_code)."""
    indices = np.asarray(codes).astype(np.int64) - column.first_code
    unknown = (indices < 0) | (indices >= len(column.labels))
    if unknown.any() and column.missing is None:
        raise ValueError(f"engine contract: table {table!r} column {column.name!r} holds codes "
                         f"{sorted(set((indices[unknown] + column.first_code).tolist()))[:5]} outside its "
                         f"{len(column.labels)} labels {column.labels}")
    indices = pa.array(np.where(unknown, 0, indices).astype(np.int32), mask=unknown if unknown.any() else None,
                       type=DICTIONARY_INDEX)
    return pa.DictionaryArray.from_arrays(indices, pa.array(column.labels, pa.string()))


def to_arrow(column: Column | None, values: np.ndarray, table: str) -> pa.Array:
    """One column as Arrow, following its declaration (undeclared columns are stored as given)."""
    values = np.asarray(values)
    if column is None:
        return pa.array(values)
    if column.coded:
        return coded_to_arrow(column, values, table)
    if values.dtype.kind in "US" or values.dtype == object:
        # names repeated on every row (bot, matchup, seating): stored once per row group
        return pa.array(values.astype(str), pa.string()).dictionary_encode().cast(
            pa.dictionary(DICTIONARY_INDEX, pa.string()))
    values = values.astype(column.type, copy=False)   # one type per column in both games
    if column.missing is not None:
        # a float column's missing values are NaN (-1.0 can be a value: a position value)
        missing = np.isnan(values) if values.dtype.kind == "f" else values == MISSING_CODE
        return pa.array(values, mask=missing if missing.any() else None)
    return pa.array(values)


def arrow_table(schema: TableSchema | None, arrays: dict[str, np.ndarray], table: str) -> pa.Table:
    """The columns in the order given, each converted by its declaration."""
    by_name = schema.by_name if schema is not None else {}
    arrow = pa.table({name: to_arrow(by_name.get(name), values, table) for name, values in arrays.items()})
    if schema is not None and schema.bulk:
        arrow = arrow.replace_schema_metadata({**(arrow.schema.metadata or {}), BULK_KEY: b"1"})
    return arrow


def describe(column: Column) -> str:
    """The meaning of a column with its labels and what a null means, for tables and README."""
    text = column.meaning
    if column.coded:
        text += "; labels: " + ", ".join(column.labels)
    if column.missing is not None:
        text += f"; null: {column.missing}"
    if column.only_in is not None:
        text += f" (only in {column.only_in})"
    return text


# ---- the columns both games share: same name, same meaning (a designer's analysis of one game
# runs on the other). Seats are numbered from 0, rounds from 1.
def game_columns() -> tuple[Column, ...]:
    """Leading columns of every games table."""
    return (
        Column("game_index", "int64", "game number within the run (0-based); every table joins on it"),
        Column("n_players", "int32", "number of players"),
        Column("first_start_seat", "int32", "seat (0-based) of the start player of round 1"),
        Column("winner_mask", "int32", "bitmask of the winning seats (bit s = seat s)"),
        Column("first_winner", "int32", "lowest-numbered winning seat"),
        Column("n_winners", "int32", "number of winning seats (more than 1: a shared win)"),
        Column("shared_win", "int32", "1 if two or more seats share the win"),
        Column("decided_by_tiebreak", "int32",
               "1 if the top scores tied and the game's final tie-break gave a single winner"),
        label_column("win_decided_by", "how the winner was found: highest score alone, the game's final "
                     "tie-break (Louis XIV: own supply, §7; Heads of State: noble cards, kings first), or still "
                     "tied: a shared win", WIN_DECIDED_BY_NAMES),
        Column("winning_score", "int32", "the winners' score"),
        Column("margin", "int32", "winning score minus the best other score (0 when tied on points)"),
    )


def seat_columns() -> tuple[Column, ...]:
    """Leading columns of every seats table (one row per game and seat)."""
    return (
        Column("game_index", "int64", "game number within the run (0-based)"),
        Column("seat", "int32", "seat number (0-based; a replay's first line says how it numbers seats)"),
        Column("start_position", "int32", "place in the turn order of round 1 (0 = start player)"),
        Column("score", "int32", "final score"),
        Column("placement", "int32", "1 + number of seats with a higher score (ties share a placement)"),
        Column("is_winner", "int32", "1 if this seat won (alone or shared)"),
    )


def score_after_round_columns(n_rounds: int, when: str, last: str = "") -> tuple[Column, ...]:
    """``score_after_round_<r>``; ``last`` is appended to the last round's meaning (how that
    standing differs from the final ``score``)."""
    return tuple(Column(f"score_after_round_{round_number}", "int32",
                        f"score {when} of round {round_number}" + (last if round_number == n_rounds else ""))
                 for round_number in range(1, n_rounds + 1))


def seat_label_columns() -> tuple[Column, ...]:
    """Who played, added by the runner."""
    return (
        Column("bot", "string", "bot name of this seat"),
        Column("matchup", "string", "the bots that met (\"a vs b vs c\")", only_in="experiments"),
        Column("seating", "string", "bot names in seat order, comma-separated", only_in="experiments"),
    )


STANDINGS_MEANING = ("one row per game and position: every seat's standing after each turn, after each round's "
                     "end phases and after the end-of-game scoring, a seat's score and position value side by "
                     "side; opt-in (--tables standings)")
ABSENT_SEAT = "seat not in this game"


def standing_columns(turn: str, score: str, position_value: str, max_players: int) -> tuple[Column, ...]:
    """Every standings table's columns (the opt-in ``standings``): ``turn`` says what a turn is in
    the game, ``score`` and ``position_value`` how the game counts them. One row per position
    (after a turn, a round's end phases or the final scoring), in game order; a game's last row is
    its final standing. Each seat's score and position value are columns of the row (``score_seat_s``,
    ``position_value_seat_s``, null for seats the game does not have): a turn changes one seat's
    holdings, and a row per seat would repeat the others' standing at every turn (and cost the run
    four times the rows)."""
    seats = range(max_players)
    return (
        Column("game_index", "int64", "game number within the run (0-based)"),
        Column("turn", "int32", f"turns played so far in this game (1-based): a turn is {turn}; the row is the "
               "position after it (round-end and final rows repeat the last turn's number)"),
        Column("round", "int32", "round number (1-based)"),
        seat_column("acting_seat", "seat whose turn it was", "a row written after the round's end phases or after "
                    "the end-of-game scoring"),
        *(Column(f"score_seat_{seat}", "int32", f"seat {seat}'s points so far: {score}", missing=ABSENT_SEAT)
          for seat in seats),
        *(Column(f"position_value_seat_{seat}", "float32", f"seat {seat}'s position in points: {position_value}",
                 missing=ABSENT_SEAT) for seat in seats),
    )


def standing_seat_columns(column: str, n_players: int) -> list[str]:
    """The per-seat columns of one standings quantity (``score`` or ``position_value``) at
    ``n_players``: ``score_seat_0`` .. ``score_seat_{n - 1}``."""
    return [f"{column}_seat_{seat}" for seat in range(n_players)]


def standing_table_columns(positions: np.ndarray, values: np.ndarray, n_rows: int, n_players: int,
                           position_columns, max_players: int) -> dict[str, np.ndarray]:
    """A standings table's columns from a kernel's buffers: ``positions[column, row]`` holds each
    row's ``position_columns``, then each seat's score; ``values[seat, row]`` each seat's position
    value. The columns of seats the game does not have hold -1 / NaN: null in the table."""
    columns = {name: positions[index, :n_rows] for index, name in enumerate(position_columns)}
    first_score = len(position_columns)
    for seat, name in enumerate(standing_seat_columns("score", max_players)):
        columns[name] = (positions[first_score + seat, :n_rows] if seat < n_players
                         else np.full(n_rows, MISSING_CODE, np.int32))
    for seat, name in enumerate(standing_seat_columns("position_value", max_players)):
        columns[name] = values[seat, :n_rows] if seat < n_players else np.full(n_rows, np.nan, np.float32)
    return columns


def experiment_columns() -> tuple[Column, ...]:
    return seat_label_columns()[1:]


def win_decided_by(decided_by_tiebreak: np.ndarray, shared_win: np.ndarray) -> np.ndarray:
    """games.win_decided_by codes from the two flags (a shared win is never tie-break decided)."""
    return np.where(np.asarray(shared_win) > 0, WIN_DECIDED_BY_NAMES.index("shared"),
                    np.where(np.asarray(decided_by_tiebreak) > 0, WIN_DECIDED_BY_NAMES.index("tiebreak"),
                             WIN_DECIDED_BY_NAMES.index("score"))).astype(np.int32)


def placements(scores: np.ndarray, n_players: int) -> np.ndarray:
    """1 + the number of seats of the same game with a higher score; ``scores`` are the seats
    rows of whole games in game order, ``n_players`` rows per game."""
    per_game = np.asarray(scores).reshape(-1, n_players)
    higher = (per_game[:, None, :] > per_game[:, :, None]).sum(axis=2)
    return (1 + higher).reshape(-1).astype(np.int32)


def game_schemas(engine, game_file=None, table: str | None = None) -> list[TableSchema]:
    """The schemas of every table ``engine`` writes (or of ``table``), with labels from its game
    file (``courtsim tables``); ConfigError for an engine without them or an unknown table."""
    if not hasattr(engine, "table_schemas"):
        raise ConfigError(f"{engine.name}: the engine declares no table columns (expected a table_schemas method)")
    schemas = engine.table_schemas(engine.load_setup(str(game_file) if game_file else None))
    if table is not None and table not in schemas:
        raise ConfigError(f"--table: expected one of {', '.join(schemas)}, found {table!r}")
    return [schemas[table]] if table else list(schemas.values())
