"""AROW and recursive least squares."""

from math import inf

from olbench.bounds import AROW_MISTAKES
from olbench.component import Interval, OneOf
from olbench.learners.families import CovarianceLearner
from olbench.rules import arow as rule


class AROW(CovarianceLearner, key="arow"):
    """Adaptive Regularization of Weight Vectors (Crammer, Kulesza, Dredze, NIPS 2009, Fig. 1).

    Keeps a Gaussian N(mu, Sigma) over weight vectors; on y mu.x < 1, with v = x' Sigma x and
    beta = 1/(v + r): mu <- mu + max(0, 1 - y mu.x) beta y Sigma x and
    Sigma <- Sigma - beta Sigma x x' Sigma. Starts from mu = 0, Sigma = a I.
    ``diagonal=True`` keeps only diag(Sigma) (the paper's diagonal variant, O(nnz) per step).

    >>> import numpy as np
    >>> from olbench import run
    >>> run(AROW(r=1.0), np.array([[1.0, 1.0]]), np.array([1])).state["w"].tolist()
    [0.3333333333333333, 0.3333333333333333]
    """

    summary = "AROW (full or diagonal), AROW regression = RLS"
    source = "Crammer, Kulesza, Dredze 2009; Vaits & Crammer 2011"

    constraints = {"r": Interval(0, inf, low_open=True), "a": Interval(0, inf, low_open=True),
                   "diagonal": OneOf(False, True)}
    display_params = ("r",)
    bounds = (AROW_MISTAKES,)   # it skips diagonal=True with that reason

    def __init__(self, *, r: float = 1.0, a: float = 1.0, diagonal: bool = False):
        self.r = r
        self.a = a
        self.diagonal = diagonal

    def rule(self):
        rules = rule.REGRESSION if self.task == "regression" else rule.CLASSIFICATION
        return rules[bool(self.diagonal)]

    def rule_params(self):
        return rule.Params(float(self.r))

    def export_state(self):
        state = super().export_state()
        state["s"] = state["s"][:0]   # scratch: x' Sigma x of the last row (diagonal form)
        return state


class AROWRegressor(AROW, key="arow_regression"):
    """AROW for regression (Vaits & Crammer, "Re-adapting the regularization of weights for
    non-stationary regression", ALT 2011, with no re-adaptation): on every round, with
    beta = 1/(x' Sigma x + r), mu <- mu + (y - mu.x) beta Sigma x and
    Sigma <- Sigma - beta Sigma x x' Sigma. This is recursive least squares with P_0 = a I.

    >>> import numpy as np
    >>> from olbench import run
    >>> run(AROWRegressor(r=1.0), np.array([[1.0]]), np.array([2.0])).state["w"].tolist()
    [1.0]
    """

    task = "regression"
    display_label = "AROW regression"
    bounds = ()


class RLS(AROWRegressor, key="rls"):
    """Recursive least squares (forgetting factor 1): the same rule as :class:`AROWRegressor`,
    P_t = Sigma_t, noise variance ``r``, prior P_0 = a I. After t rounds, mu_t is the ridge
    solution argmin_w sum_s (y_s - w.x_s)^2 / r + ||w||^2 / a (tests check this).

    >>> import numpy as np
    >>> from olbench import run
    >>> run(RLS(r=1.0, a=1.0), np.array([[1.0], [1.0]]), np.array([3.0, 3.0])).state["w"].tolist()
    [2.0]
    """

    display_label = "RLS"
