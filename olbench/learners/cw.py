"""Confidence-weighted learning (CW), in its two published forms."""

from math import inf
from statistics import NormalDist

from olbench.component import Interval, OneOf
from olbench.learners.families import CovarianceLearner
from olbench.renamed import Renamed
from olbench.rules import cw as rule

#: CW's, SCW's and SCW-II's confidence level was spelled ``eta``, as the papers write it; eta
#: is every other learner's step size
CONFIDENCE_SPELLING = Renamed("confidence", ("eta",))


def probit(confidence: float) -> float:
    """phi = Phi^-1(confidence), from the confidence level of CW and SCW (the papers' eta;
    LIBOL: ``norminv(eta)``).

    >>> round(probit(0.7), 6)
    0.524401
    """
    return NormalDist().inv_cdf(float(confidence))


class CW(CovarianceLearner, key="cw"):
    """Confidence-weighted learning: a Gaussian N(mu, Sigma) over weight vectors, updated so
    that a weight vector drawn from it classifies the example correctly with probability
    ``confidence`` (the papers' eta; the old spelling ``eta`` is accepted until 0.3).

    With m = y mu.x, v = x' Sigma x and phi = Phi^-1(confidence), when the constraint fails:
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
    counted whenever the constraint fails (LIBOL's count). Defaults: LIBOL's
    (confidence = 0.7, a = 1; its code, init_options.m).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.5, 1.0], [-1.0, 0.5]]); y = np.array([1, -1, 1])
    >>> run(CW(), X, y).state["w"].round(6).tolist()
    [-0.499705, -0.163269]
    """

    display_params = ("confidence",)
    # measured: at the defaults the diagonal form leaves float64 after 672 rows of
    # german.numer, 4729 of a9a (the ZeroDivisionError of before); with confidence = 0.55
    # neither does
    numeric_hint = ("CW's variances shrink on every round that violates its constraint, the "
                    "faster the larger its confidence, and on a long noisy stream they leave "
                    "float64: a confidence nearer 0.5, or SCW / SCW-II (whose steps are "
                    "capped), last longer")
    constraints = {"confidence": Interval(0.5, 1, low_open=True, high_open=True),
                   "a": Interval(0, inf, low_open=True), "form": OneOf("stdev", "variance"),
                   "diagonal": OneOf(False, True)}
    renamed_params = (CONFIDENCE_SPELLING,)
    summary = ("confidence-weighted, stdev form (exact convex CW) or variance form; full or "
               "diagonal")
    source = ("Crammer, Dredze, Pereira, NIPS 2008; Dredze, Crammer, Pereira, ICML 2008")

    def __init__(self, *, confidence: float = 0.7, a: float = 1.0, form: str = "stdev",
                 diagonal: bool = False):
        self.confidence = confidence
        self.a = a
        self.form = form
        self.diagonal = diagonal

    def rule(self):
        return rule.RULES[bool(self.diagonal)]

    def rule_params(self):
        return rule.Params(probit(self.confidence), inf, self.form == "variance", False,
                           False)
