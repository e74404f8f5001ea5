"""The hard-margin function in a kernel's RKHS (the margin of the kernel Perceptron's and the
Forgetron's mistake bounds)."""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from olbench.comparators import _solvers
from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval, OneOf
from olbench.losses import get_loss
from olbench.rules import rkhs


def kernel_params(kernel_type: str, h: float, degree: int, offset: float) -> rkhs.Params:
    """The compiled kernel's parameters (:mod:`olbench.rules.rkhs`) from their names."""
    return rkhs.Params(rkhs.CODES[kernel_type], 2.0 * float(h) ** 2, int(degree), float(offset))


#: eigen-directions of K below this fraction of the largest eigenvalue are dropped
RANK_TOL = 1e-12


def empirical_feature_map(K: np.ndarray) -> np.ndarray:
    """Rows Phi with Phi Phi' = K: the coordinates of k(x_1, .), ..., k(x_n, .) in an
    orthonormal basis e_1, e_2, ... of their span (eigen-decomposition of K). Directions with
    eigenvalue below ``RANK_TOL`` times the largest (round-off, or the rank deficiency of a
    linear or polynomial kernel) are dropped: a function f = sum_j u_j e_j over the others
    still has exactly f(x_t) = (Phi u)_t, so margins computed from Phi are those of a real
    function of the RKHS; only the search is restricted to those directions.

    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> Phi = empirical_feature_map(K); np.allclose(Phi @ Phi.T, K)
    True
    >>> empirical_feature_map(np.ones((3, 3))).shape     # rank 1
    (3, 1)
    """
    values, vectors = np.linalg.eigh((K + K.T) / 2.0)
    keep = values > RANK_TOL * max(float(values[-1]), 0.0)
    return vectors[:, keep] * np.sqrt(values[keep])


class KernelMaxMargin(Comparator, key="kernel_max_margin"):
    """f = argmin ||f||_H s.t. y_t f(x_t) >= 1 for all t: the hard-margin SVM through the
    origin in the RKHS of the kernel (``kernel_type``, ``h``, ``degree``, ``offset`` as for
    the kernel learners, :mod:`olbench.learners.kernel`).

    The optimum lies in the span of the k(x_t, .) (any other part adds norm and no margin), so
    it is the linear max-margin direction (:class:`~olbench.comparators.max_margin.MaxMargin`)
    of the empirical feature map Phi (Phi Phi' = K, :func:`empirical_feature_map`; the
    certificate ``gamma_upper`` is for the directions that map keeps).
    ``fit.margins`` are f(x_t) (canonical scaling, min_t y_t f(x_t) = 1); ``fit.u`` is None,
    f being no vector of the input space (so bounds stated for a linear u never take it), and
    ``fit.info["coef"]`` is f in that basis; ``fit.info["kernel_gamma"]`` is the margin of
    f / ||f||_H and ``fit.info["radius"]`` = max_t sqrt(k(x_t, x_t)). Dense n x n Gram
    matrix: streams longer than ``max_rounds`` are a skip with that reason.

    >>> X = np.array([[1.0], [2.0], [3.0]]); y = np.array([1.0, -1.0, 1.0])  # not linearly
    >>> fit = KernelMaxMargin(h=0.5).fit(X, y, cache=None)                  # separable
    >>> fit.ok, bool(fit.info["kernel_gamma"] > 0), fit.info["radius"]
    (True, True, 1.0)
    """

    constraints = {"kernel_type": OneOf(*rkhs.CODES), "h": Interval(0, math.inf, low_open=True),
                   "degree": Interval(1, math.inf, integer=True),
                   "offset": Interval(0, math.inf), "loss": OneOf("hinge"),
                   "max_rounds": Interval(1, math.inf, integer=True)}
    linear = False

    def __init__(self, *, kernel_type="gaussian", h=1.0, degree=2, offset=1.0, loss="hinge",
                 max_rounds=4000):
        self.kernel_type = kernel_type
        self.h = h
        self.degree = degree
        self.offset = offset
        self.loss = loss
        self.max_rounds = max_rounds

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        if X.shape[0] > self.max_rounds:   # n^2 memory, n^3 time: refuse rather than hang
            return self._skip(f"n = {X.shape[0]} rounds > max_rounds = {self.max_rounds}: the "
                              f"dense Gram matrix and its eigendecomposition cost O(n^2) "
                              f"memory and O(n^3) time", self.loss)
        dense = np.ascontiguousarray(X.toarray() if sp.issparse(X) else X)
        K = rkhs.gram(kernel_params(self.kernel_type, self.h, self.degree, self.offset),
                      dense, dense)
        radius = float(np.sqrt(np.max(np.diag(K), initial=0.0)))
        Phi = empirical_feature_map(K)
        u, info = _solvers.max_margin(Phi, y)
        # kernel_ names: a linear bound looking for the max-margin gamma must not find these
        info = {f"kernel_{k}": v for k, v in info.items()}
        info["radius"] = radius
        if u is None:
            fit = self._skip("not separable in the kernel's RKHS: no f with y_t f(x_t) > 0 "
                             "for all t", self.loss)
            fit.info = info
            return fit
        info["coef"] = u
        margins = Phi @ u
        return ComparatorFit(self.name, self.loss, 0.1, u=None, margins=margins,
                             losses=get_loss(self.loss)(margins, y),
                             objective=0.5 * float(u @ u),
                             lower_bound=0.5 / info["kernel_gamma_upper"] ** 2, info=info)
