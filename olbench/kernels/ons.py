"""Online Newton Step (Hazan, Agarwal & Kale, "Logarithmic regret algorithms for online
convex optimization", Machine Learning 69, 2007, Sec. 3.2, Algorithm 2; Hazan 2016,
"Introduction to Online Convex Optimization", Algorithm 12).

On the ball K = {||w|| <= r}: A_0 = eps I, and after playing w_t with gradient g_t of f_t,
A_t = A_{t-1} + g_t g_t', y_{t+1} = w_t - (1/gamma) A_t^{-1} g_t and
w_{t+1} = argmin_{w in K} (w - y)' A_t (w - y), the projection in the A_t norm. It is y when
||y|| <= r; otherwise, by the KKT conditions, w(lam) = (A_t + lam I)^{-1} A_t y with the
lam > 0 at which ||w(lam)|| = r, found here by bisection on the eigenvalues of A_t
(||w(lam)|| decreases in lam, and lam <= ||A_t y|| / r). State: ``A[:d]`` = A_t,
``A[d:2d]`` = A_t^{-1} (Sherman-Morrison), ``A[2d]`` scratch; ``s[0]`` counts rounds.
"""

import math
from collections import namedtuple

import numpy as np

from olbench._jit import inline
from olbench.kernels.loop import make_kernel
from olbench.kernels.oco import add_gradient, oco_predict

Params = namedtuple("Params", ["loss", "radius", "gamma"])


@inline
def project_in_norm(M, y, radius, w):
    """w = argmin_{||w|| <= radius} (w - y)' M (w - y) for a positive definite M."""
    if math.sqrt(np.dot(y, y)) <= radius:
        w[:] = y
        return
    eigenvalues, Q = np.linalg.eigh(M)
    c = Q.T @ y
    weighted = eigenvalues * c
    low, high = 0.0, math.sqrt(np.dot(M @ y, M @ y)) / radius
    for _ in range(200):                      # to the last bit of lam
        lam = 0.5 * (low + high)
        if lam == low or lam == high:
            break
        if np.sum((weighted / (eigenvalues + lam)) ** 2) > radius * radius:
            low = lam
        else:
            high = lam
    w[:] = Q @ (weighted / (eigenvalues + high))


@inline
def update(params, idx, val, y, margin, w, A, s):
    d = w.shape[0]
    g = A[2 * d]
    g[:] = 0.0
    add_gradient(g, 1.0, params.loss, idx, val, w)
    s[0] += 1.0
    M, M_inv = A[:d], A[d:2 * d]
    for i in range(d):
        for j in range(d):
            M[i, j] += g[i] * g[j]
    step = M_inv @ g                                    # Sherman-Morrison on A_t^{-1}
    M_inv -= np.outer(step, step) / (1.0 + np.dot(g, step))
    target = w - (M_inv @ g) / params.gamma
    project_in_norm(M, target, params.radius, w)
    return True


KERNEL = make_kernel("ons", oco_predict, update)
