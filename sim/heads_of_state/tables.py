"""Output tables of the Heads of State kernel: column names, in kernel column order.

The kernel fills 2-D int64 blocks (one row per game / seat / betrayal attempt / country
scoring); ``engine.play_chunk`` turns each block into ``{column: array}``. The integer column
indices used by the kernel (``G_*``, ``SE_*``, ``B_*``, ``C_*``) are generated here from the
names, so the names and the kernel can never drift apart.
"""
from sim.heads_of_state.state import MAX_PLAYERS, N_ROUNDS, RANK_NAMES, SCORE_SOURCE_NAMES, STAT_NAMES

GAMES_COLUMNS = (
    ["game_index", "seed", "n_players", "winner_mask", "first_winner", "winner_tiebreak"]
    + [f"turns_round{r + 1}" for r in range(N_ROUNDS)]
    + [f"round{r + 1}_end_step" for r in range(N_ROUNDS)]
    + [f"round{r + 1}_revolution_position" for r in range(N_ROUNDS)]
    + ["first_start_seat"]   # seat of the start player (§3 step 11: drawn; 0 with random_start_player off)
)
SEATS_COLUMNS = (
    ["game_index", "seat", "bot_family", "score"]
    + [f"score_{s}" for s in SCORE_SOURCE_NAMES]
    + [f"score_after_round{r + 1}" for r in range(N_ROUNDS)]
    + [f"raised_{r}" for r in RANK_NAMES]
    + ["nobles_lost", "is_winner"]
    + [f"cards_{r}" for r in RANK_NAMES]            # noble cards held at the end (§6.5, §6.6)
    + ["turns_first", "turns_option1a", "turns_option1b", "turns_option2"]
    + list(STAT_NAMES) + ["betrayal_cards_held_end"]
)
BETRAYALS_COLUMNS = [
    "game_index", "round", "seat", "card_type", "card_a", "card_b", "cards_spent", "target_seat",
    "target_rank", "capital", "country", "box", "success", "box_refilled",
]
COUNTRY_COLUMNS = (
    ["game_index", "round", "country"]
    + [f"influence_s{i}" for i in range(MAX_PLAYERS)]
    + [f"top_rank_s{i}" for i in range(MAX_PLAYERS)]
    + [f"best_hex_s{i}" for i in range(MAX_PLAYERS)]
    + [f"hex_key_s{i}" for i in range(MAX_PLAYERS)]
    + ["first_seat", "second_seat", "first_points", "second_points", "first_tiebreak",
       "second_tiebreak"]
)
# round{r}_end_step: where the revolution card appeared (state.STEP_NAMES): 1 first-turn take,
#   2 option 1a take, 3 option 1b take, 4 option 2 character take, 5 end-of-turn display refill
# bot_family: 0 = random, 1 = greedy, 2 = search (strategies/heads_of_state/parameters.py)
# score_after_round{r}: score right after round r's influence scoring (round 3: before majorities)
# round{r}_revolution_position: 1..11, the revolution card's place in its 11-card deck (§8.7)
# tile_starved_turns: Option-1 raise steps where an open box showed a rank the seat could pay for
#   but had no tile of (Q13); discards_*: cards discarded to the 10/4 and 6/2 limits (§8.2)
# turns_round{r}: turns started in round r (an interrupted turn counts in the round it started)
# card_a / card_b: betrayal card types (setup.description["betrayal_types"]; card_b -1 = one card)
# winner_tiebreak: 0 = highest score alone, 1 = decided by noble cards (kings, then archdukes ...),
#                  2 = still tied: shared win (Q22)
# card_type: 0 = assassin(s), 1 = single-country card(s) only, 2 = the play contains a double-country card
#   (country cards only), 3 = mixed: 1 assassin + 1 country card on a capital (only with the Q9 switch
#   mix_assassin_and_country; resolved by the bag draw, card_a = 0 assassin, card_b = the country card)
# box_refilled: with the Q8 switch option2_refill = deferred it is set by the refills made after the
#   turn's last betrayal play
# tiebreak levels (country_scoring): -1 = no contest (fewer candidates), 0 = influence alone,
#   1 = highest rank (§6.4 level 2), 2 = hexagon values (level 3), 3 = unresolved -> seeded RNG (level 4)
# hex_key_s{i} = sum of hex_key_base ** hexagon_value over the country's regions where seat i has a
#   living noble; comparing keys == comparing the descending hexagon lists lexicographically (Q19).
# influence_s{i}, top_rank_s{i}, best_hex_s{i}, hex_key_s{i}: -1 for seats i >= n_players (null in the table)
TIEBREAK_NAMES = {-1: "no_contest", 0: "influence", 1: "highest_rank", 2: "hexagon_value",
                  3: "unresolved"}
CARD_TYPE_NAMES = ("assassin", "single_country", "double_country", "mixed")
# the opt-in standings table (sim/heads_of_state/standings.py; rounds written 1-based by the
# kernel): one row per game and position. The kernel's buffer holds the position's columns, then
# each seat's score (row ST_SCORE_SEAT + seat); the position values are a float array of their own,
# one row per seat.
STANDINGS_COLUMNS = ["game_index", "turn", "round", "acting_seat"]

_ns = globals()
for _prefix, _cols in (("G_", GAMES_COLUMNS), ("SE_", SEATS_COLUMNS), ("B_", BETRAYALS_COLUMNS),
                       ("C_", COUNTRY_COLUMNS), ("ST_", STANDINGS_COLUMNS)):
    for _i, _c in enumerate(_cols):
        _ns[_prefix + _c.upper()] = _i
N_G, N_SE, N_B, N_C = len(GAMES_COLUMNS), len(SEATS_COLUMNS), len(BETRAYALS_COLUMNS), len(COUNTRY_COLUMNS)
ST_SCORE_SEAT = len(STANDINGS_COLUMNS)
N_ST = ST_SCORE_SEAT + MAX_PLAYERS
G_TURNS_ROUND = G_TURNS_ROUND1
G_ROUND_END_STEP = G_ROUND1_END_STEP
SE_SCORE_SRC = SE_SCORE_HEXAGON
SE_SCORE_AFTER = SE_SCORE_AFTER_ROUND1
SE_RAISED = SE_RAISED_BARON
SE_CARDS = SE_CARDS_BARON
SE_TURNS = SE_TURNS_FIRST
SE_STATS = SE_COURTESANS_USED
G_REVOLUTION_POSITION = G_ROUND1_REVOLUTION_POSITION
C_INFLUENCE = C_INFLUENCE_S0
C_TOP_RANK = C_TOP_RANK_S0
C_BEST_HEX = C_BEST_HEX_S0
C_HEX_KEY = C_HEX_KEY_S0


# ---- the tables as stored (sim.core.table_schema) --------------------------------------------
# The kernel layout above is left as it is (kernels index it); ``engine.play_chunk`` renames the
# kernel columns to the convention both games share (``table_name``), adds the shared game and
# seat columns, and ``columns_to_arrow`` labels the coded columns declared here.
import re  # noqa: E402

from sim.core import table_schema as T  # noqa: E402
from sim.core.table_schema import Column  # noqa: E402
from sim.heads_of_state.state import COUNTRY_NAMES, STEP_NAMES  # noqa: E402

# kernel column name pattern -> table name: rounds as ``_round_<r>``, seats as ``_seat_<s>``
_RENAME_PATTERNS = (
    (re.compile(r"^turns_round(\d+)$"), r"turns_round_\1"),
    (re.compile(r"^round(\d+)_end_step$"), r"end_step_round_\1"),
    (re.compile(r"^round(\d+)_revolution_position$"), r"revolution_position_round_\1"),
    (re.compile(r"^score_after_round(\d+)$"), r"score_after_round_\1"),
    (re.compile(r"^(influence|top_rank|best_hex|hex_key)_s(\d+)$"), r"\1_seat_\2"),
    (re.compile(r"^winner_tiebreak$"), "win_decided_by"),   # 0 score, 1 noble cards, 2 shared (Q22)
)
# round columns the kernel writes 0-based (state.S_ROUND); tables number rounds from 1
ZERO_BASED_ROUND_TABLES = ("betrayals", "country_scoring")
TIEBREAK_LEVEL_NAMES = tuple(TIEBREAK_NAMES[level] for level in sorted(TIEBREAK_NAMES))
SCORE_SOURCE_MEANINGS = {
    "hexagon": "hexagon tokens", "country": "country square tokens", "all_ranks": "large round tokens for all 7 ranks",
    "round_influence": "round-end influence scoring (§6.4)", "noble_card_majority": "end-game noble-card majorities",
    "start_compensation": "the game file's starting_points (a start-player compensation; 0 in the printed game)",
}
STAT_MEANINGS = {
    "courtesans_used": "courtesans paid instead of a character card",
    "discards_turn_end_character": "character cards discarded to the end-of-turn limit (§8.2)",
    "discards_turn_end_betrayal": "betrayal cards discarded to the end-of-turn limit (§8.2)",
    "discards_round_change_character": "character cards discarded at the round change (§8.2)",
    "discards_round_change_betrayal": "betrayal cards discarded at the round change (§8.2)",
    "kills": "nobles of other seats this seat killed",
    "tile_starved_turns": "Option-1 raise steps where an open box showed a payable rank the seat had no tile of (Q13)",
    "capital_betrayal_plays": "betrayal plays on a noble in a capital (§4.4 step 2)",
    "assassination_attempts": "betrayal plays with an assassin, i.e. bag draws (§4.4 steps 2-3; a Q9 mixed play too)",
    "blind_betrayal_draws": "betrayal cards drawn from the deck while the betrayal display showed one (§4.4 step 1)",
    "boxes_left_empty_by_choice": "boxes a kill of this seat vacated that it left empty though it could have refilled "
                                  "them (§4.4 step 3; deferred refills, Q8: a stop with a refill listed)",
    "courtesans_for_held_attributes": "courtesans this seat paid in place of an attribute card it held (§4.3 step 1, Q14)",
}


def table_name(kernel_name: str) -> str:
    for pattern, replacement in _RENAME_PATTERNS:
        if pattern.match(kernel_name):
            return pattern.sub(replacement, kernel_name)
    return kernel_name


def table_schemas(description: dict) -> dict[str, T.TableSchema]:
    """Every Heads of State table, column by column; ``description`` (GameSetup.description)
    supplies the data's betrayal card types and box names."""
    from strategies.heads_of_state import FAMILIES   # strategies import the engine's modules
    family_names = tuple(sorted(FAMILIES, key=FAMILIES.get))
    years = description["rounds"]
    rounds = range(1, N_ROUNDS + 1)
    games = T.TableSchema("games", "one row per game", T.game_columns() + (
        Column("seed", "uint64", "the run's experiment seed"),
        *(Column(f"turns_round_{r}", "int32", f"turns started in round {r} ({years[r - 1]}; an interrupted turn "
                 "counts in the round it started)") for r in rounds),
        *(T.label_column(f"end_step_round_{r}", f"step at which the revolution card ended round {r}", STEP_NAMES)
          for r in rounds),
        *(Column(f"revolution_position_round_{r}", "int32",
                 f"place (1..11) of the revolution card in round {r}'s deck (§8.7)") for r in rounds),
    ) + T.experiment_columns())
    seats = T.TableSchema("seats", "one row per game and seat", T.seat_columns() + (
        T.label_column("bot_family", "the seat's bot family", family_names),
        *(Column(f"score_{source}", "int32", f"points from {SCORE_SOURCE_MEANINGS[source]}")
          for source in SCORE_SOURCE_NAMES),
    ) + T.score_after_round_columns(N_ROUNDS, "right after the influence scoring (round 3: before majorities)")
      + tuple(Column(f"raised_{rank}", "int32", f"{rank}s raised") for rank in RANK_NAMES)
      + (Column("nobles_lost", "int32", "own nobles killed by betrayals"),)
      + tuple(Column(f"cards_{rank}", "int32", f"{rank} noble cards held at the end (§6.5, §6.6)") for rank in RANK_NAMES)
      + tuple(Column(f"turns_{option}", "int32", f"turns played as {option}")
              for option in ("first", "option1a", "option1b", "option2"))
      + tuple(Column(name, "int32", STAT_MEANINGS[name]) for name in STAT_NAMES)
      + (Column("betrayal_cards_held_end", "int32", "betrayal cards in hand at the end"),)
      + T.seat_label_columns())
    betrayal_types = tuple(description["betrayal_types"])
    betrayals = T.TableSchema("betrayals", "one row per betrayal play (§4.4)", (
        Column("game_index", "int64", "game number within the run (0-based)"),
        Column("round", "int32", "round number (1-based)"),
        Column("seat", "int32", "seat that played the card(s)"),
        T.label_column("card_type", "kind of play: assassin = assassin card(s); single_country = single-country "
                       "card(s) only; double_country = the play contains a double-country card (alone or with "
                       "another country card); mixed = 1 assassin + 1 country card on a capital (Q9 switch "
                       "mix_assassin_and_country)", CARD_TYPE_NAMES),
        T.label_column("card_a", "first betrayal card played", betrayal_types),
        T.label_column("card_b", "second betrayal card played", betrayal_types, missing="one card played"),
        Column("cards_spent", "int32", "betrayal cards spent"),
        Column("target_seat", "int32", "seat owning the target noble"),
        T.label_column("target_rank", "rank of the target noble", RANK_NAMES),
        Column("capital", "int32", "1 if the target box is in a capital"),
        T.label_column("country", "country of the target box", COUNTRY_NAMES),
        T.label_column("box", "target box (region.upper / region.lower)", tuple(description["box_names"])),
        Column("success", "int32", "1 if the target noble died"),
        Column("box_refilled", "int32", "1 if the emptied box was refilled (deferred with the Q8 switch)"),
    ))
    seat_range = range(MAX_PLAYERS)
    # the kernel writes -1 in the per-seat columns of seats beyond n_players: null, as in every table
    ABSENT_SEAT = "seat not in this game"
    country = T.TableSchema("country_scoring", "one row per game, round and country (§6.4)", (
        Column("game_index", "int64", "game number within the run (0-based)"),
        Column("round", "int32", "round number (1-based)"),
        T.label_column("country", "the scored country", COUNTRY_NAMES),
        *(Column(f"influence_seat_{s}", "int64", f"influence of seat {s}", missing=ABSENT_SEAT)
          for s in seat_range),
        *(T.label_column(f"top_rank_seat_{s}", f"highest living noble of seat {s}", RANK_NAMES,
                         missing=f"no living noble in the country, or {ABSENT_SEAT}") for s in seat_range),
        *(Column(f"best_hex_seat_{s}", "int64", f"highest hexagon value under a living noble of seat {s}",
                 missing=f"no living noble in the country, or {ABSENT_SEAT}") for s in seat_range),
        *(Column(f"hex_key_seat_{s}", "int64", f"sum of hex_key_base ** hexagon value over regions with a living "
                 f"noble of seat {s} (comparing keys compares the hexagon lists, Q19; 0: no living noble); with "
                 f"the Q19 switch influence_hexagon_tiebreak = best_region it is best_hex_seat_{s}",
                 missing=f"{ABSENT_SEAT}; with best_region also no living noble in the country")
          for s in seat_range),
        T.seat_column("first_seat", "seat placed first", "nobody placed"),
        T.seat_column("second_seat", "seat placed second", "nobody placed"),
        Column("first_points", "int64", "points to the first place"),
        Column("second_points", "int64", "points to the second place"),
        T.label_column("first_tiebreak", "tie-break level that decided first place (§6.4)", TIEBREAK_LEVEL_NAMES,
                       first_code=min(TIEBREAK_NAMES)),
        T.label_column("second_tiebreak", "tie-break level that decided second place (§6.4)", TIEBREAK_LEVEL_NAMES,
                       first_code=min(TIEBREAK_NAMES)),
    ))
    return {"games": games, "seats": seats, "betrayals": betrayals, "country_scoring": country,
            "standings": standings_schema()}


def standings_schema() -> T.TableSchema:
    """The opt-in standings table (``--tables standings``): every seat's standing after each
    player turn (§4), after each round's end (§5.2, inside the turn that revealed the revolution
    card) and at the end of the game (§6)."""
    return T.TableSchema("standings", T.STANDINGS_MEANING, T.standing_columns(
        "a player turn (§4; the turn the revolution card interrupts included, with the round it started in)",
        "as in seats.score; the round's end (§5.2) happens inside the turn that reveals the revolution card, so "
        "that turn's row already holds it, and the last round's includes the noble-card majorities (§6.5)",
        "the search bot's position_values with its default parameters (strategies/heads_of_state/position.py): "
        "the score plus the influence points of a round end now and the noble-card majorities of the cards held; "
        "once the game has ended, the final score",
        MAX_PLAYERS,
    ), bulk=True)
