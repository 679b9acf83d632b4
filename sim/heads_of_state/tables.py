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
    + ["first_start_seat"]   # seat of the start player (§3 step 11; 0 unless random_start_player)
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
# bot_family: 0 = random, 1 = greedy, 2 = search (strategies/heads_of_state.py)
# score_after_round{r}: score right after round r's influence scoring (round 3: before majorities)
# round{r}_revolution_position: 1..11, the revolution card's place in its 11-card deck (§8.7)
# tile_starved_turns: Option-1 raise steps where an open box showed a rank the seat could pay for
#   but had no tile of (Q13); discards_*: cards discarded to the 10/4 and 6/2 limits (§8.2)
# turns_round{r}: turns started in round r (an interrupted turn counts in the round it started)
# card_a / card_b: betrayal card types (setup.description["betrayal_types"]; card_b -1 = one card)
# winner_tiebreak: 0 = highest score alone, 1 = decided by noble cards (kings, then archdukes ...),
#                  2 = still tied: shared win (Q22)
# card_type: 0 = assassin(s), 1 = single-country card(s) only, 2 = country cards with at least one
#   double-country card, 3 = mixed: 1 assassin + 1 country card on a capital (only with the Q9 switch
#   mix_assassin_and_country; resolved by the bag draw, card_a = 0 assassin, card_b = the country card)
# box_refilled: with the Q8 switch option2_refill = deferred it is set by the refills made after the
#   turn's last betrayal play
# tiebreak levels (country_scoring): -1 = no contest (fewer candidates), 0 = influence alone,
#   1 = highest rank (§6.4 level 2), 2 = hexagon values (level 3), 3 = unresolved -> seeded RNG (level 4)
# hex_key_s{i} = sum of hex_key_base ** hexagon_value over the country's regions where seat i has a
#   living noble; comparing keys == comparing the descending hexagon lists lexicographically (Q19).
TIEBREAK_NAMES = {-1: "no_contest", 0: "influence", 1: "highest_rank", 2: "hexagon_value",
                  3: "unresolved"}
CARD_TYPE_NAMES = ("assassin", "single_country", "double_country", "mixed")

_ns = globals()
for _prefix, _cols in (("G_", GAMES_COLUMNS), ("SE_", SEATS_COLUMNS), ("B_", BETRAYALS_COLUMNS),
                       ("C_", COUNTRY_COLUMNS)):
    for _i, _c in enumerate(_cols):
        _ns[_prefix + _c.upper()] = _i
N_G, N_SE, N_B, N_C = len(GAMES_COLUMNS), len(SEATS_COLUMNS), len(BETRAYALS_COLUMNS), len(COUNTRY_COLUMNS)
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
