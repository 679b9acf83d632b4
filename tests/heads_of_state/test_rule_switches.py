"""Rule questions with a switch (rules §7.1): default and alternative behaviour."""
import numpy as np

from sim.heads_of_state import events as ev
from sim.heads_of_state.decks import draw_betrayal_card
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.nobles import list_payments, list_raises
from sim.heads_of_state.scoring import take_large_token
from sim.heads_of_state.state import ARCHDUKE, DUKE, EARL, OPT_1B, OPT_2, S_BDECK_N

RED = 0


def test_q14_courtesan_for_a_held_attribute(position):
    for strict, expected in ((False, 4), (True, 1)):
        pos = position(3, rule_overrides={"courtesan_only_for_missing": strict})
        pos.give(RED, "TITLE", "TROOPS", "CASTLE", "COURTESAN")
        assert list_payments(pos.st, pos.d, pos.cx, RED, EARL) == expected


def test_q17_large_token_by_raises_or_by_cards(position):
    for by_cards, expected in ((False, 16), (True, 0)):
        pos = position(3, rule_overrides={"large_token_counts_noble_cards": by_cards})
        pos.st.raised[RED, :] = 1
        pos.st.cards[RED, :] = 1
        pos.st.cards[RED, DUKE] = 0          # the 11th duke: raised but no card (Q17)
        take_large_token(pos.st, pos.d, pos.cx, RED)
        assert pos.st.large_owner[RED] == expected


def test_q36_gb_capital_box_may_accept_archduke(position):
    for ranks, archduke_ok in ((["king"], False), (["archduke", "king"], True)):
        pos = position(3, rule_overrides={"gb_capital_box_ranks": ranks})
        pos.give(RED, "GOLD", "TROOPS", "DUEL", "BISHOP", "PALACE", "ATTR8")
        n = list_raises(pos.st, pos.d, pos.cx, RED)
        assert ((pos.box("GB_CAP.upper"), ARCHDUKE) in [m[:2] for m in pos.moves(n)]) == archduke_ok


def test_q26_betrayal_reshuffle_timing(position):
    for mode, left_after in (("when_deck_empties", 5), ("when_draw_needed", 0)):
        pos = position(3, rule_overrides={"betrayal_reshuffle": mode})
        pos.st.bdeck[0] = 0
        pos.st.scal[S_BDECK_N] = 1
        pos.st.bdiscard[0] = 5
        assert draw_betrayal_card(pos.st, pos.cx) == 0
        assert pos.st.scal[S_BDECK_N] == left_after
        assert draw_betrayal_card(pos.st, pos.cx) == 0     # both modes can draw again
        assert pos.st.bdiscard.sum() == 0


def first_turn_refreshes(setup, n_games=12):
    bots = [ENGINE.resolve_bot("random")] * 4
    count = 0
    for game in range(n_games):
        events = ENGINE.trace_events(setup, 4, bots, 5, game)
        turns = events[events[:, 0] == ev.EV_TURN]
        first = turns[turns[:, 3] <= 4]                     # the first turn of every seat
        count += int((first[:, 2] == OPT_1B).sum())
    return count


def test_q3_first_turn_refresh_switch(setup):
    assert first_turn_refreshes(setup) == 0
    assert first_turn_refreshes(ENGINE.load_setup(rule_overrides={"first_turn_refresh": True})) > 0


def character_first_turns(setup, n_games=12):
    bots = [ENGINE.resolve_bot("random")] * 3
    count = 0
    for game in range(n_games):
        events = ENGINE.trace_events(setup, 3, bots, 6, game).tolist()
        for i, e in enumerate(events):
            if e[0] == ev.EV_TURN and e[2] == OPT_2:
                turn = []
                for x in events[i + 1:]:
                    if x[0] in (ev.EV_TURN, ev.EV_GAME_END):
                        break
                    turn.append(x[0])
                takes = [c for c in turn if c in (ev.EV_TAKE_DISPLAY, ev.EV_TAKE_DECK,
                                                   ev.EV_BTAKE_DISPLAY, ev.EV_BTAKE_DECK)]
                betrayal = (ev.EV_BTAKE_DISPLAY, ev.EV_BTAKE_DECK)
                count += len(takes) >= 2 and takes[0] not in betrayal and takes[1] in betrayal
    return count


def test_q7_option2_take_order(setup):
    assert character_first_turns(setup) == 0
    assert character_first_turns(ENGINE.load_setup(rule_overrides={"option2_take_order": "player_choice"})) > 0


def test_setup_description_lists_every_switch(setup):
    assert set(setup.description["rules"]) == {
        "first_turn_refresh", "courtesan_only_for_missing", "large_token_counts_noble_cards",
        "betrayal_reshuffle", "option2_refill", "option2_take_order", "mix_assassin_and_country"}
    assert np.all(setup.rules == 0.0)
