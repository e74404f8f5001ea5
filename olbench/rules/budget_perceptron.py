"""Randomized Budget Perceptron (Cavallanti, Cesa-Bianchi, Gentile, Machine Learning 69,
2007): the kernel Perceptron with at most B support vectors; on a mistake with B stored, one
of them, drawn uniformly at random, is discarded and x_t takes its slot with coefficient y_t.

The random draws come from a Lehmer generator kept in the state (``s[3]``,
x <- 48271 x mod (2^31 - 1), exact in float64 arithmetic), started from a state the front
derives from the learner's ``seed`` through ``SeedSequence`` (learners.state.generator_state):
a run is reproducible, and continuing a run continues its random sequence. A draw is uniform
on {0, ..., B-1} by rejection of the generator's top partial block.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rkhs import KERNEL_FIELDS, expansion, self_kernel, store
from olbench.rules.rows import is_mistake, sqnorm

Params = namedtuple("Params", KERNEL_FIELDS + ["budget"])

MODULUS = 2147483647   # 2^31 - 1, prime
MULTIPLIER = 48271


@inline
def uniform_index(s, slot, n):
    """A uniform draw from {0, ..., n-1}, advancing the generator state kept in s[slot]."""
    limit = ((MODULUS - 1) // n) * n
    while True:
        state = (int(s[slot]) * MULTIPLIER) % MODULUS
        s[slot] = state
        if state - 1 < limit:
            return (state - 1) % n


@inline
def update(params, idx, val, y, margin, w, A, s):
    if not is_mistake(y, margin, False):
        return False
    xsq = sqnorm(val)
    if self_kernel(params, xsq) > 0.0:
        n = int(s[0])
        if n < params.budget:
            slot = n
            s[0] = n + 1
        else:
            slot = uniform_index(s, 3, params.budget)
        store(A, slot, idx, val, xsq, s)
        w[slot] = y
    return True


RULE = make_rule("budget_perceptron", expansion, update)
