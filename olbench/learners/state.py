"""A learner's state: the ``(w, A, s)`` triple the compiled rules update (:mod:`olbench.rules`
says what each slot holds), the helpers that make a fresh one, the whole matrix read back
from the triangle the rules keep, and the memory such a matrix takes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from olbench.rules.covariance import TRIANGLE_FROM


class State(NamedTuple):
    """A learner's state: primary vector, auxiliary matrix, scalars (see olbench.rules)."""

    w: np.ndarray
    A: np.ndarray
    s: np.ndarray

    def copy(self) -> State:
        return State(self.w.copy(), self.A.copy(), self.s.copy())


#: rows filled at a time by :func:`symmetric` (its temporaries: about four squares of this
#: size)
SYMMETRIC_BLOCK = 128


def symmetric(kept: np.ndarray, block: int = SYMMETRIC_BLOCK) -> np.ndarray:
    """The whole symmetric matrix of which the compiled rules keep the lower triangle (from
    ``TRIANGLE_FROM`` features on, ``olbench.rules.rows``: the entries right of the
    diagonal are zeros there), or a copy of the square they keep below that. Filled block
    of rows by block, so that it takes one d x d matrix, not three (d = 20,000: 3.2 GB).

    >>> bool((symmetric(np.tril(np.ones((100, 100)))) == 1.0).all())
    True
    >>> lower = np.tril(np.arange(1.0, 1e4 + 1).reshape(100, 100))
    >>> bool((symmetric(lower, block=30) == lower + np.tril(lower, -1).T).all())
    True
    """
    if kept.shape[1] < TRIANGLE_FROM:
        return kept.copy()
    full = np.empty_like(kept)
    for start in range(0, kept.shape[0], block):
        stop = min(start + block, kept.shape[0])
        square = kept[start:stop, start:stop]
        full[start:stop, :start] = kept[start:stop, :start]
        full[start:stop, start:stop] = np.tril(square) + np.tril(square, -1).T
        full[:start, start:stop] = kept[start:stop, :start].T
    return full


def identity_blocks(d: int, *scales: float, extra_rows: int = 0) -> np.ndarray:
    """scale * I (d x d) for each scale, stacked, then ``extra_rows`` zero rows (scratch),
    allocated once (stacking ``a * np.eye(d)`` takes three d x d matrices on the way).

    >>> identity_blocks(2, 3.0, 0.5, extra_rows=1).tolist()
    [[3.0, 0.0], [0.0, 3.0], [0.5, 0.0], [0.0, 0.5], [0.0, 0.0]]
    """
    blocks = np.zeros((len(scales) * d + extra_rows, d))
    for k, scale in enumerate(scales):
        np.fill_diagonal(blocks[k * d:(k + 1) * d], scale)
    return blocks


def vector_state(d: int, n_scalars: int = 1) -> State:
    """State of a learner whose only memory is a weight vector w0 = 0 (and counters)."""
    return State(np.zeros(d), np.zeros((0, d)), np.zeros(n_scalars))


def generator_state(seed: int, high: int) -> int:
    """The starting state, in {1, ..., high}, of a generator a learner keeps in its state,
    derived from its ``seed`` through numpy's ``SeedSequence`` (which hashes the seed), so
    that nearby seeds start unrelated sequences. Seeding such a generator with the seed
    itself (1 + seed) made the draws of seeds s and s' multiples of each other: the budget
    perceptron's first evicted slot was seed mod B for small seeds.

    >>> [generator_state(seed, 10) for seed in range(6)]   # not 1 + seed
    [5, 2, 6, 8, 5, 4]
    """
    word = int(np.random.SeedSequence(int(seed)).generate_state(1, np.uint64)[0])
    return 1 + word % int(high)


def square_footprint(d: int) -> float:
    """Bytes of a learner keeping a d x d matrix with a scratch row and a d-vector, at its
    largest: while it exports the matrix whole (:func:`symmetric`) and the vector."""
    block = min(d, SYMMETRIC_BLOCK) if d >= TRIANGLE_FROM else 0
    return 8.0 * ((2 * d + 3) * d + 4 * block * block + 8)
