"""One test per rule of rules/heads_of_state.md not already covered by an Appendix B example."""
import numpy as np

from sim.heads_of_state import events as ev
from sim.heads_of_state.betrayal import list_betrayal_plays
from sim.heads_of_state.decks import build_character_decks
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.nobles import list_raises, raise_noble
from sim.heads_of_state.round_end import revolution
from sim.heads_of_state.scoring import take_large_token
from sim.heads_of_state.state import (BARON, COUNT, KING, MARGRAVE, OPT_1B, REVOLUTION, S_BDECK_N,
                                      S_DECK_N, S_GAME_OVER, S_REV_N, S_ROUND, STEP_1A_TAKE)

RED, BLUE, YELLOW = 0, 1, 2


def test_s3_setup_decks_and_displays(position):
    for n, deck in ((2, 73), (3, 82), (4, 91), (5, 100)):
        pos = position(n)
        build_character_decks(pos.state, pos.data, pos.context)
        assert pos.state.scal[S_REV_N] == 11 and (pos.state.rev[:11] == REVOLUTION).sum() == 1
        assert pos.state.scal[S_DECK_N] == deck - 10 - 6 and (pos.state.display >= 0).all()


def test_s4_1_first_turn_takes_exactly_n_cards(setup):
    """The §3 table by place after the start player (drawn at random, §3 step 11)."""
    for n in (2, 3, 4, 5):
        events = ENGINE.trace_events(setup, n, [ENGINE.resolve_bot("random")] * n, 8, 1)
        turn_of = -1
        start = None
        takes = np.zeros(n, int)                         # by place in the turn order
        for code, a, b, c in events.tolist():
            if code == ev.EV_TURN:
                turn_of = c
                start = a if start is None else start
            elif code in (ev.EV_TAKE_DISPLAY, ev.EV_TAKE_DECK) and turn_of <= n:
                takes[(a - start) % n] += 1
        assert takes.tolist() == setup.data.first_turn_takes[n, :n].tolist()


def test_s4_2_option_1b_needs_six_regular_cards(setup):
    events = ENGINE.trace_events(setup, 4, [ENGINE.resolve_bot("random")] * 4, 3, 2)
    assert (events[(events[:, 0] == ev.EV_TURN), 2] == OPT_1B).any()   # random bots do refresh
    # the legality rule itself: turn.play_turn lists OPT_1B only if deck >= option1b_min
    assert setup.data.option1b_min == 6


def test_s4_3_a_raise_needs_a_tile_q13(position):
    pos = position(3)
    pos.give(RED, "GOLD")
    pos.state.tiles[RED, BARON] = 0
    n = list_raises(pos.state, pos.data, pos.context, RED)
    assert pos.moves(n) == [(-1, -1, 0, 0)]                 # only "stop"


def test_s4_4_own_nobles_and_once_per_turn(position):
    pos = position(3)
    pos.place(RED, "FR_P1.upper", "duke")
    pos.place(BLUE, "FR_P2.upper", "margrave")
    pos.place(YELLOW, "FR_P3.upper", "earl")
    pos.give_betrayal(RED, "assassin", "assassin")
    pos.state.targeted[pos.box("FR_P2.upper")] = 1             # already targeted this turn
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert [m[0] for m in pos.moves(n) if m[0] >= 0] == [pos.box("FR_P3.upper")]


def test_s4_6_revolution_interrupt_repeats_the_take(setup):
    """§4.6/§5.2 step 4 (Q5): after a round change during a take, the same seat takes again."""
    checked = 0
    for game in range(40):
        events = ENGINE.trace_events(setup, 3, [ENGINE.resolve_bot("random")] * 3, 4, game).tolist()
        active = -1
        for i, (code, a, b, c) in enumerate(events):
            if code == ev.EV_TURN:
                active = a
            if code == ev.EV_REVOLUTION and a < 2 and b in (1, 2, 3, 4):
                nxt = next(e for e in events[i + 1:] if e[0] in (ev.EV_TAKE_DISPLAY, ev.EV_TAKE_DECK, ev.EV_TURN))
                assert nxt[0] != ev.EV_TURN and nxt[1] == active
                checked += 1
    assert checked > 0


def test_s5_2_round_change_cuts_hands_and_renews_decks(position):
    pos = position(3)
    build_character_decks(pos.state, pos.data, pos.context)
    pos.state.bdisplay[:] = [0, 0]
    names = pos.desc["character_types"]
    for player in range(3):
        for i in range(8):                                   # 8 cards each, spread over the types
            pos.give(player, names[(3 * player + i) % len(names)])
        pos.give_betrayal(player, "assassin", "assassin", "assassin")
    revolution(pos.state, pos.data, pos.context, STEP_1A_TAKE)
    assert pos.state.scal[S_ROUND] == 1 and pos.state.round_step[0] == STEP_1A_TAKE
    assert (pos.state.hand[:3].sum(axis=1) == 6).all() and (pos.state.bhand[:3].sum(axis=1) == 2).all()
    in_hands = pos.state.hand[:3].sum()
    assert pos.state.scal[S_DECK_N] + pos.state.scal[S_REV_N] - 1 + 6 == 82 - in_hands
    # old betrayal display (2) + cut cards (3) -> discards -> (reshuffled) new display and deck
    assert pos.state.scal[S_BDECK_N] + (pos.state.bdisplay >= 0).sum() + pos.state.bdiscard.sum() == 2 + 3
    assert (pos.state.bdisplay >= 0).all()
    assert pos.state.scal[S_GAME_OVER] == 0


def test_s5_3_the_1789_revolution_ends_the_game(position):
    pos = position(3)
    pos.state.scal[S_ROUND] = 2
    revolution(pos.state, pos.data, pos.context, STEP_1A_TAKE)
    assert pos.state.scal[S_GAME_OVER] == 1


def test_s6_2_one_noble_per_region_suffices_and_kills_never_trigger(position):
    pos = position(3)
    pos.place(RED, "GB_CAP.upper", "king")
    pos.place(RED, "GB_IRL.lower", "count")
    pos.give(RED, "TITLE", "TROOPS", "CASTLE", "DUEL")
    raise_noble(pos.state, pos.data, pos.context, RED, pos.box("GB_SCO.upper"), MARGRAVE)
    assert pos.state.square_owner[RED, 0] == 1                 # lower boxes of IRL empty: still counts


def test_s6_3_large_round_tokens_in_order(position):
    for n, expected in ((3, [16, 12, 8]), (2, [16, 8])):
        pos = position(n)
        pos.state.raised[:n, :] = 1
        for player in range(n):
            take_large_token(pos.state, pos.data, pos.context, player)
        assert pos.state.large_owner[:n].tolist() == expected


def test_s6_3_large_token_counts_raises_not_living_nobles(position):
    pos = position(3)
    pos.state.raised[RED, :] = 1
    pos.state.raised[RED, KING] = 0
    pos.give(RED, "GOLD", "TROOPS", "TITLE", "CASTLE", "DUEL", "BISHOP", "PALACE", "ATTR8")
    raise_noble(pos.state, pos.data, pos.context, RED, pos.box("GB_CAP.upper"), KING)
    assert pos.state.large_owner[RED] == 16 and pos.state.cards[RED, COUNT] == 0
