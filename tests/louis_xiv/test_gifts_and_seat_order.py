"""The gifts of Colbert, Mazarin and Louvois (§5), bribes handed out in seat order from the
start player (§4.3 general gift rules), and the ``random_start_player`` switch (§3 step 7)."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import FIRST_START_SEAT, INFLUENCE_POSITION, INTRIGUE_COUNT, START_SEAT, new_state

from .rulebook import BLUE, COLBERT, DAUPHIN, GREEN, LOUVOIS, MAZARIN, RED, YELLOW, evaluate, put, seats_in


# ---------------------------------------------------------------- §5 gifts

def test_colbert_gift_is_five_gold(fresh_state, setup, greedy):
    """Colbert (7, side A first place): the single top holder takes 5 gold, nobody else anything."""
    state = fresh_state(4)
    put(state, COLBERT, red=2, yellow=1)
    row = evaluate(state, setup, COLBERT, greedy)
    assert seats_in(row["free_mask"]) == {RED}
    assert list(state.gold[:4]) == [5, 10, 5, 5]


def test_mazarin_gift_is_the_top_influence_card_into_the_hand(fresh_state, setup, greedy):
    """Mazarin (11, side A first place): the top card of the influence deck into the hand (it is
    played in next round's influence phase, and gives a coat if still held at the end)."""
    state = fresh_state(4)
    position = state.game[INFLUENCE_POSITION]
    top = int(state.influence_deck[position])
    put(state, MAZARIN, green=1)
    evaluate(state, setup, MAZARIN, greedy)
    assert state.influence_hand[GREEN, top] == 1 and state.influence_hand.sum() == 1
    assert state.game[INFLUENCE_POSITION] == position + 1


def test_louvois_gift_is_a_coat_and_the_top_intrigue_card_bribers_get_the_next(fresh_state, setup, greedy, rich):
    """Louvois (12, side A gold 3): 1 coat + the top intrigue card; the free gift first, then
    each briber in seat order takes the next card."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    first, second = int(state.intrigue_deck[0]), int(state.intrigue_deck[1])
    put(state, LOUVOIS, yellow=2, red=1)
    row = evaluate(state, setup, LOUVOIS, greedy)
    assert seats_in(row["free_mask"]) == {YELLOW} and seats_in(row["bribe_mask"]) == {RED}
    assert state.intrigue_hand[YELLOW, first] == 1 and state.intrigue_hand[RED, second] == 1
    assert list(state.coats[:4].sum(axis=1)) == [1, 1, 0, 0]
    assert state.game[INTRIGUE_COUNT] == 10 and state.gold[RED] == 7


# ---------------------------------------------------------------- §4.3 bribes in seat order

@pytest.mark.parametrize("start_seat, briber_served", [(2, GREEN), (1, RED), (0, YELLOW)])
def test_bribes_in_seat_order_from_the_start_player(fresh_state, setup, greedy, rich, rules_with, start_seat,
                                                    briber_served):
    """§4.3: the free recipient first, then the bribers one by one in seat order starting with
    the start player. With strict supplies and two helmets left, blue (alone on top) takes one
    free and only the first briber from the start player gets the last one."""
    rules = rules_with(strict_supplies=True)
    state = fresh_state(4, start_seat=start_seat, rules=rules)
    rich(state, [10, 10, 10, 10])
    state.token_pile[C.HELMET] = 2
    put(state, DAUPHIN, blue=3, yellow=1, red=1, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy, rules=rules)
    assert seats_in(row["free_mask"]) == {BLUE}
    helmets = {seat: int(state.tokens[seat, C.HELMET]) for seat in (YELLOW, RED, GREEN, BLUE)}
    assert helmets == {seat: 1 if seat in (BLUE, briber_served) else 0 for seat in helmets}


# ---------------------------------------------------------------- §3 step 7 random_start_player

def set_up(setup, rules, n_players, seed, game_index):
    state = new_state(setup.data)
    setup_game(state, setup.data, rules, n_players, seed, game_index, 0)
    return state


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_start_player_off_seat_1_starts_every_game(setup, n_players):
    for game_index in range(12):
        state = set_up(setup, setup.rules, n_players, 7, game_index)
        assert state.game[FIRST_START_SEAT] == state.game[START_SEAT] == 0


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_start_player_on_draws_a_seeded_seat_per_game(setup, rules_with, n_players):
    """A seeded random seat starts: every seat over 40 games, the same seat for the same
    (seed, game index), and the markers go to the general supply by seat from that player."""
    rules = rules_with(random_start_player=True)
    general_by_position = {2: [5, 6], 3: [5, 5, 6], 4: [5, 5, 6, 7]}[n_players]
    first_seats = set()
    for game_index in range(40):
        state = set_up(setup, rules, n_players, 7, game_index)
        first = int(state.game[FIRST_START_SEAT])
        assert state.game[START_SEAT] == first
        assert int(set_up(setup, rules, n_players, 7, game_index).game[FIRST_START_SEAT]) == first
        seats = [(first + position) % n_players for position in range(n_players)]
        assert [int(state.general_supply[seat]) for seat in seats] == general_by_position
        first_seats.add(first)
    assert first_seats == set(range(n_players))


def test_random_start_player_does_not_change_the_shuffled_decks(setup, rules_with):
    """The start player is drawn after the decks are shuffled: gold cards, influence, intrigue
    and mission decks are those of the same game with the switch off."""
    on = rules_with(random_start_player=True)
    for game_index in range(8):
        fixed = set_up(setup, setup.rules, 4, 3, game_index)
        drawn = set_up(setup, on, 4, 3, game_index)
        for name in ("gold_sequence", "influence_deck", "intrigue_deck", "mission_deck"):
            assert np.array_equal(getattr(fixed, name), getattr(drawn, name)), name
