"""Trace events (integer codes, decoded by replay.py) and the per-chunk context.

A traced event is 4 int64 values: (code, a, b, c). Tracing is on when ``context.counters[K_TRACE_ON]``
is 1; the kernel never builds strings. ``EVENT_FORMATS`` (Python) says how to print each code.
The chunk context ``Ctx`` is an array record (sim/core/records.py), passed to
every kernel as one pointer.
"""
from sim.core.kernels import game_kernel, kernel
from sim.core.records import construct_with, define_array_record

(EV_GAME_START, EV_ROUND_START, EV_TURN, EV_TAKE_DISPLAY, EV_TAKE_DECK, EV_REFRESH, EV_RAISE,
 EV_COURTESAN, EV_HEXAGON, EV_SQUARE, EV_LARGE, EV_BTAKE_DISPLAY, EV_BTAKE_DECK, EV_BPLAY,
 EV_BAG, EV_KILL, EV_LEAVE_EMPTY, EV_DISCARD, EV_BDISCARD, EV_REVOLUTION, EV_COUNTRY,
 EV_MAJORITY, EV_GAME_END, EV_BRESHUFFLE, EV_SCORE, EV_NO_CARD, EV_TAKE_SET_ASIDE,
 EV_STARTING_POINTS, EV_DEAD_RETURN, EV_DISPLAYS) = range(30)

# Python-side formats: (name, text with {p} seat, {a}, {b}, {c} replaced by decoded values)
EVENT_NAMES = ("game_start", "round_start", "turn", "take_display", "take_deck", "refresh",
               "raise", "courtesan", "hexagon", "square", "large", "btake_display", "btake_deck",
               "bplay", "bag", "kill", "leave_empty", "discard", "bdiscard", "revolution",
               "country", "majority", "game_end", "breshuffle", "score", "no_noble_card",
               "take_set_aside", "starting_points", "dead_tiles_return", "displays")

# counters of the chunk context. K_FORCED (row + 1, 0 = none) makes the next bot decision take that
# row whatever the bot: a search bot replays its candidate decision on a copy of the state with it.
# K_SEARCH_FN / K_SEARCH_TAG: the address of the compiled search (search.search_choose) and the tag
# of the types it was compiled for (sim/core/compiled_calls.py); set by engine.make_ctx when a search
# bot plays, 0 otherwise (a rollout's context: its seats are all greedy).
# K_STANDINGS_ON: 1 if the chunk records the opt-in standings table (0 in a rollout's context);
# K_STANDING_N: its rows recorded, counted past the buffer's end (the engine then grows it and reruns).
K_BETRAYAL_N, K_TRACE_N, K_OVERFLOW, K_TRACE_ON, K_FORCED, K_SEARCH_FN, K_SEARCH_TAG, K_STANDINGS_ON, K_STANDING_N = range(9)
N_COUNTERS = 9
OVERFLOW_BETRAYALS, OVERFLOW_TRACE, OVERFLOW_MOVES = 1, 2, 4

# A counterfactual request and what it found, in ``context.counterfactual`` (sim/heads_of_state/
# counterfactual.py): the t-th turn of the game (0: none), the alternative, then the seat that acted
# there, whether the alternative existed and differed from the own choice, and the options listed.
(COUNTERFACTUAL_TURN, COUNTERFACTUAL_ALTERNATIVE, COUNTERFACTUAL_ACTING_SEAT, COUNTERFACTUAL_AVAILABLE,
 COUNTERFACTUAL_OPTIONS) = range(5)
COUNTERFACTUAL_WIDTH = 5

CTX_FIELDS = (
    "rules",       # float64[N_RULES] rule switches (data.R_*)
    "bot_family",  # int64[n_players]
    "bot_params",  # float64[n_players, n_params]
    "moves",       # int64[MAX_MOVES, 4] legal-decision buffer shared by rules and bots
    "games", "seats", "betrayals", "country",   # output blocks (tables.py columns)
    "counters",    # int64[N_COUNTERS]: betrayal rows used, trace ints used, overflow flags, trace on, forced row,
                   # search function address and type tag
    "trace",       # int64[capacity] event codes
    "work",        # int64[N_WORK_ROWS, WORK_WIDTH] scratch rows (kernels do not allocate)
    "fwork",       # float64[WORK_WIDTH] scratch
    "standings",   # int32[tables.N_ST, capacity] the opt-in standings table column by column, each seat's
                   # score after the position's own columns (standings.py)
    "standing_values",      # float32[MAX_PLAYERS, capacity] each row's position value of each seat
    "standing_parameters",  # float64[n_params] the search bot's default parameters (position_values)
    "counterfactual",  # int64[COUNTERFACTUAL_WIDTH]: a counterfactual request (COUNTERFACTUAL_*; zeros in a
                       # run and in a rollout)
)
Ctx, CtxArrays = define_array_record("Ctx", CTX_FIELDS, globals())


@kernel
def new_context_record(*arrays):
    """A Ctx from its arrays, compiled once and cached (records.construct_with: why)."""
    return Ctx(*arrays)


construct_with(Ctx, new_context_record)


# scratch rows of Ctx.work (W_PLAN_*: the Q8 deferred refill plan search, refill_plan.py)
(W_INFLUENCE, W_TOP_RANK, W_BEST_HEX, W_HEX_KEY, W_ORDER, W_COUNTS, W_COVERED, W_OPEN_SQUARE,
 W_PER_COUNTRY, W_PLAN_MASK, W_PLAN_OPTION, W_PLAN_HAND, W_PLAN_TILES) = range(13)
N_WORK_ROWS = 13
WORK_WIDTH = 16

MAX_MOVES = 512


# EV_DISPLAYS (character display, betrayal display, when): both displays' contents, logged only in
# trace mode (trace_displays) when the character display is dealt (round start), renewed (Option
# 1b) or refilled (end of turn), so that a referee can check every take from a display. Slot s of
# the character display is 4 bits at 4 s (card type + 1; 0 = empty), of the betrayal display 10
# bits at 10 s (betrayal type + 1; 0 = empty): display sizes are at most 12 and 6 (data.py).
DISPLAYS_DEALT, DISPLAYS_REFRESHED, DISPLAYS_REFILLED = range(3)
DISPLAY_BITS, BETRAYAL_DISPLAY_BITS = 4, 10


@game_kernel
def trace_displays(state, context, when):
    """Log both displays (EV_DISPLAYS). Callers test ``context.counters[K_TRACE_ON]`` first, so a
    production run pays one compare per call site."""
    display = 0
    for slot in range(state.display.shape[0]):
        display |= (state.display[slot] + 1) << (DISPLAY_BITS * slot)
    betrayal = 0
    for slot in range(state.bdisplay.shape[0]):
        betrayal |= (state.bdisplay[slot] + 1) << (BETRAYAL_DISPLAY_BITS * slot)
    trace(context.counters, context.trace, EV_DISPLAYS, display, betrayal, when)


@game_kernel
def trace(counters, events, code, a, b, c):
    """Append one event (code, a, b, c) when tracing; a no-op in production runs.
    Called as ``trace(context.counters, context.trace, ...)``: leaf helpers take arrays, not the whole
    context, which keeps the compiled call sites (and compile time) small."""
    if counters[K_TRACE_ON] == 0:
        return
    n = counters[K_TRACE_N]
    if n + 4 > events.shape[0]:
        counters[K_OVERFLOW] |= OVERFLOW_TRACE
        return
    events[n] = code
    events[n + 1] = a
    events[n + 2] = b
    events[n + 3] = c
    counters[K_TRACE_N] = n + 4
