"""The best fixed rank-k projection in hindsight for online PCA runs (task ``"pca"``).

min over rank-k orthogonal projections P of sum_t ||x_t - P x_t||^2 = tr(C) - tr(P C), with
C = sum_t x_t x_t': P* projects on the top-k eigenvectors of C (Ky Fan), and the minimum is
the sum of C's d - k smallest eigenvalues (Warmuth & Kuzmin, JMLR 9, 2008, Sec. 2).

Exact up to the eigen-solver: ``numpy.linalg.eigh`` (LAPACK's symmetric solver) is backward
stable, each computed eigenvalue within about d eps ||C|| of the true one, so the fit's
``lower_bound`` is the computed trailing sum less (d - k) 4 d eps lambda_max, a certified
bound on the optimum; ``objective`` is the loss of the computed P, summed over the rows. At
an eigenvalue tie between the k-th and (k+1)-th (``info["eigengap"]`` within that
accuracy) the best subspace is not unique: the loss is, and P* is the one eigh returns.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval, OneOf


def second_moment(X) -> np.ndarray:
    """C = X' X (d x d, dense) for dense or CSR rows."""
    C = X.T @ X
    return np.asarray(C.toarray() if sp.issparse(C) else C, dtype=float)


def top_subspace(C: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(the top-k eigenvectors of C as orthonormal rows, largest first; all eigenvalues,
    ascending)."""
    values, vectors = np.linalg.eigh(C)
    return vectors[:, ::-1][:, :k].T.copy(), values


def compression_losses(X, basis: np.ndarray) -> np.ndarray:
    """||x_t - B' B x_t||^2 of every row, B with orthonormal rows."""
    coefficients = np.asarray(X @ basis.T, dtype=float)
    squares = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) \
        else np.einsum("ij,ij->i", X, X)
    residual = squares - np.einsum("ij,ij->i", coefficients, coefficients)
    return np.maximum(residual, 0.0)   # (a row in the subspace: 0, not -1e-17)


def certified_minimum(values: np.ndarray, k: int) -> tuple[float, float]:
    """(sum of the d - k smallest computed eigenvalues, a certified lower bound on the true
    minimum: less the solver's error, (d - k) 4 d eps lambda_max)."""
    d = values.size
    trailing = float(np.maximum(values[:d - k], 0.0).sum())
    slack = (d - k) * 4.0 * d * np.finfo(float).eps * max(float(values[-1]), 0.0)
    return trailing, trailing - slack


class BestSubspace(Comparator, key="best_subspace"):
    """The best rank-``k`` projection of the whole stream (module docs): ``fit.u`` its
    orthonormal basis (k x d rows), ``fit.losses`` each row's compression loss under it,
    ``fit.info`` the eigenvalues and the gap at k. ``k=None`` (the default) is the rank of
    the run's learner, set by a grid or a cell (:func:`olbench.harness.tasks.with_run_rank`).

    >>> import numpy as np
    >>> X = np.array([[3.0, 0.0], [0.0, 1.0], [2.0, 0.0]])
    >>> fit = BestSubspace(k=1).fit(X, np.zeros(3), cache=None)
    >>> fit.u.round(6).tolist(), fit.losses.tolist(), fit.cum_loss   # e_1 loses row 2 only
    ([[1.0, 0.0]], [0.0, 1.0, 0.0], 1.0)
    """

    task = "pca"
    minimises_loss = True
    constraints = {"k": Interval(1, np.inf, integer=True, none_ok=True),
                   "loss": OneOf(None, "compression")}

    def __init__(self, *, k: int | None = None, loss: str | None = None):
        self.k = k
        self.loss = loss

    def _rank(self, X) -> int:
        if self.k is None:
            raise ValueError(f"comparator {self.key}: k=None is the rank of the run's learner "
                             f"(a grid or a cell sets it); fitted alone, give k")
        k, d = int(self.k), X.shape[1]
        if k >= d:
            raise ValueError(f"comparator {self.key}: k={k} must be below the data's dimension "
                             f"d={d}")
        return k

    def _solve(self, X, k: int):
        basis, values = top_subspace(second_moment(X), k)
        trailing, lower = certified_minimum(values, k)
        return basis, values, trailing, lower

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        k = self._rank(X)
        basis, values, trailing, lower = self._solve(X, k)
        losses = compression_losses(X, basis)
        return ComparatorFit(self.name, "compression", u=basis, margins=losses, losses=losses,
                             objective=float(losses.sum()), lower_bound=min(lower,
                                                                            float(losses.sum())),
                             info=_info(values, k, trailing))


def _info(values: np.ndarray, k: int, trailing: float) -> dict:
    d = values.size
    return {"solver": "numpy.linalg.eigh", "eigenvalues": values[::-1].copy(),
            "eigengap": float(values[d - k] - values[d - k - 1]), "trailing_sum": trailing}


class PrefixBestSubspace(BestSubspace, key="prefix_best_subspace"):
    """The best rank-``k`` projection of every prefix, re-fitted at each checkpoint T (its
    loss the trailing eigenvalues of C_T): the comparator of the true regret curve. ``fit.u``
    and ``fit.losses`` are the whole stream's.

    >>> import numpy as np
    >>> X = np.array([[3.0, 0.0], [0.0, 4.0]])
    >>> BestSubspace.registry.make("prefix_best_subspace", k=1).fit(
    ...     X, np.zeros(2), checkpoints=[1, 2], cache=None).prefix_loss.tolist()
    [0.0, 9.0]
    """

    order_invariant = False  # each prefix is a different set of rows

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        from olbench.checkpoints import log_checkpoints

        k, n = self._rank(X), X.shape[0]
        ks = np.asarray(log_checkpoints(n) if checkpoints is None else checkpoints)
        prefix_loss, lower = np.empty(len(ks)), np.empty(len(ks))
        C = np.zeros((X.shape[1], X.shape[1]))
        done = 0
        for i, T in enumerate(ks):
            C += second_moment(X[done:T])
            done = T
            _, values = top_subspace(C, k)
            prefix_loss[i], lower[i] = certified_minimum(values, k)
        whole = BestSubspace._fit(self, X, y, meta, checkpoints)
        whole.comparator = self.name
        whole.checkpoints, whole.prefix_loss = ks, prefix_loss
        whole.info = {**whole.info, "prefix_lower_bound": lower}
        return whole
