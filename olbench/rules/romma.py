"""ROMMA and aggressive ROMMA (Li & Long, Machine Learning 46, 2002).

ROMMA's next hypothesis is the shortest vector in the intersection of the half-space
{w : w.w_t >= ||w_t||^2} (which contains every vector satisfying all earlier constraints)
and the new constraint {w : y_t w.x_t >= 1}. With W = ||w_t||^2, X = ||x_t||^2, p = w_t.x_t::

    w_t = 0 or y p >= W X:  w_{t+1} = y x / X                     (the new constraint alone)
    otherwise:              w_{t+1} = c w_t + d x,  D = W X - p^2,
                            c = (W X - y p) / D,  d = W (y - p) / D    (both constraints tight)

ROMMA applies it on a mistake, aggressive ROMMA whenever y p < 1. When D = 0 (x_t parallel
to w_t) the two constraints are parallel: no step, as in LIBOL. A zero row gives no step.

``libol=True`` is LIBOL's ``ROMMA.m``/``aROMMA.m``: the first step from w = 0 is w = y x (not
y x / ||x||^2), and aggressive ROMMA always takes the two-constraint step (no y p >= W X case).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, dense_dot, is_mistake, linear_predict, scale, sqnorm

Params = namedtuple("Params", ["libol", "libol_tie"])


@inline
def _step(params, idx, val, y, p, w):
    """The ROMMA projection above; False when no step is possible (zero row, D = 0)."""
    X = sqnorm(val)
    if X == 0.0:
        return False
    W = dense_dot(w, w)
    if W == 0.0:
        axpy(w, y if params.libol else y / X, idx, val)
        return True
    if y * p >= W * X and not params.libol:
        for j in range(w.shape[0]):
            w[j] = 0.0
        axpy(w, y / X, idx, val)
        return True
    D = W * X - p * p
    if D <= 0.0:
        return False
    c = (W * X - y * p) / D
    d = W * (y - p) / D
    scale(w, c)
    axpy(w, d, idx, val)
    return True


@inline
def update(params, idx, val, y, margin, w, A, s):
    if not is_mistake(y, margin, params.libol_tie):
        return False
    return _step(params, idx, val, y, margin, w)


@inline
def update_aggressive(params, idx, val, y, margin, w, A, s):
    if y * margin >= 1.0:
        return False
    return _step(params, idx, val, y, margin, w)


RULE = make_rule("romma", linear_predict, update)
AGGRESSIVE = make_rule("romma.aggressive", linear_predict, update_aggressive)
