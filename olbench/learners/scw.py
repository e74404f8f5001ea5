"""Soft confidence-weighted learning: SCW-I and SCW-II."""

from math import inf

from olbench.component import Interval, OneOf, reciprocal_range
from olbench.learners.cw import CONFIDENCE_SPELLING, probit
from olbench.learners.families import CovarianceLearner
from olbench.rules import cw as rule


class SCW(CovarianceLearner, key="scw"):
    """SCW-I (Wang, Zhao, Hoi, "Exact soft confidence-weighted learning", ICML 2012).

    CW's stdev-form step (see :class:`~olbench.learners.cw.CW`) on the loss
    max(0, phi sqrt(v) - m), with m = y mu.x, v = x' Sigma x, phi = Phi^-1(confidence) (the
    paper's eta; the old spelling ``eta`` is accepted until 0.3), and the
    step size capped at C (SCW-I, the paper's eq. for alpha_t with min(C, .)):
    alpha = min(C, max(0, (-m psi + sqrt(m^2 phi^4/4 + v phi^2 xi)) / (v xi))),
    u = (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 4 v))^2 / 4,
    beta = alpha phi / (sqrt(u) + v alpha phi); mu <- mu + alpha y Sigma x,
    Sigma <- Sigma - beta Sigma x x' Sigma, from mu = 0, Sigma = a I. With C = inf it is CW.

    ``diagonal=True`` uses CW's diagonal approximation (Sigma_rr^-1 += alpha phi x_r^2 /
    sqrt(u)); the SCW paper itself states the full form only. Defaults: LIBOL's (C = 1,
    confidence = 0.75, a = 1; init_options.m).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.5, 1.0], [-1.0, 0.5]]); y = np.array([1, -1, 1])
    >>> run(SCW(C=0.1), X, y).margins.round(6).tolist()   # alpha_1 = C: w_2 = (0.1, 0)
    [0.0, 0.05, -0.103261]
    """

    display_label = "SCW-I"
    display_params = ("C", "confidence")
    constraints = {"C": Interval(0, inf, low_open=True),
                   "confidence": Interval(0.5, 1, low_open=True, high_open=True),
                   "a": Interval(0, inf, low_open=True), "diagonal": OneOf(False, True)}
    renamed_params = (CONFIDENCE_SPELLING,)
    summary = ("soft confidence-weighted SCW-I, SCW-II (`libol=True`: LIBOL's SCW2.m); full or "
               "diagonal")
    source = "Wang, Zhao, Hoi, ICML 2012"

    def __init__(self, *, C: float = 1.0, confidence: float = 0.75, a: float = 1.0,
                 diagonal: bool = False):
        self.C = C
        self.confidence = confidence
        self.a = a
        self.diagonal = diagonal

    def rule(self):
        return rule.RULES[bool(self.diagonal)]

    def rule_params(self):
        return rule.Params(probit(self.confidence), float(self.C), False, False, False)


class SCW2(SCW, key="scw2"):
    """SCW-II (Wang, Zhao, Hoi, ICML 2012): the squared soft loss, with n = v + 1/(2C) and
    gamma = phi sqrt(phi^2 m^2 v^2 + 4 n v (n + v phi^2)):
    alpha = max(0, (-(2 m n + phi^2 m v) + gamma) / (2 (n^2 + n v phi^2))); u, beta and the
    step as SCW-I. Defaults: LIBOL's (C = 1, confidence = 0.9, a = 1).

    ``libol=True`` behaves as LIBOL's SCW2.m (and its C version), which differs in one way:
    its gamma reads sqrt(phi^4 m^2 v * 2 + 4 n v phi^2 (n + v phi * 2)), two ``^2`` typed as
    ``*2``, so it differs from the paper whenever v != 2 or phi != 2 (tests/naive/
    transcribes both). Its mistakes are counted as y mu.x <= 0 (LIBOL's sign(0) = +1 differs
    only on a round with mu.x = 0, and the steps do not depend on it).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.5, 1.0], [-1.0, 0.5]]); y = np.array([1, -1, 1])
    >>> run(SCW2(), X, y).state["w"].round(6).tolist()
    [-0.167668, -0.295379]
    >>> run(SCW2(libol=True), X, y).state["w"].round(6).tolist()
    [-0.165903, -0.341462]
    """

    display_label = "SCW-II"
    constraints = {**SCW.constraints, "libol": OneOf(False, True),
                   "C": reciprocal_range("n = v + 1/(2C) must be a finite float64")}

    def __init__(self, *, C: float = 1.0, confidence: float = 0.9, a: float = 1.0,
                 diagonal: bool = False, libol: bool = False):
        super().__init__(C=C, confidence=confidence, a=a, diagonal=diagonal)
        self.libol = libol

    def rule_params(self):
        return rule.Params(probit(self.confidence), float(self.C), False, True,
                           bool(self.libol))
