"""The two-player tweaks a designer tries are game-file data (issue 12): each one, changed from the
printed rule, is accepted and changes the game as it says. Seats: red = 0, blue = 1."""
import numpy as np

from sim.heads_of_state.betrayal import assassination_succeeds
from sim.heads_of_state.decks import build_character_decks
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.round_end import discard_to_limit
from sim.heads_of_state.scoring import take_large_token
from sim.heads_of_state.state import N_CHAR_TYPES, REVOLUTION, S_DECK_N, S_REV_N, STAT_DISCARD_TURN_CHAR

RED, BLUE = 0, 1
PRINTED_MARKS = {5: [], 4: ["5"], 3: ["4", "5"], 2: ["3", "4", "5"]}


def large_tokens_of_two_players(position, rule_overrides=None):
    pos = position(2, rule_overrides=rule_overrides)
    pos.state.raised[RED, :] = 1
    pos.state.raised[BLUE, :] = 1
    take_large_token(pos.state, pos.data, pos.context, RED)
    take_large_token(pos.state, pos.data, pos.context, BLUE)
    return pos.state.large_owner[:2].tolist()


def test_s6_3_two_players_use_16_and_8_or_keep_the_12_point_token(position):
    assert large_tokens_of_two_players(position) == [16, 8]                      # §3 step 8
    kept = {"large_tokens": {"default": [16, 12, 8], "two_players": [16, 12, 8]}}
    assert large_tokens_of_two_players(position, kept) == [16, 12]


def character_cards_in_a_two_player_game(position, rule_overrides=None):
    pos = position(2, rule_overrides=rule_overrides)
    build_character_decks(pos.state, pos.data, pos.context)
    revolution_deck = pos.state.rev[:pos.state.scal[S_REV_N]]
    return (pos.state.scal[S_DECK_N] + int((revolution_deck != REVOLUTION).sum())
            + int((pos.state.display >= 0).sum()))


def test_s1_3_two_players_remove_the_marked_cards_or_keep_them_all(position):
    assert character_cards_in_a_two_player_game(position) == 73                  # §1.3 table
    kept = {"removed_marks_by_players": {**PRINTED_MARKS, 2: []}}
    assert character_cards_in_a_two_player_game(position, kept) == 100
    only_5 = {"removed_marks_by_players": {**PRINTED_MARKS, 2: ["5"]}}
    assert character_cards_in_a_two_player_game(position, only_5) == 91


def test_s4_4_an_assassin_bag_of_2_own_cubes_and_1_target_cube_succeeds_two_times_in_three(position):
    pos = position(2, rule_overrides={"assassin_bag": {"own_cubes": 2, "target_cubes": 1}})
    draws = 3000
    successes = sum(bool(assassination_succeeds(pos.state, pos.data)) for _ in range(draws))
    assert abs(successes / draws - 2 / 3) < 0.05        # 4.4 standard deviations (sd 0.0086)


def test_s4_5_a_lower_turn_end_hand_limit_discards_down_to_it(position):
    pos = position(2, rule_overrides={"hand_limit_turn_end": {"character": 8, "betrayal": 3}})
    pos.give(RED, *(["GOLD"] * 5 + ["DUEL"] * 5))
    pos.give_betrayal(RED, "assassin", "assassin", "FR", "GB", "DE")
    discard_to_limit(pos.state, pos.data, pos.context, RED, pos.data.hand_limit_char, pos.data.hand_limit_betrayal,
                     STAT_DISCARD_TURN_CHAR)
    assert pos.state.hand[RED, :N_CHAR_TYPES].sum() == 8 and pos.state.bhand[RED].sum() == 3


def test_first_turn_takes_and_starting_points_compensate_the_second_player_in_two_player_games():
    setup = ENGINE.load_setup(rule_overrides={"first_turn_takes": {2: [2, 4], 3: [1, 2, 3], 4: [1, 1, 2, 3],
                                                                   5: [1, 1, 2, 2, 3]},
                                              "starting_points": {2: [0, 2], 3: [0] * 3, 4: [0] * 4,
                                                                  5: [0] * 5}})
    assert setup.data.first_turn_takes[2, :2].tolist() == [2, 4]
    assert setup.data.starting_points[2, :2].tolist() == [0, 2]
    assert np.all(setup.data.starting_points[3:] == 0)
