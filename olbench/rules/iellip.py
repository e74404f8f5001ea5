"""The improved ellipsoid method, IELLIP (Yang, Jin, Ye, "Online learning by ellipsoid
method", ICML 2009), as LIBOL's IELLIP.m runs it.

On a mistake, with m = y w.x, v = x' Sigma x and the cut direction g = y x / sqrt(v)::

    w <- w + (1 - m) / sqrt(v) Sigma g                  (so that y w.x = 1 afterwards)
    Sigma <- (Sigma - c_t Sigma g g' Sigma) / (1 - c_t)

and c_{t+1} = b c_t on every round, from c_1 = c. ``s[0]`` holds c_t; ``A`` as in
:mod:`olbench.rules.arow` (Sigma, then a scratch row).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import full_sigma_x, full_step, kept_columns
from olbench.rules.loop import make_rule
from olbench.rules.rows import is_mistake, linear_predict

Params = namedtuple("Params", ["decay", "libol_tie"])


@inline
def update(params, idx, val, y, margin, w, A, s):
    c = s[0]
    s[0] = c * params.decay
    if not is_mistake(y, margin, params.libol_tie):
        return False
    sigma_x, v = full_sigma_x(A, idx, val)
    if not v <= 0.0:             # a zero row takes no step; a NaN v (covariance.positive_form) does
        full_step(w, A, sigma_x, (1.0 - y * margin) * y / v, c / v)
        d = w.shape[0]
        scale = 1.0 - c
        for i in range(d):
            for j in range(kept_columns(d, i)):
                A[i, j] = A[i, j] / scale
    return True


RULE = make_rule("iellip", linear_predict, update)
