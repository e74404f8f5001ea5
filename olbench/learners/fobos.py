"""FOBOS, Duchi and Singer's forward-backward splitting."""

from math import inf

from olbench.bounds import FOBOS_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import LazyLearner
from olbench.learners.state import State
from olbench.rules import fobos as rule
from olbench.rules.ogd import LOSS_CODES


class FOBOS(LazyLearner, key="fobos"):
    """FOBOS with the elastic-net regulariser l1 ||w||_1 + (l2/2) ||w||^2: J. Duchi, Y.
    Singer, "Efficient online and batch learning using forward backward splitting", JMLR 10
    (2009): the forward (gradient) and backward (proximal) steps, with the paper's closed
    forms for L1 and squared L2 combined (L1 alone with ``l2=0``, squared L2 alone with
    ``l1=0``).

    A gradient step v = w - eta_t l'(p_t) x_t, then the regulariser's proximal step
    w = sgn(v) max(0, |v| - eta_t l1) / (1 + eta_t l2), per coordinate: coordinates reach
    exactly 0. eta_t = eta/sqrt(t) (``schedule="sqrt"``, the rate of the paper's regret
    bound) or eta; the proximal step uses the same eta_t. Applied lazily: a round costs
    O(non-zeros) (:mod:`olbench.rules.fobos`).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([1, -1])
    >>> w = run(FOBOS(eta=1.0, schedule="constant", l1=0.25, l2=1.0), X, y).state["w"]
    >>> w.tolist()   # (1 - 0.25) / 2 = 0.375, then 0.375 -> 0.0625; (-2 + 0.25) / 2
    [0.0625, -0.875]
    """

    summary = ("FOBOS: a gradient step, then the proximal step of l1‖w‖₁ + (l2/2)‖w‖² "
               "(soft threshold and shrink)")
    source = "Duchi & Singer 2009"

    display_params = ("l1",)
    constraints = {"loss": OneOf(*LOSS_CODES), "eta": Interval(0, inf, low_open=True),
                   "schedule": OneOf("constant", "sqrt"), "l1": Interval(0, inf),
                   "l2": Interval(0, inf)}
    lazy_rules = rule
    bounds = (FOBOS_REGRET.where(schedule="constant"),)
    coordinate_rows = 1

    def __init__(self, *, loss: str = "hinge", eta: float = 0.1, schedule: str = "sqrt",
                 l1: float = 0.01, l2: float = 0.0):
        self.loss = loss
        self.eta = eta
        self.schedule = schedule
        self.l1 = l1
        self.l2 = l2

    @property
    def moves_on_zero_rows(self):
        return self.l1 > 0.0 or self.l2 > 0.0

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.eta), self.schedule == "sqrt",
                           float(self.l1), float(self.l2))

    def init_state(self, d):
        state = super().init_state(d)
        return State(state.w, state.A, state.s + [0.0, 0.0, 1.0])   # P = 1, C = 0
