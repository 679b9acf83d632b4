"""Majority ties that decide something (courtiers columns ``majority_tie`` and
``majority_tie_decided``): a tie for most markers matters on a gold side (§4.3.1: nobody gets
the free gift), on a first-place side (§4.3.2) and on Louis XIV's courtier (§4.3.4 case D: no
crown), but not on a threshold side (§4.3.3), where everyone with enough markers is served."""
from .rulebook import ANNE, DAUPHIN, GREEN, MONTESPAN, RED, TURENNE, YELLOW, evaluate, put, seats_in


def test_threshold_side_tie_decides_nothing(fresh_state, setup, greedy):
    """Turenne side A (threshold 3): two players tied on 3 both receive the gift."""
    state = fresh_state(4)
    put(state, TURENNE, red=3, green=3)
    row = evaluate(state, setup, TURENNE, greedy)
    assert row["majority_tie"] == 1 and row["majority_tie_decided"] == 0
    assert seats_in(row["free_mask"]) == {RED, GREEN}


def test_gold_side_tie_decides_the_gift(fresh_state, setup, greedy, rich):
    """Anne side A (gold): a tie on top leaves the free gift to nobody."""
    state = fresh_state(4)
    rich(state, [0, 0, 0, 0])
    put(state, ANNE, yellow=2, red=2)
    row = evaluate(state, setup, ANNE, greedy)
    assert row["majority_tie"] == 1 and row["majority_tie_decided"] == 1
    assert row["free_mask"] == 0


def test_first_place_side_tie_decides_the_gift(fresh_state, setup, greedy):
    """Montespan side A (first place): a tie on top leaves the gift to nobody."""
    state = fresh_state(4)
    put(state, MONTESPAN, yellow=1, green=1)
    row = evaluate(state, setup, MONTESPAN, greedy)
    assert row["majority_tie_decided"] == 1 and row["free_mask"] == 0


def test_tie_on_louis_courtier_decides_the_crown(fresh_state, setup, greedy):
    """§4.3.4 case D: tied top holders each get the gift, but nobody takes Louis XIV's crown."""
    state = fresh_state(4, louis=DAUPHIN)
    put(state, DAUPHIN, yellow=2, red=2)
    row = evaluate(state, setup, DAUPHIN, greedy)
    assert row["majority_tie"] == 1 and row["majority_tie_decided"] == 1
    assert row["crown_seat"] == -1 and seats_in(row["free_mask"]) == {YELLOW, RED}


def test_no_tie_is_no_decided_tie(fresh_state, setup, greedy):
    state = fresh_state(4)
    put(state, MONTESPAN, yellow=2, green=1)
    row = evaluate(state, setup, MONTESPAN, greedy)
    assert row["majority_tie"] == 0 and row["majority_tie_decided"] == 0
