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
    assert log_lines(state, setup) == [
        f"  seat 1 returns 2 tokens over the limit and takes as many coats; keeps 1 {C.TOKEN_NAMES[kept]}"]


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
