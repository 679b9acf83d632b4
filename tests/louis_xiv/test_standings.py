"""The opt-in standings table (issue 40): every seat's standing after each influence turn (§4.2
step 2), after each round's end phases (§4.3-4.4) and after the end-of-game scoring (§7).

Asking for it changes no other table; a game's last row holds its final scores; a game has one
row for every influence turn, every round end and the end, with every seat's standing; the
position values are the search bot's own (strategies/louis_xiv/position.py) on the same
positions, replayed here."""
import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.louis_xiv import engine as engine_module
from sim.louis_xiv.decisions import new_move_buffer, new_option_buffer
from sim.louis_xiv.engine import ENGINE, bot_arrays, standing_buffers
from sim.louis_xiv.evaluation import evaluation_phase
from sim.louis_xiv.influence import (end_of_phase_placement, influence_phase, reset_phase_uses,
                                     return_cards_and_reshuffle, start_of_phase_abilities, take_influence_turn)
from sim.louis_xiv.missions import missions_phase
from sim.louis_xiv.resources import resources_phase
from sim.louis_xiv.scoring import record_standing
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import N_PLAYERS, ROUND, START_SEAT, hand_size, new_state, seat_order
from strategies.louis_xiv.decide import prepare_influence_phase
from strategies.louis_xiv.position import position_value
from standings_tables import per_game_rows

FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
player_counts = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
bot_mixes = st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4)


def with_standings(setup):
    return dataclasses.replace(setup, optional_tables=("standings",))


def play(setup, n_players, bot_names, seed, n_games, first_game=0):
    bots = [ENGINE.resolve_bot(name) for name in bot_names[:n_players]]
    return ENGINE.play_chunk(setup, n_players, bots, seed, first_game, n_games)


def test_a_search_bot_s_rollouts_record_no_standings(setup):
    """The search plays rollouts on copies of the state: they must neither write rows nor change
    the game (two games, one search seat)."""
    names = ["search", "greedy", "greedy"]
    without = play(setup, 3, names, 11, 2)
    with_them = play(with_standings(setup), 3, names, 11, 2)
    for table, columns in without.items():
        for name, values in columns.items():
            assert np.array_equal(values, with_them[table][name]), f"{table}.{name}"
    turns = without["seats"]["influence_turns"].reshape(2, 3).sum(axis=1)
    rounds = int(setup.data.numbers[0])
    assert len(with_them["standings"]["game_index"]) == (turns + rounds + 1).sum()


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_rows_per_game_are_influence_turns_round_ends_and_the_end(setup, n_players, bot_names, seed):
    tables = play(with_standings(setup), n_players, bot_names, seed, 100)
    seats, standings = tables["seats"], tables["standings"]
    turns = np.bincount(seats["game_index"], weights=seats["influence_turns"]).astype(int)
    rounds = int(setup.data.numbers[0])
    rows = np.bincount(np.asarray(standings["game_index"]))
    assert np.array_equal(rows, turns + rounds + 1)
    for game, rows_of_game in per_game_rows(standings, n_players).items():
        acting = rows_of_game["acting_seat"]
        turn_rows = acting >= 0
        assert turn_rows.sum() == turns[game]
        assert np.array_equal(rows_of_game["turn"][turn_rows], np.arange(1, turns[game] + 1))
        assert (np.diff(rows_of_game["round"]) >= 0).all()
        assert acting[-1] == -1 and acting[-2] == -1   # the last round's end, then §7
        for seat in range(n_players, 4):                # seats the game does not have: null in the table
            assert (rows_of_game[f"score_seat_{seat}"] == -1).all()
            assert np.isnan(rows_of_game[f"position_value_seat_{seat}"]).all()


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_a_game_s_last_row_holds_its_final_scores(setup, n_players, bot_names, seed):
    tables = play(with_standings(setup), n_players, bot_names, seed, 100)
    seats, standings = tables["seats"], tables["standings"]
    for game, rows in per_game_rows(standings, n_players).items():
        final = seats["score"][seats["game_index"] == game]
        assert np.array_equal(rows["score"][-1], final)
        assert np.array_equal(rows["position_value"][-1], final.astype(np.float32))


@FEW
@given(n_players=player_counts, bot_names=bot_mixes, seed=seeds)
def test_score_never_falls_and_never_exceeds_the_final_score(setup, n_players, bot_names, seed):
    """Coats of arms and completed missions are never lost (§5, §7), so the score so far only
    grows, up to the final score."""
    tables = play(with_standings(setup), n_players, bot_names, seed, 100)
    for rows in per_game_rows(tables["standings"], n_players).values():
        scores = rows["score"]
        assert (np.diff(scores, axis=0) >= 0).all()
        assert (scores <= scores[-1]).all()


def test_round_end_rows_hold_the_score_after_each_round(setup):
    tables = play(with_standings(setup), 4, ["greedy", "random", "greedy", "random"], 3, 50)
    seats, standings = tables["seats"], tables["standings"]
    round_ends = np.asarray(standings["acting_seat"]) == -1
    for game, rows in per_game_rows(standings, 4).items():
        ends = rows["score"][rows["acting_seat"] == -1][:-1]   # without the §7 row
        for round_index in range(ends.shape[0]):
            after = seats[f"score_after_round_{round_index + 1}"][seats["game_index"] == game]
            assert np.array_equal(ends[round_index], after)
    assert round_ends.sum() == 50 * 5


def search_defaults():
    return standing_buffers(1)[2]


def test_position_value_is_the_search_bot_s_on_the_replayed_positions(setup):
    """Every influence turn of round 1 and every round's end, replayed phase by phase and turn by
    turn as the game loop plays them (kernel.play_rounds, influence.influence_phase), valued by
    the search's own position_value."""
    n_players, names, seed, game = 4, ["greedy", "random", "greedy", "random"], 21, 5
    rows = per_game_rows(play(with_standings(setup), n_players, names, seed, 1, game)["standings"], n_players)[game]
    data, rules = setup.data, setup.rules
    families, params = bot_arrays([ENGINE.resolve_bot(name) for name in names])
    parameters = search_defaults()
    state = new_state(data)
    moves, options = new_move_buffer(), new_option_buffer()
    courtier_rows = engine_module.result_matrix(4 * 12, engine_module.R.COURTIER_COLUMNS)
    setup_game(state, data, rules, n_players, seed, game, 0)

    def values():
        return np.array([position_value(state, data, seat, parameters) for seat in range(n_players)], np.float32)

    for round_number in range(1, 5):
        state.game[ROUND] = round_number
        resources_phase(state, data, rules, families, params)
        if round_number == 1:   # §4.2, turn by turn (no imaginary player with 4 players)
            reset_phase_uses(state)
            prepare_influence_phase(state, data, families, params)
            start_of_phase_abilities(state, data, families, params)
            turn_values = []
            for acting_seat in influence_turn_order(state):
                take_influence_turn(state, data, rules, acting_seat, families[acting_seat], params[acting_seat], moves)
                turn_values.append(values())
            turn_rows = rows["position_value"][rows["round"] == 1][:len(turn_values)]
            assert len(turn_values) > 10
            assert np.array_equal(turn_rows, np.stack(turn_values))
            end_of_phase_placement(state, data, families, params)
            return_cards_and_reshuffle(state, data)
        else:
            influence_phase(state, data, rules, families, params, moves)
        evaluation_phase(state, data, rules, families, params, courtier_rows, (round_number - 1) * 12)
        missions_phase(state, data, rules, families, params, options)
        record_standing(state, data, round_number)
        ends = rows["position_value"][rows["acting_seat"] == -1]
        assert np.array_equal(ends[round_number - 1], values()), f"round {round_number}"
        if round_number < 4:
            state.game[START_SEAT] = (state.game[START_SEAT] + 1) % state.game[N_PLAYERS]


def influence_turn_order(state):
    """The seats taking influence turns, as influence.influence_turns orders them (§4.2 step 2):
    clockwise from the start player, everyone with 2 or more cards, until nobody has; a
    generator, so that each seat is read after the previous turn is played."""
    while True:
        anyone_played = False
        for position in range(state.game[N_PLAYERS]):
            seat = seat_order(state, position)
            if hand_size(state, seat) >= 2:
                anyone_played = True
                yield seat
        if not anyone_played:
            return
