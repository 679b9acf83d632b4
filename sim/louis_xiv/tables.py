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

# the opt-in standings table (sim/louis_xiv/standings.py): one row per game and position (after
# an influence turn, §4.2, a round's end phases and the end of the game). The kernel's buffer holds
# the position's columns, then each seat's score (row ST_SCORE_SEAT + seat); the position values
# are a float array of their own, one row per seat.
STANDING_COLUMNS = ("game_index", "turn", "round", "acting_seat")
ST_GAME_INDEX, ST_TURN, ST_ROUND, ST_ACTING_SEAT = range(len(STANDING_COLUMNS))
ST_SCORE_SEAT = len(STANDING_COLUMNS)
N_STANDING_ROWS = ST_SCORE_SEAT + MAX_PLAYERS

# louis_case values (rules §4.3.4); 0 when Louis XIV is not on the courtier
LOUIS_CASE_NAMES = ("none", "A", "B", "C", "D", "E")
TOP_SEAT_IMAGINARY = 4            # top_seat value when the two-player imaginary player leads alone


# ---- the tables as stored (sim.core.table_schema): kernel columns renamed to the convention
# both games share, per-round columns cut to the game's rounds, coded columns labelled.
import functools  # noqa: E402

from sim.core import table_schema as T  # noqa: E402  (the kernel layout above stays import-free)
from sim.core.table_schema import Column  # noqa: E402
from sim.louis_xiv.constants import COLOUR_NAMES, MODE_NAMES  # noqa: E402

GAME_RENAMES = {"winner": "first_winner"}
SEAT_RENAMES = {"winner": "is_winner", "rank": "placement"}
SIDE_NAMES = ("A", "B")           # rules §0: side A has the red number, face up at game start
SEAT_OR_IMAGINARY = "seat 0-3, 4 = the two-player imaginary player"
STAT_MEANINGS = {
    "intrigue_obtained": "intrigue cards obtained", "intrigue_played": "intrigue cards played (§4.3 step 2)",
    "bribes": "bribes paid (§4.3.1)", "bribe_gold": "gold paid in bribes",
    "crowns_from_louis": "crown tokens taken on Louis XIV's courtier (§4.3.4)",
    "gifts_received": "courtier gifts received", "coats_from_gifts": "coats of arms from gifts",
    "coats_from_missions": "coats of arms from missions", "coats_from_token_cap": "coats of arms from the token cap",
    "coats_from_conversion": "coats of arms from the end-of-game conversion (§7)",
    "coats_from_majority": "coats of arms from majorities (§7)", "gold_spent_skip": "gold spent on LB-SKIP",
    "gold_spent_tokenswap": "gold spent on LB-TOKENSWAP", "influence_turns": "influence turns played (§4.2)",
    "place_turns": "turns that placed markers", "retrieve_turns": "turns that took markers back",
    "markers_placed": "markers placed on courtiers", "markers_retrieved": "markers taken back",
    "tokens_gained": "mission tokens gained", "crowns_as_wildcard": "crowns spent as a wildcard token",
    "income_two_gold": "B-INCOME incomes taken as 2 gold (§6)",
    "income_gold_and_marker": "B-INCOME incomes taken as 1 gold and 1 marker general -> own (§6)",
    "income_two_markers": "B-INCOME incomes taken as 2 markers general -> own (§6)",
    "db_markers3_markers": "markers DB-MARKERS3 moved from the general to the own supply (§6; 0 when declined)",
    "maintenon_markers_placed": "markers Maintenon's gift put on her named courtier (§5 gift 8 (a); 0 when declined)",
}


def seat_table_columns(n_rounds: int) -> list[str]:
    """Kernel seat columns as stored: renamed, per-round columns only for the game's rounds."""
    kept_rounds = {f"score_after_round_{r + 1}" for r in range(n_rounds)}
    return [SEAT_RENAMES.get(name, name) for name in SEAT_COLUMNS
            if not name.startswith("score_after_round_") or name in kept_rounds]


@functools.lru_cache(maxsize=None)
def table_schemas(n_rounds: int) -> dict[str, T.TableSchema]:
    """Every Louis XIV table, column by column (n_rounds: the game file's rounds, 4)."""
    games = T.TableSchema("games", "one row per game", T.game_columns() + (
        Column("exhausted_tokens", "int32", "mission tokens wanted but the supply was empty"),
        Column("exhausted_coats", "int32", "coats of arms wanted but the pile was empty"),
        Column("exhausted_gold", "int32", "gold wanted but the bank was empty"),
        Column("seed", "uint64", "the run's experiment seed"),
    ) + T.experiment_columns())
    seats = T.TableSchema("seats", "one row per game and seat", T.seat_columns() + (
        Column("coats", "int32", "coats of arms at the end"),
        *(Column(f"missions_{colour}", "int32", f"{colour} missions played") for colour in COLOUR_NAMES),
        Column("missions_in_hand", "int32", "missions still in hand at the end"),
        Column("gold", "int32", "gold at the end"),
        Column("own_supply", "int32", "markers in the own supply at the end"),
        Column("general_supply", "int32", "markers in the general supply at the end"),
        Column("markers_on_courtiers", "int32", "markers left on courtiers at the end"),
        Column("tokens_left", "int32", "mission tokens left at the end"),
        Column("influence_cards_left", "int32", "influence cards in hand at the end"),
        Column("intrigue_cards_left", "int32", "intrigue cards in hand at the end"),
    ) + T.score_after_round_columns(n_rounds, "(coats and missions so far) at the end",
                                    last="; before the end-of-game conversions and coat majorities of §7, "
                                         "which the final score (score) includes")
      + tuple(Column(name, "int32", STAT_MEANINGS[name]) for name in STAT_FIELDS)
      + tuple(Column("uses_" + ability.lower().replace("-", "_"), "int32", f"uses of mission ability {ability} (§6)")
              for ability in ABILITY_NAMES)
      + T.seat_label_columns())
    courtiers = T.TableSchema("courtiers", "one row per courtier evaluation (12 per round, §4.3)", (
        Column("game_index", "int64", "game number within the run (0-based)"),
        Column("round", "int32", "round number (1-based)"),
        Column("courtier", "int32", "courtier tile number (1..12, rules §1.1)"),
        T.label_column("side", "tile side face up at the evaluation (A: red number)", SIDE_NAMES),
        T.label_column("mode", "how the face-up side's gift is won (§4.3.1-4.3.3)", MODE_NAMES),
        Column("value", "int32", "the side's number (gold bribe base, or the threshold)"),
        Column("louis", "int32", "1 if Louis XIV stands on this courtier"),
        *(Column(f"markers_seat_{seat}", "int32", f"markers of seat {seat} evaluated here",
                 missing="seat not in this game") for seat in range(MAX_PLAYERS)),
        Column("markers_imaginary", "int32", "markers of the two-player imaginary player (§8)"),
        T.seat_column("intrigue_seat", "last seat that played an intrigue card here (§4.3 step 2)",
                      "no intrigue card played"),
        Column("intrigue_markers", "int32", "markers added by intrigue cards"),
        Column("intrigue_from_general", "int32", "1 if an intrigue card took markers from the general supply"),
        T.seat_column("once_first_seat", "seat whose DB-ONCEFIRST broke a tie for first (§6)", "not used"),
        Column("majority_tie", "int32", "1 if two or more colours tied for most markers"),
        T.seat_column("top_seat", f"the sole top holder ({SEAT_OR_IMAGINARY}): the single colour with most "
                      "markers (with the Q19 switch imaginary_player_ties = lose, also a seat tied only with the "
                      "imaginary player), or, when two or more tied for most, the seat whose DB-ONCEFIRST broke "
                      "the tie (once_first_seat; §6)", "nobody alone on top and no DB-ONCEFIRST used"),
        T.label_column("louis_case", "Louis XIV's case (§4.3.4)", LOUIS_CASE_NAMES[1:], first_code=1,
                       missing="Louis XIV is not on this courtier"),
        Column("free_mask", "int32", "bitmask of seats that got the gift for free"),
        T.seat_column("crown_seat", "seat that took the crown on Louis XIV's courtier", "no crown taken"),
        T.seat_column("second_seat", "seat that got the second-place gift (§4.3.4)", "no second place"),
        Column("bribe_mask", "int32", "bitmask of seats that bribed for the gift (§4.3.1)"),
        Column("bribe_gold", "int32", "gold paid in bribes here"),
        Column("to_general_mask", "int32", "bitmask of seats whose markers went to the general supply"),
        Column("flipped", "int32", "1 if the tile flipped after the evaluation (§4.3.5)"),
        Column("empty", "int32", "1 if no marker was on the courtier"),
        Column("majority_tie_decided", "int32", "1 if a tie for most markers decided who got the gift, first "
               "place or Louis XIV's crown (a gold or first-place side, or Louis XIV's courtier; a tie on a "
               "threshold side decides nothing)"),
    ))
    return {"games": games, "seats": seats, "courtiers": courtiers, "standings": standings_schema()}


def standings_schema() -> T.TableSchema:
    """The opt-in standings table (``--tables standings``): every seat's standing after each
    influence turn (§4.2), after each round's end phases (§4.3-4.4) and after the end-of-game
    scoring (§7)."""
    return T.TableSchema("standings", T.STANDINGS_MEANING, T.standing_columns(
        "an influence turn (§4.2 step 2; LB-SKIP and B-CARDSWAP turns included)",
        "coats of arms and completed missions so far (as score_after_round_<r>); on the last row the final score",
        "the search bot's position_value with its default parameters (strategies/louis_xiv/position.py): "
        "the score plus the stop values of what the seat holds; on the last row the final score",
        MAX_PLAYERS,
    ), bulk=True)
