"""FTRL-Proximal, McMahan et al.'s per-coordinate sparse learner."""

from math import copysign, inf

import numpy as np

from olbench.component import Interval, OneOf
from olbench.learners.families import LossDescender
from olbench.learners.state import State
from olbench.rules import ftrl_proximal as rule
from olbench.rules.ogd import LOSS_CODES


class FTRLProximal(LossDescender, key="ftrl_proximal"):
    """FTRL-Proximal with per-coordinate learning rates and L1 + L2 regularisation:
    H. B. McMahan, G. Holt, D. Sculley et al., "Ad click prediction: a view from the
    trenches", KDD 2013, Algorithm 1 (the paper's alpha, beta, lambda_1, lambda_2 are
    ``eta``, ``delta``, ``l1``, ``l2``).

    On round t, with g = l'(p_t) x_t the gradient of the loss descended (logistic in the
    paper; hinge and squared too), for each coordinate i of x_t's non-zeros:
    sigma_i = (sqrt(n_i + g_i^2) - sqrt(n_i)) / eta; z_i += g_i - sigma_i w_i;
    n_i += g_i^2; w_i = 0 if |z_i| <= l1, else
    -(z_i - sgn(z_i) l1) / ((delta + sqrt(n_i)) / eta + l2). The per-coordinate step is
    eta / (delta + sqrt(n_i)), AdaGrad's; ``l1`` sets w_i to exactly 0 while |z_i| <= l1,
    which is what makes w sparse. A round costs O(non-zeros): only those coordinates change,
    and w is their closed form at every round (:mod:`olbench.rules.ftrl_proximal`).
    Defaults: river's ``FTRLProximal`` optimiser's (eta = 0.05, delta = 1, l1 = 0, l2 = 1).
    A given initial vector w0 (``init``) is encoded in z (n = 0), so that the closed form
    gives w0 until a coordinate is first updated.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([1, -1])
    >>> trace = run(FTRLProximal(loss="hinge", eta=1.0, l2=0.0), X, y)
    >>> trace.state["w"].tolist()   # z = (-1, 2), n = (1, 4): w = (1/2, -2/3)
    [0.5, -0.6666666666666666]
    """

    summary = ("FTRL-Proximal: per-coordinate steps η/(δ + √n_i), L1 (exact zeros) and L2, "
               "hinge/logistic/squared")
    source = "McMahan et al. 2013"

    display_params = ("l1",)
    constraints = {"loss": OneOf(*LOSS_CODES), "eta": Interval(0, inf, low_open=True),
                   "delta": Interval(0, inf), "l1": Interval(0, inf), "l2": Interval(0, inf)}

    def __init__(self, *, loss: str = "logistic", eta: float = 0.05, delta: float = 1.0,
                 l1: float = 0.0, l2: float = 1.0):
        self.loss = loss
        self.eta = eta
        self.delta = delta
        self.l1 = l1
        self.l2 = l2

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.eta), float(self.delta),
                           float(self.l1), float(self.l2))

    def init_state(self, d):
        return State(np.zeros(d), np.zeros((2, d)), np.zeros(1))   # A: z, n

    def reset(self, d: int):
        """The initial state; a non-zero w0 is written into z (n = 0): z_i = -(w0_i (delta /
        eta + l2) + sgn(w0_i) l1), whose closed form is w0_i."""
        super().reset(d)
        w, z = self.state_.w, self.state_.A[0]
        denominator = self.delta / self.eta + self.l2
        if denominator == 0.0 and w.any():
            raise ValueError("FTRLProximal: a given w0 needs delta > 0 or l2 > 0: with both 0 "
                             "the step before any gradient is infinite and no z gives w0")
        for i in np.flatnonzero(w):
            z[i] = -(w[i] * denominator + copysign(self.l1, w[i]))
        return self
