"""The best fixed W in hindsight for multiclass runs: min_W sum_t max(0, 1 - (W_y . x_t -
max_{r != y_t} W_r . x_t)), the multiclass hinge loss of the runs (Crammer & Singer 2001's
objective without its ridge), summed over the whole stream.

It is a linear program, solved through its dual (one column per round and rival class, one
row per weight, as :mod:`._lp` solves the binary hinge)::

    max sum_{t, r != y_t} a_{t,r}   s.t.  sum_{t,r} a_{t,r} z_{t,r} = 0,   a >= 0,
                                          sum_r a_{t,r} <= 1 for every t

with z_{t,r} = (e_{y_t} - e_r) (x) x_t Kesler's vectors. W is minus the equality rows'
multipliers; the certificate is the dual value minus ||Z a||_inf ||W||_1 (the most the
floating-point residual of the equality can move it), which must be within the solver
limits' relative gap of the objective evaluated at W, or the fit is a skip saying so. The
minimiser is not unique (adding one vector to every row of W changes no margin); the fit is
made on the rows in a canonical order, so every permutation of a dataset gets the same W.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from olbench.comparators._duality import Limits, NotCertified
from olbench.comparators._lp import _LIMIT_REACHED, _options
from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import OneOf
from olbench.labels import ClassLabels, multiclass_classes
from olbench.losses import get_loss


def margins_and_predictions(X, W: np.ndarray, index: np.ndarray):
    """(multiclass margins, classes predicted: the lowest index among the top scores)."""
    scores = np.asarray(X @ W.T)
    rows = np.arange(len(index))
    own = scores[rows, index].copy()
    predicted = np.argmax(scores, axis=1)
    scores[rows, index] = -np.inf
    return own - scores.max(axis=1), predicted


def kesler_columns(X, index: np.ndarray, k: int) -> sp.csr_matrix:
    """Z, (k d) x (n (k - 1)): column (t, r) is (e_{y_t} - e_r) (x) x_t, the rivals r of
    round t in increasing order."""
    X = sp.csr_matrix(X)
    n, d = X.shape
    rows, cols, vals = [], [], []
    column = 0
    for t in range(n):
        start, stop = X.indptr[t], X.indptr[t + 1]
        features, values = X.indices[start:stop], X.data[start:stop]
        for r in range(k):
            if r == index[t]:
                continue
            rows += [index[t] * d + features, r * d + features]
            cols += [np.full(len(features), column)] * 2
            vals += [values, -values]
            column += 1
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(k * d, n * (k - 1)))


def best_multiclass_hinge(X, index: np.ndarray, k: int, limits: Limits | None = None):
    """(W, its margins, its predicted classes, objective, certified lower bound, info) of
    min_W sum_t multiclass hinge."""
    limits = limits or Limits.default()
    deadline = time.monotonic() + limits.time
    n, d = X.shape
    Z = kesler_columns(X, index, k)
    per_round = sp.csr_matrix((np.ones(n * (k - 1)), (np.repeat(np.arange(n), k - 1),
                                                      np.arange(n * (k - 1)))))
    res = linprog(-np.ones(n * (k - 1)), A_ub=per_round, b_ub=np.ones(n), A_eq=Z,
                  b_eq=np.zeros(k * d), bounds=(0.0, None), method="highs",
                  options=_options(deadline, limits, "multiclass dual LP"))
    if res.status == _LIMIT_REACHED:
        raise limits.timed_out("the HiGHS multiclass dual LP")
    if res.status != 0:
        raise NotCertified(f"the multiclass dual LP: {res.message}")
    W = -np.asarray(res.eqlin.marginals, dtype=float).reshape(k, d)
    alpha = np.asarray(res.x, dtype=float)
    residual = float(np.abs(Z @ alpha).max(initial=0.0))
    lower = float(alpha.sum()) - residual * float(np.abs(W).sum())
    margins, predicted = margins_and_predictions(X, W, index)
    objective = float(np.maximum(0.0, 1.0 - margins).sum())
    if lower < objective - limits.accept * max(1.0, abs(objective)):
        raise NotCertified(f"the multiclass hinge LP's gap {objective - lower:.3g} is above "
                           f"{limits.accept:g} of its objective {objective:.6g}")
    return W, margins, predicted, objective, min(lower, objective), {
        "solver": "highs-multiclass-dual-lp", "dual_residual": residual}


class MulticlassBestFixed(Comparator, key="multiclass_best_fixed"):
    """The best fixed W in hindsight under the multiclass hinge loss, over the whole stream
    (see the module docs): the regret of a multiclass run is its cumulative multiclass hinge
    loss less W's, and W's own mistakes are counted beside the learner's.

    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]); y = np.array([1.0, 2.0, 3.0])
    >>> fit = MulticlassBestFixed().fit(X, y, cache=None)
    >>> round(fit.cum_loss, 9), fit.predicted.tolist()      # separable: W's loss is 0
    (0.0, [0, 1, 2])
    """

    task = "multiclass"
    minimises_loss = True
    constraints = {"loss": OneOf(None, "multiclass_hinge")}

    def __init__(self, *, loss: str | None = None):
        self.loss = loss

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        source = f"comparator {self.key}"
        classes = getattr(meta, "classes", None)
        classes = multiclass_classes(y if classes is None else classes, source=source)
        index = ClassLabels(classes, source=source)(y, len(y), 0).astype(np.int64)
        W, margins, predicted, objective, lower, info = best_multiclass_hinge(
            X, index, int(classes.size))
        return ComparatorFit(self.name, "multiclass_hinge", u=W, margins=margins,
                             losses=get_loss("multiclass_hinge")(margins, y),
                             objective=objective, lower_bound=lower, info=info,
                             predicted=predicted)
