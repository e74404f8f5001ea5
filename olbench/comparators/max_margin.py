"""The hard-margin direction of separable data (the tightest gamma for Novikoff)."""

from __future__ import annotations

import math

from olbench.comparators import _solvers
from olbench.comparators.base import LOSS_CHOICES, Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval


class MaxMargin(Comparator, key="max_margin"):
    """u = argmin ||u|| s.t. y_t u.x_t >= 1 for all t (hard-margin SVM through the origin).

    ``fit.u`` is the canonical scaling (min_t y_t u.x_t = 1, ||u|| = 1/gamma);
    ``fit.info["gamma"]`` is the realised margin min_t y_t u.x_t / ||u|| of the returned u (a
    valid margin whatever the solver accuracy) and ``fit.info["gamma_upper"]`` a certified upper
    bound on the best margin (the norm of a point of the convex hull of the y_t x_t), so
``fit.gap`` = 1/(2 gamma^2) - 1/(2 gamma_upper^2) is certified. On non-separable data the fit is
skipped with
    reason ``"not separable"``. Losses are those of the canonical u under ``loss``.

    >>> import numpy as np
    >>> X = np.array([[2.0, 1.0], [-2.0, 1.0]]); y = np.array([1.0, -1.0])
    >>> fit = MaxMargin().fit(X, y, cache=None)
    >>> round(fit.info["gamma"], 6), fit.u.round(6).tolist()
    (2.0, [0.5, 0.0])
    >>> MaxMargin().fit(X, -y * 0 + 1, cache=None).info["gamma"] > 0   # all positive: separable
    True
    """

    constraints = {"loss": LOSS_CHOICES, "epsilon": Interval(0, math.inf)}

    def __init__(self, *, loss=None, epsilon=0.1):
        self.loss = loss
        self.epsilon = epsilon

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        u, info = _solvers.max_margin(X, y)
        if u is None:
            return self._skip("not separable: no u with y_t u.x_t > 0 for all t", self.loss)
        return self._result(X, y, u, self.loss, self.epsilon, objective=0.5 * float(u @ u),
                            lower_bound=0.5 / info["gamma_upper"] ** 2, info=info)
