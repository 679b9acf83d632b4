"""Encodings of the decisions a Louis XIV bot takes (rules §10.1), shared by the rules
kernels that ask and the bot families (strategies/louis_xiv/decide.py) that answer."""
import numpy as np

# Influence turn options (§4.2 step 2), one row each in a move buffer
MOVE_KIND = 0
MOVE_CARD = 1            # influence-card kind played (-1: chosen after the move, DB-PLACE4)
MOVE_LENGTH = 2          # number of courtiers on the placement path
MOVE_PATH = 3            # MOVE_PATH + 2*i: courtier i of the path; + 1: markers put there
MOVE_WIDTH = 11
MOVE_CAPACITY = 2048

PLACE = 0                # play a card and place markers along a path (§4.2.1)
RETRIEVE = 1             # play a card and move markers general -> own supply
SKIP = 2                 # LB-SKIP: pay gold instead of playing a card
CARD_SWAP = 3            # B-CARDSWAP: discard a card, draw the top card
PLACE_FOUR = 4           # DB-PLACE4 with a placement of up to 4
RETRIEVE_FOUR = 5        # DB-PLACE4 with a retrieval of up to 4
MOVE_KIND_NAMES = ("place", "retrieve", "skip", "card swap", "place four", "retrieve four")

# Why a bot is asked for a courtier to put one marker on
PURPOSE_END_PLACEMENT = 0   # DB-ENDPLACE
PURPOSE_CONDE = 1           # Condé's gift

# Intrigue card options (§4.3 step 1)
INTRIGUE_NONE = 0
INTRIGUE_ONE_FROM_GENERAL = 1
INTRIGUE_ONE_FROM_OWN = 2
INTRIGUE_TWO_FROM_OWN = 3

# B-INCOME choices (§6)
INCOME_TWO_GOLD = 0
INCOME_GOLD_AND_MARKER = 1
INCOME_TWO_MARKERS = 2

# The order of a player's resources-step abilities (§4.1 step 2): a permutation of
# constants.RESOURCES_ABILITIES as ability ids packed 8 bits each, the first to use in the lowest
# byte (one integer: no buffer to fill per player and round)
ORDER_BITS = 8
ORDER_MASK = (1 << ORDER_BITS) - 1


def pack_order(abilities) -> int:
    """The packed order of a sequence of ability ids (first used first)."""
    order = 0
    for slot, ability in enumerate(abilities):
        order |= int(ability) << (ORDER_BITS * slot)
    return order


def unpack_order(order: int, length: int) -> list[int]:
    return [(int(order) >> (ORDER_BITS * slot)) & ORDER_MASK for slot in range(length)]


# Mission options (§4.5): card, token paid for the first cost, token paid for the second
OPTION_CARD = 0
OPTION_PAY_1 = 1
OPTION_PAY_2 = 2
OPTION_WIDTH = 3
OPTION_CAPACITY = 1024


def new_move_buffer():
    return np.zeros((MOVE_CAPACITY, MOVE_WIDTH), dtype=np.int64)


def new_option_buffer():
    return np.zeros((OPTION_CAPACITY, OPTION_WIDTH), dtype=np.int64)
