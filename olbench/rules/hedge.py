"""Hedge / exponentially weighted average forecaster (Freund & Schapire 1997, "A decision-
theoretic generalization of on-line learning", Sec. 2; Cesa-Bianchi & Lugosi 2006,
"Prediction, Learning, and Games", Sec. 2.1-2.3).

The row x_t is the loss vector of the N experts; the learner plays the weights
w_{t,i} = exp(-eta_t L_{t-1,i}) / sum_j exp(-eta_t L_{t-1,j}), L the experts' cumulative
losses (``A[0]``), and suffers <w_t, x_t>. Schedules (``schedule`` code):

* 0 fixed: eta_t = eta (the front passes eta = sqrt(8 ln N / T) for a known horizon T);
* 1 anytime: eta_t = sqrt(8 ln N / t) (Cesa-Bianchi & Lugosi 2006, Theorem 2.3);
* 2 doubling: epochs m = 0, 1, ... of rounds 2^m .. 2^{m+1} - 1; each restarts from uniform
  weights (L reset to 0) with eta = sqrt(8 ln N / 2^m), the rate of Theorem 2.2 for its
  length (Cesa-Bianchi & Lugosi 2006, Sec. 2.3, the doubling trick).

``s[0]`` counts rounds.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.oco import LINEAR, exponential_weights, suffered
from olbench.rules.rows import axpy

Params = namedtuple("Params", ["eta", "schedule"])
FIXED, ANYTIME, DOUBLING = 0, 1, 2


@inline
def predict(params, idx, val, w, A, s):
    return suffered(LINEAR, idx, val, w)


@inline
def is_epoch_start(t):
    """t (1-based) = 2^m: the first round of a doubling epoch."""
    return t >= 1.0 and math.log2(t) == math.floor(math.log2(t))


@inline
def update(params, idx, val, y, margin, w, A, s):
    L = A[0]
    axpy(L, 1.0, idx, val)
    s[0] += 1.0
    t = s[0] + 1.0                       # the round the new weights are played at
    log_n = math.log(L.shape[0])
    if params.schedule == ANYTIME:
        eta = math.sqrt(8.0 * log_n / t)
    elif params.schedule == DOUBLING:
        if is_epoch_start(t):
            L[:] = 0.0
        eta = math.sqrt(8.0 * log_n / 2.0 ** math.floor(math.log2(t)))
    else:
        eta = params.eta
    exponential_weights(L, eta, w)
    return True


RULE = make_rule("hedge", predict, update)
