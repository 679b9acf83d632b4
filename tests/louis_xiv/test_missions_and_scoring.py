"""Phase 4 — Missions (§4.5 and its worked example, the token cap) and the end of the game
(§7: conversions and the worked example, coat majorities, score, winner and tiebreaks)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.louis_xiv import constants as C
from sim.louis_xiv.components import draw_intrigue_card, list_card_payments
from sim.louis_xiv.decisions import OPTION_CAPACITY, OPTION_CARD, OPTION_PAY_1, OPTION_PAY_2, OPTION_WIDTH
from sim.louis_xiv.missions import list_mission_options, play_mission_card, token_cap
from sim.louis_xiv.scoring import coat_majorities, convert_to_coats, end_of_game, find_winners
from sim.louis_xiv.state import (COATS_FROM_CONVERSION, COATS_FROM_MAJORITY, COATS_FROM_TOKEN_CAP, INTRIGUE_COUNT,
                                 provisional_score)
from strategies.louis_xiv.parameters import DECK_DARK, GREEDY, default_parameters

from .rulebook import GREEN, MONTESPAN, RED, YELLOW, tile

S, H, R, D, CROWN = C.SCEPTER, C.HELMET, C.RING, C.DOCUMENT, C.CROWN


def card_named(setup, ability, cost):
    """Index of the mission card with this ability and printed cost (ANY_TOKEN for "?")."""
    for card in range(len(setup.data.mission_ability)):
        if C.ABILITY_NAMES[setup.data.mission_ability[card]] == ability and \
                tuple(setup.data.mission_cost[card]) == cost:
            return card
    raise AssertionError(f"no {ability} card costing {cost}")


def give_mission_card(state, setup, player, wanted):
    """Swap ``wanted`` into the player's hand for his hand card of the same colour (the swapped-out
    card takes ``wanted``'s place in its deck or in another hand), so all 40 cards stay accounted for."""
    colour = setup.data.mission_colour[wanted]
    mine = [card for card in np.nonzero(state.mission_hand[player])[0] if setup.data.mission_colour[card] == colour][0]
    if mine == wanted:
        return
    for other in range(C.MAX_PLAYERS):
        if state.mission_hand[other, wanted]:
            state.mission_hand[other, wanted], state.mission_hand[other, mine] = 0, 1
            break
    else:
        deck = state.mission_deck[colour]
        positions = [(state.mission_deck_head[colour] + i) % deck.shape[0] for i in range(state.mission_deck_count[colour])]
        position = [p for p in positions if deck[p] == wanted][0]
        deck[position] = mine
    state.mission_hand[player, mine], state.mission_hand[player, wanted] = 0, 1


def put_on_top_of_deck(state, setup, card):
    colour = setup.data.mission_colour[card]
    deck = state.mission_deck[colour]
    head = state.mission_deck_head[colour]
    positions = [(head + i) % deck.shape[0] for i in range(state.mission_deck_count[colour])]
    position = [p for p in positions if deck[p] == card][0]
    deck[position], deck[head] = deck[head], deck[position]


def hand_tokens(state, player, **counts):
    kinds = {"crown": CROWN, "scepter": S, "helmet": H, "ring": R, "document": D}
    for name, count in counts.items():
        state.token_pile[kinds[name]] -= count
        state.tokens[player, kinds[name]] += count


def options_of(state, setup, player):
    options = np.zeros((OPTION_CAPACITY, OPTION_WIDTH), dtype=np.int64)
    n_options = list_mission_options(state, setup.data, player, options)
    return options[:n_options]


def payments(options, card):
    return {tuple(sorted((int(o[OPTION_PAY_1]), int(o[OPTION_PAY_2])))) for o in options if o[OPTION_CARD] == card}


# ---------------------------------------------------------------- §4.5 worked example (Jenő)

def test_mission_example_jeno_pays_scepter_ring_draws_dark_then_pays_crown_and_scepter(fresh_state, setup):
    """Jenő holds scepter, ring, crown, scepter and two mission cards. He pays scepter + ring for
    his left card, draws from the dark-blue deck hoping for a 2-scepter card (payable with
    scepter + crown) but gets a 2-helmet card; he then plays his right card (helmet + "?") paying
    the crown for the helmet and the scepter for the "?", and draws again. No tokens are left."""
    state = fresh_state(4)
    jeno = YELLOW
    left = card_named(setup, "B-INCOME", (S, R))
    right = card_named(setup, "LB-MARKER", (H, C.ANY_TOKEN))
    two_helmets = card_named(setup, "DB-GOLD3", (H, H))
    two_scepters = card_named(setup, "DB-MARKERS3", (S, S))
    give_mission_card(state, setup, jeno, left)
    give_mission_card(state, setup, jeno, right)
    put_on_top_of_deck(state, setup, two_helmets)
    hand_tokens(state, jeno, scepter=2, ring=1, crown=1)
    params = default_parameters()
    params[DECK_DARK] = 10.0  # Jenő draws from the dark-blue deck

    options = options_of(state, setup, jeno)
    assert (S, R) in payments(options, left)
    pay_left = [o for o in options if o[OPTION_CARD] == left and {o[OPTION_PAY_1], o[OPTION_PAY_2]} == {S, R}][0]
    play_mission_card(state, setup.data, jeno, pay_left, GREEDY, params)
    assert state.mission_played[jeno, left] == 1
    assert state.mission_hand[jeno, two_helmets] == 1           # he drew the 2-helmet card
    assert list(state.tokens[jeno]) == [1, 1, 0, 0, 0]           # crown + scepter left

    # the hoped-for 2-scepter card would have been payable with scepter + crown ...
    state.mission_hand[jeno, two_scepters] += 1
    assert payments(options_of(state, setup, jeno), two_scepters) == {(CROWN, S)}
    state.mission_hand[jeno, two_scepters] -= 1
    # ... the 2-helmet card is not; the right card (helmet + ?) is: crown for the helmet, scepter for "?"
    options = options_of(state, setup, jeno)
    assert payments(options, two_helmets) == set()
    assert len(options) == 1 and options[0][OPTION_CARD] == right
    assert (options[0][OPTION_PAY_1], options[0][OPTION_PAY_2]) == (CROWN, S)
    play_mission_card(state, setup.data, jeno, options[0], GREEDY, params)

    assert state.tokens[jeno].sum() == 0 and len(options_of(state, setup, jeno)) == 0
    assert state.mission_played[jeno].sum() == 2 and state.mission_hand[jeno].sum() == 2
    assert list(state.token_pile) == [10, 6, 6, 6, 6]            # tokens went back to their piles


def test_crown_replaces_any_token_and_pays_question_mark(fresh_state, setup):
    state = fresh_state(4)
    two_rings = card_named(setup, "DB-BRIBE-1", (R, R))
    state.mission_hand[YELLOW] = 0
    state.mission_hand[YELLOW, two_rings] = 1
    hand_tokens(state, YELLOW, crown=2)
    assert payments(options_of(state, setup, YELLOW), two_rings) == {(CROWN, CROWN)}


@settings(max_examples=300, deadline=None)
@given(held=st.lists(st.integers(0, 3), min_size=C.N_TOKENS, max_size=C.N_TOKENS))
def test_ways_to_pay_a_card_are_every_pair_of_held_tokens_that_pays_each_multiset_once(setup, held):
    """§4.5 step 1 as written: a token pays a cost it names, a crown pays anything, "?" takes any
    token; two tokens of one kind need two held; (a, b) and (b, a) are one way, the first found."""
    data = setup.data
    tokens = np.array(held, dtype=np.int64)
    payments = np.zeros((C.N_TOKENS * C.N_TOKENS, 2), dtype=np.int64)
    for card in range(len(data.mission_cost)):
        cost_1, cost_2 = data.mission_cost[card]
        expected = []
        for pay_1 in range(C.N_TOKENS):
            for pay_2 in range(C.N_TOKENS):
                pays = all(cost == C.ANY_TOKEN or token in (cost, C.CROWN)
                           for token, cost in ((pay_1, cost_1), (pay_2, cost_2)))
                enough = tokens[pay_1] >= 1 and tokens[pay_2] >= (2 if pay_1 == pay_2 else 1)
                if pays and enough and (pay_2, pay_1) not in expected:
                    expected.append((pay_1, pay_2))
        count = list_card_payments(tokens, data, card, payments)
        assert [tuple(row) for row in payments[:count].tolist()] == expected


# ---------------------------------------------------------------- §4.5 step 5 token cap

def test_token_cap_keeps_one_token_and_converts_the_rest_to_coats(fresh_state, setup):
    state = fresh_state(4)
    hand_tokens(state, RED, crown=1, scepter=2, ring=1)
    token_cap(state, setup.data, setup.rules, RED, GREEDY, default_parameters())
    assert state.tokens[RED].sum() == 1 and state.tokens[RED, CROWN] == 1   # greedy keeps the crown
    assert state.coats[RED].sum() == 3 and state.stats[RED, COATS_FROM_TOKEN_CAP] == 3
    assert list(state.token_pile) == [9, 6, 6, 6, 6]
    assert state.coat_pile.sum() == 57


def test_token_cap_leaves_a_single_token_alone(fresh_state, setup):
    state = fresh_state(4)
    hand_tokens(state, RED, helmet=1)
    token_cap(state, setup.data, setup.rules, RED, GREEDY, default_parameters())
    assert state.tokens[RED, H] == 1 and state.coats.sum() == 0


# ---------------------------------------------------------------- §7 end of game

def test_end_conversion_example_marko_gets_7_coats(fresh_state, setup):
    """Márk converts 1 influence card -> 1 coat, 2 intrigue cards -> 2, 8 gold -> 2, 2 own markers
    on tile 5 -> 2: 7 coats in all (mission cards in hand and markers in supplies give nothing)."""
    state = fresh_state(4, round_number=4)
    marko = GREEN
    state.influence_hand[marko, 7] = 1
    draw_intrigue_card(state, marko)
    draw_intrigue_card(state, marko)
    state.gold[marko] = 8
    state.general_supply[marko] -= 2
    state.markers[tile(MONTESPAN), marko] = 2
    assert state.mission_hand[marko].sum() == 2
    convert_to_coats(state, setup.data, setup.rules, marko)
    assert state.coats[marko].sum() == 7 and state.stats[marko, COATS_FROM_CONVERSION] == 7
    assert state.gold[marko] == 2
    assert state.influence_hand[marko].sum() == 0 and state.intrigue_hand[marko].sum() == 0
    assert state.game[INTRIGUE_COUNT] == 12                      # intrigue cards back under the deck


def test_end_conversion_remaining_tokens_become_coats(fresh_state, setup):
    state = fresh_state(4, round_number=4)
    hand_tokens(state, RED, crown=1)
    state.gold[RED] = 2
    convert_to_coats(state, setup.data, setup.rules, RED)
    assert state.coats[RED].sum() == 1 and state.tokens[RED].sum() == 0 and state.gold[RED] == 2


def set_coats(state, player, kinds):
    for kind, count in enumerate(kinds):
        state.coat_pile[kind] -= count
        state.coats[player, kind] += count


@pytest.mark.parametrize("seed", range(8))
def test_coat_majorities_ties_all_get_one_kind_nobody_owns_gives_none(fresh_state, setup, seed):
    """§7.2 / Q16: for each kind every player with the most coats of it takes one more; a kind
    nobody owns gives no bonus; bonus coats do not change the majorities being evaluated."""
    state = fresh_state(3, seed=seed, round_number=4)
    set_coats(state, YELLOW, [3, 0, 0, 1, 0, 0])
    set_coats(state, RED, [3, 0, 0, 1, 0, 0])
    set_coats(state, GREEN, [1, 2, 0, 0, 0, 0])
    coat_majorities(state, setup.rules)
    # kind 1: yellow + red tied; kind 2: green; kind 4: yellow + red tied; kinds 3, 5, 6: nobody
    assert [int(state.coats[seat].sum()) for seat in (YELLOW, RED, GREEN)] == [4 + 2, 4 + 2, 3 + 1]
    assert [int(state.stats[seat, COATS_FROM_MAJORITY]) for seat in (YELLOW, RED, GREEN)] == [2, 2, 1]
    assert state.coats.sum() + state.coat_pile.sum() == 60


def test_score_is_coats_plus_five_per_completed_mission(fresh_state, setup):
    state = fresh_state(2, round_number=4)
    set_coats(state, YELLOW, [2, 1, 0, 0, 0, 0])
    state.mission_played[YELLOW, 3] = 1
    state.mission_played[YELLOW, 25] = 1
    assert provisional_score(state, setup.data, YELLOW) == 3 + 10


def test_winner_tie_on_points_broken_by_own_supply(fresh_state, setup):
    state = fresh_state(3, round_number=4)
    state.own_supply[:3] = [5, 7, 9]
    scores = np.array([20, 20, 18, 0], dtype=np.int64)
    mask, by_tiebreak = find_winners(state, setup.rules, scores)
    assert mask == 1 << RED and by_tiebreak


def test_winner_still_tied_after_own_supply_is_a_shared_win(fresh_state, setup):
    state = fresh_state(3, round_number=4)
    state.own_supply[:3] = [7, 7, 9]
    scores = np.array([20, 20, 18, 0], dtype=np.int64)
    mask, by_tiebreak = find_winners(state, setup.rules, scores)
    assert mask == (1 << YELLOW) | (1 << RED) and not by_tiebreak


def test_winner_with_most_points_wins_regardless_of_own_supply(fresh_state, setup):
    state = fresh_state(3, round_number=4)
    state.own_supply[:3] = [0, 7, 9]
    mask, by_tiebreak = find_winners(state, setup.rules, np.array([21, 20, 18, 0], dtype=np.int64))
    assert mask == 1 << YELLOW and not by_tiebreak


def test_end_of_game_scores_after_conversions_and_majorities(fresh_state, setup):
    state = fresh_state(2, round_number=4)
    state.gold[:2] = [9, 0]
    scores = np.zeros(4, dtype=np.int64)
    mask, _ = end_of_game(state, setup.data, setup.rules, scores)
    # yellow: 3 coats from 9 gold, then one majority coat per kind among them (red has none)
    majority = int(state.stats[YELLOW, COATS_FROM_MAJORITY])
    assert state.stats[YELLOW, COATS_FROM_CONVERSION] == 3 and 1 <= majority <= 3
    assert scores[YELLOW] == state.coats[YELLOW].sum() == 3 + majority
    assert scores[RED] == 0 and mask == 1 << YELLOW
