"""The best fixed predictor of an L1-regularised objective: min_u sum_t phi_t(x_t.u) + l1 ||u||_1
(the objective the sparse learners descend: regret against the best *sparse* predictor).

Fenchel dual (the conjugate of l1 ||.||_1 is the indicator of the l_inf ball of radius l1)::

    D(alpha) = sum_t h_t(alpha_t)   subject to   ||X^T alpha||_inf <= l1

with h_t(a) = -phi_t^*(-a) as in :mod:`._duality`; every feasible alpha gives
D(alpha) <= P(u) for every u.

* **hinge, absolute, epsilon-insensitive**: D is a linear program with the box
  -l1 <= X^T alpha <= l1 in place of the unregularised dual's X^T alpha = 0 (:mod:`._lp`),
  solved by HiGHS; u is minus the box rows' multipliers, and the certificate is h of the
  dual point less what its box violation (floating point, about 1e-14) can move it,
  max(0, ||X^T alpha||_inf - l1) ||u||_1.
* **logistic, squared**: liblinear's L1-regularised logistic regression (scikit-learn's
  ``LogisticRegression(l1_ratio=1, solver="liblinear")``) and coordinate descent
  (``Lasso``), at a tight tolerance, then certified by the dual
  point alpha = -phi'(Xu) scaled into the box (s = min(1, l1 / ||X^T alpha||_inf)): the
  gap P(u) - D(s alpha) is proven, whatever the solver did.

A combination with a ridge or a ball is refused (:func:`problem`), and the squared hinge
(liblinear's L1 solver for it stopped at relative gaps of 28 on a 300 x 20 problem).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from olbench.comparators._duality import (
    Limits,
    NotCertified,
    Solution,
    h_value,
    matvec,
    rmatvec,
    total_loss,
)
from olbench.comparators._lp import _LIMIT_REACHED, _dual_data, _options
from olbench.losses import get_loss

PIECEWISE = ("hinge", "absolute", "epsilon_insensitive")
SMOOTH = ("logistic", "squared")


def problem(loss: str, l1: float, ridge: float, radius) -> str | None:
    """Why min sum loss + l1 ||u||_1 (+ ridge, ball) cannot be fitted here, or None."""
    if l1 <= 0:
        return None
    extra = [f"ridge={ridge!r}"] * bool(ridge) + [f"radius={radius!r}"] * (radius is not None)
    if extra:
        return (f"l1={l1!r} with {' and '.join(extra)}: the L1 comparator fits "
                f"loss + l1 ||u||_1 alone (no ridge, no ball)")
    if loss not in PIECEWISE + SMOOTH:
        return f"l1 > 0 with loss={loss!r}: the L1 comparator has no solver for it"
    return None


def objective(X, y, u, loss: str, epsilon: float, l1: float) -> float:
    return total_loss(X, y, u, loss, epsilon) + l1 * float(np.abs(u).sum())


def solve(X, y, loss: str, l1: float, epsilon: float, deadline: float,
          limits: Limits) -> Solution:
    """argmin_u sum_t loss(u.x_t, y_t) + l1 ||u||_1, certified (module docs)."""
    if loss in PIECEWISE:
        return _box_lp(X, y, loss, l1, epsilon, deadline, limits)
    return _smooth(X, y, loss, l1, epsilon)


def _box_lp(X, y, loss, l1, epsilon, deadline, limits) -> Solution:
    A, c, bounds, to_alpha = _dual_data(X, y, loss, epsilon)
    rows = A.shape[0]
    res = linprog(c, A_ub=sp.vstack([A, -A]).tocsr(), b_ub=np.full(2 * rows, l1),
                  bounds=bounds, method="highs",
                  options={**_options(deadline, limits, "L1 dual LP"), "presolve": False})
    if res.status == _LIMIT_REACHED:
        raise limits.timed_out("the HiGHS L1 dual LP")
    if res.status != 0:
        raise NotCertified(f"L1 dual LP: {res.message}")
    marginals = np.asarray(res.ineqlin.marginals, dtype=float)
    u = -(marginals[:rows] - marginals[rows:])
    alpha = to_alpha(np.asarray(res.x, dtype=float))
    violation = max(0.0, float(np.abs(rmatvec(X, alpha)).max(initial=0.0)) - l1)
    lower = h_value(loss, alpha, y, epsilon) - violation * float(np.abs(u).sum())
    obj = objective(X, y, u, loss, epsilon, l1)
    return Solution(u, obj, min(lower, obj), {"solver": "highs-l1-dual-lp",
                                              "box_violation": violation}, alpha)


def _smooth(X, y, loss, l1, epsilon) -> Solution:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Lasso, LogisticRegression

    n = X.shape[0]
    if loss == "logistic":
        model = LogisticRegression(l1_ratio=1.0, solver="liblinear", C=1.0 / l1,
                                   fit_intercept=False, tol=1e-12, max_iter=10_000)
    else:   # sum (1/2)(x.u - y)^2 + l1 ||u||_1 = n [Lasso's objective with alpha = l1 / n]
        model = Lasso(alpha=l1 / n, fit_intercept=False, tol=1e-14, max_iter=100_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        labels = y if loss == "squared" else (y > 0).astype(int)
        u = np.asarray(model.fit(X, labels).coef_, dtype=float).ravel()
    alpha = -get_loss(loss, epsilon=epsilon).derivative(matvec(X, u), y)
    top = float(np.abs(rmatvec(X, alpha)).max(initial=0.0))
    scaled = alpha * (1.0 if top <= l1 else l1 / top)
    obj = objective(X, y, u, loss, epsilon, l1)
    lower = h_value(loss, scaled, y, epsilon)
    return Solution(u, obj, min(lower, obj) if math.isfinite(lower) else None,
                    {"solver": f"sklearn-{type(model).__name__}-l1"}, scaled)


__all__ = ["objective", "problem", "solve"]
