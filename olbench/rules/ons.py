"""Online Newton Step (Hazan, Agarwal & Kale, "Logarithmic regret algorithms for online
convex optimization", Machine Learning 69, 2007, Sec. 3.2, Algorithm 2; Hazan 2016,
"Introduction to Online Convex Optimization", Algorithm 12).

On the ball K = {||w|| <= r}: A_0 = eps I, and after playing w_t with gradient g_t of f_t,
A_t = A_{t-1} + g_t g_t', y_{t+1} = w_t - (1/gamma) A_t^{-1} g_t and
w_{t+1} = argmin_{w in K} (w - y)' A_t (w - y), the projection in the A_t norm. It is y when
||y|| <= r; otherwise, by the KKT conditions, w(lam) = (A_t + lam I)^{-1} A_t y with the
lam > 0 at which ||w(lam)|| = r, found here by bisection on the eigenvalues of A_t
(||w(lam)|| decreases in lam, and lam <= ||A_t y|| / r). On the simplex the projection is
the strictly convex QP min (w - y)' A_t (w - y) s.t. w >= 0, sum w = 1, solved exactly by
a primal active-set method (Nocedal & Wright 2006, Numerical Optimization, Algorithm 16.3)
from the Euclidean projection of y: on each working set the equality-constrained problem
is solved in closed form, and it ends at the working set whose solution is feasible with
nonnegative multipliers (the KKT point). State: ``A[:d]`` = A_t,
``A[d:2d]`` = A_t^{-1} (Sherman-Morrison), ``A[2d]`` scratch; ``s[0]`` counts rounds.
"""

import math
from collections import namedtuple

import numpy as np

from olbench._jit import inline_allocating
from olbench.rules.loop import make_rule
from olbench.rules.oco import add_gradient, oco_predict
from olbench.rules.rows import norm_from_squares
from olbench.rules.sets import SIMPLEX, project_simplex

Params = namedtuple("Params", ["loss", "radius", "gamma", "set_code"])


@inline_allocating
def project_in_norm(M, y, radius, w):
    """w = argmin_{||w|| <= radius} (w - y)' M (w - y) for a positive definite M."""
    # norms, not squared norms, are compared: on a ball of radius 1e200 the squares overflow
    # (y.y = inf put every y outside, lam = inf, and w = 0 for ever)
    if norm_from_squares(y, np.dot(y, y)) <= radius:
        w[:] = y
        return
    eigenvalues, Q = np.linalg.eigh(M)
    c = Q.T @ y
    weighted = eigenvalues * c
    My = M @ y
    low, high = 0.0, norm_from_squares(My, np.dot(My, My)) / radius
    if not high < math.inf:      # A_t y beyond float64: no lam to bisect for (lam = inf gave
        w[:] = math.nan          # w = 0); NaN stops the run, olbench.breakdown names the cause
        return
    for _ in range(200):                      # to the last bit of lam
        lam = 0.5 * (low + high)
        if lam == low or lam == high:
            break
        z = weighted / (eigenvalues + lam)
        if norm_from_squares(z, np.dot(z, z)) > radius:
            low = lam
        else:
            high = lam
    w[:] = Q @ (weighted / (eigenvalues + high))


@inline_allocating
def solve_on_support(M, b, free, n_free):
    """argmin (1/2) w'Mw - b'w s.t. sum w = 1 on the coordinates ``free[:n_free]`` (the
    others 0): w_F = K^{-1}(b_F - nu 1), nu = (1'K^{-1} b_F - 1)/(1'K^{-1} 1), K = M_FF.
    Returns (w_F, nu)."""
    K = np.empty((n_free, n_free))
    rhs = np.empty((n_free, 2))
    for a in range(n_free):
        for c in range(n_free):
            K[a, c] = M[free[a], free[c]]
        rhs[a, 0] = b[free[a]]
        rhs[a, 1] = 1.0
    z = np.linalg.solve(K, rhs)
    nu = (np.sum(z[:, 0]) - 1.0) / np.sum(z[:, 1])
    return z[:, 0] - nu * z[:, 1], nu


@inline_allocating
def project_simplex_in_norm(M, y, w, scratch):
    """w = argmin_{w in simplex} (w - y)' M (w - y) for a positive definite M (active set)."""
    d = y.shape[0]
    b = M @ y
    project_simplex(y, w, scratch)                     # a feasible start
    active = np.zeros(d, dtype=np.bool_)
    for i in range(d):
        active[i] = w[i] == 0.0
    free = np.empty(d, dtype=np.int64)
    for _ in range(10 * d + 100):                      # finite; the cap guards rounding cycles
        n_free = 0
        for i in range(d):
            if not active[i]:
                free[n_free] = i
                n_free += 1
        target, nu = solve_on_support(M, b, free, n_free)
        step, size = 0.0, 0.0
        for a in range(n_free):
            step = max(step, abs(target[a] - w[free[a]]))
            size = max(size, abs(target[a]))
        if step <= 1e-13 * (1.0 + size):               # optimal on this working set
            for a in range(n_free):
                w[free[a]] = target[a]
            gradient = M @ w - b
            worst, release = -1e-12 * (1.0 + abs(nu)), -1
            for i in range(d):                         # multipliers of w_i >= 0
                if active[i] and gradient[i] + nu < worst:
                    worst, release = gradient[i] + nu, i
            if release < 0:
                return
            active[release] = False
            continue
        alpha, block = 1.0, -1
        for a in range(n_free):
            move = target[a] - w[free[a]]
            if move < 0.0 and -w[free[a]] / move < alpha:
                alpha, block = -w[free[a]] / move, free[a]
        if block < 0:
            for a in range(n_free):
                w[free[a]] = target[a]
        else:
            for a in range(n_free):
                w[free[a]] += alpha * (target[a] - w[free[a]])
            w[block] = 0.0
            active[block] = True


@inline_allocating
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
    scale = 1.0 + np.dot(g, step)
    for i in range(d):              # in place: np.outer would allocate two d x d matrices
        for j in range(d):
            M_inv[i, j] -= step[i] * step[j] / scale
    target = w - (M_inv @ g) / params.gamma
    if params.set_code == SIMPLEX:
        project_simplex_in_norm(M, target, w, g)        # g is no longer needed: scratch
    else:
        project_in_norm(M, target, params.radius, w)
    return True


RULE = make_rule("ons", oco_predict, update, allocates=True)
