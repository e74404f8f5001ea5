"""The hard-margin direction through the origin as a nearest-point problem, solved exactly.

With z_t = y_t x_t, the best margin max_{||u||=1} min_t z_t.u equals the distance from the
origin to the convex hull of the z_t (minimax theorem), and the nearest point p* gives the
direction u* = p* / ||p*||. Every point p of the hull is a certificate both ways:

* ``gamma_upper = ||p||`` bounds the best margin from above (min_t z_t.u <= p.u <= ||p||);
* ``gamma = min_t z_t.p / ||p||`` is the margin realised by the direction p (a lower bound).

The nearest point is found by Wolfe's method (Wolfe 1976, below) on a working set of rounds:
a pass over all n rounds (O(n d)) picks the rounds that violate the margin of the current
point most; Wolfe's corral (the current support, with the Cholesky factor of its Gram matrix)
is kept from one pass to the next, so each pass only pays for the points it adds or drops --
not for a solve from scratch (the previous NNLS-only version refactorised a support of ~d
points every pass and took minutes at n = 100,000, d = 1,000). Should the corral become
numerically degenerate, Lawson & Hanson's NNLS (``scipy.optimize.nnls``) finishes from its
support, on min_{c >= 0} ||Z^T c||^2 + (1.c - 1)^2 (solution c = a / (1 + ||p||^2), p = Z^T a
the nearest point, a in the simplex). Both are exact in finitely many steps; the loop stops
once the certified relative gap (gamma_upper - gamma) / gamma_upper of a point computed
afresh from the original rows is below ``tol``, or at the deadline.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import nnls
from threadpoolctl import threadpool_limits

from olbench._jit import jit


def nearest_point(Z, *, tol: float = 1e-10, deadline: float = math.inf,
                  max_rounds: int = 1000) -> dict:
    """The nearest point to 0 of conv{rows of Z} (Z dense or CSR), certified.

    Returns a dict with ``p`` (a point of the hull), ``idx``/``a`` (its convex weights, sparse
    as index/value arrays), ``gamma`` (margin of direction p), ``gamma_upper`` = ||p||,
    ``rounds`` (passes over all n rounds), ``solver``, ``converged``.

    >>> Z = np.array([[1.0, 1.0], [1.0, -1.0], [3.0, 0.0]])
    >>> r = nearest_point(Z)
    >>> r["p"].tolist(), r["gamma"], r["gamma_upper"], r["converged"]
    ([1.0, 0.0], 1.0, 1.0, True)
    """
    n, d = Z.shape
    norms = (np.sqrt(np.asarray(Z.multiply(Z).sum(axis=1), float).ravel()) if sp.issparse(Z)
             else np.sqrt(np.einsum("ij,ij->i", Z, Z)))
    scale = float(norms.max()) if n else 1.0
    scale = scale if scale > 0 else 1.0      # the solvers see rows of norm <= 1 (conditioning)
    batch = max(100, d)
    # first candidates: the rounds with the smallest margins along the mean of the z_t
    m = np.asarray(Z @ np.asarray(Z.mean(axis=0), float).ravel(), float).ravel()
    cand = np.sort(np.argsort(m, kind="stable")[:min(n, batch)])
    run = _Run(Z, scale, tol, deadline, max_rounds)
    corral = _Corral(n, d)
    corral.start(cand[np.argmin(norms[cand])], Z, scale)
    while True:
        C = Z[cand]
        C = (C.toarray() if sp.issparse(C) else C) / scale
        status = corral.solve(C, cand, tol / 4, max_major=10 * (d + len(cand)))
        idx, a = corral.weights()
        out = run.score(idx, a, "wolfe")
        if out is not None:
            return out
        viol = run.violators(idx, batch)
        if status != 0 or len(viol) == 0:
            break                            # near-degenerate corral: finish by NNLS
        cand = viol
    # Lawson & Hanson's NNLS on the support and the most violated rounds: exact, from scratch
    W = np.sort(np.concatenate([idx, run.violators(idx, batch)]))
    while True:
        ZW = Z[W]
        ZW = ZW.toarray() if sp.issparse(ZW) else ZW
        A = np.vstack([ZW.T / scale, np.ones(len(W))])
        e = np.zeros(d + 1)
        e[-1] = 1.0
        with threadpool_limits(1, user_api="blas"):
            c = nnls(A, e, maxiter=50 * (d + len(W)))[0]
        pos = np.flatnonzero(c > 0)
        idx, x = W[pos], c[pos]
        out = run.score(idx, x / x.sum() if len(x) and x.sum() > 0 else x, "nnls")
        if out is not None:
            return out
        W = np.sort(np.concatenate([idx, run.violators(idx, batch)]))


class _Run:
    """The certificate of each candidate point (one pass over all n rounds), the best so far,
    and the stopping rule (certified, out of time or out of rounds)."""

    def __init__(self, Z, scale, tol, deadline, max_rounds):
        self.Z, self.scale, self.tol = Z, scale, tol
        self.deadline, self.max_rounds = deadline, max_rounds
        self.rounds, self.best, self.m, self.pp = 0, None, None, 0.0

    def score(self, idx, a, solver: str) -> dict | None:
        Z = self.Z
        self.rounds += 1
        p = np.asarray(Z[idx].T @ a, float).ravel() if len(idx) else np.zeros(Z.shape[1])
        self.pp = pp = float(p @ p)
        self.m = m = np.asarray(Z @ p, float).ravel()
        gu = math.sqrt(pp)
        gl = float(m.min()) / gu if gu > 0 else -math.inf
        cur = dict(p=p, idx=idx, a=a, gamma=gl, gamma_upper=gu, rounds=self.rounds,
                   solver=solver)
        if self.best is None or gu - gl < self.best["gamma_upper"] - self.best["gamma"]:
            self.best = cur
        if gu <= 1e-13 * self.scale or gu - gl <= self.tol * gu:
            return {**self.best, "converged": True}
        if self.rounds >= self.max_rounds or time.monotonic() > self.deadline:
            return {**self.best, "converged": False}
        return None

    def violators(self, idx, batch: int) -> np.ndarray:
        """The (at most batch) rounds off the support that violate the margin most."""
        viol = np.flatnonzero(self.m < self.pp * (1 - self.tol / 4))
        viol = viol[np.isin(viol, idx, invert=True)]
        return np.sort(viol[np.argsort(self.m[viol], kind="stable")[:batch]])


class _Corral:
    """The state of Wolfe's method (below), kept across passes: the corral's rows (scaled),
    their round ids, weights and the Cholesky factor of G + 1 1'."""

    def __init__(self, n: int, d: int):
        k = d + 2                            # at most d + 1 affinely independent points
        self.ZS, self.R = np.zeros((k, d)), np.zeros((k, k))
        self.ids, self.lam = np.zeros(k, np.int64), np.zeros(k)
        self.state = np.zeros(5, np.int64)
        self.in_corral = np.zeros(n, np.bool_)

    def start(self, i: int, Z, scale: float) -> None:
        z = Z[i]
        z = (z.toarray().ravel() if sp.issparse(z) else np.asarray(z, float)) / scale
        self.ZS[0], self.ids[0], self.lam[0] = z, i, 1.0
        self.R[0, 0] = math.sqrt(1.0 + float(z @ z))
        self.in_corral[i] = True
        self.state[0] = 1

    def solve(self, C, cand, tol: float, max_major: int) -> int:
        with threadpool_limits(1, user_api="blas"):      # matrix-vector products: one thread
                wolfe(np.ascontiguousarray(C, dtype=float), cand.astype(np.int64), self.in_corral,
                  self.ZS, self.ids, self.lam, self.R, self.state, tol, max_major)
        return int(self.state[1])

    def weights(self) -> tuple[np.ndarray, np.ndarray]:
        k = int(self.state[0])
        order = np.argsort(self.ids[:k], kind="stable")
        lam = self.lam[:k][order]
        return self.ids[:k][order].copy(), lam / lam.sum()


# --------------------------------------------------------------------------- Wolfe's method
# Wolfe (1976), "Finding the nearest point in a polytope", Math. Programming 11: a corral S of
# affinely independent points with positive weights; a major cycle adds the point of least
# z.x, minor cycles move to the affine minimiser of S and drop points whose weight would turn
# negative. The affine minimiser is mu = M^-1 1 / 1'M^-1 1 with M = G_S + 1 1' (G_S the Gram
# matrix of S), kept as its Cholesky factor R (M = R'R) and updated in O(k^2 + k d) per
# added or dropped point, so a whole solve costs about what one factorisation would.


@jit
def _forward(R, k, b) -> None:
    """b <- R'^-1 b for the leading k x k block (row-wise sweeps: R is row-major)."""
    for j in range(k):
        b[j] /= R[j, j]
        bj = b[j]
        for i in range(j + 1, k):
            b[i] -= R[j, i] * bj


@jit
def _chol_append(R, ZS, k, z) -> float:
    """Write the new last column of R for the point z appended to S; return its pivot^2."""
    r = np.dot(ZS, z)[:k] + 1.0         # all rows: a BLAS call on the whole (contiguous) array
    _forward(R, k, r)
    for i in range(k):
        R[i, k] = r[i]
    return float(z @ z) + 1.0 - float(r @ r)


@jit
def _chol_drop(R, k, i) -> None:
    """Delete column/row i of M from its factor R (k x k -> k-1 x k-1) by Givens rotations."""
    for r in range(k):
        for c in range(i, k - 1):
            R[r, c] = R[r, c + 1]
    for c in range(i, k - 1):
        a, b = R[c, c], R[c + 1, c]
        h = math.hypot(a, b)
        cs, sn = a / h, b / h
        for col in range(c, k - 1):
            t1, t2 = R[c, col], R[c + 1, col]
            R[c, col] = cs * t1 + sn * t2
            R[c + 1, col] = -sn * t1 + cs * t2
    for r in range(k):
        R[r, k - 1] = 0.0
        R[k - 1, r] = 0.0


@jit
def _affine_weights(R, k, mu) -> None:
    """mu = M^-1 1 / (1' M^-1 1) over the corral (two triangular solves)."""
    w = np.ones(k)
    _forward(R, k, w)
    for i in range(k - 1, -1, -1):
        s = w[i]
        for j in range(i + 1, k):
            s -= R[i, j] * mu[j]
        mu[i] = s / R[i, i]
    tot = 0.0
    for i in range(k):
        tot += mu[i]
    for i in range(k):
        mu[i] /= tot


@jit
def _point(ZS, lam, x) -> float:
    """x = sum_i lam_i z_i over the corral (lam is 0 past it); returns ||x||^2."""
    x[:] = np.dot(lam, ZS)
    return float(x @ x)


@jit
def wolfe(C, cand, in_corral, ZS, ids, lam, R, state, tol, max_major):
    """Wolfe's method over the candidate rows C (global ids ``cand``), warm-started from the
    corral (ZS[:k], ids[:k], lam[:k], R[:k, :k], k = state[0]); all updated in place.

    Stops when no candidate has z.x < (1 - tol) ||x||^2 (state[1] = 0), on a near-dependent
    point (1), or after max_major added points (2); counts added points, minor cycles and
    dropped points in state[2:5]. Returns ||x||^2.
    """
    d = C.shape[1]
    k = state[0]
    x = np.empty(d)
    mu = np.empty(ZS.shape[0])
    xx = _point(ZS, lam, x)
    for _ in range(max_major):
        m = C @ x
        j, best = -1, (1.0 - tol) * xx
        for t in range(C.shape[0]):
            if m[t] < best and not in_corral[cand[t]]:
                j, best = t, m[t]
        if j < 0:
            state[0], state[1] = k, 0
            return xx
        if k == ZS.shape[0]:
            state[0], state[1] = k, 1
            return xx
        state[2] += 1
        piv2 = _chol_append(R, ZS, k, C[j])
        if piv2 <= 1e-13 * (1.0 + float(C[j] @ C[j])):
            for i in range(k):
                R[i, k] = 0.0
            state[0], state[1] = k, 1
            return xx
        R[k, k] = math.sqrt(piv2)
        ZS[k] = C[j]
        ids[k] = cand[j]
        in_corral[cand[j]] = True
        lam[k] = 0.0
        k += 1
        while True:                                  # minor cycles
            _affine_weights(R, k, mu)
            state[3] += 1
            theta, drop = 1.0, -1
            for i in range(k):
                if mu[i] <= 0.0:
                    th = lam[i] / (lam[i] - mu[i])
                    if th < theta:
                        theta, drop = th, i
            for i in range(k):
                lam[i] = theta * mu[i] + (1.0 - theta) * lam[i]
            if drop < 0:
                break
            lam[drop] = 0.0
            i = 0
            while i < k:                             # drop every point whose weight is 0
                if lam[i] <= 0.0:
                    _chol_drop(R, k, i)
                    state[4] += 1
                    in_corral[ids[i]] = False
                    for r in range(i, k - 1):
                        ZS[r] = ZS[r + 1]
                        ids[r] = ids[r + 1]
                        lam[r] = lam[r + 1]
                    lam[k - 1] = 0.0
                    k -= 1
                else:
                    i += 1
        xx = _point(ZS, lam, x)
    state[0], state[1] = k, 2
    return xx
