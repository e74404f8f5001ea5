"""FTRL-Proximal with per-coordinate learning rates (McMahan, Holt, Sculley et al., "Ad click
prediction: a view from the trenches", KDD 2013, Algorithm 1).

Per coordinate i, with g_i = l'(p_t) x_{t,i} the loss's gradient (``A[0]`` = z, ``A[1]`` = n,
z = n = 0 at the start)::

    sigma_i = (sqrt(n_i + g_i^2) - sqrt(n_i)) / eta
    z_i <- z_i + g_i - sigma_i w_i,   n_i <- n_i + g_i^2
    w_i = 0                                                   if |z_i| <= l1
        = -(z_i - sgn(z_i) l1) / ((delta + sqrt(n_i)) / eta + l2)   otherwise

(the paper's alpha, beta, lambda_1, lambda_2 are ``eta``, ``delta``, ``l1``, ``l2``). Only the
coordinates of the row's non-zeros change, and ``w`` is brought up to date for them in the same
pass, so a round costs O(non-zeros) and ``w`` is always the closed form of (z, n): nothing is
left to catch up at a checkpoint. Losses as OGD's (:func:`olbench.rules.ogd.loss_gradient`,
``params.loss``).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.ogd import loss_gradient
from olbench.rules.rows import entry, linear_predict, n_entries

Params = namedtuple("Params", ["loss", "eta", "delta", "l1", "l2"])


@inline
def weight(params, z, n):
    """w_i of (z_i, n_i): the closed-form minimiser of Algorithm 1 (0 inside the L1 band)."""
    if abs(z) <= params.l1:
        return 0.0
    return -(z - math.copysign(params.l1, z)) / ((params.delta + math.sqrt(n)) / params.eta
                                                 + params.l2)


@inline
def update(params, idx, val, y, margin, w, A, s):
    gradient = loss_gradient(params.loss, y, margin)
    if gradient == 0.0:
        return False
    for k in range(n_entries(idx, val)):
        j, x = entry(idx, val, k)
        g = gradient * x
        n_old = A[1, j]
        n_new = n_old + g * g
        sigma = (math.sqrt(n_new) - math.sqrt(n_old)) / params.eta
        A[0, j] += g - sigma * w[j]
        A[1, j] = n_new
        w[j] = weight(params, A[0, j], n_new)
    return True


RULE = make_rule("ftrl_proximal", linear_predict, update)
