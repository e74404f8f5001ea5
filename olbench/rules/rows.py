"""Row operations written once for dense and sparse rows.

A row is passed as ``(idx, val)``: for a dense row ``idx is None`` and ``val`` holds all d
values; for a CSR row ``idx`` holds the column indices and ``val`` the non-zero values. numba
compiles a separate specialisation for ``idx=None`` and prunes the other branch, so the dense
path carries no indirection. Update rules call only these helpers, never index rows
themselves: that is what lets each rule be written once for both formats.
"""

from __future__ import annotations

import math

from numba import types
from numba.extending import overload

from olbench._jit import inline, jit
from olbench.rules.lanes import LANES, lane_dot_and_quad, lane_dot_axpy, lane_sum, packable


# ----------------------------------------------------------------------------- reductions
# Every sum over a row is blocked: eight independent partial sums, each taking every eighth
# term, combined in one fixed order, then the remainder. A single running sum is a chain of
# dependent additions the CPU cannot overlap (one add latency per term); eight chains fill
# the pipeline (2x at d >= 100). The order is fixed by the code, not by the compiler
# (fastmath stays off), so a result is the same on every run and machine for the same input
# and numba version. It differs from a one-at-a-time sum only in rounding (~1e-16 relative).
@inline
def _term(a, idx, val, b, k):
    """a[i] x_i, times b[k] when b is given; i is the k-th stored entry's column."""
    t = a[k if idx is None else idx[k]] * val[k]
    return t if b is None else t * b[k]


@inline
def _blocked_sum(a, idx, val, b):
    """sum_k _term(a, idx, val, b, k) in eight partial sums (see above)."""
    n = val.shape[0]
    k = n - n % LANES
    rest = 0.0
    while k < n:
        rest += _term(a, idx, val, b, k)
        k += 1
    if idx is None:
        return _dense_blocks(a, val, b) + rest
    return _blocks(a, idx, val, b) + rest


def _blocks_source(a, idx, val, b):
    """The full blocks of eight: eight scalar partial sums, combined pairwise."""
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    k = 0
    while k + LANES <= val.shape[0]:
        s0 += _term(a, idx, val, b, k)
        s1 += _term(a, idx, val, b, k + 1)
        s2 += _term(a, idx, val, b, k + 2)
        s3 += _term(a, idx, val, b, k + 3)
        s4 += _term(a, idx, val, b, k + 4)
        s5 += _term(a, idx, val, b, k + 5)
        s6 += _term(a, idx, val, b, k + 6)
        s7 += _term(a, idx, val, b, k + 7)
        k += LANES
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))


_blocks = inline(_blocks_source)
# called, not inlined, from the overload below: numba's SSA pass mis-scopes this loop's
# variables when it is inlined through an overload (NumbaIRAssumptionWarning)
_blocks_outlined = jit(_blocks_source)


def _dense_blocks(a, val, b):
    """The full blocks of a dense row. Compiled, contiguous rows take the vector form of
    kernels/lanes.py: the same sums bit for bit, vectorised whatever code surrounds them."""
    return _blocks(a, None, val, b)


@overload(_dense_blocks, inline="always", jit_options={"fastmath": False})
def _dense_blocks_compiled(a, val, b):
    if packable(a, val, b):
        return lambda a, val, b: lane_sum(a, val, b)
    if isinstance(b, types.NoneType):  # a literal None, so that `b is None` is pruned
        return lambda a, val, b: _blocks_outlined(a, None, val, None)
    return lambda a, val, b: _blocks_outlined(a, None, val, b)


def _dense_row_dot_axpy(row, x, out, a):
    """The full blocks of eight of row . x (as _blocks), and out[k] += a row[k] over the same
    columns k. Compiled, contiguous rows take kernels/lanes.py's vector form, which does both
    in one pass over the row (the same numbers)."""
    s = _blocks_outlined(row, None, x, None)
    for k in range(x.shape[0] - x.shape[0] % LANES):
        out[k] += a * row[k]
    return s


_row_dot_axpy_outlined = jit(_dense_row_dot_axpy)


@overload(_dense_row_dot_axpy, inline="always", jit_options={"fastmath": False})
def _dense_row_dot_axpy_compiled(row, x, out, a):
    if packable(row, x, out):
        return lambda row, x, out, a: lane_dot_axpy(row, x, out, a)
    return lambda row, x, out, a: _row_dot_axpy_outlined(row, x, out, a)


@inline
def dot(w, idx, val):
    """w . x"""
    return _blocked_sum(w, idx, val, None)


@inline
def linear_predict(params, idx, val, w, A, s):
    """The predict rule of every linear learner: p = w . x."""
    return dot(w, idx, val)


@inline
def axpy(w, a, idx, val):
    """w += a x"""
    if idx is None:
        for j in range(val.shape[0]):
            w[j] += a * val[j]
    else:
        for k in range(idx.shape[0]):
            w[idx[k]] += a * val[k]


@inline
def scale(w, c):
    """w <- c w, in place: a dense vector, or a slice of one (the rules' only scaling loop)."""
    for j in range(w.shape[0]):
        w[j] *= c


@inline
def sqnorm(val):
    """||x||^2 (the same for both formats: only the stored values matter)."""
    return _blocked_sum(val, None, val, None)


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


@inline
def diag_quad(diag, idx, val):
    """x' D x for a diagonal matrix D = diag(diag)."""
    return _blocked_sum(diag, idx, val, val)


def _dense_dot_and_quad(w, diag, val):
    """The full blocks of w . x and x' D x of a dense row; compiled, contiguous rows take both
    in one pass (kernels/lanes.py), the same numbers."""
    return _blocks(w, None, val, None), _blocks(diag, None, val, val)


@overload(_dense_dot_and_quad, inline="always", jit_options={"fastmath": False})
def _dense_dot_and_quad_compiled(w, diag, val):
    if packable(w, val, diag):
        return lambda w, diag, val: lane_dot_and_quad(w, val, diag)
    return lambda w, diag, val: (_blocks_outlined(w, None, val, None),
                                 _blocks_outlined(diag, None, val, val))


@inline
def dot_and_diag_quad(w, diag, idx, val):
    """(w . x, x' D x), each in its blocked order: the numbers of dot and diag_quad, but a
    dense row is read once for both."""
    if idx is not None:
        return dot(w, idx, val), diag_quad(diag, idx, val)
    n = val.shape[0]
    rest_dot = rest_quad = 0.0
    for k in range(n - n % LANES, n):
        rest_dot += _term(w, None, val, None, k)
        rest_quad += _term(diag, None, val, val, k)
    blocks_dot, blocks_quad = _dense_dot_and_quad(w, diag, val)
    return blocks_dot + rest_dot, blocks_quad + rest_quad


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
# the whole matrix either way (learners.base.symmetric).
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
            blocks = _dense_row_dot_axpy(M[i], val[:full], out, a)
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


@inline
def dense_dot(a, b):
    """a . b for two dense vectors."""
    return _blocked_sum(a, None, b, None)


#: A sum of squares inside (SQUARES_LOW, SQUARES_HIGH) is far from float64's limits (about
#: 1e-308 and 1.8e308), so its square root is the norm. Outside, the squares themselves may
#: have left float64 although the norm has not: a vector of norm 1e200 (ALMA's step with
#: C = 1e200, FTRL's -eta G with eta = 1e200) squares to inf, and one of norm 1e-200 to 0.
SQUARES_LOW, SQUARES_HIGH = 1e-280, 1e280


@inline
def _scaled_norm(v):
    """(top, s) with ||v||_2 = top * s, top = max_j |v_j| and s = ||v / top|| in [1, sqrt(d)]:
    neither overflows nor underflows (LAPACK's dnrm2 scales the same way). NaN in v gives
    top = NaN; top = 0 or inf leaves s = 1."""
    top = 0.0
    for j in range(v.shape[0]):
        if v[j] != v[j]:
            return v[j], 1.0
        top = max(top, abs(v[j]))
    if top == 0.0 or top == math.inf:
        return top, 1.0
    total = 0.0
    for j in range(v.shape[0]):
        total += (v[j] / top) * (v[j] / top)
    return top, math.sqrt(total)


@inline
def norm_from_squares(v, squares):
    """||v||_2 given ``squares``, the sum of v's squares as the caller computed it: its square
    root in the common case (the same number, bit for bit), else top * ||v / top|| (inf only
    when the norm itself exceeds float64). A v holding inf or NaN gives inf or NaN."""
    if squares > SQUARES_LOW and squares < SQUARES_HIGH:
        return math.sqrt(squares)
    top, s = _scaled_norm(v)
    return top * s


@inline
def ball_scale(v, squares, radius):
    """min(1, radius / ||v||), ``squares`` the sum of v's squares as the caller computed it:
    the factor projecting v onto the ball of that radius. Outside the common case it is
    (radius / top) / s, never radius / inf: a v whose norm exceeds float64 (FTRL's -eta G with
    eta = 1.7e308) still projects onto the sphere instead of to 0. v holding inf gives 0 (and
    inf * 0 = NaN in the projected vector), NaN gives NaN."""
    if squares > SQUARES_LOW and squares < SQUARES_HIGH:
        norm = math.sqrt(squares)
        return radius / norm if norm > radius else 1.0
    top, s = _scaled_norm(v)
    if top != top or top == math.inf:
        return 0.0 if top == math.inf else top
    return (radius / top) / s if top > radius / s else 1.0


@inline
def project_l2_ball(w, radius):
    """w <- w * min(1, radius / ||w||): Euclidean projection onto {||w|| <= radius}."""
    factor = ball_scale(w, dense_dot(w, w), radius)
    if factor != 1.0:
        scale(w, factor)


@inline
def is_mistake(y, margin, libol_tie):
    """y p <= 0 (Novikoff), or sign(p) != y with sign(0) = +1 (LIBOL); see olbench.losses."""
    if libol_tie:
        return (1.0 if margin >= 0.0 else -1.0) != y
    return y * margin <= 0.0
