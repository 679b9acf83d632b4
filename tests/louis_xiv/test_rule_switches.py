"""The other readings of the rules file's questions (§10), one test per rule switch (rules.py):
each shows the switch's reading happen where the default reading does something else.
Defaults are covered by the rulebook tests (test_evaluation_*.py, test_missions_and_scoring.py)
and the golden traces, which the switches must leave unchanged."""
import copy

import numpy as np
import pytest

from sim.core.engine import ConfigError
from sim.louis_xiv import constants as C
from sim.louis_xiv import tables as R
from sim.louis_xiv.data import DEFAULT_GAME_FILE, load_game_file, rule_vector, to_kernel_data
from sim.louis_xiv.decisions import MOVE_KIND, MOVE_LENGTH, PLACE_FOUR, new_move_buffer
from sim.louis_xiv.evaluation import bribe_cost, evaluation_phase, place_conde_marker
from sim.louis_xiv.scoring import coat_majorities, find_winners
from sim.louis_xiv.rules import FINAL_TIE, FINAL_TIE_LATER_SEAT
from sim.louis_xiv.state import FIRST_START_SEAT, INTRIGUE_HEAD, LOUIS_COURTIER, ROUND, TRACE_LENGTH, new_state
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.turn_options import list_turn_options
from sim.core.yaml_files import load_yaml_file

from .rulebook import (ANNE, CONDE, DAUPHIN, GREEN, MAINTENON, MONTESPAN, PHILIPPE, RED, SIDE_B, YELLOW, evaluate,
                       put, seats_in, supplies, tile)

CASE = {name: index for index, name in enumerate(R.LOUIS_CASE_NAMES)}


# ---------------------------------------------------------------- Q19 / §8: the imaginary player

def test_q19_imaginary_sole_top_does_not_flip_with_the_switch_off(fresh_state, setup, greedy, rules_with):
    state = fresh_state(2)
    put(state, MONTESPAN, imaginary=3, yellow=2)
    row = evaluate(state, setup, MONTESPAN, greedy, rules_with(imaginary_sole_top_flips=False))
    assert row["top_seat"] == R.TOP_SEAT_IMAGINARY and row["free_mask"] == 0
    assert row["flipped"] == 0 and state.side[tile(MONTESPAN)] == 0


def test_q19_imaginary_player_loses_ties_real_tied_player_is_sole_top(fresh_state, setup, greedy, rules_with):
    """imaginary_player_ties: lose. On a first-place side the tied real player wins the crown and
    the tile flips; under Louis XIV he takes gift and crown, the next real player is second."""
    rules = rules_with(imaginary_player_ties="lose")
    state = fresh_state(2)
    put(state, MONTESPAN, imaginary=2, yellow=2)
    row = evaluate(state, setup, MONTESPAN, greedy, rules)
    assert row["top_seat"] == YELLOW and state.tokens[YELLOW, C.CROWN] == 1 and row["flipped"] == 1
    assert supplies(state, YELLOW) == (9, 7)   # the top holder's markers go to the general supply

    state = fresh_state(2, louis=PHILIPPE)
    put(state, PHILIPPE, imaginary=2, yellow=2, red=1)
    row = evaluate(state, setup, PHILIPPE, greedy, rules)
    assert row["louis_case"] == CASE["A"] and row["crown_seat"] == YELLOW and row["second_seat"] == RED
    assert list(state.tokens[:2, C.DOCUMENT]) == [1, 1] and state.tokens[YELLOW, C.CROWN] == 1


def test_imaginary_player_cannot_take_louis_crown_best_real_player_gets_it(fresh_state, setup, greedy, rules_with):
    """imaginary_player_takes_louis_crown off: the imaginary player alone on top of Louis XIV's
    courtier no longer costs the crown; the real players are ranked among themselves."""
    rules = rules_with(imaginary_player_takes_louis_crown=False)
    state = fresh_state(2, louis=PHILIPPE)
    put(state, PHILIPPE, imaginary=3, red=1)
    row = evaluate(state, setup, PHILIPPE, greedy, rules)
    assert row["louis_case"] == CASE["C"] and row["crown_seat"] == RED
    assert state.tokens[RED, C.DOCUMENT] == 1 and state.tokens[RED, C.CROWN] == 1
    assert supplies(state, RED) == (9, 7) and state.own_supply[C.IMAGINARY] == 8
    # a tie with it is no tie any more: the real player takes the crown
    state = fresh_state(2, louis=PHILIPPE)
    put(state, PHILIPPE, imaginary=2, yellow=2, red=1)
    row = evaluate(state, setup, PHILIPPE, greedy, rules)
    assert row["louis_case"] == CASE["A"] and row["crown_seat"] == YELLOW and row["second_seat"] == RED


# ---------------------------------------------------------------- Q3, Q4: second place under Louis XIV

@pytest.mark.parametrize("reading, free, bribers", [
    ("may_bribe", {YELLOW}, {RED, GREEN}), ("each_gets_gift", {YELLOW, RED, GREEN}, set()),
    ("no_bribe", {YELLOW}, set())])
def test_q3_tied_second_places_on_a_gold_side(fresh_state, setup, greedy, rich, rules_with, reading, free, bribers):
    """tied_second_under_louis. Louis on the helmet courtier (gold side): yellow alone on top, red
    and green tied second. may_bribe (the default): both buy a helmet for 3; each_gets_gift: both
    get one free; no_bribe: neither gets one. Blue has no marker there and never bribes."""
    state = fresh_state(4, louis=DAUPHIN)
    rich(state, [10, 10, 10, 10])
    put(state, DAUPHIN, yellow=3, red=2, green=2)
    row = evaluate(state, setup, DAUPHIN, greedy, rules_with(tied_second_under_louis=reading))
    assert row["louis_case"] == CASE["B"] and row["crown_seat"] == YELLOW and row["second_seat"] == -1
    assert seats_in(row["free_mask"]) == free and seats_in(row["bribe_mask"]) == bribers
    helmets = {seat for seat in range(4) if state.tokens[seat, C.HELMET] == 1}
    assert helmets == free | bribers
    assert supplies(state, RED) == (11, 5) and supplies(state, YELLOW) == (8, 8)


def test_q3_first_side_tied_seconds_get_nothing_whatever_the_reading(fresh_state, setup, greedy, rules_with):
    """The seed's example (first-place side): yellow alone on top, red and green tied second get
    nothing; Q3's switch is about gold sides only."""
    state = fresh_state(4, louis=ANNE)
    state.side[tile(ANNE)] = SIDE_B
    put(state, ANNE, yellow=3, red=2, green=2)
    row = evaluate(state, setup, ANNE, greedy, rules_with(tied_second_under_louis="each_gets_gift"))
    assert seats_in(row["free_mask"]) == {YELLOW} and list(state.tokens[:4, C.SCEPTER]) == [1, 0, 0, 0]


def test_q4_once_first_partner_gets_no_second_place(fresh_state, setup, greedy, rules_with):
    """once_first_partner_is_second off: the one other tied player gets nothing (as the two tied
    players of the seed's example)."""
    state = fresh_state(4, louis=ANNE)
    state.side[tile(ANNE)] = SIDE_B
    state.ability_count[RED, C.DB_ONCEFIRST] = 1
    state.uses_left[RED, C.DB_ONCEFIRST] = 1
    put(state, ANNE, yellow=2, red=2, green=1)
    row = evaluate(state, setup, ANNE, greedy, rules_with(once_first_partner_is_second=False))
    assert row["louis_case"] == CASE["B"] and row["crown_seat"] == RED and row["second_seat"] == -1
    assert list(state.tokens[:4, C.SCEPTER]) == [0, 1, 0, 0]


# ---------------------------------------------------------------- Q5, Q24: intrigue cards

def intrigue_card_on_top(state, courtier_number):
    deck = state.intrigue_deck
    head = state.game[INTRIGUE_HEAD]
    position = int(np.nonzero(deck == tile(courtier_number))[0][0])
    deck[position], deck[head] = deck[head], deck[position]


def test_q5_intrigue_card_needs_a_marker_of_its_holder(fresh_state, setup, greedy, rules_with):
    """The greedy holder of Montespan's intrigue card plays it on the empty courtier (default);
    with intrigue_needs_own_marker he cannot, having no marker there."""
    from sim.louis_xiv.components import draw_intrigue_card
    for rules, played in ((setup.rules, True), (rules_with(intrigue_needs_own_marker=True), False)):
        state = fresh_state(4)
        intrigue_card_on_top(state, MONTESPAN)
        draw_intrigue_card(state, RED)
        row = evaluate(state, setup, MONTESPAN, greedy, rules)
        assert (row["intrigue_seat"] == RED) == played
        assert state.intrigue_hand[RED, tile(MONTESPAN)] == (0 if played else 1)


def test_q24_intrigue_card_gained_in_an_evaluation_waits_for_the_next_one(setup, greedy):
    """A variant gives an intrigue card with Anne's gift (courtier 1): the default lets the card
    drawn (Montespan's) be played later in the same phase; with intrigue_usable_same_phase off
    it waits, and is playable in the next evaluation phase."""
    raw = load_yaml_file(DEFAULT_GAME_FILE, "game")
    courtiers = copy.deepcopy(raw["courtiers"])
    courtiers[0]["gift"]["intrigue_cards"] = 1
    model = load_game_file(overrides={"courtiers": courtiers})
    data = to_kernel_data(model)
    families, params = greedy
    for switch, played in ((True, True), (False, False)):
        rules = rule_vector(model, {"intrigue_usable_same_phase": switch})
        state = new_state(data)
        setup_game(state, data, rules, 4, 0, 0, 0)
        state.game[ROUND] = 1
        state.game[LOUIS_COURTIER] = -1
        intrigue_card_on_top(state, MONTESPAN)
        put(state, ANNE, yellow=2)
        rows = np.zeros((C.N_COURTIERS, len(R.COURTIER_COLUMNS)), dtype=np.int32)
        evaluation_phase(state, data, rules, families, params, rows, 0)
        assert state.tokens[YELLOW, C.SCEPTER] == 1
        assert (rows[tile(MONTESPAN), R.C_INTRIGUE_SEAT] == YELLOW) == played
        assert state.intrigue_hand[YELLOW, tile(MONTESPAN)] == (0 if played else 1)
        assert state.intrigue_waiting.sum() == 0   # playable from the next evaluation phase


# ---------------------------------------------------------------- Q6: DB-PLACE4's path

@pytest.mark.parametrize("reading, longest", [("four_courtiers", 4), ("three_courtiers", 3),
                                              ("two_courtiers", 2)])
def test_q6_place_four_path_length(fresh_state, setup, rules_with, reading, longest):
    rules = rules_with(place_four_path=reading)
    state = fresh_state(4, rules=rules)
    state.influence_hand[YELLOW, :] = 0
    state.influence_hand[YELLOW, C.JOKER] = 2
    state.ability_count[YELLOW, C.DB_PLACE4] = state.uses_left[YELLOW, C.DB_PLACE4] = 1
    moves = new_move_buffer()
    n_moves = list_turn_options(state, setup.data, rules, YELLOW, moves)
    four = moves[:n_moves][moves[:n_moves, MOVE_KIND] == PLACE_FOUR]
    assert len(four) > 0 and four[:, MOVE_LENGTH].max() == longest


# ---------------------------------------------------------------- Q11, Q12, Q26: Condé and Maintenon

def test_q11_conde_marker_on_his_own_tile_leaves_with_the_others(fresh_state, setup, random_bots, rules_with):
    """markers_added_during_evaluation_stay off: the seed whose random Condé marker goes on tile 6
    (where by default it stays for next round) sends it to the own supply with the others."""
    for seed in range(200):
        state = fresh_state(4, seed=seed)
        put(state, CONDE, yellow=2)
        evaluate(state, setup, CONDE, random_bots)
        if state.markers[tile(CONDE), YELLOW] == 1:
            break
    else:
        raise AssertionError("no seed made the random bot put the Condé marker on tile 6")
    state = fresh_state(4, seed=seed)
    put(state, CONDE, yellow=2)
    evaluate(state, setup, CONDE, random_bots, rules_with(markers_added_during_evaluation_stay=False))
    assert state.markers[tile(CONDE), YELLOW] == 0
    assert supplies(state, YELLOW) == (12, 4)   # 2 home + the one from the general supply


def test_q12_maintenon_markers_mandatory(fresh_state, setup, random_bots, rules_with):
    """A random bot puts 0-2 markers on Montespan; with maintenon_markers_mandatory always 2."""
    placed = {"default": set(), "mandatory": set()}
    rules = {"default": setup.rules, "mandatory": rules_with(maintenon_markers_mandatory=True)}
    for seed in range(30):
        for reading in placed:
            state = fresh_state(4, seed=seed)
            put(state, MAINTENON, yellow=1)
            evaluate(state, setup, MAINTENON, random_bots, rules[reading])
            placed[reading].add(int(state.markers[tile(MONTESPAN), YELLOW]))
    assert placed["mandatory"] == {2} and len(placed["default"]) > 1


@pytest.mark.parametrize("reading", ["not_his_own", "later_courtiers"])
def test_q26_conde_targets(fresh_state, setup, random_bots, greedy, rules_with, reading):
    """conde_targets: not_his_own never puts the marker on Condé; later_courtiers only on 7-12
    (where it counts this round). The default reaches tiles on both sides of Condé and Condé."""
    seen = {"any_courtier": set(), reading: set()}
    for bots in (random_bots, greedy):
        families, params = bots
        for seed in range(60):
            for targets in seen:
                rules = rules_with(conde_targets=targets)
                state = fresh_state(4, seed=seed)
                place_conde_marker(state, setup.data, rules, YELLOW, tile(CONDE), families[YELLOW], params[YELLOW])
                seen[targets].add(int(np.nonzero(state.markers[:, YELLOW])[0][0]) + 1)
    assert CONDE in seen["any_courtier"] and min(seen["any_courtier"]) < CONDE < max(seen["any_courtier"])
    if reading == "not_his_own":
        assert CONDE not in seen[reading] and min(seen[reading]) < CONDE < max(seen[reading])
    else:
        assert min(seen[reading]) > CONDE


# ---------------------------------------------------------------- Q13: the bribe discount

def test_q13_discounted_bribe_costs_at_least_one_gold(fresh_state, setup, rules_with):
    """A bribe costing 1 (a variant's cost; the printed ones are 2-4) with DB-BRIBE-1: free by
    default, 1 gold with the switch; a printed 3 costs 2 either way."""
    state = fresh_state(4)
    state.ability_count[RED, C.DB_BRIBE_1] = 1
    rules = rules_with(discounted_bribe_costs_at_least_one=True)
    assert bribe_cost(state, setup.data, setup.rules, RED, 1) == 0
    assert bribe_cost(state, setup.data, rules, RED, 1) == 1
    assert bribe_cost(state, setup.data, rules, RED, 3) == 2
    assert bribe_cost(state, setup.data, rules, RED, 0) == 0


# ---------------------------------------------------------------- Q16, Q17: end of game

def test_q16_coat_majority_bonus_drawn_kind_by_kind_counts_in_later_kinds(fresh_state, setup, rules_with):
    """Yellow leads kind 0, red has the only coat of kind 5, and the pile holds kind 5 only.
    Default: kinds compared first, yellow and red one bonus each. One kind at a time: yellow's
    bonus (kind 5) ties him with red on kind 5, so both take a bonus for it."""
    bonus = {}
    for reading, rules in (("together", setup.rules), ("one_at_a_time", rules_with(coat_majorities_one_kind_at_a_time=True))):
        state = fresh_state(2, round_number=4)
        state.coats[:] = 0
        state.coats[YELLOW, 0] = 2
        state.coats[RED, 0] = 1
        state.coats[RED, 5] = 1
        state.coat_pile[:] = 0
        state.coat_pile[5] = 10
        coat_majorities(state, rules)
        bonus[reading] = (int(state.coats[YELLOW].sum()) - 2, int(state.coats[RED].sum()) - 2)
    assert bonus == {"together": (1, 1), "one_at_a_time": (2, 1)}


def test_q17_final_tie_later_seat_and_most_gold_left(fresh_state, setup, rules_with):
    """Yellow and red tied on points and own supply: shared by default; later_seat gives the win
    to red (after yellow from the first start player); most_gold_left to yellow (2 gold to 1)."""
    scores = np.array([20, 20, 18, 0], dtype=np.int64)
    winners = {}
    for reading in ("shared", "later_seat", "most_gold_left"):
        state = fresh_state(3, round_number=4)
        state.game[FIRST_START_SEAT] = 0
        state.own_supply[:3] = [7, 7, 9]
        state.gold[:3] = [2, 1, 0]
        mask, by_tiebreak = find_winners(state, rules_with(final_tie=reading), scores)
        winners[reading] = (seats_in(mask), bool(by_tiebreak))
    assert winners == {"shared": ({YELLOW, RED}, False), "later_seat": ({RED}, True),
                       "most_gold_left": ({YELLOW}, True)}


# ---------------------------------------------------------------- two-player variants as game data

def variant_data(**overrides):
    model = load_game_file(overrides=overrides)
    return model, to_kernel_data(model)


def test_imaginary_player_may_pass_over_louis_courtier_card(fresh_state, setup):
    """imaginary_player.louis_card: reveal_another: only the on_louis markers go on Louis XIV's
    courtier (a revealed card of it is passed over like a joker); by default some seeds reveal it."""
    from sim.louis_xiv.influence import imaginary_player_placement
    _, data = variant_data(imaginary_player={"louis_card": "reveal_another"})
    more_than_two = 0
    for seed in range(40):
        default = fresh_state(2, seed=seed, louis=DAUPHIN)
        imaginary_player_placement(default, setup.data)
        more_than_two += default.markers[tile(DAUPHIN), C.IMAGINARY] > 2
        state = fresh_state(2, seed=seed, louis=DAUPHIN)
        imaginary_player_placement(state, data)
        assert state.markers[tile(DAUPHIN), C.IMAGINARY] == 2 and state.markers[:, C.IMAGINARY].sum() == 8
    assert more_than_two > 0


def test_imaginary_player_may_place_at_the_end_of_the_influence_phase(greedy):
    """imaginary_player.placement: end_of_phase: its markers go on after every influence turn."""
    from sim.louis_xiv import events as E
    from sim.louis_xiv.influence import influence_phase
    from sim.louis_xiv.resources import resources_phase
    model, data = variant_data(imaginary_player={"placement": "end_of_phase"})
    rules = rule_vector(model)
    families, params = greedy
    for placement_data, imaginary_last in ((to_kernel_data(load_game_file()), False), (data, True)):
        state = new_state(placement_data, 5000)
        setup_game(state, placement_data, rules, 2, 3, 0, 1)
        state.game[ROUND] = 1
        resources_phase(state, placement_data, rules, families, params)
        influence_phase(state, placement_data, rules, families, params, new_move_buffer())
        codes = list(state.trace[:int(state.game[TRACE_LENGTH]), 0])
        last_place = max(index for index, code in enumerate(codes) if code == E.PLACE)
        first_imaginary = codes.index(E.IMAGINARY_PLACED)
        assert (first_imaginary > last_place) == imaginary_last
        assert state.markers[:, C.IMAGINARY].sum() == 8


def test_start_position_compensation_in_gold_and_markers(setup):
    """extra_start_gold / extra_start_markers by seat from the start player: the second seat of a
    two-player game starts with 2 more gold and 1 more marker in its own supply."""
    model, data = variant_data(extra_start_gold={2: [0, 2]}, extra_start_markers={2: [0, 1]})
    state = new_state(data)
    setup_game(state, data, rule_vector(model), 2, 0, 0, 0)
    assert list(state.gold[:2]) == [5, 7]
    assert supplies(state, YELLOW) == (11, 5) and supplies(state, RED) == (11, 6)


# ---------------------------------------------------------------- choices: values and one-line errors

def test_a_choice_switch_takes_its_reading_names_and_refuses_others_in_one_line(tmp_path):
    model = load_game_file()
    assert rule_vector(model, {"final_tie": "later_seat"})[FINAL_TIE] == FINAL_TIE_LATER_SEAT
    with pytest.raises(ConfigError) as error:
        rule_vector(model, {"final_tie": "coin_toss"})
    assert str(error.value) == "rule 'final_tie': expected shared or later_seat or most_gold_left, found 'coin_toss'"
    with pytest.raises(ConfigError) as error:
        rule_vector(model, {"imaginary_sole_top_flips": "lose"})
    assert "rule 'imaginary_sole_top_flips': expected true or false" in str(error.value)
    with pytest.raises(ConfigError) as error:
        load_game_file(overrides={"rules": {"conde_targets": "anywhere"}})
    message = str(error.value)
    assert "\n" not in message and "key 'rules.conde_targets'" in message and "any_courtier" in message


@pytest.mark.parametrize("overrides, key", [
    ({"extra_start_gold": {2: [0, 1, 2]}}, "extra_start_gold.2"),
    ({"extra_start_markers": {3: [1]}}, "extra_start_markers.3"),
    ({"imaginary_player": {"louis_card": "skip"}}, "imaginary_player.louis_card"),
    ({"imaginary_player": {"placement": "never"}}, "imaginary_player.placement"),
])
def test_new_two_player_keys_refused_in_one_line_naming_the_key(overrides, key):
    with pytest.raises(ConfigError) as error:
        load_game_file(overrides=overrides)
    message = str(error.value)
    assert "\n" not in message and f"key '{key}'" in message
