"""NAROW: AROW with an adaptive, per-example r."""

from math import inf

from olbench.component import Interval, OneOf
from olbench.learners.families import CovarianceLearner
from olbench.rules import narow as rule


class NAROW(CovarianceLearner, key="narow"):
    """NAROW (Orabona & Crammer, "New adaptive algorithms for online classification", NIPS
    2010), as the first author's own code runs it (DOGMA's ``narow_train.m``).

    Dual vector theta (theta_1 = 0) and matrix A (A_0 = I / a), mu = A^-1 theta. With
    chi = x' A_{t-1}^-1 x, r_t = chi / (b chi - 1) if b chi > 1, else inf, the prediction
    uses A_{t-1} + x x' / r_t: p = x' (A_{t-1} + x x'/r_t)^-1 theta = mu.x / max(1, b chi).
    On y p < 1: theta <- theta + y x and A_t = A_{t-1} + x x' / r_t. So r_t = inf (a direction
    seen little so far) gives a Perceptron-like step mu += y Sigma x with Sigma unchanged.

    ``libol=True`` reproduces LIBOL's NAROW.m, which differs in two ways: it predicts with the
    mean, p = mu.x (the difference the LIBOL manual notes), and takes AROW's step with
    r = r_t (theta <- theta + y x / r_t): mu <- mu + max(0, 1 - y p) beta y Sigma x,
    Sigma <- Sigma - beta Sigma x x' Sigma, beta = 1/(chi + r_t), so no step at all while
    b chi <= 1. The covariance updates agree. Defaults: LIBOL's (b = 1, a = 1; LIBOL passes
    its C = 1 as b).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 0.0], [0.0, 0.5]]); y = np.array([1, 1])
    >>> run(NAROW(), X, y).state["w"].tolist()   # b chi = 4, then 1/4: A grows, then not
    [0.5, 0.5]
    >>> run(NAROW(libol=True), X, y).state["w"].tolist()
    [0.375, 0.0]
    """

    summary = ("AROW with adaptive r_t, predicting with A_{t-1} + x x'/r_t (`libol=True`: LIBOL's"
               " NAROW.m)")
    source = "Orabona & Crammer, NIPS 2010"

    display_params = ("b",)
    constraints = {"b": Interval(0, inf, low_open=True), "a": Interval(0, inf, low_open=True),
                   "libol": OneOf(False, True)}

    def __init__(self, *, b: float = 1.0, a: float = 1.0, libol: bool = False):
        self.b = b
        self.a = a
        self.libol = libol

    def rule(self):
        return rule.RULES[bool(self.libol)]

    def rule_params(self):
        return rule.Params(float(self.b))
