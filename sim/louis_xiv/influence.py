"""Phase 2 — Influence (rules §4.2): the imaginary player's placement (2 players), start-of-
phase abilities, the turn loop of influence cards, DB-ENDPLACE, returning and reshuffling cards.

The legal turns are enumerated in turn_options.py (listed into a move buffer for the random bot,
tests and search bots; scored on the fly by the greedy bot).
"""
from sim.core.kernels import copy_into_2d, game_kernel, inline_game_kernel

from sim.louis_xiv import constants as C
from sim.louis_xiv import events as E
from sim.louis_xiv.components import ability_used, draw_influence_card, place_from_general, retrieve_markers
from sim.louis_xiv.data import (IMAGINARY_CARDS_REVEALED, IMAGINARY_LOUIS_CARD, IMAGINARY_ON_LOUIS,
                                IMAGINARY_PER_CARD, IMAGINARY_PLACEMENT, LB_SKIP_COST)
from sim.louis_xiv.data import RETRIEVE_COURTIER_CARD_COUNT, RETRIEVE_FOUR_COUNT, RETRIEVE_JOKER_COUNT
from sim.louis_xiv.turn_options import list_turn_options  # noqa: F401 - part of this phase's interface
from sim.louis_xiv.counterfactual import counterfactual_influence_turn
from sim.louis_xiv.setup import shuffle_influence_deck
from sim.louis_xiv.standings import record_turn_standings, recording_standings
from sim.louis_xiv.state import (COUNTERFACTUAL_TURN, GOLD_SPENT_SKIP, IMAGINARY_ACTIVE, INFLUENCE_POSITION,
                                 INFLUENCE_TURNS, LOUIS_COURTIER, MARKERS_PLACED, MARKERS_RETRIEVED, N_PLAYERS,
                                 PLACE_TURNS, RETRIEVE_TURNS, TRACE_ON, hand_size, seat_order, trace_event)
from sim.louis_xiv.decisions import (CARD_SWAP, MOVE_CARD, MOVE_KIND, MOVE_LENGTH, MOVE_PATH, PLACE_FOUR,
                                     PURPOSE_END_PLACEMENT, RETRIEVE, RETRIEVE_FOUR, SKIP)
from strategies.louis_xiv.decide import (choose_card_to_spend, choose_courtier_for_marker, choose_influence_turn,
                                  prepare_influence_phase, use_optional_ability)

@game_kernel
def influence_phase(state, data, rules, bot_family, bot_params, moves):
    reset_phase_uses(state)
    prepare_influence_phase(state, data, bot_family, bot_params)
    # §8: the imaginary player places at the start of the phase; a two-player variant may have
    # it place after every turn (game data imaginary_player.placement: 0 start, 1 end)
    imaginary_at_end = data.numbers[IMAGINARY_PLACEMENT] != 0
    if state.game[IMAGINARY_ACTIVE] != 0 and not imaginary_at_end:
        imaginary_player_placement(state, data)
    start_of_phase_abilities(state, data, bot_family, bot_params)
    influence_turns(state, data, rules, bot_family, bot_params, moves)
    end_of_phase_placement(state, data, bot_family, bot_params)
    if state.game[IMAGINARY_ACTIVE] != 0 and imaginary_at_end:
        imaginary_player_placement(state, data)
    return_cards_and_reshuffle(state, data)


@game_kernel
def reset_phase_uses(state):
    """Once-per-phase abilities (§6): one use per played card."""
    copy_into_2d(state.uses_left, state.ability_count)


@game_kernel
def imaginary_player_placement(state, data):
    """§8 steps 1-3 (Q20): markers on Louis XIV's courtier, then on the courtiers of the next
    revealed influence cards (a joker is replaced by another card); revealed cards go to the
    centre and come back with the reshuffle. A two-player variant may pass over the card of
    Louis XIV's courtier like a joker (game data imaginary_player.louis_card: reveal_another)."""
    louis = state.game[LOUIS_COURTIER]
    place_imaginary(state, louis, data.numbers[IMAGINARY_ON_LOUIS])
    passes_louis_card = data.numbers[IMAGINARY_LOUIS_CARD] != 0
    found = 0
    while found < data.numbers[IMAGINARY_CARDS_REVEALED]:
        position = state.game[INFLUENCE_POSITION]
        if position >= state.influence_deck.shape[0]:
            break
        card = state.influence_deck[position]
        state.game[INFLUENCE_POSITION] = position + 1
        if card == C.JOKER:
            trace_event(state, E.IMAGINARY_PLACED, -1, 0, 0, 0, 0, 0, 0)
            continue
        if passes_louis_card and card == louis:
            trace_event(state, E.IMAGINARY_PLACED, -2, card, 0, 0, 0, 0, 0)
            continue
        place_imaginary(state, card, data.numbers[IMAGINARY_PER_CARD])
        found += 1


@game_kernel
def place_imaginary(state, courtier, count):
    count = min(count, state.own_supply[C.IMAGINARY])
    state.own_supply[C.IMAGINARY] -= count
    state.markers[courtier, C.IMAGINARY] += count
    trace_event(state, E.IMAGINARY_PLACED, courtier, count, 0, 0, 0, 0, 0)


@game_kernel
def start_of_phase_abilities(state, data, bot_family, bot_params):
    """§4.2 step 1 (order Q10): LB-TILE1..4, B-LOUIS, B-TILE5, B-TILE9, each optional: one own
    marker from the general supply (own supply if none there) onto the named courtier."""
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        for slot in range(len(C.START_PLACEMENT_ABILITIES)):
            ability = C.START_PLACEMENT_ABILITIES[slot]
            courtier = C.START_PLACEMENT_COURTIER[slot]
            if courtier < 0:
                courtier = state.game[LOUIS_COURTIER]
            for _ in range(state.ability_count[player, ability]):
                if use_optional_ability(state, data, player, ability, bot_family[player], bot_params[player]):
                    placed = place_from_general(state, player, courtier, 1)
                    ability_used(state, player, ability, courtier)
                    trace_event(state, E.START_PLACEMENT, player, ability, courtier, placed, 0, 0, 0)


@inline_game_kernel
def influence_turns(state, data, rules, bot_family, bot_params, moves):
    """§4.2 step 2: clockwise from the start player, everyone with 2 or more cards takes a turn,
    until every player holds at most one card (uneven hands take extra turns at the end)."""
    n_players = state.game[N_PLAYERS]
    while True:
        anyone_played = False
        for position in range(n_players):
            player = seat_order(state, position)
            if hand_size(state, player) >= 2:
                take_influence_turn(state, data, rules, player, bot_family[player], bot_params[player], moves)
                anyone_played = True
        if not anyone_played:
            break


@inline_game_kernel
def take_influence_turn(state, data, rules, player, family, params, moves):
    """One turn: the bot picks among the legal turns (turn_options.py), which is then played;
    the standings after it are recorded when the run asked for them (standings.py); a
    counterfactual replay may replace the pick at one turn of the game (counterfactual.py)."""
    choice = choose_influence_turn(state, data, rules, player, moves, family, params)
    if state.counterfactual[COUNTERFACTUAL_TURN] != 0:
        choice = counterfactual_influence_turn(state, data, rules, player, moves, choice, params)
    apply_move(state, data, player, moves[choice], family, params)
    if recording_standings(state):
        record_turn_standings(state, data, player)


@game_kernel
def apply_move(state, data, player, move, family, params):
    kind = move[MOVE_KIND]
    card = move[MOVE_CARD]
    state.stats[player, INFLUENCE_TURNS] += 1
    if kind == SKIP:
        # LB-SKIP (§4.2 c): pay gold instead of playing a card; the hand is unchanged
        cost = data.numbers[LB_SKIP_COST]
        state.gold[player] -= cost
        state.stats[player, GOLD_SPENT_SKIP] += cost
        state.uses_left[player, C.LB_SKIP] -= 1
        ability_used(state, player, C.LB_SKIP, cost)
        trace_event(state, E.SKIP, player, cost, 0, 0, 0, 0, 0)
        return
    if kind == CARD_SWAP:
        # B-CARDSWAP (§4.2 d): the card goes to the centre without effect, draw the top card
        state.influence_hand[player, card] -= 1
        drawn = draw_influence_card(state, player)
        state.uses_left[player, C.B_CARDSWAP] -= 1
        ability_used(state, player, C.B_CARDSWAP, card)
        trace_event(state, E.CARD_SWAP, player, card, drawn, 0, 0, 0, 0)
        return
    if kind == PLACE_FOUR or kind == RETRIEVE_FOUR:
        # DB-PLACE4: any card acts as a joker of 4 (§6); which card is spent is decided now
        card = choose_card_to_spend(state, data, player, family, params)
        state.uses_left[player, C.DB_PLACE4] -= 1
        ability_used(state, player, C.DB_PLACE4, card)
    state.influence_hand[player, card] -= 1
    if kind == RETRIEVE or kind == RETRIEVE_FOUR:
        moved = retrieve_markers(state, player, markers_retrieved_by(data, kind, card))
        state.stats[player, RETRIEVE_TURNS] += 1
        state.stats[player, MARKERS_RETRIEVED] += moved
        trace_event(state, E.RETRIEVE, player, card, moved, kind, 0, 0, 0)
        return
    placed = 0
    for step in range(move[MOVE_LENGTH]):
        courtier = move[MOVE_PATH + 2 * step]
        count = move[MOVE_PATH + 2 * step + 1]
        state.markers[courtier, player] += count
        state.own_supply[player] -= count
        placed += count
    state.stats[player, PLACE_TURNS] += 1
    state.stats[player, MARKERS_PLACED] += placed
    if state.game[TRACE_ON] != 0:
        trace_event(state, E.PLACE, player, card, path_step_for_log(move, 0), path_step_for_log(move, 1),
                    path_step_for_log(move, 2), path_step_for_log(move, 3), kind)


@inline_game_kernel
def path_step_for_log(move, step):
    """Step ``step`` of a placement path as courtier * 16 + markers for the replay log, -1 past
    the path's end: a move row keeps the steps of an earlier, longer option there (a card played
    for nothing has no step at all)."""
    if step >= move[MOVE_LENGTH]:
        return -1
    return move[MOVE_PATH + 2 * step] * 16 + move[MOVE_PATH + 2 * step + 1]


@game_kernel
def markers_retrieved_by(data, kind, card):
    """How many markers a retrieval moves at most (§4.2 b, DB-PLACE4): 3 with a courtier card,
    2 with a joker, 4 with DB-PLACE4 (numbers from the game data)."""
    if kind == RETRIEVE_FOUR:
        return data.numbers[RETRIEVE_FOUR_COUNT]
    if card == C.JOKER:
        return data.numbers[RETRIEVE_JOKER_COUNT]
    return data.numbers[RETRIEVE_COURTIER_CARD_COUNT]


@game_kernel
def end_of_phase_placement(state, data, bot_family, bot_params):
    """§4.2 step 3: DB-ENDPLACE, one own marker from the general supply on any courtier."""
    for position in range(state.game[N_PLAYERS]):
        player = seat_order(state, position)
        for _ in range(state.ability_count[player, C.DB_ENDPLACE]):
            courtier = choose_courtier_for_marker(state, data, player, PURPOSE_END_PLACEMENT,
                                                  bot_family[player], bot_params[player])
            if courtier >= 0:
                placed = place_from_general(state, player, courtier, 1)
                ability_used(state, player, C.DB_ENDPLACE, courtier)
                trace_event(state, E.END_PLACEMENT, player, courtier, placed, 0, 0, 0, 0)


@game_kernel
def return_cards_and_reshuffle(state, data):
    """§4.2 step 4: everyone's last card goes back; all influence cards form a new deck."""
    state.influence_hand[:, :] = 0
    shuffle_influence_deck(state, data)
    trace_event(state, E.RESHUFFLE, 0, 0, 0, 0, 0, 0, 0)
