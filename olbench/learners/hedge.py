"""Hedge: exponential weights over experts."""

import math
from math import inf

from olbench.bounds import HEDGE_ANYTIME, HEDGE_DOUBLING, HEDGE_FIXED
from olbench.component import Interval, OneOf
from olbench.learners.families import OCOLearner
from olbench.rules import hedge as rule

SCHEDULES = {"fixed": rule.FIXED, "horizon": rule.FIXED, "anytime": rule.ANYTIME,
             "doubling": rule.DOUBLING}


class Hedge(OCOLearner, key="hedge"):
    """Hedge / the exponentially weighted average forecaster over N experts.

    The row x_t is the experts' loss vector (in [0, 1] for the theorems); the learner plays
    w_t proportional to exp(-eta_t L_{t-1}) (L the experts' cumulative losses) and suffers
    <w_t, x_t>. ``schedule="fixed"``: eta_t = eta; ``"horizon"``: eta = sqrt(8 ln N / T) for
    the known horizon T = ``horizon`` (Theorem 2.2: regret sqrt((T/2) ln N) at T);
    ``"anytime"``: eta_t = sqrt(8 ln N / t) (Theorem 2.3); ``"doubling"``:
    restarts on rounds 2^m with eta = sqrt(8 ln N / 2^m) (Sec. 2.3). Sources: Y. Freund and
    R. Schapire, "A decision-theoretic generalization of on-line learning and an application
    to boosting", JCSS 55 (1997), Sec. 2; N. Cesa-Bianchi and G. Lugosi, "Prediction,
    Learning, and Games" (2006), Theorems 2.2, 2.3 and Sec. 2.3.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> run(Hedge(schedule="fixed", eta=np.log(3)), X, np.zeros(2)).margins.tolist()
    [0.5, 0.25]
    """

    summary = ("experts: exponential weights, fixed η, known horizon, anytime √(8 ln N / t), "
               "doubling trick")
    source = "Freund & Schapire 1997; Cesa-Bianchi & Lugosi 2006"

    constraints = {"eta": Interval(0, inf, low_open=True), "schedule": OneOf(*SCHEDULES),
                   "horizon": Interval(1, inf, integer=True)}
    bounds = (HEDGE_FIXED.where(schedule="fixed"), HEDGE_FIXED.where(schedule="horizon"),
              HEDGE_ANYTIME.where(schedule="anytime"),
              HEDGE_DOUBLING.where(schedule="doubling"))
    display_params = ("schedule",)
    domain = "simplex"
    rows = 1
    # its rates sqrt(8 ln N / t) and every theorem above are for losses in [0, 1]
    loss_range = (0.0, 1.0)

    def __init__(self, *, eta: float = 1.0, schedule: str = "anytime", horizon: int = 1000):
        self.eta = eta
        self.schedule = schedule
        self.horizon = horizon

    def rate(self, N: int) -> float:
        """The fixed eta of schedules "fixed" and "horizon" (sqrt(8 ln N / horizon))."""
        if self.schedule == "horizon":
            return math.sqrt(8 * math.log(N) / self.horizon)
        return float(self.eta)

    @property
    def moves_on_zero_rows(self):
        return self.schedule != "fixed"

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(self.rate(self.n_features_), SCHEDULES[self.schedule])
