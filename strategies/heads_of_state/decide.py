"""The rules' one entry point to the Heads of State bots: ``choose`` (kept apart from the rules).

The rules code writes every legal decision of a decision point into ``context.moves[:n]`` and calls
:func:`choose`, which dispatches on the seat's family id (an if/elif) and returns a row index.
Bots read only public state and their own hand (H12): board, displays, scores, tokens, noble
cards, hand *sizes*; never decks or other hands.

Families (ids and parameter vectors documented in ``parameters.py``):
* RANDOM: uniform over the legal decisions at every decision point (seat's own stream).
* GREEDY: one-step heuristic scored with a float parameter vector (greedy.py).
* SEARCH: determinized Monte Carlo rollouts at the turn option, take and betrayal-play decisions
  (search.py); greedy with its own greedy parameters everywhere else and inside the rollouts.

The decision kinds (``D_*``) and the move row layout of each are in sim/heads_of_state/decisions.py.
"""

import hashlib

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from sim.core.kernels import game_kernel
from sim.core.random_streams import below
from sim.heads_of_state import events
from sim.heads_of_state.events import K_FORCED, K_SEARCH_FN, K_SEARCH_TAG
from sim.heads_of_state.state import RNG_BOT_0
from strategies.heads_of_state.greedy import greedy_choose
from strategies.heads_of_state.parameters import GREEDY, RANDOM, SEARCH


@game_kernel
def choose(state, data, context, player, kind, n):
    """Index (0..n-1) of the chosen row of context.moves for seat p at a decision point of ``kind``."""
    forced = context.counters[K_FORCED]
    if forced != 0:                    # a search bot replaying its candidate on a copy (search.py)
        context.counters[K_FORCED] = 0
        return forced - 1
    if n <= 1:
        return 0
    family = context.bot_family[player]
    if family == RANDOM:
        return below(state.streams, RNG_BOT_0 + player, n)
    elif family == GREEDY:
        return greedy_choose(state, data, context, player, kind, n)
    elif family == SEARCH:
        return search_or_greedy(state, data, context, player, kind, n)
    return 0


def search_or_greedy(state, data, context, player, kind, n):
    """A search bot's decision: compiled per context type (the overload below); this body runs
    only interpreted (NUMBA_DISABLE_JIT=1), where rollouts (counters[K_SEARCH_FN] == 0) never
    search."""
    if context.counters[K_SEARCH_FN] == 0:
        return greedy_choose(state, data, context, player, kind, n)
    return call_search(state, data, context, player, kind, n)


@overload(search_or_greedy)
def _search_or_greedy(state, data, context, player, kind, n):
    """In a chunk with a search bot (``SearchCtx``), search (search.py). In a ``Ctx`` -- a chunk
    without search bots, or a rollout, where every seat is greedy -- the greedy: the code of every
    chunk without a search bot stays free of the search call."""
    if not isinstance(context, events.SearchCtxType):     # the compiled SearchCtx record (events.py)
        def greedy_impl(state, data, context, player, kind, n):
            return greedy_choose(state, data, context, player, kind, n)
        return greedy_impl

    def search_impl(state, data, context, player, kind, n):
        return call_search(state, data, context, player, kind, n)
    return search_impl


def search_signature_tag(st_type, d_type, cx_type):
    """A 60-bit tag of the numba types (state, data, context) a search is compiled for: the
    compiled search is called through a bare function pointer, so the types at the call site
    must be exactly the ones it was compiled for (checked at run time, see call_search)."""
    text = repr((str(st_type), str(d_type), str(cx_type)))
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def call_search(state, data, context, player, kind, n):
    """A search bot's decision (search.search_choose). Compiled (the overload below), the search is
    called through the function pointer ``context.counters[K_SEARCH_FN]`` that engine.make_ctx stores:
    bots.choose then does not call search_choose in numba's compiled call graph, so the graph has
    no cycle choose -> search -> rollout -> choose (numba's on-disk cache cannot reload a compiled
    recursion), and the SearchCtx rules engine does not link in the search and the Ctx engine of
    its rollouts (events.SearchCtx). This body runs only interpreted (NUMBA_DISABLE_JIT=1)."""
    from strategies.heads_of_state.search import search_choose    # search.py imports the rules (cycle)
    return search_choose(state, data, context, player, kind, n)


@overload(call_search)
def _call_search(state, data, context, player, kind, n):
    tag = search_signature_tag(state, data, context)

    def impl(state, data, context, player, kind, n):
        if context.counters[K_SEARCH_TAG] != tag:
            raise RuntimeError("heads-of-state: the search was compiled for other argument types")
        # "+ 0" drops numba's literal types: the function pointer takes int64
        return _call_native_search(context.counters[K_SEARCH_FN], state, data, context, player + 0, kind + 0, n + 0)
    return impl


@intrinsic
def _call_native_search(typingctx, fn, state, data, context, player, kind, n):
    """Call the compiled function at address ``fn`` (numba's native calling convention, as
    numba's first-class function types do) with (state, data, context, player, kind, n); returns its int64."""
    signature = types.int64(types.int64, state, data, context, types.int64, types.int64, types.int64)

    def codegen(context, builder, sig, args):
        arg_types = sig.args[1:]
        fn_type = context.call_conv.get_function_type(types.int64, arg_types)
        fn_ptr = builder.inttoptr(args[0], fn_type.as_pointer())
        status, result = context.call_conv.call_function(builder, fn_ptr, types.int64, arg_types,
                                                         args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result
    return signature, codegen
