"""What every online-convex-optimisation rule shares: the loss a row stands for.

In OCO the row x_t *is* the loss f_t (see :mod:`olbench.rules`), read as one of

* ``LINEAR`` (0): f_t(w) = <x_t, w> (x_t is the gradient; a loss vector over experts);
* ``QUADRATIC`` (1): f_t(w) = (1/2) ||w - x_t||^2 (x_t is the point the loss pulls towards;
  1-strongly convex, and exp-concave on a bounded set).

``predict`` of an OCO learner returns f_t(w_t) for the point w_t it plays (recorded before
the update, like a margin: the loss ``suffered`` of :mod:`olbench.losses`), and its update
uses the gradient of f_t at w_t.
"""

from __future__ import annotations

import math

from olbench._jit import inline
from olbench.rules.rows import axpy, dense_dot, dot, sqnorm

LINEAR, QUADRATIC = 0, 1
#: loss name (the learners' ``loss`` parameter) -> code
LOSS_CODES = {"linear": LINEAR, "quadratic": QUADRATIC}


@inline
def suffered(loss_code, idx, val, w):
    """f_t(w) for the row (idx, val)."""
    if loss_code == QUADRATIC:
        return 0.5 * (dense_dot(w, w) - 2.0 * dot(w, idx, val) + sqnorm(val))
    return dot(w, idx, val)


@inline
def oco_predict(params, idx, val, w, A, s):
    """The predict rule of every OCO learner whose Params carry ``loss``: f_t(w_t)."""
    return suffered(params.loss, idx, val, w)


@inline
def add_gradient(G, a, loss_code, idx, val, w):
    """G += a grad f_t(w): a x_t (linear) or a (w - x_t) (quadratic)."""
    if loss_code == QUADRATIC:
        for j in range(G.shape[0]):
            G[j] += a * w[j]
        axpy(G, -a, idx, val)
    else:
        axpy(G, a, idx, val)


@inline
def exponential_weights(G, rate, w):
    """w_i = exp(-rate G_i) / sum_j exp(-rate G_j), shifted by min G so nothing overflows."""
    low = G[0]
    for j in range(G.shape[0]):
        low = min(low, G[j])
    total = 0.0
    for j in range(G.shape[0]):
        w[j] = math.exp(-rate * (G[j] - low))
        total += w[j]
    for j in range(G.shape[0]):
        w[j] /= total          # a quotient, not rows.scale(w, 1 / total): rounds otherwise
