"""Covariance steps of the second-order rules (AROW, CW, SCW, NHERD, SOP, IELLIP, NAROW): a
covariance Sigma kept whole (a symmetric matrix, its lower triangle from
:data:`TRIANGLE_FROM` features on) or as its diagonal; x' Sigma x checked
(:func:`positive_form`), Sigma x, and the rank-one steps mu += a Sigma x, Sigma -= beta
(Sigma x)(Sigma x)'. Rows are ``(idx, val)`` pairs as in :mod:`olbench.rules.rows`.
"""

from __future__ import annotations

import math

from olbench._jit import inline
from olbench.rules.lanes import LANES
from olbench.rules.reductions import dense_row_dot_axpy, dot, sqnorm
from olbench.rules.rows import axpy


@inline
def positive_form(q, val):
    """q = x' Sigma x as the second-order rules may use it, or NaN when it is not what a
    positive definite Sigma gives for the row x = val:

    * inf: an overflow (a prior a = 1.7e308). The steps 1/(v + r) were then exactly 0 and the
      downdates 0: no move on any round, silently.
    * <= 0 for a nonzero row: Sigma has lost positive definiteness to rounding. The downdate
      Sigma - beta Sigma x x' Sigma leaves x' Sigma x r / (v + r) along x, computed as a
      difference of numbers of size v: once v / r passes 1/eps ~ 1e16 (AROW with a = 1e100,
      or r = 1e-20; NHERD with C = 1e20) no digit of it is left, and the rules stepped on
      rounding noise (or skipped the step).

    NaN reaches the output, where the loop stops and olbench.breakdown names the parameter. A
    zero row keeps q = 0 (the rules take no step on it)."""
    if q < math.inf and (q > 0.0 or sqnorm(val) == 0.0):
        return q
    return math.nan


# ----------------------------------------------------------------------------- diagonal
@inline
def diag_axpy(w, a, diag, idx, val):
    """w += a D x for D = diag(diag)."""
    if idx is None:
        for j in range(val.shape[0]):
            w[j] += a * diag[j] * val[j]
    else:
        for k in range(idx.shape[0]):
            i = idx[k]
            w[i] += a * diag[i] * val[k]


@inline
def diag_downdate(diag, beta, idx, val):
    """D <- diag(D - beta (D x)(D x)'): the diagonal of a rank-one downdate."""
    if idx is None:
        for j in range(val.shape[0]):
            dx = diag[j] * val[j]
            diag[j] -= beta * dx * dx
    else:
        for k in range(idx.shape[0]):
            i = idx[k]
            dx = diag[i] * val[k]
            diag[i] -= beta * dx * dx


@inline
def diag_project(diag, c, squared, idx, val):
    """D <- D / (1 + c D x^2) elementwise, i.e. D^-1 <- D^-1 + c diag(x)^2: a rank-one update
    of the inverse projected on the diagonal (CW's, SCW's and NHERD's diagonal rule); with
    ``squared``, D <- D / (1 + c D x^2)^2 (NHERD's exact diagonal rule)."""
    if idx is None:
        for j in range(val.shape[0]):
            q = 1.0 + c * diag[j] * val[j] * val[j]
            diag[j] = diag[j] / (q * q) if squared else diag[j] / q
    else:
        for k in range(idx.shape[0]):
            i = idx[k]
            q = 1.0 + c * diag[i] * val[k] * val[k]
            diag[i] = diag[i] / (q * q) if squared else diag[i] / q


@inline
def diag_step(w, diag, a, beta, idx, val):
    """The same step on a diagonal covariance, keeping the diagonal of the downdate ("drop").
    A dense row takes both in one pass (each entry's two updates read the old diag[j], as
    in two passes: the same numbers, half the memory traffic); a sparse row keeps two passes,
    so that a repeated column index reads the old diagonal as it does densely."""
    if idx is None:
        for j in range(val.shape[0]):
            dx = diag[j] * val[j]
            w[j] += a * diag[j] * val[j]
            diag[j] -= beta * dx * dx
    else:
        diag_axpy(w, a, diag, idx, val)
        diag_downdate(diag, beta, idx, val)


# ----------------------------------------------------------------------------- full matrices
# A symmetric d x d matrix (a covariance, its inverse) with d >= TRIANGLE_FROM is kept as its
# lower triangle: row i holds M[i, :i + 1], and the entries right of the diagonal stay zero
# (they start so, and nothing writes them). The mat-vec and the rank-one downdate then touch
# half the matrix, as BLAS's dsymv/dsyr do: d = 300, one run, AROW 21,276 -> 14,476 ns a
# round, SOP 16,330 -> 12,396 (benchmarks/README). A smaller matrix stays in the nearest
# caches (96 x 96 doubles is 72 KiB, L1 here 48), where the triangle's extra load of x
# and its one reduction per row cost more than the traffic they save (one run, ns a
# round, triangle against the whole square: SCW-I d = 48 483 / 356, d = 80 1,160 / 913;
# d = 100 1,273 / 1,733), so there the whole square is kept and updated. Learners export
# the whole matrix either way (learners.state.symmetric).
TRIANGLE_FROM = 96


@inline
def kept_columns(d, i):
    """How many leading columns of row i a symmetric d x d matrix keeps: i + 1, or all d
    below TRIANGLE_FROM features."""
    return i + 1 if d >= TRIANGLE_FROM else d


@inline
def symmetric_matvec(M, idx, val, out):
    """out = M x for a symmetric M kept as above.

    The whole square: out = sum of x_i M[i] over i in order (stored order for a sparse x,
    which touches only the rows of its non-zeros).

    The triangle, dense x, one pass over it (as BLAS's dsymv): row i's entries left of the
    diagonal are M[j, i] for j < i, which add x_i M[i, j] to out[j]; then the blocked dot of
    the row with x is all of out[i] that rows 0..i give, and rows below add to it in their
    turn. So out[j] = (blocked sum of M[j, k] x_k over k <= j) + x_{j+1} M[j+1, j] + ... +
    x_{d-1} M[d-1, j], in that order. The dot runs on to the next multiple of eight columns
    (or d), over zeros, so that it has no remainder: each term lands in the lane it would
    have anyway, and adding zeros changes no sum's value. The triangle, sparse x: the sum of
    x_i M[i] over the stored entries in stored order, each row M[i] read as M[i, :i + 1]
    and the column M[i+1:, i] below the diagonal."""
    d = out.shape[0]
    if d < TRIANGLE_FROM:
        out[:] = 0.0
        if idx is None:
            for i in range(val.shape[0]):
                a = val[i]
                if a != 0.0:
                    for j in range(d):
                        out[j] += a * M[i, j]
        else:
            for k in range(idx.shape[0]):
                a = val[k]
                i = idx[k]
                for j in range(d):
                    out[j] += a * M[i, j]
    elif idx is None:
        for i in range(d):
            a = val[i]
            end = min(d, (i + LANES) & -LANES)   # i + 1, up to a multiple of 8 (or d)
            full = end - end % LANES
            # one pass over the row's full blocks for both the dot and the axpy; the axpy
            # also adds to out[i:full] (the diagonal term, then zeros), which rows i.. then
            # overwrite
            blocks = dense_row_dot_axpy(M[i], val[:full], out, a)
            rest = 0.0
            for k in range(full, end):
                rest += M[i, k] * val[k]
            for k in range(full, i):
                out[k] += a * M[i, k]
            out[i] = blocks + rest
    else:
        out[:] = 0.0
        for k in range(idx.shape[0]):
            a = val[k]
            i = idx[k]
            for j in range(i + 1):
                out[j] += a * M[i, j]
            for j in range(i + 1, d):
                out[j] += a * M[j, i]


@inline
def rank_one_downdate(M, beta, v):
    """M -= beta v v' on the part of M that is kept (see above)."""
    d = v.shape[0]
    for i in range(d):
        bi = beta * v[i]
        for j in range(kept_columns(d, i)):
            M[i, j] -= bi * v[j]


@inline
def full_sigma_x(A, idx, val):
    """(Sigma x, x' Sigma x) for a full covariance kept as AROW keeps it: ``A[:d]`` = Sigma (as
    kept above) and ``A[d]`` scratch, which receives Sigma x (nothing is allocated per row);
    x' Sigma x through positive_form."""
    sigma_x = A[A.shape[1]]
    symmetric_matvec(A, idx, val, sigma_x)
    return sigma_x, positive_form(dot(sigma_x, idx, val), val)


@inline
def full_step(w, A, sigma_x, a, beta):
    """The second-order step on a full covariance: mu += a Sigma x and
    Sigma -= beta (Sigma x)(Sigma x)'."""
    axpy(w, a, None, sigma_x)
    rank_one_downdate(A, beta, sigma_x)
