"""Reproducing kernels and stored support vectors: the one place kernels are defined.

A kernel learner predicts f(x) = sum_i w[i] k(x_i, x) over its support vectors x_i, kept as
the growing state of :mod:`olbench.rules` describes: ``w[i]`` the coefficient of slot i,
``s[0]`` the number of slots in use, ``s[1]`` = d, ``s[2]`` = m, the layout of the slots
(learner-specific scalars follow from ``s[3]``). Row i of ``A`` holds support vector i in one
of two layouts (its first :func:`sv_width` columns; kernel RLS keeps a matrix after them):

* m = 0, *dense*: ``A[i, :d]`` = x_i and ``A[i, d]`` = ||x_i||^2 (width d + 1);
* m > 0, *packed*, for sparse rows of many features: ``A[i, 0]`` = the number z of stored
  entries, ``A[i, 1:1+z]`` their column indices (ascending, exact as float64 below 2^53),
  ``A[i, 1+m:1+m+z]`` their values, ``A[i, 1+2m]`` = ||x_i||^2 (width 2m + 2: room for m
  entries). A CSR row of 14 entries among 10^6 features costs 30 numbers, not 10^6 + 1.

The learner's front (:class:`olbench.learners.kernel.KernelLearner`) picks the layout that
takes less room for the rows it is given and makes room before each chunk; every function
here reads and writes both layouts, for dense and CSR incoming rows alike (``idx is None``
for a dense row). Every kernel learner's ``Params`` starts with the kernel's four fields
(:data:`KERNEL_FIELDS`):

* ``kernel``: :data:`LINEAR` (x.x'), :data:`POLYNOMIAL` ((x.x' + offset)^degree) or
  :data:`GAUSSIAN` (exp(-||x - x'||^2 / (2 h^2)), Sugiyama 2015's width h);
* ``two_h2`` = 2 h^2, ``degree``, ``offset``.

The squared distance of the Gaussian kernel is summed coordinate by coordinate for a dense
row against a dense slot, and expanded as ||x||^2 + ||x_i||^2 - 2 x.x_i otherwise (so a
sparse row costs O(nnz) per support vector); the two agree to round-off.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from olbench._jit import inline, jit
from olbench.rules.rows import sqnorm

LINEAR, POLYNOMIAL, GAUSSIAN = 0, 1, 2
CODES = {"linear": LINEAR, "polynomial": POLYNOMIAL, "gaussian": GAUSSIAN}
KERNEL_FIELDS = ["kernel", "two_h2", "degree", "offset"]
#: the kernel alone (what :func:`gram` takes)
Params = namedtuple("Params", KERNEL_FIELDS)


@inline
def sv_width(s):
    """The columns of A that one support vector takes (its layout, ``s[2]``)."""
    m = int(s[2])
    if m == 0:
        return int(s[1]) + 1
    return 2 * m + 2


@inline
def sv_dot(A, i, idx, val, s):
    """x_i . x for the stored support vector i and the row (idx, val)."""
    total = 0.0
    m = int(s[2])
    if m == 0:
        if idx is None:
            for j in range(val.shape[0]):
                total += A[i, j] * val[j]
        else:
            for k in range(idx.shape[0]):
                total += A[i, int(idx[k])] * val[k]
        return total
    stored = int(A[i, 0])
    if idx is None:
        for k in range(stored):
            total += A[i, 1 + m + k] * val[int(A[i, 1 + k])]
        return total
    a, b = 0, 0                      # both index lists ascend: a merge
    while a < stored and b < idx.shape[0]:
        ja, jb = int(A[i, 1 + a]), int(idx[b])
        if ja == jb:
            total += A[i, 1 + m + a] * val[b]
            a += 1
            b += 1
        elif ja < jb:
            a += 1
        else:
            b += 1
    return total


@inline
def sv_sqdist(A, i, idx, val, xsq, s):
    """||x_i - x||^2 (clipped at 0: the expanded form may round below it)."""
    if idx is None and int(s[2]) == 0:
        total = 0.0
        for j in range(val.shape[0]):
            diff = val[j] - A[i, j]
            total += diff * diff
        return total
    return max(0.0, xsq + A[i, sv_width(s) - 1] - 2.0 * sv_dot(A, i, idx, val, s))


@inline
def sv_kernel(params, A, i, idx, val, xsq, s):
    """k(x_i, x) for the stored support vector i and the row (idx, val) with ||x||^2 = xsq."""
    if params.kernel == GAUSSIAN:
        return math.exp(-sv_sqdist(A, i, idx, val, xsq, s) / params.two_h2)
    dot = sv_dot(A, i, idx, val, s)
    if params.kernel == POLYNOMIAL:
        return (dot + params.offset) ** params.degree
    return dot


@inline
def sv_pair_kernel(params, A, i, j, s):
    """k(x_i, x_j) for two stored support vectors."""
    m = int(s[2])
    xsq = A[j, sv_width(s) - 1]
    if m == 0:
        return sv_kernel(params, A, i, None, A[j, :int(s[1])], xsq, s)
    stored = int(A[j, 0])
    return sv_kernel(params, A, i, A[j, 1:1 + stored], A[j, 1 + m:1 + m + stored], xsq, s)


@inline
def self_kernel(params, xsq):
    """k(x, x) from ||x||^2: the squared RKHS norm of k(x, .)."""
    if params.kernel == GAUSSIAN:
        return 1.0
    if params.kernel == POLYNOMIAL:
        return (xsq + params.offset) ** params.degree
    return xsq


@inline
def self_kernel_representable(params, xsq):
    """k(x, x) is a float64 the rules can divide by: not inf, and not 0 unless it is exactly 0
    (a zero row with offset 0). Only the polynomial kernel can fail: (||x||^2 + offset)^degree
    overflows, or underflows to 0, when the degree is large for the row's scale. Every
    k(x', x) is then finite too: |k(x', x)| <= sqrt(k(x', x') k(x, x)) (Cauchy-Schwarz,
    offset >= 0)."""
    if params.kernel != POLYNOMIAL:
        return True
    kxx = self_kernel(params, xsq)
    return kxx < math.inf and (kxx > 0.0 or xsq + params.offset == 0.0)


@inline
def expansion(params, idx, val, w, A, s):
    """f(x) = sum_i w[i] k(x_i, x) over the slots in use (empty slots have w[i] = 0); NaN when
    k(x, x) has left float64, so that the loop stops at that row (olbench.breakdown names the
    parameter) instead of a rule dividing by inf (kernel PA's step was 0: w stayed 0)."""
    xsq = sqnorm(val)
    if not self_kernel_representable(params, xsq):
        return math.nan
    total = 0.0
    for i in range(int(s[0])):
        if w[i] != 0.0:
            total += w[i] * sv_kernel(params, A, i, idx, val, xsq, s)
    return total


@inline
def store(A, slot, idx, val, xsq, s):
    """Write the row x (dense or sparse) and ||x||^2 into support-vector slot ``slot`` (the
    front made the slots wide enough for the row's non-zeros)."""
    d, m = int(s[1]), int(s[2])
    if m == 0:
        if idx is None:
            for j in range(val.shape[0]):
                A[slot, j] = val[j]
        else:
            for j in range(d):
                A[slot, j] = 0.0
            for k in range(idx.shape[0]):
                A[slot, int(idx[k])] = val[k]
        A[slot, d] = xsq
        return
    stored = 0
    if idx is None:
        for j in range(val.shape[0]):
            if val[j] != 0.0:
                A[slot, 1 + stored] = j
                A[slot, 1 + m + stored] = val[j]
                stored += 1
    else:
        for k in range(idx.shape[0]):
            A[slot, 1 + k] = idx[k]
            A[slot, 1 + m + k] = val[k]
        stored = idx.shape[0]
    A[slot, 0] = stored
    A[slot, 2 * m + 1] = xsq


@inline
def move(A, source, target, s):
    """Copy support vector ``source`` into slot ``target``."""
    for j in range(sv_width(s)):
        A[target, j] = A[source, j]


@inline
def clear(A, slot, s):
    """Empty support-vector slot ``slot``."""
    for j in range(sv_width(s)):
        A[slot, j] = 0.0


@inline
def append(idx, val, xsq, coef, w, A, s):
    """Add x as a new support vector with coefficient ``coef`` (the front reserved room)."""
    slot = int(s[0])
    store(A, slot, idx, val, xsq, s)
    w[slot] = coef
    s[0] = slot + 1


@jit
def gram(params, X, Z):
    """The kernel matrix k(X[i], Z[j]) of two dense row sets (for comparators and tests)."""
    d = X.shape[1]
    out = np.empty((X.shape[0], Z.shape[0]))
    A = np.empty((Z.shape[0], d + 1))
    s = np.array([Z.shape[0], d, 0.0])          # dense slots
    for j in range(Z.shape[0]):
        store(A, j, None, Z[j], np.dot(Z[j], Z[j]), s)
    for i in range(X.shape[0]):
        xsq = np.dot(X[i], X[i])
        for j in range(Z.shape[0]):
            out[i, j] = sv_kernel(params, A, j, None, X[i], xsq, s)
    return out
