"""Truncated gradient, Langford, Li and Zhang's sparse online learner."""

from math import inf

from olbench.component import Interval, OneOf
from olbench.learners.families import LazyLearner
from olbench.rules import truncated_gradient as rule
from olbench.rules.ogd import LOSS_CODES


class TruncatedGradient(LazyLearner, key="truncated_gradient"):
    """Truncated gradient: J. Langford, L. Li, T. Zhang, "Sparse online learning via
    truncated gradient", JMLR 10 (2009), Sec. 3.3; and the simple coefficient rounding of
    Sec. 3.1 it is compared with (``truncation="rounding"``).

    A gradient step w - eta_t l'(p_t) x_t, then every ``period`` rounds (the paper's K) each
    weight with |w_j| <= ``theta`` moves towards 0 by eta_t K ``gravity`` (the paper's g),
    stopping at 0; weights beyond theta are left alone (theta = None, the default: no
    threshold, every weight takes an L1 step of eta_t K g every K rounds). Rounding sets the
    weights with |w_j| <= theta to 0 every K rounds instead. eta_t = eta
    (``schedule="constant"``, the paper's) or eta/sqrt(t). Applied lazily: a round costs
    O(non-zeros) (:mod:`olbench.rules.truncated_gradient`).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]); y = np.array([1, -1, -1])
    >>> run(TruncatedGradient(eta=0.5, gravity=0.2), X, y).state["w"].tolist()
    [0.2, -0.8]
    """

    summary = ("truncated gradient: a gradient step, then every K rounds weights within θ "
               "pulled to 0 by ηKg (or rounded to 0)")
    source = "Langford et al. 2009"

    display_params = ("gravity",)
    constraints = {"loss": OneOf(*LOSS_CODES), "eta": Interval(0, inf, low_open=True),
                   "schedule": OneOf("constant", "sqrt"), "gravity": Interval(0, inf),
                   "theta": Interval(0, inf, none_ok=True),
                   "period": Interval(1, inf, integer=True),
                   "truncation": OneOf("gravity", "rounding")}
    lazy_rules = rule

    def __init__(self, *, loss: str = "hinge", eta: float = 0.1, schedule: str = "constant",
                 gravity: float = 0.01, theta: float | None = None, period: int = 1,
                 truncation: str = "gravity"):
        self.loss = loss
        self.eta = eta
        self.schedule = schedule
        self.gravity = gravity
        self.theta = theta
        self.period = period
        self.truncation = truncation

    @property
    def moves_on_zero_rows(self):
        return self.truncation == "rounding" or self.gravity > 0.0

    def rule_params(self):
        theta = inf if self.theta is None else float(self.theta)
        return rule.Params(LOSS_CODES[self.loss], float(self.eta), self.schedule == "sqrt",
                           float(self.gravity), theta, float(self.period),
                           self.truncation == "rounding")
