"""The hard-margin SVM through the origin, and the least-norm minimiser of the hinge loss.

The hard margin is a nearest-point problem solved exactly by an active-set NNLS on a
working set of rounds (:mod:`._hard_margin`), certified both ways; it is also the least-norm
u among the many minimisers of the hinge loss where that loss reaches 0.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from olbench.comparators import _hard_margin
from olbench.comparators._duality import Limits, NotCertified, Problem, Solution, matvec, objective
from olbench.features import row_norms


def max_margin(X, y, limits: Limits | None = None) -> tuple[np.ndarray | None, dict]:
    """Hard-margin SVM through the origin: min ||u||^2 s.t. y_t u.x_t >= 1 (None if infeasible).

    The nearest point of conv{y_t x_t} to the origin (:mod:`._hard_margin`). Returns the
    canonical u (min margin 1, so ||u|| = 1/gamma) and info with the realised margin
    ``gamma`` = min_t y_t u.x_t/||u|| and ``gamma_upper``, a certified upper bound on the best
    possible margin (the norm of a point of the hull). Not separable (to working precision:
    the hull comes within 1e-12 max_t ||x_t|| of the origin): (None, info). Raises
    :class:`NotCertified` when the relative gap stays above ``limits.accept``.
    """
    limits = limits or Limits.default()
    y = np.asarray(y, float)
    Z = (sp.diags(y) @ X).tocsr() if sp.issparse(X) else X * y[:, None]
    deadline = time.monotonic() + limits.time
    r = _hard_margin.nearest_point(Z, tol=limits.target, deadline=deadline)
    late = not r["converged"] and deadline - time.monotonic() <= 0
    info = {"gamma": float(r["gamma"]), "gamma_upper": float(r["gamma_upper"]),
            "n_support": len(r["idx"]), "rounds": r["rounds"],
            "solver": f"{r['solver']}-working-set"}
    if r["gamma"] <= 0:
        scale = float(row_norms(X).max(initial=0.0))
        if r["converged"] or r["gamma_upper"] <= 1e-12 * scale:
            return None, info
        why = (f"max margin: separability undecided (a point of the hull at distance "
               f"{r['gamma_upper']:.3g}, no separating direction found yet)")
        raise (limits.timed_out("the max-margin working set", why) if late else
               NotCertified(why + " within the limits"))
    gap = (r["gamma_upper"] - r["gamma"]) / r["gamma_upper"]
    if gap > limits.accept:
        why = f"max margin: relative gap {gap:.3g} after {r['rounds']} rounds"
        raise (limits.timed_out("the max-margin working set", why) if late else
               NotCertified(f"{why} ({limits.time:g} s limit)"))
    p = r["p"]
    u = p / (np.linalg.norm(p) * r["gamma"])         # canonical scaling: min_t y u.x = 1
    m = y * matvec(X, u)
    u = u / m.min()                                  # exact to round-off
    info["gamma"] = float(1.0 / np.linalg.norm(u))
    return u, info


def least_norm(p: Problem, s: Solution) -> Solution:
    """``s``, or the least-norm minimiser where the hinge loss's minimisers are many.

    Where the hinge loss reaches 0 (separable data with a margin) every u with
    y_t u.x_t >= 1 for all t is a minimiser, and the LP returns a vertex of that set whose
    norm can be several times the least (33.6 against 4.88 on a separable stream of 400
    rounds, 5.13 by the epigraph LP), which loosens every bound measured with the
    comparator's u. The least-norm minimiser is the hard-margin SVM (:func:`max_margin`,
    canonical: min_t y_t u.x_t = 1), also the limit of the ridge solutions as the ridge goes
    to 0; it is returned when it certifies in the time left, else ``s`` is.
    """
    limits = p.limits
    if p.loss != "hinge" or s.objective > limits.target:
        return s
    try:
        u, _ = max_margin(p.X, p.y, Limits(time=max(p.remaining(), 0.0),
                                           target=limits.target, accept=limits.accept))
    except NotCertified:
        return s
    if u is None:
        return s
    obj = objective(p.X, p.y, u, p.loss, 0.0, 0.0)
    if obj > s.objective + limits.target:
        return s
    return Solution(u, obj, min(s.lower_bound, obj),
                    {**s.info, "solver": s.info["solver"] + "+least-norm"}, s.alpha)


__all__ = ["least_norm", "max_margin"]
