"""From dual points to certified solutions: the Lagrange dual of the ball-constrained problem,
the primal point a dual point implies, and the best of several candidates.

A dual point alpha gives both a primal point u(alpha) = X^T alpha / (lam + mu), kept in the
ball, and a lower bound on the optimum (weak duality, :mod:`._duality`), so any solver's dual
variables become a :class:`~._duality.Solution` that states its own gap.
"""

from __future__ import annotations

import math

import numpy as np

from olbench.comparators._duality import Solution, h_value, objective, rmatvec
from olbench.comparators._qp import ball_mu


def ball_dual_value(X, y, alpha, loss: str, epsilon: float, lam: float,
                    radius: float | None) -> tuple[float, float]:
    """(g, mu): the Lagrange dual of the ball-constrained problem at alpha, maximised over mu.

    g(alpha, mu) = D_{lam+mu}(alpha) - mu radius^2 / 2 is concave in mu >= 0 with maximiser
    mu = max(0, ||X^T alpha|| / radius - lam); radius None means mu = 0 (plain D).
    """
    v = rmatvec(X, alpha)
    vn = float(np.linalg.norm(v))
    h = h_value(loss, alpha, y, epsilon)
    mu = 0.0 if radius is None else ball_mu(vn, lam, radius)
    if mu > 0:
        return h - vn * vn / (2 * (lam + mu)) - mu * radius**2 / 2, mu
    if lam > 0:
        return h - vn * vn / (2 * lam), mu
    return (h if vn == 0 else -math.inf), mu


def score(X, y, alpha, loss: str, epsilon: float, lam: float, radius: float | None):
    """(u, P(u), lower bound) for dual variables alpha: u = X^T alpha / (lam + mu), in the ball."""
    lower, mu = ball_dual_value(X, y, alpha, loss, epsilon, lam, radius)
    if lam + mu > 0:
        u = rmatvec(X, alpha) / (lam + mu)
    else:
        u = np.zeros(X.shape[1])
    if radius is not None:
        nrm = float(np.linalg.norm(u))
        if nrm > radius:
            u *= radius / nrm
    return u, objective(X, y, u, loss, epsilon, lam), lower


def best_of(X, y, loss, epsilon, lam, radius, candidates, info) -> Solution:
    """The best certified Solution from candidate (u, alpha) pairs: lowest objective among
    the feasible u's and u(alpha)'s, highest lower bound among the alphas."""
    best_u, best_obj, best_low, best_alpha = None, math.inf, -math.inf, None
    for u, alpha in candidates:
        if alpha is not None:
            ua, pa, low = score(X, y, alpha, loss, epsilon, lam, radius)
            if low > best_low:
                best_low, best_alpha = low, alpha
            if pa < best_obj:
                best_u, best_obj = ua, pa
        if u is not None and (radius is None or np.linalg.norm(u) <= radius * (1 + 1e-12)):
            pu = objective(X, y, u, loss, epsilon, lam)
            if pu < best_obj:
                best_u, best_obj = u, pu
    low = None if not math.isfinite(best_low) else min(best_low, best_obj)
    return Solution(best_u, best_obj, low, info, best_alpha)


__all__ = ["ball_dual_value", "best_of", "score"]
