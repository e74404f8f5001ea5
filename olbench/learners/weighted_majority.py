"""Littlestone & Warmuth's weighted majority: deterministic prediction with expert advice."""

import math

from olbench.bounds import WEIGHTED_MAJORITY_MISTAKES
from olbench.component import Interval
from olbench.learners.families import OCOLearner
from olbench.rules import weighted_majority as rule


class WeightedMajority(OCOLearner, key="weighted_majority"):
    """The weighted majority algorithm WM over N experts, on their loss vectors.

    Each row x_t says which experts erred (x_{t,i} = 1) on the binary outcome of round t;
    WM predicts with the weighted majority of the experts' predictions, weights beta^{L_i}
    (L_i expert i's mistakes so far), and records 1 on a mistake (the weight of the wrong
    experts is at least half: ties count as mistakes), else 0. Its mistakes are at most
    (ln N + m ln(1/beta)) / ln(2/(1 + beta)), m the best expert's
    (:func:`olbench.bounds.weighted_majority_mistakes`). Source: N. Littlestone and M. K.
    Warmuth, "The weighted majority algorithm", Information and Computation 108(2), 1994,
    Sec. 2 (algorithm WM; the mistake bound with initial weights 1). Losses in [0, 1] are
    accepted: weights beta^{L_i} and a mistake when <w_t, x_t> >= 1/2, for which the same
    bound holds (beta^x <= 1 - (1 - beta) x on [0, 1]).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    >>> run(WeightedMajority(beta=0.5), X, np.zeros(3)).margins.tolist()
    [0.0, 1.0, 1.0]
    """

    summary = ("experts: the deterministic weighted majority, weights β^(mistakes), a mistake "
               "when the wrong experts hold ≥ half the weight")
    source = "Littlestone & Warmuth 1994"

    constraints = {"beta": Interval(0, 1, low_open=True, high_open=True)}
    bounds = (WEIGHTED_MAJORITY_MISTAKES,)
    display_params = ("beta",)
    domain = "simplex"
    rows = 1
    # a row says which experts erred: beta^x and the majority vote mean nothing outside [0, 1]
    loss_range = (0.0, 1.0)
    # its output is a 0/1 mistake indicator, finite whatever the weights
    non_finite_rows_show_in_output = False

    def __init__(self, *, beta: float = 0.5):
        self.beta = beta

    def rule(self):
        return rule.RULE

    def rule_params(self):
        # -ln(beta), not ln(1/beta): 1/beta overflows to inf for beta < 5.6e-309 (beta = 5e-324
        # gave the rate inf, and inf * 0 made every weight NaN); -ln(beta) <= 744.5
        return rule.Params(-math.log(self.beta))
