"""H12: bots read only public state and their own hands. Scrambling everything hidden from the
active seat (opponents' hands, deck orders) must not change any of its decisions."""
import numpy as np

from sim.heads_of_state.decisions import D_OPTION, D_RAISE, D_TAKE
from strategies.heads_of_state.decide import choose
from sim.heads_of_state.engine import ENGINE
from sim.heads_of_state.kernel import setup_game
from sim.heads_of_state.nobles import list_raises
from sim.heads_of_state.state import (OPT_1A, OPT_1B, OPT_2, S_ACTIVE, S_DECK_N, S_GAME_OVER,
                                      S_N_PLAYERS, S_REV_N, copy_state, new_state)
from sim.heads_of_state.turn import play_turn


def decisions(state, data, context, player):
    out = []
    context.moves[:3, 0] = (OPT_1A, OPT_1B, OPT_2)
    out.append(choose(state, data, context, player, D_OPTION, 3))
    n = 0
    for slot, card in enumerate(state.display):
        if card >= 0:
            context.moves[n, :2] = (slot, card)
            n += 1
    context.moves[n, :2] = (-1, -1)
    out.append(choose(state, data, context, player, D_TAKE, n + 1))
    n = list_raises(state, data, context, player)
    out.append(tuple(context.moves[choose(state, data, context, player, D_RAISE, n), :2]))
    return out


def test_greedy_ignores_hidden_information(setup):
    data = setup.data
    rng = np.random.default_rng(0)
    for game in range(8):
        context = ENGINE.make_ctx(setup, 4, [ENGINE.resolve_bot("greedy")] * 4, betrayal_capacity=1000)
        state = new_state(data)
        setup_game(state, data, context, 4, np.uint64(3), game, 0)
        for turn in range(12 + 7 * game):
            play_turn(state, data, context)
            if state.scal[S_GAME_OVER]:
                break
        player = int(state.scal[S_ACTIVE])
        before = decisions(copy_state(state), data, context, player)
        hidden = copy_state(state)
        for q in range(int(hidden.scal[S_N_PLAYERS])):
            if q != player:                      # opponents' hands: same sizes, other cards
                size = hidden.hand[q].sum()
                hidden.hand[q] = np.bincount(rng.integers(0, 9, size), minlength=9)
                bsize = hidden.bhand[q].sum()
                hidden.bhand[q] = np.bincount(rng.integers(0, hidden.bhand.shape[1], bsize),
                                              minlength=hidden.bhand.shape[1])
        hidden.deck[:hidden.scal[S_DECK_N]] = rng.permutation(hidden.deck[:hidden.scal[S_DECK_N]])
        hidden.rev[:hidden.scal[S_REV_N]] = rng.permutation(hidden.rev[:hidden.scal[S_REV_N]])
        assert decisions(hidden, data, context, player) == before
