"""The Perceptron."""

from math import inf

from olbench.bounds import FREUND_SCHAPIRE, NOVIKOFF
from olbench.component import Interval, OneOf
from olbench.learners.base import Learner
from olbench.learners.state import vector_state
from olbench.learners.traits import TIE_SPELLING
from olbench.rules import perceptron as rule


class Perceptron(Learner, key="perceptron"):
    """Rosenblatt's Perceptron: on a mistake, w <- w + eta y x; w0 = 0.

    Source: F. Rosenblatt, "The perceptron", Psychological Review 65(6), 1958; mistake bound
    (R/gamma)^2 by A. Novikoff, 1962 (which needs w0 = 0 and an update whenever y w.x <= 0).
    eta rescales w and so never changes the predictions from w0 = 0.

    ``libol=True`` behaves as LIBOL's ``Perceptron.m``, which differs in one way: its tie
    rule, sign(0) = +1, so it updates (and counts a mistake) only on a wrong label, not on
    y w.x = 0 with y = +1. (Old spelling, until 0.3: ``tie="libol"``.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.0, 2.0]]); y = np.array([1, -1, 1])
    >>> run(Perceptron(), X, y).n_mistakes
    1
    """

    constraints = {"eta": Interval(0, inf, low_open=True), "libol": OneOf(False, True)}
    bounds = (NOVIKOFF, FREUND_SCHAPIRE)
    scale_param = "eta"  # w_t = eta * (w_t at eta = 1): same mistakes, hinge loss not
    libol_tie = True
    renamed_params = (TIE_SPELLING,)
    summary = "w += η y x on a mistake"
    source = "Rosenblatt 1958; Novikoff 1962"

    def __init__(self, *, eta: float = 1.0, libol: bool = False):
        self.eta = eta
        self.libol = libol

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(float(self.eta), bool(self.libol))

    def init_state(self, d):
        return vector_state(d)
