"""§3 setup for 2, 3 and 4 players, §4.1 resources (gold card, Louis XIV), §9 the three-player
compensation, §8 the two-player imaginary player's pool."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.engine import ENGINE
from sim.louis_xiv.resources import reveal_gold_card, three_player_compensation
from sim.louis_xiv.state import IMAGINARY_ACTIVE, INTRIGUE_COUNT, INTRIGUE_OBTAINED, LOUIS_COURTIER, ROUND, TRACE_LENGTH

GENERAL_SUPPLY_BY_SEAT = {2: [5, 6], 3: [5, 5, 6], 4: [5, 5, 6, 7]}


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_markers_split_between_own_and_general_supply_by_seat(fresh_state, n_players):
    """§3 step 8: from the start player 5/5/6/7 markers to the general supply (2 players: 5/6)."""
    state = fresh_state(n_players, seed=3, round_number=0)
    general = GENERAL_SUPPLY_BY_SEAT[n_players]
    assert list(state.general_supply[:n_players]) == general
    assert list(state.own_supply[:n_players]) == [16 - count for count in general]
    assert state.markers.sum() == 0


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_five_gold_one_light_and_one_blue_mission_each(fresh_state, setup, n_players):
    state = fresh_state(n_players, seed=5, round_number=0)
    colours = setup.data.mission_colour
    for player in range(n_players):
        assert state.gold[player] == 5
        hand = np.nonzero(state.mission_hand[player])[0]
        assert sorted(colours[hand]) == [C.LIGHT, C.BLUE]
        assert state.intrigue_hand[player].sum() == 0 and state.influence_hand[player].sum() == 0
        assert state.tokens[player].sum() == 0 and state.coats[player].sum() == 0
    assert list(state.mission_deck_count) == [20 - n_players, 12 - n_players, 8]


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_piles_decks_and_sides(fresh_state, n_players):
    state = fresh_state(n_players, seed=7, round_number=0)
    assert (state.side == 0).all()                       # side A (red number) up
    assert list(state.token_pile) == [10, 6, 6, 6, 6]    # crowns, scepters, helmets, rings, documents
    assert list(state.coat_pile) == [10] * 6
    assert state.game[INTRIGUE_COUNT] == 12
    assert sorted(state.intrigue_deck) == list(range(12))
    assert np.bincount(state.influence_deck, minlength=13).tolist() == [2] * 12 + [6]


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_setup_four_distinct_gold_cards_louis_only_on_courtiers_1_to_4(fresh_state, setup, n_players):
    for seed in range(10):
        state = fresh_state(n_players, seed=seed, round_number=0)
        cards = list(state.gold_sequence)
        assert len(cards) == 8 and cards[4:] == [-1] * 4
        assert len(set(cards[:4])) == 4 and all(0 <= card < 8 for card in cards[:4])
    assert sorted(setup.data.gold_card_courtier.tolist()) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_gold_card_pays_every_player_and_puts_louis_on_its_courtier(fresh_state, setup):
    state = fresh_state(3, seed=1, round_number=1)
    card = state.gold_sequence[0]
    reveal_gold_card(state, setup.data, setup.rules)
    amount = setup.data.gold_card_gold[card]
    assert list(state.gold[:3]) == [5 + amount] * 3 and state.gold[3] == 0
    assert state.game[LOUIS_COURTIER] == setup.data.gold_card_courtier[card]
    assert 0 <= state.game[LOUIS_COURTIER] <= 3


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_imaginary_player_has_8_markers_only_in_two_player_games(fresh_state, n_players):
    state = fresh_state(n_players, round_number=0)
    assert state.game[IMAGINARY_ACTIVE] == (1 if n_players == 2 else 0)
    assert state.own_supply[C.IMAGINARY] == (8 if n_players == 2 else 0)
    assert state.general_supply[C.IMAGINARY] == 0


# ---------------------------------------------------------------- §9 three-player compensation

def test_three_player_compensation_round_4_start_player_takes_top_intrigue_card(fresh_state, setup):
    state = fresh_state(3, round_number=4, start_seat=0)
    top = state.intrigue_deck[0]
    three_player_compensation(state, setup.rules)
    assert state.intrigue_hand[0, top] == 1 and state.intrigue_hand.sum() == 1
    assert state.stats[0, INTRIGUE_OBTAINED] == 1 and state.game[INTRIGUE_COUNT] == 11


@pytest.mark.parametrize("n_players, round_number", [(3, 1), (3, 2), (3, 3), (2, 4), (4, 4)])
def test_no_compensation_before_round_4_or_with_two_or_four_players(fresh_state, setup, n_players, round_number):
    state = fresh_state(n_players, round_number=round_number)
    three_player_compensation(state, setup.rules)
    assert state.intrigue_hand.sum() == 0


def test_no_compensation_with_switch_off(fresh_state, rules_with):
    rules = rules_with(three_player_compensation=False)
    state = fresh_state(3, round_number=4, rules=rules)
    three_player_compensation(state, rules)
    assert state.intrigue_hand.sum() == 0


def test_three_player_game_seat_1_starts_twice_and_gets_the_intrigue_card_in_round_4(setup):
    """A full traced 3-player game: start players 1, 2, 3, 1; exactly one compensation event,
    in round 4, to seat 1, before anything else of round 4's resources abilities."""
    bots = [ENGINE.resolve_bot(name) for name in ("greedy", "random", "greedy")]
    state, _ = ENGINE.replay_state(setup, 3, bots, 11, 0)
    trace = state.trace[:state.game[TRACE_LENGTH]]
    starts = [(int(row[1]), int(row[2])) for row in trace if row[0] == E.ROUND_START]
    assert starts == [(1, 0), (2, 1), (3, 2), (4, 0)]
    compensation = [index for index, row in enumerate(trace) if row[0] == E.COMPENSATION_INTRIGUE]
    assert len(compensation) == 1
    index = compensation[0]
    round_4 = [i for i, row in enumerate(trace) if row[0] == E.ROUND_START][3]
    assert round_4 < index and trace[index, 1] == 0
    between = [int(row[0]) for row in trace[round_4 + 1:index]]
    assert between == [E.GOLD_CARD]                      # Q23: right after the gold card


@pytest.mark.parametrize("n_players", [2, 4])
def test_two_and_four_player_games_have_no_compensation(setup, n_players):
    bots = [ENGINE.resolve_bot("greedy")] * n_players
    state, _ = ENGINE.replay_state(setup, n_players, bots, 11, 0)
    trace = state.trace[:state.game[TRACE_LENGTH]]
    assert not (trace[:, 0] == E.COMPENSATION_INTRIGUE).any()
    assert state.game[ROUND] == 4
