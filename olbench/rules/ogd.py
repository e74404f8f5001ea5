"""Online (sub)gradient descent (Zinkevich 2003, "Online convex programming", Sec. 2).

w_{t+1} = Proj_{||w|| <= U}(w_t - eta_t g_t x_t), with g_t = dl/dp at p_t = w_t.x_t and
eta_t = eta (constant) or eta / sqrt(t), t = 1, 2, ... State: ``w``; ``s[0]`` = rounds seen.
Losses (per example, see olbench.losses): hinge max(0, 1 - y p) with subgradient -y where
y p < 1 and 0 elsewhere; logistic log(1 + exp(-y p)); squared (1/2)(p - y)^2.
Online convex optimisation (:mod:`olbench.rules.oco`): ``linear`` f_t(w) = <x_t, w>, step
-eta_t x_t; ``quadratic`` f_t(w) = (1/2)||w - x_t||^2, step -eta_t (w_t - x_t); the output is
the loss suffered f_t(w_t).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.oco import QUADRATIC, suffered
from olbench.rules.rows import axpy, linear_predict, project_l2_ball, scale

Params = namedtuple("Params", ["eta", "sqrt_schedule", "radius"])


@inline
def _step(params, idx, val, gradient, w, s):
    s[0] += 1.0
    if gradient == 0.0:
        return False
    eta = params.eta / math.sqrt(s[0]) if params.sqrt_schedule else params.eta
    axpy(w, -eta * gradient, idx, val)
    if params.radius < math.inf:
        project_l2_ball(w, params.radius)
    return True


@inline
def hinge_gradient(y, margin):
    """d/dp max(0, 1 - y p): -y where y p < 1, else 0 (the subgradient 0 at the kink)."""
    return -y if y * margin < 1.0 else 0.0


@inline
def logistic_gradient(y, margin):
    """d/dp log(1 + exp(-y p)) = -y sigma(-y p), written so that exp never overflows."""
    z = y * margin
    if z >= 0.0:
        e = math.exp(-z)
        return -y * e / (1.0 + e)
    return -y / (1.0 + math.exp(z))


#: the losses a rule may take as a number in its Params (``params.loss``), so that one
#: compiled rule serves all three: :func:`loss_gradient`
LOSS_CODES = {"hinge": 0, "logistic": 1, "squared": 2}


@inline
def loss_gradient(code, y, margin):
    """dl/dp at p = ``margin`` for the loss of :data:`LOSS_CODES` ``code``: hinge,
    logistic, or squared (1/2)(p - y)^2."""
    if code == 0:
        return hinge_gradient(y, margin)
    if code == 1:
        return logistic_gradient(y, margin)
    return margin - y


@inline
def update_hinge(params, idx, val, y, margin, w, A, s):
    return _step(params, idx, val, hinge_gradient(y, margin), w, s)


@inline
def update_logistic(params, idx, val, y, margin, w, A, s):
    return _step(params, idx, val, logistic_gradient(y, margin), w, s)


@inline
def update_squared(params, idx, val, y, margin, w, A, s):
    return _step(params, idx, val, margin - y, w, s)


@inline
def predict_quadratic(params, idx, val, w, A, s):
    return suffered(QUADRATIC, idx, val, w)


@inline
def update_linear(params, idx, val, y, margin, w, A, s):
    return _step(params, idx, val, 1.0, w, s)       # grad = 1.0 * x_t


@inline
def update_quadratic(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    eta = params.eta / math.sqrt(s[0]) if params.sqrt_schedule else params.eta
    scale(w, 1.0 - eta)                               # w - eta (w - x) = (1 - eta) w + eta x
    axpy(w, eta, idx, val)
    if params.radius < math.inf:
        project_l2_ball(w, params.radius)
    return True


RULES = {
    "hinge": make_rule("ogd.hinge", linear_predict, update_hinge),
    "logistic": make_rule("ogd.logistic", linear_predict, update_logistic),
    "squared": make_rule("ogd.squared", linear_predict, update_squared),
    "linear": make_rule("ogd.linear", linear_predict, update_linear),
    "quadratic": make_rule("ogd.quadratic", predict_quadratic, update_quadratic),
}
