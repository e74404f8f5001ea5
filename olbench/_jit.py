"""The one place where numba options are set.

``cache=True``: compile once per machine, not per process. ``fastmath=False``: regret is a
small difference of large sums, so floating point must not be re-associated. Small helpers
and learner rules are ``inline="always"``: inlined at numba-IR level into the loop that calls
them, so a generic loop runs as fast as one written by hand for a single rule (measured:
without inlining, calls cost 10-20 ns per example at d = 20).

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

#: A compiled loop or entry point called from Python.
jit = numba.njit(**JIT_OPTIONS)

#: A compiled loop that allocates no arrays, built without numba's runtime (NRT): it then
#: keeps no reference counts, which cost atomic operations on every round (rules/loop.py).
jit_without_runtime = numba.njit(_nrt=False, **JIT_OPTIONS)

#: A small compiled function inlined into its callers (helpers, predict/update rules).
inline = numba.njit(inline="always", **JIT_OPTIONS)
