"""Setup (rules §3) for 2, 3 and 4 players."""
from sim.core.kernels import copy_into, game_kernel

from sim.core.random_streams import below, seed_streams, shuffle
from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.data import (COATS_PER_KIND, GOLD_CARDS_USED, IMAGINARY_MARKERS, MARKERS_PER_PLAYER,
                                START_BLUE_MISSIONS, START_GOLD, START_LIGHT_MISSIONS)
from sim.louis_xiv.components import draw_mission_card
from sim.louis_xiv.rules import RANDOM_START_PLAYER
from sim.louis_xiv.state import (FIRST_START_SEAT, GAME_INDEX, IMAGINARY_ACTIVE, INFLUENCE_POSITION,
                                 INTRIGUE_COUNT, INTRIGUE_HEAD, LOUIS_COURTIER, N_PLAYERS, ROUND,
                                 START_SEAT, TRACE_LENGTH, TRACE_ON, trace_event)


@game_kernel
def reset_state(state):
    """Zero every array so one allocation serves a whole chunk of games."""
    state.game[:] = 0
    state.side[:] = 0
    state.markers[:] = 0
    state.own_supply[:] = 0
    state.general_supply[:] = 0
    state.gold[:] = 0
    state.tokens[:] = 0
    state.token_pile[:] = 0
    state.coats[:] = 0
    state.coat_pile[:] = 0
    state.gold_sequence[:] = 0
    state.influence_deck[:] = 0
    state.influence_hand[:] = 0
    state.intrigue_deck[:] = 0
    state.intrigue_hand[:] = 0
    state.intrigue_waiting[:] = 0
    state.mission_deck[:] = 0
    state.mission_deck_head[:] = 0
    state.mission_deck_count[:] = 0
    state.mission_hand[:] = 0
    state.mission_played[:] = 0
    state.ability_count[:] = 0
    state.uses_left[:] = 0
    state.ability_uses[:] = 0
    state.stats[:] = 0
    state.score_after_round[:] = 0


@game_kernel
def setup_game(state, data, rules, n_players, seed, game_index, trace_on):
    """§3: courtiers side A up, piles, shuffled decks, each player's markers, gold and missions."""
    reset_state(state)
    seed_streams(state.streams, seed, game_index)
    state.game[N_PLAYERS] = n_players
    state.game[GAME_INDEX] = game_index
    state.game[TRACE_ON] = trace_on
    state.game[TRACE_LENGTH] = 0
    state.game[ROUND] = 0
    state.game[LOUIS_COURTIER] = -1
    # §3.1: sides A up (state.side is already 0), token piles, coats face down
    copy_into(state.token_pile, data.token_count)
    state.coat_pile[:] = data.numbers[COATS_PER_KIND]
    choose_gold_cards(state, data)
    build_intrigue_deck(state, data)
    shuffle_influence_deck(state, data)
    build_mission_decks(state, data)
    # §3 step 7: the start player (seat 0 by default)
    first = 0
    if rules[RANDOM_START_PLAYER] != 0.0:
        first = below(state.streams, C.SOURCE_SETUP, n_players)
    state.game[FIRST_START_SEAT] = first
    state.game[START_SEAT] = first
    deal_players(state, data, n_players, first)
    # §3 step 9 / §8: the imaginary third player of a two-player game
    if n_players == 2:
        state.game[IMAGINARY_ACTIVE] = 1
        state.own_supply[C.IMAGINARY] = data.numbers[IMAGINARY_MARKERS]


@game_kernel
def choose_gold_cards(state, data):
    """§3 step 2: a random sequence of the gold cards used, drawn without replacement."""
    n_cards = data.gold_card_gold.shape[0]
    for index in range(n_cards):
        state.gold_sequence[index] = index
    shuffle(state.streams, C.SOURCE_SETUP, state.gold_sequence, n_cards)
    state.gold_sequence[data.numbers[GOLD_CARDS_USED]:] = -1  # the others go back to the box unseen


@game_kernel
def build_intrigue_deck(state, data):
    """§3 step 3: the intrigue cards shuffled face down; nobody starts with one."""
    n_cards = data.intrigue_cards.shape[0]
    copy_into(state.intrigue_deck, data.intrigue_cards)
    shuffle(state.streams, C.SOURCE_SETUP, state.intrigue_deck, n_cards)
    state.game[INTRIGUE_HEAD] = 0
    state.game[INTRIGUE_COUNT] = n_cards


@game_kernel
def shuffle_influence_deck(state, data):
    """§3 step 4 and §4.2 step 4: all influence cards shuffled into a new deck."""
    copy_into(state.influence_deck, data.influence_cards)
    shuffle(state.streams, C.SOURCE_SETUP, state.influence_deck, state.influence_deck.shape[0])
    state.game[INFLUENCE_POSITION] = 0


@game_kernel
def build_mission_decks(state, data):
    """§3 step 5: mission cards sorted by back colour, each deck shuffled."""
    for colour in range(C.N_MISSION_COLOURS):
        count = 0
        for card in range(data.mission_colour.shape[0]):
            if data.mission_colour[card] == colour:
                state.mission_deck[colour, count] = card
                count += 1
        shuffle(state.streams, C.SOURCE_SETUP, state.mission_deck[colour], count)
        state.mission_deck_head[colour] = 0
        state.mission_deck_count[colour] = count


@game_kernel
def deal_players(state, data, n_players, first):
    """§3 steps 6 and 8: markers split between own and general supply by seat from the start
    player, start gold, one light-blue and one blue mission card. A variant's start-position
    compensation adds gold and own-supply markers by seat (extra_start_gold / _markers, 0 in
    the printed game)."""
    for position in range(n_players):
        player = (first + position) % n_players
        to_general = data.general_supply_at_start[n_players, position]
        markers = data.numbers[MARKERS_PER_PLAYER] + data.extra_start_markers[n_players, position]
        state.general_supply[player] = to_general
        state.own_supply[player] = markers - to_general
        state.gold[player] = data.numbers[START_GOLD] + data.extra_start_gold[n_players, position]
    for position in range(n_players):
        player = (first + position) % n_players
        for _ in range(data.numbers[START_LIGHT_MISSIONS]):
            card = draw_mission_card(state, player, C.LIGHT)
            trace_event(state, E.MISSION_DEALT, player, card, 0, 0, 0, 0, 0)
        for _ in range(data.numbers[START_BLUE_MISSIONS]):
            card = draw_mission_card(state, player, C.BLUE)
            trace_event(state, E.MISSION_DEALT, player, card, 0, 0, 0, 0, 0)
