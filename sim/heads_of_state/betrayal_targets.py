"""Betrayal targets and the cards a play on them takes (rules §4.4 step 2), shared by the rules
(betrayal.py, which lists the plays) and the greedy (strategies/heads_of_state/greedy.py, which
weighs the attacks a betrayal hand can make). A module of its own because betrayal.py asks the
bots for their decisions and so imports them."""
from sim.core.kernels import game_kernel


@game_kernel
def is_opponent_noble(box_owner, player, box):
    """§4.4 step 2.1: a target is a noble (living, in a box) that belongs to another player; a
    player never targets his own. (At most once per turn, too: ``state.targeted``.)"""
    owner = box_owner[box]
    return owner >= 0 and owner != player


@game_kernel
def cards_per_play(capital):
    """§4.4 step 2.2: a play takes exactly 2 cards on a capital, exactly 1 on a province (Q10)."""
    return 2 if capital else 1


@game_kernel
def country_cards_can_kill(usable, capital):
    """§4.4 step 2.2: ``usable`` cards usable for the target's country are enough for a play
    (an automatic success)."""
    return usable >= cards_per_play(capital)


@game_kernel
def assassination_possible(assassins, usable, capital, mix):
    """§4.4 step 2.2: ``assassins`` are enough for a play (resolved by the bag draw of step 3), or,
    with the Q9 switch ``mix`` (mix_assassin_and_country), a capital takes 1 assassin + 1 of the
    ``usable`` cards usable for its country."""
    return assassins >= cards_per_play(capital) or (capital and mix and assassins >= 1 and usable >= 1)
