"""Multiclass ROMMA and aggressive ROMMA: the binary rule of Li & Long (Machine Learning 46,
2002; :mod:`olbench.rules.romma`) on Kesler's construction, as LIBOL's ``M_ROMMA.m`` and
``M_aROMMA.m`` write it.

W is one vector of k d numbers; the round's constraint is W . z >= 1 for the Kesler vector
z = (e_y - e_r) (x) x (r the runner-up), so W . z = s_y - s_r = m and ||z||^2 = 2 ||x||^2.
With N = ||W||_F^2 and X = 2 ||x||^2::

    W = 0 or m >= N X:  W <- z / X
    otherwise:          D = N X - m^2,  c = (N X - m) / D,  d = N (1 - m) / D,
                        W <- c W + d z    (W_y += d x, W_r -= d x after the scaling)

on a mistake (ROMMA) or whenever m < 1 (aggressive ROMMA). D = 0 (z parallel to W): no
step; a zero row: no step.

``libol=True`` is LIBOL's code: the first step from W = 0 is z itself (not z / X), the case
m >= N X is not taken (the two-constraint step always), the mistake test is the predicted
class against y, and **only rows y and r are scaled by c** (``W = W*c_t`` is assigned to a
copy of which only those two rows are written back), where Kesler's construction scales all
of W.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.multiclass import is_class_mistake, move_pair, score_predict, scored_runner_up
from olbench.rules.rows import dense_dot, scale, sqnorm

Params = namedtuple("Params", ["libol", "aggressive"])


@inline
def _step(params, idx, val, y, margin, w, s):
    X = 2.0 * sqnorm(val)
    if X == 0.0:
        return False
    rival = scored_runner_up(w, s, y)
    N = 0.0
    for r in range(w.shape[0]):
        N += dense_dot(w[r], w[r])
    if N == 0.0:
        move_pair(w, y, rival, 1.0 if params.libol else 1.0 / X, idx, val)
        return True
    if margin >= N * X and not params.libol:
        for r in range(w.shape[0]):
            for j in range(w.shape[1]):
                w[r, j] = 0.0
        move_pair(w, y, rival, 1.0 / X, idx, val)
        return True
    D = N * X - margin * margin
    if D <= 0.0:
        return False
    c = (N * X - margin) / D
    d = N * (1.0 - margin) / D
    if params.libol:
        scale(w[y], c)
        scale(w[rival], c)
    else:
        for r in range(w.shape[0]):
            scale(w[r], c)
    move_pair(w, y, rival, d, idx, val)
    return True


@inline
def update(params, idx, val, y, predicted, margin, w, A, s):
    if params.aggressive:
        if margin >= 1.0:
            return False
    elif not is_class_mistake(y, margin, predicted, params.libol):
        return False
    return _step(params, idx, val, y, margin, w, s)


#: one rule for both (one set of loops to compile): ``aggressive`` picks aggressive ROMMA
RULE = make_rule("multiclass_romma", score_predict, update, multiclass=True)
