"""The noble table's card combinations (rules §1.4), shared by the rules (nobles.py) and the
greedy (strategies/heads_of_state/greedy.py), which both ask whether a hand can pay for a rank."""
from sim.core.kernels import game_kernel
from sim.heads_of_state.state import COURTESAN, N_ATTRIBUTES


@game_kernel
def can_pay_hand(hand, recipe, courtesan_ok, player, rank):
    """§1.4: p's hand covers the recipe of ``rank``, with at most one courtesan where allowed."""
    missing = 0
    for a in range(N_ATTRIBUTES):
        if recipe[rank, a] > 0 and hand[player, a] == 0:
            missing += 1
    if missing == 0:
        return True
    return missing == 1 and courtesan_ok[rank] > 0 and hand[player, COURTESAN] > 0
