"""A turn (§4): the first turn (§4.1), Option 1a/1b (§4.2), Option 2 step 1 (§4.4; steps 2-3 in
betrayal.py) and the end of the turn (§4.5). Every take that can reveal the revolution card
runs the round change (round_end.py) and is repeated from the new display/deck (Q5, Q38)."""

from sim.heads_of_state.betrayal import betrayal_plays
from sim.heads_of_state.bots import D_BTAKE, D_OPTION, D_RAISE, D_TAKE, D_TAKE_ORDER, choose
from sim.heads_of_state.data import (R_FIRST_TURN_REFRESH, R_FIRST_TURN_TAKE_ONLY, R_OPTION2_TAKE_ORDER,
                                     R_REVOLUTION_TAKE_LOST, R_TAKE_FROM_SET_ASIDE)
from sim.heads_of_state.decks import (betrayal_drawable, draw_betrayal_card, draw_character_card,
                                      refill_betrayal_display, return_set_aside)
from sim.heads_of_state.events import (EV_BTAKE_DECK, EV_BTAKE_DISPLAY, EV_REFRESH, EV_TAKE_DECK,
                                       EV_TAKE_DISPLAY, EV_TAKE_SET_ASIDE, EV_TURN, trace)
from sim.heads_of_state.nobles import can_pay, list_raises, raise_noble
from sim.heads_of_state.round_end import discard_to_limit, revolution
from sim.heads_of_state.state import (kernel, ranks_on_empty_boxes, N_RANKS, STAT_DISCARD_TURN_CHAR, STAT_TILE_STARVED, OPT_1A, OPT_1B, OPT_2, OPT_FIRST_TURN, REVOLUTION,
                                      S_ACTIVE, S_CHARACTER_FIRST, S_DECK_N, S_GAME_OVER, S_N_PLAYERS, S_OPTION,
                                      S_START_SEAT, S_TAKES_LEFT,
                                      S_REV_N, S_ROUND, S_SET_ASIDE_N, S_TURN, STEP_1A_TAKE,
                                      STEP_1B_TAKE, STEP_2_TAKE, STEP_END_REFILL,
                                      STEP_FIRST_TURN_TAKE)


@kernel
def take_character_card(st, d, cx, p, step):
    """One take (§4.2 1a/1b, §4.4 step 1, §4.1): a display slot or the top of the deck (Q31 switch
    option1b_take_from_set_aside: in Option 1b also a set-aside card, rows display_size + i).
    Returns False if the revolution card ended the game (1789)."""
    mv = cx.moves
    while True:
        display = st.display    # (re-read: a round change renews the display)
        n = 0
        for slot in range(display.shape[0]):
            if display[slot] >= 0:
                mv[n, 0] = slot
                mv[n, 1] = display[slot]
                n += 1
        if st.scal[S_DECK_N] + st.scal[S_REV_N] > 0:
            mv[n, 0] = -1
            mv[n, 1] = -1
            n += 1
        if step == STEP_1B_TAKE and cx.rules[R_TAKE_FROM_SET_ASIDE] != 0.0:
            for i in range(st.scal[S_SET_ASIDE_N]):     # Q31 other reading: the old display too
                mv[n, 0] = display.shape[0] + i
                mv[n, 1] = st.set_aside[i]
                n += 1
        if n == 0:
            return True
        i = choose(st, d, cx, p, D_TAKE, n)
        slot = mv[i, 0]
        if slot >= display.shape[0]:
            take_set_aside_card(st, cx, p, slot - display.shape[0])
            return True
        if slot >= 0:
            card = st.display[slot]
            st.display[slot] = -1        # the display is not refilled between takes (§4.2)
            st.hand[p, card] += 1
            trace(cx.counters, cx.trace, EV_TAKE_DISPLAY, p, slot, card)
            return True
        card = draw_character_card(st)
        if card == REVOLUTION:           # §4.6 / §5: round change, then repeat the take (Q5)
            revolution(st, d, cx, step)
            if st.scal[S_GAME_OVER] != 0:
                return False
            if cx.rules[R_REVOLUTION_TAKE_LOST] != 0.0:
                return True              # Q5 other reading: the revolution card was the take
            continue
        if card >= 0:
            st.hand[p, card] += 1
            trace(cx.counters, cx.trace, EV_TAKE_DECK, p, card, 0)
        return True


@kernel
def take_set_aside_card(st, cx, p, i):
    """Q31 switch: Option 1b's take is set-aside card ``i``; the pile stays packed (the last card
    fills the gap) for the end-of-turn shuffle back (§4.5 step 1)."""
    set_aside = st.set_aside
    last = st.scal[S_SET_ASIDE_N] - 1
    card = set_aside[i]
    set_aside[i] = set_aside[last]
    set_aside[last] = -1
    st.scal[S_SET_ASIDE_N] = last
    st.hand[p, card] += 1
    trace(cx.counters, cx.trace, EV_TAKE_SET_ASIDE, p, i, card)


@kernel
def raise_nobles(st, d, cx, p):
    """§4.2 step 2: raise any number of nobles on empty boxes."""
    if tile_starved(st, d, cx, p):                     # Q13: logged once per turn
        st.stats[p, STAT_TILE_STARVED] += 1
    while True:
        n = list_raises(st, d, cx, p)
        i = choose(st, d, cx, p, D_RAISE, n)
        box = cx.moves[i, 0]
        if box < 0:
            return
        raise_noble(st, d, cx, p, box, cx.moves[i, 1])


@kernel
def tile_starved(st, d, cx, p):
    """Q13 event: an empty box shows a rank p could pay for, but p has no tile of it left."""
    tiles = st.tiles
    open_ranks = ranks_on_empty_boxes(st, d)
    for rank in range(N_RANKS):
        if (open_ranks >> rank) & 1 and tiles[p, rank] == 0 and can_pay(st, d, cx, p, rank):
            return True
    return False


@kernel
def refresh_display(st, d, cx, p):
    """§4.2 1b: the display goes to the set-aside pile; 6 new cards from the regular deck."""
    k = 0
    display = st.display
    set_aside = st.set_aside
    deck = st.deck
    top = st.scal[S_DECK_N]
    for slot in range(display.shape[0]):
        if display[slot] >= 0:
            set_aside[k] = display[slot]
            k += 1
        top -= 1
        display[slot] = deck[top]
    st.scal[S_DECK_N] = top
    st.scal[S_SET_ASIDE_N] = k
    trace(cx.counters, cx.trace, EV_REFRESH, p, 0, 0)


@kernel
def option_1a(st, d, cx, p, n_takes, step):
    """§4.2 1a (and §4.1 first turn with n_takes = N): n takes, then raises."""
    st.scal[S_TAKES_LEFT] = n_takes
    return finish_option_1(st, d, cx, p, step)


@kernel
def option_1b(st, d, cx, p):
    """§4.2 1b: refresh the display, take 1 (display or deck top, maybe the revolution deck), raise."""
    refresh_display(st, d, cx, p)
    st.scal[S_TAKES_LEFT] = d.option1b_take
    return finish_option_1(st, d, cx, p, STEP_1B_TAKE)


@kernel
def finish_option_1(st, d, cx, p, step):
    """The takes still due (S_TAKES_LEFT counts them down, so a search bot can finish the turn on a
    copy from any take), then the raises (§4.2 step 2). False if 1789 ended the game."""
    while st.scal[S_TAKES_LEFT] > 0:
        st.scal[S_TAKES_LEFT] -= 1
        if not take_character_card(st, d, cx, p, step):
            return False
    if cx.rules[R_FIRST_TURN_TAKE_ONLY] != 0.0 and is_first_turn(st, p):
        return True                      # Q4 other reading: a first turn only takes cards
    raise_nobles(st, d, cx, p)
    return True


@kernel
def is_first_turn(st, p):
    """p is playing his first turn of the game (§4.1; also when the Q3 switch made it Option 1b)."""
    played = 0
    for option in range(st.options.shape[1]):
        played += st.options[p, option]
    return played == 1


@kernel
def take_betrayal_card(st, d, cx, p):
    """§4.4 step 1: one betrayal card from the betrayal display or the top of the betrayal deck."""
    mv = cx.moves
    n = 0
    for slot in range(st.bdisplay.shape[0]):
        if st.bdisplay[slot] >= 0:
            mv[n, 0] = slot
            mv[n, 1] = st.bdisplay[slot]
            n += 1
    if betrayal_drawable(st):
        mv[n, 0] = -1
        mv[n, 1] = -1
        n += 1
    if n > 0:                          # Q29: nothing to take -> only the character card
        i = choose(st, d, cx, p, D_BTAKE, n)
        slot = mv[i, 0]
        if slot >= 0:
            card = st.bdisplay[slot]
            st.bdisplay[slot] = -1
            st.bhand[p, card] += 1
            trace(cx.counters, cx.trace, EV_BTAKE_DISPLAY, p, slot, card)
        else:
            card = draw_betrayal_card(st, cx)
            if card >= 0:
                st.bhand[p, card] += 1
                trace(cx.counters, cx.trace, EV_BTAKE_DECK, p, card, 0)


@kernel
def option_2(st, d, cx, p):
    """§4.4 step 1 -- both takes; Q7: the betrayal card first, then the character card (default),
    or, with option2_take_order = player_choice, in the order the player chooses -- then steps 2-3."""
    character_first = False
    if cx.rules[R_OPTION2_TAKE_ORDER] != 0.0:
        cx.moves[0, 0] = 0           # betrayal card first
        cx.moves[1, 0] = 1           # character card first
        character_first = cx.moves[choose(st, d, cx, p, D_TAKE_ORDER, 2), 0] == 1
    st.scal[S_CHARACTER_FIRST] = 1 if character_first else 0
    if not character_first:
        take_betrayal_card(st, d, cx, p)
    if not take_character_card(st, d, cx, p, STEP_2_TAKE):
        return False
    finish_option_2(st, d, cx, p)
    return True


@kernel
def finish_option_2(st, d, cx, p):
    """Option 2 after its character take: the betrayal take if it comes second (Q7), then the
    betrayal plays (§4.4 steps 2-3)."""
    if st.scal[S_CHARACTER_FIRST] != 0:
        take_betrayal_card(st, d, cx, p)
    betrayal_plays(st, d, cx, p)


@kernel
def step_of_option(option):
    """The STEP_* a take of this option reports to the round change (games table)."""
    if option == OPT_FIRST_TURN:
        return STEP_FIRST_TURN_TAKE
    if option == OPT_1A:
        return STEP_1A_TAKE
    if option == OPT_1B:
        return STEP_1B_TAKE
    return STEP_2_TAKE


@kernel
def finish_turn_after_take(st, d, cx, p):
    """The rest of the active player's turn after a take decision (search bots finish the turn on a
    copy of the state from there). False if 1789 ended the game."""
    option = st.scal[S_OPTION]
    if option == OPT_2:
        finish_option_2(st, d, cx, p)
        return True
    return finish_option_1(st, d, cx, p, step_of_option(option))


@kernel
def end_of_turn(st, d, cx, p):
    """§4.5 in the Q1 order: set-aside back, character display refill, betrayal display refill,
    hand limits 10/4."""
    return_set_aside(st)
    for slot in range(st.display.shape[0]):
        if st.display[slot] < 0:
            card = draw_character_card(st)
            if card == REVOLUTION:
                revolution(st, d, cx, STEP_END_REFILL)   # the new display is complete (Q5)
                if st.scal[S_GAME_OVER] != 0:
                    return
                break
            st.display[slot] = card
    refill_betrayal_display(st, cx)
    discard_to_limit(st, d, cx, p, d.hand_limit_char, d.hand_limit_betrayal, STAT_DISCARD_TURN_CHAR)


@kernel
def first_turn_takes(st, d, p):
    """§4.1 / §3 table: the cards p takes on his first turn, by his place after the start player."""
    n_players = st.scal[S_N_PLAYERS]
    return d.first_turn_takes[n_players, (p - st.scal[S_START_SEAT]) % n_players]


@kernel
def play_turn(st, d, cx):
    """One turn of the active player (§4.0), then the next player clockwise."""
    p = st.scal[S_ACTIVE]
    st.turns_round[st.scal[S_ROUND]] += 1
    st.scal[S_TURN] += 1
    mv = cx.moves
    n_takes = 0
    if st.first_done[p] == 0:                          # §4.1
        st.first_done[p] = 1
        n_takes = first_turn_takes(st, d, p)
        option = OPT_FIRST_TURN
        if (cx.rules[R_FIRST_TURN_REFRESH] != 0.0 and n_takes == 1
                and st.scal[S_DECK_N] >= d.option1b_min):   # Q3 switch
            mv[0, 0] = OPT_FIRST_TURN
            mv[1, 0] = OPT_1B
            option = mv[choose(st, d, cx, p, D_OPTION, 2), 0]
    else:
        n = 0
        mv[n, 0] = OPT_1A
        n += 1
        if st.scal[S_DECK_N] >= d.option1b_min:        # §4.2 1b needs 6 regular cards (Q6)
            mv[n, 0] = OPT_1B
            n += 1
        mv[n, 0] = OPT_2                                # always legal (Q29)
        n += 1
        option = mv[choose(st, d, cx, p, D_OPTION, n), 0]
    play_option(st, d, cx, p, option)


@kernel
def play_option(st, d, cx, p, option):
    """The chosen option of p's turn, the end of the turn, and the next player (a search bot plays
    its candidate options through this on copies of the state)."""
    st.scal[S_OPTION] = option
    st.options[p, option] += 1
    trace(cx.counters, cx.trace, EV_TURN, p, option, st.scal[S_TURN])
    if option == OPT_FIRST_TURN:
        alive = option_1a(st, d, cx, p, first_turn_takes(st, d, p), STEP_FIRST_TURN_TAKE)
    elif option == OPT_1A:
        alive = option_1a(st, d, cx, p, d.option1_take, STEP_1A_TAKE)
    elif option == OPT_1B:
        alive = option_1b(st, d, cx, p)
    else:
        alive = option_2(st, d, cx, p)
    if alive:
        finish_turn(st, d, cx, p)


@kernel
def finish_turn(st, d, cx, p):
    """§4.5 end of the turn, then the next player clockwise (unless 1789 ended the game)."""
    end_of_turn(st, d, cx, p)
    if st.scal[S_GAME_OVER] != 0:
        return
    st.scal[S_ACTIVE] = (p + 1) % st.scal[S_N_PLAYERS]
