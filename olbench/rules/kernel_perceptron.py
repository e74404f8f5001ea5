"""Kernel Perceptron (Aizerman, Braverman, Rozonoer 1964; Freund & Schapire 1999, Sec. 3).

The Perceptron in the dual: f(x) = sum_i w[i] k(x_i, x); on a mistake (y f(x) <= 0) x joins
the support vectors with w = y. State: the growing support-vector set of
:mod:`olbench.rules.rkhs`. A row with k(x, x) = 0 (x = 0 under the linear kernel) is the
zero function in the RKHS: it counts as an update but is not stored.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rkhs import KERNEL_FIELDS, append, expansion, self_kernel
from olbench.rules.rows import is_mistake, sqnorm

Params = namedtuple("Params", KERNEL_FIELDS)


@inline
def update(params, idx, val, y, margin, w, A, s):
    if not is_mistake(y, margin, False):
        return False
    xsq = sqnorm(val)
    if self_kernel(params, xsq) > 0.0:
        append(idx, val, xsq, y, w, A, s)
    return True


RULE = make_rule("kernel_perceptron", expansion, update)
