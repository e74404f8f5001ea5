"""The max-score multiclass Passive-Aggressive rules (Crammer et al., JMLR 7, 2006, Sec. 7,
the single-prototype form through Kesler's construction; LIBOL's ``M_PA.m``, ``M_PA1.m``,
``M_PA2.m``) and multiclass online gradient descent on the same loss (LIBOL's ``M_OGD.m``).

With r the runner-up (the lowest index among the top scores other than y's) and the
multiclass hinge loss l = max(0, 1 - (s_y - s_r)), on l > 0::

    W_y <- W_y + tau x,   W_r <- W_r - tau x

PA: tau = l / (2 ||x||^2); PA-I: min(C, l / (2 ||x||^2)); PA-II: l / (2 ||x||^2 + 1/(2C)):
the binary steps (:mod:`olbench.rules.pa`) with ||x||^2 doubled, the squared norm of the
Kesler vector (e_y - e_r) (x) x. OGD: tau = eta / sqrt(t) (t the round, from 1) or eta.
A zero row gives no step.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.multiclass import move_pair, score_predict, scored_runner_up
from olbench.rules.rows import sqnorm

#: one rule for both (one set of loops to compile): ``ogd`` picks OGD's step
Params = namedtuple("Params", ["ogd", "tau_max", "ridge", "eta", "sqrt_schedule"])


def pa_params(tau_max: float, ridge: float) -> Params:
    return Params(False, tau_max, ridge, 0.0, False)


def ogd_params(eta: float, sqrt_schedule: bool) -> Params:
    return Params(True, 0.0, 0.0, eta, sqrt_schedule)


@inline
def update(params, idx, val, y, predicted, margin, w, A, s):
    t = s[0] + 1.0        # this round's number (OGD's step; s[0] counts the rounds)
    s[0] = t
    loss = 1.0 - margin
    if loss <= 0.0:
        return False
    if params.ogd:
        step = params.eta / math.sqrt(t) if params.sqrt_schedule else params.eta
        move_pair(w, y, scored_runner_up(w, s, y), step, idx, val)
        return True
    denominator = 2.0 * sqnorm(val) + params.ridge
    if denominator > 0.0:
        move_pair(w, y, scored_runner_up(w, s, y), min(params.tau_max, loss / denominator),
                  idx, val)
    return True


RULE = make_rule("multiclass_pa", score_predict, update, multiclass=True)
