"""Least squares (the squared loss): exact, by a direct solve or LSQR on sparse rows.

Without a ridge the solver is exact and its value is its own certificate; with one the
certificate is the dual value at the residuals (:mod:`._duality`).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import lsqr

from olbench.comparators._duality import Problem, Solution, dual_value, matvec, objective


def solve(p: Problem) -> Solution:
    """min_u sum_t (u.x_t - y_t)^2 / 2 + lam/2 ||u||^2: ``lstsq`` (dense, no ridge), the
    normal equations (dense, ridge) or ``lsqr(damp)`` (sparse)."""
    X, y, lam = p.X, p.y, p.lam
    d = X.shape[1]
    if sp.issparse(X):
        r = lsqr(X, y, damp=math.sqrt(lam), atol=1e-15, btol=1e-15, conlim=1e15,
                 iter_lim=100 * d + 1000)
        u, solver = r[0], "lsqr"
    elif lam == 0:
        u, solver = np.linalg.lstsq(X, y, rcond=None)[0], "lstsq"
    else:
        u = np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ y)
        solver = "normal-equations"
    obj = objective(X, y, u, "squared", 0.0, lam)
    if lam > 0:
        alpha = y - matvec(X, u)
        return Solution(u, obj, min(dual_value(X, y, alpha, "squared", 0.0, lam), obj),
                        {"solver": solver}, alpha)
    return Solution(u, obj, obj, {"solver": solver})   # exact solver: certificate = value


__all__ = ["solve"]
