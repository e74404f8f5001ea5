"""Exponentiated gradient: EG on the simplex, EG+- on the l1 ball."""

from math import inf

from olbench.bounds import EG_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import OCOLearner
from olbench.rules import eg as rule
from olbench.rules.oco import LOSS_CODES


class EG(OCOLearner, key="eg"):
    """Exponentiated gradient on the simplex: w_{t+1} proportional to w_t exp(-eta g_t).

    g_t is the gradient of f_t at w_t (``loss="linear"``: the row; ``"quadratic"``: w_t - x_t).
    Source: J. Kivinen and M. K. Warmuth, "Exponentiated gradient versus gradient descent for
    linear predictors", Information and Computation 132(1), 1997, Sec. 3 (the EG update);
    as online mirror descent with the entropic regulariser: Orabona (2019), Sec. 6.6. The
    state is the sum G_t of the gradients (the log-weights), and w_{t+1} proportional to
    exp(-eta G_t) is computed from it each round, so no weight is ever stuck at 0 and the
    iterates are those of entropic FTRL with rate eta (``FTRL(regularizer="entropic",
    domain="simplex")``, the same numbers on linear losses), whose regret is at most
    ln N/eta + (eta/2) sum ||g_t||_inf^2. Exported state: ``w`` and ``A`` = G (one row).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [1.0, 0.0]])
    >>> run(EG(eta=np.log(3)), X, np.zeros(2)).margins.tolist()
    [0.5, 0.25]
    """

    summary = "OCO: exponentiated gradient on the simplex, EG± on the l1 ball"
    source = "Kivinen & Warmuth 1997"

    constraints = {"loss": OneOf(*LOSS_CODES), "eta": Interval(0, inf, low_open=True)}
    bounds = (EG_REGRET.where(loss="linear"),)
    display_params = ("eta",)
    domain = "simplex"
    radius = 1.0
    signed = False
    rows = 2                                     # G, and the round's gradient (scratch)

    def __init__(self, *, loss: str = "linear", eta: float = 1.0):
        self.loss = loss
        self.eta = eta

    @property
    def moves_on_zero_rows(self):
        return self.loss == "quadratic"          # a zero row still has gradient w_t

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.eta), float(self.radius),
                           self.signed)


class EGPlusMinus(EG, key="egpm"):
    """EG+- on the l1 ball of radius U: w = w+ - w-, multiplicative updates of both halves.

    Source: Kivinen & Warmuth (1997), Sec. 3.4 (EG+-, with total weight U). It is EG on the
    2d-simplex of (w+, w-)/U with gradients U (g, -g), computed as such from the sum G of the
    gradients (``A``, exported): w+ and w- are U softmax(-eta U G, eta U G). So on linear
    losses its regret against every u with ||u||_1 <= U is at most
    ln(2d)/eta + (eta/2) U^2 sum ||g_t||_inf^2.

    >>> import numpy as np
    >>> from olbench import run
    >>> w = run(EGPlusMinus(U=2.0), np.array([[1.0, -1.0]]), np.zeros(1)).state["w"]
    >>> bool(np.allclose(w, [-np.tanh(2.0), np.tanh(2.0)]))   # 2 (e^-2 - e^2)/(e^2 + e^-2)
    True
    """

    constraints = {**EG.constraints, "U": Interval(0, inf, low_open=True)}
    domain = "l1"
    signed = True

    def __init__(self, *, loss: str = "linear", eta: float = 1.0, U: float = 1.0):
        super().__init__(loss=loss, eta=eta)
        self.U = U

    @property
    def radius(self):
        return self.feasible_set(self.get_params())[2]

    @classmethod
    def feasible_set(cls, params):
        loss, domain, _ = super().feasible_set(params)
        return loss, domain, params["U"] if "U" in params else cls.param_defaults()["U"]
