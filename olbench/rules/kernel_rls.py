"""Kernel recursive least squares = kernel AROW regression (Engel, Mannor, Meir, IEEE TSP
52(8), 2004, "The kernel recursive least-squares algorithm", without its sparsification
(approximate linear dependence) test: every example is admitted; Vaits & Crammer, ALT 2011,
AROWR in the dual).

With prior Sigma_0 = a I and noise r, the linear rule of :mod:`olbench.rules.arow` predicts
f_t(x) = a k_t(x)' (a K_t + r I)^-1 y_t; its dual keeps Q = (a K_t + r I)^-1 and
alpha = Q y_t, grown by one row and column per round (block inverse)::

    kv = a k_t(x_t),  q = Q kv,  gamma = a k(x_t, x_t) + r - kv'q   (= x'Sigma x + r)
    e = y_t - f_t(x_t)
    alpha <- [alpha - q e / gamma; e / gamma]
    Q <- [[Q + q q'/gamma, -q/gamma], [-q'/gamma, 1/gamma]]

The coefficients kept in ``w`` are a alpha, so that f(x) = sum_i w[i] k(x_i, x) as for every
kernel learner. Layout: the support vectors in ``A``'s first ``rkhs.sv_width`` columns
(:mod:`olbench.rules.rkhs`) and the matrix Q after them, so memory is O(n^2 + n d) after
n rounds: this learner has no budget (memory and time grow with n; use it for the small n
of textbook studies).
"""

from collections import namedtuple

import numpy as np

from olbench._jit import inline_allocating
from olbench.rules.loop import make_rule
from olbench.rules.rkhs import (
    KERNEL_FIELDS,
    expansion,
    self_kernel,
    store,
    sv_kernel,
    sv_width,
)
from olbench.rules.rows import sqnorm

Params = namedtuple("Params", KERNEL_FIELDS + ["a", "r"])


@inline_allocating
def update(params, idx, val, y, margin, w, A, s):
    n = int(s[0])
    base = sv_width(s)                # Q[i, j] = A[i, base + j]
    xsq = sqnorm(val)
    kv = np.empty(n)
    for i in range(n):
        kv[i] = params.a * sv_kernel(params, A, i, idx, val, xsq, s)
    q = np.zeros(n)
    for i in range(n):
        qi = 0.0
        for j in range(n):
            qi += A[i, base + j] * kv[j]
        q[i] = qi
    gamma = params.a * self_kernel(params, xsq) + params.r
    for i in range(n):
        gamma -= kv[i] * q[i]
    e = y - margin
    for i in range(n):
        w[i] -= params.a * q[i] * e / gamma
        for j in range(n):
            A[i, base + j] += q[i] * q[j] / gamma
        A[i, base + n] = -q[i] / gamma
        A[n, base + i] = -q[i] / gamma
    A[n, base + n] = 1.0 / gamma
    w[n] = params.a * e / gamma
    store(A, n, idx, val, xsq, s)
    s[0] = n + 1
    return True


RULE = make_rule("kernel_rls", expansion, update, allocates=True)
