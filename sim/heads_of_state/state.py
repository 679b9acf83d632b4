"""Game state of Heads of State as data: an array record (sim/core/records.py) of small int64
numpy arrays, passed to every kernel as one pointer.

Every index used by the kernels is a named constant defined here, in one place. The
structural names (ranks, countries, attributes, wild card) are checked against the YAML by
``sim.heads_of_state.data`` so that a kernel reading ``cards[p, KING]`` means what the
YAML calls ``king``.

The state is copyable with :func:`copy_state` (a search bot copies a state, random streams
included, and plays it out later). The start player is drawn at random (rules §3 step 11; seat 0
with the rule switch ``random_start_player`` off); ``scal[S_START_SEAT]`` holds it.

The rule and bot kernels are ``game_kernel`` functions (sim/core/kernels.py), compiled without
numba's reference counting: with reference counting, every field read and call costs atomic
incref/decref pairs -- measured at 78% of the run time (perf), 0.6 us per small call, when the
state was a namedtuple of ~30 arrays. They must therefore not allocate arrays: they use the scratch rows of the chunk
context (events.Ctx.work / fwork). Allocating functions (new_state, copy_state, the chunk entry
point) are ``kernel`` functions; ``new_state`` builds the record in Python.
"""
import numpy as np

from sim.core.kernels import copy_into, copy_into_2d, copy_into_3d, game_kernel, kernel
from sim.core.records import construct_with, define_array_record

# --- ranks (rules §1.2), index 0 = baron ... 6 = king -------------------------------------
RANK_NAMES = ("baron", "count", "earl", "margrave", "duke", "archduke", "king")
BARON, COUNT, EARL, MARGRAVE, DUKE, ARCHDUKE, KING = range(7)
N_RANKS = 7

# --- countries (rules §2.1) -----------------------------------------------------------------
COUNTRY_NAMES = ("GB", "FR", "ES", "DE")
GB, FR, ES, DE = range(4)
N_COUNTRIES = 4

# --- character card types (rules §1.3): attributes 0..7, the wild courtesan, the revolution card
N_ATTRIBUTES = 8
COURTESAN = 8
N_CHAR_TYPES = 9
REVOLUTION = 9          # the revolution card's code in a deck (not a character card, §1.1)

# --- betrayal card types (rules §1.5): 0 = assassin, then one type per country card in YAML order
ASSASSIN = 0

# --- region types -----------------------------------------------------------------------------
PROVINCE, CAPITAL = 0, 1

# --- score sources (seats table) ---------------------------------------------------------------
# (start_compensation: the game file's starting_points, a designer's start-player compensation;
# 0 in the printed game)
SRC_HEXAGON, SRC_COUNTRY, SRC_ALL_RANKS, SRC_ROUND_INFLUENCE, SRC_NOBLE_MAJORITY, SRC_START = range(6)
SCORE_SOURCE_NAMES = ("hexagon", "country", "all_ranks", "round_influence", "noble_card_majority",
                      "start_compensation")
N_SCORE_SOURCES = 6

# --- random sources (one stream per source of chance; sim.core.random_streams) ----------------
RNG_CHARACTER_DECK = 0   # character deck shuffles (setup, 1b set-aside, round change)
RNG_BETRAYAL_DECK = 1    # betrayal deck shuffles
RNG_ASSASSIN_BAG = 2     # assassination bag draws (§4.4 step 3)
RNG_TIEBREAK = 3         # residual influence ties (§6.4 level 4)
RNG_BOT_0 = 4            # + seat: each seat's own bot randomness
RNG_SEARCH_0 = RNG_BOT_0 + 5   # + seat: a search bot's determinizations and rollout streams
N_RNG_SOURCES = RNG_SEARCH_0 + 5
# The random start player (§3 step 11, rule switch random_start_player) is one draw at setup from
# its own source, keyed like the others but kept outside the streams array: adding a row there
# would re-key a search bot's rollouts (sim.core.determinization.rekey_streams mixes the number of
# streams in).
RNG_START_PLAYER = N_RNG_SOURCES

MAX_PLAYERS = 5
N_ROUNDS = 3

# --- per-seat counters for balance analysis (rules §8; seats table) ------------------------------
(STAT_COURTESANS, STAT_DISCARD_TURN_CHAR, STAT_DISCARD_TURN_BETRAYAL, STAT_DISCARD_ROUND_CHAR,
 STAT_DISCARD_ROUND_BETRAYAL, STAT_KILLS, STAT_TILE_STARVED,
 # issue 41: how often a seat took an option restricted play switches off (landscape inventory)
 STAT_CAPITAL_PLAYS, STAT_ASSASSINATIONS, STAT_BLIND_BETRAYAL_DRAWS, STAT_BOXES_LEFT_EMPTY_BY_CHOICE,
 STAT_COURTESANS_FOR_HELD) = range(12)
STAT_NAMES = ("courtesans_used", "discards_turn_end_character", "discards_turn_end_betrayal",
              "discards_round_change_character", "discards_round_change_betrayal", "kills",
              "tile_starved_turns", "capital_betrayal_plays", "assassination_attempts", "blind_betrayal_draws",
              "boxes_left_empty_by_choice", "courtesans_for_held_attributes")
N_STATS = 12

# --- option codes / steps at which the revolution card can appear (games table) -----------------
OPT_FIRST_TURN, OPT_1A, OPT_1B, OPT_2 = range(4)
OPTION_NAMES = ("first_turn", "option_1a", "option_1b", "option_2")
STEP_NONE, STEP_FIRST_TURN_TAKE, STEP_1A_TAKE, STEP_1B_TAKE, STEP_2_TAKE, STEP_END_REFILL = range(6)
STEP_NAMES = ("none", "first_turn_take", "option_1a_take", "option_1b_take", "option_2_take",
              "end_of_turn_refill")

# --- scalar slots of HosState.scal ---------------------------------------------------------------
# The last three record how far the active player's turn has got, so that a search bot can finish
# the turn on a copy of the state (search.py): takes still to make after the current one
# (Option 1a/1b, first turn), the Q7 take order of Option 2, and whether a vacated box was left
# empty during this turn's betrayal plays (§4.4 step 3).
# The slots from S_KEPT_KNOWN keep the parts of the position value (strategies/heads_of_state/
# position.py) that only the board and the noble cards decide, which it reads after every turn:
# per country, the seats that would take its first and second round token if the round ended now
# (residual ties to the lower seat); per rank, the §6.5 majority (most cards held, and the points
# each holder of that many scores). A country's places change only when a noble is raised or
# killed there (forget_country_places), a rank's majority only when a noble card of that rank is
# taken (forget_majority), so most turns reuse them. S_KEPT_KNOWN has a bit per part that is up to
# date (KNOWN_COUNTRY_0 + country, KNOWN_MAJORITY_0 + rank); 0 after clear_state.
(S_N_PLAYERS, S_ROUND, S_ACTIVE, S_DECK_N, S_REV_N, S_SET_ASIDE_N, S_BDECK_N, S_GAME_OVER,
 S_TURN, S_LARGE_NEXT, S_GAME_ROW, S_GAME_INDEX, S_OPTION, S_TAKES_LEFT, S_CHARACTER_FIRST,
 S_LEFT_EMPTY, S_START_SEAT, S_KEPT_KNOWN) = range(18)
S_FIRST_PLACE_0 = 18                                  # + country: the seat first if the round ended now, or -1
S_SECOND_PLACE_0 = S_FIRST_PLACE_0 + N_COUNTRIES      # + country: the seat second, or -1
S_MAJORITY_MOST_0 = S_SECOND_PLACE_0 + N_COUNTRIES    # + rank: most noble cards held (0: nobody scores)
S_MAJORITY_POINTS_0 = S_MAJORITY_MOST_0 + N_RANKS     # + rank: the points each holder of that many scores
N_SCAL = S_MAJORITY_POINTS_0 + N_RANKS
KNOWN_COUNTRY_0 = 0                                   # + country: bits of S_KEPT_KNOWN
KNOWN_MAJORITY_0 = N_COUNTRIES                        # + rank

STATE_FIELDS = (
    "scal",          # int64[N_SCAL] scalars above
    "deck",          # regular character deck, top = deck[scal[S_DECK_N] - 1]
    "rev",           # revolution deck (10 cards + REVOLUTION), top = rev[scal[S_REV_N] - 1]
    "display",       # [display_size] card type or -1
    "set_aside",     # Option 1b set-aside pile (§4.2)
    "discard",       # [N_CHAR_TYPES] character discard pile as counts (order never matters)
    "hand",          # [MAX_PLAYERS, N_CHAR_TYPES] counts (hidden)
    "bdeck",         # betrayal deck, top = bdeck[scal[S_BDECK_N] - 1]
    "bdisplay",      # [betrayal_display_size] betrayal type or -1
    "bdiscard",      # [n_btypes] counts
    "bhand",         # [MAX_PLAYERS, n_btypes] counts (hidden)
    "box_owner",     # [n_boxes] seat or -1
    "box_rank",      # [n_boxes] rank of the living noble or -1
    "dead",          # [MAX_PLAYERS, n_regions, N_RANKS] dead tiles on hexagons (§4.7)
    "hex_owner",     # [n_regions] seat that took the hexagon token or -1
    "tiles",         # [MAX_PLAYERS, N_RANKS] tiles in supply
    "cards",         # [MAX_PLAYERS, N_RANKS] noble cards held
    "cards_left",    # [N_RANKS] noble cards left in the piles
    "raised",        # [MAX_PLAYERS, N_RANKS] nobles raised (ever, Q17)
    "lost",          # [MAX_PLAYERS] nobles killed
    "square_owner",  # [MAX_PLAYERS, N_COUNTRIES] 0/1 square token of that country held
    "square_next",   # [N_COUNTRIES] index of the next square token (0 higher, 1 lower, 2 none)
    "large_owner",   # [MAX_PLAYERS] points of the large round token held (0 none)
    "score",         # [MAX_PLAYERS]
    "score_src",     # [MAX_PLAYERS, N_SCORE_SOURCES]
    "score_round",   # [MAX_PLAYERS, N_ROUNDS] score after each round-end scoring
    "vacated",       # [n_boxes] 1 = vacated by a kill this turn (§4.4 step 3)
    "targeted",      # [n_boxes] 1 = targeted this turn (§4.4 step 2.1)
    "first_done",    # [MAX_PLAYERS] 1 = first turn played (§4.1)
    "turns_round",   # [N_ROUNDS] turns started in each round
    "round_step",    # [N_ROUNDS] STEP_* at which the revolution card appeared
    "options",       # [MAX_PLAYERS, 4] turns played per OPT_* (first turn, 1a, 1b, 2)
    "stats",         # [MAX_PLAYERS, N_STATS] STAT_* counters
    "rev_position",  # [N_ROUNDS] position (1..11) of the revolution card in its deck
    "streams",       # uint64[N_RNG_SOURCES, 2] counter-based random streams
)
HosState, HosStateArrays = define_array_record("HosState", STATE_FIELDS, globals())


@kernel
def new_hos_state_record(*arrays):
    """A HosState from its arrays, compiled once and cached (records.construct_with: why)."""
    return HosState(*arrays)


construct_with(HosState, new_hos_state_record)


def new_state(data):
    """Allocate a state sized from the kernel data ``data`` (sim.heads_of_state.data.HosData);
    ``kernel.setup_game`` fills it for each game."""
    n_regions = data.region_country.shape[0]
    n_boxes = data.box_region.shape[0]
    n_btypes = data.btype_mask.shape[0]
    max_deck = data.deck_cards.shape[1] + 1
    i64 = np.int64
    return HosState.from_arrays(HosStateArrays(
        np.zeros(N_SCAL, i64), np.zeros(max_deck, i64), np.zeros(max_deck, i64),
        np.full(data.display_size, -1, i64),
        np.full(data.display_size, -1, i64), np.zeros(N_CHAR_TYPES, i64),
        np.zeros((MAX_PLAYERS, N_CHAR_TYPES), i64),
        np.zeros(data.bdeck_init.shape[0], i64), np.full(data.bdisplay_size, -1, i64),
        np.zeros(n_btypes, i64), np.zeros((MAX_PLAYERS, n_btypes), i64),
        np.full(n_boxes, -1, i64), np.full(n_boxes, -1, i64),
        np.zeros((MAX_PLAYERS, n_regions, N_RANKS), i64), np.full(n_regions, -1, i64),
        np.zeros((MAX_PLAYERS, N_RANKS), i64), np.zeros((MAX_PLAYERS, N_RANKS), i64),
        np.zeros(N_RANKS, i64), np.zeros((MAX_PLAYERS, N_RANKS), i64), np.zeros(MAX_PLAYERS, i64),
        np.zeros((MAX_PLAYERS, N_COUNTRIES), i64), np.zeros(N_COUNTRIES, i64),
        np.zeros(MAX_PLAYERS, i64), np.zeros(MAX_PLAYERS, i64),
        np.zeros((MAX_PLAYERS, N_SCORE_SOURCES), i64), np.zeros((MAX_PLAYERS, N_ROUNDS), i64),
        np.zeros(n_boxes, i64), np.zeros(n_boxes, i64), np.zeros(MAX_PLAYERS, i64),
        np.zeros(N_ROUNDS, i64), np.zeros(N_ROUNDS, i64), np.zeros((MAX_PLAYERS, 4), i64),
        np.zeros((MAX_PLAYERS, N_STATS), i64), np.zeros(N_ROUNDS, i64),
        np.zeros((N_RNG_SOURCES, 2), np.uint64),
    ))


@kernel
def copy_state(state):
    """A deep copy (random streams included): play it out without touching the original."""
    return HosState(
        state.scal.copy(), state.deck.copy(), state.rev.copy(), state.display.copy(), state.set_aside.copy(),
        state.discard.copy(), state.hand.copy(), state.bdeck.copy(), state.bdisplay.copy(), state.bdiscard.copy(),
        state.bhand.copy(), state.box_owner.copy(), state.box_rank.copy(), state.dead.copy(),
        state.hex_owner.copy(), state.tiles.copy(), state.cards.copy(), state.cards_left.copy(),
        state.raised.copy(), state.lost.copy(), state.square_owner.copy(), state.square_next.copy(),
        state.large_owner.copy(), state.score.copy(), state.score_src.copy(), state.score_round.copy(),
        state.vacated.copy(), state.targeted.copy(), state.first_done.copy(), state.turns_round.copy(),
        state.round_step.copy(), state.options.copy(), state.stats.copy(), state.rev_position.copy(),
        state.streams.copy(),
    )


@game_kernel
def copy_state_into(destination, source):
    """Copy ``source`` into the same-sized state ``destination`` without allocating (search
    rollouts). Element by element: whole-array assignment needs numba's reference counting,
    which game kernels do without."""
    copy_into(destination.scal, source.scal)
    copy_into(destination.deck, source.deck)
    copy_into(destination.rev, source.rev)
    copy_into(destination.display, source.display)
    copy_into(destination.set_aside, source.set_aside)
    copy_into(destination.discard, source.discard)
    copy_into_2d(destination.hand, source.hand)
    copy_into(destination.bdeck, source.bdeck)
    copy_into(destination.bdisplay, source.bdisplay)
    copy_into(destination.bdiscard, source.bdiscard)
    copy_into_2d(destination.bhand, source.bhand)
    copy_into(destination.box_owner, source.box_owner)
    copy_into(destination.box_rank, source.box_rank)
    copy_into_3d(destination.dead, source.dead)
    copy_into(destination.hex_owner, source.hex_owner)
    copy_into_2d(destination.tiles, source.tiles)
    copy_into_2d(destination.cards, source.cards)
    copy_into(destination.cards_left, source.cards_left)
    copy_into_2d(destination.raised, source.raised)
    copy_into(destination.lost, source.lost)
    copy_into_2d(destination.square_owner, source.square_owner)
    copy_into(destination.square_next, source.square_next)
    copy_into(destination.large_owner, source.large_owner)
    copy_into(destination.score, source.score)
    copy_into_2d(destination.score_src, source.score_src)
    copy_into_2d(destination.score_round, source.score_round)
    copy_into(destination.vacated, source.vacated)
    copy_into(destination.targeted, source.targeted)
    copy_into(destination.first_done, source.first_done)
    copy_into(destination.turns_round, source.turns_round)
    copy_into(destination.round_step, source.round_step)
    copy_into_2d(destination.options, source.options)
    copy_into_2d(destination.stats, source.stats)
    copy_into(destination.rev_position, source.rev_position)
    copy_into_2d(destination.streams, source.streams)


@game_kernel
def forget_country_places(state, data, box):
    """A noble was raised into or killed from ``box``: its country's places must be worked out again."""
    country = data.region_country[data.box_region[box]]
    state.scal[S_KEPT_KNOWN] &= ~(1 << (KNOWN_COUNTRY_0 + country))


@game_kernel
def forget_majority(state, rank):
    """A noble card of ``rank`` was taken: that rank's §6.5 majority must be worked out again."""
    state.scal[S_KEPT_KNOWN] &= ~(1 << (KNOWN_MAJORITY_0 + rank))


@game_kernel
def clear_state(state):
    """Zero every array (used before each game's setup)."""
    state.scal[:] = 0
    state.deck[:] = 0
    state.rev[:] = 0
    state.display[:] = -1
    state.set_aside[:] = -1
    state.discard[:] = 0
    state.hand[:] = 0
    state.bdeck[:] = 0
    state.bdisplay[:] = -1
    state.bdiscard[:] = 0
    state.bhand[:] = 0
    state.box_owner[:] = -1
    state.box_rank[:] = -1
    state.dead[:] = 0
    state.hex_owner[:] = -1
    state.tiles[:] = 0
    state.cards[:] = 0
    state.cards_left[:] = 0
    state.raised[:] = 0
    state.lost[:] = 0
    state.square_owner[:] = 0
    state.square_next[:] = 0
    state.large_owner[:] = 0
    state.score[:] = 0
    state.score_src[:] = 0
    state.score_round[:] = 0
    state.vacated[:] = 0
    state.targeted[:] = 0
    state.first_done[:] = 0
    state.turns_round[:] = 0
    state.round_step[:] = 0
    state.options[:] = 0
    state.stats[:] = 0
    state.rev_position[:] = 0


@game_kernel
def ranks_on_empty_boxes(state, data):
    """Bitmask of the ranks shown by the boxes no noble occupies (§2)."""
    box_owner = state.box_owner
    box_ranks = data.box_ranks
    mask = 0
    for box in range(box_owner.shape[0]):
        if box_owner[box] < 0:
            mask |= box_ranks[box]
    return mask
