"""L1-regularised dual averaging, L1-RDA (Xiao, "Dual averaging methods for regularized
stochastic learning and online optimization", JMLR 11, 2010), with h(w) = (1/2)||w||^2 and
beta_t = gamma sqrt(t) (its L1 closed form; here ``eta`` = 1/gamma).

After t rounds, with gbar_t = (1/t) sum_{s<=t} g_s x_s the average gradient and
lambda_t = l1 + rho gamma / sqrt(t) (rho = ``enhancement``: 0 for the plain L1-RDA, > 0 for
the enhanced one)::

    w_{t+1,j} = 0                                               if |gbar_{t,j}| <= lambda_t
              = -eta sqrt(t) (gbar_{t,j} - lambda_t sgn(gbar_{t,j}))   otherwise

and w_1 = 0. Each coordinate is a closed form of its gradient sum ``A[0]`` and of t
(``s[0]``): nothing to catch up, a coordinate is computed when a row reads it
(:mod:`olbench.rules.lazy`).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.lazy import lazy_rules, next_round
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy

Params = namedtuple("Params", ["loss", "eta", "l1", "enhancement"])


@inline
def current(params, j, A, s):
    t = s[0]
    if t == 0.0:
        return 0.0
    average = A[0, j] / t
    threshold = params.l1 + params.enhancement / (params.eta * math.sqrt(t))
    if abs(average) <= threshold:
        return 0.0
    return -params.eta * math.sqrt(t) * (average - math.copysign(threshold, average))


predict, catch_up = lazy_rules("rda", current)


@inline
def update(params, idx, val, y, margin, w, A, s):
    gradient = next_round(params, y, margin, s)
    if gradient == 0.0:
        return False
    axpy(A[0], gradient, idx, val)
    return True


RULE = make_rule("rda", predict, update)
