"""Rule invariants of Louis XIV checked after every phase (used by the property tests).

``conservation_violations`` returns the names of the invariants a state breaks (empty when all
hold): markers, tokens, coats, mission cards and intrigue cards are all accounted for.
``play_phase_by_phase`` plays one game as the kernel's game loop does (kernel.play_rounds) and
checks them after setup and after every phase, with the invariants of single phases (the
imaginary player's markers go home in the evaluation, the token cap after the missions)."""
import numpy as np

from sim.louis_xiv import constants as C
from sim.louis_xiv import tables
from sim.louis_xiv.decisions import new_move_buffer, new_option_buffer
from sim.louis_xiv.evaluation import evaluation_phase
from sim.louis_xiv.influence import influence_phase
from sim.louis_xiv.missions import missions_phase
from sim.louis_xiv.resources import resources_phase
from sim.louis_xiv.scoring import end_of_game, record_standing
from sim.louis_xiv.setup import setup_game
from sim.louis_xiv.state import EXHAUSTED_COATS, EXHAUSTED_TOKENS, INTRIGUE_COUNT, N_PLAYERS, ROUND, START_SEAT, new_state

MARKERS_PER_PLAYER = 16
IMAGINARY_MARKERS = 8      # the imaginary player's markers in a 2-player game (§8)
TOKENS = 34
COATS = 60
MISSION_CARDS = 40
INTRIGUE_CARDS = 12


def conservation_violations(state, n_players) -> list[str]:
    """The conservation invariants ``state`` breaks, by name."""
    broken = []
    for player in range(n_players):
        if state.own_supply[player] + state.general_supply[player] + state.markers[:, player].sum() != MARKERS_PER_PLAYER:
            broken.append(f"markers of seat {player} not conserved")
        if state.own_supply[player] < 0 or state.general_supply[player] < 0:
            broken.append(f"negative marker supply of seat {player}")
        if state.gold[player] < 0:
            broken.append(f"negative gold of seat {player}")
    if n_players == 2:
        if state.own_supply[C.IMAGINARY] + state.markers[:, C.IMAGINARY].sum() != IMAGINARY_MARKERS:
            broken.append("imaginary player's markers not conserved")
        if state.general_supply[C.IMAGINARY] != 0:
            broken.append("imaginary player's markers in a general supply")
    if (state.markers[:, n_players:C.MAX_PLAYERS] != 0).any():
        broken.append("markers of an absent seat")
    if state.tokens.sum() + state.token_pile.sum() != TOKENS + state.game[EXHAUSTED_TOKENS]:
        broken.append("tokens not conserved")
    if (state.tokens < 0).any() or (state.token_pile < 0).any():
        broken.append("negative token count")
    if state.coats.sum() + state.coat_pile.sum() != COATS + state.game[EXHAUSTED_COATS]:
        broken.append("coats not conserved")
    if (state.coat_pile < 0).any():
        broken.append("negative coat pile")
    if not mission_cards_each_in_one_place(state):
        broken.append("a mission card in no place or in two")
    if state.intrigue_hand.sum() + state.game[INTRIGUE_COUNT] != INTRIGUE_CARDS:
        broken.append("intrigue cards not conserved")
    return broken


def mission_cards_each_in_one_place(state) -> bool:
    """Each mission card is in exactly one place: a hand, played, or a deck."""
    where = state.mission_hand.sum(axis=0)[:MISSION_CARDS] + state.mission_played.sum(axis=0)[:MISSION_CARDS]
    for colour in range(C.N_MISSION_COLOURS):
        deck = state.mission_deck[colour]
        for i in range(state.mission_deck_count[colour]):
            where[deck[(state.mission_deck_head[colour] + i) % deck.shape[0]]] += 1
    return bool((where == 1).all())


def play_phase_by_phase(setup, n_players, families, params, seed, game_index):
    """The kernel's game loop (kernel.play_rounds) with the invariants checked after setup and
    after every phase; returns (final state, scores, courtier rows, violations), each violation
    "<when>: <invariant>"."""
    data, rules = setup.data, setup.rules
    state = new_state(data)
    moves = new_move_buffer()
    options = new_option_buffer()
    rows = np.zeros((4 * C.N_COURTIERS, len(tables.COURTIER_COLUMNS)), dtype=np.int32)
    violations = []

    def check(when, extra=()):
        violations.extend(f"{when}: {name}" for name in [*conservation_violations(state, n_players), *extra])

    setup_game(state, data, rules, n_players, seed, game_index, 0)
    check("setup")
    for round_number in range(1, 5):
        state.game[ROUND] = round_number
        resources_phase(state, data, rules, families, params)
        check(f"round {round_number} resources")
        influence_phase(state, data, rules, families, params, moves)
        check(f"round {round_number} influence")
        evaluation_phase(state, data, rules, families, params, rows, (round_number - 1) * C.N_COURTIERS)
        imaginary_home = state.markers[:, C.IMAGINARY].sum() == 0
        check(f"round {round_number} evaluation", () if imaginary_home else ("imaginary player's markers left out",))
        missions_phase(state, data, rules, families, params, options)
        token_cap = (state.tokens[:n_players].sum(axis=1) <= 1).all()
        check(f"round {round_number} missions", () if token_cap else ("token cap exceeded",))
        record_standing(state, data, round_number)
        if round_number < 4:
            state.game[START_SEAT] = (state.game[START_SEAT] + 1) % state.game[N_PLAYERS]
    scores = np.zeros(C.MAX_PLAYERS, dtype=np.int64)
    end_of_game(state, data, rules, scores)
    check("end of game")
    return state, scores, rows, violations
