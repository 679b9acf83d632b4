"""Tables a designer can read without the source: labelled coded columns, one column convention
in both games, and ``courtsim tables`` listing every column (sim.core.table_schema)."""
from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from typer.testing import CliRunner

import cli
from reports import terminal
from sim.core import results
from sim.core import table_schema as T
from sim.heads_of_state.engine import ENGINE as HEADS_OF_STATE
from sim.louis_xiv.engine import ENGINE as LOUIS_XIV

from courtsim_runs import courtsim

CHUNK_SIZE = 15
GAMES = 2 * CHUNK_SIZE + 5          # three chunks: the parts must read as one dictionary column


@pytest.fixture(scope="module")
def chunked_runs(tmp_path_factory):
    """Both games played in three chunks each (--chunk-size): three parts per table."""
    directory = tmp_path_factory.mktemp("chunked")
    runs = {}
    for game, bots in (("louis-xiv", "greedy,random,greedy"), ("heads-of-state", "random,greedy,random")):
        runs[game] = directory / game
        courtsim("simulate", game, "--players", "3", "--games", str(GAMES), "--bots", bots, "--seed", "11",
                 "--chunk-size", str(CHUNK_SIZE), "--jobs", "1", "--out", str(runs[game]))
    return runs


def read(run, table: str) -> pl.DataFrame:
    return pl.read_parquet(results.table_path(run, table))


def test_courtiers_mode_holds_gold_first_threshold(chunked_runs):
    courtiers = read(chunked_runs["louis-xiv"], "courtiers")
    assert courtiers.schema["mode"] == pl.Categorical
    assert set(courtiers["mode"].unique()) == {"gold", "first", "threshold"}
    assert courtiers.filter(pl.col("mode") == "gold").height > 0
    assert set(courtiers["side"].unique()) == {"A", "B"}


def test_louis_case_is_null_where_louis_xiv_is_not(chunked_runs):
    courtiers = read(chunked_runs["louis-xiv"], "courtiers")
    louis = courtiers["louis"] == 1
    assert courtiers.filter(~louis)["louis_case"].null_count() == courtiers.filter(~louis).height
    assert courtiers.filter(louis)["louis_case"].null_count() == 0
    assert set(courtiers.filter(louis)["louis_case"].unique()) <= {"A", "B", "C", "D", "E"}
    # seat columns: a seat number, or null when no seat applies (never -1)
    for column in ("intrigue_seat", "once_first_seat", "top_seat", "crown_seat", "second_seat", "markers_seat_3"):
        assert courtiers[column].fill_null(0).min() >= 0, column
    assert courtiers["markers_seat_3"].null_count() == courtiers.height        # a 3-player game has no seat 3


def test_betrayals_card_type_holds_labels_such_as_assassin(chunked_runs):
    betrayals = read(chunked_runs["heads-of-state"], "betrayals")
    assert betrayals.height > 0
    assert "assassin" in set(betrayals["card_type"].unique())
    assert set(betrayals["card_type"].unique()) <= {"assassin", "single_country", "double_country", "mixed"}
    assert set(betrayals["country"].unique()) <= {"GB", "FR", "ES", "DE"}
    assert set(betrayals["target_rank"].unique()) <= {"baron", "count", "earl", "margrave", "duke", "archduke", "king"}
    one_card = betrayals.filter(pl.col("cards_spent") == 1)
    assert one_card["card_b"].null_count() == one_card.height       # one card played: no second card


def test_parts_of_a_chunked_run_read_as_one_dictionary_column(chunked_runs):
    import pyarrow.parquet as pq
    for game, table, column in (("louis-xiv", "courtiers", "mode"), ("heads-of-state", "betrayals", "card_type")):
        path = results.table_path(chunked_runs[game], table)
        parts = results.table_files(path)
        assert len(parts) == 3 and all(pq.ParquetFile(part).num_row_groups == 1 for part in parts)   # one per chunk
        assert pa.types.is_dictionary(pq.read_table(path).schema.field(column).type)
        assert read(chunked_runs[game], table).schema[column] == pl.Categorical
        assert sorted(read(chunked_runs[game], "games")["game_index"].to_list()) == list(range(GAMES))


def test_both_games_seats_and_games_tables_share_the_common_columns(chunked_runs):
    for table, common in (("seats", T.seat_columns()), ("games", T.game_columns())):
        names = [column.name for column in common]
        louis, heads = read(chunked_runs["louis-xiv"], table), read(chunked_runs["heads-of-state"], table)
        assert louis.columns[:len(names)] == names == heads.columns[:len(names)], table
        assert [louis.schema[n] for n in names] == [heads.schema[n] for n in names], table
    for run in chunked_runs.values():
        games, seats = read(run, "games"), read(run, "seats")
        assert (games["n_winners"] == seats.group_by("game_index").agg(pl.col("is_winner").sum())
                .sort("game_index")["is_winner"]).all()
        assert set(games["win_decided_by"].unique()) <= {"score", "tiebreak", "shared"}
        assert (games.filter(pl.col("shared_win") == 1)["win_decided_by"] == "shared").all()


def test_rounds_are_numbered_from_1_and_louis_xiv_has_score_after_its_4_rounds_only(chunked_runs):
    seats = read(chunked_runs["louis-xiv"], "seats")
    assert [c for c in seats.columns if c.startswith("score_after_round_")] == [f"score_after_round_{r}" for r in (1, 2, 3, 4)]
    assert read(chunked_runs["louis-xiv"], "courtiers")["round"].min() == 1
    heads = chunked_runs["heads-of-state"]
    assert read(heads, "country_scoring")["round"].unique().sort().to_list() == [1, 2, 3]
    assert read(heads, "betrayals")["round"].min() >= 1
    assert [c for c in read(heads, "seats").columns if c.startswith("score_after_round_")] == [
        f"score_after_round_{r}" for r in (1, 2, 3)]


def test_every_column_play_chunk_returns_is_declared():
    for engine in (LOUIS_XIV, HEADS_OF_STATE):
        setup = engine.load_setup()
        schemas = engine.table_schemas(setup)
        assert set(schemas) == set(engine.tables) | set(engine.optional_tables)
        for schema in schemas.values():
            assert all(column.meaning for column in schema.columns), schema.name
            assert len(schema.names()) == len(set(schema.names())), schema.name


def test_a_missing_code_becomes_null_and_an_unknown_code_is_refused():
    labels = T.label_column("mode", "how the gift is won", ("gold", "first", "threshold"), missing="no mode")
    array = T.to_arrow(labels, np.array([0, 2, -1, 1]), "courtiers")
    assert array.to_pylist() == ["gold", "threshold", None, "first"]
    assert array.dictionary.to_pylist() == ["gold", "first", "threshold"]    # every label, used or not
    strict = T.label_column("mode", "how the gift is won", ("gold", "first", "threshold"))
    with pytest.raises(ValueError, match="outside its 3 labels"):
        T.to_arrow(strict, np.array([0, 3]), "courtiers")
    levels = T.label_column("first_tiebreak", "level", ("no_contest", "influence"), first_code=-1)
    assert T.to_arrow(levels, np.array([-1, 0]), "country_scoring").to_pylist() == ["no_contest", "influence"]
    seat = T.seat_column("crown_seat", "seat that took the crown", "no crown taken")
    assert T.to_arrow(seat, np.array([2, -1], np.int32), "courtiers").to_pylist() == [2, None]


def test_courtsim_tables_prints_every_column_with_type_and_meaning():
    runner = CliRunner()
    for game, engine in (("louis-xiv", LOUIS_XIV), ("heads-of-state", HEADS_OF_STATE)):
        result = runner.invoke(cli.app, ["tables", game, "--markdown"])
        assert result.exit_code == 0, result.output
        for schema in engine.table_schemas().values():
            assert f"`{schema.name}.parquet`" in result.output
            for column in schema.columns:
                assert f"| `{column.name}` | {column.type} |" in result.output
    courtiers = runner.invoke(cli.app, ["tables", "louis-xiv", "--table", "courtiers"])
    assert courtiers.exit_code == 0 and "gold, first, threshold" in courtiers.output
    unknown = runner.invoke(cli.app, ["tables", "louis-xiv", "--table", "betrayals"])
    assert unknown.exit_code == 2 and "error: --table: expected one of games, seats, courtiers" in unknown.output


def test_readme_lists_the_declared_columns():
    """The README's table lists are ``courtsim tables GAME --markdown``: regenerate them when a
    declaration changes."""
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for engine in (LOUIS_XIV, HEADS_OF_STATE):
        for schema in engine.table_schemas().values():
            assert terminal.table_markdown(schema) in readme, f"README: {engine.name} {schema.name} list is stale"
