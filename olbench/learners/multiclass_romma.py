"""Multiclass ROMMA and aggressive ROMMA (Kesler's construction of Li & Long's rule)."""

from olbench.component import OneOf
from olbench.learners.multiclass import MulticlassLearner
from olbench.rules import multiclass_romma as rule


class MulticlassROMMA(MulticlassLearner, key="multiclass_romma"):
    """Multiclass ROMMA (Li & Long, Machine Learning 46, 2002, on Kesler's construction; LIBOL's
    ``M_ROMMA.m``): on a mistake, W becomes the shortest matrix meeting both the new
    constraint s_y - s_r >= 1 (r the runner-up) and the half-space of the earlier ones:
    W <- c W + d (e_y - e_r) x' (:mod:`olbench.rules.multiclass_romma`).

    ``libol=True`` is LIBOL's code: the first step is (e_y - e_r) x' itself, the mistake is
    the predicted class against y (LIBOL's tie rule), and only rows y and r are scaled by c
    (the rest of W keeps its scale: LIBOL's manual states the Kesler form, its code does
    this).

    >>> import numpy as np
    >>> from olbench import run
    >>> run(MulticlassROMMA(), np.array([[1.0, 1.0]]), np.array([2]), classes=2
    ...     ).state["w"].tolist()   # (e_2 - e_1) x' / (2 ||x||^2)
    [[-0.25, -0.25], [0.25, 0.25]]
    """

    summary = ("multiclass ROMMA (on mistakes) and aggressive ROMMA (on s_y − s_r < 1), "
               "Kesler's construction")
    source = "Li & Long 2002; LIBOL's M_ROMMA.m"
    display_label = "multiclass ROMMA"
    libol_tie = True
    constraints = {"libol": OneOf(False, True)}

    def __init__(self, *, libol: bool = False):
        self.libol = libol

    def rule(self):
        return rule.RULE

    aggressive = False

    def rule_params(self):
        return rule.Params(bool(self.libol), self.aggressive)


class MulticlassAggressiveROMMA(MulticlassROMMA, key="multiclass_aromma"):
    """Multiclass aggressive ROMMA (Li & Long 2002; LIBOL's ``M_aROMMA.m``): the step of
    :class:`MulticlassROMMA` whenever s_y - s_r < 1, not only on mistakes. ``libol=True``:
    as there (no tie rule to take: the test is on the margin)."""

    display_label = "multiclass aROMMA"
    libol_tie = False
    aggressive = True
