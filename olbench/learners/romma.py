"""ROMMA and aggressive ROMMA."""

from olbench.bounds import ROMMA_SEPARABLE
from olbench.component import OneOf
from olbench.learners.base import Learner, vector_state
from olbench.rules import romma as rule


class ROMMA(Learner, key="romma"):
    """Relaxed Online Maximum Margin Algorithm (Li & Long, "The relaxed online maximum margin
    algorithm", Machine Learning 46:361-387, 2002; NIPS 1999).

    On a mistake, w_{t+1} is the shortest w with w.w_t >= ||w_t||^2 and y_t w.x_t >= 1. With
    W = ||w_t||^2, X = ||x_t||^2, p = w_t.x_t and D = W X - p^2 this is (solving the two
    constraints as equalities; the closed form of Li & Long's update, as in LIBOL)
    w_{t+1} = y x / X when w_t = 0, else w_{t+1} = c w_t + d x with c = (W X - y p) / D and
    d = W (y - p) / D. w_1 = 0. No step when D = 0 (x parallel to w: the constraints cannot
    both hold) or x = 0. Mistake bound (R/gamma)^2 on separable data:
    :func:`olbench.bounds.romma.romma_separable`.

    Paper against LIBOL (``ROMMA.m``, ``ROMMA_c.cpp``): LIBOL's first step is w = y x instead
    of the shortest vector y x / ||x||^2; the later steps use the same c, d, so from the second
    mistake on the two differ unless ||x_1|| = 1. ``variant="libol"`` takes LIBOL's first step
    (the separable bound is then skipped: its proof needs the shortest vector).
    ``tie="libol"`` predicts sign(0) = +1 and updates on a wrong label only, as LIBOL does;
    ``tie="novikoff"`` updates whenever y p <= 0.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, -1.0]]); y = np.array([1, -1, 1])
    >>> run(ROMMA(), X, y).state["w"].tolist()    # after two mistakes
    [0.5, -1.5]
    """

    constraints = {"variant": OneOf("paper", "libol"), "tie": OneOf("novikoff", "libol")}
    bounds = (ROMMA_SEPARABLE,)   # it skips variant="libol" with that reason

    def __init__(self, *, variant: str = "paper", tie: str = "novikoff"):
        self.variant = variant
        self.tie = tie

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(self.variant == "libol", self.tie == "libol")

    def init_state(self, d):
        return vector_state(d)


class AggressiveROMMA(Learner, key="aromma"):
    """Aggressive ROMMA (Li & Long 2002): the ROMMA step of :class:`ROMMA` whenever
    y_t w_t.x_t < 1, not only on mistakes. When y p >= ||w_t||^2 ||x_t||^2 the half-space
    constraint is slack and the step is w_{t+1} = y x / ||x||^2 (the case never arises on a
    mistake). Its mistakes obey the same (R/gamma)^2 bound on separable data.

    Paper against LIBOL (``aROMMA.m``): LIBOL's first step is w = y x, and it takes the
    two-constraint step c w_t + d x even when y p >= ||w_t||^2 ||x_t||^2 (then that point is
    not the shortest vector of the two constraints). ``variant="libol"`` does both.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 0.0], [1.0, 0.5]]); y = np.array([1, 1])
    >>> run(AggressiveROMMA(), X, y).state["w"].tolist()   # 2nd step: y p > ||w||^2 ||x||^2
    [0.8, 0.4]
    """

    display_label = "aROMMA"
    constraints = {"variant": OneOf("paper", "libol")}
    bounds = (ROMMA_SEPARABLE,)

    def __init__(self, *, variant: str = "paper"):
        self.variant = variant

    def rule(self):
        return rule.AGGRESSIVE

    def rule_params(self):
        return rule.Params(self.variant == "libol", False)

    def init_state(self, d):
        return vector_state(d)
