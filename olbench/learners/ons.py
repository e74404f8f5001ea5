"""Online Newton Step."""

import math
from math import inf

import numpy as np

from olbench.bounds import ONS_REGRET
from olbench.component import Interval, InvalidParameterError, OneOf
from olbench.learners.families import OCOLearner
from olbench.learners.state import State, identity_blocks
from olbench.renamed import Renamed
from olbench.resources import Footprint, features
from olbench.rules import ons as rule
from olbench.rules.oco import LOSS_CODES
from olbench.rules.sets import SET_CODES, project_numpy

#: the feasible sets ONS runs on, and their diameters D (radius r)
DIAMETER = {"ball": lambda r: 2.0 * r, "simplex": lambda r: math.sqrt(2.0)}


def ons_gamma(alpha: float, G: float, D: float) -> float:
    """gamma = (1/2) min(1/(4 G D), alpha) (Hazan, Agarwal & Kale 2007, Theorem 2).

    >>> ons_gamma(alpha=0.25, G=2.0, D=2.0)
    0.03125
    """
    return 0.5 * min(1.0 / (4.0 * G * D), alpha)


class ONS(OCOLearner, key="ons"):
    """Online Newton Step on the ball of radius r or the simplex, for alpha-exp-concave losses
    (alpha is ``exp_concavity``; the old spelling ``alpha``, ALMA's margin parameter, is
    accepted until 0.3).

    gamma = (1/2) min(1/(4 G D), alpha), eps = 1/(gamma^2 D^2), D the diameter (2 r for the
    ball, sqrt 2 for the simplex), G a bound on the gradients; A_t = eps I + sum g g',
    w_{t+1} = P^{A_t}_K(w_t - A_t^{-1} g_t / gamma) (the projection in the A_t norm, exact
    on both sets: :mod:`olbench.rules.ons`); w_1 = P_K(0). The quadratic loss
    (1/2)||w - x_t||^2 is alpha-exp-concave with alpha = 1/G^2 for G >= B + R, B the largest
    norm in K (its Hessian I dominates alpha g g'), so the defaults fit rows of norm <= 1.
    Source:
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
                   "exp_concavity": Interval(0, inf, low_open=True),
                   "G": Interval(0, inf, low_open=True), "domain": OneOf(*DIAMETER)}
    bounds = (ONS_REGRET.where(loss="quadratic"),)
    display_params = ("exp_concavity", "domain")
    renamed_params = (Renamed("exp_concavity", ("alpha",)),)
    summary = ("OCO: Online Newton Step on the ball or the simplex (projection in the A_t norm, "
               "exact: bisection on the ball, an active-set QP on the simplex)")
    source = "Hazan, Agarwal, Kale 2007"

    def __init__(self, *, loss: str = "quadratic", radius: float = 1.0,
                 exp_concavity: float = 0.25, G: float = 2.0, domain: str = "ball"):
        self.loss = loss
        self.radius = radius
        self.exp_concavity = exp_concavity
        self.G = G
        self.domain = domain

    @property
    def moves_on_zero_rows(self):
        # a zero row's quadratic loss still has gradient w_t; on the simplex a zero gradient
        # still re-projects w in the A_t norm (an active-set QP), which moves it by round-off
        return self.loss == "quadratic" or self.domain == "simplex"

    def validate(self):
        """Each parameter in its range, and together the scales the rule computes from them
        finite: gamma (1/gamma multiplies every Newton step) and eps (A_0 = eps I, and A_0^-1 =
        I / eps). exp_concavity = 1e-200, G = 1e200 or radius = 1e-300 each drive one of them
        to 0 or inf (a division by zero before any row), whatever the data."""
        super().validate()
        with np.errstate(all="ignore"):          # inf and 0 are what is checked for
            gamma = np.float64(self.gamma)
            eps = 1.0 / (gamma * self.diameter) ** 2
            scales = (gamma, 1.0 / gamma, eps, 1.0 / eps)
        if all(0.0 < q < inf for q in scales):
            return
        given = ", ".join(f"{name}={getattr(self, name)!r}" for name in
                          (("exp_concavity", "G", "radius") if self.domain == "ball"
                           else ("exp_concavity", "G")))
        raise InvalidParameterError(
            f"ONS: invalid {given}: together they give gamma = (1/2) min(1/(4 G D), "
            f"exp_concavity) = "
            f"{float(gamma):.3g} and eps = 1/(gamma D)^2 = {float(eps):.3g} (D = "
            f"{self.diameter:.3g}, the diameter of the {self.domain}); gamma, eps and their "
            f"inverses must be positive, finite float64 numbers (Hazan, Agarwal & Kale 2007, "
            f"Algorithm 2: A_0 = eps I, steps A^-1 g / gamma)")

    @property
    def diameter(self) -> float:
        # Python floats overflow to inf here rather than raise, which validate() reports
        return DIAMETER[self.domain](float(self.radius))

    @property
    def gamma(self) -> float:
        with np.errstate(all="ignore"):
            return float(ons_gamma(float(self.exp_concavity), np.float64(self.G), self.diameter))


    def init_state(self, d):
        eps = 1.0 / (self.gamma * self.diameter) ** 2
        A = identity_blocks(d, eps, 1.0 / eps, extra_rows=1)
        return State(project_numpy(np.zeros(d), self.domain, float(self.radius)), A,
                     np.zeros(1))

    def _exported_A(self):
        return self.state_.A[:self.n_features_].copy()      # A_t

    def footprint(self, n, d, nnz=None):
        # A_t, its inverse and a scratch row, the point; then the larger of the projection's
        # eigendecomposition (LAPACK's dsyevd: the eigenvectors, 2 d^2 of workspace) and the
        # exported A_t; a dozen vectors of d while a round runs
        return Footprint(8.0 * ((5 * d + 12) * d + 8),
                         "two d x d matrices (A_t and its inverse)", features(d),
                         "use ogd or ftrl (no matrix), or fewer dimensions")

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.radius), self.gamma,
                           SET_CODES[self.domain])
