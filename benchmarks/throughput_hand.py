"""The hand-written compiled loops of the throughput benchmark: one ``@numba.njit`` loop per
rule, no olbench code, doing the same work per round as olbench's (record the margin and the
update flag, update in place), so that the final state is comparable at tight tolerance; and
the dot pass, the least work any linear rule does per round.

Imported under this module's own name by the script and by the smoke test alike: numba's
on-disk cache records the module of each compiled loop.
"""

from __future__ import annotations

import math
import time

import numba
import numpy as np
from throughput_cases import A0, ETA, OGD_ETA, PHI, C, R, kernel_width


# Written by hand for one rule each: no olbench code. Same arithmetic in the same order as
# the rule's definition, so the final state is comparable to olbench's at tight tolerance.
@numba.njit(forceinline=True, cache=True, fastmath=False)
def _term(a, b, x, j):
    return a[j] * x[j] if b is None else a[j] * x[j] * b[j]


@numba.njit(forceinline=True, cache=True, fastmath=False)
def hdot(a, b, x, blocked):
    """sum_j a[j] x[j] (times b[j] when b is given). ``blocked``: in eight partial sums
    combined in a fixed order, as olbench sums (olbench/rules/rows.py); otherwise one term
    at a time, as olbench summed before the sums were blocked (the "1-chain" column)."""
    n = x.shape[0]
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    k = 0
    while blocked and k + 8 <= n:
        s0 += _term(a, b, x, k)
        s1 += _term(a, b, x, k + 1)
        s2 += _term(a, b, x, k + 2)
        s3 += _term(a, b, x, k + 3)
        s4 += _term(a, b, x, k + 4)
        s5 += _term(a, b, x, k + 5)
        s6 += _term(a, b, x, k + 6)
        s7 += _term(a, b, x, k + 7)
        k += 8
    rest = 0.0
    while k < n:
        rest += _term(a, b, x, k)
        k += 1
    return (((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))) + rest


@numba.njit(cache=True, fastmath=False)
def dot_pass(X, w, margins):
    """The least work any linear rule does per round: read the row, take w.x (blocked), record
    it; no update, so no round waits for the previous one. Its time is what reading X at the
    machine's speed costs in practice (the "dot pass" column), a floor for every rule here."""
    for t in range(X.shape[0]):
        margins[t] = hdot(w, None, X[t], True)


def run_dot_pass(X) -> float:
    w, margins = np.ones(X.shape[1]), np.empty(X.shape[0])
    start = time.perf_counter()
    dot_pass(X, w, margins)
    return time.perf_counter() - start


@numba.njit(cache=True, fastmath=False)
def hand_perceptron(X, y, eta, w, margins, updated, blocked=True, hinge=False):
    """w += eta y x on a mistake (y w.x <= 0); with ``hinge``, where y w.x < 1: OGD on the
    hinge loss with a constant step."""
    n, d = X.shape
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        if (y[t] * m < 1.0) if hinge else (y[t] * m <= 0.0):
            a = eta * y[t]
            for j in range(d):
                w[j] += a * X[t, j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_pa1(X, y, C, w, margins, updated, blocked=True):
    n, d = X.shape
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        loss = 1.0 - y[t] * m
        if loss > 0.0:
            sq = hdot(X[t], None, X[t], blocked)
            if sq > 0.0:
                a = y[t] * min(C, loss / sq)
                for j in range(d):
                    w[j] += a * X[t, j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_arow_diag(X, y, r, w, diag, margins, updated, blocked=True):
    n, d = X.shape
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        if y[t] * m < 1.0:
            v = hdot(diag, X[t], X[t], blocked)
            if v > 0.0:
                beta = 1.0 / (v + r)
                a = (1.0 - y[t] * m) * y[t] * beta
                for j in range(d):
                    w[j] += a * diag[j] * X[t, j]
                for j in range(d):
                    dx = diag[j] * X[t, j]
                    diag[j] -= beta * dx * dx
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(forceinline=True, cache=True, fastmath=False)
def sym_matvec(S, x, sx):
    """sx = S x, accumulated row by row (S is symmetric), skipping the zeros of x."""
    d = x.shape[0]
    for j in range(d):
        sx[j] = 0.0
    for i in range(d):
        xi = x[i]
        if xi != 0.0:
            for j in range(d):
                sx[j] += xi * S[i, j]


@numba.njit(forceinline=True, cache=True, fastmath=False)
def step_and_shrink(w, a, S, beta, sx):
    """w += a sx and S -= beta sx sx': the update of every full-covariance rule here."""
    d = sx.shape[0]
    for j in range(d):
        w[j] += a * sx[j]
    for i in range(d):
        bi = beta * sx[i]
        for j in range(d):
            S[i, j] -= bi * sx[j]


@numba.njit(cache=True, fastmath=False)
def hand_arow_full(X, y, r, w, S, margins, updated, blocked=True):
    n, d = X.shape
    sx = np.empty(d)  # scratch, allocated once
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        if y[t] * m < 1.0:
            sym_matvec(S, X[t], sx)
            v = hdot(sx, None, X[t], blocked)
            if v > 0.0:
                beta = 1.0 / (v + r)
                a = (1.0 - y[t] * m) * y[t] * beta
                step_and_shrink(w, a, S, beta, sx)
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_scw_full(X, y, C, phi, w, S, margins, updated, blocked=True):
    """SCW-I (Wang, Zhao, Hoi 2012) with a full covariance, as its paper writes it."""
    n, d = X.shape
    sx = np.empty(d)
    psi, xi = 1.0 + phi * phi / 2.0, 1.0 + phi * phi
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        sym_matvec(S, X[t], sx)
        v = hdot(sx, None, X[t], blocked)
        ym = y[t] * m
        if phi * np.sqrt(v) - ym > 0.0:
            alpha = (-ym * psi + np.sqrt(ym * ym * phi ** 4 / 4.0 + v * phi * phi * xi)) / (v * xi)
            alpha = min(C, max(0.0, alpha))
            sqrt_u = 0.5 * (-alpha * v * phi + np.sqrt(alpha * alpha * v * v * phi * phi + 4 * v))
            beta = alpha * phi / (sqrt_u + v * alpha * phi)
            step_and_shrink(w, alpha * y[t], S, beta, sx)
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_sop_full(X, y, w, S, margins, updated, blocked=True):
    """Second-order Perceptron: S = (a I + sum over mistakes x x')^-1, w = S v."""
    n, d = X.shape
    sx = np.empty(d)
    for t in range(n):
        sym_matvec(S, X[t], sx)
        wx, v = hdot(w, None, X[t], blocked), hdot(sx, None, X[t], blocked)
        m = wx / (1.0 + v)
        margins[t] = m
        if y[t] * m <= 0.0:
            beta = 1.0 / (1.0 + v)
            a = (y[t] - wx) * beta
            step_and_shrink(w, a, S, beta, sx)
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_kernel_pa1(X, y, C, two_h2, coef, S, margins, updated):
    """Gaussian-kernel PA-I; support vectors in S[:n_sv], coefficients in coef[:n_sv]."""
    n_sv = 0
    for t in range(X.shape[0]):
        x = X[t]
        f = 0.0
        for i in range(n_sv):
            dist = 0.0
            for j in range(x.shape[0]):
                diff = x[j] - S[i, j]
                dist += diff * diff
            f += coef[i] * math.exp(-dist / two_h2)
        margins[t] = f
        loss = 1.0 - y[t] * f
        if loss > 0.0:
            S[n_sv, :] = x
            coef[n_sv] = y[t] * min(C, loss)      # k(x, x) = 1
            n_sv += 1
            updated[t] = True
        else:
            updated[t] = False
    return n_sv


def run_hand(rule: str, X, y, blocked: bool = True):
    """Run the hand loop; returns (seconds of the compiled call alone, w, aux state).
    ``blocked=False``: the same rule summing one term at a time (olbench before its sums were
    blocked), for the "1-chain" column."""
    n, d = X.shape
    w, margins, updated = np.zeros(d), np.empty(n), np.empty(n, dtype=np.bool_)
    if rule == "kernel_pa1":
        coef, S = np.zeros(n), np.zeros((n, d))
        start = time.perf_counter()
        n_sv = hand_kernel_pa1(X, y, C, 2.0 * kernel_width(d) ** 2, coef, S, margins, updated)
        return time.perf_counter() - start, coef[:n_sv], S[:n_sv]
    if rule == "perceptron":
        start = time.perf_counter()
        hand_perceptron(X, y, ETA, w, margins, updated, blocked)
        return time.perf_counter() - start, w, None
    if rule == "pa1":
        start = time.perf_counter()
        hand_pa1(X, y, C, w, margins, updated, blocked)
        return time.perf_counter() - start, w, None
    if rule == "ogd":
        start = time.perf_counter()
        hand_perceptron(X, y, OGD_ETA, w, margins, updated, blocked, hinge=True)
        return time.perf_counter() - start, w, None
    if rule == "arow_diag":
        diag = np.full(d, A0)
        start = time.perf_counter()
        hand_arow_diag(X, y, R, w, diag, margins, updated, blocked)
        return time.perf_counter() - start, w, diag
    if rule == "sop_full":
        S = np.eye(d) / A0
        start = time.perf_counter()
        hand_sop_full(X, y, w, S, margins, updated, blocked)
        return time.perf_counter() - start, w, S
    S = A0 * np.eye(d)
    start = time.perf_counter()
    if rule == "scw_full":
        hand_scw_full(X, y, C, PHI, w, S, margins, updated, blocked)
    else:
        hand_arow_full(X, y, R, w, S, margins, updated, blocked)
    return time.perf_counter() - start, w, S


__all__ = ["hdot", "run_dot_pass", "run_hand"]
