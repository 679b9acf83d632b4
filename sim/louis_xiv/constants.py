"""Named indices for Louis XIV kernels: courtier modes, token kinds, mission colours and
abilities, influence-card kinds. Kernels read ``tokens[player, CROWN]``, never ``tokens[p, 0]``.

Only *structure* lives here (which slot means what); every *number* of the game (costs,
counts, thresholds) comes from configs/games/louis_xiv.yaml via ``sim.louis_xiv.data``.
"""
N_COURTIERS = 12
JOKER = N_COURTIERS            # influence-card kind 12 is the joker; 0..11 name a courtier
N_INFLUENCE_KINDS = N_COURTIERS + 1
MAX_PLAYERS = 4
IMAGINARY = 4                  # marker column of the two-player imaginary player (§8)
N_COLOURS = 5                  # 4 player colours + the imaginary player

# Courtier modes (§4.3.1-4.3.3)
GOLD_MODE = 0
FIRST_MODE = 1
THRESHOLD_MODE = 2
MODE_NAMES = ("gold", "first", "threshold")

# Mission tokens (§1.4); the crown is the wildcard and must be index 0
TOKEN_NAMES = ("crown", "scepter", "helmet", "ring", "document")
CROWN, SCEPTER, HELMET, RING, DOCUMENT = range(5)
N_TOKENS = 5
ANY_TOKEN = -1                 # a "?" cost (§1.5)

# Mission colours (§1.5)
COLOUR_NAMES = ("light", "blue", "dark")
LIGHT, BLUE, DARK = range(3)
N_MISSION_COLOURS = 3

# Mission abilities (§6), by the rules file's ids
ABILITY_NAMES = (
    "LB-EXTRA", "LB-MARKER", "LB-GOLD", "LB-TILE1", "LB-TILE2", "LB-TILE3", "LB-TILE4",
    "LB-SKIP", "LB-TOKENSWAP", "LB-MISSIONSWAP",
    "B-INCOME", "B-COAT", "B-LOUIS", "B-TILE5", "B-TILE9", "B-CARDSWAP",
    "DB-MARKERS3", "DB-GOLD3", "DB-INTRIGUE", "DB-CARDFORMARKER", "DB-PLACE4", "DB-ENDPLACE",
    "DB-ONCEFIRST", "DB-BRIBE-1",
)
(LB_EXTRA, LB_MARKER, LB_GOLD, LB_TILE1, LB_TILE2, LB_TILE3, LB_TILE4,
 LB_SKIP, LB_TOKENSWAP, LB_MISSIONSWAP,
 B_INCOME, B_COAT, B_LOUIS, B_TILE5, B_TILE9, B_CARDSWAP,
 DB_MARKERS3, DB_GOLD3, DB_INTRIGUE, DB_CARDFORMARKER, DB_PLACE4, DB_ENDPLACE,
 DB_ONCEFIRST, DB_BRIBE_1) = range(len(ABILITY_NAMES))
N_ABILITIES = len(ABILITY_NAMES)

# Resources-step abilities (§4.1 step 2), in the rules file's order; the rulebook fixes no order
# of use, so each player chooses it (strategies/louis_xiv/decide.py, choose_resources_order)
RESOURCES_ABILITIES = (LB_MARKER, LB_GOLD, B_INCOME, B_COAT, DB_MARKERS3, DB_GOLD3, DB_INTRIGUE, DB_CARDFORMARKER)

# Start-of-influence-phase placement abilities (§4.2 step 1) and the courtier each names
# (-1: the courtier where Louis XIV stands). Courtier numbers are 0-based here.
START_PLACEMENT_ABILITIES = (LB_TILE1, LB_TILE2, LB_TILE3, LB_TILE4, B_LOUIS, B_TILE5, B_TILE9)
START_PLACEMENT_COURTIER = (0, 1, 2, 3, -1, 4, 8)

# Sources of chance (one random stream each, sim.core.random_streams)
SOURCE_SETUP = 0       # gold cards, deck shuffles at setup and every reshuffle, start player
SOURCE_COATS = 1       # coat-of-arms draws
SOURCE_BOT = 2         # + seat: each seat's bot randomness
SOURCE_SEARCH = SOURCE_BOT + MAX_PLAYERS   # + seat: a search bot's determinizations and rollouts
SOURCE_RESOURCES_ORDER = SOURCE_SEARCH + MAX_PLAYERS   # + seat: a random bot's order of its resources abilities
SOURCE_COUNTERFACTUAL = SOURCE_RESOURCES_ORDER + MAX_PLAYERS   # a counterfactual's random alternative
                                                              # (sim/louis_xiv/counterfactual.py)
N_SOURCES = SOURCE_COUNTERFACTUAL + 1
