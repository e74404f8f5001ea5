"""Exact dual coordinate descent for piecewise-linear loss + ridge, with active-set polishing.

The problem (lam > 0)::

    P(u) = sum_t phi_t(x_t.u) + lam/2 ||u||^2,   phi_t = hinge / absolute / eps-insensitive
    D(a) = sum_t (y_t a_t - eps |a_t|) - ||X^T a||^2 / (2 lam),   lo_t <= a_t <= hi_t
    u(a) = X^T a / lam,   D(a) <= P(u) for every a in the box (weak duality)

(hinge: a_t = y_t b_t with b_t in [0, 1] and eps = 0; absolute: a_t in [-1, 1], eps = 0;
epsilon-insensitive: a_t in [-1, 1].) This is liblinear's dual coordinate descent (Hsieh et al.
2008; Ho & Lin 2012 for the regression losses): each step maximises D exactly in one
coordinate. It converges linearly but slowly near the end, so every few epochs the run is
*polished*: the variables strictly inside their box (and off the kink a = 0) are the support
set F, on which the optimality conditions are linear (x_t.u = y_t - eps sign(a_t)); solving
that system with the others fixed gives the exact optimum as soon as F is right. Every
candidate is scored by its own certificate P(u(a)) - D(a), so a wrong guess costs time, never
correctness. Deterministic: the coordinate order is a fixed-seed permutation.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from olbench._jit import inline, jit
from olbench.rules.rows import axpy, dot

#: largest candidate set of a polishing step (a bounded least-squares problem d x |U|)
MAX_POLISH = 1500


@inline
def _step(a, yi, eps, lo, hi, qi, lam, xu):
    """The exact maximiser over [lo, hi] of the dual in coordinate i (current value a)."""
    g = yi - xu
    ap = a + lam * (g - eps) / qi        # stationary point if the new value is > 0
    am = a + lam * (g + eps) / qi        # ... if < 0
    if ap > 0.0:
        new = ap
    elif am < 0.0:
        new = am
    else:
        new = 0.0
    return min(max(new, lo), hi)


@jit
def dcd_dense(X, y, eps, lo, hi, q, lam, alpha, v, order, n_epochs):
    """n_epochs passes of coordinate ascent over ``order``; alpha and v = X^T alpha in place."""
    for _ in range(n_epochs):
        for k in range(order.shape[0]):
            i = order[k]
            new = _step(alpha[i], y[i], eps, lo[i], hi[i], q[i], lam, dot(v, None, X[i]) / lam)
            delta = new - alpha[i]
            if delta != 0.0:
                alpha[i] = new
                axpy(v, delta, None, X[i])


@jit
def dcd_csr(data, indices, indptr, y, eps, lo, hi, q, lam, alpha, v, order, n_epochs):
    """As :func:`dcd_dense` for a CSR matrix."""
    for _ in range(n_epochs):
        for k in range(order.shape[0]):
            i = order[k]
            a, b = indptr[i], indptr[i + 1]
            idx, val = indices[a:b], data[a:b]
            new = _step(alpha[i], y[i], eps, lo[i], hi[i], q[i], lam, dot(v, idx, val) / lam)
            delta = new - alpha[i]
            if delta != 0.0:
                alpha[i] = new
                axpy(v, delta, idx, val)


def box(loss: str, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The dual box [lo_t, hi_t] of each round."""
    if loss == "hinge":
        return np.minimum(y, 0.0), np.maximum(y, 0.0)
    return -np.ones_like(y), np.ones_like(y)


def polish(X, y, alpha, eps: float, lo, hi, lam: float) -> np.ndarray | None:
    with threadpool_limits(1, user_api="blas"):    # small dense solves: threads only slow down
        return _polish(X, y, alpha, eps, lo, hi, lam)


def _polish(X, y, alpha, eps: float, lo, hi, lam: float) -> np.ndarray | None:
    """The exact optimum if the rounds outside a small candidate set are settled (else None).

    Candidates U: the rounds whose alpha is strictly inside its box, plus those nearest to the
    kink x_t.u = y_t -/+ eps of their loss (at most d in all, so that X_U has full row rank).
    The others keep their alpha (at a bound, or 0). On U the dual is
    max t.a - ||X_U^T a + c||^2 / (2 lam) over the box, t = y_U - eps s_U, c = X_B^T a_B; with
    g solving X_U g = t it equals a bounded least-squares problem
    min ||X_U^T a - (lam g - c)||, solved exactly by BVLS (Stark & Parker). Signs s (which side
    of the kink a = 0 of the epsilon-insensitive loss) are those of alpha, else of the residual.
    """
    from scipy.optimize import lsq_linear

    n, d = X.shape
    u = np.asarray(X.T @ alpha, dtype=float).ravel() / lam
    r = np.asarray(X @ u, dtype=float).ravel()
    resid = y - r                                  # kink of round t at resid = eps s
    s = np.where(alpha != 0, np.sign(alpha), np.sign(resid))
    s[s == 0] = 1.0
    dist = np.abs(resid - eps * s)
    tiny = 1e-10 * np.maximum(hi - lo, 1e-300)
    free = (alpha > lo + tiny) & (alpha < hi - tiny) & (np.abs(alpha) > tiny)
    k = min(n, d, MAX_POLISH)
    dist_rank = np.where(free, -1.0, dist)          # free rounds first, then nearest the kink
    U = np.sort(np.argsort(dist_rank, kind="stable")[:k])
    if len(U) == 0:
        return None
    sU = s[U]
    t = y[U] - eps * sU
    if eps > 0:
        blo, bhi = np.where(sU > 0, 0.0, lo[U]), np.where(sU > 0, hi[U], 0.0)
    else:
        blo, bhi = lo[U], hi[U]
    rest = alpha.copy()
    rest[U] = 0.0
    c = np.asarray(X.T @ rest, dtype=float).ravel()
    XU = X[U]
    XU = XU.toarray() if sp.issparse(XU) else np.asarray(XU)
    try:
        g = np.linalg.lstsq(XU, t, rcond=None)[0]
        span = blo < bhi
        a = np.where(span, 0.0, blo)
        if span.any():
            fixed = XU[~span].T @ a[~span]
            res = lsq_linear(XU[span].T, lam * g - c - fixed, bounds=(blo[span], bhi[span]),
                             method="bvls", tol=1e-14, max_iter=10 * k + 100)
            a[span] = np.clip(res.x, blo[span], bhi[span])
    except (np.linalg.LinAlgError, ValueError):
        return None
    out = alpha.copy()
    out[U] = a
    return out


class DCDResult:
    """alpha, u(alpha), P(u), D(alpha), epochs and polishing steps used."""

    def __init__(self, alpha, u, primal, dual, epochs, polished, seconds, converged):
        self.alpha, self.u, self.primal, self.dual = alpha, u, primal, dual
        self.epochs, self.polished = epochs, polished
        self.seconds, self.converged = seconds, converged


def solve_dcd(X, y, loss: str, eps: float, lam: float, *, primal_dual, alpha0=None,
              tol: float = 1e-10, deadline: float = math.inf,
              max_epochs: int = 20_000) -> DCDResult:
    """Dual coordinate descent + polishing until P - D <= tol * max(1, |P|).

    ``primal_dual(alpha) -> (u, P, D)`` scores a dual point (the caller's certificate, so
    this module holds no loss formulas). Stops at ``deadline`` (time.monotonic) or
    ``max_epochs`` and returns the best certified point so far (``converged`` False).
    """
    start = time.monotonic()
    n = X.shape[0]
    eps = eps if loss == "epsilon_insensitive" else 0.0
    lo, hi = box(loss, y)
    if sp.issparse(X):
        q = np.asarray(X.multiply(X).sum(axis=1), dtype=float).ravel()
    else:
        q = np.einsum("ij,ij->i", X, X)
    alpha = np.zeros(n)
    if alpha0 is not None:
        m = min(n, len(alpha0))
        alpha[:m] = alpha0[:m]
    # rows x_t = 0: the dual term is maximised alone (a_t = sign(y_t) if that pays)
    zero = q <= 0
    if zero.any():
        gain = np.abs(y[zero]) > eps
        alpha[zero] = np.where(gain, np.clip(np.sign(y[zero]), lo[zero], hi[zero]), 0.0)
    alpha = np.clip(alpha, lo, hi)
    order = np.flatnonzero(~zero).astype(np.int64)
    order = order[np.random.default_rng(0).permutation(len(order))]

    def score(a):
        u, p, dv = primal_dual(a)
        return (p - dv, a, u, p, dv)

    cur = best = score(alpha)              # cur: the iterate (highest dual); best: lowest gap
    epochs = polished = 0
    chunk = 1
    if sp.issparse(X):
        Xc = sp.csr_matrix(X)
        Xc.sort_indices()
    while True:
        gap, a, u, p, dv = best
        if gap <= tol * max(1.0, abs(p)):
            return DCDResult(a, u, p, dv, epochs, polished, time.monotonic() - start, True)
        if epochs >= max_epochs or time.monotonic() > deadline:
            return DCDResult(a, u, p, dv, epochs, polished, time.monotonic() - start, False)
        alpha = cur[1].copy()
        v = np.asarray(X.T @ alpha, dtype=float).ravel()     # fresh: no drift of round-off
        k = min(chunk, max_epochs - epochs)
        if sp.issparse(X):
            dcd_csr(Xc.data, Xc.indices, Xc.indptr, y, eps, lo, hi, q, lam, alpha, v, order, k)
        else:
            dcd_dense(X, y, eps, lo, hi, q, lam, alpha, v, order, k)
        epochs += k
        chunk = min(2 * chunk, 64)
        cur = score(alpha)
        scored = [cur]
        pol = polish(X, y, alpha, eps, lo, hi, lam)
        if pol is not None:
            polished += 1
            scored.append(score(pol))
            if scored[1][4] >= cur[4]:
                cur = scored[1]
        best = min([best, *scored], key=lambda c: c[0])
