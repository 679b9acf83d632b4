"""Rule questions of rules §7.1 that got a switch for issue 12 (Q4, Q5, Q15, Q19, Q22, Q31), and
the designer's start-player compensation (game file starting_points): each test shows the rules
file's default and the other reading on one hand-made position. Seats: red = 0, blue = 1."""
import pytest

from sim.core.engine import ConfigError
from sim.core.random_streams import seed_streams
from sim.heads_of_state.decks import build_character_decks, setup_betrayal_deck
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.kernel import setup_game
from sim.heads_of_state.round_end import revolution, round_end_influence_scoring
from sim.heads_of_state.scoring import find_winners, has_noble_in_region
from sim.heads_of_state.state import (DUKE, ES, KING, OPT_FIRST_TURN, REVOLUTION, S_DECK_N, S_REV_N,
                                      S_ROUND, S_SET_ASIDE_N, S_START_SEAT, SRC_START, STEP_1A_TAKE)
from sim.heads_of_state.tables import COUNTRY_COLUMNS, TIEBREAK_NAMES
from sim.heads_of_state.turn import option_1b, play_option, take_character_card

RED, BLUE = 0, 1
LEVEL = {name: code for code, name in TIEBREAK_NAMES.items()}


def dealt(position, rule_overrides=None, bots=("greedy",), n_players=3):
    """A position with the character and betrayal decks and displays of §3 steps 2-6."""
    pos = position(n_players, bots=bots, rule_overrides=rule_overrides)
    build_character_decks(pos.state, pos.data, pos.context)
    setup_betrayal_deck(pos.state, pos.data, pos.context)
    return pos


def revolution_card_on_top(pos):
    """The regular deck is exhausted and the revolution card is the next card drawn (§4.6)."""
    rev_n = pos.state.scal[S_REV_N]
    rev = pos.state.rev
    at = int(list(rev[:rev_n]).index(REVOLUTION))
    rev[at], rev[rev_n - 1] = rev[rev_n - 1], rev[at]
    pos.state.scal[S_DECK_N] = 0


# --- Q4: raising on the first turn ------------------------------------------------------------------

def red_nobles_after_first_turn(position, take_only):
    pos = dealt(position, {"first_turn_take_only": take_only})
    pos.give(RED, "GOLD", "GOLD")                    # a baron is payable whatever red takes
    pos.state.first_done[RED] = 1
    play_option(pos.state, pos.data, pos.context, RED, OPT_FIRST_TURN)
    return int((pos.state.box_owner == RED).sum()), int(pos.state.hand[RED].sum())


def test_q4_first_turn_raises_by_default_and_only_takes_with_first_turn_take_only(position):
    nobles, _ = red_nobles_after_first_turn(position, False)
    assert nobles >= 1                               # the greedy raises a baron (§4.1, Q4 default)
    nobles, hand = red_nobles_after_first_turn(position, True)
    assert nobles == 0 and hand == 2 + 1             # 3 players: the start player takes 1 card


# --- Q5: the take that reveals the revolution card ------------------------------------------------

def test_q5_the_interrupted_take_is_repeated_unless_revolution_take_lost(position):
    for lost, cards_taken in ((False, 1), (True, 0)):
        pos = dealt(position, {"revolution_take_lost": lost})
        revolution_card_on_top(pos)
        pos.state.display[:] = -1                       # red must draw from the deck top
        assert take_character_card(pos.state, pos.data, pos.context, RED, STEP_1A_TAKE)
        assert pos.state.scal[S_ROUND] == 1             # the round changed (§5.2)
        assert pos.state.hand[RED].sum() == cards_taken


# --- Q31: taking a set-aside card in Option 1b ------------------------------------------------------

def set_aside_cards_taken(position, allowed, games=30):
    taken = 0
    for game in range(games):
        pos = dealt(position, {"option1b_take_from_set_aside": allowed}, bots=("random",))
        seed_streams(pos.state.streams, 11, game)
        option_1b(pos.state, pos.data, pos.context, RED)
        taken += 6 - int(pos.state.scal[S_SET_ASIDE_N])
    return taken


def test_q31_option_1b_takes_from_the_new_display_or_with_the_switch_also_the_set_aside_cards(position):
    assert set_aside_cards_taken(position, False) == 0
    assert set_aside_cards_taken(position, True) > 0


# --- Q15: dead tiles without a square token ----------------------------------------------------------

def test_q15_dead_tiles_stay_on_the_hexagon_or_with_the_switch_return_at_the_round_end(position):
    for returns, dead_left, tiles in ((False, 1, 3), (True, 0, 4)):
        pos = position(3, rule_overrides={"dead_tiles_return_at_round_end": returns})
        region = pos.region("FR_P1")
        pos.state.dead[RED, region, DUKE] = 1           # red's duke was killed in FR_P1 (§4.7)
        pos.state.tiles[RED, DUKE] -= 1
        revolution(pos.state, pos.data, pos.context, STEP_1A_TAKE)   # the 1589 round ends
        assert pos.state.scal[S_ROUND] == 1
        assert pos.state.dead[RED, region, DUKE] == dead_left and pos.state.tiles[RED, DUKE] == tiles
        assert has_noble_in_region(pos.state, pos.data, RED, region) == bool(dead_left)   # §6.2 presence


# --- Q19: the hexagon tie-break (§6.4 level 3) --------------------------------------------------------

def spain_tied_on_influence_rank_and_best_hexagon(position, reading):
    """Spain: red duke ES_P1 upper (2) + baron ES_P3 lower alone (2) = 4, hexagons 5, 3; blue count
    ES_P1 lower (1) + duke ES_P2 upper (2) + baron ES_P2 lower (1) = 4, hexagons 5, 4. Both have a
    duke and a noble in the 5-hexagon region: only the second-best hexagon separates them."""
    pos = position(3, rule_overrides={"influence_hexagon_tiebreak": reading})
    pos.place(RED, "ES_P1.upper", "duke")
    pos.place(BLUE, "ES_P1.lower", "count")
    pos.place(BLUE, "ES_P2.upper", "duke")
    pos.place(BLUE, "ES_P2.lower", "baron")
    pos.place(RED, "ES_P3.lower", "baron")
    round_end_influence_scoring(pos.state, pos.data, pos.context)
    return dict(zip(COUNTRY_COLUMNS, pos.context.country[ES].tolist()))


def test_q19_hexagon_tiebreak_compares_all_regions_or_with_the_switch_only_the_best(position):
    row = spain_tied_on_influence_rank_and_best_hexagon(position, "all_regions")
    assert row["influence_s0"] == row["influence_s1"] == 4
    assert (row["first_seat"], row["first_tiebreak"]) == (BLUE, LEVEL["hexagon_value"])   # 5, 4 > 5, 3
    row = spain_tied_on_influence_rank_and_best_hexagon(position, "best_region")
    assert row["first_tiebreak"] == LEVEL["unresolved"]                  # 5 = 5: seeded random order


# --- Q22: the winner tie-break "most kings" ------------------------------------------------------------

def test_q22_most_kings_counts_king_cards_or_with_the_switch_living_kings(position):
    for counted, winner in (("noble_cards", RED), ("living_nobles", BLUE)):
        pos = position(3, rule_overrides={"winner_tiebreak": counted})
        pos.state.score[:3] = [30, 30, 20]
        pos.state.cards[RED, KING] = 2                  # red raised two kings; both were killed
        pos.state.cards[BLUE, KING] = 1
        pos.place(BLUE, "FR_CAP.upper", "king")      # blue's one king is alive
        assert find_winners(pos.state, pos.context) == (1 << winner, winner, 1)


# --- starting_points: a start-player compensation (not in the rules) -----------------------------------

def test_starting_points_are_scored_at_setup_by_place_after_the_start_player(position):
    """Hand-worked: seat 0 starts (random_start_player off), so seat 1 is the second player."""
    points = {2: [0, 3], 3: [0, 0, 0], 4: [0, 0, 0, 0], 5: [0, 0, 0, 0, 0]}
    for compensation, expected in ((None, [0, 0]), (points, [0, 3])):
        overrides = {"random_start_player": False} | ({"starting_points": compensation} if compensation else {})
        pos = position(2, rule_overrides=overrides)
        setup_game(pos.state, pos.data, pos.context, 2, 5, 0, 0)
        assert pos.state.score[:2].tolist() == expected
        assert pos.state.score_src[:2, SRC_START].tolist() == expected
    # the start player drawn (§3 step 11, the default): the points go to the seat after it
    pos = position(2, rule_overrides={"starting_points": points})
    starts = set()
    for game in range(12):
        setup_game(pos.state, pos.data, pos.context, 2, 5, game, 0)
        start = int(pos.state.scal[S_START_SEAT])
        starts.add(start)
        assert pos.state.score[[start, 1 - start]].tolist() == [0, 3]
    assert starts == {0, 1}


def test_starting_points_are_checked_per_player_count():
    with pytest.raises(ConfigError, match="starting_points.2"):
        ENGINE.load_setup(rule_overrides={"starting_points": {2: [0], 3: [0] * 3, 4: [0] * 4, 5: [0] * 5}})
