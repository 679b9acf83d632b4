"""Phase 3 — Evaluation: every worked example of rules §4.3.1-4.3.4, reproduced with the
example's colours (yellow, red, green, blue = seats 0-3, yellow starts). Greedy bots with
plenty of gold accept every bribe they are offered, so "may bribe" shows up as "did bribe"."""
from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.state import LOUIS_COURTIER

from .rulebook import (ANNE, BLUE, DAUPHIN, GREEN, RED, SIDE_A, SIDE_B, TURENNE, YELLOW, evaluate, put,
                       seats_in, supplies, tile)

CASE = {name: index for index, name in enumerate(R.LOUIS_CASE_NAMES)}


# ---------------------------------------------------------------- §4.3.1 GOLD mode (no Louis)

def test_gold_side_single_top_holder_gets_gift_free_others_may_bribe(fresh_state, setup, greedy, rich):
    """Helmet tile: yellow alone on top gets a helmet free, his markers go to the general supply;
    red and green may each buy one for 3 gold; blue may not (no marker there); red's and green's
    markers go to their own supplies; the tile flips."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=3, red=2, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy)

    assert row["mode"] == C.GOLD_MODE and row["value"] == 3
    assert seats_in(row["free_mask"]) == {YELLOW}
    assert seats_in(row["bribe_mask"]) == {RED, GREEN}
    assert list(state.tokens[:4, C.HELMET]) == [1, 1, 1, 0]
    assert list(state.gold[:4]) == [10, 7, 7, 10]
    assert supplies(state, YELLOW) == (11 - 3, 5 + 3)
    assert supplies(state, RED) == (11, 5)
    assert supplies(state, GREEN) == (10, 6)
    assert state.markers[tile(DAUPHIN)].sum() == 0
    assert state.side[tile(DAUPHIN)] == SIDE_B and row["flipped"] == 1


def test_gold_side_tie_for_most_nobody_free_all_present_may_bribe_no_flip(fresh_state, setup, greedy, rich):
    """After a tie for most nobody gets a free helmet; red, yellow and green may each buy one for 3;
    all markers go to own supplies; the tile does not flip."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=2, red=2, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy)

    assert row["free_mask"] == 0 and row["top_seat"] == -1 and row["majority_tie"] == 1
    assert seats_in(row["bribe_mask"]) == {YELLOW, RED, GREEN}
    assert list(state.tokens[:4, C.HELMET]) == [1, 1, 1, 0]
    assert list(state.gold[:4]) == [7, 7, 7, 10]
    assert [supplies(state, seat) for seat in (YELLOW, RED, GREEN)] == [(11, 5), (11, 5), (10, 6)]
    assert state.side[tile(DAUPHIN)] == SIDE_A and row["flipped"] == 0


def test_gold_side_player_without_enough_gold_cannot_bribe(fresh_state, setup, greedy, rich):
    """A bribe needs the full cost (§4.3.1, inferred): red with 2 gold gets nothing."""
    state = fresh_state(4)
    rich(state, [10, 2, 0, 10])
    put(state, DAUPHIN, yellow=3, red=2, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert row["bribe_mask"] == 0
    assert list(state.tokens[:4, C.HELMET]) == [1, 0, 0, 0]
    assert list(state.gold[:4]) == [10, 2, 0, 10]


def test_gold_side_empty_tile_gives_nothing_and_does_not_flip(fresh_state, setup, greedy, rich):
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert row["empty"] == 1 and row["free_mask"] == 0 and row["bribe_mask"] == 0
    assert state.tokens.sum() == 0 and state.side[tile(DAUPHIN)] == SIDE_A


# ---------------------------------------------------------------- §4.3.2 FIRST mode (no Louis)

def test_first_side_single_top_holder_gets_gift_others_get_nothing(fresh_state, setup, greedy, rich):
    """Scepter tile on its first-place side: yellow alone on top gets a scepter, red and green get
    nothing (and cannot bribe); yellow's markers -> general, the others' -> own; the tile flips."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    state.side[tile(ANNE)] = SIDE_B
    put(state, ANNE, yellow=3, red=2, green=1)
    row = evaluate(state, setup, ANNE, greedy)

    assert row["mode"] == C.FIRST_MODE
    assert list(state.tokens[:4, C.SCEPTER]) == [1, 0, 0, 0]
    assert row["bribe_mask"] == 0 and list(state.gold[:4]) == [10, 10, 10, 10]
    assert supplies(state, YELLOW) == (8, 8)
    assert supplies(state, RED) == (11, 5) and supplies(state, GREEN) == (10, 6)
    assert state.side[tile(ANNE)] == SIDE_A and row["flipped"] == 1  # flips back to side A


def test_first_side_tie_for_most_nobody_gets_scepter_markers_home_no_flip(fresh_state, setup, greedy, rich):
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    state.side[tile(ANNE)] = SIDE_B
    put(state, ANNE, yellow=2, red=2)
    row = evaluate(state, setup, ANNE, greedy)

    assert state.tokens.sum() == 0 and row["free_mask"] == 0
    assert supplies(state, YELLOW) == (11, 5) and supplies(state, RED) == (11, 5)
    assert state.side[tile(ANNE)] == SIDE_B and row["flipped"] == 0


# ---------------------------------------------------------------- §4.3.3 THRESHOLD mode

def test_threshold_turenne_every_player_reaching_threshold_gets_two_coats(fresh_state, setup, greedy, rich):
    """Turenne (2 coats, threshold 3): yellow and red reach the threshold and each get 2 coats,
    green does not and gets nothing; majority is irrelevant; all markers go back to own supplies;
    the tile flips."""
    state = fresh_state(4)
    rich(state, [10, 10, 10, 10])
    put(state, TURENNE, yellow=3, red=4, green=2)
    row = evaluate(state, setup, TURENNE, greedy)

    assert row["mode"] == C.THRESHOLD_MODE and row["value"] == 3
    assert seats_in(row["free_mask"]) == {YELLOW, RED}
    assert [int(state.coats[seat].sum()) for seat in range(4)] == [2, 2, 0, 0]
    assert row["to_general_mask"] == 0
    assert [supplies(state, seat) for seat in (YELLOW, RED, GREEN)] == [(11, 5), (11, 5), (10, 6)]
    assert row["bribe_mask"] == 0 and list(state.gold[:4]) == [10, 10, 10, 10]
    assert state.side[tile(TURENNE)] == SIDE_B and row["flipped"] == 1


def test_threshold_flips_only_if_someone_received_the_gift(fresh_state, setup, greedy):
    state = fresh_state(4)
    put(state, TURENNE, yellow=2, red=1)
    row = evaluate(state, setup, TURENNE, greedy)
    assert row["free_mask"] == 0 and state.coats.sum() == 0
    assert state.side[tile(TURENNE)] == SIDE_A and row["flipped"] == 0
    assert supplies(state, YELLOW) == (11, 5)


# ---------------------------------------------------------------- §4.3.4 Louis XIV

def test_louis_gold_side_case_a_crown_to_first_gift_to_second_others_may_bribe(fresh_state, setup, greedy, rich):
    """Helmet + crown to yellow, a free helmet to red (second), green may bribe for 3."""
    state = fresh_state(4, louis=DAUPHIN)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=3, red=2, green=1)
    row = evaluate(state, setup, DAUPHIN, greedy)

    assert row["louis"] == 1 and row["louis_case"] == CASE["A"]
    assert row["crown_seat"] == YELLOW and row["second_seat"] == RED
    assert list(state.tokens[:4, C.HELMET]) == [1, 1, 1, 0]
    assert list(state.tokens[:4, C.CROWN]) == [1, 0, 0, 0]
    assert seats_in(row["bribe_mask"]) == {GREEN}
    assert list(state.gold[:4]) == [10, 10, 7, 10]
    assert supplies(state, YELLOW) == (8, 8)
    assert supplies(state, RED) == (11, 5) and supplies(state, GREEN) == (10, 6)
    assert state.side[tile(DAUPHIN)] == SIDE_B and row["flipped"] == 1
    assert state.game[LOUIS_COURTIER] == -1  # Louis XIV is back by the bank


def test_louis_first_side_case_a_scepter_and_crown_to_first_scepter_to_second_third_nothing(
        fresh_state, setup, greedy, rich):
    state = fresh_state(4, louis=ANNE)
    rich(state, [10, 10, 10, 10])
    state.side[tile(ANNE)] = SIDE_B
    put(state, ANNE, yellow=3, red=2, green=1)
    row = evaluate(state, setup, ANNE, greedy)

    assert row["louis_case"] == CASE["A"]
    assert list(state.tokens[:4, C.SCEPTER]) == [1, 1, 0, 0]
    assert list(state.tokens[:4, C.CROWN]) == [1, 0, 0, 0]
    assert row["bribe_mask"] == 0 and list(state.gold[:4]) == [10, 10, 10, 10]
    assert supplies(state, YELLOW) == (8, 8) and supplies(state, GREEN) == (10, 6)
    assert state.side[tile(ANNE)] == SIDE_A


def test_louis_case_d_tie_for_most_each_tied_gets_gift_no_crown_others_may_bribe(fresh_state, setup, greedy, rich):
    """Tie yellow/red under Louis: both get a helmet, no crown, their markers go to the general
    supply; green and blue may bribe for 3 and their markers go to own supplies; the tile flips."""
    state = fresh_state(4, louis=DAUPHIN)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=2, red=2, green=1, blue=1)
    row = evaluate(state, setup, DAUPHIN, greedy)

    assert row["louis_case"] == CASE["D"] and row["crown_seat"] == -1
    assert seats_in(row["free_mask"]) == {YELLOW, RED}
    assert state.tokens[:, C.CROWN].sum() == 0
    assert list(state.tokens[:4, C.HELMET]) == [1, 1, 1, 1]
    assert seats_in(row["bribe_mask"]) == {GREEN, BLUE}
    assert list(state.gold[:4]) == [10, 10, 7, 7]
    assert supplies(state, YELLOW) == (9, 7) and supplies(state, RED) == (9, 7)
    assert supplies(state, GREEN) == (10, 6) and supplies(state, BLUE) == (9, 7)
    assert state.side[tile(DAUPHIN)] == SIDE_B


def test_louis_case_b_two_tied_second_get_nothing(fresh_state, setup, greedy, rich):
    """Yellow alone on top, red and green tied for second: yellow gets scepter + crown, red and
    green nothing (first-place side)."""
    state = fresh_state(4, louis=ANNE)
    rich(state, [10, 10, 10, 10])
    state.side[tile(ANNE)] = SIDE_B
    put(state, ANNE, yellow=3, red=2, green=2)
    row = evaluate(state, setup, ANNE, greedy)

    assert row["louis_case"] == CASE["B"] and row["second_seat"] == -1
    assert list(state.tokens[:4, C.SCEPTER]) == [1, 0, 0, 0]
    assert list(state.tokens[:4, C.CROWN]) == [1, 0, 0, 0]
    assert row["bribe_mask"] == 0
    assert supplies(state, YELLOW) == (8, 8) and supplies(state, RED) == (11, 5) and supplies(state, GREEN) == (10, 6)
    assert row["flipped"] == 1


def test_louis_case_b_gold_side_tied_seconds_may_bribe(fresh_state, setup, greedy, rich):
    """Q3: under Louis on a gold side there is no second-place gift after a tie for second; all
    non-top players with markers, the tied seconds included, may bribe."""
    state = fresh_state(4, louis=DAUPHIN)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=3, red=2, green=2, blue=1)
    row = evaluate(state, setup, DAUPHIN, greedy)

    assert row["louis_case"] == CASE["B"]
    assert seats_in(row["free_mask"]) == {YELLOW}
    assert seats_in(row["bribe_mask"]) == {RED, GREEN, BLUE}
    assert list(state.tokens[:4, C.HELMET]) == [1, 1, 1, 1]
    assert list(state.gold[:4]) == [10, 7, 7, 7]


def test_louis_case_c_single_player_gets_gift_and_crown(fresh_state, setup, greedy):
    state = fresh_state(4, louis=ANNE)
    put(state, ANNE, red=1)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["louis_case"] == CASE["C"] and row["crown_seat"] == RED
    assert state.tokens[RED, C.SCEPTER] == 1 and state.tokens[RED, C.CROWN] == 1
    assert supplies(state, RED) == (10, 6) and row["flipped"] == 1


def test_louis_once_first_three_tied_owner_takes_helmet_and_crown_others_nothing(fresh_state, setup, greedy, rich):
    """DB-ONCEFIRST example: Louis on tile 4 (first-place side), three players tied at 3; the card
    owner becomes the sole top holder -> helmet + crown, his 3 markers to the general supply; the
    other two get nothing (they are tied for second), their markers to own supplies; the tile flips."""
    state = fresh_state(4, louis=DAUPHIN)
    rich(state, [10, 10, 10, 10])
    state.side[tile(DAUPHIN)] = SIDE_B
    state.ability_count[GREEN, C.DB_ONCEFIRST] = 1
    state.uses_left[GREEN, C.DB_ONCEFIRST] = 1
    put(state, DAUPHIN, yellow=3, red=3, green=3)
    row = evaluate(state, setup, DAUPHIN, greedy)

    assert row["once_first_seat"] == GREEN and row["top_seat"] == GREEN
    assert row["louis_case"] == CASE["B"]
    assert list(state.tokens[:4, C.HELMET]) == [0, 0, 1, 0]
    assert list(state.tokens[:4, C.CROWN]) == [0, 0, 1, 0]
    assert supplies(state, GREEN) == (10 - 3, 6 + 3)
    assert supplies(state, YELLOW) == (11, 5) and supplies(state, RED) == (11, 5)
    assert state.uses_left[GREEN, C.DB_ONCEFIRST] == 0
    assert state.side[tile(DAUPHIN)] == SIDE_A and row["flipped"] == 1


def test_once_first_with_exactly_one_other_tied_under_louis_other_gets_second_place_gift(
        fresh_state, setup, greedy):
    """Q4: with exactly one other tied player, he is the second place and gets the gift."""
    state = fresh_state(4, louis=ANNE)
    state.side[tile(ANNE)] = SIDE_B
    state.ability_count[RED, C.DB_ONCEFIRST] = 1
    state.uses_left[RED, C.DB_ONCEFIRST] = 1
    put(state, ANNE, yellow=2, red=2, green=1)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["louis_case"] == CASE["A"] and row["crown_seat"] == RED and row["second_seat"] == YELLOW
    assert list(state.tokens[:4, C.SCEPTER]) == [1, 1, 0, 0]
    assert list(state.tokens[:4, C.CROWN]) == [0, 1, 0, 0]


def test_once_first_without_louis_wins_a_tie_on_a_first_side_and_the_tile_flips(fresh_state, setup, greedy):
    state = fresh_state(4)
    state.side[tile(ANNE)] = SIDE_B
    state.ability_count[YELLOW, C.DB_ONCEFIRST] = 1
    state.uses_left[YELLOW, C.DB_ONCEFIRST] = 1
    put(state, ANNE, yellow=2, red=2)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["once_first_seat"] == YELLOW
    assert list(state.tokens[:4, C.SCEPTER]) == [1, 0, 0, 0]
    assert supplies(state, YELLOW) == (9, 7) and supplies(state, RED) == (11, 5)
    assert row["flipped"] == 1
