"""Diagonal AdaGrad, with an optional L1 term."""

from math import inf

import numpy as np

from olbench.bounds import ADAGRAD_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import LazyLearner
from olbench.rules import adagrad as rule
from olbench.rules.ogd import LOSS_CODES


class AdaGrad(LazyLearner, key="adagrad"):
    """Diagonal AdaGrad: J. Duchi, E. Hazan, Y. Singer, "Adaptive subgradient methods for
    online learning and stochastic optimization", JMLR 12 (2011), the diagonal updates with
    an L1 term of Sec. 5.1 (l1 = 0: plain diagonal AdaGrad), in its two forms
    (``composite``):

    * ``"mirror_descent"`` (composite mirror descent): w_j <- sgn(v) max(0, |v| - eta l1 / H_jj),
      v = w_j - eta g_j / H_jj;
    * ``"dual_averaging"`` (the primal-dual form): w_j = -sgn(gbar_j) (eta t / H_jj)
      max(0, |gbar_j| - l1), gbar the average gradient;

    with H_jj = delta + sqrt(sum of g_j^2 so far): each coordinate's step eta / H_jj shrinks
    as its gradients accumulate. Applied lazily: a round costs O(non-zeros)
    (:mod:`olbench.rules.adagrad`). Dual averaging starts at w_1 = 0 (a given w0 is refused).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([1, -1])
    >>> run(AdaGrad(eta=1.0, delta=0.0), X, y).state["w"].tolist()   # eta g / |g| each
    [1.0, -1.0]
    """

    summary = ("diagonal AdaGrad: per-coordinate steps η/(δ + √Σg²), optional L1 (composite "
               "mirror descent or dual averaging)")
    source = "Duchi, Hazan & Singer 2011"

    display_params = ("l1",)
    constraints = {"loss": OneOf(*LOSS_CODES), "eta": Interval(0, inf, low_open=True),
                   "delta": Interval(0, inf), "l1": Interval(0, inf),
                   "composite": OneOf(*rule.RULES)}
    lazy_rules = rule
    bounds = (ADAGRAD_REGRET.where(composite="mirror_descent"),)

    def __init__(self, *, loss: str = "hinge", eta: float = 0.1, delta: float = 1.0,
                 l1: float = 0.0, composite: str = "mirror_descent"):
        self.loss = loss
        self.eta = eta
        self.delta = delta
        self.l1 = l1
        self.composite = composite

    @property
    def coordinate_rows(self):
        return 3 if self.composite == "mirror_descent" else 2

    @property
    def anchor_row(self):
        return 1 if self.composite == "mirror_descent" else None

    @property
    def moves_on_zero_rows(self):
        return self.l1 > 0.0

    def _lazy(self):
        return rule.RULES[self.composite]

    def reset(self, d: int):
        super().reset(d)
        self.state_.s[1] = float(np.abs(self.state_.w).max(initial=0.0))  # max |w_j| set
        return self

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.eta), float(self.delta),
                           float(self.l1))
