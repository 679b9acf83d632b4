"""Columns that hold what their docs say: the per-seat inputs of the §6.4 country
scoring are null for seats not in the game, as every table's absent seats are, and a
double_country betrayal play is one that contains a double-country card (§1.5, §4.4)."""
import numpy as np
import pyarrow.compute as pc

from sim.core.results import columns_to_arrow
from sim.heads_of_state.betrayal import CARD_DOUBLE_COUNTRY, CARD_SINGLE_COUNTRY
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.state import MAX_PLAYERS


def test_s6_4_country_scoring_seats_beyond_the_players_are_null(setup):
    n_players, n_games = 3, 20
    tables = ENGINE.play_chunk(setup, n_players, [ENGINE.resolve_bot("greedy")] * n_players, 3, 0, n_games)
    table = columns_to_arrow("country_scoring", tables["country_scoring"], 0, n_games)
    schema = ENGINE.table_schemas(setup)["country_scoring"]
    for prefix in ("influence_seat_", "top_rank_seat_", "best_hex_seat_", "hex_key_seat_"):
        for seat in range(MAX_PLAYERS):
            column = table.column(f"{prefix}{seat}")
            if seat >= n_players:
                assert column.null_count == table.num_rows, column
                assert "seat not in this game" in schema.by_name[f"{prefix}{seat}"].missing
            elif prefix in ("influence_seat_", "hex_key_seat_"):
                assert column.null_count == 0, column               # 0 influence / key, never null
    assert pc.max(table.column("influence_seat_0")).as_py() > 0


def test_s4_4_double_country_plays_contain_a_double_country_card(setup):
    description = setup.description
    double = {i for i, name in enumerate(description["betrayal_types"]) if "/" in name}
    tables = ENGINE.play_chunk(setup, 4, [ENGINE.resolve_bot("random")] * 4, 8, 0, 150)
    plays = tables["betrayals"]
    has_double = np.isin(plays["card_a"], list(double)) | np.isin(plays["card_b"], list(double))
    kind = plays["card_type"]
    assert (kind == CARD_DOUBLE_COUNTRY).sum() > 0 and (kind == CARD_SINGLE_COUNTRY).sum() > 0
    assert np.array_equal(kind == CARD_DOUBLE_COUNTRY, has_double)
    meaning = ENGINE.table_schemas(setup)["betrayals"].by_name["card_type"].meaning
    assert "double_country = the play contains a double-country card" in meaning
