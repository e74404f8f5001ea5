"""Pegasos, Shalev-Shwartz, Singer and Srebro's SVM solver, run online."""

from math import inf

import numpy as np

from olbench.bounds import PEGASOS_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import LazyLearner
from olbench.learners.state import State
from olbench.rules import pegasos as rule
from olbench.rules.ogd import LOSS_CODES


class Pegasos(LazyLearner, key="pegasos"):
    """Pegasos with one example per step (k = 1): S. Shalev-Shwartz, Y. Singer, N. Srebro,
    "Pegasos: primal estimated sub-gradient solver for SVM", ICML 2007, Fig. 1.

    A step on (l2/2)||w||^2 + l(w.x_t, y_t) with eta_t = 1/(l2 t):
    w <- (1 - 1/t) w - eta_t l'(p_t) x_t (hinge, the paper's; logistic and squared too), then,
    with ``project`` (the paper's optional step), w is scaled back onto the ball of radius
    1/sqrt(l2), where the SVM's optimum lies. The shrink at t = 1 is by 0: w_2 does not
    depend on w_1 (a given w0 makes the first prediction only). w is kept as a scale times a
    vector, so the shrink and projection cost O(1) and a round O(non-zeros)
    (:mod:`olbench.rules.pegasos`).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([1, -1])
    >>> run(Pegasos(l2=1.0, project=False), X, y).state["w"].tolist()   # (1, 0) / 2 - (0, 1)
    [0.5, -1.0]
    """

    summary = ("Pegasos: steps 1/(λt) on (λ/2)‖w‖² + the loss, optional projection onto the "
               "ball of radius 1/√λ")
    source = "Shalev-Shwartz et al. 2007"

    display_params = ("l2",)
    constraints = {"loss": OneOf(*LOSS_CODES), "l2": Interval(0, inf, low_open=True),
                   "project": OneOf(True, False)}
    lazy_rules = rule
    bounds = (PEGASOS_REGRET.where(project=True),)
    coordinate_rows = 1
    moves_on_zero_rows = True        # every round shrinks w by 1 - 1/t

    def __init__(self, *, loss: str = "hinge", l2: float = 0.01, project: bool = True):
        self.loss = loss
        self.l2 = l2
        self.project = project

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.l2), bool(self.project))

    def init_state(self, d):
        # t, the scale a = 1, ||v||^2, whether v may hold a given w0
        return State(np.zeros(d), np.zeros((1, d)), np.array([0.0, 1.0, 0.0, 0.0]))

    def reset(self, d: int):
        super().reset(d)
        w0 = self.state_.w
        self.state_.s[2:4] = float(w0 @ w0), float(w0.any())     # ||v||^2, v holds w0
        return self
