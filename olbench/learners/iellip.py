"""The improved ellipsoid method (IELLIP)."""

from math import inf

from olbench.component import Interval, OneOf
from olbench.learners.families import CovarianceLearner
from olbench.learners.traits import TIE_SPELLING
from olbench.renamed import Renamed
from olbench.rules import iellip as rule


class IELLIP(CovarianceLearner, key="iellip"):
    """Improved ellipsoid method (Yang, Jin, Ye, "Online learning by ellipsoid method", ICML
    2009), transcribed from LIBOL's IELLIP.m (the paper's text was not at hand to compare).

    On a mistake, with m = y w.x, v = x' Sigma x and g = y x / sqrt(v):
    w <- w + (1 - m) / sqrt(v) Sigma g (after it, y w.x = 1) and
    Sigma <- (Sigma - c_t Sigma g g' Sigma) / (1 - c_t), from w = 0, Sigma = a I; the cut
    depth decays on every round, c_t = c decay^(t-1) (LIBOL's b). A zero row (v = 0) is a
    mistake without a step. Defaults: LIBOL's (a = 1, decay = 0.3, c = 0.1;
    init_options.m).

    ``libol=True`` behaves as LIBOL's ``IELLIP.m``, which differs in one way: its tie rule,
    sign(0) = +1 is a prediction, so y w.x = 0 with y = +1 is no mistake (and no step).
    (Old spellings, until 0.3: ``tie="libol"``; ``b`` for ``decay``.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1, 1])
    >>> run(IELLIP(), X, y).state["w"].tolist()
    [1.0, 1.0]
    """

    constraints = {"a": Interval(0, inf, low_open=True), "decay": Interval(0, 1),
                   "c": Interval(0, 1, high_open=True), "libol": OneOf(False, True)}
    libol_tie = True
    renamed_params = (TIE_SPELLING, Renamed("decay", ("b",)))
    summary = "improved ellipsoid method (as LIBOL's IELLIP.m)"
    source = "Yang, Jin, Ye, ICML 2009"

    def __init__(self, *, a: float = 1.0, decay: float = 0.3, c: float = 0.1,
                 libol: bool = False):
        self.a = a
        self.decay = decay
        self.c = c
        self.libol = libol

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(float(self.decay), bool(self.libol))

    def init_state(self, d):
        state = super().init_state(d)
        state.s[0] = float(self.c)   # c_t, the current cut depth
        return state
