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

With ``ridge`` lambda > 0 the objective is Crammer & Singer's multiclass SVM, sum_t hinge +
lambda/2 ||W||_F^2, a QP solved by Clarabel's interior point on its primal (W, xi) and
certified by its dual: the constraint multipliers a_{t,r}, clipped to the dual's feasible set
(a >= 0, sum_r a_{t,r} <= 1), give D(a) = sum a - ||Z a||^2 / (2 lambda) <= the optimum, and
the fit stands when P(W) - D(a) is within the limits' relative gap.

:class:`MulticlassMaxMargin` is the hard margin: the least-norm W with every multiclass
margin >= 1, the binary hard-margin SVM of :mod:`._solvers` on Kesler's vectors (all labels
+1); its margin gamma = 1 / ||W||_F is the largest multiclass margin of a unit W, the
gamma of the multiclass mistake bounds (:mod:`olbench.bounds.multiclass`).
"""

from __future__ import annotations

import functools
import math
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from olbench.comparators._duality import Limits, NotCertified
from olbench.comparators._lp import _LIMIT_REACHED, _options
from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval, OneOf
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
    """Z, (k d) x (n (k - 1)): column t (k - 1) + j is (e_{y_t} - e_r) (x) x_t with r the
    j-th rival of round t in increasing order (r = j below y_t, j + 1 from it on).

    >>> kesler_columns(np.array([[2.0, 3.0]]), np.array([1]), 3).toarray().T.tolist()
    [[-2.0, -3.0, 2.0, 3.0, 0.0, 0.0], [0.0, 0.0, 2.0, 3.0, -2.0, -3.0]]
    """
    X = sp.csr_matrix(X)
    n, d = X.shape
    rivals = k - 1
    round_of = np.repeat(np.arange(n), np.diff(X.indptr))        # the round of each entry
    t = np.repeat(round_of, rivals)
    j = np.tile(np.arange(rivals), X.nnz)
    own = np.asarray(index, dtype=np.int64)[t]
    rival = j + (j >= own)
    feature, value = np.repeat(X.indices, rivals), np.repeat(X.data, rivals)
    column = t * rivals + j
    return sp.csr_matrix((np.concatenate([value, -value]),
                          (np.concatenate([own * d + feature, rival * d + feature]),
                           np.concatenate([column, column]))), shape=(k * d, n * rivals))


def certified(X, W: np.ndarray, index: np.ndarray, lower: float, lam: float, limits: Limits,
              problem: str):
    """(margins, predicted, objective) of W, whose objective sum_t hinge + lam/2 ||W||^2 the
    dual value ``lower`` must meet within the limits' relative gap, else NotCertified."""
    margins, predicted = margins_and_predictions(X, W, index)
    objective = float(np.maximum(0.0, 1.0 - margins).sum()) + 0.5 * lam * float((W * W).sum())
    if lower < objective - limits.accept * max(1.0, abs(objective)):
        raise NotCertified(f"the {problem}'s gap {objective - lower:.3g} is above "
                           f"{limits.accept:g} of its objective {objective:.6g}")
    return margins, predicted, objective


def best_multiclass_hinge(X, index: np.ndarray, k: int, limits: Limits | None = None):
    """(W, its margins, its predicted classes, objective, certified lower bound, info) of
    min_W sum_t multiclass hinge."""
    limits = limits or Limits.default()
    deadline = time.monotonic() + limits.time
    n, d = X.shape
    Z = kesler_columns(X, index, k)
    res = linprog(-np.ones(n * (k - 1)), A_ub=_per_round(n, k), b_ub=np.ones(n), A_eq=Z,
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
    margins, predicted, objective = certified(X, W, index, lower, 0.0, limits,
                                              "multiclass hinge LP")
    return W, margins, predicted, objective, min(lower, objective), {
        "solver": "highs-multiclass-dual-lp", "dual_residual": residual}


def _per_round(n: int, k: int) -> sp.csr_matrix:
    """E, n x (n (k - 1)): row t sums the k - 1 columns of round t."""
    return sp.csr_matrix((np.ones(n * (k - 1)), (np.repeat(np.arange(n), k - 1),
                                                 np.arange(n * (k - 1)))))


def ridge_dual_value(Z, a: np.ndarray, lam: float) -> float:
    """D(a) = sum a - ||Z a||^2 / (2 lam), the Crammer-Singer dual at a feasible a: a lower
    bound on min_W sum_t hinge + lam/2 ||W||^2 (weak duality)."""
    v = np.asarray(Z @ a, float).ravel()
    return float(a.sum()) - float(v @ v) / (2.0 * lam)


def feasible_dual(a: np.ndarray, n: int, k: int) -> np.ndarray:
    """``a`` clipped to a >= 0 and each round's k - 1 values scaled to sum to <= 1.

    >>> feasible_dual(np.array([-0.1, 0.5, 0.8, 0.4]), 2, 3).tolist()
    [0.0, 0.5, 0.6666666666666666, 0.3333333333333333]
    """
    a = np.clip(np.asarray(a, float), 0.0, None).reshape(n, k - 1)
    return (a / np.maximum(a.sum(axis=1, keepdims=True), 1.0)).ravel()


def best_multiclass_ridge(X, index: np.ndarray, k: int, lam: float,
                          limits: Limits | None = None):
    """(W, margins, predicted, objective, certified lower bound, info) of
    min_W sum_t multiclass hinge + lam/2 ||W||_F^2 (module docs)."""
    from olbench.comparators._qp import MAX_NNZ, QPUnavailable, clarabel_solve

    limits = limits or Limits.default()
    n, d = X.shape
    Z = kesler_columns(X, index, k)
    m = n * (k - 1)
    if Z.nnz > MAX_NNZ:
        raise NotCertified(f"the multiclass ridge QP has {Z.nnz:.2g} nonzeros: interior point "
                           f"not attempted (at most {MAX_NNZ:.0g})")
    import clarabel

    # x = (W, xi): 1 - z_{t,r}.W <= xi_t for every rival r, xi >= 0
    A = sp.vstack([sp.hstack([-Z.T, -_per_round(n, k).T]),
                   sp.hstack([sp.csr_matrix((n, k * d)), -sp.eye(n)])])
    b = np.concatenate([-np.ones(m), np.zeros(n)])
    P = sp.diags(np.concatenate([np.full(k * d, float(lam)), np.zeros(n)]))
    q = np.concatenate([np.zeros(k * d), np.ones(n)])
    try:
        x, z, status = clarabel_solve(P, q, A, b, [clarabel.NonnegativeConeT(m + n)],
                                      limits.time)
    except QPUnavailable as e:
        raise NotCertified(f"the multiclass ridge QP: {e}") from None
    W = x[:k * d].reshape(k, d)
    a = feasible_dual(z[:m], n, k)
    lower = ridge_dual_value(Z, a, lam)
    margins, predicted, objective = certified(X, W, index, lower, lam, limits,
                                              "multiclass ridge QP")
    return W, margins, predicted, objective, min(lower, objective), {
        "solver": f"clarabel-multiclass-ridge ({status})",
        "gap": objective - lower}


def multiclass_max_margin(X, index: np.ndarray, k: int, limits: Limits | None = None):
    """(W, info) of the multiclass hard margin, min ||W||_F^2 s.t. every multiclass margin
    >= 1 (module docs); W None when no W separates the rounds. info: ``gamma`` (the margin of
    the unit W / ||W||), ``gamma_upper`` (certified: no unit W has a larger margin)."""
    from olbench.comparators._solvers import max_margin

    Z = kesler_columns(X, index, k).T.tocsr()
    w, info = max_margin(Z, np.ones(Z.shape[0]), limits)
    return (None if w is None else w.reshape(k, np.shape(X)[1])), info


def _class_index(comparator: Comparator, y, meta) -> tuple[np.ndarray, int]:
    """The rounds' class indices 0..k-1 and k, the classes the stream declares (else y's)."""
    source = f"comparator {comparator.key}"
    classes = getattr(meta, "classes", None)
    classes = multiclass_classes(y if classes is None else classes, source=source)
    return ClassLabels(classes, source=source)(y, len(y), 0).astype(np.int64), int(classes.size)


class MulticlassBestFixed(Comparator, key="multiclass_best_fixed"):
    """The best fixed W in hindsight under the multiclass hinge loss, over the whole stream,
    with ``ridge`` lambda: Crammer & Singer's multiclass SVM, sum_t hinge + lambda/2
    ||W||_F^2 (see the module docs): the regret of a multiclass run is its cumulative
    multiclass hinge loss less W's (``cum_loss`` is the loss part; ``objective`` includes
    the ridge), and W's own mistakes are counted beside the learner's.

    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]); y = np.array([1.0, 2.0, 3.0])
    >>> fit = MulticlassBestFixed().fit(X, y, cache=None)
    >>> round(fit.cum_loss, 9), fit.predicted.tolist()      # separable: W's loss is 0
    (0.0, [0, 1, 2])
    >>> round(MulticlassBestFixed(ridge=1.0).fit(X, y, cache=None).objective, 6)   # 2/3
    0.666667
    """

    task = "multiclass"
    minimises_loss = True
    constraints = {"loss": OneOf(None, "multiclass_hinge"), "ridge": Interval(0, math.inf)}
    #: at its default ridge stays out of names and run ids
    optional_params = {"ridge": (0.0, Interval(0, math.inf))}

    def __init__(self, *, loss: str | None = None, ridge: float = 0.0):
        self.loss = loss
        self.ridge = ridge

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        index, k = _class_index(self, y, meta)
        solve = (functools.partial(best_multiclass_ridge, lam=float(self.ridge))
                 if self.ridge > 0 else best_multiclass_hinge)
        W, margins, predicted, objective, lower, info = solve(X, index, k)
        return ComparatorFit(self.name, "multiclass_hinge", u=W, margins=margins,
                             losses=get_loss("multiclass_hinge")(margins, y),
                             objective=objective, lower_bound=lower, info=info,
                             predicted=predicted)


class MulticlassMaxMargin(Comparator, key="multiclass_max_margin"):
    """The multiclass hard margin (module docs): W = argmin ||W||_F s.t. W_y . x_t -
    W_r . x_t >= 1 for every round t and rival r. ``fit.u`` is that canonical W (least
    margin 1, ||W||_F = 1/gamma); ``fit.info["gamma"]`` the margin of the unit W / ||W||_F
    and ``fit.info["gamma_upper"]`` a certified upper bound on the best margin, as
    :class:`~olbench.comparators.max_margin.MaxMargin` gives them for binary data. The
    losses are the canonical W's multiclass hinge losses (0 on every round); data no W
    separates are a skip, ``"not separable"``.

    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, 2.0])
    >>> fit = MulticlassMaxMargin().fit(X, y, cache=None)
    >>> fit.u.round(6).tolist(), round(fit.info["gamma"], 6)    # rows (1/2)(e_1 - e_2), ...
    ([[0.5, -0.5], [-0.5, 0.5]], 1.0)
    """

    task = "multiclass"
    constraints = {"loss": OneOf(None, "multiclass_hinge")}

    def __init__(self, *, loss: str | None = None):
        self.loss = loss

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        index, k = _class_index(self, y, meta)
        W, info = multiclass_max_margin(X, index, k)
        if W is None:
            return self._skip("not separable: no W has every multiclass margin > 0",
                              "multiclass_hinge")
        margins, predicted = margins_and_predictions(X, W, index)
        return ComparatorFit(self.name, "multiclass_hinge", u=W, margins=margins,
                             losses=get_loss("multiclass_hinge")(margins, y),
                             objective=0.5 * float((W * W).sum()),
                             lower_bound=0.5 / info["gamma_upper"] ** 2, info=info,
                             predicted=predicted)
