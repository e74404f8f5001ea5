"""Exponentiated gradient EG and EG+- (Kivinen & Warmuth, "Exponentiated gradient versus
gradient descent for linear predictors", Information and Computation 132, 1997, Sec. 3-4),
as online mirror descent on the losses of :mod:`olbench.rules.oco`.

EG on the simplex: w_{t+1,i} = w_{t,i} r_i / sum_j w_{t,j} r_j, r_i = exp(-eta g_{t,i}),
g_t = grad f_t(w_t); w_1 uniform. Unrolled, w_{t+1,i} is proportional to exp(-eta G_{t,i})
with G_t = g_1 + ... + g_t, so the state is G (``A[0]``), the log-weights up to sign, scale
and a shift, and each w is computed afresh from it by :func:`oco.exponential_weights`. That is
entropic FTRL with rate eta (Orabona 2019, Sec. 6.6-7.3: on the simplex the mirror-descent
and the FTRL iterates coincide), bit for bit on linear losses. Multiplying w in place
instead, a weight that falls below e^-745 becomes exactly 0 and never recovers, whatever the
later losses (e_1 for 800 rounds, then e_2: regret 2400.96 instead of 1.46).

EG+- on the l1 ball of radius U: w = w+ - w- with w+, w- >= 0 and sum_i (w+_i + w-_i) = U,
w+_i <- U w+_i r_i / Z, w-_i <- U w-_i / r_i / Z with r_i = exp(-eta U g_{t,i}),
Z = sum_j (w+_j r_j + w-_j / r_j) (Kivinen & Warmuth's r+ and r- = 1/r+, their gradient
2(y^ - y) x replaced by the gradient of f_t), w+ = w- = U/(2d) at the start (w_1 = 0). It is
EG on the 2d-simplex of (w+, w-)/U with gradients U (g, -g), so from the same G:
w+_i = U exp(-eta U G_i) / Z, w-_i = U exp(eta U G_i) / Z, Z = sum_j 2 cosh(eta U G_j).

``A[1]`` is scratch (the round's gradient, then w-); ``s[0]`` counts rounds. A zero gradient
is no step (and no update).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.oco import add_gradient, exponential_weights, oco_predict
from olbench.rules.rows import scale

Params = namedtuple("Params", ["loss", "eta", "U", "signed"])


@inline
def signed_exponential_weights(G, rate, U, w, minus):
    """w = w+ - w- with w+_i = U exp(-rate G_i) / Z, w-_i = U exp(rate G_i) / Z (w- left in
    ``minus``); every exponent is shifted by the largest, rate max_j |G_j|, so nothing
    overflows and the largest of the 2d terms is 1. The shift is taken inside the product,
    rate (-G_i - top), as :func:`oco.exponential_weights` does: rate G_i itself overflows
    when rate = eta U is near 1.8e308 (inf - inf was NaN)."""
    top = 0.0
    for j in range(G.shape[0]):
        top = max(top, abs(G[j]))
    total = 0.0
    for j in range(G.shape[0]):
        w[j] = math.exp(rate * (-G[j] - top))
        minus[j] = math.exp(rate * (G[j] - top))
        total += w[j] + minus[j]
    scale(w, U / total)
    scale(minus, U / total)
    for j in range(G.shape[0]):
        w[j] -= minus[j]


@inline
def update(params, idx, val, y, margin, w, A, s):
    G, g = A[0], A[1]
    g[:] = 0.0
    add_gradient(g, 1.0, params.loss, idx, val, w)
    s[0] += 1.0
    moved = False
    for j in range(g.shape[0]):
        moved = moved or g[j] != 0.0
    if not moved:                      # r = 1: no step (renormalising would only add rounding)
        return False
    for j in range(G.shape[0]):
        G[j] += g[j]
    if params.signed:
        signed_exponential_weights(G, params.eta * params.U, params.U, w, g)
    else:
        exponential_weights(G, params.eta, w)
    return True


RULE = make_rule("eg", oco_predict, update)
