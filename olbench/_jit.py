"""The one place where numba options are set.

``cache=True``: compile once per machine, not per process. ``fastmath=False``: regret is a
small difference of large sums, so floating point must not be re-associated.

Helpers and learner rules are :data:`inline`: each is compiled once per signature and
marked for LLVM to inline into every compiled caller (numba's ``forceinline``), so that a
generic loop runs as fast as one written by hand for a single rule (a call left in place
costs 10-20 ns per example at d = 20; LLVM's own heuristics leave the blocked sums and
``axpy`` as calls). They were inlined at numba-IR level before (``inline="always"``), which
runs numba's untyped pipeline over each callee again at every call site and deep-copies the
callee's IR block by block, the whole variable scope with each block: compiling the 36 rules'
loops took about 16 CPU-minutes, now about 2, with the same loop speed
(benchmarks/README.md, "Compile time") and the same numbers bit for bit.

Set ``NUMBA_DISABLE_JIT=1`` to run all of it as plain Python (the tests do so once, so that
coverage sees the rules).
"""

from __future__ import annotations

import os

import numba

# numba leaves LLVM's SLP vectoriser off by default. olbench turns it on: it packs
# independent scalar operations into vector registers, such as the eight partial sums of a
# sparse row (dense rows are summed in explicit vector instructions, rules/lanes.py), and
# measured faster on the full-covariance rules. It does not re-associate anything (fast-math
# stays off), so results are bit-identical with it on or off (tests/test_reductions.py);
# only speed changes. It applies to code compiled after this import; an explicit
# NUMBA_SLP_VECTORIZE wins.
if "NUMBA_SLP_VECTORIZE" not in os.environ:
    numba.config.SLP_VECTORIZE = 1

JIT_OPTIONS = dict(cache=True, fastmath=False, nogil=True)


def _tolerate_stale_indexes() -> None:
    """Read an on-disk cache index that names a type which no longer exists as stale, not
    as an error. A helper's index (``score_predict``'s, say) lists its compiled signatures,
    whose argument types include the ``Params`` of every rule that inlined it, defined in
    other modules; numba decides freshness by the helper's own source file only, so after a
    rule's ``Params`` class was renamed or removed (an edit, an upgrade of an editable
    install) unpickling the index raised AttributeError at the next compile. Stale, the
    signature is compiled again, as numba does for any other stale index."""
    from numba.core import caching

    index_file = getattr(caching, "IndexDataCacheFile", None)
    load = getattr(index_file, "_load_index", None)
    if load is None or getattr(load, "tolerates_stale", False):
        return

    def _load_index(self):
        try:
            return load(self)
        except (AttributeError, ImportError, ModuleNotFoundError):
            return {}

    _load_index.tolerates_stale = True
    index_file._load_index = _load_index


_tolerate_stale_indexes()

#: A compiled loop or entry point called from Python.
jit = numba.njit(**JIT_OPTIONS)

#: A compiled loop that allocates no arrays, built without numba's runtime (NRT): it then
#: keeps no reference counts, which cost atomic operations on every round (rules/loop.py).
jit_without_runtime = numba.njit(_nrt=False, **JIT_OPTIONS)

#: A helper or a predict/update rule: compiled once per signature, without numba's runtime
#: (it allocates nothing, and a loop without the runtime may call it), and inlined by LLVM
#: into every compiled caller.
inline = numba.njit(forceinline=True, _nrt=False, **JIT_OPTIONS)

#: The same for a helper or rule that creates arrays or sorts (numba's sort allocates its
#: stack): it keeps numba's runtime, and so do the loops of its rule (``make_rule(...,
#: allocates=True)``, which refuses an allocating rule otherwise).
inline_allocating = numba.njit(forceinline=True, _nrt=True, **JIT_OPTIONS)
