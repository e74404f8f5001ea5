"""Multiclass Passive-Aggressive learners and multiclass online gradient descent, the
max-score (single-prototype) forms."""

from math import inf

from olbench.bounds import MULTICLASS_PA1_MISTAKES, MULTICLASS_PA_SEPARABLE
from olbench.component import Interval, OneOf
from olbench.learners.multiclass import MulticlassLearner
from olbench.learners.pa import _VARIANTS, PAVariants, step_size_params
from olbench.rules import multiclass_pa as rule


class MulticlassPA(PAVariants, MulticlassLearner, key="multiclass_pa"):
    """Multiclass PA, PA-I, PA-II, max-score form (Crammer et al., JMLR 7, 2006, Sec. 7;
    LIBOL's ``M_PA.m``, ``M_PA1.m``, ``M_PA2.m``): with r the runner-up and
    l = max(0, 1 - (s_y - s_r)), on l > 0, W_y += tau x and W_r -= tau x with
    tau = l / (2 ||x||^2) (PA), min(C, l / (2 ||x||^2)) (PA-I), l / (2 ||x||^2 + 1/(2C))
    (PA-II): the binary steps on Kesler's vector, whose squared norm is 2 ||x||^2. ``C`` is
    unused by ``variant="pa"``.

    >>> import numpy as np
    >>> from olbench import run
    >>> trace = run(MulticlassPA(variant="pa"), np.array([[3.0, 4.0], [3.0, 4.0]]),
    ...             np.array([1, 1]), classes=2)
    >>> float(trace.margins[1])   # after a PA step the margin is exactly 1
    1.0
    """

    summary = "multiclass PA, PA-I, PA-II (max-score form: 2||x||² in the step)"
    title_prefix = "multiclass "
    source = "Crammer et al., JMLR 2006, Sec. 7"
    constraints = {"C": Interval(0, inf, low_open=True), "variant": OneOf(*_VARIANTS)}
    display_params = ("C",)
    bounds = (MULTICLASS_PA_SEPARABLE.where(variant="pa"),
              MULTICLASS_PA1_MISTAKES.where(variant="pa1"))

    def __init__(self, *, C: float = 1.0, variant: str = "pa1"):
        self.C = C
        self.variant = variant

    n_scalars = 1     # the rounds (OGD's step; one rule for both: rules/multiclass_pa.py)

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.pa_params(*step_size_params(self.C, self.variant))


class MulticlassOGD(MulticlassLearner, key="multiclass_ogd"):
    """Multiclass online (sub)gradient descent on the multiclass hinge loss (Zinkevich 2003;
    LIBOL's ``M_OGD.m``): on s_y - s_r < 1 (r the runner-up), W_y += eta_t x and
    W_r -= eta_t x, eta_t = eta / sqrt(t) (``schedule="sqrt"``, LIBOL's) or eta
    (``"constant"``), t the round (from 1, counted on every round).

    >>> import numpy as np
    >>> from olbench import run
    >>> run(MulticlassOGD(eta=2.0), np.array([[1.0], [1.0]]), np.array([2, 2]),
    ...     classes=2).state["w"].tolist()   # a step of 2, then margin 4: none
    [[-2.0], [2.0]]
    """

    summary = "multiclass OGD on the multiclass hinge loss, η or η/√t"
    source = "Zinkevich 2003; LIBOL's M_OGD.m"
    constraints = {"eta": Interval(0, inf, low_open=True),
                   "schedule": OneOf("sqrt", "constant")}
    display_label = "multiclass OGD"
    display_params = ("eta",)
    n_scalars = 1     # the round t

    def __init__(self, *, eta: float = 1.0, schedule: str = "sqrt"):
        self.eta = eta
        self.schedule = schedule

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.ogd_params(float(self.eta), self.schedule == "sqrt")
