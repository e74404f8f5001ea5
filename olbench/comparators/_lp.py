"""Linear programs behind the comparators: the best fixed predictor under a piecewise-linear
loss without ridge (hinge, absolute, epsilon-insensitive), and the separability test.

min_u sum_t phi_t(x_t.u) is solved through its **dual** LP, which has one row per feature
and one bounded column per round (Fenchel dual with lam = 0: D(alpha) = sum_t h_t(alpha_t)
subject to X^T alpha = 0)::

    hinge                 max sum_t beta_t                    s.t. sum_t beta_t y_t x_t = 0,
                                                                   0 <= beta_t <= 1
    absolute              max sum_t alpha_t y_t               s.t. X^T alpha = 0, |alpha_t| <= 1
    epsilon_insensitive   max sum_t (p_t - q_t) y_t - eps (p_t + q_t)
                                                              s.t. X^T (p - q) = 0, p, q in [0, 1]

HiGHS's simplex solves it with a basis of d rows, where the epigraph (primal) LP has n rows
and n + d columns: on a9a (32,561 x 123, hinge) under 2 s against 66-105 s, the same
optimum (see benchmarks/README.md). u is minus the equality rows' multipliers
(``res.eqlin.marginals``, scipy's sign): complementary slackness then says beta_t = 1 where
y_t u.x_t < 1 and beta_t = 0 where it is > 1, the hinge's subgradient condition.

The certificate: P(u) is evaluated at the returned u; the lower bound is h(alpha) of the
dual point minus ||X^T alpha||_inf ||u||_1, the most the equality residual left by
floating point (about 1e-14 on a9a, kept in ``info["dual_residual"]``) can move
h(alpha) - u.(X^T alpha) <= P(u) at that scale. Should the dual LP fail (not by time), the
epigraph LP is the fallback, certified by its row duals as before.

Each LP runs under the time left (``deadline``); running out is a
:class:`~._duality.TimedOut`.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from olbench.comparators._duality import (
    Limits,
    NotCertified,
    Solution,
    h_value,
    matvec,
    objective,
    rmatvec,
)

_HIGHS = dict(primal_feasibility_tolerance=1e-10, dual_feasibility_tolerance=1e-10)
#: scipy's status of a HiGHS run stopped by its time (or iteration) limit
_LIMIT_REACHED = 1


def _options(deadline: float, limits: Limits, what: str) -> dict:
    left = deadline - time.monotonic()
    if left <= 0:
        raise limits.timed_out(f"the {what}", "no time left to start it")
    return {**_HIGHS, **({"time_limit": left} if math.isfinite(left) else {})}


def _dual_data(X, y, loss: str, epsilon: float):
    """(A_eq, c, bounds, to_alpha) of the dual LP min c.v s.t. A_eq v = 0 (module docs)."""
    Xt = sp.csr_matrix(X).T.tocsr()
    if loss == "hinge":
        return (Xt @ sp.diags(y)).tocsr(), -np.ones(len(y)), (0.0, 1.0), lambda v: y * v
    if loss == "absolute":
        return Xt, -y, (-1.0, 1.0), lambda v: v
    n = len(y)
    return (sp.hstack([Xt, -Xt]).tocsr(), np.concatenate([-(y - epsilon), y + epsilon]),
            (0.0, 1.0), lambda v: v[:n] - v[n:])


def dual_lp(X, y, loss: str, epsilon: float, deadline: float, limits: Limits) -> Solution:
    """min_u sum_t loss(u.x_t, y_t) by the dual LP, certified (module docs); falls back to
    :func:`epigraph_lp` when HiGHS fails on it for another reason than time."""
    A, c, bounds, to_alpha = _dual_data(X, y, loss, epsilon)
    # no presolve: on these d x n programs it costs more than it saves (a9a 3.5 s -> 1.6 s,
    # w8a 5.5 -> 4.3 s, a1a 0.12 -> 0.07 s, same optimum)
    res = linprog(c, A_eq=A, b_eq=np.zeros(A.shape[0]), bounds=bounds, method="highs",
                  options={**_options(deadline, limits, "dual LP"), "presolve": False})
    if res.status == _LIMIT_REACHED:
        raise limits.timed_out("the HiGHS dual LP")
    if res.status != 0:
        return epigraph_lp(X, y, loss, epsilon, deadline, limits,
                           why=f"dual LP: {res.message}")
    u = -np.asarray(res.eqlin.marginals, dtype=float)
    alpha = to_alpha(np.asarray(res.x, dtype=float))
    residual = float(np.abs(rmatvec(X, alpha)).max(initial=0.0))
    lower = h_value(loss, alpha, y, epsilon) - residual * float(np.abs(u).sum())
    obj = objective(X, y, u, loss, epsilon, 0.0)
    return Solution(u, obj, min(lower, obj),
                    {"solver": "highs-dual-lp", "dual_residual": residual}, alpha)


def _epigraph_data(X, y, loss: str, epsilon: float):
    """min sum xi s.t. A [u; xi] <= b, xi >= 0: the epigraph LP of a piecewise-linear loss."""
    n, d = X.shape
    Xs = sp.csr_matrix(X)
    eye = sp.eye(n, format="csr")
    if loss == "hinge":          # -y x.u - xi <= -1
        A = sp.hstack([sp.diags(-y) @ Xs, -eye])
        b = -np.ones(n)
    else:                        # +-(x.u - y) - xi <= eps
        eps = epsilon if loss == "epsilon_insensitive" else 0.0
        A = sp.vstack([sp.hstack([Xs, -eye]), sp.hstack([-Xs, -eye])])
        b = np.concatenate([y + eps, -y + eps])
    c = np.concatenate([np.zeros(d), np.ones(n)])
    return A, b, c


def epigraph_lp(X, y, loss: str, epsilon: float, deadline: float, limits: Limits,
                why: str = "") -> Solution:
    """The epigraph LP (n rows, n + d columns), certified by its dual objective."""
    d = X.shape[1]
    A, b, c = _epigraph_data(X, y, loss, epsilon)
    bounds = [(None, None)] * d + [(0, None)] * (len(c) - d)
    res = linprog(c, A_ub=A.tocsr(), b_ub=b, bounds=bounds, method="highs",
                  options=_options(deadline, limits, "epigraph LP"))
    if res.status == _LIMIT_REACHED:
        raise limits.timed_out("the HiGHS epigraph LP", why)
    if res.status != 0:
        raise NotCertified((f"{why}; " if why else "") + f"HiGHS LP: {res.message}")
    u = res.x[:d].copy()
    lower = float(b @ res.ineqlin.marginals)     # LP dual objective (marginals <= 0)
    obj = objective(X, y, u, loss, epsilon, 0.0)
    return Solution(u, obj, min(lower, obj), {"solver": "highs-lp"})


def separable(X, y, deadline: float = math.inf,
              limits: Limits | None = None) -> tuple[bool, np.ndarray | None]:
    """Is there u with y_t u.x_t >= 1 for all t (strict linear separability through 0)? LP.

    Raises :class:`NotCertified` (the comparator becomes a skip) if HiGHS cannot decide,
    :class:`~._duality.TimedOut` if the time runs out first."""
    limits = limits or Limits.default()
    n, d = X.shape
    A = -(sp.diags(y) @ sp.csr_matrix(X)).tocsr()
    # HiGHS's simplex can end this degenerate feasibility LP in "model status unknown" after
    # a long time (31 s at 10,000 x 100 on the issue-11 data, where the interior point
    # decides it in 1.8 s): interior point first, simplex as the fallback; a separating u
    # is checked here
    for method in ("highs-ipm", "highs"):
        res = linprog(np.zeros(d), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * d,
                      method=method, options=_options(deadline, limits, "separability LP"))
        if res.status == 0 and (y * matvec(X, res.x)).min(initial=1.0) > 0:
            return True, res.x
        if res.status == 2:
            return False, None
        if res.status == _LIMIT_REACHED:
            raise limits.timed_out(f"the separability LP ({method})")
    raise NotCertified(f"separability LP undecided (HiGHS simplex and interior point): "
                       f"{res.message}")
