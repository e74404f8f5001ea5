"""L1-RDA, Xiao's regularised dual averaging."""

from math import inf

from olbench.bounds import RDA_REGRET
from olbench.component import Interval, OneOf
from olbench.learners.families import LazyLearner
from olbench.rules import rda as rule
from olbench.rules.ogd import LOSS_CODES


class RDA(LazyLearner, key="rda"):
    """L1-regularised dual averaging: L. Xiao, "Dual averaging methods for regularized
    stochastic learning and online optimization", JMLR 11 (2010): the L1-RDA closed form, and
    the enhanced L1-RDA (``enhancement`` = the paper's rho > 0).

    w_{t+1} = argmin_w  gbar_t . w + l1 ||w||_1 + (gamma/sqrt(t)) (1/2) ||w||^2 with
    gbar_t the average of the gradients l'(p_s) x_s so far: per coordinate 0 while
    |gbar_{t,j}| <= lambda_t = l1 + rho gamma/sqrt(t), else
    -(sqrt(t)/gamma)(gbar_{t,j} - lambda_t sgn(gbar_{t,j})). ``eta`` = 1/gamma (the scale of
    its steps, as every learner's eta). A coordinate is set to 0 unless its *average*
    gradient exceeds l1: far sparser than a gradient step's soft threshold of eta_t l1.
    w_1 = 0 (a given w0 is refused: the rule has no place for one). Each weight is computed
    when a row reads it: a round costs O(non-zeros) (:mod:`olbench.rules.rda`).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.array([1, -1])
    >>> run(RDA(eta=1.0, l1=0.25), X, y).state["w"].tolist()   # gbar = (-1/2, 1), t = 2
    [0.3535533905932738, -1.0606601717798214]
    """

    summary = ("L1-RDA: w from the average gradient, 0 where its size is ≤ l1 (+ ρ/(η√t), "
               "enhanced)")
    source = "Xiao 2010"

    display_params = ("l1",)
    constraints = {"loss": OneOf(*LOSS_CODES), "eta": Interval(0, inf, low_open=True),
                   "l1": Interval(0, inf), "enhancement": Interval(0, inf)}
    lazy_rules = rule
    bounds = (RDA_REGRET,)
    coordinate_rows = 1
    anchor_row = None
    moves_on_zero_rows = True   # w_{t+1} scales with sqrt(t): a zero row moves it

    def __init__(self, *, loss: str = "hinge", eta: float = 0.1, l1: float = 0.01,
                 enhancement: float = 0.0):
        self.loss = loss
        self.eta = eta
        self.l1 = l1
        self.enhancement = enhancement

    def rule_params(self):
        return rule.Params(LOSS_CODES[self.loss], float(self.eta), float(self.l1),
                           float(self.enhancement))
