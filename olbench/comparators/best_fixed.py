"""The best fixed predictor in hindsight over the whole stream."""

from __future__ import annotations

import math

from olbench.comparators import _chunked, _l1, _solvers
from olbench.comparators.base import LOSS_CHOICES, Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval


class BestFixed(Comparator, key="best_fixed"):
    """u* = argmin_u sum_t loss(u.x_t, y_t) [+ ridge/2 ||u||^2], optionally with ||u|| <= radius;
    or argmin_u sum_t [loss(u.x_t, y_t) + l1 ||u||_1] = sum_t loss + T l1 ||u||_1 over the
    T rounds fitted (``l1`` > 0, per round as the sparse learners' own ``l1``: the best fixed
    predictor of their objective, sparse; without ridge or radius: :mod:`._l1`).

    ``radius`` is the setting of the OGD regret bound (the comparator lives in the learner's
    feasible ball); ``ridge`` gives the tightest PA-I / PA-II bounds (ridge = 1/C with the hinge /
    squared hinge loss). Solvers (see :mod:`olbench.comparators._solvers`): HiGHS LP for the
    piecewise-linear losses, least squares for ``squared``, L-BFGS for ``logistic`` /
    ``squared_hinge``, dual coordinate descent / Clarabel for piecewise-linear + ridge,
    Clarabel's cone program or a Lagrange multiplier search for the ball, all time-limited.
    ``fit.lower_bound`` certifies optimality; a fit not certified within the limits is a skip.
    Over an out-of-core stream (:meth:`fit_stream`) the squared loss, and the logistic and
    squared hinge losses with ridge > 0, are fitted chunk by chunk (:mod:`._chunked`); the
    others need the rows in memory and refuse such a stream.

    ``loss=None``: the run's loss (hinge / squared for the data's task when fitted alone).
    ``cum_loss`` is the loss part only (without the ridge penalty); ``objective`` includes it.
    Unregularised logistic loss on separable data has no minimiser: the fit is skipped.

    >>> import numpy as np
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.0, 1.0, 5.0])
    >>> BestFixed(loss="absolute").fit(X, y, cache=None).u.round(6).tolist()   # the median
    [1.0]
    >>> BestFixed(loss="squared", radius=0.5).fit(X, y, cache=None).u.round(6).tolist()
    [0.5]
    """

    constraints = {"loss": LOSS_CHOICES, "ridge": Interval(0, math.inf),
                   "radius": Interval(0, math.inf, low_open=True, none_ok=True),
                   "epsilon": Interval(0, math.inf), "l1": Interval(0, math.inf)}

    minimises_loss = True
    #: at its default l1 stays out of names and run ids (every study before it keeps its own)
    optional_params = {"l1": (0.0, Interval(0, math.inf))}

    def __init__(self, *, loss=None, ridge=0.0, radius=None, epsilon=0.1, l1=0.0):
        self.loss = loss
        self.ridge = ridge
        self.radius = radius
        self.epsilon = epsilon
        self.l1 = l1
        problem = _l1.problem(loss or "hinge", float(l1), float(ridge), radius) \
            if self.constraints["l1"].check(l1) else None
        if problem:
            raise ValueError(f"best_fixed: {problem}")

    def solve(self, X, y, warm=None) -> _solvers.Solution:
        return _solvers.solve(X, y, self.loss, epsilon=self.epsilon, ridge=float(self.ridge),
                              radius=self.radius, warm=warm,
                              l1=float(self.l1) * X.shape[0])     # per round, T rounds

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        try:
            s = self.solve(X, y)
        except _solvers.NoMinimizer as e:
            return self._skip(str(e), self.loss)
        return self._result(X, y, s.u, self.loss, self.epsilon, objective=s.objective,
                            lower_bound=s.lower_bound, info=s.info)

    def streamed_problem(self) -> str | None:
        if self.l1:
            return "the L1 comparator needs the rows in memory"
        return _chunked.streamed_problem(self.loss, float(self.ridge), self.radius)

    def _fit_stream(self, stream, meta, checkpoints) -> ComparatorFit:
        s, sums = _chunked.newton(stream.chunks, meta.d, self.loss, float(self.ridge),
                                  checkpoints)
        return self._streamed_result(s.u, self.loss, checkpoints, sums, objective=s.objective,
                                     lower_bound=s.lower_bound, info=s.info)
