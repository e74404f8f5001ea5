"""The weighted majority algorithm (Littlestone & Warmuth, "The weighted majority
algorithm", Information and Computation 108(2), 1994, Sec. 2, algorithm WM), in the
loss-vector form of expert advice.

The row x_t is the experts' loss vector: x_{t,i} = 1 if expert i's prediction of the binary
outcome is wrong, 0 if right (any value in [0, 1] is read as a loss). The weights are
v_i = beta^{L_i}, L_i expert i's cumulative loss (``A[0]``); ``w`` holds them normalised
(the played distribution). WM predicts with the weighted majority, which is wrong exactly
when the weight of the wrong experts is at least half the total: the loss recorded is
1 if <w_t, x_t> >= 1/2 - TIE, else 0 (a tie is counted as a mistake, the worst case the
mistake bound allows). Then every expert's weight is multiplied by beta^{x_{t,i}} (WM's
"multiply the weights of the experts that erred by beta").
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.oco import exponential_weights
from olbench.rules.rows import axpy, dot

Params = namedtuple("Params", ["log_inv_beta"])
#: experts with the same number of mistakes have equal weights, so exact ties are common,
#: and a sum of equal weights may round to either side of 1/2: within TIE it is a tie
TIE = 1e-12


@inline
def predict(params, idx, val, w, A, s):
    return 1.0 if dot(w, idx, val) >= 0.5 - TIE else 0.0


@inline
def update(params, idx, val, y, margin, w, A, s):
    L = A[0]
    axpy(L, 1.0, idx, val)
    s[0] += 1.0
    exponential_weights(L, params.log_inv_beta, w)    # beta^L = exp(-ln(1/beta) L)
    return True


RULE = make_rule("weighted_majority", predict, update)
