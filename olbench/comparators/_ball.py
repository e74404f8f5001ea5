"""The ball constraint ||u|| <= U by its Lagrange multiplier: Brent's method on log mu.

If the unconstrained solution lies outside the ball, the multiplier mu > 0 with
||u(ridge + mu)|| = U is found by solving the problem with ridge + mu for a bracket of mu's
(warm-started, from large mu, the fast end, down). The certificate is the Lagrange dual
g(alpha) = max_{mu >= 0} D_{ridge+mu}(alpha) - mu U^2 / 2 (:func:`._certify.ball_dual_value`).
The solver of the problem without a ball is given by the caller (:mod:`._solvers`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from scipy.optimize import brentq

from olbench.comparators._certify import ball_dual_value
from olbench.comparators._duality import NoMinimizer, Problem, Solution, objective, total_loss

#: the solver of a problem without a ball (its ``radius`` None)
Unconstrained = Callable[[Problem], Solution]


def multiplier_search(p: Problem, unconstrained: Unconstrained) -> Solution:
    """argmin of ``p`` in its ball (``p.radius``): the unconstrained solution when it lies in
    the ball (multiplier 0), else the solution at the multiplier found by Brent's method,
    projected onto the ball."""
    free = replace(p, radius=None)
    try:
        base = unconstrained(free)
    except NoMinimizer:
        base = None
    if base is not None and np.linalg.norm(base.u) <= p.radius * (1 + 1e-12):
        base.info["multiplier"] = 0.0
        return base
    # The constraint is active: find mu > 0 with ||u(ridge + mu)|| = radius.
    f0 = total_loss(p.X, p.y, np.zeros(p.X.shape[1]), p.loss, p.epsilon)
    mu_hi = max(2 * f0 / p.radius**2, 1e-300)          # then ||u|| <= sqrt(2 f0 / mu) <= radius
    state = {"warm": p.warm if p.warm is not None and p.warm.alpha is not None else base}
    sols: dict[float, Solution] = {}

    def g(logmu: float) -> float:
        if logmu in sols:
            return math.log(max(np.linalg.norm(sols[logmu].u), 1e-300)) - math.log(p.radius)
        if p.remaining() <= 0:
            raise p.limits.timed_out("the multiplier search")
        s = unconstrained(replace(free, lam=p.lam + math.exp(logmu), warm=state["warm"]))
        state["warm"] = sols[logmu] = s
        return math.log(max(np.linalg.norm(s.u), 1e-300)) - math.log(p.radius)

    logmu = _root(g, math.log(mu_hi))
    return _projected(p, sols[logmu], math.exp(logmu))


def _root(g: Callable[[float], float], top: float) -> float:
    """log mu where g crosses 0, bracketed from above: mu_hi, mu_hi/10, ... (small mu is
    the slow end); ``top`` (log mu_hi) when g stays <= 0 down to mu_hi 1e-10."""
    step, start = math.log(10), top
    for k in range(1, 11):
        lo = start - k * step
        if g(lo) > 0:
            break
        top = lo
    else:
        return top                                   # inside the ball down to mu_hi 1e-10
    while g(top) > 0:                                # only by round-off: widen the bracket
        top += math.log(4.0)
    logmu = brentq(g, lo, top, xtol=1e-12, rtol=1e-12)
    g(logmu)
    return logmu


def _projected(p: Problem, s: Solution, mu: float) -> Solution:
    """The solution at multiplier ``mu``, projected onto the ball (the returned u is always
    feasible), certified by the Lagrange dual at its alpha."""
    u = s.u
    nrm = np.linalg.norm(u)
    if nrm > p.radius:
        u = u * (p.radius / nrm)
    obj = objective(p.X, p.y, u, p.loss, p.epsilon, p.lam)
    lower = None
    if s.alpha is not None:
        lower = min(ball_dual_value(p.X, p.y, s.alpha, p.loss, p.epsilon, p.lam, p.radius)[0],
                    obj)
    info = {**s.info, "multiplier": mu, "solver": s.info.get("solver", "") + "+multiplier-search"}
    return Solution(u, obj, lower, info, s.alpha)


__all__ = ["multiplier_search"]
