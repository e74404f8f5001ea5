"""The improved ellipsoid method (IELLIP)."""

from math import inf

from olbench.component import Interval, OneOf
from olbench.learners.base import CovarianceLearner
from olbench.rules import iellip as rule


class IELLIP(CovarianceLearner, key="iellip"):
    """Improved ellipsoid method (Yang, Jin, Ye, "Online learning by ellipsoid method", ICML
    2009), transcribed from LIBOL's IELLIP.m (the paper's text was not at hand to compare).

    On a mistake, with m = y w.x, v = x' Sigma x and g = y x / sqrt(v):
    w <- w + (1 - m) / sqrt(v) Sigma g (after it, y w.x = 1) and
    Sigma <- (Sigma - c_t Sigma g g' Sigma) / (1 - c_t), from w = 0, Sigma = a I; the cut
    depth decays on every round, c_t = c b^(t-1). A zero row (v = 0) is a mistake without a
    step. ``tie="libol"`` counts sign(0) = +1 as a prediction (LIBOL's rule) instead of
    y w.x <= 0. Defaults: LIBOL's (a = 1, b = 0.3, c = 0.1; init_options.m).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1, 1])
    >>> run(IELLIP(), X, y).state["w"].tolist()
    [1.0, 1.0]
    """

    constraints = {"a": Interval(0, inf, low_open=True), "b": Interval(0, 1),
                   "c": Interval(0, 1, high_open=True), "tie": OneOf("novikoff", "libol")}

    def __init__(self, *, a: float = 1.0, b: float = 0.3, c: float = 0.1,
                 tie: str = "novikoff"):
        self.a = a
        self.b = b
        self.c = c
        self.tie = tie

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(float(self.b), self.tie == "libol")

    def init_state(self, d):
        state = super().init_state(d)
        state.s[0] = float(self.c)   # c_t, the current cut depth
        return state
