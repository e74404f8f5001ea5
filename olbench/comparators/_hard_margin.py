"""The hard-margin direction through the origin as a nearest-point problem, solved exactly.

With z_t = y_t x_t, the best margin max_{||u||=1} min_t z_t.u equals the distance from the
origin to the convex hull of the z_t (minimax theorem), and the nearest point p* gives the
direction u* = p* / ||p*||. Every point p of the hull is a certificate both ways:

* ``gamma_upper = ||p||`` bounds the best margin from above (min_t z_t.u <= p.u <= ||p||);
* ``gamma = min_t z_t.p / ||p||`` is the margin realised by the direction p (a lower bound).

The nearest point is found by Lawson & Hanson's active-set NNLS (``scipy.optimize.nnls``) on
min_{c >= 0} ||Z^T c||^2 + (1.c - 1)^2 (its solution is c = a / (1 + ||p||^2) with p = Z^T a
the nearest point, a in the simplex), exact in finitely many steps. The NNLS runs on a
working set of rounds (the current support plus the rounds that violate the margin most), so
a pass over all n rounds happens once per outer iteration, O(n d). The restricted optimum
decreases strictly each outer iteration (the support is kept and a violated round is added),
so it terminates; it stops once the certified relative gap (gamma_upper - gamma) /
gamma_upper is below ``tol``, or at the deadline.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import nnls
from threadpoolctl import threadpool_limits


def nearest_point(Z, *, tol: float = 1e-10, deadline: float = math.inf,
                  max_rounds: int = 1000) -> dict:
    """The nearest point to 0 of conv{rows of Z} (Z dense or CSR), certified.

    Returns a dict with ``p`` (a point of the hull), ``a`` (its convex weights, sparse as
    index/value arrays), ``gamma`` (margin of direction p), ``gamma_upper`` = ||p||, ``rounds``,
    ``converged``.
    """
    n, d = Z.shape
    scale = float(np.sqrt(Z.multiply(Z).sum(axis=1)).max() if sp.issparse(Z)
                  else np.sqrt(np.einsum("ij,ij->i", Z, Z)).max()) if n else 1.0
    scale = scale if scale > 0 else 1.0
    Zs = Z / scale
    e = np.zeros(d + 1)
    e[-1] = 1.0
    # start: the rounds with the smallest margins along the mean of the z_t
    p = np.asarray(Zs.mean(axis=0), float).ravel()
    m = np.asarray(Zs @ p, float).ravel()
    batch = max(100, d)
    W = np.sort(np.argsort(m, kind="stable")[:min(n, batch)])
    rounds = 0
    best = None
    while True:
        rounds += 1
        ZW = Zs[W]
        ZW = ZW.toarray() if sp.issparse(ZW) else ZW
        A = np.vstack([ZW.T, np.ones(len(W))])
        with threadpool_limits(1, user_api="blas"):
            c = nnls(A, e, maxiter=50 * (d + len(W)))[0]
        pos = np.flatnonzero(c > 0)
        x = c[pos]
        idx = W[pos]
        a = x / x.sum() if len(x) and x.sum() > 0 else x
        p = np.asarray(Zs[idx].T @ a, float).ravel() if len(idx) else np.zeros(d)
        pp = float(p @ p)
        m = np.asarray(Zs @ p, float).ravel()
        gu = math.sqrt(pp)
        gl = float(m.min()) / gu if gu > 0 else -math.inf
        cur = dict(p=p * scale, idx=idx, a=a, gamma=gl * scale, gamma_upper=gu * scale,
                   rounds=rounds)
        if best is None or cur["gamma_upper"] - cur["gamma"] < best["gamma_upper"] - best["gamma"]:
            best = cur
        if gu <= 1e-13 or gu - gl <= tol * gu:
            return {**best, "converged": True}
        if rounds >= max_rounds or time.monotonic() > deadline:
            return {**best, "converged": False}
        viol = np.flatnonzero(m < pp * (1 - tol / 4))
        viol = viol[np.isin(viol, idx, invert=True)]
        add = viol[np.argsort(m[viol], kind="stable")[:batch]]
        order = np.argsort(np.concatenate([idx, add]), kind="stable")
        W = np.concatenate([idx, add])[order]
