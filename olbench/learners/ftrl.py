"""Follow the Regularised Leader (quadratic or entropic regulariser)."""

from math import inf

from olbench.bounds import FTRL_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import OCOLearner
from olbench.rules import ftrl as rule
from olbench.rules.oco import LOSS_CODES
from olbench.rules.sets import SET_CODES


class FTRL(OCOLearner, key="ftrl"):
    """Follow the Regularised Leader on linearised losses, fixed or adaptive rate.

    w_{t+1} = argmin_{w in K} <G_t, w> + psi(w)/a_{t+1}, G_t the sum of the gradients at the
    points played, a_t = eta (``schedule="constant"``) or eta/sqrt(t) (``"sqrt"``).
    ``regularizer="quadratic"``: psi = (1/2)||w||^2, so w_{t+1} = P_K(-a_{t+1} G_t) (lazy
    projection / dual averaging); ``"entropic"``: psi = sum_i w_i ln w_i on the simplex, so
    w_{t+1} is proportional to exp(-a_{t+1} G_t) (``domain`` must be ``"simplex"``).
    Source: F. Orabona, "A Modern Introduction to Online Learning" (2019), Sec. 7.1-7.3
    (regret: Corollary 7.9); S. Shalev-Shwartz (2012), Sec. 2.3 and 2.5.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[0.5], [-1.0], [1.0], [-1.0]])
    >>> run(FTRL(domain="box", eta=0.5), X, np.zeros(4)).margins.tolist()
    [0.0, 0.25, 0.25, 0.25]
    """

    summary = ("OCO: FTRL on linearised losses, quadratic (lazy projection) or entropic "
               "regulariser, η or η/√t")
    source = "Orabona 2019, Sec. 7; Shalev-Shwartz 2012"

    constraints = {"loss": OneOf(*LOSS_CODES), "domain": OneOf(*SET_CODES),
                   "radius": Interval(0, inf, low_open=True),
                   "eta": Interval(0, inf, low_open=True), "schedule": OneOf("constant", "sqrt"),
                   "regularizer": OneOf("quadratic", "entropic")}
    bounds = (FTRL_REGRET.where(loss="linear"),)
    display_params = ("eta",)

    def __init__(self, *, loss: str = "linear", domain: str = "ball", radius: float = 1.0,
                 eta: float = 1.0, schedule: str = "constant", regularizer: str = "quadratic"):
        self.loss = loss
        self.domain = domain
        self.radius = radius
        self.eta = eta
        self.schedule = schedule
        self.regularizer = regularizer

    def validate(self):
        super().validate()
        if self.regularizer == "entropic" and self.domain != "simplex":
            from olbench.component import InvalidParameterError

            raise InvalidParameterError(f"FTRL: invalid domain={self.domain!r} with "
                                        f"regularizer='entropic'; the entropic regulariser "
                                        f"lives on domain='simplex'")

    @property
    def moves_on_zero_rows(self):
        # an anytime rate moves w with t; a zero row's quadratic loss has gradient w_t
        return self.schedule == "sqrt" or self.loss == "quadratic"

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], SET_CODES[self.domain], float(self.radius),
                           float(self.eta), self.schedule == "sqrt",
                           self.regularizer == "entropic")
