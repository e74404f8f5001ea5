"""Reproducing kernels and stored support vectors: the one place kernels are defined.

A kernel learner predicts f(x) = sum_i w[i] k(x_i, x) over its support vectors x_i, kept as
the growing state of :mod:`olbench.kernels` describes: ``A[i, :d]`` holds x_i (dense, whatever
the input format), ``A[i, d]`` its squared norm ||x_i||^2, ``w[i]`` its coefficient, ``s[0]``
the number of slots in use and ``s[1]`` = d. Every kernel learner's ``Params`` starts with the
kernel's four fields (:data:`KERNEL_FIELDS`):

* ``kernel``: :data:`LINEAR` (x.x'), :data:`POLYNOMIAL` ((x.x' + offset)^degree) or
  :data:`GAUSSIAN` (exp(-||x - x'||^2 / (2 h^2)), Sugiyama 2015's width h);
* ``two_h2`` = 2 h^2, ``degree``, ``offset``.

The squared distance of the Gaussian kernel is summed coordinate by coordinate for dense rows
and expanded as ||x||^2 + ||x_i||^2 - 2 x.x_i for sparse rows (so a sparse row costs O(nnz)
per support vector); the two agree to round-off.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from olbench._jit import inline, jit
from olbench.kernels.rows import sqnorm

LINEAR, POLYNOMIAL, GAUSSIAN = 0, 1, 2
CODES = {"linear": LINEAR, "polynomial": POLYNOMIAL, "gaussian": GAUSSIAN}
KERNEL_FIELDS = ["kernel", "two_h2", "degree", "offset"]
#: the kernel alone (what :func:`gram` takes)
Params = namedtuple("Params", KERNEL_FIELDS)


@inline
def sv_dot(A, i, idx, val):
    """x_i . x for the stored support vector i."""
    total = 0.0
    if idx is None:
        for j in range(val.shape[0]):
            total += A[i, j] * val[j]
    else:
        for k in range(idx.shape[0]):
            total += A[i, idx[k]] * val[k]
    return total


@inline
def sv_sqdist(A, i, idx, val, xsq, d):
    """||x_i - x||^2 (clipped at 0: the sparse expansion may round below it)."""
    if idx is None:
        total = 0.0
        for j in range(val.shape[0]):
            diff = val[j] - A[i, j]
            total += diff * diff
        return total
    return max(0.0, xsq + A[i, d] - 2.0 * sv_dot(A, i, idx, val))


@inline
def sv_kernel(params, A, i, idx, val, xsq, d):
    """k(x_i, x) for the stored support vector i and the row (idx, val) with ||x||^2 = xsq."""
    if params.kernel == GAUSSIAN:
        return math.exp(-sv_sqdist(A, i, idx, val, xsq, d) / params.two_h2)
    dot = sv_dot(A, i, idx, val)
    if params.kernel == POLYNOMIAL:
        return (dot + params.offset) ** params.degree
    return dot


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
    d = int(s[1])
    total = 0.0
    for i in range(int(s[0])):
        if w[i] != 0.0:
            total += w[i] * sv_kernel(params, A, i, idx, val, xsq, d)
    return total


@inline
def store(A, slot, idx, val, xsq, d):
    """Write the row x (dense or sparse) and ||x||^2 into support-vector slot ``slot``."""
    if idx is None:
        for j in range(val.shape[0]):
            A[slot, j] = val[j]
    else:
        for j in range(d):
            A[slot, j] = 0.0
        for k in range(idx.shape[0]):
            A[slot, idx[k]] = val[k]
    A[slot, d] = xsq


@inline
def append(idx, val, xsq, coef, w, A, s):
    """Add x as a new support vector with coefficient ``coef`` (the front reserved room)."""
    slot = int(s[0])
    store(A, slot, idx, val, xsq, int(s[1]))
    w[slot] = coef
    s[0] = slot + 1


@jit
def gram(params, X, Z):
    """The kernel matrix k(X[i], Z[j]) of two dense row sets (for comparators and tests)."""
    d = X.shape[1]
    out = np.empty((X.shape[0], Z.shape[0]))
    A = np.empty((Z.shape[0], d + 1))
    for j in range(Z.shape[0]):
        store(A, j, None, Z[j], np.dot(Z[j], Z[j]), d)
    for i in range(X.shape[0]):
        xsq = np.dot(X[i], X[i])
        for j in range(Z.shape[0]):
            out[i, j] = sv_kernel(params, A, j, None, X[i], xsq, d)
    return out
