"""The opt-in standings table (issue 40): every seat's standing after each player turn (§4), after
each round's end (§5.2) and at the end of the game (§6).

Asking for it changes no other table; a game's last row holds its final scores; a game has one
row for every turn, every round end and the end, with every seat's standing; the position values
are the search bot's own (strategies/heads_of_state/position.py) on the same positions, replayed turn by turn."""
import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.kernel import setup_game
from sim.heads_of_state.state import (N_COUNTRIES, N_ROUNDS, S_ACTIVE, S_GAME_OVER, S_KEPT_KNOWN, S_ROUND, copy_state,
                                      new_state)
from sim.heads_of_state.turn import play_turn
from strategies.heads_of_state.parameters import default_params
from strategies.heads_of_state.position import country_places, position_values, ranked_places
from standings_tables import per_game_rows

FEW = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
player_counts = st.sampled_from([2, 3, 4, 5])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
bot_mixes = st.lists(st.sampled_from(["random", "greedy"]), min_size=5, max_size=5)


def with_standings(setup):
    return dataclasses.replace(setup, optional_tables=("standings",))


def play(setup, n_players, bot_names, seed, n_games, first_game=0):
    bots = [ENGINE.resolve_bot(name) for name in bot_names[:n_players]]
    return ENGINE.play_chunk(setup, n_players, bots, seed, first_game, n_games)


def test_a_search_bot_s_rollouts_record_no_standings(setup):
    names = ["search", "greedy", "greedy"]
    without = play(setup, 3, names, 11, 1)
    with_them = play(with_standings(setup), 3, names, 11, 1)
    for table, columns in without.items():
        for name, values in columns.items():
            assert np.array_equal(values, with_them[table][name]), f"{table}.{name}"
    games = without["games"]
    turns = sum(int(games[f"turns_round_{r}"][0]) for r in range(1, N_ROUNDS + 1))
    assert len(with_them["standings"]["game_index"]) == turns + N_ROUNDS + 1


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_rows_per_game_are_turns_round_ends_and_the_end(setup, n_players, bot_names, seed):
    tables = play(with_standings(setup), n_players, bot_names, seed, 60)
    games, standings = tables["games"], tables["standings"]
    turns = sum(np.asarray(games[f"turns_round_{r}"]) for r in range(1, N_ROUNDS + 1))
    assert np.array_equal(np.bincount(np.asarray(standings["game_index"])), turns + N_ROUNDS + 1)
    for game, rows in per_game_rows(standings, n_players).items():
        acting = rows["acting_seat"]
        is_turn = acting >= 0
        assert np.array_equal(rows["turn"][is_turn], np.arange(1, turns[game] + 1))
        for round_number in range(1, N_ROUNDS + 1):   # turns_round_<r> counts the turns started in round r
            in_round = is_turn & (rows["round"] == round_number)
            assert in_round.sum() == games[f"turns_round_{round_number}"][game]
        assert (~is_turn).sum() == N_ROUNDS + 1 and (acting[-2:] == -1).all()
        for seat in range(n_players, 5):                # seats the game does not have: null in the table
            assert (rows[f"score_seat_{seat}"] == -1).all()
            assert np.isnan(rows[f"position_value_seat_{seat}"]).all()


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_a_game_s_last_row_holds_its_final_scores(setup, n_players, bot_names, seed):
    tables = play(with_standings(setup), n_players, bot_names, seed, 60)
    seats = tables["seats"]
    for game, rows in per_game_rows(tables["standings"], n_players).items():
        final = seats["score"][seats["game_index"] == game]
        assert np.array_equal(rows["score"][-1], final)
        assert np.array_equal(rows["position_value"][-1], final.astype(np.float32))


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_score_never_falls_and_never_exceeds_the_final_score(setup, n_players, bot_names, seed):
    """Points are only ever added (§6: tokens and noble cards are kept), so the score so far
    only grows, up to the final score."""
    tables = play(with_standings(setup), n_players, bot_names, seed, 60)
    for rows in per_game_rows(tables["standings"], n_players).values():
        scores = rows["score"]
        assert (np.diff(scores, axis=0) >= 0).all()
        assert (scores <= scores[-1]).all()


def test_round_end_rows_hold_the_score_after_each_round(setup):
    tables = play(with_standings(setup), 4, ["greedy", "random", "greedy", "random"], 3, 40)
    seats = tables["seats"]
    for game, rows in per_game_rows(tables["standings"], 4).items():
        ends = rows["score"][rows["acting_seat"] == -1]
        for round_number in range(1, N_ROUNDS):   # the last round's end also holds the majorities (§6.5)
            after = seats[f"score_after_round_{round_number}"][seats["game_index"] == game]
            assert np.array_equal(ends[round_number - 1], after)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_position_value_is_the_search_bot_s_on_the_replayed_positions(setup, n_players, bot_names, seed):
    """Every turn of several games replayed from Python (kernel.play_game's loop), every seat
    valued by the search's own position_values with its default parameters; the final score once
    the game has ended."""
    games = range(3, 6)
    recorded = per_game_rows(play(with_standings(setup), n_players, bot_names, seed, len(games), games[0])["standings"],
                             n_players)
    bots = [ENGINE.resolve_bot(name) for name in bot_names[:n_players]]
    context = ENGINE.make_ctx(setup, n_players, bots, n_games=1, betrayal_capacity=1000)
    state = new_state(setup.data)
    parameters = default_params("search")
    values = np.zeros(16)
    for game in games:
        rows = recorded[game]
        setup_game(state, setup.data, context, n_players, np.uint64(seed), game, 0)
        turn_values, turn_seats, round_ends = [], [], []
        while state.scal[S_GAME_OVER] == 0:
            turn_seats.append(state.scal[S_ACTIVE])
            round_index = state.scal[S_ROUND]
            play_turn(state, setup.data, context)
            if state.scal[S_GAME_OVER] != 0:
                values[:n_players] = state.score[:n_players]
            else:
                position_values(state, setup.data, context, parameters, values)
            turn_values.append(values[:n_players].astype(np.float32))
            if state.scal[S_ROUND] != round_index or state.scal[S_GAME_OVER] != 0:
                round_ends.append(values[:n_players].astype(np.float32))
        is_turn = rows["acting_seat"] >= 0
        assert np.array_equal(rows["acting_seat"][is_turn], turn_seats)
        assert np.array_equal(rows["position_value"][is_turn], np.stack(turn_values))
        ends = rows["position_value"][~is_turn]
        assert np.array_equal(ends[:N_ROUNDS], np.array(round_ends))


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_the_position_value_parts_kept_between_turns_are_those_worked_out_afresh(setup, n_players, bot_names,
                                                                                  seed):
    """The position value keeps each country's round-token places until a noble is raised or
    killed there (state.forget_country_places) and each rank's majority until a noble card is
    taken (state.forget_majority): after every turn of several games, the kept places are those
    ranked from the board as it stands (§6.4, residual ties to the lower seat), and the values
    equal, to the bit, those of a copy of the state that keeps nothing."""
    bots = [ENGINE.resolve_bot(name) for name in bot_names[:n_players]]
    context = ENGINE.make_ctx(setup, n_players, bots, n_games=1, betrayal_capacity=1000)
    state = new_state(setup.data)
    parameters = default_params("search")
    kept, afresh = np.zeros(16), np.zeros(16)
    for game in range(4):
        setup_game(state, setup.data, context, n_players, np.uint64(seed), game, 0)
        while state.scal[S_GAME_OVER] == 0:
            play_turn(state, setup.data, context)
            position_values(state, setup.data, context, parameters, kept)
            nothing_kept = copy_state(state)
            nothing_kept.scal[S_KEPT_KNOWN] = 0
            position_values(nothing_kept, setup.data, context, parameters, afresh)
            assert np.array_equal(kept, afresh)
            for country in range(N_COUNTRIES):
                assert country_places(state, setup.data, context, country) == \
                    ranked_places(state, setup.data, context, country)
