"""Phase 3 — Evaluation: one test per rule (§4.3 general gift rules, §4.3.5 flipping, §4.4,
§5 Condé / Maintenon, §8 / Q19 the two-player imaginary player, Q2, Q11, Q13, Q25)."""
import numpy as np

from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.evaluation import bribe_cost, evaluation_phase
from sim.louis_xiv.influence import imaginary_player_placement
from sim.louis_xiv.state import LOUIS_COURTIER, ROUND

from .rulebook import (ANNE, CONDE, DAUPHIN, GREEN, MAINTENON, MONTESPAN, PHILIPPE, RED, SIDE_A, SIDE_B,
                       TURENNE, YELLOW, evaluate, put, seats_in, supplies, tile)

CASE = {name: index for index, name in enumerate(R.LOUIS_CASE_NAMES)}


# ---------------------------------------------------------------- §4.3.5 flipping

def test_round_4_no_flip_but_markers_still_moved(fresh_state, setup, greedy):
    """Round 4: no flipping, but the top holder's markers still go to the general supply and the
    others' to their own supplies (the own supply breaks final ties)."""
    state = fresh_state(4, round_number=4)
    put(state, ANNE, yellow=3, red=1)
    row = evaluate(state, setup, ANNE, greedy)
    assert state.tokens[YELLOW, C.SCEPTER] == 1
    assert supplies(state, YELLOW) == (8, 8) and supplies(state, RED) == (11, 5)
    assert state.side[tile(ANNE)] == SIDE_A and row["flipped"] == 0


def test_round_4_no_flip_under_louis_nor_on_threshold(fresh_state, setup, greedy):
    state = fresh_state(4, round_number=4, louis=DAUPHIN)
    put(state, DAUPHIN, red=2)
    put(state, TURENNE, green=3)
    louis_row = evaluate(state, setup, DAUPHIN, greedy)
    threshold_row = evaluate(state, setup, TURENNE, greedy)
    assert louis_row["louis_case"] == CASE["C"] and state.tokens[RED, C.CROWN] == 1
    assert supplies(state, RED) == (9, 7)  # Louis's rule still applies in round 4
    assert threshold_row["free_mask"] != 0
    assert state.side[tile(DAUPHIN)] == SIDE_A and state.side[tile(TURENNE)] == SIDE_A
    assert louis_row["flipped"] == 0 and threshold_row["flipped"] == 0


def test_tie_for_most_no_flip(fresh_state, setup, greedy):
    state = fresh_state(4)
    put(state, MONTESPAN, red=2, green=2, blue=1)
    row = evaluate(state, setup, MONTESPAN, greedy)
    assert row["majority_tie"] == 1 and row["flipped"] == 0 and state.tokens.sum() == 0
    assert state.side[tile(MONTESPAN)] == SIDE_A


def test_louis_tile_flips_even_when_empty_by_default(fresh_state, setup, greedy):
    """Q2 default: Louis's tile flips after its evaluation even if nobody had markers there."""
    state = fresh_state(4, louis=PHILIPPE)
    row = evaluate(state, setup, PHILIPPE, greedy)
    assert row["louis_case"] == CASE["E"] and row["empty"] == 1
    assert row["flipped"] == 1 and state.side[tile(PHILIPPE)] == SIDE_B
    assert state.tokens.sum() == 0


def test_louis_empty_tile_does_not_flip_with_switch_off(fresh_state, setup, greedy, rules_with):
    rules = rules_with(louis_empty_tile_flips=False)
    state = fresh_state(4, louis=PHILIPPE, rules=rules)
    row = evaluate(state, setup, PHILIPPE, greedy, rules=rules)
    assert row["louis_case"] == CASE["E"] and row["flipped"] == 0
    assert state.side[tile(PHILIPPE)] == SIDE_A
    # with markers on it the tile still flips under the switch
    state.game[ROUND] = 2
    state.game[LOUIS_COURTIER] = tile(PHILIPPE)
    put(state, PHILIPPE, red=1, green=1)
    row = evaluate(state, setup, PHILIPPE, greedy, rules=rules)
    assert row["louis_case"] == CASE["D"] and row["flipped"] == 1


# ---------------------------------------------------------------- gift rules, bribes

def test_second_place_under_louis_cannot_bribe_a_second_gift(fresh_state, setup, greedy, rich):
    """A player receives a courtier's gift at most once per round (Q25): the second place under
    Louis already got the gift, so he is not offered the bribe; neither is the top holder."""
    state = fresh_state(4, louis=ANNE)
    rich(state, [10, 10, 10, 10])
    put(state, ANNE, yellow=3, red=2, green=1)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["second_seat"] == RED
    assert seats_in(row["bribe_mask"]) == {GREEN}
    assert list(state.tokens[:4, C.SCEPTER]) == [1, 1, 1, 0]
    assert state.gold[RED] == 10 and state.gold[YELLOW] == 10


def test_single_top_holder_on_gold_side_cannot_bribe_a_second_gift(fresh_state, setup, greedy, rich):
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    put(state, ANNE, yellow=2)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["bribe_mask"] == 0 and state.tokens[YELLOW, C.SCEPTER] == 1 and state.gold[YELLOW] == 10


def test_db_bribe_1_discount_bribe_costs_one_less(fresh_state, setup, greedy, rich):
    """DB-BRIBE-1: every bribe costs 1 gold less (Q13: never below 0)."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    state.ability_count[RED, C.DB_BRIBE_1] = 1
    put(state, DAUPHIN, yellow=3, red=1, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert seats_in(row["bribe_mask"]) == {RED, GREEN}
    assert state.gold[RED] == 10 - 2 and state.gold[GREEN] == 10 - 3
    assert row["bribe_gold"] == 5
    assert bribe_cost(state, setup.data, setup.rules, RED, 3) == 2
    assert bribe_cost(state, setup.data, setup.rules, RED, 0) == 0
    assert bribe_cost(state, setup.data, setup.rules, GREEN, 3) == 3


def test_db_bribe_1_lets_a_player_with_cost_minus_one_gold_bribe(fresh_state, setup, greedy, rich):
    state = fresh_state(4)
    rich(state, [10, 2, 2, 10])
    state.ability_count[RED, C.DB_BRIBE_1] = 1
    put(state, DAUPHIN, yellow=3, red=1, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert seats_in(row["bribe_mask"]) == {RED}
    assert list(state.gold[:4]) == [10, 0, 2, 10]


def test_bribe_needs_a_marker_on_the_tile(fresh_state, setup, greedy, rich):
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=1)
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert row["bribe_mask"] == 0 and list(state.gold[:4]) == [10, 10, 10, 10]


# ---------------------------------------------------------------- §4.4, §5: gifts that add markers

def test_maintenon_markers_on_tile_5_wait_for_next_rounds_evaluation(fresh_state, setup, greedy):
    """Maintenon (8): 2 own markers from the general supply on tile 5, then 1 general -> own.
    Tile 5 was already evaluated this round, so they count in next round's evaluation of 5."""
    state = fresh_state(4)
    put(state, MAINTENON, yellow=1)
    row = evaluate(state, setup, MAINTENON, greedy)
    assert seats_in(row["free_mask"]) == {YELLOW}
    assert state.markers[tile(MONTESPAN), YELLOW] == 2
    # own 11 -1 placed +1 retrieved; general 5 -2 on tile 5 -1 retrieved +1 from tile 8 (top holder)
    assert supplies(state, YELLOW) == (11, 3)
    state.game[ROUND] = 2
    row = evaluate(state, setup, MONTESPAN, greedy)
    assert row["markers_seat_0"] == 2 and row["top_seat"] == YELLOW
    assert state.tokens[YELLOW, C.CROWN] == 1


def test_conde_marker_on_an_already_evaluated_courtier_waits_for_next_round(fresh_state, setup, random_bots):
    """Q11 / §5 Condé: the gift's marker goes on any tile; on tiles 1-6 (tile 6 included, being
    evaluated) it stays until next round's evaluation of that tile; on 7-12 it counts this round.
    The random bot picks the target, so a few seeds cover both cases."""
    targets_seen = set()
    for seed in range(80):
        state = fresh_state(4, seed=seed)
        put(state, CONDE, yellow=2)  # side A: threshold 2
        rows = np.zeros((C.N_COURTIERS, len(R.COURTIER_COLUMNS)), dtype=np.int32)
        families, params = random_bots
        evaluation_phase(state, setup.data, setup.rules, families, params, rows, 0)
        conde = dict(zip(R.COURTIER_COLUMNS, rows[tile(CONDE)]))
        assert seats_in(conde["free_mask"]) == {YELLOW}
        assert state.coats[YELLOW].sum() >= 1                # Condé's coat (a later gift may add more)
        on_board = np.nonzero(state.markers[:, YELLOW])[0]
        if len(on_board) == 1:
            target = int(on_board[0]) + 1
            assert target <= CONDE, "a Condé marker on 7-12 must be evaluated this round"
            assert state.markers[tile(target), YELLOW] == 1
            # it counts in next round's evaluation of that tile
            state.game[ROUND] = 2
            rows[:] = 0
            evaluation_phase(state, setup.data, setup.rules, families, params, rows, 0)
            assert rows[tile(target), R.C_MARKERS + YELLOW] == 1
        else:
            assert len(on_board) == 0
            evaluated = [courtier + 1 for courtier in range(CONDE, C.N_COURTIERS)
                         if rows[courtier, R.C_MARKERS + YELLOW] == 1]
            assert len(evaluated) == 1
            target = evaluated[0]
        targets_seen.add(target)
        if CONDE in targets_seen and any(t < CONDE for t in targets_seen) and any(t > CONDE for t in targets_seen):
            break
    assert CONDE in targets_seen
    assert any(t < CONDE for t in targets_seen) and any(t > CONDE for t in targets_seen)


def test_conde_marker_on_conde_itself_stays_during_its_own_evaluation(fresh_state, setup, random_bots):
    """Q11: only markers present when the evaluation began are moved off."""
    for seed in range(200):
        state = fresh_state(4, seed=seed)
        put(state, CONDE, yellow=2)
        evaluate(state, setup, CONDE, random_bots)
        if state.markers[tile(CONDE), YELLOW] == 1:
            assert supplies(state, YELLOW) == (11, 4)  # 2 markers home, 1 from general on tile 6
            return
    raise AssertionError("no seed made the random bot put the Condé marker on tile 6")


# ---------------------------------------------------------------- §8 / Q19: imaginary player

def test_imaginary_player_sole_top_on_first_side_blocks_gift_and_tile_flips(fresh_state, setup, greedy):
    """Two players: the imaginary player's markers count for the majority, it never receives a
    gift; as sole top holder the tile still flips (Q19); its markers go back to its own pool."""
    state = fresh_state(2)
    put(state, MONTESPAN, imaginary=3, yellow=2, red=1)
    row = evaluate(state, setup, MONTESPAN, greedy)
    assert row["top_seat"] == R.TOP_SEAT_IMAGINARY and row["markers_imaginary"] == 3
    assert row["free_mask"] == 0 and state.tokens.sum() == 0
    assert row["flipped"] == 1
    assert supplies(state, YELLOW) == (11, 5) and supplies(state, RED) == (10, 6)
    assert state.own_supply[C.IMAGINARY] == 8 and state.general_supply[C.IMAGINARY] == 0


def test_imaginary_player_sole_top_on_gold_side_real_players_present_may_bribe(fresh_state, setup, greedy, rich):
    state = fresh_state(2)
    rich(state, [10, 10])
    put(state, ANNE, imaginary=2, yellow=1, red=1)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["top_seat"] == R.TOP_SEAT_IMAGINARY and row["free_mask"] == 0
    assert seats_in(row["bribe_mask"]) == {YELLOW, RED}
    assert list(state.tokens[:2, C.SCEPTER]) == [1, 1] and list(state.gold[:2]) == [7, 7]
    assert row["flipped"] == 1 and state.own_supply[C.IMAGINARY] == 8


def test_imaginary_player_top_under_louis_second_real_player_gets_gift_no_crown(fresh_state, setup, greedy):
    state = fresh_state(2, louis=PHILIPPE)
    put(state, PHILIPPE, imaginary=2, red=1)
    row = evaluate(state, setup, PHILIPPE, greedy)
    assert row["louis_case"] == CASE["A"] and row["crown_seat"] == -1 and row["second_seat"] == RED
    assert state.tokens[RED, C.DOCUMENT] == 1 and state.tokens[:, C.CROWN].sum() == 0
    assert supplies(state, RED) == (10, 6)  # second place: markers to the own supply
    assert state.own_supply[C.IMAGINARY] == 8


def test_imaginary_player_tied_for_most_under_louis_real_tied_player_gets_gift_without_crown(
        fresh_state, setup, greedy):
    state = fresh_state(2, louis=PHILIPPE)
    put(state, PHILIPPE, imaginary=2, yellow=2, red=1)
    row = evaluate(state, setup, PHILIPPE, greedy)
    assert row["louis_case"] == CASE["D"] and seats_in(row["free_mask"]) == {YELLOW}
    assert state.tokens[YELLOW, C.DOCUMENT] == 1 and state.tokens[:, C.CROWN].sum() == 0
    assert supplies(state, YELLOW) == (9, 7)


def test_imaginary_player_never_receives_threshold_gift_and_never_flips_threshold_tile(fresh_state, setup, greedy):
    state = fresh_state(2)
    put(state, TURENNE, imaginary=4, yellow=1)
    row = evaluate(state, setup, TURENNE, greedy)
    assert row["free_mask"] == 0 and state.coats.sum() == 0 and row["flipped"] == 0
    assert state.own_supply[C.IMAGINARY] == 8


def test_imaginary_player_places_all_8_markers_two_on_louis(fresh_state, setup):
    """§8: at the start of every influence phase 2 markers on Louis's tile, then 2 for each of
    3 revealed courtier cards (jokers replaced): 2 + 3 x 2 = 8."""
    for seed in range(20):
        state = fresh_state(2, seed=seed, louis=DAUPHIN)
        imaginary_player_placement(state, setup.data)
        assert state.markers[:, C.IMAGINARY].sum() == 8
        assert state.own_supply[C.IMAGINARY] == 0
        assert state.markers[tile(DAUPHIN), C.IMAGINARY] >= 2
        assert all(count % 2 == 0 for count in state.markers[:, C.IMAGINARY])


def test_once_first_without_louis_on_gold_side_other_tied_players_may_bribe(fresh_state, setup, greedy, rich):
    """Q4: without Louis the other tied players are simply non-top holders: on a gold side they
    may bribe."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    state.ability_count[RED, C.DB_ONCEFIRST] = 1
    state.uses_left[RED, C.DB_ONCEFIRST] = 1
    put(state, DAUPHIN, yellow=2, red=2, green=2)
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert row["top_seat"] == RED and seats_in(row["free_mask"]) == {RED}
    assert seats_in(row["bribe_mask"]) == {YELLOW, GREEN}
    assert list(state.gold[:4]) == [7, 10, 7, 10]
    assert supplies(state, RED) == (9, 7) and row["flipped"] == 1


# ---------------------------------------------------------------- §4.3 step 1: intrigue cards

def give_intrigue_card(state, player, courtier_number):
    """Draw the intrigue card of this courtier from the deck (moved to the top first)."""
    from sim.louis_xiv.components import draw_intrigue_card
    from sim.louis_xiv.state import INTRIGUE_HEAD
    head = state.game[INTRIGUE_HEAD]
    deck = state.intrigue_deck
    position = int(np.nonzero(deck == tile(courtier_number))[0][0])
    deck[position], deck[head] = deck[head], deck[position]
    assert draw_intrigue_card(state, player) == tile(courtier_number)


def test_intrigue_card_adds_one_from_general_or_one_or_two_from_own_before_evaluation(fresh_state, setup, random_bots):
    """The holder of intrigue card k may, before k is evaluated, move 1 marker from his general
    supply or 1-2 from his own supply onto k (no mixing); the card goes under the intrigue deck;
    the added markers count in this evaluation. A kept card stays in hand."""
    from sim.louis_xiv.state import INTRIGUE_COUNT
    seen = set()
    for seed in range(60):
        state = fresh_state(4, seed=seed)
        give_intrigue_card(state, RED, MONTESPAN)
        put(state, MONTESPAN, yellow=2, red=1)
        row = evaluate(state, setup, MONTESPAN, random_bots)
        if row["intrigue_seat"] == RED:
            added = row["intrigue_markers"]
            from_general = row["intrigue_from_general"] == 1
            assert (from_general and added == 1) or (not from_general and added in (1, 2))
            assert row["markers_seat_1"] == 1 + added
            assert state.intrigue_hand.sum() == 0 and state.game[INTRIGUE_COUNT] == 12
            seen.add(("general", added) if from_general else ("own", added))
            # red's markers (1 placed + added) all return to a supply: 16 still accounted for
            assert state.own_supply[RED] + state.general_supply[RED] == 16
            if from_general and row["top_seat"] == -1:   # tie 2-2: red's markers go to the own supply
                assert supplies(state, RED) == (12, 4)
        else:
            assert row["intrigue_seat"] == -1 and row["markers_seat_1"] == 1
            assert state.intrigue_hand[RED, tile(MONTESPAN)] == 1 and state.game[INTRIGUE_COUNT] == 11
            seen.add("kept")
    assert seen == {"kept", ("general", 1), ("own", 1), ("own", 2)}
