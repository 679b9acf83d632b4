"""Rule questions with a switch (rules §7.1): default and alternative behaviour."""
import numpy as np

from sim.core.random_streams import seed_streams
from sim.heads_of_state import events as ev
from sim.heads_of_state.betrayal import (CARD_MIXED, betrayal_plays, list_betrayal_plays,
                                         refill_at_end)
from sim.heads_of_state.decks import draw_betrayal_card
from sim.heads_of_state.data import R_RANDOM_START_PLAYER
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.nobles import list_payments, list_raises
from sim.heads_of_state.refill_plan import plan_with_target
from sim.heads_of_state.scoring import take_large_token
from sim.heads_of_state.state import ARCHDUKE, ASSASSIN, DUKE, EARL, OPT_1B, OPT_2, S_BDECK_N
from sim.heads_of_state.tables import (B_BOX, B_BOX_REFILLED, B_CAPITAL, B_CARD_A, B_CARD_B,
                                       B_CARD_TYPE, B_CARDS_SPENT, B_SUCCESS, CARD_TYPE_NAMES)

RED, BLUE = 0, 1


def test_q14_courtesan_for_a_held_attribute(position):
    for strict, expected in ((False, 4), (True, 1)):
        pos = position(3, rule_overrides={"courtesan_only_for_missing": strict})
        pos.give(RED, "TITLE", "TROOPS", "CASTLE", "COURTESAN")
        assert list_payments(pos.state, pos.data, pos.context, RED, EARL) == expected


def test_q17_large_token_by_raises_or_by_cards(position):
    for by_cards, expected in ((False, 16), (True, 0)):
        pos = position(3, rule_overrides={"large_token_counts_noble_cards": by_cards})
        pos.state.raised[RED, :] = 1
        pos.state.cards[RED, :] = 1
        pos.state.cards[RED, DUKE] = 0          # the 11th duke: raised but no card (Q17)
        take_large_token(pos.state, pos.data, pos.context, RED)
        assert pos.state.large_owner[RED] == expected


def test_q36_gb_capital_box_may_accept_archduke(position):
    for ranks, archduke_ok in ((["king"], False), (["archduke", "king"], True)):
        pos = position(3, rule_overrides={"gb_capital_box_ranks": ranks})
        pos.give(RED, "GOLD", "TROOPS", "DUEL", "BISHOP", "PALACE", "ATTR8")
        n = list_raises(pos.state, pos.data, pos.context, RED)
        assert ((pos.box("GB_CAP.upper"), ARCHDUKE) in [m[:2] for m in pos.moves(n)]) == archduke_ok


def test_q26_betrayal_reshuffle_timing(position):
    for mode, left_after in (("when_deck_empties", 5), ("when_draw_needed", 0)):
        pos = position(3, rule_overrides={"betrayal_reshuffle": mode})
        pos.state.bdeck[0] = 0
        pos.state.scal[S_BDECK_N] = 1
        pos.state.bdiscard[0] = 5
        assert draw_betrayal_card(pos.state, pos.context) == 0
        assert pos.state.scal[S_BDECK_N] == left_after
        assert draw_betrayal_card(pos.state, pos.context) == 0     # both modes can draw again
        assert pos.state.bdiscard.sum() == 0


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
        "betrayal_reshuffle", "option2_refill", "option2_take_order", "mix_assassin_and_country",
        "random_start_player", "first_turn_take_only", "revolution_take_lost",
        "option1b_take_from_set_aside", "dead_tiles_return_at_round_end", "influence_hexagon_tiebreak",
        "winner_tiebreak"}
    # every switch's default is its 0 reading but §3 step 11's: the start player is drawn (1)
    assert setup.rules[R_RANDOM_START_PLAYER] == 1.0
    assert np.all(np.delete(setup.rules, R_RANDOM_START_PLAYER) == 0.0)


# --- Q8 option2_refill: deferred (§4.4 step 3) --------------------------------------------------
DEFERRED = {"option2_refill": "deferred"}


def q8_position(position, rule_overrides=None, bots=("greedy",)):
    """RED has killed an earl (FR_P3.upper) and a count (FR_P3.lower) this turn, both boxes still
    empty; his hand pays one earl (TITLE, TROOPS, CASTLE) and one baron (GOLD), never a count."""
    pos = position(3, bots=bots, rule_overrides=rule_overrides)
    for name in ("FR_P3.upper", "FR_P3.lower"):
        pos.state.vacated[pos.box(name)] = 1
        pos.state.targeted[pos.box(name)] = 1
    pos.give(RED, "TITLE", "TROOPS", "CASTLE", "GOLD")
    pos.place(BLUE, "DE_P1.lower", "earl")
    pos.place(BLUE, "DE_P3.lower", "baron")
    pos.place(BLUE, "DE_P2.upper", "margrave")
    pos.give_betrayal(RED, "assassin")
    return pos


def test_q8_deferred_refills_need_a_feasible_plan_before_each_play(position):
    # interleaved (default), once a box was left empty: the target's box alone must be refillable
    pos = q8_position(position)
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 1)
    assert {m[0] for m in pos.moves(n) if m[0] >= 0} == {pos.box("DE_P1.lower"), pos.box("DE_P3.lower")}
    # deferred: (earl + count vacated) + target must leave at most one box empty with one hand.
    # The second earl would need a second TITLE/TROOPS/CASTLE set; the margrave is not payable.
    pos = q8_position(position, DEFERRED)
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    assert {m[0] for m in pos.moves(n) if m[0] >= 0} == {pos.box("DE_P3.lower")}
    assert plan_with_target(pos.state, pos.data, pos.context, RED, pos.box("DE_P3.lower"))
    assert not plan_with_target(pos.state, pos.data, pos.context, RED, pos.box("DE_P1.lower"))


def test_q8_deferred_refills_are_made_after_the_last_play(position):
    """§4.4 step 3 deferred: every raise comes after the last play, at most one vacated box stays
    empty, and each successful play's row says whether its box was refilled at the end."""
    for seed in range(40):
        for bots in (("random",), ("greedy",)):
            pos = position(3, bots=bots, rule_overrides=DEFERRED)
            pos.context = ENGINE.make_ctx(pos.setup, 3, [ENGINE.resolve_bot(bots[0])] * 3,
                                     betrayal_capacity=64, trace_capacity=4096)
            pos.context.counters[ev.K_TRACE_ON] = 1
            seed_streams(pos.state.streams, seed, 0)
            pos.give(RED, "TITLE", "TROOPS", "CASTLE", "GOLD")      # pays one earl + one baron
            pos.place(BLUE, "DE_P1.lower", "earl")
            pos.place(BLUE, "FR_P1.lower", "earl")
            pos.place(BLUE, "DE_P3.lower", "baron")
            pos.place(BLUE, "FR_P3.lower", "count")
            pos.place(BLUE, "ES_P1.upper", "duke")
            pos.give_betrayal(RED, "DE", "FR/DE", "FR", "FR/ES", "assassin")
            betrayal_plays(pos.state, pos.data, pos.context, RED)
            events = pos.context.trace[:pos.context.counters[ev.K_TRACE_N]].reshape(-1, 4)[:, 0].tolist()
            if ev.EV_BPLAY in events and ev.EV_RAISE in events:
                last_play = len(events) - 1 - events[::-1].index(ev.EV_BPLAY)
                assert events.index(ev.EV_RAISE) > last_play
            vacated = np.flatnonzero(pos.state.vacated)
            assert sum(pos.state.box_owner[b] < 0 for b in vacated) <= 1
            for row in pos.context.betrayals[:pos.context.counters[ev.K_BETRAYAL_N]]:
                if row[B_SUCCESS]:
                    assert row[B_BOX_REFILLED] == (pos.state.box_owner[row[B_BOX]] == RED)


def test_q8_deferred_end_refills_keep_at_most_one_box_empty(position):
    """With earl, count and baron boxes vacated, the end refills must fill two: earl and baron
    (both payable together); the random bot may never refill only one of them and stop."""
    for seed in range(30):
        for bots in (("random",), ("greedy",)):
            pos = q8_position(position, DEFERRED, bots)
            seed_streams(pos.state.streams, seed, 0)
            pos.state.box_owner[pos.box("DE_P3.lower")] = -1      # killed this turn
            pos.state.box_rank[pos.box("DE_P3.lower")] = -1
            pos.state.vacated[pos.box("DE_P3.lower")] = 1
            refill_at_end(pos.state, pos.data, pos.context, RED, 0)
            assert pos.state.box_owner[pos.box("FR_P3.upper")] == RED
            assert pos.state.box_owner[pos.box("DE_P3.lower")] == RED
            assert pos.state.box_owner[pos.box("FR_P3.lower")] == -1


# --- Q9 mix_assassin_and_country (§4.4 step 2 table, step 3) ------------------------------------
def test_q9_capital_attacked_with_assassin_and_country_card(position):
    """Default: a capital needs 2 assassins or 2 cards usable for its country. Switch: 1 assassin
    + 1 card usable there is also legal; the play is an assassination attempt (bag draw, §4.4 step
    3) and its betrayals row has card_type 3 (mixed)."""
    for mix, expected in ((False, set()), (True, {("assassin", "FR"), ("assassin", "FR/ES")})):
        pos = position(3, rule_overrides={"mix_assassin_and_country": mix})
        pos.place(BLUE, "FR_CAP.upper", "king")
        pos.give_betrayal(RED, "assassin", "FR", "FR/ES", "GB")     # GB is not usable in France
        n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
        names = pos.desc["betrayal_types"]
        mixed = {(names[a], names[b]) for box, a, b, _ in pos.moves(n)
                 if box >= 0 and a == ASSASSIN and b > ASSASSIN}
        assert mixed == expected
        # provinces still take exactly one card (Q10), mixed or not
        pos.place(BLUE, "FR_P1.upper", "duke")
        n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
        assert all(b == -1 for box, a, b, _ in pos.moves(n) if box == pos.box("FR_P1.upper"))
    # the mixed play resolves by the bag draw: over many attempts about 3/4 succeed
    successes = 0
    attempts = 400
    for seed in range(attempts):
        pos = position(3, rule_overrides={"mix_assassin_and_country": True})     # greedy attacks
        seed_streams(pos.state.streams, seed, 0)
        pos.place(BLUE, "FR_CAP.upper", "king")
        pos.give_betrayal(RED, "assassin", "FR")
        betrayal_plays(pos.state, pos.data, pos.context, RED)
        assert pos.context.counters[ev.K_BETRAYAL_N] == 1
        row = pos.context.betrayals[0]
        assert row[B_CARD_TYPE] == CARD_MIXED == CARD_TYPE_NAMES.index("mixed")
        assert (row[B_CARD_A], row[B_CARD_B], row[B_CARDS_SPENT], row[B_CAPITAL]) == (
            ASSASSIN, pos.btype("FR"), 2, 1)
        successes += row[B_SUCCESS]
    assert 0.68 < successes / attempts < 0.82, successes
