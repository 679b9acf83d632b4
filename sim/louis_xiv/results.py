"""Louis XIV result tables: column names and their indices in the kernel's output arrays.

The kernel fills three int32 matrices per chunk (games, seats, courtiers); ``engine`` turns
them into named columns. Seat-indexed columns use -1 for seats absent at this player count.
"""
from sim.louis_xiv.constants import ABILITY_NAMES, MAX_PLAYERS
from sim.louis_xiv.state import STAT_FIELDS

MAX_ROUNDS = 8  # capacity of the per-round columns; the game has 4 rounds (configurable)

GAME_COLUMNS = (
    "game_index", "n_players", "first_start_seat", "winner_mask", "winner", "n_winners",
    "shared_win", "decided_by_tiebreak", "winning_score", "margin",
    "exhausted_tokens", "exhausted_coats", "exhausted_gold",
)
(G_GAME_INDEX, G_N_PLAYERS, G_FIRST_START_SEAT, G_WINNER_MASK, G_WINNER, G_N_WINNERS,
 G_SHARED_WIN, G_DECIDED_BY_TIEBREAK, G_WINNING_SCORE, G_MARGIN,
 G_EXHAUSTED_TOKENS, G_EXHAUSTED_COATS, G_EXHAUSTED_GOLD) = range(len(GAME_COLUMNS))

_SEAT_FIXED = (
    "game_index", "seat", "start_position", "score", "rank", "winner", "coats",
    "missions_light", "missions_blue", "missions_dark", "missions_in_hand", "gold", "own_supply",
    "general_supply", "markers_on_courtiers", "tokens_left", "influence_cards_left", "intrigue_cards_left",
)
(S_GAME_INDEX, S_SEAT, S_START_POSITION, S_SCORE, S_RANK, S_WINNER, S_COATS,
 S_MISSIONS_LIGHT, S_MISSIONS_BLUE, S_MISSIONS_DARK, S_MISSIONS_IN_HAND, S_GOLD, S_OWN_SUPPLY,
 S_GENERAL_SUPPLY, S_MARKERS_ON_COURTIERS, S_TOKENS_LEFT, S_INFLUENCE_LEFT, S_INTRIGUE_LEFT) = range(len(_SEAT_FIXED))
S_SCORE_AFTER_ROUND = len(_SEAT_FIXED)                    # + round index (0-based)
S_STATS = S_SCORE_AFTER_ROUND + MAX_ROUNDS                # + STAT index
S_ABILITY_USES = S_STATS + len(STAT_FIELDS)               # + ability index
SEAT_COLUMNS = (_SEAT_FIXED
                + tuple(f"score_after_round_{r + 1}" for r in range(MAX_ROUNDS))
                + STAT_FIELDS
                + tuple("uses_" + name.lower().replace("-", "_") for name in ABILITY_NAMES))

_SEATS = tuple(range(MAX_PLAYERS))
COURTIER_COLUMNS = (
    ("game_index", "round", "courtier", "side", "mode", "value", "louis")
    + tuple(f"markers_seat_{s}" for s in _SEATS) + ("markers_imaginary",)
    + ("intrigue_seat", "intrigue_markers", "intrigue_from_general", "once_first_seat",
       "majority_tie", "top_seat", "louis_case", "free_mask", "crown_seat", "second_seat",
       "bribe_mask", "bribe_gold", "to_general_mask", "flipped", "empty", "majority_tie_decided")
)
(C_GAME_INDEX, C_ROUND, C_COURTIER, C_SIDE, C_MODE, C_VALUE, C_LOUIS) = range(7)
C_MARKERS = 7                     # + seat; C_MARKERS + 4 = imaginary player
(C_INTRIGUE_SEAT, C_INTRIGUE_MARKERS, C_INTRIGUE_FROM_GENERAL, C_ONCE_FIRST_SEAT, C_MAJORITY_TIE,
 C_TOP_SEAT, C_LOUIS_CASE, C_FREE_MASK, C_CROWN_SEAT, C_SECOND_SEAT, C_BRIBE_MASK, C_BRIBE_GOLD,
 C_TO_GENERAL_MASK, C_FLIPPED, C_EMPTY, C_MAJORITY_TIE_DECIDED) = range(C_MARKERS + MAX_PLAYERS + 1,
                                                                       len(COURTIER_COLUMNS))

# louis_case values (rules §4.3.4); 0 when Louis XIV is not on the courtier
LOUIS_CASE_NAMES = ("none", "A", "B", "C", "D", "E")
TOP_SEAT_IMAGINARY = 4            # top_seat value when the two-player imaginary player leads alone
