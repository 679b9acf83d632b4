"""Phase 2 — Influence: §4.2.1 placement rules and its worked example, the joker, retrieving
(§4.2 b), Q8/Q9. Legal turns are read from the move rows ``list_turn_options`` writes."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import (MOVE_CAPACITY, MOVE_CARD, MOVE_KIND, MOVE_LENGTH, MOVE_PATH, MOVE_WIDTH,
                                     PLACE, PLACE_FOUR, RETRIEVE, RETRIEVE_FOUR)
from sim.louis_xiv.influence import apply_move, list_turn_options

from strategies.louis_xiv.parameters import GREEDY, default_parameters

from .rulebook import YELLOW, supplies, tile

ADJACENT = {1: [2, 4, 6, 7], 2: [1, 3, 8, 9], 3: [2, 4, 10, 11], 4: [1, 3, 5, 12], 5: [4, 6], 6: [1, 5],
            7: [1, 8], 8: [2, 7], 9: [2, 10], 10: [3, 9], 11: [3, 12], 12: [4, 11]}


def hold_only(state, player, *cards):
    """Give the player exactly these influence cards (courtier numbers; "joker")."""
    state.influence_hand[player] = 0
    for card in cards:
        state.influence_hand[player, C.JOKER if card == "joker" else tile(card)] += 1


def turn_options(state, setup, player, rules=None):
    moves = np.zeros((MOVE_CAPACITY, MOVE_WIDTH), dtype=np.int64)
    n_moves = list_turn_options(state, setup.data, setup.rules if rules is None else rules, player, moves)
    return moves[:n_moves]


def placement_paths(moves, card):
    """Each PLACE row of this card as a path ((courtier number, markers), ...)."""
    kind = C.JOKER if card == "joker" else tile(card)
    paths = []
    for move in moves:
        if move[MOVE_KIND] == PLACE and move[MOVE_CARD] == kind:
            paths.append(tuple((int(move[MOVE_PATH + 2 * i]) + 1, int(move[MOVE_PATH + 2 * i + 1]))
                               for i in range(move[MOVE_LENGTH])))
    return paths


def end_state(path):
    return frozenset(path)


def find_move(moves, card, path):
    kind = C.JOKER if card == "joker" else tile(card)
    for move in moves:
        if move[MOVE_KIND] == PLACE and move[MOVE_CARD] == kind and \
                tuple((int(move[MOVE_PATH + 2 * i]) + 1, int(move[MOVE_PATH + 2 * i + 1]))
                      for i in range(move[MOVE_LENGTH])) == path:
            return move
    raise AssertionError(f"no move {path} for card {card}")


# ---------------------------------------------------------------- §4.2.1 worked example

def test_placement_example_card_6_path_6_1_4_is_legal(fresh_state, setup):
    state = fresh_state(4)
    hold_only(state, YELLOW, 6)
    moves = turn_options(state, setup, YELLOW)
    assert ((6, 1), (1, 1), (4, 1)) in placement_paths(moves, 6)
    # from 6 one may jump to 1 or 5 only; from 1 onward to 4, 2 or 7
    assert {path[1][0] for path in placement_paths(moves, 6) if len(path) > 1} == {1, 5}
    assert {path[2][0] for path in placement_paths(moves, 6) if len(path) > 2 and path[1][0] == 1} == {2, 4, 7}


def test_placement_example_fork_from_card_6_to_both_5_and_1_is_illegal(fresh_state, setup):
    """'1 on 5 and 1 on 1, both from 6' is a fork: no card-6 move ends with one marker each on 6, 5, 1."""
    state = fresh_state(4)
    hold_only(state, YELLOW, 6)
    moves = turn_options(state, setup, YELLOW)
    fork = end_state(((6, 1), (5, 1), (1, 1)))
    assert fork not in {end_state(path) for path in placement_paths(moves, 6)}


@pytest.mark.parametrize("card, path", [(1, ((1, 1), (6, 1), (5, 1))), (5, ((5, 1), (6, 1), (1, 1)))])
def test_placement_example_same_end_state_is_legal_from_card_1_or_card_5(fresh_state, setup, card, path):
    state = fresh_state(4)
    hold_only(state, YELLOW, card)
    moves = turn_options(state, setup, YELLOW)
    assert path in placement_paths(moves, card)
    move = find_move(moves, card, path)
    apply_move(state, setup.data, YELLOW, move, GREEDY, default_parameters())
    assert [int(state.markers[tile(t), YELLOW]) for t in (1, 5, 6)] == [1, 1, 1]
    assert state.markers[:, YELLOW].sum() == 3
    assert supplies(state, YELLOW) == (8, 5) and state.influence_hand[YELLOW].sum() == 0


@pytest.mark.parametrize("card", range(1, 13))
def test_courtier_card_placements_are_exactly_the_rulebook_outcomes(fresh_state, setup, card):
    """n = 3: {3 on t}, {2 on t}, {1 on t}, {2 t, 1 u}, {1 t, 2 u}, {1 t, 1 u}, {1 t, 1 u, 1 v}
    for u in N(t), v in N(u) minus t; a simple path, never a fork."""
    state = fresh_state(4)
    hold_only(state, YELLOW, card)
    paths = placement_paths(turn_options(state, setup, YELLOW), card)
    t = card
    expected = {((t, 3),), ((t, 2),), ((t, 1),)}
    for u in ADJACENT[t]:
        expected |= {((t, 2), (u, 1)), ((t, 1), (u, 2)), ((t, 1), (u, 1))}
        for v in ADJACENT[u]:
            if v != t:
                expected.add(((t, 1), (u, 1), (v, 1)))
    assert sorted(paths) == sorted(expected)


def test_placement_limited_by_own_supply(fresh_state, setup):
    state = fresh_state(4)
    hold_only(state, YELLOW, 6)
    state.general_supply[YELLOW] += state.own_supply[YELLOW] - 2
    state.own_supply[YELLOW] = 2
    paths = placement_paths(turn_options(state, setup, YELLOW), 6)
    assert paths and max(sum(count for _, count in path) for path in paths) == 2


def test_place_puts_at_least_one_marker_when_own_supply_has_any(fresh_state, setup):
    """Q9: no pure-pass placement while the own supply holds markers."""
    state = fresh_state(4)
    hold_only(state, YELLOW, 3, "joker")
    paths = placement_paths(turn_options(state, setup, YELLOW), 3) + placement_paths(turn_options(state, setup, YELLOW), "joker")
    assert paths and all(len(path) >= 1 for path in paths)


def test_place_with_empty_own_supply_is_played_for_nothing(fresh_state, setup):
    """Q8: with an empty own supply the card may still be played (for nothing), or retrieve."""
    state = fresh_state(4)
    hold_only(state, YELLOW, 3)
    state.general_supply[YELLOW] += state.own_supply[YELLOW]
    state.own_supply[YELLOW] = 0
    moves = turn_options(state, setup, YELLOW)
    assert placement_paths(moves, 3) == [()]
    assert sum(1 for move in moves if move[MOVE_KIND] == RETRIEVE) == 1


def test_pure_pass_allowed_with_switch_off(fresh_state, setup, rules_with):
    state = fresh_state(4)
    hold_only(state, YELLOW, 3)
    paths = placement_paths(turn_options(state, setup, YELLOW, rules=rules_with(place_at_least_one_marker=False)), 3)
    assert () in paths and len(paths) > 1


# ---------------------------------------------------------------- joker

def test_joker_places_one_or_two_second_on_same_or_adjacent_courtier(fresh_state, setup):
    """Joker: 1 own marker on any of the 12 tiles, optionally a second on the same tile or on a
    tile adjacent to it."""
    state = fresh_state(4)
    hold_only(state, YELLOW, "joker")
    paths = placement_paths(turn_options(state, setup, YELLOW), "joker")
    end_states = {end_state(path) for path in paths}
    expected = set()
    for t in range(1, 13):
        expected.add(frozenset({(t, 1)}))
        expected.add(frozenset({(t, 2)}))
        for u in ADJACENT[t]:
            expected.add(frozenset({(t, 1), (u, 1)}))
    assert end_states == expected
    assert all(sum(count for _, count in path) <= 2 for path in paths)


# ---------------------------------------------------------------- retrieve 3 / 2

@pytest.mark.parametrize("card, general, retrieved", [(7, 5, 3), ("joker", 5, 2), (7, 1, 1), ("joker", 0, 0)])
def test_retrieve_three_with_courtier_card_two_with_joker_fewer_if_fewer(fresh_state, setup, card, general, retrieved):
    state = fresh_state(4)
    hold_only(state, YELLOW, card)
    state.own_supply[YELLOW] = 16 - general
    state.general_supply[YELLOW] = general
    moves = turn_options(state, setup, YELLOW)
    retrieve = [move for move in moves if move[MOVE_KIND] == RETRIEVE]
    assert len(retrieve) == 1
    apply_move(state, setup.data, YELLOW, retrieve[0], GREEDY, default_parameters())
    assert supplies(state, YELLOW) == (16 - general + retrieved, general - retrieved)
    assert state.influence_hand[YELLOW].sum() == 0 and state.markers.sum() == 0


@pytest.mark.parametrize("general, retrieved", [(6, 4), (2, 2)])
def test_db_place4_retrieves_up_to_four_and_places_up_to_four(fresh_state, setup, general, retrieved):
    """DB-PLACE4 (§6): any card acts as a joker of 4: place 1-4 starting anywhere, or retrieve
    up to 4 markers; once per influence phase."""
    state = fresh_state(4)
    hold_only(state, YELLOW, 7, 9)
    state.ability_count[YELLOW, C.DB_PLACE4] = 1
    state.uses_left[YELLOW, C.DB_PLACE4] = 1
    state.own_supply[YELLOW] = 16 - general
    state.general_supply[YELLOW] = general
    moves = turn_options(state, setup, YELLOW)
    place_four = [move for move in moves if move[MOVE_KIND] == PLACE_FOUR]
    assert max(sum(move[MOVE_PATH + 2 * i + 1] for i in range(move[MOVE_LENGTH])) for move in place_four) == 4
    assert {move[MOVE_PATH] for move in place_four} == set(range(C.N_COURTIERS))  # starts on any courtier
    retrieve_four = [move for move in moves if move[MOVE_KIND] == RETRIEVE_FOUR]
    assert len(retrieve_four) == 1
    apply_move(state, setup.data, YELLOW, retrieve_four[0], GREEDY, default_parameters())
    assert supplies(state, YELLOW) == (16 - general + retrieved, general - retrieved)
    assert state.influence_hand[YELLOW].sum() == 1 and state.uses_left[YELLOW, C.DB_PLACE4] == 0


# ---------------------------------------------------------------- §4.2 steps 1-2

def test_start_of_phase_placement_from_general_supply_else_from_own(fresh_state, setup, greedy):
    """§4.2 step 1 (B-LOUIS, LB-TILE1..4, B-TILE5/9): 1 own marker from the general supply onto
    the named tile; with none in the general supply, one from the own supply."""
    from sim.louis_xiv.influence import start_of_phase_abilities
    state = fresh_state(4, louis=3)
    families, params = greedy
    state.ability_count[YELLOW, C.B_LOUIS] = 1
    state.ability_count[1, C.LB_TILE1] = 1
    state.general_supply[1], state.own_supply[1] = 0, 16
    start_of_phase_abilities(state, setup.data, families, params)
    assert state.markers[tile(3), YELLOW] == 1 and supplies(state, YELLOW) == (11, 4)
    assert state.markers[tile(1), 1] == 1 and supplies(state, 1) == (15, 0)


def test_turn_loop_runs_until_everyone_holds_one_card_extra_cards_give_extra_turns(fresh_state, setup, greedy):
    """§4.2 step 2: players with 2+ cards take turns clockwise from the start player; a player
    with one card is skipped; a player with an extra card (Mazarin) takes one more turn."""
    from sim.louis_xiv.influence import influence_turns
    from sim.louis_xiv.state import INFLUENCE_TURNS
    state = fresh_state(4, start_seat=2)
    families, params = greedy
    for player in range(4):
        hold_only(state, player, *([7] * 5 + (["joker"] if player == 1 else [])))
    moves = np.zeros((MOVE_CAPACITY, MOVE_WIDTH), dtype=np.int64)
    influence_turns(state, setup.data, setup.rules, families, params, moves)
    assert list(state.influence_hand[:4].sum(axis=1)) == [1, 1, 1, 1]
    assert list(state.stats[:4, INFLUENCE_TURNS]) == [4, 5, 4, 4]
