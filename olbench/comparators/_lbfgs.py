"""L-BFGS for the smooth classification losses (logistic, squared hinge).

With a ridge the certificate is the dual value at alpha = -loss'(Xu) (:mod:`._duality`);
without one there is none, and the logistic loss has no minimiser at all on linearly
separable data (checked first, by the LP of :func:`._lp.separable`).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from olbench.comparators._duality import (
    NoMinimizer,
    Problem,
    Solution,
    dual_value,
    matvec,
    objective,
    rmatvec,
)
from olbench.comparators._lp import separable
from olbench.losses import get_loss

OPTIONS = dict(maxiter=50_000, maxfun=100_000, ftol=1e-15, gtol=1e-11, maxcor=30)


def solve(p: Problem) -> Solution:
    """min_u sum_t loss(u.x_t, y_t) + lam/2 ||u||^2 by L-BFGS-B, from the warm start's u."""
    X, y, loss, epsilon, lam = p.X, p.y, p.loss, p.epsilon, p.lam
    L = get_loss(loss, epsilon=epsilon)

    def f(u):
        m = matvec(X, u)
        return (float(L.value(m, y).sum()) + 0.5 * lam * float(u @ u),
                rmatvec(X, L.derivative(m, y)) + lam * u)

    u0 = None if p.warm is None else p.warm.u
    u0 = np.zeros(X.shape[1]) if u0 is None else np.asarray(u0, float)
    res = minimize(f, u0, jac=True, method="L-BFGS-B", options=OPTIONS)
    u = res.x
    obj = objective(X, y, u, loss, epsilon, lam)
    info = {"solver": "lbfgs", "nit": int(res.nit), "grad_norm": float(np.linalg.norm(res.jac))}
    if lam > 0:
        alpha = -L.derivative(matvec(X, u), y)
        return Solution(u, obj, min(dual_value(X, y, alpha, loss, epsilon, lam), obj), info, alpha)
    return Solution(u, obj, None, info)


def solve_unregularised_logistic(p: Problem) -> Solution:
    """:func:`solve`, unless the data are linearly separable (no minimiser: NoMinimizer)."""
    if separable(p.X, p.y, p.deadline, p.limits)[0]:
        raise NoMinimizer("the logistic loss has no minimiser on linearly separable data "
                          "(its infimum 0 is approached as ||u|| -> inf); set ridge > 0 or a "
                          "radius")
    return solve(p)


__all__ = ["OPTIONS", "solve", "solve_unregularised_logistic"]
