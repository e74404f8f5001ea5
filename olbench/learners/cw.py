"""Confidence-weighted learning (CW), in its two published forms."""

from math import inf
from statistics import NormalDist

from olbench.component import Interval, OneOf
from olbench.learners.base import CovarianceLearner
from olbench.rules import cw as rule


def probit(eta: float) -> float:
    """phi = Phi^-1(eta), the confidence parameter of CW and SCW (LIBOL: ``norminv(eta)``).

    >>> round(probit(0.7), 6)
    0.524401
    """
    return NormalDist().inv_cdf(float(eta))


class CW(CovarianceLearner, key="cw"):
    """Confidence-weighted learning: a Gaussian N(mu, Sigma) over weight vectors, updated so
    that a weight vector drawn from it classifies the example correctly with probability eta.

    With m = y mu.x, v = x' Sigma x and phi = Phi^-1(eta), when the constraint fails:
    mu <- mu + alpha y Sigma x and Sigma <- Sigma - beta Sigma x x' Sigma (full covariance), from
    mu = 0, Sigma = a I. Two forms:

    * ``form="stdev"`` (default; LIBOL's CW.m): Crammer, Dredze, Pereira, "Exact convex
      confidence-weighted learning", NIPS 2008, constraint m >= phi sqrt(v); with
      psi = 1 + phi^2/2, xi = 1 + phi^2:
      alpha = max(0, (-m psi + sqrt(m^2 phi^4/4 + v phi^2 xi)) / (v xi)),
      u = (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 4 v))^2 / 4,
      beta = alpha phi / (sqrt(u) + v alpha phi).
    * ``form="variance"``: Dredze, Crammer, Pereira, "Confidence-weighted linear
      classification", ICML 2008, Algorithm 1 (the variance version), constraint
      m >= phi v: alpha = max(0, (-(1 + 2 phi m) + sqrt((1 + 2 phi m)^2 - 8 phi (m - phi v)))
      / (4 phi v)) and Sigma^-1 <- Sigma^-1 + 2 alpha phi x x'.

    ``diagonal=True``: the papers' diagonal approximation, Sigma_rr^-1 += c x_r^2 with the
    c of the full update (alpha phi / sqrt(u), or 2 alpha phi), O(nnz) per step. An update is
    counted whenever the constraint fails (LIBOL's count). Defaults: LIBOL's (eta = 0.7,
    a = 1; its code, init_options.m).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.5, 1.0], [-1.0, 0.5]]); y = np.array([1, -1, 1])
    >>> run(CW(), X, y).state["w"].round(6).tolist()
    [-0.499705, -0.163269]
    """

    display_params = ("eta",)
    # measured: at the defaults the diagonal form leaves float64 after 672 rows of
    # german.numer, 4729 of a9a (the ZeroDivisionError of before); with eta = 0.55 neither does
    numeric_hint = ("CW's variances shrink on every round that violates its constraint, the "
                    "faster the larger eta, and on a long noisy stream they leave float64: an "
                    "eta nearer 0.5, or SCW / SCW-II (whose steps are capped), last longer")
    constraints = {"eta": Interval(0.5, 1, low_open=True, high_open=True),
                   "a": Interval(0, inf, low_open=True), "form": OneOf("stdev", "variance"),
                   "diagonal": OneOf(False, True)}

    def __init__(self, *, eta: float = 0.7, a: float = 1.0, form: str = "stdev",
                 diagonal: bool = False):
        self.eta = eta
        self.a = a
        self.form = form
        self.diagonal = diagonal

    def rule(self):
        return rule.RULES[bool(self.diagonal)]

    def rule_params(self):
        return rule.Params(probit(self.eta), inf, self.form == "variance", False, False)
