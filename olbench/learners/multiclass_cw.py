"""The multiclass second-order learners as LIBOL writes them: AROW, CW, SCW-I, SCW-II, one
covariance shared by the k rows of W."""

from math import inf

import numpy as np

from olbench.component import Interval, OneOf
from olbench.learners.cw import probit
from olbench.learners.families import covariance_advice
from olbench.learners.multiclass import MulticlassLearner
from olbench.learners.state import identity_blocks, square_footprint, symmetric
from olbench.resources import Footprint, features
from olbench.rules import multiclass_covariance as rule


class MulticlassCovarianceLearner(MulticlassLearner):
    """W (k x d) and one Sigma = a I at the start, full (``A[:d]``, scratch row ``A[d]``) or
    its diagonal (``A[0]``, ``diagonal=True``)."""

    kind = rule.AROW
    numeric_hint = ("Sigma must stay positive definite (x' Sigma x > 0 on every nonzero row); "
                    "a NaN here is usually Sigma having lost it to rounding")

    def init_covariance(self, d):
        if self.diagonal:
            return np.full((1, d), float(self.a))
        return identity_blocks(d, float(self.a), extra_rows=1)

    def _exported_A(self):
        if self.diagonal:
            return self.state_.A.copy()
        return symmetric(self.state_.A[:-1])

    def footprint(self, n, d, nnz=None):
        weights = super().footprint(n, d, nnz)
        if self.diagonal:
            return Footprint(weights.nbytes + 8.0 * 2 * d, weights.keeps + " and a diagonal "
                             "covariance of d numbers", weights.driver)
        return Footprint(weights.nbytes + square_footprint(d), weights.keeps + " and a d x d "
                         "covariance matrix", features(d), covariance_advice(type(self)))

    @property
    def covariance_(self) -> np.ndarray:
        A = self.state_.A
        return A[0].copy() if self.diagonal else symmetric(A[:-1])

    def rule(self):
        return rule.DIAGONAL if self.diagonal else rule.FULL

    def rule_params(self):
        return rule.Params(self.kind, float(getattr(self, "r", 1.0)),
                           probit(getattr(self, "confidence", 0.75)),
                           float(getattr(self, "C", inf)))


class MulticlassAROW(MulticlassCovarianceLearner, key="multiclass_arow"):
    """Multiclass AROW, LIBOL's form (``M_AROW.m``; Crammer, Kulesza, Dredze, NIPS 2009): on
    m = s_y - s_r < 1 (r the runner-up), with v = x' Sigma x and beta = 1/(v + r),
    W_y += (1 - m) beta Sigma x, W_r -= (1 - m) beta Sigma x, Sigma -= beta Sigma x x' Sigma.

    >>> import numpy as np
    >>> from olbench import run
    >>> run(MulticlassAROW(r=1.0), np.array([[1.0, 1.0]]), np.array([2]), classes=2
    ...     ).state["w"].tolist()
    [[-0.3333333333333333, -0.3333333333333333], [0.3333333333333333, 0.3333333333333333]]
    """

    summary = "multiclass AROW (LIBOL's form: one Σ for all classes); full or diagonal"
    source = "Crammer, Kulesza, Dredze 2009; LIBOL's M_AROW.m"
    constraints = {"r": Interval(0, inf, low_open=True), "a": Interval(0, inf, low_open=True),
                   "diagonal": OneOf(False, True)}
    display_label = "multiclass AROW"
    display_params = ("r",)
    kind = rule.AROW

    def __init__(self, *, r: float = 1.0, a: float = 1.0, diagonal: bool = False):
        self.r = r
        self.a = a
        self.diagonal = diagonal


class MulticlassCW(MulticlassCovarianceLearner, key="multiclass_cw"):
    """Multiclass confidence-weighted learning as LIBOL's ``M_CW.m`` writes it (Crammer,
    Dredze, Pereira, NIPS 2008): SCW-I's multiclass step (:class:`MulticlassSCW`) without
    its cap C, on m < phi sqrt(v), phi = Phi^-1(confidence). Uncapped, its Sigma can lose
    positive definiteness on real data (glass, confidence 0.75, within about 200 rounds): the
    run then stops with an error naming the round, never continuing on NaN."""

    summary = "multiclass CW (LIBOL's M_CW.m: SCW-I's step uncapped); full or diagonal"
    numeric_hint = ("LIBOL's multiclass CW takes SCW-I's step without its cap C, and on real "
                    "data its Sigma loses positive definiteness (x' Sigma x <= 0 on a nonzero "
                    "row: LIBOL's glass and segment); the run stops there rather than go on with "
                    "NaN. multiclass_scw (the same step, capped at C) or multiclass_arow do not")
    source = "Crammer, Dredze, Pereira 2008; LIBOL's M_CW.m"
    constraints = {"confidence": Interval(0.5, 1, low_open=True, high_open=True),
                   "a": Interval(0, inf, low_open=True), "diagonal": OneOf(False, True)}
    display_label = "multiclass CW"
    display_params = ("confidence",)
    kind = rule.CW

    def __init__(self, *, confidence: float = 0.75, a: float = 1.0, diagonal: bool = False):
        self.confidence = confidence
        self.a = a
        self.diagonal = diagonal


class MulticlassSCW(MulticlassCovarianceLearner, key="multiclass_scw"):
    """Multiclass SCW-I as LIBOL's ``M_SCW1.m`` writes it (Wang, Zhao, Hoi, ICML 2012): on
    m < phi sqrt(v), alpha = min(C, max(0, (-m psi + sqrt(m^2 psi^2 - m^2 psi +
    2 v phi^2 psi)) / (2 v psi))), u = (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 8 v))^2 / 8,
    beta = alpha phi / (sqrt(2 u) + alpha phi v); W_y += alpha Sigma x, W_r -= alpha Sigma x,
    Sigma -= beta Sigma x x' Sigma (:mod:`olbench.rules.multiclass_covariance`)."""

    display_label = "multiclass SCW-I"
    summary = "multiclass SCW-I, SCW-II (LIBOL's M_SCW1.m, M_SCW2.m); full or diagonal"
    source = "Wang, Zhao, Hoi 2012; LIBOL's M_SCW1.m, M_SCW2.m"
    constraints = {"C": Interval(0, inf, low_open=True),
                   "confidence": Interval(0.5, 1, low_open=True, high_open=True),
                   "a": Interval(0, inf, low_open=True), "diagonal": OneOf(False, True)}
    display_params = ("C", "confidence")
    kind = rule.SCW1

    def __init__(self, *, C: float = 1.0, confidence: float = 0.75, a: float = 1.0,
                 diagonal: bool = False):
        self.C = C
        self.confidence = confidence
        self.a = a
        self.diagonal = diagonal


class MulticlassSCW2(MulticlassSCW, key="multiclass_scw2"):
    """Multiclass SCW-II as LIBOL's ``M_SCW2.m`` writes it: n = 2 v + 1/(2C) and
    alpha = max(0, (-(2 m n + phi^2 m v) + sqrt(phi^4 m^2 v^2 + 8 n v phi^2 (n + v phi^2)))
    / (2 (n^2 + n v phi^2))), the rest as SCW-I."""

    display_label = "multiclass SCW-II"
    kind = rule.SCW2
