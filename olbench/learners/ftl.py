"""Follow the Leader."""

from math import inf

from olbench.bounds import FTL_LINEAR, FTL_QUADRATIC
from olbench.component import Interval, OneOf
from olbench.learners.families import OCOLearner
from olbench.rules import ftl as rule
from olbench.rules.oco import LOSS_CODES
from olbench.rules.sets import SET_CODES


class FTL(OCOLearner, key="ftl"):
    """Follow the Leader: w_{t+1} = argmin_{w in K} sum_{s<=t} f_s(w), in closed form.

    Linear losses: a vertex of the simplex (uniform over tied leaders), -D S/||S|| on the
    ball, -D sign(S) on the box (S = sum of the rows); quadratic losses (1/2)||w - x_s||^2:
    the projection of the mean of the rows. Source: Shalev-Shwartz (2012), "Online Learning
    and Online Convex Optimization", Sec. 2.2 (FTL; Example 2.2, the alternating losses on
    [-1, 1] that give it linear regret); Hazan (2016), Sec. 5.1. For quadratic losses FTL's
    regret is logarithmic (Shalev-Shwartz 2012, Example 2.1 and Lemma 2.1; olbench.bounds.oco).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[0.5], [-1.0], [1.0], [-1.0]])          # the alternating sequence
    >>> run(FTL(domain="box"), X, np.zeros(4)).margins.tolist()  # loss 0, then 1 every round
    [0.0, 1.0, 1.0, 1.0]
    """

    summary = ("OCO: Follow the Leader, closed forms for linear and quadratic losses on the ball,"
               " simplex, box, l1 ball")
    source = "Shalev-Shwartz 2012, Sec. 2.2"

    constraints = {"loss": OneOf(*LOSS_CODES), "domain": OneOf(*SET_CODES),
                   "radius": Interval(0, inf, low_open=True)}
    bounds = (FTL_QUADRATIC.where(loss="quadratic"), FTL_LINEAR.where(loss="linear"))

    def __init__(self, *, loss: str = "linear", domain: str = "ball", radius: float = 1.0):
        self.loss = loss
        self.domain = domain
        self.radius = radius

    @property
    def moves_on_zero_rows(self):
        return self.loss == "quadratic"        # the mean S/t moves with t

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], SET_CODES[self.domain], float(self.radius))
