"""Truncated gradient (Langford, Li & Zhang, "Sparse online learning via truncated
gradient", JMLR 10, 2009), and the simple coefficient rounding it is compared with there.

Round t (t = 1, 2, ...), with g = l'(p_t) the loss's derivative and eta_t = eta or
eta/sqrt(t)::

    v = w_t - eta_t g x_t
    w_{t+1} = T1(v, eta_t K gravity, theta)   if K divides t     (Sec. 3.3)
            = v                               otherwise

T1 acts per coordinate: v_j - a clipped at 0 where 0 <= v_j <= theta, v_j + a clipped at 0
where -theta <= v_j <= 0, v_j unchanged where |v_j| > theta. Rounding (Sec. 3.1) sets
v_j = 0 where |v_j| <= theta, every K rounds (``params.rounding``).

Lazily (:mod:`olbench.rules.lazy`): a coordinate no row touches only ever shrinks while
|value| <= theta, so it is a closed form of its anchor, ``A[0]`` = its value after the round
that last moved it, ``A[1]`` = the truncation total S then (S = the sum of eta_s K gravity
over the truncation rounds s so far, or their count when rounding; ``s[1]``): now it is
T1(anchor, S - A[1], theta), or 0 if rounding and S > A[1]. ``s[0]`` = rounds seen.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.lazy import lazy_rules, next_round, shrink
from olbench.rules.loop import make_rule
from olbench.rules.rows import entry, n_entries

Params = namedtuple("Params", ["loss", "eta", "sqrt_schedule", "gravity", "theta", "period",
                               "rounding"])


@inline
def truncate(params, value, amount):
    """T1(value, amount, theta), or rounding's T0 (0 where |value| <= theta) if amount > 0."""
    if amount <= 0.0 or abs(value) > params.theta:
        return value
    if params.rounding:
        return 0.0
    return shrink(value, amount)


@inline
def current(params, j, A, s):
    return truncate(params, A[0, j], s[1] - A[1, j])


predict, catch_up = lazy_rules("truncated_gradient", current)


@inline
def update(params, idx, val, y, margin, w, A, s):
    gradient = next_round(params, y, margin, s)
    t = s[0]
    eta = params.eta / math.sqrt(t) if params.sqrt_schedule else params.eta
    amount = 0.0
    if t % params.period == 0.0:
        amount = 1.0 if params.rounding else eta * params.period * params.gravity
        s[1] += amount
    if gradient == 0.0:
        return False
    for k in range(n_entries(idx, val)):
        j, x = entry(idx, val, k)
        value = truncate(params, w[j] - eta * gradient * x, amount)   # w[j] read by predict
        w[j] = value
        A[0, j] = value
        A[1, j] = s[1]
    return True


RULE = make_rule("truncated_gradient", predict, update)
