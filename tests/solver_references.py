"""What the comparator-solver tests check a fit against: the issue's data recipe, the primal
objective recomputed from u, an independent solve (SLSQP on the epigraph QP), and a
certificate (a fit whose duality gap is within a relative tolerance)."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from test_comparators import noisy

from olbench.losses import get_loss


def issue_data(n, d, seed=0, noise=0.8):
    """The issue's recipe: X = N(0,1), then w, then the noise, from one default_rng(seed)."""
    return noisy(seed, n=n, d=d, noise=noise)


def P(X, y, u, loss, lam=0.0, eps=0.1):
    return float(get_loss(loss, epsilon=eps)(X @ u, y).sum() + 0.5 * lam * u @ u)


def slsqp_reference(X, y, loss, lam, radius=None, eps=0.1):
    """Independent solve: the epigraph QP by SLSQP (an active-set SQP, exact on small QPs)."""
    n, d = X.shape
    e = eps if loss == "epsilon_insensitive" else 0.0
    cons = [{"type": "ineq", "fun": lambda z: z[d:], "jac": lambda z: np.hstack(
        [np.zeros((n, d)), np.eye(n)])}]
    if loss == "hinge":
        Zy = X * y[:, None]
        cons.append({"type": "ineq", "fun": lambda z: z[d:] - 1 + Zy @ z[:d],
                     "jac": lambda z: np.hstack([Zy, np.eye(n)])})
    else:
        cons.append({"type": "ineq", "fun": lambda z: z[d:] + e - (X @ z[:d] - y),
                     "jac": lambda z: np.hstack([-X, np.eye(n)])})
        cons.append({"type": "ineq", "fun": lambda z: z[d:] + e + (X @ z[:d] - y),
                     "jac": lambda z: np.hstack([X, np.eye(n)])})
    if radius is not None:
        cons.append({"type": "ineq", "fun": lambda z: np.array([radius**2 - z[:d] @ z[:d]]),
                     "jac": lambda z: np.concatenate([-2 * z[:d], np.zeros(n)])[None, :]})
    f = lambda z: z[d:].sum() + 0.5 * lam * z[:d] @ z[:d]          # noqa: E731
    g = lambda z: np.concatenate([lam * z[:d], np.ones(n)])        # noqa: E731
    z0 = np.concatenate([np.zeros(d), get_loss(loss, epsilon=eps)(np.zeros(n), y)])
    res = minimize(f, z0, jac=g, constraints=cons, method="SLSQP",
                   options={"ftol": 1e-15, "maxiter": 2000})
    u = res.x[:d]
    if radius is not None and np.linalg.norm(u) > radius:
        u *= radius / np.linalg.norm(u)
    return P(X, y, u, loss, lam, eps)


def assert_certified(fit, rel=1e-8):
    assert fit.ok, fit.skip_reason
    assert fit.lower_bound is not None
    assert fit.gap <= rel * max(1.0, abs(fit.objective)), (fit.gap, fit.info)
