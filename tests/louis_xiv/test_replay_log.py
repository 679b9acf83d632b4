"""The replay log (sim/louis_xiv/replay.py) tells what happened, as the rulebook says it: a card
played for nothing (Q8/Q9), what a gift holds (§5), Louis XIV's crown (§4.3.4), Maintenon's
markers (§5), the token kept at the cap (§4.5 step 5) and LB-MISSIONSWAP's cards (§6)."""
import numpy as np
import pytest

from sim.louis_xiv import constants as C
from sim.louis_xiv.decisions import MOVE_CARD, MOVE_KIND, MOVE_LENGTH, MOVE_PATH, PLACE, new_move_buffer
from sim.louis_xiv.engine import mission_names
from sim.louis_xiv.components import draw_mission_card, mission_card_under_deck
from sim.louis_xiv.evaluation import apply_gift
from sim.louis_xiv.influence import apply_move
from sim.louis_xiv.missions import mission_swaps, token_cap
from sim.louis_xiv.replay import describe
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import LOUIS_COURTIER, ROUND, START_SEAT, TRACE_LENGTH, new_state

from .rulebook import COLBERT, DAUPHIN, MAINTENON, MONTESPAN, RED, YELLOW, evaluate, put, tile


@pytest.fixture
def traced_state(setup):
    """A four-player game in round 2 with the replay log on, emptied after the setup."""
    def make(n_players=4, louis=None):
        state = new_state(setup.data, trace_capacity=200)
        setup_game(state, setup.data, setup.rules, n_players, 0, 0, 1)
        state.game[ROUND] = 2
        state.game[START_SEAT] = 0
        state.game[LOUIS_COURTIER] = -1 if louis is None else tile(louis)
        state.game[TRACE_LENGTH] = 0
        return state
    return make


def log_lines(state, setup):
    names = mission_names(setup.data)
    return [describe(state.trace[row], names) for row in range(int(state.game[TRACE_LENGTH]))]


def test_card_played_for_nothing_says_so_and_shows_no_path(traced_state, setup, greedy):
    """Q8/Q9: with an empty own supply a card is played without placing; the move row still holds
    the path of an earlier, longer option, which the log must not show."""
    state = traced_state()
    state.own_supply[YELLOW] = 0
    state.influence_hand[YELLOW, 0] = 2
    move = new_move_buffer()[0]
    move[MOVE_PATH:MOVE_PATH + 4] = (6, 1, 0, 1)      # left over: "1 on 7 -> 1 on 1"
    move[MOVE_KIND], move[MOVE_CARD], move[MOVE_LENGTH] = PLACE, 0, 0
    apply_move(state, setup.data, YELLOW, move, greedy[0][YELLOW], greedy[1][YELLOW])
    assert log_lines(state, setup) == ["Influence: seat 1 plays card 1 for nothing (places no marker)"]
    assert state.markers.sum() == 0


def test_placement_log_shows_only_the_steps_of_its_path(traced_state, setup, greedy):
    state = traced_state()
    state.influence_hand[YELLOW, 0] = 2
    move = new_move_buffer()[0]
    move[MOVE_PATH:MOVE_PATH + 8] = (0, 2, 3, 1, 5, 1, 6, 1)   # steps 3 and 4 left over
    move[MOVE_KIND], move[MOVE_CARD], move[MOVE_LENGTH] = PLACE, 0, 2
    apply_move(state, setup.data, YELLOW, move, greedy[0][YELLOW], greedy[1][YELLOW])
    assert log_lines(state, setup) == ["Influence: seat 1 plays card 1 and places 2 on 1 -> 1 on 4"]


def test_gift_line_names_its_contents(traced_state, setup, greedy):
    """§5: Colbert gives 5 gold, Montespan a crown, Dauphin a helmet."""
    state = traced_state()
    for courtier in (COLBERT, MONTESPAN, DAUPHIN):
        apply_gift(state, setup.data, setup.rules, RED, tile(courtier), greedy[0][RED], greedy[1][RED])
    assert log_lines(state, setup) == [
        "  seat 2 receives the gift of courtier 7: 5 gold",
        "  seat 2 receives the gift of courtier 5: a crown",
        "  seat 2 receives the gift of courtier 4: a helmet",
    ]


def test_louis_xiv_crown_is_logged(traced_state, setup, greedy):
    """§4.3.4 case C: the sole top holder on Louis XIV's courtier takes the gift and a crown."""
    state = traced_state(louis=DAUPHIN)
    put(state, DAUPHIN, red=2)
    evaluate(state, setup, DAUPHIN, greedy)
    lines = log_lines(state, setup)
    assert "  seat 2 takes Louis XIV's crown as the top holder of courtier 4" in lines
    assert lines.index("  seat 2 takes Louis XIV's crown as the top holder of courtier 4") < lines.index(
        "  seat 2 receives the gift of courtier 4: a helmet")
    assert state.tokens[RED, C.CROWN] == 1


def test_maintenon_move_is_logged(traced_state, setup, greedy):
    """§5 Maintenon: (a) 2 own markers onto courtier 5 (own supply when the general one is short),
    (b) then 1 own marker general -> own supply."""
    state = traced_state()
    state.own_supply[YELLOW] += state.general_supply[YELLOW] - 1
    state.general_supply[YELLOW] = 1
    apply_gift(state, setup.data, setup.rules, YELLOW, tile(MAINTENON), greedy[0][YELLOW], greedy[1][YELLOW])
    assert log_lines(state, setup) == [
        "  seat 1 receives the gift of courtier 8: markers only (below)",
        "  seat 1 (Maintenon) puts 2 markers on courtier 5 (1 of them from the own supply)",
        "  seat 1 moves 0 own markers general -> own supply (gift of courtier 8)",
    ]
    assert state.markers[tile(MONTESPAN), YELLOW] == 2


def test_maintenon_marker_back_is_logged(traced_state, setup, greedy):
    state = traced_state()
    apply_gift(state, setup.data, setup.rules, YELLOW, tile(MAINTENON), greedy[0][YELLOW], greedy[1][YELLOW])
    assert log_lines(state, setup)[1:] == [
        "  seat 1 (Maintenon) puts 2 markers on courtier 5",
        "  seat 1 moves 1 own marker general -> own supply (gift of courtier 8)",
    ]


def test_token_kept_at_the_cap_is_logged(traced_state, setup, greedy):
    """§4.5 step 5: a player keeps one token; each one returned gives a coat."""
    state = traced_state()
    state.tokens[YELLOW, [C.CROWN, C.HELMET, C.RING]] = 1
    state.token_pile[[C.CROWN, C.HELMET, C.RING]] -= 1
    token_cap(state, setup.data, setup.rules, YELLOW, greedy[0][YELLOW], greedy[1][YELLOW])
    kept = int(np.argmax(state.tokens[YELLOW]))
    assert state.tokens[YELLOW].sum() == 1
    lines = log_lines(state, setup)     # each coat's kind first (one row each: decode joins them)
    assert lines[-1] == f"  seat 1 returns 2 tokens over the limit and takes as many coats; keeps 1 {C.TOKEN_NAMES[kept]}"
    assert [line[:-1] for line in lines[:-1]] == ["  seat 1 draws coats of arms (token cap): kind "] * 2


def test_mission_swap_logs_how_many_cards_and_which(traced_state, setup, greedy):
    """LB-MISSIONSWAP (§6): the greedy bot puts a dark-blue card it holds no token for under its
    deck and draws one; the log gives the number of cards, not a card id."""
    state = traced_state()
    data = setup.data
    for held in np.nonzero(state.mission_hand[YELLOW])[0]:
        mission_card_under_deck(state, data, YELLOW, held)
    card = draw_mission_card(state, YELLOW, C.DARK)
    state.ability_count[YELLOW, C.LB_MISSIONSWAP] = 1
    mission_swaps(state, data, YELLOW, greedy[0][YELLOW], greedy[1][YELLOW])
    lines = log_lines(state, setup)
    name = mission_names(data)[card]
    assert lines[0] == f"  seat 1 puts 1 mission card ({name}) under the decks and draws as many (LB-MISSIONSWAP)"
    assert lines[1].startswith("  seat 1 draws from the ")
    assert state.mission_hand[YELLOW].sum() == 1


# ---------------------------------------------------------------- wording and hidden information
# The replay numbers seats from 1; trace rows are (code, a..g) with seats from 0 (events.py).
from sim.louis_xiv import events as E  # noqa: E402
from sim.louis_xiv.data import START_BLUE_MISSIONS, START_LIGHT_MISSIONS  # noqa: E402
from sim.louis_xiv.engine import ENGINE  # noqa: E402
from strategies.bots import resolve_bots  # noqa: E402

ONCEFIRST_GAME = (3, "tuned_3p,random,mission_racer", 47, 0)     # seat 3 uses DB-ONCEFIRST
ENDPLACE_GAME = (2, "mission_racer,greedy", 45, 2)               # seat 1's last DB-ENDPLACE finds no marker
GAMES = [ONCEFIRST_GAME, ENDPLACE_GAME, (4, "greedy,random,coat_hoarder,crown_hunter", 7, 12),
         (3, "random,random,random", 5, 0)]


def traced(setup, game):
    n_players, bots, seed, index = game
    state, scores = ENGINE.replay_state(setup, n_players, resolve_bots("louis-xiv", bots.split(",")), seed, index)
    return [tuple(int(v) for v in row) for row in state.trace[:int(state.game[TRACE_LENGTH])]], scores


def replay_lines(setup, game):
    n_players, bots, seed, index = game
    return ENGINE.replay(setup, n_players, resolve_bots("louis-xiv", bots.split(",")), seed, index).splitlines()


def ability_row(seat, ability, detail):
    return np.array([E.ABILITY_USED, seat, ability, detail, 0, 0, 0, 0])


def test_s6_db_oncefirst_is_logged_in_words(setup):
    names = mission_names(setup.data)
    assert describe(ability_row(2, C.DB_ONCEFIRST, 1), names) == (
        "  seat 3 uses DB-ONCEFIRST: tied for most markers on courtier 2, becomes its sole top holder")
    lines = replay_lines(setup, ONCEFIRST_GAME)
    assert "  seat 3 uses DB-ONCEFIRST: tied for most markers on courtier 2, becomes its sole top holder" in lines


@pytest.mark.parametrize("game", GAMES[:2], ids=["oncefirst", "endplace"])
def test_s6_no_ability_line_prints_a_raw_number(setup, game):
    import re
    used = [line for line in replay_lines(setup, game) if " uses " in line]
    assert used and not [line for line in used if re.search(r"uses [A-Z-]+\d* \(", line)], used


def test_s6_db_endplace_without_a_marker_left_says_so(setup):
    """§4.2 step 3 / §6 DB-ENDPLACE: with no own marker in either supply nothing is placed."""
    names = mission_names(setup.data)
    row = np.array([E.END_PLACEMENT, 0, 8, 0, 0, 0, 0, 0])
    assert describe(row, names) == "  seat 1 (DB-ENDPLACE) has no own marker left to put on courtier 9"
    row[3] = 1
    assert describe(row, names) == "  seat 1 (DB-ENDPLACE) puts 1 marker on courtier 9"
    lines = replay_lines(setup, ENDPLACE_GAME)
    assert "  seat 1 (DB-ENDPLACE) has no own marker left to put on courtier 9" in lines
    assert not [line for line in lines if "puts 0 marker" in line]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"{game[0]}p-seed{game[2]}-game{game[3]}")
def test_s4_1_influence_and_intrigue_hands_are_logged(setup, game):
    """Every influence card played (§4.2) and intrigue card played (§4.3 step 2) is in its
    player's hand as the log shows it: the hand drawn each round (§4.1 step 3), the cards drawn
    since (B-CARDSWAP, Mazarin's gift) and the intrigue cards obtained (three-player
    compensation, DB-INTRIGUE, Louvois's gift). At the reshuffle (§4.2 step 4) at most one
    card is left in each hand."""
    rows, _ = traced(setup, game)
    influence = np.zeros((4, C.N_INFLUENCE_KINDS), int)
    intrigue = np.zeros((4, C.N_COURTIERS), int)
    played = {"influence": 0, "intrigue": 0}
    for code, a, b, c, d, e, f, g in rows:
        if code == E.INFLUENCE_DRAWN:
            influence[a] = 0
            drawn_for, expected = a, b
        elif code == E.INFLUENCE_HAND:
            assert a == drawn_for
            influence[a, b] += c
            expected -= c
        elif code in (E.PLACE, E.RETRIEVE):
            assert expected == 0                               # the whole hand was logged
            influence[a, b] -= 1
            assert influence[a, b] >= 0, (code, a, b)
            played["influence"] += 1
        elif code == E.CARD_SWAP:
            influence[a, b] -= 1
            assert influence[a, b] >= 0
            if c >= 0:
                influence[a, c] += 1
        elif code == E.RESHUFFLE:
            assert (influence.sum(axis=1) <= 1).all()
            influence[:] = 0
        elif code == E.GIFT_CARD:
            if d >= 0:
                (influence if c == 0 else intrigue)[a, d] += 1
        elif code == E.COMPENSATION_INTRIGUE or (code == E.ABILITY_USED and b == C.DB_INTRIGUE):
            card = b if code == E.COMPENSATION_INTRIGUE else c
            if card >= 0:
                intrigue[a, card] += 1
        elif code == E.ABILITY_USED and b == C.DB_CARDFORMARKER and c >= 0:
            influence[a, c] += 1
        elif code == E.INTRIGUE_PLAYED:
            intrigue[a, b] -= 1
            assert intrigue[a, b] >= 0, (a, b)
            played["intrigue"] += 1
    assert played["influence"] > 0


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"{game[0]}p-seed{game[2]}-game{game[3]}")
def test_s3_start_missions_are_logged(setup, game):
    """§3 step 8: each player's start missions; with the draws (§4.5 step 2) and swaps (LB-MISSIONSWAP)
    already logged, every mission card played was in its player's hand."""
    rows, _ = traced(setup, game)
    n_players = game[0]
    per_seat = setup.data.numbers[START_LIGHT_MISSIONS] + setup.data.numbers[START_BLUE_MISSIONS]
    dealt = [row for row in rows if row[0] == E.MISSION_DEALT]
    assert sorted(row[1] for row in dealt) == sorted(list(range(n_players)) * per_seat)
    hands = {seat: set() for seat in range(n_players)}
    for code, a, b, c, d, e, f, g in rows:
        if code in (E.MISSION_DEALT, E.MISSION_DRAWN):
            card = b if code == E.MISSION_DEALT else c
            if card >= 0:
                hands[a].add(card)
        elif code == E.MISSION_SWAP:
            hands[a] -= {b, c}
        elif code == E.MISSION_PLAYED:
            assert b in hands[a], (a, b)
            hands[a].remove(b)
    lines = replay_lines(setup, game)
    assert lines[1].startswith("Setup: seat 1 is dealt the start missions ")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"{game[0]}p-seed{game[2]}-game{game[3]}")
def test_s7_2_coat_majorities_follow_the_logged_coat_kinds(setup, game):
    """Every coat of arms' kind is logged when drawn (§5 gifts, B-COAT, the token cap, §7.1
    conversions, §7.2 bonuses); the coats held before §7.2 are their sum, each kind's bonus goes
    to the players with the most of it (at least one; all kinds compared first, Q16), and the
    final coats are every coat drawn."""
    rows, _ = traced(setup, game)
    n_players, n_kinds = game[0], int(setup.data.numbers[1])
    drawn = np.zeros((4, n_kinds), int)
    held = None
    for code, a, b, c, d, e, f, g in rows:
        if code == E.COAT_DRAWN:
            drawn[a, b] += 1
        elif code == E.COATS_HELD:
            if held is None:
                held = np.zeros((4, n_kinds), int)
                assert (drawn >= 0).all()
                before_majorities = drawn.copy()
            held[a, b] = c
        elif code == E.MAJORITY_BONUS:
            most = held[:n_players, a].max()
            assert most > 0
            assert b == sum(1 << seat for seat in range(n_players) if held[seat, a] == most)
        elif code == E.FINAL_SCORE:
            assert c == drawn[a].sum()
    assert np.array_equal(held, before_majorities)
    bonus_kinds = {row[1] for row in rows if row[0] == E.MAJORITY_BONUS}
    assert bonus_kinds == {kind for kind in range(n_kinds) if held[:n_players, kind].max() > 0}
