"""The Perceptron."""

from math import inf

from olbench.bounds import FREUND_SCHAPIRE, NOVIKOFF
from olbench.component import Interval, OneOf
from olbench.learners.base import Learner, vector_state
from olbench.rules import perceptron as rule


class Perceptron(Learner, key="perceptron"):
    """Rosenblatt's Perceptron: on a mistake, w <- w + eta y x; w0 = 0.

    Source: F. Rosenblatt, "The perceptron", Psychological Review 65(6), 1958; mistake bound
    (R/gamma)^2 by A. Novikoff, 1962 (which needs w0 = 0 and an update whenever y w.x <= 0:
    ``tie="novikoff"``). ``tie="libol"`` predicts sign(0) = +1 and updates only on a wrong
    label, as LIBOL does. eta rescales w and so never changes the predictions from w0 = 0.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 1.0], [-1.0, -2.0], [1.0, 2.0]]); y = np.array([1, -1, 1])
    >>> run(Perceptron(), X, y).n_mistakes
    1
    """

    constraints = {"eta": Interval(0, inf, low_open=True), "tie": OneOf("novikoff", "libol")}
    bounds = (NOVIKOFF, FREUND_SCHAPIRE)
    scale_param = "eta"  # w_t = eta * (w_t at eta = 1): same mistakes, hinge loss not

    def __init__(self, *, eta: float = 1.0, tie: str = "novikoff"):
        self.eta = eta
        self.tie = tie

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(float(self.eta), self.tie == "libol")

    def init_state(self, d):
        return vector_state(d)
