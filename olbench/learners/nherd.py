"""Normal Herding (NHERD)."""

from math import inf

from olbench.component import Interval, OneOf, reciprocal_range
from olbench.learners.families import CovarianceLearner
from olbench.rules import nherd as rule


class NHERD(CovarianceLearner, key="nherd"):
    """Normal Herding (Crammer & Lee, "Learning via Gaussian herding", NIPS 2010).

    On y mu.x < 1, with v = x' Sigma x: mu <- mu + max(0, 1 - y mu.x) / (v + 1/C) y Sigma x
    and Sigma <- Sigma - (C^2 v + 2C) / (1 + C v)^2 Sigma x x' Sigma (Sigma^-1 grows by
    (C^2 v + 2C) x x'), from mu = 0, Sigma = a I. The mean step is AROW's with r = 1/C; the
    covariance shrinks faster. ``diagonal=True`` keeps diag(Sigma) only, by one of the paper's
    three diagonal rules (``diagonal_rule``, unused when ``diagonal=False``): ``"project"``
    (Sigma_rr^-1 += (C^2 v + 2C) x_r^2, the default), ``"exact"``
    (Sigma_rr <- Sigma_rr / (1 + C Sigma_rr x_r^2)^2) or ``"drop"`` (the diagonal of the full
    update). Defaults: LIBOL's (C = 1, a = 1; its NHERD.m is the full form).

    >>> import numpy as np
    >>> from olbench import run
    >>> run(NHERD(), np.array([[1.0, 1.0]]), np.array([1])).state["w"].tolist()
    [0.3333333333333333, 0.3333333333333333]
    """

    summary = "normal herding; full, or diagonal (project, exact, drop)"
    source = "Crammer & Lee, NIPS 2010"

    display_params = ("C",)
    constraints = {"C": reciprocal_range("the step divides by v + 1/C, whose 1/C must be a "
                                         "finite float64"), "a": Interval(0, inf, low_open=True),
                   "diagonal": OneOf(False, True),
                   "diagonal_rule": OneOf("project", "exact", "drop")}

    def __init__(self, *, C: float = 1.0, a: float = 1.0, diagonal: bool = False,
                 diagonal_rule: str = "project"):
        self.C = C
        self.a = a
        self.diagonal = diagonal
        self.diagonal_rule = diagonal_rule

    def rule(self):
        return rule.RULES[self.diagonal_rule if self.diagonal else "full"]

    def rule_params(self):
        return rule.Params(float(self.C))
