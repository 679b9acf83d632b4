"""Louis XIV game state: a namedtuple of small numpy arrays (state is data).

``copy_state`` copies every array, so a search bot can play a position out from a copy
(strategies/louis_xiv/search.py).
Player index == seat index (seat 0 is the first start player unless the start player is
drawn at random); the kernel never needs to know which bot sits where.

Visibility (rules Q21): public are gold, supplies, markers on courtiers, courtier sides,
Louis XIV's courtier, played missions, tokens, and the *numbers* of coats and cards each player
holds. Private to their owner: ``influence_hand``, ``mission_hand``, ``intrigue_hand``,
``coats`` (kinds), deck orders, the unused gold cards. Bot decision functions read only the
public arrays and their own row of the private ones.
"""
import numpy as np

from sim.core.kernels import game_kernel, inline_game_kernel, kernel
from sim.core.random_streams import new_streams
from sim.core.records import construct_with, define_array_record

from sim.louis_xiv import constants as C
from sim.louis_xiv.data import POINTS_PER_COAT, POINTS_PER_MISSION
from sim.louis_xiv.decisions import MOVE_CAPACITY, MOVE_WIDTH

# Scalars of the game, in ``state.game``
GAME_FIELDS = (
    "n_players", "round", "start_seat", "first_start_seat", "louis_courtier", "influence_position",
    "intrigue_head", "intrigue_count", "imaginary_active", "exhausted_tokens", "exhausted_coats",
    "exhausted_gold", "trace_on", "trace_length", "game_index",
)
(N_PLAYERS, ROUND, START_SEAT, FIRST_START_SEAT, LOUIS_COURTIER, INFLUENCE_POSITION,
 INTRIGUE_HEAD, INTRIGUE_COUNT, IMAGINARY_ACTIVE, EXHAUSTED_TOKENS, EXHAUSTED_COATS,
 EXHAUSTED_GOLD, TRACE_ON, TRACE_LENGTH, GAME_INDEX) = range(len(GAME_FIELDS))

# Per-seat counters that analysis needs, in ``state.stats[seat, ...]``
STAT_FIELDS = (
    "intrigue_obtained", "intrigue_played", "bribes", "bribe_gold", "crowns_from_louis",
    "gifts_received", "coats_from_gifts", "coats_from_missions", "coats_from_token_cap",
    "coats_from_conversion", "coats_from_majority", "gold_spent_skip", "gold_spent_tokenswap",
    "influence_turns", "place_turns", "retrieve_turns", "markers_placed", "markers_retrieved",
    "tokens_gained", "crowns_as_wildcard",
    # issue 41: the takes of options restricted play switches off that no column counted
    "income_two_gold", "income_gold_and_marker", "income_two_markers", "db_markers3_markers",
    "maintenon_markers_placed",
)
(INTRIGUE_OBTAINED, INTRIGUE_PLAYED, BRIBES, BRIBE_GOLD, CROWNS_FROM_LOUIS,
 GIFTS_RECEIVED, COATS_FROM_GIFTS, COATS_FROM_MISSIONS, COATS_FROM_TOKEN_CAP,
 COATS_FROM_CONVERSION, COATS_FROM_MAJORITY, GOLD_SPENT_SKIP, GOLD_SPENT_TOKENSWAP,
 INFLUENCE_TURNS, PLACE_TURNS, RETRIEVE_TURNS, MARKERS_PLACED, MARKERS_RETRIEVED,
 TOKENS_GAINED, CROWNS_AS_WILDCARD,
 INCOME_TWO_GOLD_TAKEN, INCOME_GOLD_AND_MARKER_TAKEN, INCOME_TWO_MARKERS_TAKEN, DB_MARKERS3_MARKERS,
 MAINTENON_MARKERS_PLACED) = range(len(STAT_FIELDS))
N_STATS = len(STAT_FIELDS)

# A counterfactual request and what it found, in ``state.counterfactual`` (sim/louis_xiv/
# counterfactual.py); the own move of the overridden turn follows these fields
COUNTERFACTUAL_FIELDS = ("turn", "alternative", "acting_seat", "available", "options")
(COUNTERFACTUAL_TURN, COUNTERFACTUAL_ALTERNATIVE, COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_AVAILABLE,
 COUNTERFACTUAL_OPTIONS) = range(len(COUNTERFACTUAL_FIELDS))
COUNTERFACTUAL_OWN_MOVE = len(COUNTERFACTUAL_FIELDS)

TRACE_WIDTH = 8           # event code + up to 7 arguments
MAX_MISSIONS = 64         # capacity of mission arrays (the game has 40 cards)

STATE_FIELDS = (
    "game",               # int64[len(GAME_FIELDS)]
    "side",               # int64[12]: 0 = side A (red number), 1 = side B
    "markers",            # int64[12, 5]: markers on each courtier per colour (col 4: imaginary)
    "own_supply",         # int64[5]: per colour (col 4: imaginary player's pool)
    "general_supply",     # int64[5]
    "gold",               # int64[4]
    "tokens",             # int64[4, 5]: mission tokens per player
    "token_pile",         # int64[5]
    "coats",              # int64[4, coat kinds]: private kinds, public total
    "coat_pile",          # int64[coat kinds]
    "gold_sequence",      # int64[gold cards used]: the gold cards of this game, in order
    "influence_deck",     # int64[n influence cards]: card kinds, drawn from influence_position on
    "influence_hand",     # int64[4, 13]: cards per kind (private)
    "intrigue_deck",      # int64[n intrigue cards]: ring buffer (played cards go under)
    "intrigue_hand",      # int64[4, 12]: cards per courtier (private)
    "intrigue_waiting",   # int64[4, 12]: of those, gained in this evaluation phase and not yet
                          # playable in it (rule switch intrigue_usable_same_phase off, Q24)
    "mission_deck",       # int64[3, MAX_MISSIONS]: ring buffer per colour
    "mission_deck_head",  # int64[3]
    "mission_deck_count", # int64[3]
    "mission_hand",       # int64[4, MAX_MISSIONS]: 1 if the card is in hand (private)
    "mission_played",     # int64[4, MAX_MISSIONS]: 1 if played face up
    "ability_count",      # int64[4, N_ABILITIES]: played cards with each ability
    "uses_left",          # int64[4, N_ABILITIES]: uses left this phase
    "ability_uses",       # int64[4, N_ABILITIES]: uses over the game (analysis)
    "stats",              # int64[4, N_STATS]
    "score_after_round",  # int64[4, rounds]
    "streams",            # uint64[N_SOURCES, 2]: random streams (sim.core.random_streams)
    "trace",              # int64[capacity, TRACE_WIDTH]: event log in replay mode
    # scratch space, so that kernels do not allocate in the game loop (sim/core/kernels.py)
    "scratch_counts",     # int64[5]: markers evaluated on a courtier, per colour
    "scratch_ints",       # int64[MAX_MISSIONS]: small integer lists (legal options, chosen cards, awards, a hand)
    "scratch_needed",     # int64[5]: tokens a bot's missions need
    "scratch_gifts",      # float64[12]: what each gift is worth to a bot
    "scratch_jitter",     # float64[12]: a greedy bot's noise per courtier this turn
    "scratch_reach",      # float64[4]: bounds on what extending a placement path can add
    "scratch_gains",      # float64[12, 5]: what adding markers to each courtier is worth
    "scratch_payments",   # int64[25, 2]: the ways to pay one mission card
    "phase_gifts",        # float64[4, 12]: what each gift is worth to each greedy bot this
                          # influence phase (strategies/louis_xiv/greedy.py, prepare_gift_values)
    "phase_gains",        # float64[4, 12, 5]: a greedy bot's holding gains per courtier, kept
    "phase_markers",      # int64[4, 12, 5]: ... for these markers: columns 0, 1 hold the bot's
                          # own and the most of another colour (phase_influence_gains)
    "phase_gain_slopes",  # float64[4, 12, 5]: ... and their slopes in the lead certainty, for a
                          # bot with a late_lead_safety (the gains kept are at certainty 0)
    "search_entry",       # int64[2]: address and type tag of the compiled search, set by the engine
                          # for a chunk with a search bot, 0 otherwise (sim/core/compiled_calls.py)
    # the opt-in standings table (sim/louis_xiv/standings.py): the chunk's rows, kept outside
    # ``game`` because setup_game clears that for every game
    "standings",          # int32[tables.N_STANDING_ROWS, capacity]: the table column by column, each
                          # seat's score after the position's own columns
    "standing_values",    # float32[MAX_PLAYERS, capacity]: each row's position value of each seat
    "standing_counts",    # int64[3]: STANDINGS_ON (1: record), STANDING_ROWS (rows recorded in the
                          # chunk, counted past the capacity so that the engine can grow and rerun),
                          # LAST_ROWS_A_TURN (1: the last rows recorded were an influence turn's)
    "standing_parameters",  # float64[n]: the search bot's default parameters (position_value)
    "counterfactual",     # int64[COUNTERFACTUAL_FIELDS + MOVE_WIDTH]: a request to override the
                          # t-th influence turn of the game (turn 0: none) and what it found
    "counterfactual_scores",  # float64[MOVE_CAPACITY]: the greedy's score of each listed turn there
)
STANDINGS_ON, STANDING_ROWS, LAST_ROWS_A_TURN = range(3)
LouisState, LouisStateArrays = define_array_record("LouisState", STATE_FIELDS, globals())


@kernel
def new_louis_state_record(*arrays):
    """A LouisState from its arrays, compiled once and cached (records.construct_with: why)."""
    return LouisState(*arrays)


construct_with(LouisState, new_louis_state_record)


def new_state(data, trace_capacity=1, standings=None):
    """Allocate the arrays of one game (filled by ``setup.setup_game``). ``standings``: the
    (rows, values, parameters) arrays of a chunk that records the standings table, else None
    (recording off, one unused row)."""
    n_coat_kinds = int(data.numbers[1])
    n_rounds = int(data.numbers[0])
    n_ints = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
    return LouisState.from_arrays(LouisStateArrays(
        game=n_ints(len(GAME_FIELDS)), side=n_ints(C.N_COURTIERS),
        markers=n_ints(C.N_COURTIERS, C.N_COLOURS), own_supply=n_ints(C.N_COLOURS),
        general_supply=n_ints(C.N_COLOURS), gold=n_ints(C.MAX_PLAYERS),
        tokens=n_ints(C.MAX_PLAYERS, C.N_TOKENS), token_pile=n_ints(C.N_TOKENS),
        coats=n_ints(C.MAX_PLAYERS, n_coat_kinds), coat_pile=n_ints(n_coat_kinds),
        gold_sequence=n_ints(len(data.gold_card_gold)),
        influence_deck=n_ints(len(data.influence_cards)),
        influence_hand=n_ints(C.MAX_PLAYERS, C.N_INFLUENCE_KINDS),
        intrigue_deck=n_ints(max(1, len(data.intrigue_cards))),
        intrigue_hand=n_ints(C.MAX_PLAYERS, C.N_COURTIERS),
        intrigue_waiting=n_ints(C.MAX_PLAYERS, C.N_COURTIERS),
        mission_deck=n_ints(C.N_MISSION_COLOURS, MAX_MISSIONS),
        mission_deck_head=n_ints(C.N_MISSION_COLOURS), mission_deck_count=n_ints(C.N_MISSION_COLOURS),
        mission_hand=n_ints(C.MAX_PLAYERS, MAX_MISSIONS), mission_played=n_ints(C.MAX_PLAYERS, MAX_MISSIONS),
        ability_count=n_ints(C.MAX_PLAYERS, C.N_ABILITIES), uses_left=n_ints(C.MAX_PLAYERS, C.N_ABILITIES),
        ability_uses=n_ints(C.MAX_PLAYERS, C.N_ABILITIES),
        stats=n_ints(C.MAX_PLAYERS, N_STATS), score_after_round=n_ints(C.MAX_PLAYERS, n_rounds),
        streams=new_streams(C.N_SOURCES),
        trace=n_ints(max(1, trace_capacity), TRACE_WIDTH),
        scratch_counts=n_ints(C.N_COLOURS), scratch_ints=n_ints(max(32, MAX_MISSIONS)), scratch_needed=n_ints(C.N_TOKENS),
        scratch_gifts=np.zeros(C.N_COURTIERS), scratch_jitter=np.zeros(C.N_COURTIERS),
        scratch_reach=np.zeros(4), scratch_gains=np.zeros((C.N_COURTIERS, 5)),
        scratch_payments=n_ints(C.N_TOKENS * C.N_TOKENS, 2),
        phase_gifts=np.zeros((C.MAX_PLAYERS, C.N_COURTIERS)),
        phase_gains=np.zeros((C.MAX_PLAYERS, C.N_COURTIERS, 5)),
        phase_markers=n_ints(C.MAX_PLAYERS, C.N_COURTIERS, C.N_COLOURS),
        phase_gain_slopes=np.zeros((C.MAX_PLAYERS, C.N_COURTIERS, 5)),
        search_entry=n_ints(2),
        **standing_arrays(standings),
        counterfactual=n_ints(COUNTERFACTUAL_OWN_MOVE + MOVE_WIDTH), counterfactual_scores=np.zeros(MOVE_CAPACITY),
    ))


def standing_arrays(standings):
    """The standings fields of a new state: recording on with ``standings`` (rows, values,
    parameters), off (one unused row) without."""
    if standings is None:
        return dict(standings=np.zeros((1, 1), np.int32), standing_values=np.zeros((1, 1), np.float32),
                    standing_counts=np.zeros(3, np.int64), standing_parameters=np.zeros(1))
    rows, values, parameters = standings
    return dict(standings=rows, standing_values=values, standing_counts=np.array([1, 0, 0], np.int64),
                standing_parameters=parameters)


@kernel
def copy_state(state):
    """An independent copy of every array (for search bots), except the standings: a copy
    records none (a rollout must not write the game's table), so it gets one unused row."""
    return LouisState(
        state.game.copy(), state.side.copy(), state.markers.copy(), state.own_supply.copy(),
        state.general_supply.copy(), state.gold.copy(), state.tokens.copy(), state.token_pile.copy(),
        state.coats.copy(), state.coat_pile.copy(), state.gold_sequence.copy(),
        state.influence_deck.copy(), state.influence_hand.copy(), state.intrigue_deck.copy(),
        state.intrigue_hand.copy(), state.intrigue_waiting.copy(), state.mission_deck.copy(), state.mission_deck_head.copy(),
        state.mission_deck_count.copy(), state.mission_hand.copy(), state.mission_played.copy(),
        state.ability_count.copy(), state.uses_left.copy(), state.ability_uses.copy(), state.stats.copy(),
        state.score_after_round.copy(), state.streams.copy(), state.trace.copy(),
        state.scratch_counts.copy(), state.scratch_ints.copy(), state.scratch_needed.copy(),
        state.scratch_gifts.copy(), state.scratch_jitter.copy(), state.scratch_reach.copy(),
        state.scratch_gains.copy(), state.scratch_payments.copy(),
        state.phase_gifts.copy(), state.phase_gains.copy(), state.phase_markers.copy(),
        state.phase_gain_slopes.copy(), state.search_entry.copy(),
        state.standings[:, :1].copy(), state.standing_values[:, :1].copy(), np.zeros(3, np.int64),
        state.standing_parameters.copy(), state.counterfactual.copy(), state.counterfactual_scores.copy(),
    )


@inline_game_kernel  # called everywhere; inlined so replay-off costs one compare
def trace_event(state, code, a, b, c, d, e, f, g):
    """Append one event to the replay log (a no-op outside replay mode)."""
    if state.game[TRACE_ON] == 0:
        return
    row = state.game[TRACE_LENGTH]
    if row < state.trace.shape[0]:
        state.trace[row, 0] = code
        state.trace[row, 1] = a
        state.trace[row, 2] = b
        state.trace[row, 3] = c
        state.trace[row, 4] = d
        state.trace[row, 5] = e
        state.trace[row, 6] = f
        state.trace[row, 7] = g
    state.game[TRACE_LENGTH] = row + 1


@inline_game_kernel
def seat_order(state, position):
    """The seat ``position`` places (0 .. players - 1) clockwise from this round's start player.
    (A subtraction picked without a branch instead of a modulo: an integer division costs ~25
    cycles, and the rules ask for seats in order everywhere.)"""
    seat = state.game[START_SEAT] + position
    n_players = state.game[N_PLAYERS]
    return seat - n_players if seat >= n_players else seat


@game_kernel
def influence_turns_played(state):
    """Influence turns played so far in the game, every seat's together (§4.2 step 2): the
    standings' ``turn`` and the turn a counterfactual replay overrides count them alike."""
    played = 0
    for player in range(state.game[N_PLAYERS]):
        played += state.stats[player, INFLUENCE_TURNS]
    return played


@inline_game_kernel
def hand_size(state, player):
    """Influence cards in hand (a loop of constant length: unrolled)."""
    hand = state.influence_hand
    total = 0
    for kind in range(C.N_INFLUENCE_KINDS):
        total += hand[player, kind]
    return total


@inline_game_kernel
def missions_completed(state, player):
    return state.mission_played[player].sum()


@inline_game_kernel
def provisional_score(state, data, player):
    """Coats and completed missions so far (the standing recorded after each round)."""
    return provisional_score_given(state, data, player, missions_completed(state, player))


@inline_game_kernel
def provisional_score_given(state, data, player, missions):
    """``provisional_score`` of a player with ``missions`` completed missions (counted by the
    caller, who needs them again: the standings table's position value)."""
    return state.coats[player].sum() * data.numbers[POINTS_PER_COAT] + missions * data.numbers[POINTS_PER_MISSION]
