"""Blocked reductions: every sum over a row (w . x, ||x||^2, x' D x) in one fixed order.

Every sum over a row is blocked: eight independent partial sums, each taking every eighth
term, combined in one fixed order, then the remainder. A single running sum is a chain of
dependent additions the CPU cannot overlap (one add latency per term); eight chains fill
the pipeline (2x at d >= 100). The order is fixed by the code, not by the compiler
(fastmath stays off), so a result is the same on every run and machine for the same input
and numba version. It differs from a one-at-a-time sum only in rounding (~1e-16 relative).
Contiguous dense rows take the vector form of :mod:`olbench.rules.lanes` (the same sums, bit
for bit). Rows are ``(idx, val)`` pairs as in :mod:`olbench.rules.rows`, which exports these
sums to the rules.
"""

from __future__ import annotations

from numba import types
from numba.extending import overload

from olbench._jit import inline
from olbench.rules.lanes import LANES, lane_dot_and_quad, lane_dot_axpy, lane_sum, packable


@inline
def _term(a, idx, val, b, k):
    """a[i] x_i, times b[k] when b is given; i is the k-th stored entry's column."""
    t = a[k if idx is None else idx[k]] * val[k]
    return t if b is None else t * b[k]


@inline
def _blocked_sum(a, idx, val, b):
    """sum_k _term(a, idx, val, b, k) in eight partial sums (the module's order)."""
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


def _dense_blocks(a, val, b):
    """The full blocks of a dense row. Compiled, contiguous rows take the vector form of
    rules/lanes.py: the same sums bit for bit, vectorised whatever code surrounds them."""
    return _blocks(a, None, val, b)


@overload(_dense_blocks, inline="always", jit_options={"fastmath": False})
def _dense_blocks_compiled(a, val, b):
    if packable(a, val, b):
        return lambda a, val, b: lane_sum(a, val, b)
    if isinstance(b, types.NoneType):  # a literal None, so that `b is None` is pruned
        return lambda a, val, b: _blocks(a, None, val, None)
    return lambda a, val, b: _blocks(a, None, val, b)


def dense_row_dot_axpy(row, x, out, a):
    """The full blocks of eight of row . x (as _blocks), and out[k] += a row[k] over the same
    columns k. Compiled, contiguous rows take rules/lanes.py's vector form, which does both
    in one pass over the row (the same numbers)."""
    s = _blocks(row, None, x, None)
    for k in range(x.shape[0] - x.shape[0] % LANES):
        out[k] += a * row[k]
    return s


_row_dot_axpy_scalar = inline(dense_row_dot_axpy)


@overload(dense_row_dot_axpy, inline="always", jit_options={"fastmath": False})
def _dense_row_dot_axpy_compiled(row, x, out, a):
    if packable(row, x, out):
        return lambda row, x, out, a: lane_dot_axpy(row, x, out, a)
    return lambda row, x, out, a: _row_dot_axpy_scalar(row, x, out, a)


@inline
def dot(w, idx, val):
    """w . x"""
    return _blocked_sum(w, idx, val, None)


@inline
def sqnorm(val):
    """||x||^2 (the same for both formats: only the stored values matter)."""
    return _blocked_sum(val, None, val, None)


@inline
def diag_quad(diag, idx, val):
    """x' D x for a diagonal matrix D = diag(diag)."""
    return _blocked_sum(diag, idx, val, val)


def _dense_dot_and_quad(w, diag, val):
    """The full blocks of w . x and x' D x of a dense row; compiled, contiguous rows take both
    in one pass (rules/lanes.py), the same numbers."""
    return _blocks(w, None, val, None), _blocks(diag, None, val, val)


@overload(_dense_dot_and_quad, inline="always", jit_options={"fastmath": False})
def _dense_dot_and_quad_compiled(w, diag, val):
    if packable(w, val, diag):
        return lambda w, diag, val: lane_dot_and_quad(w, val, diag)
    return lambda w, diag, val: (_blocks(w, None, val, None),
                                 _blocks(diag, None, val, val))


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
def dense_dot(a, b):
    """a . b for two dense vectors."""
    return _blocked_sum(a, None, b, None)
