"""Feasible sets of online convex optimisation and their exact Euclidean projections.

Three sets, each given by a code and a size D (``radius``):

* ``BALL`` (0): {w : ||w||_2 <= D};
* ``SIMPLEX`` (1): the probability simplex {w >= 0 : sum_i w_i = 1} (D is unused);
* ``BOX`` (2): {w : |w_i| <= D for every i} = [-D, D]^d;
* ``L1`` (3): {w : ||w||_1 <= D} (the set of EG+-, Kivinen & Warmuth 1997).

Each projection is a small pure function writing P_K(v) = argmin_{w in K} ||w - v||_2 into
``out`` (``out`` may be ``v`` itself); the simplex one is the sort-based algorithm of Duchi,
Shalev-Shwartz, Singer & Chandra, "Efficient projections onto the l1-ball for learning in high
dimensions", ICML 2008, Fig. 1 (also Held, Wolfe & Crowder 1974), which needs a scratch
vector of length d for the sorted values; the l1 ball's is Duchi et al.'s Fig. 1 applied to
|v| (sign(v) max(|v| - theta, 0), theta that of the simplex of radius D), their Sec. 4.

>>> import numpy as np
>>> out = np.empty(3)
>>> project(np.array([0.5, 0.5, -1.0]), SIMPLEX, 1.0, out, np.empty(3)); out.tolist()
[0.5, 0.5, 0.0]
>>> project(np.array([3.0, 4.0]), BALL, 1.0, out[:2], np.empty(2)); out[:2].round(12).tolist()
[0.6, 0.8]
"""

from __future__ import annotations

import math

import numpy as np

from olbench._jit import inline, inline_allocating
from olbench.rules.rows import ball_scale

BALL, SIMPLEX, BOX, L1 = 0, 1, 2, 3
#: set name (as in the learners' and comparators' ``domain`` parameter) -> code
SET_CODES = {"ball": BALL, "simplex": SIMPLEX, "box": BOX, "l1": L1}


@inline
def project_ball(v, radius, out):
    """out = v min(1, D / ||v||)."""
    total = 0.0
    for j in range(v.shape[0]):
        total += v[j] * v[j]
    scale = ball_scale(v, total, radius)
    for j in range(v.shape[0]):
        out[j] = v[j] * scale


@inline
def project_box(v, radius, out):
    """out_i = min(D, max(-D, v_i)): the box is a product of intervals."""
    for j in range(v.shape[0]):
        out[j] = min(radius, max(-radius, v[j]))


@inline_allocating
def simplex_threshold(v, scratch):
    """theta with P(v) = max(v - theta, 0) on the simplex (Duchi et al. 2008, Fig. 1):
    mu = v sorted decreasingly, rho = max{j : mu_j - (sum_{r<=j} mu_r - 1)/j > 0},
    theta = (sum_{r<=rho} mu_r - 1)/rho."""
    d = v.shape[0]
    for j in range(d):
        scratch[j] = v[j]
    scratch.sort()                   # increasing; walked from the end = decreasing
    cumulative, theta = 0.0, 0.0
    for j in range(1, d + 1):
        mu = scratch[d - j]
        cumulative += mu
        candidate = (cumulative - 1.0) / j
        if mu - candidate > 0.0:
            theta = candidate
    return theta


@inline_allocating
def project_simplex(v, out, scratch):
    theta = simplex_threshold(v, scratch)
    for j in range(v.shape[0]):
        out[j] = max(v[j] - theta, 0.0)


@inline_allocating
def project_l1(v, radius, out, scratch):
    """out = sign(v) max(|v| - D theta, 0), theta the simplex threshold of |v|/D; v itself
    when ||v||_1 <= D."""
    total = 0.0
    for j in range(v.shape[0]):
        total += abs(v[j])
    if total <= radius:
        for j in range(v.shape[0]):
            out[j] = v[j]
        return
    for j in range(v.shape[0]):
        out[j] = abs(v[j]) / radius
    theta = radius * simplex_threshold(out, scratch)
    for j in range(v.shape[0]):
        out[j] = math.copysign(max(abs(v[j]) - theta, 0.0), v[j])


@inline_allocating
def project(v, set_code, radius, out, scratch):
    """out = P_K(v) for the set ``set_code`` of size ``radius`` (see the module docs)."""
    if set_code == SIMPLEX:
        project_simplex(v, out, scratch)
    elif set_code == BOX:
        project_box(v, radius, out)
    elif set_code == L1:
        project_l1(v, radius, out, scratch)
    else:
        project_ball(v, radius, out)


def project_numpy(v: np.ndarray, set_name: str, radius: float = 1.0) -> np.ndarray:
    """The projection called from Python (comparators, tests): a new array.

    >>> project_numpy(np.array([2.0, -3.0]), "box", 1.0).tolist()
    [1.0, -1.0]
    """
    v = np.ascontiguousarray(v, dtype=np.float64)
    out = np.empty_like(v)
    project(v, SET_CODES[set_name], float(radius), out, np.empty_like(v))
    return out
