"""Exponentiated gradient EG and EG+- (Kivinen & Warmuth, "Exponentiated gradient versus
gradient descent for linear predictors", Information and Computation 132, 1997, Sec. 3-4),
as online mirror descent on the losses of :mod:`olbench.kernels.oco`.

EG on the simplex: w_{t+1,i} = w_{t,i} r_i / sum_j w_{t,j} r_j, r_i = exp(-eta g_{t,i}),
g_t = grad f_t(w_t); w_1 uniform. EG+- on the l1 ball of radius U: w = w+ - w- with
w+, w- >= 0 and sum_i (w+_i + w-_i) = U (``A[0]`` = w+, ``A[1]`` = w-, both U/(2d) at
the start, so w_1 = 0); w+_i <- U w+_i r_i / Z, w-_i <- U w-_i / r_i / Z with
r_i = exp(-eta U g_{t,i}) and Z = sum_j (w+_j r_j + w-_j / r_j) (Kivinen & Warmuth's r+ and
r- = 1/r+, their gradient 2(y^ - y) x replaced by the gradient of f_t). A zero gradient is
no step (and no update).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.kernels.loop import make_kernel
from olbench.kernels.oco import add_gradient, oco_predict

Params = namedtuple("Params", ["loss", "eta", "U", "signed"])


@inline
def update(params, idx, val, y, margin, w, A, s):
    g = A[2]
    g[:] = 0.0
    add_gradient(g, 1.0, params.loss, idx, val, w)
    s[0] += 1.0
    moved = False
    for j in range(g.shape[0]):
        moved = moved or g[j] != 0.0
    if not moved:                      # r = 1: no step (renormalising would only add rounding)
        return False
    if not params.signed:
        # the largest exponent first: exp never overflows, and the shift cancels
        top = -params.eta * g[0]
        for j in range(w.shape[0]):
            top = max(top, -params.eta * g[j])
        total = 0.0
        for j in range(w.shape[0]):
            w[j] *= math.exp(-params.eta * g[j] - top)
            total += w[j]
        for j in range(w.shape[0]):
            w[j] /= total
        return True
    plus, minus = A[0], A[1]
    top = 0.0
    for j in range(w.shape[0]):
        top = max(top, abs(params.eta * params.U * g[j]))
    total = 0.0
    for j in range(w.shape[0]):
        e = params.eta * params.U * g[j]
        plus[j] *= math.exp(-e - top)
        minus[j] *= math.exp(e - top)
        total += plus[j] + minus[j]
    for j in range(w.shape[0]):
        plus[j] *= params.U / total
        minus[j] *= params.U / total
        w[j] = plus[j] - minus[j]
    return True


KERNEL = make_kernel("eg", oco_predict, update)
