"""Online gradient descent."""

from math import inf

from olbench.bounds import OGD_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import LossDescender
from olbench.learners.state import vector_state
from olbench.rules import ogd as rule


class OGD(LossDescender, key="ogd"):
    """Online (sub)gradient descent on a per-example loss, optionally projected.

    w_{t+1} = Proj(w_t - eta_t l'(p_t, y_t) x_t), eta_t = eta (``schedule="constant"``) or
    eta/sqrt(t) (``"sqrt"``), Proj onto the L2 ball of radius ``radius`` (None: no
    projection). Source: M. Zinkevich, "Online convex programming and generalized
    infinitesimal gradient ascent", ICML 2003, Sec. 2 (greedy projection, Thm. 1).
    ``loss="squared"`` (1/2 (p - y)^2) makes it a regressor; hinge and logistic classify;
    ``"linear"`` and ``"quadratic"`` make it an online-convex-optimisation learner on the
    ball (the row is the loss: :mod:`olbench.rules.oco`; it records f_t(w_t)).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1, -1])
    >>> run(OGD(loss="hinge", eta=0.5, schedule="constant"), X, y).state["w"].tolist()
    [0.5, -0.5]
    """

    summary = ("projected online (sub)gradient descent, hinge/logistic/squared (OCO: "
               "linear/quadratic), η or η/√t")
    source = "Zinkevich 2003"

    display_params = ("eta",)
    constraints = {"loss": OneOf(*rule.RULES), "eta": Interval(0, inf, low_open=True),
                   "schedule": OneOf("constant", "sqrt"),
                   "radius": Interval(0, inf, low_open=True, none_ok=True)}
    bounds = (OGD_REGRET,)

    def __init__(self, *, loss: str = "hinge", eta: float = 1.0, schedule: str = "sqrt",
                 radius: float | None = None):
        self.loss = loss
        self.eta = eta
        self.schedule = schedule
        self.radius = radius

    #: the task each loss makes OGD do (olbench.learning_task)
    LOSS_TASKS = {**LossDescender.LOSS_TASKS, "linear": "oco", "quadratic": "oco"}

    @property
    def moves_on_zero_rows(self):
        return self.loss == "quadratic"           # a zero row still pulls w towards 0

    def rule(self):
        return rule.RULES[self.loss]

    def rule_params(self):
        radius = inf if self.radius is None else float(self.radius)
        return rule.Params(float(self.eta), self.schedule == "sqrt", radius)

    def init_state(self, d):
        return vector_state(d)
