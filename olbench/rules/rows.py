"""Row operations written once for dense and sparse rows.

A row is passed as ``(idx, val)``: for a dense row ``idx is None`` and ``val`` holds all d
values; for a CSR row ``idx`` holds the column indices and ``val`` the non-zero values. numba
compiles a separate specialisation for ``idx=None`` and prunes the other branch, so the dense
path carries no indirection. Update rules call only these helpers, never index rows
themselves: that is what lets each rule be written once for both formats.

Here: the row operations every rule may use (w . x and the other sums, in the blocked order
of :mod:`olbench.rules.reductions`; w += a x; norms that neither overflow nor underflow, the
projection on a ball; the mistake test). The covariance steps of the second-order rules are
:mod:`olbench.rules.covariance`'s.
"""

from __future__ import annotations

import math

from olbench._jit import inline
from olbench.rules.reductions import dense_dot, diag_quad, dot, dot_and_diag_quad, sqnorm

#: the sums of a row are the blocked reductions'; the rules import them from here, with the
#: other row operations
__all__ = ["SQUARES_HIGH", "SQUARES_LOW", "axpy", "ball_scale", "dense_dot", "diag_quad",
           "dot", "dot_and_diag_quad", "entry", "is_mistake", "linear_predict", "n_entries",
           "norm_from_squares", "project_l2_ball", "sqnorm"]


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
def n_entries(idx, val):
    """How many entries a row stores: d for a dense row, its non-zeros for a CSR row. With
    :func:`entry`, the loop of a per-coordinate rule, whose cost is then O(non-zeros)."""
    return val.shape[0]


@inline
def entry(idx, val, k):
    """The k-th stored entry of a row, ``(column, value)``, k < :func:`n_entries`."""
    if idx is None:
        return k, val[k]
    return idx[k], val[k]


@inline
def scale(w, c):
    """w <- c w, in place: a dense vector, or a slice of one (the rules' only scaling loop)."""
    for j in range(w.shape[0]):
        w[j] *= c


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
