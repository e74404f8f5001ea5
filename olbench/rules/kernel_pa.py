"""Kernel Passive-Aggressive rules (Crammer, Dekel, Keshet, Shalev-Shwartz, Singer, JMLR 2006,
Sec. 7 with the step sizes of Fig. 1).

The PA rules of :mod:`olbench.rules.pa` with w.x replaced by f(x) = sum_i w[i] k(x_i, x) and
||x||^2 by k(x, x): when the loss is positive, x joins the support vectors with coefficient
y tau (classification) or sign(y - f(x)) tau (regression), where
tau = min(tau_max, loss / (k(x, x) + ridge)). A row with k(x, x) = 0 gets no coefficient
(the linear PA's step is 0 there too).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rkhs import KERNEL_FIELDS, append, expansion, self_kernel
from olbench.rules.rows import sqnorm

Params = namedtuple("Params", KERNEL_FIELDS + ["tau_max", "ridge", "epsilon"])


@inline
def _step(params, idx, val, loss, direction, w, A, s):
    xsq = sqnorm(val)
    kxx = self_kernel(params, xsq)
    if kxx > 0.0:
        append(idx, val, xsq, direction * min(params.tau_max, loss / (kxx + params.ridge)),
               w, A, s)


@inline
def update_classification(params, idx, val, y, margin, w, A, s):
    loss = 1.0 - y * margin
    if loss <= 0.0:
        return False
    _step(params, idx, val, loss, y, w, A, s)
    return True


@inline
def update_regression(params, idx, val, y, margin, w, A, s):
    loss = abs(margin - y) - params.epsilon
    if loss <= 0.0:
        return False
    _step(params, idx, val, loss, 1.0 if y > margin else -1.0, w, A, s)
    return True


CLASSIFICATION = make_rule("kernel_pa.classification", expansion, update_classification)
REGRESSION = make_rule("kernel_pa.regression", expansion, update_regression)
