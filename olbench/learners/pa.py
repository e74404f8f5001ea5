"""Passive-Aggressive learners (classification and regression)."""

from math import inf

from olbench.bounds import PA1_MISTAKES, PA2_SQUARED_LOSS, PA_SEPARABLE
from olbench.component import RECIPROCAL_LOW, Interval, InvalidParameterError, OneOf
from olbench.learners.base import Learner
from olbench.learners.state import vector_state
from olbench.rules import pa as rule

_VARIANTS = ("pa", "pa1", "pa2")
_TITLES = {"pa": "PA", "pa1": "PA-I", "pa2": "PA-II"}


def step_size_params(C: float, variant: str) -> tuple[float, float]:
    """(tau_max, ridge) of tau = min(tau_max, loss / (||x||^2 + ridge)); see rules.pa.

    >>> step_size_params(2.0, "pa1"), step_size_params(2.0, "pa2")
    ((2.0, 0.0), (inf, 0.25))
    """
    if variant == "pa":
        return inf, 0.0
    if variant == "pa1":
        return float(C), 0.0
    return inf, 1.0 / (2.0 * C)


def check_pa2_ridge(learner) -> None:
    """Refuse a PA-II whose ridge 1/(2C) overflows (C below 1e-308): its step
    loss / (||x||^2 + inf) was 0, so w stayed 0 while every round counted as an update. PA and
    PA-I do not divide by C (the bound belongs to PA-II alone, hence not in C's range)."""
    if learner.variant == "pa2" and learner.C < RECIPROCAL_LOW:
        raise InvalidParameterError(
            f"{type(learner).__name__}: invalid C={learner.C!r} with variant='pa2'; PA-II "
            f"divides by ||x||^2 + 1/(2C), whose 1/(2C) must be a finite float64, so C must "
            f"be at least {RECIPROCAL_LOW!r}")


class PAVariants:
    """What every learner with PA's three variants shares (PA, kernel PA, multiclass PA): the
    paper's name of each variant as the title (after ``title_prefix``), ``variant`` and an
    unused C left out of names, PA-II's 1/(2C) checked."""

    title_prefix = ""

    @classmethod
    def display_title(cls, params):
        variant = params.get("variant", cls.param_defaults()["variant"])
        return cls.title_prefix + _TITLES.get(variant, f"PA[{variant}]")

    @classmethod
    def display_shown(cls, params):
        unused = {"variant"} | ({"C"} if params.get("variant") == "pa" else set())
        return [k for k in super().display_shown(params) if k not in unused]

    def validate(self):
        super().validate()
        check_pa2_ridge(self)


class PA(PAVariants, Learner, key="pa"):
    """Passive-Aggressive classifier: PA, PA-I, PA-II (Crammer et al., JMLR 7, 2006).

    w <- w + tau y x with loss = max(0, 1 - y w.x) and tau = loss/||x||^2 (PA, eq. 6),
    min(C, loss/||x||^2) (PA-I, eq. 7), loss/(||x||^2 + 1/(2C)) (PA-II, eq. 8). ``C`` is
    unused by ``variant="pa"``.

    The lambda form of Sugiyama, *Introduction to Statistical Machine Learning*, ch. 31:
    theta <- theta + y max(0, 1 - m)/(||x||^2 + lambda) x is PA-II with C = 1/(2 lambda), and
    its hinge variant theta <- theta + y min(1/lambda, max(0, 1 - m)/||x||^2) x is PA-I with
    C = 1/lambda (tests/test_learners_exact.py checks both).

    >>> import numpy as np
    >>> from olbench import run
    >>> trace = run(PA(variant="pa"), np.array([[3.0, 4.0]]), np.array([1]))
    >>> float(trace.state["w"] @ [3.0, 4.0])   # after a PA step the margin is exactly 1
    1.0
    """

    summary = "PA, PA-I, PA-II"
    source = "Crammer et al., JMLR 2006"

    constraints = {"C": Interval(0, inf, low_open=True), "variant": OneOf(*_VARIANTS)}
    display_params = ("C",)
    bounds = (PA_SEPARABLE.where(variant="pa"), PA1_MISTAKES.where(variant="pa1"),
              PA2_SQUARED_LOSS.where(variant="pa2"))

    def __init__(self, *, C: float = 1.0, variant: str = "pa1"):
        self.C = C
        self.variant = variant

    @classmethod
    def display_title(cls, params):
        """PA, PA-I or PA-II, as the paper names the variants.

        >>> PA(C=0.1, variant="pa2").display_name, PA(variant="pa").display_name
        ('PA-II (C=0.1)', 'PA')
        """
        return super().display_title(params)

    def rule(self):
        return rule.CLASSIFICATION

    def rule_params(self):
        return rule.Params(*step_size_params(self.C, self.variant), 0.0)

    def init_state(self, d):
        return vector_state(d)


class PARegressor(PA, key="pa_regression"):
    """Passive-Aggressive regression with the epsilon-insensitive loss (Crammer et al. 2006,
    Sec. 4): loss = max(0, |w.x - y| - epsilon), w <- w + sign(y - w.x) tau x, with the same
    three step sizes as :class:`PA`.

    >>> import numpy as np
    >>> from olbench import run
    >>> run(PARegressor(variant="pa", epsilon=0.5), np.array([[2.0]]), np.array([3.0])).state["w"]
    array([1.25])
    """

    task = "regression"
    constraints = {**PA.constraints, "epsilon": Interval(0, inf)}
    bounds = ()

    def __init__(self, *, C: float = 1.0, variant: str = "pa1", epsilon: float = 0.1):
        super().__init__(C=C, variant=variant)
        self.epsilon = epsilon

    @classmethod
    def display_title(cls, params):
        return super().display_title(params) + " regression"

    def rule(self):
        return rule.REGRESSION

    def rule_params(self):
        return rule.Params(*step_size_params(self.C, self.variant), float(self.epsilon))
