"""Passive-Aggressive rules (Crammer, Dekel, Keshet, Shalev-Shwartz, Singer, JMLR 2006).

All three variants use one step size (Crammer et al. 2006, eqs. 6-8)::

    tau = min(tau_max, loss / (||x||^2 + ridge))

PA: tau_max = inf, ridge = 0; PA-I: tau_max = C, ridge = 0; PA-II: tau_max = inf,
ridge = 1/(2C). Classification (Sec. 3): loss = max(0, 1 - y w.x), w <- w + tau y x.
Regression (Sec. 4): loss = max(0, |w.x - y| - epsilon), w <- w + sign(y - w.x) tau x.
A zero row gives no step (PA's tau would be loss/0; the direction is 0 anyway).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, linear_predict, sqnorm

Params = namedtuple("Params", ["tau_max", "ridge", "epsilon"])


@inline
def _step(params, idx, val, loss, direction, w):
    denominator = sqnorm(val) + params.ridge
    if denominator > 0.0:
        axpy(w, direction * min(params.tau_max, loss / denominator), idx, val)


@inline
def update_classification(params, idx, val, y, margin, w, A, s):
    loss = 1.0 - y * margin
    if loss <= 0.0:
        return False
    _step(params, idx, val, loss, y, w)
    return True


@inline
def update_regression(params, idx, val, y, margin, w, A, s):
    loss = abs(margin - y) - params.epsilon
    if loss <= 0.0:
        return False
    _step(params, idx, val, loss, 1.0 if y > margin else -1.0, w)
    return True


CLASSIFICATION = make_rule("pa.classification", linear_predict, update_classification)
REGRESSION = make_rule("pa.regression", linear_predict, update_regression)
