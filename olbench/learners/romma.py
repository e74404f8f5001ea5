"""ROMMA and aggressive ROMMA."""

from olbench.bounds import ROMMA_SEPARABLE
from olbench.component import OneOf
from olbench.learners.base import Learner
from olbench.learners.state import vector_state
from olbench.learners.traits import VARIANT_AND_TIE_SPELLING, VARIANT_SPELLING
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

    ``libol=True`` behaves as LIBOL's ``ROMMA.m`` (``ROMMA_c.cpp``), which differs in two
    ways: (1) its first step is w = y x instead of the shortest vector y x / ||x||^2; the later
    steps use the same c, d, so from the second mistake on the two differ unless
    ||x_1|| = 1 (the separable bound is then skipped: its proof needs the shortest vector);
    (2) its tie rule, sign(0) = +1, so it updates on a wrong label only, where the paper's
    rule updates whenever y p <= 0. (Old spelling, until 0.3: ``variant="libol",
    tie="libol"``.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 0.0], [1.0, 1.0], [0.0, -1.0]]); y = np.array([1, -1, 1])
    >>> run(ROMMA(), X, y).state["w"].tolist()    # after two mistakes
    [0.5, -1.5]
    """

    constraints = {"libol": OneOf(False, True)}
    bounds = (ROMMA_SEPARABLE,)   # it skips libol=True with that reason
    libol_tie = True
    renamed_params = (VARIANT_AND_TIE_SPELLING,)
    summary = ("ROMMA (on mistakes) and aggressive ROMMA (on y w.x < 1): shortest w meeting "
               "two constraints")
    source = "Li & Long 2002"

    def __init__(self, *, libol: bool = False):
        self.libol = libol

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(bool(self.libol), bool(self.libol))

    def init_state(self, d):
        return vector_state(d)


class AggressiveROMMA(Learner, key="aromma"):
    """Aggressive ROMMA (Li & Long 2002): the ROMMA step of :class:`ROMMA` whenever
    y_t w_t.x_t < 1, not only on mistakes. When y p >= ||w_t||^2 ||x_t||^2 the half-space
    constraint is slack and the step is w_{t+1} = y x / ||x||^2 (the case never arises on a
    mistake). Its mistakes obey the same (R/gamma)^2 bound on separable data.

    ``libol=True`` behaves as LIBOL's ``aROMMA.m``, which differs in two ways: (1) its first
    step is w = y x; (2) it takes the two-constraint step c w_t + d x even when
    y p >= ||w_t||^2 ||x_t||^2 (then that point is not the shortest vector of the two
    constraints). Its mistakes are counted as y p <= 0 (LIBOL's sign(0) = +1 differs only on
    a round with w.x = 0, and the steps do not depend on it). (Old spelling, until 0.3:
    ``variant="libol"``.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[2.0, 0.0], [1.0, 0.5]]); y = np.array([1, 1])
    >>> run(AggressiveROMMA(), X, y).state["w"].tolist()   # 2nd step: y p > ||w||^2 ||x||^2
    [0.8, 0.4]
    """

    display_label = "aROMMA"
    constraints = {"libol": OneOf(False, True)}
    bounds = (ROMMA_SEPARABLE,)
    renamed_params = (VARIANT_SPELLING,)
    summary, source = ROMMA.summary, ROMMA.source

    def __init__(self, *, libol: bool = False):
        self.libol = libol

    def rule(self):
        return rule.AGGRESSIVE

    def rule_params(self):
        return rule.Params(bool(self.libol), False)

    def init_state(self, d):
        return vector_state(d)
