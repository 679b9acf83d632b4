"""More rules of rules/heads_of_state.md, one test each, on hand-made positions (one phase function):
option 1b's deck minimum, tie-break levels 3-4, display refills, option 2's two takes, a revolution
during the end-of-turn refill, exact discards, square tokens and kills, a shared win.
Seats: red = 0, blue = 1, yellow = 2."""
from sim.core.random_streams import seed_streams
from sim.heads_of_state.betrayal import betrayal_plays, list_betrayal_plays
from sim.heads_of_state.decks import build_character_decks, setup_betrayal_deck
from sim.heads_of_state.events import K_FORCED
from sim.heads_of_state.round_end import discard_to_limit, round_end_influence_scoring
from sim.heads_of_state.scoring import find_winners
from sim.heads_of_state.state import (ES, FR, GB, KING, N_CHAR_TYPES, OPT_1B, OPT_2, REVOLUTION, S_ACTIVE,
                                      S_DECK_N, S_REV_N, S_ROUND, SRC_COUNTRY, STAT_DISCARD_TURN_BETRAYAL,
                                      STAT_DISCARD_TURN_CHAR, STEP_END_REFILL)
from sim.heads_of_state.tables import COUNTRY_COLUMNS, TIEBREAK_NAMES
from sim.heads_of_state.turn import end_of_turn, finish_turn, option_2, play_turn

RED, BLUE, YELLOW = 0, 1, 2
LEVEL = {name: code for code, name in TIEBREAK_NAMES.items()}


def dealt(position, n_players=3):
    """A position with the character and betrayal decks and displays of §3 steps 2-6."""
    pos = position(n_players)
    build_character_decks(pos.state, pos.data, pos.context)
    setup_betrayal_deck(pos.state, pos.data, pos.context)
    return pos


def force_next_choice(pos, row):
    """The next bot decision takes row ``row`` of the listed moves (events.K_FORCED)."""
    pos.context.counters[K_FORCED] = row + 1


def country_row(pos, country):
    round_end_influence_scoring(pos.state, pos.data, pos.context)
    return dict(zip(COUNTRY_COLUMNS, pos.context.country[country].tolist()))


# --- §4.2 1b: "legal only if the regular deck holds at least 6 cards" (Q6) -------------------------

def option_played_with_second_listed_move(position, deck_cards):
    """Red's (not first) turn with ``deck_cards`` in the regular deck, choosing the second option
    listed: [1a, 1b, 2] when 1b is legal, [1a, 2] when it is not."""
    pos = dealt(position)
    pos.state.first_done[:3] = 1
    pos.state.scal[S_DECK_N] = deck_cards
    pos.state.scal[S_ACTIVE] = RED
    force_next_choice(pos, 1)
    play_turn(pos.state, pos.data, pos.context)
    return pos.state.options[RED].tolist()


def test_s4_2_option_1b_is_legal_with_six_regular_cards(position):
    assert option_played_with_second_listed_move(position, 6)[OPT_1B] == 1


def test_s4_2_option_1b_is_not_offered_with_five_regular_cards(position):
    options = option_played_with_second_listed_move(position, 5)
    assert options[OPT_1B] == 0 and options[OPT_2] == 1


# --- §6.4 step 3: tie-break levels 3 (hexagon values) and 4 (seeded random) ------------------------

def test_s6_4_level_3_the_noble_in_the_higher_hexagon_wins_the_tie(position):
    pos = position(3)
    pos.place(RED, "FR_P3.lower", "count")       # alone in a province: 2, hexagon 3
    pos.place(BLUE, "FR_P2.lower", "count")      # alone in a province: 2, hexagon 4
    row = country_row(pos, FR)
    assert [row[f"influence_s{i}"] for i in range(3)] == [2, 2, 0]
    assert [row[f"top_rank_s{i}"] for i in range(2)] == [row["top_rank_s0"]] * 2
    assert (row["first_seat"], row["second_seat"]) == (BLUE, RED)
    assert row["first_tiebreak"] == LEVEL["hexagon_value"]
    assert (row["first_points"], row["second_points"]) == (10, 2)


def residual_tie(position, game_index):
    """Spain: red duke (upper, 2) + baron (lower, 1), blue duke (upper, 2) + count (lower, 1) in the
    same two regions: equal influence, highest rank and hexagon values."""
    pos = position(3)
    pos.place(RED, "ES_P1.upper", "duke")
    pos.place(BLUE, "ES_P1.lower", "count")
    pos.place(BLUE, "ES_P2.upper", "duke")
    pos.place(RED, "ES_P2.lower", "baron")
    seed_streams(pos.state.streams, 7, game_index)
    return country_row(pos, ES)


def test_s6_4_level_4_a_residual_tie_is_decided_by_the_seeded_random_order(position):
    rows = [residual_tie(position, game) for game in range(40)]
    assert all(row["first_tiebreak"] == LEVEL["unresolved"] for row in rows)
    assert all(row["influence_s0"] == row["influence_s1"] == 3 for row in rows)
    firsts = [row["first_seat"] for row in rows]
    assert set(firsts) == {RED, BLUE}                                      # either may win
    assert firsts == [residual_tie(position, game)["first_seat"] for game in range(40)]   # reproducible


# --- §4.5 step 2: display refill -------------------------------------------------------------------

def test_s4_5_only_the_taken_display_slots_are_refilled_from_the_deck_top(position):
    pos = dealt(position)
    before = pos.state.display.copy()
    deck_n = pos.state.scal[S_DECK_N]
    top, second = pos.state.deck[deck_n - 1], pos.state.deck[deck_n - 2]
    pos.state.display[1] = -1                       # red took the cards of slots 1 and 4
    pos.state.display[4] = -1
    end_of_turn(pos.state, pos.data, pos.context, RED)
    assert pos.state.display[1] == top and pos.state.display[4] == second      # slot by slot, top first
    assert [pos.state.display[s] for s in (0, 2, 3, 5)] == [before[s] for s in (0, 2, 3, 5)]
    assert pos.state.scal[S_DECK_N] == deck_n - 2


# --- §4.4 step 1: option 2 takes exactly one betrayal card and one character card -----------------

def test_s4_4_option_2_takes_one_betrayal_card_and_one_character_card(position):
    pos = dealt(position)
    cards_in_view = pos.state.scal[S_DECK_N] + (pos.state.display >= 0).sum()
    assert option_2(pos.state, pos.data, pos.context, RED)
    assert pos.state.hand[RED].sum() == 1 and pos.state.bhand[RED].sum() == 1
    assert pos.state.scal[S_DECK_N] + (pos.state.display >= 0).sum() == cards_in_view - 1
    assert pos.state.hand[BLUE].sum() == pos.state.bhand[BLUE].sum() == 0


# --- §5.2 step 4 (Q5): a revolution during the end-of-turn refill ----------------------------------

def test_s5_2_a_revolution_in_the_end_of_turn_refill_completes_the_display_and_ends_the_turn(position):
    pos = dealt(position)
    rev_n = pos.state.scal[S_REV_N]
    rev = pos.state.rev
    at = int(list(rev[:rev_n]).index(REVOLUTION))
    rev[at], rev[rev_n - 1] = rev[rev_n - 1], rev[at]   # the revolution card on top of its deck
    pos.state.scal[S_DECK_N] = 0                           # regular deck exhausted
    pos.state.display[2] = -1                              # red took a display card
    pos.give(RED, *(["GOLD"] * 8))                      # 8 cards: above the 6 of a round change
    finish_turn(pos.state, pos.data, pos.context, RED)
    assert pos.state.scal[S_ROUND] == 1 and pos.state.round_step[0] == STEP_END_REFILL
    assert (pos.state.display >= 0).all()                  # the new round's fresh display is complete
    assert pos.state.hand[RED].sum() == 6                  # §5.2 step 3a limit, then §4.5 step 4
    assert pos.state.scal[S_ACTIVE] == BLUE                # the turn ended; the next player's turn


# --- §4.5 step 4: discard down to exactly 10 character and 4 betrayal cards ------------------------

def test_s4_5_hand_limits_discard_down_to_exactly_ten_and_four(position):
    pos = position(3)
    names = pos.desc["character_types"]
    for i in range(13):
        pos.give(RED, names[i % N_CHAR_TYPES])
    pos.give_betrayal(RED, *(["assassin"] * 6))
    pos.give(BLUE, *(["GOLD"] * 10))                    # at the limit: keeps every card
    pos.give_betrayal(BLUE, *(["assassin"] * 4))
    for player in (RED, BLUE):
        discard_to_limit(pos.state, pos.data, pos.context, player, pos.data.hand_limit_char, pos.data.hand_limit_betrayal,
                         STAT_DISCARD_TURN_CHAR)
    assert pos.state.hand[RED].sum() == 10 and pos.state.bhand[RED].sum() == 4
    assert pos.state.discard.sum() == 3 and pos.state.bdiscard.sum() == 2
    assert pos.state.stats[RED, STAT_DISCARD_TURN_CHAR] == 3 and pos.state.stats[RED, STAT_DISCARD_TURN_BETRAYAL] == 2
    assert pos.state.hand[BLUE].sum() == 10 and pos.state.bhand[BLUE].sum() == 4
    assert pos.state.stats[BLUE, STAT_DISCARD_TURN_CHAR] == pos.state.stats[BLUE, STAT_DISCARD_TURN_BETRAYAL] == 0


# --- §6.2 / §4.7: a kill never takes a square token back (nor gives one) ---------------------------

def test_s6_2_a_kill_leaves_the_square_token_with_its_owner(position):
    pos = position(3)
    pos.place(BLUE, "GB_CAP.upper", "king")
    pos.place(BLUE, "GB_IRL.upper", "earl")
    pos.place(BLUE, "GB_SCO.lower", "baron")
    pos.state.square_owner[BLUE, GB] = 1                   # blue covered Great Britain first: 4 points
    pos.state.square_next[GB] = 1
    pos.state.score[BLUE] = pos.state.score_src[BLUE, SRC_COUNTRY] = 4
    pos.give_betrayal(RED, "GB")
    n = list_betrayal_plays(pos.state, pos.data, pos.context, RED, 0)
    target = [m[0] for m in pos.moves(n)].index(pos.box("GB_IRL.upper"))
    force_next_choice(pos, target)
    betrayal_plays(pos.state, pos.data, pos.context, RED)          # the GB card kills automatically
    assert pos.state.box_owner[pos.box("GB_IRL.upper")] == -1
    assert pos.state.dead[BLUE, pos.region("GB_IRL")].sum() == 1   # the dead earl lies on the hexagon
    assert pos.state.square_owner[BLUE, GB] == 1 and pos.state.square_next[GB] == 1
    assert pos.state.score[:3].tolist() == [0, 4, 0] and pos.state.square_owner[RED].sum() == 0


# --- §6.6 (Q22): a shared win ---------------------------------------------------------------------

def test_s6_6_equal_scores_and_equal_noble_cards_share_the_win(position):
    pos = position(3)
    pos.state.score[:3] = [30, 30, 20]
    pos.state.cards[RED, KING] = pos.state.cards[BLUE, KING] = 1
    mask, first, code = find_winners(pos.state, pos.context)
    assert (mask, first, code) == (0b011, RED, 2)


def test_s6_6_equal_scores_are_broken_by_king_cards(position):
    pos = position(3)
    pos.state.score[:3] = [30, 30, 20]
    pos.state.cards[BLUE, KING] = 1
    assert find_winners(pos.state, pos.context) == (0b010, BLUE, 1)
