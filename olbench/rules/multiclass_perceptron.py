"""The multiclass Perceptron's ultraconservative additive updates (Crammer & Singer, JMLR 3,
2003, Sec. 3-4; LIBOL's ``M_PerceptronM.m``, ``M_PerceptronU.m``, ``M_PerceptronS.m``).

When the errorful set E = {r != y : s_r >= s_y} is not empty (a mistake, margin <= 0)::

    W_y <- W_y + x,   W_r <- W_r - tau_r x  (r in E),   sum_r tau_r = 1

with tau = 1 at the runner-up (``scheme="max"``, the lowest index among the top scores
other than y's), tau_r = 1/|E| (``"uniform"``), or tau_r = (s_r - s_y) / sum_E (s_r' - s_y)
(``"proportional"``; 1/|E| when every r in E ties with y). Rules of ``Params.scheme``: 0, 1, 2.

``libol=True`` is LIBOL's code: it updates when the class predicted (the lowest index among
the top scores) is not y, and its errorful set is {r : s_r > s_y} (strict), which is empty
when y only ties with a lower class: then W_y alone moves (not ultraconservative).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.multiclass import (
    is_class_mistake,
    move_pair,
    score,
    score_predict,
    scored_runner_up,
)
from olbench.rules.rows import axpy

Params = namedtuple("Params", ["scheme", "libol"])

MAX, UNIFORM, PROPORTIONAL = 0, 1, 2


@inline
def in_errorful_set(params, score, own):
    return score > own if params.libol else score >= own


@inline
def update(params, idx, val, y, predicted, margin, w, A, s):
    if not is_class_mistake(y, margin, predicted, params.libol):
        return False
    own = score(w, s, y)
    if params.scheme == MAX:
        move_pair(w, y, scored_runner_up(w, s, y), 1.0, idx, val)
        return True
    size, excess = 0, 0.0
    for r in range(w.shape[0]):
        if r != y and in_errorful_set(params, score(w, s, r), own):
            size += 1
            excess += score(w, s, r) - own
    axpy(w[y], 1.0, idx, val)
    for r in range(w.shape[0]):
        if r != y and in_errorful_set(params, score(w, s, r), own):
            if params.scheme == UNIFORM or excess == 0.0:
                tau = 1.0 / size
            else:
                tau = (score(w, s, r) - own) / excess
            axpy(w[r], -tau, idx, val)
    return True


RULE = make_rule("multiclass_perceptron", score_predict, update, multiclass=True)
