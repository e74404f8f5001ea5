"""Kernel learners on a memory budget: NORMA, the Randomized Budget Perceptron and the
Forgetron. Their state has a fixed number of support-vector slots, so memory and time per
round stay bounded however long the stream (:mod:`olbench.learners.kernel` has the kernel
parameters and the state layout).

>>> import numpy as np
>>> from olbench import make_learner, run
>>> X = np.random.default_rng(0).standard_normal((300, 2)); y = np.sign(X[:, 0])
>>> run(make_learner("forgetron", budget=10), X, y).state["w"].shape   # B + 1 slots
(11,)
"""

from __future__ import annotations

from math import inf

from olbench.bounds import FORGETRON_MISTAKES
from olbench.component import Interval, InvalidParameterError
from olbench.learners.kernel import KERNEL_CONSTRAINTS, KernelLearner
from olbench.learners.state import generator_state
from olbench.rules import budget_perceptron as rbp_rule
from olbench.rules import forgetron as forgetron_rule
from olbench.rules import norma as norma_rule

_BUDGET = Interval(1, inf, integer=True)


class NORMA(KernelLearner, key="norma"):
    """NORMA, classification (Kivinen, Smola, Williamson, "Online learning with kernels", IEEE
    TSP 52(8), 2004: the NORMA update for classification with the soft-margin loss, and its
    truncation to the last tau terms): every round
    f <- (1 - eta lam) f + sigma eta y k(x, .) with sigma = [y f(x) < rho] (the soft-margin
    loss max(0, rho - y f(x))), keeping only the terms of the last ``tau`` rounds. Constant
    step eta (the paper's truncation analysis); no offset b.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[0.0], [0.0], [0.0]]); y = np.array([1, 1, 1])
    >>> run(NORMA(eta=0.5, lam=0.2, tau=2), X, y).margins.tolist()   # 0.5, then 0.9*0.5 + 0.5
    [0.0, 0.5, 0.95]
    """

    summary = ("f ← (1 − ηλ) f + η y k(x, ·) on y f(x) < ρ, terms of the last τ rounds kept "
               "(budget τ)")
    source = "Kivinen, Smola, Williamson, IEEE TSP 2004"

    display_label = "NORMA"
    display_params = ("tau", "kernel_type")
    budget_param = "tau"
    moves_on_zero_rows = True   # every round decays f and drops the term of round t - tau
    constraints = {"eta": Interval(0, inf, low_open=True), "lam": Interval(0, inf),
                   "rho": Interval(0, inf), "tau": _BUDGET, **KERNEL_CONSTRAINTS}

    def __init__(self, *, eta: float = 0.1, lam: float = 0.01, rho: float = 1.0,
                 tau: int = 100, kernel_type: str = "gaussian", h: float = 1.0,
                 degree: int = 2, offset: float = 1.0):
        self.eta = eta
        self.lam = lam
        self.rho = rho
        self.tau = tau
        self._init_kernel(kernel_type, h, degree, offset)

    def validate(self):
        super().validate()
        if self.eta * self.lam >= 1.0:    # the decay 1 - eta lam must stay positive
            raise InvalidParameterError(
                f"NORMA: invalid eta={self.eta!r} with lam={self.lam!r}; eta * lam must be "
                f"< 1 (each round multiplies f by 1 - eta * lam)")

    def budget_slots(self):
        return int(self.tau)

    def _n_scalars(self):
        return 4                        # s[3]: rounds seen (the ring's position)

    def rule(self):
        return norma_rule.RULE

    def rule_params(self):
        return norma_rule.Params(*self.kernel_fields(), float(self.eta),
                                 1.0 - float(self.eta) * float(self.lam), float(self.rho),
                                 int(self.tau))


class BudgetPerceptron(KernelLearner, key="budget_perceptron"):
    """Randomized Budget Perceptron (Cavallanti, Cesa-Bianchi, Gentile, "Tracking the best
    hyperplane with a simple budget Perceptron", Machine Learning 69, 2007): the kernel
    Perceptron keeping at most ``budget`` support vectors; on a mistake with the budget full, a
    support vector drawn uniformly at random is discarded. ``seed`` seeds the generator kept in
    the state (:mod:`olbench.rules.budget_perceptron`) through ``SeedSequence``
    (:func:`~olbench.learners.state.generator_state`): runs are reproducible, and the draws of
    different seeds unrelated.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.random.default_rng(1).standard_normal((200, 3)); y = np.sign(X[:, 0])
    >>> a, b = (run(BudgetPerceptron(budget=5, seed=s), X, y) for s in (0, 0))
    >>> bool((a.margins == b.margins).all()), a.state["w"].shape
    (True, (5,))
    """

    summary = ("Randomized Budget Perceptron: kernel Perceptron, a uniformly drawn support vector"
               " discarded when B are stored (seeded)")
    source = "Cavallanti, Cesa-Bianchi, Gentile, MLJ 2007"

    display_label = "RBP"
    display_params = ("budget", "kernel_type")
    constraints = {"budget": _BUDGET, "seed": Interval(0, 2**63 - 1, integer=True),
                   **KERNEL_CONSTRAINTS}

    def __init__(self, *, budget: int = 100, seed: int = 0, kernel_type: str = "gaussian",
                 h: float = 1.0, degree: int = 2, offset: float = 1.0):
        self.budget = budget
        self.seed = seed
        self._init_kernel(kernel_type, h, degree, offset)

    def budget_slots(self):
        return int(self.budget)

    def _n_scalars(self):
        return 4                        # s[3]: the generator's state

    def init_state(self, d):
        state = super().init_state(d)
        # the Lehmer generator's state lives in {1, ..., 2^31 - 2}
        state.s[3] = generator_state(self.seed, rbp_rule.MODULUS - 1)
        return state

    def rule(self):
        return rbp_rule.RULE

    def rule_params(self):
        return rbp_rule.Params(*self.kernel_fields(), int(self.budget))


class Forgetron(KernelLearner, key="forgetron"):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz, Singer, "The Forgetron: a kernel-based
    Perceptron on a budget", SIAM J. Comput. 37(5), 2008): the kernel Perceptron with at most
    ``budget`` = B support vectors; when a mistake brings B + 1, all coefficients are shrunk
    by the self-tuned phi_t and the oldest vector is removed (:mod:`olbench.rules.forgetron`).
    Mistake bound: the paper's bound for the self-tuned variant
    (:func:`olbench.bounds.kernel.forgetron_mistakes`), for B >= 83 and k(x, x) <= 1.

    ``w`` has B + 1 slots (the new vector joins before the oldest leaves); ``s[3]`` is the
    accumulated removal damage Q and ``s[4]`` the mistake count M.

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.eye(4); y = np.array([1, -1, 1, -1])   # four mistakes, k(e_i, e_j) = 1/e
    >>> run(Forgetron(budget=2), X, y).state["w"].round(4).tolist()
    [0.6464, -0.6464, 0.0]

    (Round 3 removes e_1 with phi = 1, Q = 1; round 4 removes e_2 with
    a = -1, b = 2, c = 1 - 15/32 * 4, phi = 1.75 / (2 + sqrt(0.5)) = 0.6464.)
    """

    summary = ("self-tuned Forgetron: kernel Perceptron, shrink by φₜ and remove the oldest when "
               "B + 1 are stored")
    source = ("Dekel, Shalev-Shwartz, Singer, SIAM J. Comput. 2008 (mistake bound of the "
              "self-tuned variant)")

    display_label = "Forgetron"
    display_params = ("budget", "kernel_type")
    constraints = {"budget": _BUDGET, **KERNEL_CONSTRAINTS}
    bounds = (FORGETRON_MISTAKES,)

    def __init__(self, *, budget: int = 100, kernel_type: str = "gaussian", h: float = 1.0,
                 degree: int = 2, offset: float = 1.0):
        self.budget = budget
        self._init_kernel(kernel_type, h, degree, offset)

    def budget_slots(self):
        return int(self.budget) + 1

    def _n_scalars(self):
        return 5                        # s[3]: the damage Q, s[4]: the mistakes M

    def rule(self):
        return forgetron_rule.RULE

    def rule_params(self):
        return forgetron_rule.Params(*self.kernel_fields(), int(self.budget))
