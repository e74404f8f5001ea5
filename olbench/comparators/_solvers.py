"""Batch solvers behind the comparators: min_u sum_t loss(u.x_t, y_t) (+ ridge, or ||u|| <= U).

One entry point, :func:`solve`, chooses a solver per case and returns the solution together
with a *certified lower bound* on the optimum (weak duality), so every fit reports its own
optimality gap. No path can hang or take the process down: each runs under a wall-clock
budget (:class:`Limits`), falls back to the next solver when it fails or runs out of time,
and a problem that no solver certifies within the limits raises :class:`NotCertified`
(the comparator becomes a skip with that reason, never cached), or :class:`TimedOut` when it
was the time that ran out (a transient failure: the skip says "time-out" and a re-run tries
again). The shared pieces (limits, solution, dual objectives) are in :mod:`._duality`, the
certificates of dual points in :mod:`._certify`; each solver has its module, and the tables
:data:`UNCONSTRAINED` and :data:`IN_BALL` below say which one a problem goes to:

=====================  ==========================  =====================================
loss                   no ridge                    ridge lam > 0
=====================  ==========================  =====================================
hinge, absolute,       HiGHS on the dual LP (d     d <= 300: Newton on the smoothed primal
epsilon_insensitive    rows, :mod:`._lp`, time-    (:mod:`._newton`); then Clarabel
                       limited); bound = its value (:mod:`._qp`) / dual coordinate descent +
                                                   active-set polishing (:mod:`._dcd`);
                                                   bound = D(alpha)
squared                least squares (``lstsq``    normal equations / ``lsqr(damp)``;
                       / ``lsqr``), exact           bound = dual value
logistic,              L-BFGS; no bound (and no     L-BFGS; bound = dual value at
squared_hinge          minimiser for logistic on    alpha = -loss'(Xu)
                       separable data)
=====================  ==========================  =====================================

The piecewise-linear losses with a ridge or a ball try a chain of solvers (:mod:`._piecewise`).
The ball constraint ||u|| <= U: for the piecewise-linear losses Clarabel solves it directly as
a second-order cone program; otherwise (and as the fallback) by its Lagrangian
(:mod:`._ball`): if the unconstrained solution lies outside the ball, the multiplier mu with
||u(ridge + mu)|| = U is found by Brent's method on log mu. Either way the certificate is
the Lagrange dual g(alpha) = max_{mu >= 0} D_{ridge+mu}(alpha) - mu U^2 / 2, maximised over
mu in closed form (:func:`._certify.ball_dual_value`).

Fenchel dual used throughout (P(u) = sum_t phi_t(x_t.u) + lam/2 ||u||^2):
D(alpha) = sum_t h_t(alpha_t) - ||X^T alpha||^2 / (2 lam), h_t(a) = -phi_t^*(-a), and
u(alpha) = X^T alpha / lam; D(alpha) <= P(u) for every alpha in the domain of h.

The hard margin (:func:`max_margin`) is a nearest-point problem solved exactly by an
active-set NNLS on a working set of rounds (:mod:`._hard_margin`, :mod:`._max_margin`),
certified both ways.
"""

from __future__ import annotations

import time

import numpy as np

from olbench.comparators import _ball, _l1, _lbfgs, _least_squares, _piecewise
from olbench.comparators._duality import (
    Limits,
    NoMinimizer,
    NotCertified,
    Problem,
    Solution,
    TimedOut,
    dual_value,
    matvec,
    total_loss,
)
from olbench.comparators._lp import dual_lp, separable
from olbench.comparators._max_margin import least_norm, max_margin

PIECEWISE = ("hinge", "absolute", "epsilon_insensitive")
SMOOTH = ("squared_hinge", "logistic", "squared")
SUPPORTED = PIECEWISE + SMOOTH


def _check(loss: str) -> None:
    if loss not in SUPPORTED:
        raise ValueError(f"best-fixed comparator: unsupported loss {loss!r}; supported: "
                         + ", ".join(SUPPORTED))


def _lp_least_norm(p: Problem) -> Solution:
    """The dual LP's solution, or the least-norm one among the hinge loss's minimisers."""
    return least_norm(p, dual_lp(p.X, p.y, p.loss, p.epsilon, p.deadline, p.limits))


#: the solver of a problem without a ball, by (loss, ridge != 0): the table above
UNCONSTRAINED = {
    **{(loss, False): _lp_least_norm for loss in PIECEWISE},
    **{(loss, True): _piecewise.solve_chain for loss in PIECEWISE},
    ("squared", False): _least_squares.solve,
    ("squared", True): _least_squares.solve,
    ("logistic", False): _lbfgs.solve_unregularised_logistic,
    ("logistic", True): _lbfgs.solve,
    ("squared_hinge", False): _lbfgs.solve,
    ("squared_hinge", True): _lbfgs.solve,
}


def _unconstrained(p: Problem) -> Solution:
    return UNCONSTRAINED[p.loss, p.lam != 0](p)


def _multiplier_search(p: Problem) -> Solution:
    return _ball.multiplier_search(p, _unconstrained)


def _piecewise_in_ball(p: Problem) -> Solution:
    return _piecewise.solve_chain(p, fallback=_multiplier_search)


#: the solver of a problem in the ball ||u|| <= radius, by loss
IN_BALL = {**{loss: _piecewise_in_ball for loss in PIECEWISE},
           **{loss: _multiplier_search for loss in SMOOTH}}


def solve(X, y, loss: str, *, epsilon: float = 0.1, ridge: float = 0.0,
          radius: float | None = None, warm: Solution | None = None,
          limits: Limits | None = None, l1: float = 0.0) -> Solution:
    """argmin_u sum_t loss(u.x_t, y_t) + ridge/2 ||u||^2, optionally subject to ||u|| <= radius;
    or, with ``l1`` > 0, argmin_u sum_t loss(u.x_t, y_t) + l1 ||u||_1 (:mod:`._l1`).

    Raises :class:`NotCertified` when no solver certifies the optimum within ``limits``.
    """
    _check(loss)
    y = np.asarray(y, float)
    limits = limits or Limits.default()
    deadline = time.monotonic() + limits.time
    if l1 > 0:
        problem = _l1.problem(loss, l1, ridge, radius)
        if problem:
            raise ValueError(problem)
        solution = _l1.solve(X, y, loss, l1, epsilon, deadline, limits)
        if not limits.certified(solution):
            raise NotCertified(f"L1 comparator ({solution.info.get('solver')}): relative gap "
                               f"{solution.gap:.3g} above {limits.accept:g}"
                               if solution.lower_bound is not None else
                               "L1 comparator: no certificate")
        return solution
    p = Problem(X, y, loss, epsilon, ridge, radius, warm, deadline, limits)
    if radius is None:
        return _unconstrained(p)
    return IN_BALL[loss](p)


__all__ = ["IN_BALL", "PIECEWISE", "SMOOTH", "SUPPORTED", "UNCONSTRAINED", "Limits",
           "NoMinimizer", "NotCertified", "Solution", "TimedOut", "dual_value", "matvec",
           "max_margin", "separable", "solve", "total_loss"]
