"""A turn (§4): the first turn (§4.1), Option 1a/1b (§4.2), Option 2 step 1 (§4.4; steps 2-3 in
betrayal.py) and the end of the turn (§4.5). Every take that can reveal the revolution card
runs the round change (round_end.py) and is repeated from the new display/deck (Q5, Q38)."""

from sim.core.kernels import game_kernel
from sim.heads_of_state.betrayal import betrayal_plays
from sim.heads_of_state.counterfactual import counterfactual_option, note_counterfactual_turn
from strategies.heads_of_state.decide import choose
from sim.heads_of_state.data import (R_FIRST_TURN_REFRESH, R_FIRST_TURN_TAKE_ONLY, R_OPTION2_TAKE_ORDER,
                                     R_REVOLUTION_TAKE_LOST, R_TAKE_FROM_SET_ASIDE)
from sim.heads_of_state.decisions import D_BTAKE, D_OPTION, D_RAISE, D_TAKE, D_TAKE_ORDER
from sim.heads_of_state.decks import (betrayal_drawable, draw_betrayal_card, draw_character_card,
                                      refill_betrayal_display, return_set_aside)
from sim.heads_of_state.events import (COUNTERFACTUAL_TURN, DISPLAYS_REFILLED, DISPLAYS_REFRESHED, EV_BTAKE_DECK,
                                       EV_BTAKE_DISPLAY, EV_REFRESH, EV_TAKE_DECK, EV_TAKE_DISPLAY, EV_TAKE_SET_ASIDE,
                                       EV_TURN, K_TRACE_ON, trace, trace_displays)
from sim.heads_of_state.nobles import can_pay, list_raises, raise_noble
from sim.heads_of_state.round_end import discard_to_limit, revolution
from sim.heads_of_state.state import (STAT_BLIND_BETRAYAL_DRAWS, ranks_on_empty_boxes, N_RANKS, STAT_DISCARD_TURN_CHAR, STAT_TILE_STARVED, OPT_1A, OPT_1B, OPT_2, OPT_FIRST_TURN, REVOLUTION,
                                      S_ACTIVE, S_CHARACTER_FIRST, S_DECK_N, S_GAME_OVER, S_N_PLAYERS, S_OPTION,
                                      S_START_SEAT, S_TAKES_LEFT,
                                      S_REV_N, S_ROUND, S_SET_ASIDE_N, S_TURN, STEP_1A_TAKE,
                                      STEP_1B_TAKE, STEP_2_TAKE, STEP_END_REFILL,
                                      STEP_FIRST_TURN_TAKE)


@game_kernel
def take_character_card(state, data, context, player, step):
    """One take (§4.2 1a/1b, §4.4 step 1, §4.1): a display slot or the top of the deck (Q31 switch
    option1b_take_from_set_aside: in Option 1b also a set-aside card, rows display_size + i).
    Returns False if the revolution card ended the game (1789)."""
    moves = context.moves
    while True:
        display = state.display    # (re-read: a round change renews the display)
        n = 0
        for slot in range(display.shape[0]):
            if display[slot] >= 0:
                moves[n, 0] = slot
                moves[n, 1] = display[slot]
                n += 1
        if state.scal[S_DECK_N] + state.scal[S_REV_N] > 0:
            moves[n, 0] = -1
            moves[n, 1] = -1
            n += 1
        if step == STEP_1B_TAKE and context.rules[R_TAKE_FROM_SET_ASIDE] != 0.0:
            for i in range(state.scal[S_SET_ASIDE_N]):     # Q31 other reading: the old display too
                moves[n, 0] = display.shape[0] + i
                moves[n, 1] = state.set_aside[i]
                n += 1
        if n == 0:
            return True
        i = choose(state, data, context, player, D_TAKE, n)
        slot = moves[i, 0]
        if slot >= display.shape[0]:
            take_set_aside_card(state, context, player, slot - display.shape[0])
            return True
        if slot >= 0:
            card = state.display[slot]
            state.display[slot] = -1        # the display is not refilled between takes (§4.2)
            state.hand[player, card] += 1
            trace(context.counters, context.trace, EV_TAKE_DISPLAY, player, slot, card)
            return True
        card = draw_character_card(state)
        if card == REVOLUTION:           # §4.6 / §5: round change, then repeat the take (Q5)
            revolution(state, data, context, step)
            if state.scal[S_GAME_OVER] != 0:
                return False
            if context.rules[R_REVOLUTION_TAKE_LOST] != 0.0:
                return True              # Q5 other reading: the revolution card was the take
            continue
        if card >= 0:
            state.hand[player, card] += 1
            trace(context.counters, context.trace, EV_TAKE_DECK, player, card, 0)
        return True


@game_kernel
def take_set_aside_card(state, context, player, i):
    """Q31 switch: Option 1b's take is set-aside card ``i``; the pile stays packed (the last card
    fills the gap) for the end-of-turn shuffle back (§4.5 step 1)."""
    set_aside = state.set_aside
    last = state.scal[S_SET_ASIDE_N] - 1
    card = set_aside[i]
    set_aside[i] = set_aside[last]
    set_aside[last] = -1
    state.scal[S_SET_ASIDE_N] = last
    state.hand[player, card] += 1
    trace(context.counters, context.trace, EV_TAKE_SET_ASIDE, player, i, card)


@game_kernel
def raise_nobles(state, data, context, player):
    """§4.2 step 2: raise any number of nobles on empty boxes."""
    if tile_starved(state, data, context, player):                     # Q13: logged once per turn
        state.stats[player, STAT_TILE_STARVED] += 1
    while True:
        n = list_raises(state, data, context, player)
        i = choose(state, data, context, player, D_RAISE, n)
        box = context.moves[i, 0]
        if box < 0:
            return
        raise_noble(state, data, context, player, box, context.moves[i, 1])


@game_kernel
def tile_starved(state, data, context, player):
    """Q13 event: an empty box shows a rank p could pay for, but p has no tile of it left."""
    tiles = state.tiles
    open_ranks = ranks_on_empty_boxes(state, data)
    for rank in range(N_RANKS):
        if (open_ranks >> rank) & 1 and tiles[player, rank] == 0 and can_pay(state, data, context, player, rank):
            return True
    return False


@game_kernel
def refresh_display(state, data, context, player):
    """§4.2 1b: the display goes to the set-aside pile; 6 new cards from the regular deck."""
    k = 0
    display = state.display
    set_aside = state.set_aside
    deck = state.deck
    top = state.scal[S_DECK_N]
    for slot in range(display.shape[0]):
        if display[slot] >= 0:
            set_aside[k] = display[slot]
            k += 1
        top -= 1
        display[slot] = deck[top]
    state.scal[S_DECK_N] = top
    state.scal[S_SET_ASIDE_N] = k
    trace(context.counters, context.trace, EV_REFRESH, player, 0, 0)
    if context.counters[K_TRACE_ON] != 0:
        trace_displays(state, context, DISPLAYS_REFRESHED)


@game_kernel
def option_1a(state, data, context, player, n_takes, step):
    """§4.2 1a (and §4.1 first turn with n_takes = N): n takes, then raises."""
    state.scal[S_TAKES_LEFT] = n_takes
    return finish_option_1(state, data, context, player, step)


@game_kernel
def option_1b(state, data, context, player):
    """§4.2 1b: refresh the display, take 1 (display or deck top, maybe the revolution deck), raise."""
    refresh_display(state, data, context, player)
    state.scal[S_TAKES_LEFT] = data.option1b_take
    return finish_option_1(state, data, context, player, STEP_1B_TAKE)


@game_kernel
def finish_option_1(state, data, context, player, step):
    """The takes still due (S_TAKES_LEFT counts them down, so a search bot can finish the turn on a
    copy from any take), then the raises (§4.2 step 2). False if 1789 ended the game."""
    while state.scal[S_TAKES_LEFT] > 0:
        state.scal[S_TAKES_LEFT] -= 1
        if not take_character_card(state, data, context, player, step):
            return False
    if context.rules[R_FIRST_TURN_TAKE_ONLY] != 0.0 and is_first_turn(state, player):
        return True                      # Q4 other reading: a first turn only takes cards
    raise_nobles(state, data, context, player)
    return True


@game_kernel
def is_first_turn(state, player):
    """p is playing his first turn of the game (§4.1; also when the Q3 switch made it Option 1b)."""
    played = 0
    for option in range(state.options.shape[1]):
        played += state.options[player, option]
    return played == 1


@game_kernel
def take_betrayal_card(state, data, context, player):
    """§4.4 step 1: one betrayal card from the betrayal display or the top of the betrayal deck."""
    moves = context.moves
    n = 0
    for slot in range(state.bdisplay.shape[0]):
        if state.bdisplay[slot] >= 0:
            moves[n, 0] = slot
            moves[n, 1] = state.bdisplay[slot]
            n += 1
    if betrayal_drawable(state):
        moves[n, 0] = -1
        moves[n, 1] = -1
        n += 1
    if n > 0:                          # Q29: nothing to take -> only the character card
        i = choose(state, data, context, player, D_BTAKE, n)
        slot = moves[i, 0]
        if slot >= 0:
            card = state.bdisplay[slot]
            state.bdisplay[slot] = -1
            state.bhand[player, card] += 1
            trace(context.counters, context.trace, EV_BTAKE_DISPLAY, player, slot, card)
        else:
            if n > 1:                  # a displayed betrayal card could have been taken instead
                state.stats[player, STAT_BLIND_BETRAYAL_DRAWS] += 1
            card = draw_betrayal_card(state, context)
            if card >= 0:
                state.bhand[player, card] += 1
                trace(context.counters, context.trace, EV_BTAKE_DECK, player, card, 0)


@game_kernel
def option_2(state, data, context, player):
    """§4.4 step 1 -- both takes; Q7: the betrayal card first, then the character card (default),
    or, with option2_take_order = player_choice, in the order the player chooses -- then steps 2-3."""
    character_first = False
    if context.rules[R_OPTION2_TAKE_ORDER] != 0.0:
        context.moves[0, 0] = 0           # betrayal card first
        context.moves[1, 0] = 1           # character card first
        character_first = context.moves[choose(state, data, context, player, D_TAKE_ORDER, 2), 0] == 1
    state.scal[S_CHARACTER_FIRST] = 1 if character_first else 0
    if not character_first:
        take_betrayal_card(state, data, context, player)
    if not take_character_card(state, data, context, player, STEP_2_TAKE):
        return False
    finish_option_2(state, data, context, player)
    return True


@game_kernel
def finish_option_2(state, data, context, player):
    """Option 2 after its character take: the betrayal take if it comes second (Q7), then the
    betrayal plays (§4.4 steps 2-3)."""
    if state.scal[S_CHARACTER_FIRST] != 0:
        take_betrayal_card(state, data, context, player)
    betrayal_plays(state, data, context, player)


@game_kernel
def step_of_option(option):
    """The STEP_* a take of this option reports to the round change (games table)."""
    if option == OPT_FIRST_TURN:
        return STEP_FIRST_TURN_TAKE
    if option == OPT_1A:
        return STEP_1A_TAKE
    if option == OPT_1B:
        return STEP_1B_TAKE
    return STEP_2_TAKE


@game_kernel
def finish_turn_after_take(state, data, context, player):
    """The rest of the active player's turn after a take decision (search bots finish the turn on a
    copy of the state from there). False if 1789 ended the game."""
    option = state.scal[S_OPTION]
    if option == OPT_2:
        finish_option_2(state, data, context, player)
        return True
    return finish_option_1(state, data, context, player, step_of_option(option))


@game_kernel
def end_of_turn(state, data, context, player):
    """§4.5 in the Q1 order: set-aside back, character display refill, betrayal display refill,
    hand limits 10/4."""
    return_set_aside(state)
    tracing = context.counters[K_TRACE_ON] != 0
    if tracing:
        tracing = displays_have_gaps(state)     # log the displays only if a slot is refilled
    for slot in range(state.display.shape[0]):
        if state.display[slot] < 0:
            card = draw_character_card(state)
            if card == REVOLUTION:
                revolution(state, data, context, STEP_END_REFILL)   # the new display is complete (Q5)
                if state.scal[S_GAME_OVER] != 0:
                    return
                tracing = False                 # the round change logged the new displays
                break
            state.display[slot] = card
    refill_betrayal_display(state, context)
    if tracing:
        trace_displays(state, context, DISPLAYS_REFILLED)
    discard_to_limit(state, data, context, player, data.hand_limit_char, data.hand_limit_betrayal, STAT_DISCARD_TURN_CHAR)


@game_kernel
def displays_have_gaps(state):
    """An empty slot in the character or the betrayal display (trace mode: is a refill coming?)."""
    for slot in range(state.display.shape[0]):
        if state.display[slot] < 0:
            return True
    for slot in range(state.bdisplay.shape[0]):
        if state.bdisplay[slot] < 0:
            return True
    return False


@game_kernel
def first_turn_takes(state, data, player):
    """§4.1 / §3 table: the cards p takes on his first turn, by his place after the start player."""
    n_players = state.scal[S_N_PLAYERS]
    return data.first_turn_takes[n_players, (player - state.scal[S_START_SEAT]) % n_players]


@game_kernel
def play_turn(state, data, context):
    """One turn of the active player (§4.0), then the next player clockwise."""
    player = state.scal[S_ACTIVE]
    state.turns_round[state.scal[S_ROUND]] += 1
    state.scal[S_TURN] += 1
    if context.counterfactual[COUNTERFACTUAL_TURN] != 0:    # a counterfactual replay (counterfactual.py)
        note_counterfactual_turn(state, context, player)
    moves = context.moves
    n_takes = 0
    if state.first_done[player] == 0:                          # §4.1
        state.first_done[player] = 1
        n_takes = first_turn_takes(state, data, player)
        option = OPT_FIRST_TURN
        if (context.rules[R_FIRST_TURN_REFRESH] != 0.0 and n_takes == 1
                and state.scal[S_DECK_N] >= data.option1b_min):   # Q3 switch
            moves[0, 0] = OPT_FIRST_TURN
            moves[1, 0] = OPT_1B
            option = moves[option_row(state, data, context, player, 2), 0]
    else:
        n = 0
        moves[n, 0] = OPT_1A
        n += 1
        if state.scal[S_DECK_N] >= data.option1b_min:        # §4.2 1b needs 6 regular cards (Q6)
            moves[n, 0] = OPT_1B
            n += 1
        moves[n, 0] = OPT_2                                # always legal (Q29)
        n += 1
        option = moves[option_row(state, data, context, player, n), 0]
    play_option(state, data, context, player, option)


@game_kernel
def option_row(state, data, context, player, n):
    """The row of the turn option (§4.2) the player takes among the ``n`` listed: its bot's
    choice, which a counterfactual replay may replace at one turn of the game."""
    row = choose(state, data, context, player, D_OPTION, n)
    if context.counterfactual[COUNTERFACTUAL_TURN] != 0:
        row = counterfactual_option(state, data, context, player, n, row)
    return row


@game_kernel
def play_option(state, data, context, player, option):
    """The chosen option of p's turn, the end of the turn, and the next player (a search bot plays
    its candidate options through this on copies of the state)."""
    state.scal[S_OPTION] = option
    state.options[player, option] += 1
    trace(context.counters, context.trace, EV_TURN, player, option, state.scal[S_TURN])
    if option == OPT_FIRST_TURN:
        alive = option_1a(state, data, context, player, first_turn_takes(state, data, player), STEP_FIRST_TURN_TAKE)
    elif option == OPT_1A:
        alive = option_1a(state, data, context, player, data.option1_take, STEP_1A_TAKE)
    elif option == OPT_1B:
        alive = option_1b(state, data, context, player)
    else:
        alive = option_2(state, data, context, player)
    if alive:
        finish_turn(state, data, context, player)


@game_kernel
def finish_turn(state, data, context, player):
    """§4.5 end of the turn, then the next player clockwise (unless 1789 ended the game)."""
    end_of_turn(state, data, context, player)
    if state.scal[S_GAME_OVER] != 0:
        return
    state.scal[S_ACTIVE] = (player + 1) % state.scal[S_N_PLAYERS]
