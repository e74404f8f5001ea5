"""Perceptron rule (Rosenblatt 1958; Novikoff 1962 for the mistake bound).

On a mistake, w <- w + eta y x. State: ``w``.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, is_mistake, linear_predict

Params = namedtuple("Params", ["eta", "libol_tie"])


@inline
def update(params, idx, val, y, margin, w, A, s):
    if not is_mistake(y, margin, params.libol_tie):
        return False
    axpy(w, params.eta * y, idx, val)
    return True


RULE = make_rule("perceptron", linear_predict, update)
