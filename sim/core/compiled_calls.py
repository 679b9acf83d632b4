"""Calling a compiled kernel through its address: how a game keeps its search bot out of the
compiled call graph of every other bot (both games' search bots use it).

Why: numba compiles each ``@njit`` function into a library that links in every function it calls,
and optimizes and generates machine code for all of it again when it is finalized. A search bot's
rollouts play the whole rules engine, so a decision dispatcher that called the search directly
would make every function above it -- the turn, the phase, the round, the game and chunk loops --
compile the search and a second copy of the engine, even in a chunk where no search bot sits
(Louis XIV: half its compile time). The dispatcher instead calls the search through the address
of its compiled entry point, which the engine looks up (:func:`compiled_entry`, compiling the
search then, or loading it from numba's cache) only for a chunk with a search bot. The compiled
call graph then has no path chunk loop -> search, and no cycle search -> rollout -> dispatcher ->
search either (numba's on-disk cache cannot reload a compiled recursion).

The address is stored in the game's own arrays with a tag of the argument types the entry was
compiled for; :func:`call_compiled` checks the tag before it calls (a bare address carries no
types). Under ``NUMBA_DISABLE_JIT=1`` the "address" is an index into a list of plain Python
functions, so interpreted games search exactly as compiled ones do.
"""
from __future__ import annotations

import hashlib

import numba
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

# the plain Python functions entries stand for under NUMBA_DISABLE_JIT (entry = index + 1)
_INTERPRETED: list = []
_ENTRIES: dict = {}


def signature_tag(arg_types: tuple) -> int:
    """A 60-bit tag of the numba types an entry is compiled for (and a call site passes)."""
    text = repr(tuple(str(arg_type) for arg_type in arg_types))
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def compiled_entry(dispatcher, arguments: tuple) -> tuple[int, int]:
    """(address, tag) of ``dispatcher`` compiled for the types of ``arguments`` (example values,
    six of them, returning int64): compiled now, or loaded from numba's cache, once per process."""
    if numba.config.DISABLE_JIT:
        function = getattr(dispatcher, "py_func", dispatcher)
        if function not in _INTERPRETED:
            _INTERPRETED.append(function)
        return _INTERPRETED.index(function) + 1, 0
    arg_types = tuple(numba.typeof(argument) for argument in arguments)
    key = (dispatcher, arg_types)
    if key not in _ENTRIES:
        dispatcher.compile(arg_types)
        result = dispatcher.overloads[arg_types]
        if result.signature.return_type != types.int64:
            raise RuntimeError(f"{dispatcher.py_func.__name__} returns {result.signature.return_type}, expected int64")
        address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
        if not address:
            raise RuntimeError(f"no address for the compiled {dispatcher.py_func.__name__}")
        _ENTRIES[key] = (address, signature_tag(arg_types))
    return _ENTRIES[key]


def call_compiled(address, tag, first, second, third, fourth, fifth, sixth):
    """The int64 the entry at ``address`` returns for these six arguments (interpreted: the
    plain Python function the entry stands for)."""
    if address == 0:
        raise RuntimeError("no compiled entry was set for this call (compiled_calls.compiled_entry)")
    return _INTERPRETED[address - 1](first, second, third, fourth, fifth, sixth)


@overload(call_compiled)
def _call_compiled(address, tag, first, second, third, fourth, fifth, sixth):
    expected = signature_tag(tuple(types.unliteral(arg) for arg in (first, second, third, fourth, fifth, sixth)))

    def impl(address, tag, first, second, third, fourth, fifth, sixth):
        if address == 0:
            raise RuntimeError("no compiled entry was set for this call (compiled_calls.compiled_entry)")
        if tag != expected:
            raise RuntimeError("a compiled entry was called with other argument types than it was compiled for")
        return _call_native(address, first, second, third, fourth, fifth, sixth)
    return impl


@intrinsic
def _call_native(typingctx, address, first, second, third, fourth, fifth, sixth):
    """Call the function at ``address`` (numba's native calling convention, as numba's own
    first-class function types do) with six arguments; returns its int64, propagating an
    exception it raised."""
    # literal types (a constant seat number) are passed as the plain types the entry was compiled for
    signature = types.int64(types.int64, *(types.unliteral(arg) for arg in (first, second, third, fourth, fifth,
                                                                            sixth)))

    def codegen(context, builder, sig, args):
        arg_types = sig.args[1:]
        function_type = context.call_conv.get_function_type(types.int64, arg_types)
        pointer = builder.inttoptr(args[0], function_type.as_pointer())
        status, result = context.call_conv.call_function(builder, pointer, types.int64, arg_types, args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result
    return signature, codegen
