"""configs/games/louis_xiv.yaml against the rules file's tables of component data
(/work/shared/rules/louis_xiv.md): each value below is transcribed from the section named
beside it, so a change to the game file that the rules file does not make shows up here."""
from collections import Counter

import numpy as np
import pytest

from sim.louis_xiv.data import load_game_file, rule_vector, to_kernel_data
from sim.louis_xiv.rules import switch_settings

GAME = load_game_file()

# §1.1 courtiers and their gifts
GIFTS = {
    1: ("Anne d'Autriche", {"token": "scepter"}),
    2: ("Philippe I d'Orléans", {"token": "document"}),
    3: ("Marie-Thérèse d'Espagne", {"token": "ring"}),
    4: ("Le Grand Dauphin", {"token": "helmet"}),
    5: ("Françoise-Athénaïs de Montespan", {"token": "crown"}),
    6: ("Le Grand Condé", {"coats": 1, "place_any": 1}),
    7: ("Jean-Baptiste Colbert", {"gold": 5}),
    8: ("Françoise de Maintenon", {"place_on": {"courtier": 5, "count": 2}, "retrieve": 1}),
    9: ("Louise de La Vallière", {"token": "crown"}),
    10: ("Henri de Turenne", {"coats": 2}),
    11: ("Jules Mazarin", {"influence_cards": 1}),
    12: ("François-Michel Louvois", {"coats": 1, "intrigue_cards": 1}),
}

# §1.2 courtier tile data (with assumptions A1-A3, §12): (side A mode, value), (side B mode, value)
SIDES = {
    1: (("gold", 3), ("first", 0)),
    2: (("gold", 3), ("first", 0)),
    3: (("gold", 3), ("first", 0)),
    4: (("gold", 3), ("first", 0)),
    5: (("first", 0), ("gold", 4)),
    6: (("threshold", 2), ("gold", 3)),
    7: (("first", 0), ("gold", 3)),
    8: (("gold", 2), ("threshold", 2)),
    9: (("first", 0), ("gold", 4)),
    10: (("threshold", 3), ("gold", 3)),
    11: (("first", 0), ("gold", 2)),
    12: (("gold", 3), ("threshold", 3)),
}

# §1.3 gold cards G1-G8 (amounts: assumption A4): (courtier Louis XIV goes to, gold to each player)
GOLD_CARDS = [(1, 4), (1, 6), (2, 4), (2, 6), (3, 4), (3, 6), (4, 4), (4, 6)]

# §1.4 mission tokens
TOKENS = {"crown": 10, "scepter": 6, "helmet": 6, "ring": 6, "document": 6}

# §1.5 mission cards (costs: assumption A5); S H R D = scepter helmet ring document, ? = any
S, H, R, D, ANY = "scepter", "helmet", "ring", "document", "any"
LIGHT = [("LB-EXTRA", S, ANY), ("LB-EXTRA", H, ANY),
         ("LB-MARKER", S, ANY), ("LB-MARKER", H, ANY), ("LB-MARKER", R, ANY), ("LB-MARKER", D, ANY),
         ("LB-GOLD", S, ANY), ("LB-GOLD", H, ANY), ("LB-GOLD", R, ANY), ("LB-GOLD", D, ANY),
         ("LB-TILE1", S, ANY), ("LB-TILE2", D, ANY), ("LB-TILE3", R, ANY), ("LB-TILE4", H, ANY),
         ("LB-SKIP", R, ANY), ("LB-SKIP", D, ANY),
         ("LB-TOKENSWAP", S, ANY), ("LB-TOKENSWAP", R, ANY),
         ("LB-MISSIONSWAP", H, ANY), ("LB-MISSIONSWAP", D, ANY)]
BLUE = [("B-INCOME", S, H), ("B-INCOME", R, D), ("B-INCOME", S, R), ("B-INCOME", H, D),
        ("B-COAT", S, D), ("B-COAT", H, R),
        ("B-LOUIS", S, H), ("B-LOUIS", R, D),
        ("B-TILE5", S, D), ("B-TILE9", H, R),
        ("B-CARDSWAP", S, R), ("B-CARDSWAP", H, D)]
DARK = [("DB-MARKERS3", S, S), ("DB-GOLD3", H, H), ("DB-INTRIGUE", R, R), ("DB-CARDFORMARKER", D, D),
        ("DB-PLACE4", H, H), ("DB-ENDPLACE", D, D), ("DB-ONCEFIRST", S, S), ("DB-BRIBE-1", R, R)]

# §2.2 adjacency list
ADJACENCY = {1: [2, 4, 6, 7], 2: [1, 3, 8, 9], 3: [2, 4, 10, 11], 4: [1, 3, 5, 12], 5: [4, 6], 6: [1, 5],
             7: [1, 8], 8: [2, 7], 9: [2, 10], 10: [3, 9], 11: [3, 12], 12: [4, 11]}


@pytest.mark.parametrize("number", range(1, 13))
def test_courtier_names_and_gifts_match_section_1_1(number):
    courtier = GAME.courtiers[number - 1]
    name, gift = GIFTS[number]
    assert courtier.number == number and courtier.name == name
    assert courtier.gift.model_dump(exclude_defaults=True) == gift


@pytest.mark.parametrize("number", range(1, 13))
def test_courtier_sides_match_section_1_2(number):
    courtier = GAME.courtiers[number - 1]
    side_a, side_b = SIDES[number]
    assert (courtier.side_a.mode, courtier.side_a.value) == side_a
    assert (courtier.side_b.mode, courtier.side_b.value) == side_b


def test_side_a_modes_as_the_seed_lists_them():
    """§1.2: "in round 1 the gold courtiers are 1, 2, 3, 4, 8, 12; first place 5, 7, 9, 11;
    influence 6 and 10"; side B has the same mix (A1's mirror hypothesis)."""
    by_mode = {mode: sorted(c.number for c in GAME.courtiers if c.side_a.mode == mode)
               for mode in ("gold", "first", "threshold")}
    assert by_mode == {"gold": [1, 2, 3, 4, 8, 12], "first": [5, 7, 9, 11], "threshold": [6, 10]}
    assert Counter(c.side_b.mode for c in GAME.courtiers) == Counter(c.side_a.mode for c in GAME.courtiers)


def test_gold_cards_match_section_1_3_four_used_louis_on_courtiers_1_to_4():
    assert [(card.courtier, card.gold) for card in GAME.gold_cards] == GOLD_CARDS
    assert GAME.gold_cards_used == 4 and GAME.louis_courtiers == [1, 2, 3, 4]


def test_tokens_match_section_1_4():
    assert {token.name: token.count for token in GAME.tokens} == TOKENS
    assert sum(TOKENS.values()) == 34


@pytest.mark.parametrize("colour, cards", [("light", LIGHT), ("blue", BLUE), ("dark", DARK)])
def test_mission_cards_abilities_and_costs_match_section_1_5(colour, cards):
    in_file = [(mission.ability, *mission.cost) for mission in getattr(GAME.missions, colour)]
    assert Counter(in_file) == Counter(cards)


def test_mission_counts_and_cost_patterns_match_section_1_5():
    """20 light blue (one named token + "?"), 12 blue (two different), 8 dark blue (two alike,
    all different abilities); each non-crown symbol has an equal share (A5)."""
    assert (len(LIGHT), len(BLUE), len(DARK)) == (20, 12, 8)
    assert all(second == ANY and first != ANY for _, first, second in LIGHT)
    assert all(first != second and ANY not in (first, second) for _, first, second in BLUE)
    assert all(first == second != ANY for _, first, second in DARK) and len({a for a, _, _ in DARK}) == 8
    assert Counter(first for _, first, _ in LIGHT) == {S: 5, H: 5, R: 5, D: 5}
    assert Counter(frozenset(cost) for _, *cost in BLUE) == {frozenset(pair): 2 for pair in
                                                            ((S, H), (S, R), (S, D), (H, R), (H, D), (R, D))}


def test_adjacency_matches_section_2_2():
    assert {tile: sorted(neighbours) for tile, neighbours in GAME.adjacency.items()} == ADJACENCY
    assert sum(len(neighbours) for neighbours in ADJACENCY.values()) == 2 * 16     # 16 edges


def test_component_counts_match_section_1():
    """§1: 30 influence cards (2 per courtier + 6 jokers), 12 intrigue cards (1 each), 60 coats
    (6 kinds x 10), 72 gold in the bank, 16 markers per colour."""
    data = to_kernel_data(GAME)
    assert len(data.influence_cards) == 30
    assert np.bincount(data.influence_cards, minlength=13).tolist() == [2] * 12 + [6]
    assert sorted(data.intrigue_cards.tolist()) == list(range(12))
    assert (GAME.coat_kinds, GAME.coats_per_kind, GAME.bank_gold, GAME.markers_per_player) == (6, 10, 72, 16)


def test_setup_matches_section_3():
    """§3: 2-4 players, 4 rounds, 5 gold and 1 light-blue + 1 blue mission each; markers to the
    general supply by seat from the start player 5/5/6/7 (2 players: 5/6)."""
    assert (GAME.players.min, GAME.players.max, GAME.rounds) == (2, 4, 4)
    assert GAME.start_gold == 5 and (GAME.start_missions.light, GAME.start_missions.blue) == (1, 1)
    assert GAME.general_supply_at_start == {2: [5, 6], 3: [5, 5, 6], 4: [5, 5, 6, 7]}


def test_turn_sizes_and_costs_match_sections_4_and_6():
    """§4.1 step 3 hand of 5; §4.2.1 placements 3 / joker 2 / DB-PLACE4 4; §4.2 b retrievals
    3 / 2 / 4; §6 LB-SKIP and LB-TOKENSWAP 2 gold, DB-BRIBE-1 one gold less."""
    assert GAME.influence_hand == 5
    assert (GAME.place_courtier_card, GAME.place_joker, GAME.place_four) == (3, 2, 4)
    assert (GAME.retrieve_courtier_card, GAME.retrieve_joker, GAME.retrieve_four) == (3, 2, 4)
    assert (GAME.lb_skip_cost, GAME.lb_tokenswap_cost, GAME.bribe_discount) == (2, 2, 1)


def test_missions_phase_and_scoring_match_sections_4_5_and_7():
    """§4.5 step 5 keep 1 token; §7 one coat per full 3 gold, 1 VP per coat, 5 VP per mission."""
    assert GAME.tokens_kept_after_missions == 1
    assert (GAME.gold_per_coat_at_end, GAME.points_per_coat, GAME.points_per_mission) == (3, 1, 5)


def test_imaginary_player_matches_section_8():
    """§8: 8 markers; 2 on Louis XIV's courtier, then 3 revealed cards x 2 markers, a revealed
    card of Louis XIV's courtier placing too, at the start of the influence phase."""
    imaginary = GAME.imaginary_player
    assert (imaginary.markers, imaginary.on_louis, imaginary.cards_revealed, imaginary.per_card) == (8, 2, 3, 2)
    assert (imaginary.louis_card, imaginary.placement) == ("place", "start_of_phase")


def test_no_start_position_compensation_in_the_printed_game():
    """§3: every player starts with 5 gold and 16 markers, whatever his seat."""
    for key in ("extra_start_gold", "extra_start_markers"):
        assert getattr(GAME, key) == {n: [0] * n for n in (2, 3, 4)}


def test_rule_switches_default_to_the_rules_file_answers():
    """§10: Q2 Louis's empty courtier flips; Q9 a placement puts at least one marker; Q14/A7
    unlimited virtual supplies; Q18 mission swap at the end of the owner's turn; §3 step 7 seat 1
    starts; §9 three-player compensation on; and the engine defaults of Q3-Q6, Q11-Q13, Q16,
    Q17, Q19, Q24 and Q26."""
    expected = {"louis_empty_tile_flips": True, "place_at_least_one_marker": True, "strict_supplies": False,
                "mission_swap_at_phase_end": False, "random_start_player": False,
                "three_player_compensation": True,
                "imaginary_sole_top_flips": True, "imaginary_player_ties": "block",          # Q19
                "imaginary_player_takes_louis_crown": True,                                   # §8 / Q19
                "tied_second_under_louis": "may_bribe",                                       # Q3
                "once_first_partner_is_second": True,                                         # Q4
                "intrigue_needs_own_marker": False,                                           # Q5
                "place_four_path": "four_courtiers",                                          # Q6
                "markers_added_during_evaluation_stay": True,                                 # Q11
                "maintenon_markers_mandatory": False,                                         # Q12
                "discounted_bribe_costs_at_least_one": False,                                 # Q13
                "coat_majorities_one_kind_at_a_time": False,                                  # Q16
                "final_tie": "shared",                                                        # Q17
                "intrigue_usable_same_phase": True,                                           # Q24
                "conde_targets": "any_courtier"}                                              # Q26
    assert switch_settings(rule_vector(GAME)) == expected
    assert GAME.rules == expected   # the game file writes every switch at its default
