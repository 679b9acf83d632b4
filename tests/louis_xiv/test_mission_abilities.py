"""Mission card abilities (rules §6), one test per ability and rule: the eight resources-step
abilities each alone (§4.1 step 2), LB-SKIP and B-CARDSWAP (§4.2 c, d), DB-ENDPLACE and the
return and reshuffle of the influence cards (§4.2 steps 3-4), LB-EXTRA, LB-TOKENSWAP and
LB-MISSIONSWAP (§4.5, Q18), empty decks (Q15). The order of several resources abilities is a
bot decision and not tested here."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.components import draw_influence_card, draw_intrigue_card
from sim.louis_xiv.decisions import CARD_SWAP, MOVE_CARD, MOVE_KIND, SKIP, new_option_buffer
from sim.louis_xiv.influence import apply_move, end_of_phase_placement, return_cards_and_reshuffle
from sim.louis_xiv.missions import draw_from_chosen_deck, missions_phase, offer_token_swaps, play_mission_card
from sim.louis_xiv.resources import resources_phase
from sim.louis_xiv.state import INFLUENCE_POSITION, INTRIGUE_COUNT, ROUND

from .rulebook import BLUE, GREEN, RED, YELLOW, supplies, tile
from .test_influence import hold_only, turn_options

ABILITY = {name: index for index, name in enumerate(C.ABILITY_NAMES)}


def card_with(setup, ability_name, skip=0):
    """The index of a mission card with this ability (the ``skip``-th such card)."""
    cards = np.nonzero(setup.data.mission_ability == ABILITY[ability_name])[0]
    return int(cards[skip])


def has_played(state, setup, player, ability_name, copies=1):
    """The player has these mission cards face up in front of him (§6: only these count)."""
    for copy in range(copies):
        card = card_with(setup, ability_name, copy)
        state.mission_hand[player, card] = 0
        state.mission_played[player, card] = 1
        state.ability_count[player, ABILITY[ability_name]] += 1
        state.uses_left[player, ABILITY[ability_name]] += 1


def hold_missions(state, player, *cards):
    state.mission_hand[player] = 0
    for card in cards:
        state.mission_hand[player, card] = 1


def resources_step(state, setup, bots):
    """Phase 1 (§4.1) of the state's round; returns the gold every player got from the gold card."""
    families, params = bots
    card = state.gold_sequence[state.game[ROUND] - 1]
    resources_phase(state, setup.data, setup.rules, families, params)
    return int(setup.data.gold_card_gold[card])


# ---------------------------------------------------------------- §4.1 step 2, each ability alone

def test_resources_abilities_only_from_played_cards_never_from_hand(fresh_state, setup, greedy):
    """§4.1 step 2: only cards already played (face up) count, never cards in hand."""
    state = fresh_state(4, round_number=2)
    hold_missions(state, YELLOW, card_with(setup, "LB-GOLD"), card_with(setup, "DB-GOLD3"))
    amount = resources_step(state, setup, greedy)
    assert state.gold[YELLOW] == 5 + amount == state.gold[RED]


def test_lb_marker_moves_one_own_marker_general_to_own(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "LB-MARKER")
    resources_step(state, setup, greedy)
    assert supplies(state, YELLOW) == (12, 4)
    assert supplies(state, RED) == (11, 5)


def test_lb_marker_has_no_effect_with_none_in_general_supply(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "LB-MARKER")
    state.own_supply[YELLOW], state.general_supply[YELLOW] = 16, 0
    resources_step(state, setup, greedy)
    assert supplies(state, YELLOW) == (16, 0)


def test_lb_gold_gives_one_gold_each_copy_works(fresh_state, setup, greedy):
    """§6: several copies of the same ability all work."""
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "LB-GOLD", copies=2)
    has_played(state, setup, RED, "LB-GOLD")
    amount = resources_step(state, setup, greedy)
    assert [int(gold) for gold in state.gold] == [5 + amount + 2, 5 + amount + 1, 5 + amount, 5 + amount]


def test_b_income_two_gold_or_gold_and_marker_or_two_markers(fresh_state, setup, random_bots):
    """B-INCOME: 2 gold, or 1 gold + 1 marker general -> own, or 2 markers general -> own;
    over several games every one of the three is chosen and nothing else happens."""
    outcomes = set()
    for seed in range(16):
        state = fresh_state(4, seed=seed, round_number=2)
        has_played(state, setup, YELLOW, "B-INCOME")
        amount = resources_step(state, setup, random_bots)
        gold = int(state.gold[YELLOW]) - 5 - amount
        markers = int(state.own_supply[YELLOW]) - 11
        assert supplies(state, YELLOW) == (11 + markers, 5 - markers)
        outcomes.add((gold, markers))
    assert outcomes == {(2, 0), (1, 1), (0, 2)}


def test_b_coat_takes_one_coat_face_down(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "B-COAT")
    resources_step(state, setup, greedy)
    assert state.coats[YELLOW].sum() == 1 and state.coats[RED].sum() == 0
    assert state.coat_pile.sum() == 59


@pytest.mark.parametrize("general, moved", [(5, 3), (2, 2), (0, 0)])
def test_db_markers3_moves_up_to_three_markers_general_to_own(fresh_state, setup, greedy, general, moved):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "DB-MARKERS3")
    state.own_supply[YELLOW], state.general_supply[YELLOW] = 16 - general, general
    resources_step(state, setup, greedy)
    assert supplies(state, YELLOW) == (16 - general + moved, general - moved)


def test_db_gold3_gives_three_gold(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "DB-GOLD3")
    amount = resources_step(state, setup, greedy)
    assert state.gold[YELLOW] == 5 + amount + 3 and state.gold[RED] == 5 + amount


def test_db_intrigue_takes_the_top_intrigue_card(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "DB-INTRIGUE")
    top = int(state.intrigue_deck[0])
    resources_step(state, setup, greedy)
    assert state.intrigue_hand[YELLOW, top] == 1 and state.intrigue_hand.sum() == 1
    assert state.game[INTRIGUE_COUNT] == 11


def test_db_cardformarker_one_own_marker_to_general_buys_the_top_influence_card(fresh_state, setup, greedy):
    """DB-CARDFORMARKER: 1 own marker own -> general supply for the top influence card, drawn
    before the hands of 5 (an extra influence turn this round)."""
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "DB-CARDFORMARKER")
    resources_step(state, setup, greedy)
    assert supplies(state, YELLOW) == (10, 6)
    assert list(state.influence_hand[:4].sum(axis=1)) == [6, 5, 5, 5]


def test_db_cardformarker_needs_an_own_marker(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "DB-CARDFORMARKER")
    state.own_supply[YELLOW], state.general_supply[YELLOW] = 0, 16
    resources_step(state, setup, greedy)
    assert supplies(state, YELLOW) == (0, 16) and state.influence_hand[YELLOW].sum() == 5


# ---------------------------------------------------------------- §4.2 c, d: LB-SKIP, B-CARDSWAP

def test_lb_skip_costs_gold_and_passes_the_turn(fresh_state, setup, greedy):
    """LB-SKIP (§4.2 c): pay 2 gold instead of playing an influence card; hand unchanged."""
    families, params = greedy
    state = fresh_state(4)
    has_played(state, setup, YELLOW, "LB-SKIP")
    hold_only(state, YELLOW, 3, 7)
    skips = [move for move in turn_options(state, setup, YELLOW) if move[MOVE_KIND] == SKIP]
    assert len(skips) == 1
    apply_move(state, setup.data, YELLOW, skips[0], families[YELLOW], params[YELLOW])
    assert state.gold[YELLOW] == 3 and state.influence_hand[YELLOW].sum() == 2
    assert state.markers.sum() == 0 and supplies(state, YELLOW) == (11, 5)


def test_lb_skip_once_per_phase_per_card_and_only_with_two_gold(fresh_state, setup, greedy):
    families, params = greedy
    state = fresh_state(4)
    has_played(state, setup, YELLOW, "LB-SKIP")
    hold_only(state, YELLOW, 3, 7)
    skip = [move for move in turn_options(state, setup, YELLOW) if move[MOVE_KIND] == SKIP][0]
    apply_move(state, setup.data, YELLOW, skip, families[YELLOW], params[YELLOW])
    assert not any(move[MOVE_KIND] == SKIP for move in turn_options(state, setup, YELLOW))
    poor = fresh_state(4)
    has_played(poor, setup, YELLOW, "LB-SKIP")
    hold_only(poor, YELLOW, 3, 7)
    poor.gold[YELLOW] = 1
    assert not any(move[MOVE_KIND] == SKIP for move in turn_options(poor, setup, YELLOW))


def test_b_cardswap_discards_a_card_without_effect_and_draws_the_top_card(fresh_state, setup, greedy):
    """B-CARDSWAP (§4.2 d): one influence card to the centre without effect, the top card of the
    influence deck into the hand; no markers placed or retrieved; once per phase."""
    families, params = greedy
    state = fresh_state(4)
    has_played(state, setup, YELLOW, "B-CARDSWAP")
    hold_only(state, YELLOW, 3, 7)
    swaps = [move for move in turn_options(state, setup, YELLOW) if move[MOVE_KIND] == CARD_SWAP]
    assert sorted(int(move[MOVE_CARD]) for move in swaps) == [tile(3), tile(7)]   # one per card kind held
    top = int(state.influence_deck[state.game[INFLUENCE_POSITION]])
    swap = [move for move in swaps if move[MOVE_CARD] == tile(3)][0]
    apply_move(state, setup.data, YELLOW, swap, families[YELLOW], params[YELLOW])
    expected = np.zeros(C.N_INFLUENCE_KINDS, dtype=np.int64)
    expected[tile(7)] += 1
    expected[top] += 1
    assert list(state.influence_hand[YELLOW]) == list(expected)
    assert state.markers.sum() == 0 and supplies(state, YELLOW) == (11, 5)
    assert not any(move[MOVE_KIND] == CARD_SWAP for move in turn_options(state, setup, YELLOW))


# ---------------------------------------------------------------- §4.2 steps 3-4

def test_db_endplace_puts_one_marker_from_general_supply_on_any_courtier(fresh_state, setup, greedy):
    families, params = greedy
    state = fresh_state(4)
    has_played(state, setup, YELLOW, "DB-ENDPLACE")
    end_of_phase_placement(state, setup.data, families, params)
    assert state.markers[:, YELLOW].sum() == 1 and supplies(state, YELLOW) == (11, 4)
    assert state.markers[:, RED].sum() == 0


def test_db_endplace_uses_the_own_supply_when_none_in_general(fresh_state, setup, greedy):
    """§4.2 step 3, with §6's general remark: own supply if none in the general supply."""
    families, params = greedy
    state = fresh_state(4)
    has_played(state, setup, YELLOW, "DB-ENDPLACE")
    state.own_supply[YELLOW], state.general_supply[YELLOW] = 16, 0
    end_of_phase_placement(state, setup.data, families, params)
    assert state.markers[:, YELLOW].sum() == 1 and supplies(state, YELLOW) == (15, 0)


def test_last_card_goes_back_and_all_30_influence_cards_are_reshuffled(fresh_state, setup):
    """§4.2 step 4: each player's last card goes back (never kept); all 30 cards form a new
    deck, drawn from its top again."""
    state = fresh_state(4)
    for player in range(4):
        for _ in range(5):
            draw_influence_card(state, player)
    state.influence_hand[:, :] = 0
    for player in range(4):
        draw_influence_card(state, player)          # the last card of each player
    before = state.influence_deck.copy()
    return_cards_and_reshuffle(state, setup.data)
    assert state.influence_hand.sum() == 0
    assert state.game[INFLUENCE_POSITION] == 0
    assert np.bincount(state.influence_deck, minlength=13).tolist() == [2] * 12 + [6]
    assert not np.array_equal(state.influence_deck, before)   # shuffled anew


# ---------------------------------------------------------------- §4.5: LB-EXTRA, LB-TOKENSWAP, LB-MISSIONSWAP

def test_lb_extra_draws_two_missions_instead_of_one_hand_grows_by_one(fresh_state, setup, greedy):
    families, params = greedy
    state = fresh_state(4, round_number=2)
    extra = card_with(setup, "LB-EXTRA")                # scepter + any
    other = card_with(setup, "B-COAT")
    hold_missions(state, YELLOW, extra, other)
    state.tokens[YELLOW, C.SCEPTER] = 2
    option = np.array([extra, C.SCEPTER, C.SCEPTER], dtype=np.int64)
    play_mission_card(state, setup.data, YELLOW, option, families[YELLOW], params[YELLOW])
    assert state.mission_played[YELLOW, extra] == 1
    assert state.mission_hand[YELLOW].sum() == 3           # the other card + 2 drawn
    assert state.tokens[YELLOW].sum() == 0


def test_other_missions_draw_one_card(fresh_state, setup, greedy):
    families, params = greedy
    state = fresh_state(4, round_number=2)
    gold = card_with(setup, "LB-GOLD")                  # scepter + any
    hold_missions(state, YELLOW, gold, card_with(setup, "B-COAT"))
    state.tokens[YELLOW, C.SCEPTER] = 2
    play_mission_card(state, setup.data, YELLOW, np.array([gold, C.SCEPTER, C.SCEPTER], dtype=np.int64),
                      families[YELLOW], params[YELLOW])
    assert state.mission_hand[YELLOW].sum() == 2


def test_lb_tokenswap_pays_two_gold_returns_a_token_takes_a_crown_once_per_phase(fresh_state, setup, greedy):
    """LB-TOKENSWAP (§6): pay 2 gold, return 1 token, take 1 crown; once per mission phase per
    card. (The greedy bot swaps when that makes a card in hand payable: here ring + "?".)"""
    families, params = greedy
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "LB-TOKENSWAP")
    hold_missions(state, YELLOW, card_with(setup, "LB-MARKER", 2))   # ring + any
    state.tokens[YELLOW, C.SCEPTER] = 1
    state.tokens[YELLOW, C.HELMET] = 1
    piles = state.token_pile.copy()
    offer_token_swaps(state, setup.data, setup.rules, YELLOW, families[YELLOW], params[YELLOW])
    assert state.gold[YELLOW] == 3
    assert state.tokens[YELLOW, C.CROWN] == 1 and state.tokens[YELLOW].sum() == 2
    assert state.token_pile[C.CROWN] == piles[C.CROWN] - 1 and state.token_pile.sum() == piles.sum()
    state.tokens[YELLOW, C.CROWN] = 0
    state.tokens[YELLOW, C.SCEPTER] = 1
    offer_token_swaps(state, setup.data, setup.rules, YELLOW, families[YELLOW], params[YELLOW])
    assert state.gold[YELLOW] == 3 and state.tokens[YELLOW, C.CROWN] == 0      # used up this phase


def test_lb_tokenswap_usable_right_after_it_is_played(fresh_state, setup, greedy):
    families, params = greedy
    state = fresh_state(4, round_number=2)
    swap = card_with(setup, "LB-TOKENSWAP")             # scepter + any
    hold_missions(state, YELLOW, swap)
    state.tokens[YELLOW, C.SCEPTER] = 2
    state.uses_left[YELLOW, C.LB_TOKENSWAP] = 0
    play_mission_card(state, setup.data, YELLOW, np.array([swap, C.SCEPTER, C.SCEPTER], dtype=np.int64),
                      families[YELLOW], params[YELLOW])
    assert state.uses_left[YELLOW, C.LB_TOKENSWAP] == 1


@pytest.mark.parametrize("swap_at_phase_end", [False, True])
def test_lb_missionswap_card_goes_under_its_deck_swapped_in_card_not_playable_that_round(
        fresh_state, setup, greedy, rules_with, swap_at_phase_end):
    """LB-MISSIONSWAP (§6, Q18): a hand card goes under its deck, as many are drawn; the card
    swapped in cannot be played before the next round, even when its tokens are at hand."""
    families, params = greedy
    rules = rules_with(mission_swap_at_phase_end=swap_at_phase_end)
    state = fresh_state(4, round_number=2, rules=rules)
    has_played(state, setup, YELLOW, "LB-MISSIONSWAP")
    hard = card_with(setup, "DB-GOLD3")                 # helmet + helmet: the greedy bot swaps it away
    wanted = card_with(setup, "DB-MARKERS3")            # scepter + scepter: payable with the tokens held
    hold_missions(state, YELLOW, hard)
    state.tokens[YELLOW, C.SCEPTER] = 2
    state.mission_deck_count[C.LIGHT] = state.mission_deck_count[C.BLUE] = 0
    state.mission_deck[C.DARK, 0] = wanted
    state.mission_deck_head[C.DARK], state.mission_deck_count[C.DARK] = 0, 1
    for player in (RED, GREEN, BLUE):
        hold_missions(state, player)
    missions_phase(state, setup.data, rules, families, params, new_option_buffer())
    assert state.mission_hand[YELLOW, wanted] == 1 and state.mission_played[YELLOW, wanted] == 0
    assert state.mission_hand[YELLOW, hard] == 0
    assert state.mission_deck_count[C.DARK] == 1 and state.mission_deck[C.DARK, 1] == hard   # under its deck


# ---------------------------------------------------------------- Q15: empty decks

@pytest.mark.parametrize("family", ["greedy", "random_bots"])
def test_empty_mission_deck_chosen_means_drawing_from_a_non_empty_one(fresh_state, setup, request, family):
    families, params = request.getfixturevalue(family)
    for seed in range(4):
        state = fresh_state(4, seed=seed, round_number=2)
        state.mission_deck_count[C.LIGHT] = state.mission_deck_count[C.DARK] = 0
        hand = int(state.mission_hand[YELLOW].sum())
        blue_left = int(state.mission_deck_count[C.BLUE])
        draw_from_chosen_deck(state, setup.data, YELLOW, families[YELLOW], params[YELLOW])
        assert state.mission_hand[YELLOW].sum() == hand + 1 and state.mission_deck_count[C.BLUE] == blue_left - 1


def test_all_mission_decks_empty_no_draw(fresh_state, setup, greedy):
    families, params = greedy
    state = fresh_state(4, round_number=2)
    state.mission_deck_count[:] = 0
    hand = state.mission_hand[YELLOW].copy()
    draw_from_chosen_deck(state, setup.data, YELLOW, families[YELLOW], params[YELLOW])
    assert list(state.mission_hand[YELLOW]) == list(hand)


def test_empty_influence_and_intrigue_decks_give_nothing(fresh_state):
    state = fresh_state(4)
    state.game[INFLUENCE_POSITION] = state.influence_deck.shape[0]
    state.game[INTRIGUE_COUNT] = 0
    assert draw_influence_card(state, YELLOW) == -1 and draw_intrigue_card(state, YELLOW) == -1
    assert state.influence_hand.sum() == 0 and state.intrigue_hand.sum() == 0


def test_db_intrigue_with_an_empty_intrigue_deck_draws_nothing(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=2)
    has_played(state, setup, YELLOW, "DB-INTRIGUE")
    state.game[INTRIGUE_COUNT] = 0
    resources_step(state, setup, greedy)
    assert state.intrigue_hand.sum() == 0 and state.game[INTRIGUE_COUNT] == 0
