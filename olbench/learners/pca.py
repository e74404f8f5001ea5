"""Online PCA learners (task ``"pca"``, :mod:`olbench.rules.pca`): each plays the projection
on a k-dimensional subspace before the row arrives and records its compression loss
||x_t - P_t x_t||^2; regret is measured against the best fixed rank-k projection in
hindsight (comparator ``best_subspace``). The subspace played next is exported as ``w`` (its
orthonormal rows, k x d).
"""

from __future__ import annotations

from math import inf
from typing import ClassVar

import numpy as np

from olbench.bounds import PCA_GD_REGRET, PCA_MEG_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.base import Learner
from olbench.learners.state import State
from olbench.resources import Footprint, features
from olbench.rules import pca as rule
from olbench.rules.pca_meg import MEG_RULE, MEGParams


class PCALearner(Learner):
    """Base of the online PCA learners: the rank ``k`` of the projection played (1 <= k < d,
    checked when the data's d is known)."""

    task: ClassVar[str] = "pca"
    k: int

    def init_state(self, d):
        if int(self.k) >= d:
            raise ValueError(f"{type(self).__name__}: k={self.k} must be below the data's "
                             f"dimension d={d} (a rank-d projection loses nothing: no regret "
                             f"to measure)")
        return self._fresh_state(d)

    def _fresh_state(self, d: int) -> State:
        raise NotImplementedError

    def export_state(self):
        # "w": the basis, its orthonormal rows (the first played_rank() are played next)
        state = self.state_
        return {"w": state.w.copy(), "A": state.A.copy(), "s": state.s.copy()}

    def played_rank(self) -> int:
        """How many rows of the basis (``w``) the projection played next spans."""
        return int(self.k)

    def basis(self) -> np.ndarray:
        """The orthonormal rows of the subspace played next."""
        return self.state_.w[:self.played_rank()].copy()

    def checkpoint_snapshot(self) -> np.ndarray:
        """The subspace played next (:meth:`basis`): the run keeps it at every checkpoint,
        for its distance to the batch SVD's over time (side output ``subspace_error``)."""
        return self.basis()


#: the rank of the projection played
_RANK = Interval(1, inf, integer=True)


class FTLPCA(PCALearner, key="pca_ftl"):
    """Follow the leader for online PCA: U_{t+1} = the top-k eigenvectors of
    C_t = sum_{s<=t} x_s x_s' (``numpy.linalg.eigh``'s, largest first; U_1 = the first k
    standard basis vectors). Source: Warmuth & Kuzmin (JMLR 9, 2008), Sec. 1, who show that
    it can suffer linear regret (stream ``pca_ftl_adversary``).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[0.0, 3.0], [0.0, 1.0]])
    >>> run(FTLPCA(k=1), X).margins.tolist()   # plays e_1, loses 9; then e_2, loses 0
    [9.0, 0.0]
    """

    summary = "online PCA: follow the leader (top-k eigenvectors of the data seen so far)"
    source = "Warmuth & Kuzmin, JMLR 2008"
    constraints = {"k": _RANK}

    def __init__(self, *, k: int = 1):
        self.k = k

    def _fresh_state(self, d):
        k = int(self.k)
        return State(np.eye(k, d), np.zeros((d + 1, d)), np.zeros(1 + k))

    def footprint(self, n, d, nnz=None):
        # C and the basis, eigh's eigenvectors and workspace (about 3 d^2), the exports
        return Footprint(8.0 * (6 * d * d + 4 * d + 16), "the d x d matrix of the data seen",
                         features(d), "use oja or brand_svd (no d x d matrix)")

    def rule(self):
        return rule.FTL_RULE

    def rule_params(self):
        return rule.FTLParams(int(self.k))


class Oja(PCALearner, key="oja"):
    """Oja's subspace rule: U <- U + eta_t (U x) x', then U's rows orthonormalised again
    (modified Gram-Schmidt); eta_t = eta (``schedule="constant"``), eta/sqrt(t) or eta/t.
    U_1: the orthonormalised rows of a Gaussian k x d draw of ``seed``. Source: Oja, J. Math.
    Biol. 15 (1982); Oja, Neural Networks 5 (1992), Eq. 6; the orthonormalised form, Arora,
    Cotter, Livescu, Srebro (2012).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.tile([[3.0, 0.0, 0.0]], (200, 1))
    >>> float(round(run(Oja(k=1, eta=0.5, schedule="constant"), X).margins[-1], 12))  # e_1
    0.0
    """

    summary = "online PCA: Oja's subspace rule, orthonormalised each round (eta, eta/√t, eta/t)"
    source = "Oja 1982; Oja 1992"
    constraints = {"k": _RANK, "eta": Interval(0, inf, low_open=True),
                   "schedule": OneOf(*rule.SCHEDULES), "seed": Interval(0, 2**63 - 1, integer=True)}

    def __init__(self, *, k: int = 1, eta: float = 1.0, schedule: str = "inverse",
                 seed: int = 0):
        self.k = k
        self.eta = eta
        self.schedule = schedule
        self.seed = seed

    def _fresh_state(self, d):
        k = int(self.k)
        return State(initial_basis(k, d, int(self.seed)), np.zeros((1, d)), np.zeros(1 + k))

    def footprint(self, n, d, nnz=None):
        return Footprint(8.0 * (3 * (int(self.k) + 1) * d + 16), f"{self.k} basis vectors of d",
                         features(d))

    def rule(self):
        return rule.OJA_RULE

    def rule_params(self):
        return rule.OjaParams(int(self.k), float(self.eta), rule.SCHEDULES[self.schedule])


def initial_basis(k: int, d: int, seed: int) -> np.ndarray:
    """k orthonormal rows: a Gaussian k x d draw of ``seed`` (numpy's default_rng), its rows
    orthonormalised by modified Gram-Schmidt in order."""
    U = np.random.default_rng(seed).standard_normal((k, d))
    for i in range(k):
        for h in range(i):
            U[i] -= (U[h] @ U[i]) * U[h]
        U[i] /= np.linalg.norm(U[i])
    return U


class BrandSVD(PCALearner, key="brand_svd"):
    """Brand's incremental SVD (:mod:`olbench.rules.pca`): the thin SVD of the rows seen so
    far, updated by re-diagonalising an (r+1) x (r+1) core per row; the rank grows by one
    when the row's residual off the current basis is above ``threshold`` (absolute, in the
    data's units), up to ``max_rank`` (None: d), where ``truncate=True`` keeps the top
    max_rank directions of the grown SVD and ``False`` drops the residual. The projection
    played is on the top min(k, r) singular directions. With threshold 0 and no ceiling the
    singular values and subspaces are the batch SVD's (tests/test_pca.py). Source: Brand,
    ECCV 2002, Sec. 2-3; Brand, SIAM SDM 2003 (no regret guarantee).

    >>> import numpy as np
    >>> from olbench import run
    >>> trace = run(BrandSVD(k=1), np.array([[3.0, 0.0], [0.0, 4.0]]))
    >>> trace.margins.tolist(), trace.state["s"][2:4].tolist()   # losses; singular values
    ([9.0, 16.0], [4.0, 3.0])
    """

    summary = ("online PCA: Brand's incremental SVD (rank grows above a residual threshold, "
               "up to a ceiling)")
    source = "Brand, ECCV 2002; SDM 2003"
    constraints = {"k": _RANK, "threshold": Interval(0, inf),
                   "max_rank": Interval(1, inf, integer=True, none_ok=True),
                   "truncate": OneOf(True, False)}

    def __init__(self, *, k: int = 1, threshold: float = 0.0, max_rank: int | None = None,
                 truncate: bool = True):
        self.k = k
        self.threshold = threshold
        self.max_rank = max_rank
        self.truncate = truncate

    def validate(self):
        super().validate()
        if self.max_rank is not None and self.max_rank < self.k:  # (both checked numbers)
            raise ValueError(f"BrandSVD: max_rank={self.max_rank} is below k={self.k}: the "
                             f"projection played has rank k")

    def ceiling(self, d: int) -> int:
        return int(d if self.max_rank is None else min(self.max_rank, d))

    def _fresh_state(self, d):
        R = self.ceiling(d)
        return State(np.zeros((R, d)), np.zeros((2, d)), np.zeros(2 + 2 * (R + 1)))

    def played_rank(self):
        return min(int(self.k), int(self.state_.s[1]))

    def singular_values(self) -> np.ndarray:
        """The singular values kept, largest first (r of them)."""
        return self.state_.s[2:2 + int(self.state_.s[1])].copy()

    def footprint(self, n, d, nnz=None):
        R = self.ceiling(d)
        # U (R + 2 rows of d) and its copy in the update, the core and its SVD, the exports
        return Footprint(8.0 * (4 * (R + 2) * d + 6 * (R + 2) ** 2 + 16),
                         f"{R} basis vectors of d", features(d),
                         "set max_rank (a rank ceiling) to bound the basis")

    def rule(self):
        return rule.BRAND_RULE

    def rule_params(self):
        return rule.BrandParams(int(self.k), self.ceiling(self.n_features_),
                                float(self.threshold), bool(self.truncate))


class CappedMixture(PCALearner):
    """Base of the learners that play a mixture of projections: W in {0 <= W <= I,
    tr W = d - k} (``w``), the relaxed complement of a rank-k projection; the loss recorded
    is x' W x, the expected compression loss of a projection drawn from the mixture W stands
    for (Warmuth & Kuzmin 2008, Sec. 3.1). W_1 = ((d - k)/d) I."""

    constraints = {"k": _RANK, "eta": Interval(0, inf, low_open=True)}

    def basis(self):
        """The top-k eigenvectors of I - W (the subspace the mixture weighs most)."""
        values, vectors = np.linalg.eigh(self.state_.w)
        return vectors[:, :int(self.k)].T.copy()

    def footprint(self, n, d, nnz=None):
        return Footprint(8.0 * (6 * d * d + 4 * d + 16), "the d x d matrix W",
                         features(d), "use oja or brand_svd (no d x d matrix)")


class PCAGD(CappedMixture, key="pca_gd"):
    """Online PCA by gradient descent on the capped spectrahedron (:mod:`olbench.rules.pca`):
    W_t in {0 <= W <= I, tr W = d - k}, the relaxed complement of a rank-k projection, from
    W_1 = ((d - k)/d) I; it records x_t' W_t x_t, the expected compression loss of the mixture
    of projections W_t stands for (a random projection drawn from that mixture has it as its
    expected loss: Warmuth & Kuzmin 2008, Sec. 3.1), and steps W <- proj(W - eta x x') with a
    fixed ``eta``. Its regret against the best rank-k projection is at most
    m (d - m)/(2 eta d) + eta T R^4 / 2, m = d - k (:mod:`olbench.bounds.pca`). Sources:
    Warmuth & Kuzmin (JMLR 9, 2008), Sec. 3; Nie, Kotlowski, Warmuth (JMLR 17, 2016), Sec. 3.
    ``w`` is W (d x d).

    >>> import numpy as np
    >>> from olbench import run
    >>> run(PCAGD(k=1, eta=0.5), np.array([[2.0, 0.0], [2.0, 0.0]])).margins.tolist()
    [2.0, 0.0]
    """

    summary = ("online PCA: gradient descent on the capped spectrahedron (the mixture's "
               "expected loss; regret bound)")
    source = "Warmuth & Kuzmin 2008; Nie, Kotlowski, Warmuth 2016"
    bounds = (PCA_GD_REGRET,)

    def __init__(self, *, k: int = 1, eta: float = 0.1):
        self.k = k
        self.eta = eta

    def _fresh_state(self, d):
        m = d - int(self.k)
        return State(np.eye(d) * (m / d), np.zeros((1, d)), np.zeros(1))

    def rule(self):
        return rule.GD_RULE

    def rule_params(self):
        return rule.GDParams(float(self.n_features_ - int(self.k)), float(self.eta))


class PCAMEG(CappedMixture, key="pca_meg"):
    """Online PCA by matrix exponentiated gradient with capping
    (:mod:`olbench.rules.pca_meg`): the density matrix D_t = W_t / m, m = d - k, eigenvalues
    capped at 1/m, from D_1 = I/d; it records x_t' W_t x_t = m x_t' D_t x_t (the mixture's
    expected compression loss) and steps D <- cap(exp(log D - eta x x') / Z). Its regret
    against the best rank-k projection, whose loss on the rows so far is L, is at most
    (eta R^2 L + m R^2 ln(d/m)) / (1 - exp(-eta R^2)) - L (:mod:`olbench.bounds.pca`): only
    logarithmic in d. Source: Warmuth & Kuzmin (JMLR 9, 2008), Sec. 3-4. ``w`` is W (d x d),
    ``A`` log D.

    >>> import numpy as np
    >>> from olbench import run
    >>> losses = run(PCAMEG(k=1, eta=1.0), np.array([[2.0, 0.0], [2.0, 0.0]])).margins
    >>> losses.round(6).tolist()   # W_1 = I/2: loses 2; then e_1's share falls to 1/(1+e^4)
    [2.0, 0.071945]
    """

    summary = ("online PCA: matrix exponentiated gradient with capping (regret logarithmic "
               "in d)")
    source = "Warmuth & Kuzmin 2008"
    bounds = (PCA_MEG_REGRET,)

    def __init__(self, *, k: int = 1, eta: float = 1.0):
        self.k = k
        self.eta = eta

    def _fresh_state(self, d):
        m = d - int(self.k)
        return State(np.eye(d) * (m / d), np.eye(d) * -np.log(d), np.zeros(1))

    def rule(self):
        return MEG_RULE

    def rule_params(self):
        return MEGParams(float(self.n_features_ - int(self.k)), float(self.eta))
