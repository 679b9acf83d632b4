"""Louis XIV bot decisions: the rules' one entry point to the bots, a compiled ``choose_*``
function per decision point (rules §10.1), each dispatching on the seat's family id.

A bot is a family id plus a float64 parameter vector (``parameters.py`` documents each entry's
meaning, default and range). The rules kernels ask; these functions answer, reading only what
a player at the table sees: public state and the bot's own hand (sim/louis_xiv/state.py, Q21).

- ``random`` (family 0): uniform over the legal choices at every decision point (here).
- ``greedy`` (family 1): one-step heuristic (greedy.py). It values each courtier's gift for
  itself (tokens its missions need, coats, gold, cards), estimates its chance to win the courtier
  from the marker lead it would have, and takes the move with the best gain in expected value.
- ``search`` (family 2): flat Monte Carlo at the influence turn (search.py): the
  greedy's best ``max_candidates`` turns, each played out ``rollouts`` times on determinized
  copies of the position; every other decision is the greedy's, with the bot's own greedy
  parameters (its vector is the greedy parameters followed by ``SEARCH_PARAMETERS``). Every
  dispatcher below treats SEARCH as GREEDY (``family == RANDOM`` or else), except
  ``choose_influence_turn``.
"""
from sim.core.compiled_calls import call_compiled
from sim.core.kernels import game_kernel
from sim.core.random_streams import below, pick_by_counts, shuffle
from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import (INTRIGUE_NONE, INTRIGUE_ONE_FROM_GENERAL, INTRIGUE_ONE_FROM_OWN,
                                     INTRIGUE_TWO_FROM_OWN, ORDER_BITS, PURPOSE_CONDE)
from sim.louis_xiv.state import N_PLAYERS
from sim.louis_xiv.turn_options import list_turn_options
from strategies.louis_xiv.greedy import (bot_rng_source, greedy_bribe, greedy_card_to_spend, greedy_courtier_for_marker,
                                         greedy_courtier_for_marker_among, greedy_income, greedy_influence_move,
                                         greedy_influence_turn, greedy_intrigue, greedy_maintenon_count,
                                         greedy_markers_to_retrieve, greedy_mission_deck, greedy_mission_play,
                                         greedy_mission_swap, greedy_once_first, greedy_resources_order,
                                         greedy_token_swap, greedy_token_to_return, greedy_uses_optional_ability,
                                         prepare_gift_values)
from strategies.louis_xiv.parameters import RANDOM, SEARCH


@game_kernel
def prepare_influence_phase(state, data, bot_family, bot_params):
    """Start of the influence phase: what each courtier's gift is worth to each greedy player
    (greedy.prepare_gift_values), kept for the whole phase."""
    for player in range(state.game[N_PLAYERS]):
        if bot_family[player] != RANDOM:   # greedy, and the search bot's own greedy
            prepare_gift_values(state, data, player, bot_params[player])


@game_kernel
def choose_influence_turn(state, data, rules, player, moves, family, params):
    """§4.2 step 2: which influence turn; returns its row in ``moves``. The random bot lists the
    legal turns and draws one; the greedy bot scores them as they are enumerated
    (sim/louis_xiv/turn_options.py) and gets the same choice as ``choose_influence_move`` on
    the listed rows, without writing them. Only during the influence phase (the greedy bot
    keeps values from ``prepare_influence_phase`` on). The search bot (search.py) is called
    through the address of its compiled entry, which the engine sets in ``state.search_entry``
    for a chunk with a search bot (sim/core/compiled_calls.py: why); its rollouts seat greedy
    bots only, so they never come back here for a search."""
    if family == RANDOM:
        n_moves = list_turn_options(state, data, rules, player, moves)
        return below(state.streams, bot_rng_source(player), n_moves)
    if family == SEARCH:
        return call_compiled(state.search_entry[0], state.search_entry[1], state, data, rules, player, moves, params)
    return greedy_influence_turn(state, data, rules, player, moves, params)


@game_kernel
def choose_influence_move(state, data, player, moves, n_moves, family, params):
    """§4.2 step 2: which of the ``n_moves`` listed influence turns (index into ``moves``)."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), n_moves)
    return greedy_influence_move(state, data, player, moves, n_moves, params)


@game_kernel
def choose_card_to_spend(state, data, player, family, params):
    """DB-PLACE4: which influence card is played as the joker of 4."""
    if family == RANDOM:
        return pick_by_counts(state.streams, bot_rng_source(player), state.influence_hand[player])
    return greedy_card_to_spend(state, data, player, params)


@game_kernel
def use_optional_ability(state, data, player, ability, family, params):
    """Whether to use an optional ability now (LB-MARKER, DB-INTRIGUE, DB-CARDFORMARKER,
    start-of-phase placements)."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 2) == 1
    return greedy_uses_optional_ability(state, data, player, ability, params)


@game_kernel
def choose_resources_order(state, data, player, family, params):
    """§4.1 step 2: the order in which the player uses his resources abilities (packed, as in
    decisions.py). Random: a uniform order of the abilities he holds, from a stream of its own
    (``SOURCE_RESOURCES_ORDER + seat``), so that no other draw shifts. Greedy: DB-CARDFORMARKER
    first when it spends a marker now and a marker-retrieving ability (LB-MARKER, B-INCOME,
    DB-MARKERS3) can then bring that marker back; otherwise the rules file's order, where
    DB-CARDFORMARKER comes last and markers retrieved before can pay for it (the order matters
    for nothing else, so other games stay as they were)."""
    if family == RANDOM:
        return random_resources_order(state, player)
    return greedy_resources_order(state, data, player, params)


@game_kernel
def random_resources_order(state, player):
    """The abilities the player holds in a shuffled order, then the others (which do nothing)."""
    abilities = state.scratch_ints
    n_held = 0
    for ability in C.RESOURCES_ABILITIES:
        if state.ability_count[player, ability] > 0:
            abilities[n_held] = ability
            n_held += 1
    n_listed = n_held
    for ability in C.RESOURCES_ABILITIES:
        if state.ability_count[player, ability] == 0:
            abilities[n_listed] = ability
            n_listed += 1
    if n_held > 1:
        shuffle(state.streams, C.SOURCE_RESOURCES_ORDER + player, abilities, n_held)
    order = 0
    for slot in range(n_listed):
        order |= abilities[slot] << (ORDER_BITS * slot)
    return order


@game_kernel
def choose_income(state, data, player, family, params):
    """B-INCOME: 2 gold, 1 gold + 1 marker, or 2 markers (general -> own)."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 3)
    return greedy_income(state, data, player, params)


@game_kernel
def choose_markers_to_retrieve(state, data, player, maximum, family, params):
    """DB-MARKERS3: how many markers (0..maximum) to move general -> own."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), maximum + 1)
    return greedy_markers_to_retrieve(state, data, player, maximum, params)


@game_kernel
def choose_intrigue(state, data, player, courtier, family, params):
    """§4.3 step 1: play this courtier's intrigue card, and how."""
    general = state.general_supply[player]
    own = state.own_supply[player]
    if family == RANDOM:
        legal = state.scratch_ints[:4]
        n_legal = 1
        legal[0] = INTRIGUE_NONE
        if general > 0:
            legal[n_legal] = INTRIGUE_ONE_FROM_GENERAL
            n_legal += 1
        if own > 0:
            legal[n_legal] = INTRIGUE_ONE_FROM_OWN
            n_legal += 1
        if own > 1:
            legal[n_legal] = INTRIGUE_TWO_FROM_OWN
            n_legal += 1
        return legal[below(state.streams, bot_rng_source(player), n_legal)]
    return greedy_intrigue(state, data, player, courtier, params)


@game_kernel
def choose_once_first(state, data, player, courtier, family, params):
    """DB-ONCEFIRST: win this tie for most (once per evaluation phase)?"""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 2) == 1
    return greedy_once_first(state, data, player, courtier, params)


@game_kernel
def choose_bribe(state, data, player, courtier, cost, family, params):
    """§4.3.1: pay the bribe for this courtier's gift?"""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), 2) == 1
    return greedy_bribe(state, data, player, courtier, cost, params)


@game_kernel
def choose_courtier_for_marker(state, data, player, purpose, family, params):
    """Condé's marker or DB-ENDPLACE: which courtier (0..11), or -1 for none where optional."""
    if family == RANDOM:
        if purpose == PURPOSE_CONDE:
            return below(state.streams, bot_rng_source(player), C.N_COURTIERS)
        return below(state.streams, bot_rng_source(player), C.N_COURTIERS + 1) - 1
    return greedy_courtier_for_marker(state, data, player, purpose, params)


@game_kernel
def choose_courtier_for_marker_among(state, data, player, first, excluded, family, params):
    """Condé's marker where the rule switch conde_targets narrows the targets (Q26): a courtier
    of first..11 other than ``excluded`` (-1: none left out). Random: uniform over them; greedy:
    the best holding gain, the first of equal ones (as ``choose_courtier_for_marker``)."""
    if family == RANDOM:
        left_out = 1 if excluded >= first else 0
        pick = first + below(state.streams, bot_rng_source(player), C.N_COURTIERS - first - left_out)
        return pick + 1 if left_out == 1 and pick >= excluded else pick
    return greedy_courtier_for_marker_among(state, data, player, first, excluded, params)


@game_kernel
def choose_maintenon_count(state, data, player, maximum, family, params):
    """Maintenon: how many markers (0..maximum) to put on her named courtier."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), maximum + 1)
    return greedy_maintenon_count(state, data, player, maximum, params)


@game_kernel
def choose_mission_play(state, data, player, options, n_options, family, params):
    """§4.5 step 1: which (card, payment) to play, or -1 to end the mission turn."""
    if family == RANDOM:
        return below(state.streams, bot_rng_source(player), n_options + 1) - 1
    return greedy_mission_play(state, data, player, options, n_options, params)


@game_kernel
def choose_mission_deck(state, data, player, family, params):
    """§4.5 step 2: which non-empty mission deck to draw from."""
    if family == RANDOM:
        non_empty = 0
        for colour in range(C.N_MISSION_COLOURS):
            if state.mission_deck_count[colour] > 0:
                non_empty += 1
        pick = below(state.streams, bot_rng_source(player), non_empty)
        for colour in range(C.N_MISSION_COLOURS):
            if state.mission_deck_count[colour] > 0:
                if pick == 0:
                    return colour
                pick -= 1
    return greedy_mission_deck(state, data, player, params)


@game_kernel
def choose_token_swap(state, data, player, family, params):
    """LB-TOKENSWAP: which non-crown token to trade for a crown, or -1."""
    if family == RANDOM:
        pick = below(state.streams, bot_rng_source(player), C.N_TOKENS)  # 0 = do not swap
        if pick == 0 or state.tokens[player, pick] == 0:
            return -1
        return pick
    return greedy_token_swap(state, data, player, params)


@game_kernel
def choose_mission_swap(state, data, player, family, params, chosen):
    """LB-MISSIONSWAP: up to 2 hand cards to put under their decks; returns how many, cards in
    ``chosen``."""
    n_hand = state.mission_hand[player].sum()
    if n_hand == 0:
        return 0
    if family == RANDOM:
        source = bot_rng_source(player)
        count = below(state.streams, source, min(2, n_hand) + 1)
        taken = 0
        while taken < count:
            pick = below(state.streams, source, n_hand)
            for card in range(data.mission_colour.shape[0]):
                if state.mission_hand[player, card] == 1:
                    if pick == 0:
                        if taken == 0 or chosen[0] != card:
                            chosen[taken] = card
                            taken += 1
                        break
                    pick -= 1
        return count
    return greedy_mission_swap(state, data, player, params, chosen)


@game_kernel
def choose_token_to_return(state, data, player, family, params):
    """§4.5 step 5: which token to give back (for a coat) when holding too many."""
    if family == RANDOM:
        return pick_by_counts(state.streams, bot_rng_source(player), state.tokens[player])
    return greedy_token_to_return(state, data, player, params)
