"""Online Newton Step."""

from math import inf

import numpy as np

from olbench.bounds import ONS_REGRET
from olbench.component import Interval, OneOf
from olbench.kernels import ons as rule
from olbench.kernels.oco import LOSS_CODES
from olbench.learners.base import OCOLearner, State


def ons_gamma(alpha: float, G: float, D: float) -> float:
    """gamma = (1/2) min(1/(4 G D), alpha) (Hazan, Agarwal & Kale 2007, Theorem 2).

    >>> ons_gamma(alpha=0.25, G=2.0, D=2.0)
    0.03125
    """
    return 0.5 * min(1.0 / (4.0 * G * D), alpha)


class ONS(OCOLearner, key="ons"):
    """Online Newton Step on the ball of radius r, for alpha-exp-concave losses.

    gamma = (1/2) min(1/(4 G D), alpha), eps = 1/(gamma^2 D^2), D = 2 r the diameter, G a
    bound on the gradients; A_t = eps I + sum g g', w_{t+1} = P^{A_t}_K(w_t - A_t^{-1} g_t
    / gamma) (the projection in the A_t norm, exact: :mod:`olbench.kernels.ons`). The
    quadratic loss (1/2)||w - x_t||^2 is alpha-exp-concave with alpha = 1/G^2 for G >= r + R
    (its Hessian I dominates alpha g g'), so the defaults fit rows of norm <= 1. Source:
    E. Hazan, A. Agarwal and S. Kale, "Logarithmic regret algorithms for online convex
    optimization", Machine Learning 69 (2007), Algorithm 2 and Theorem 2
    (regret <= 5 (1/alpha + G D) d ln T for T > 4).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[0.5, 0.0], [0.5, 0.0]])
    >>> float(run(ONS(), X, np.zeros(2)).margins[0])   # w_1 = 0: (1/2) 0.5^2
    0.125
    """

    constraints = {"loss": OneOf(*LOSS_CODES), "radius": Interval(0, inf, low_open=True),
                   "alpha": Interval(0, inf, low_open=True),
                   "G": Interval(0, inf, low_open=True)}
    bounds = (ONS_REGRET.where(loss="quadratic"),)
    display_params = ("alpha",)
    domain = "ball"

    def __init__(self, *, loss: str = "quadratic", radius: float = 1.0, alpha: float = 0.25,
                 G: float = 2.0):
        self.loss = loss
        self.radius = radius
        self.alpha = alpha
        self.G = G

    @property
    def moves_with_time(self):
        return self.loss == "quadratic"          # a zero row still has gradient w_t

    @property
    def gamma(self) -> float:
        return ons_gamma(float(self.alpha), float(self.G), 2.0 * float(self.radius))

    def init_state(self, d):
        eps = 1.0 / (self.gamma * 2.0 * float(self.radius)) ** 2
        A = np.vstack([eps * np.eye(d), np.eye(d) / eps, np.zeros((1, d))])
        return State(np.zeros(d), A, np.zeros(1))

    def export_state(self):
        state = super().export_state()
        state["A"] = self.state_.A[:self.n_features_].copy()      # A_t
        return state

    def kernel(self):
        return rule.KERNEL

    def kernel_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.radius), self.gamma)
