"""Pegasos (Shalev-Shwartz, Singer & Srebro, "Pegasos: primal estimated sub-gradient solver
for SVM", ICML 2007), one example per step (k = 1).

Round t, eta_t = 1 / (l2 t), g = l'(p_t) (hinge in the paper)::

    w_{t+1/2} = (1 - eta_t l2) w_t - eta_t g x_t
    w_{t+1}   = min(1, (1/sqrt(l2)) / ||w_{t+1/2}||) w_{t+1/2}     (the optional projection)

w = a v, a scalar times a vector (``s[1]``, ``A[0]``), so that the shrink and the
projection, which move every coordinate, are one multiplication of a; ``s[2]`` = ||v||^2, kept
up to date from the coordinates each step changes, gives ||w|| = |a| sqrt(s[2]). At t = 1 the
shrink is 1 - 1 = 0: a is set to 1 and v cleared (once, O(d)) if it may hold a given w0
(``s[3]`` = 1), so that a run from w0 = 0 costs O(non-zeros) from its first round. When a
falls below 1e-100, v is multiplied by it and a set to 1 (an O(d) pass), so nothing
underflows. ``s[0]`` = rounds.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.lazy import lazy_rules, next_round
from olbench.rules.loop import make_rule
from olbench.rules.rows import entry, n_entries

Params = namedtuple("Params", ["loss", "l2", "project"])

#: the scale a below which a is folded into v
FOLD_BELOW = 1e-100


@inline
def current(params, j, A, s):
    return s[1] * A[0, j]


predict, catch_up = lazy_rules("pegasos", current)


@inline
def _fold(A, s, factor):
    """v <- factor v, with ||v||^2 to match (an O(d) pass)."""
    for j in range(A.shape[1]):
        A[0, j] *= factor
    s[2] *= factor * factor


@inline
def update(params, idx, val, y, margin, w, A, s):
    gradient = next_round(params, y, margin, s)
    step = 1.0 / (params.l2 * s[0])
    s[1] *= 1.0 - step * params.l2
    if s[1] == 0.0:                  # t = 1: w_{3/2} forgets w_1
        if s[3] != 0.0:
            _fold(A, s, 0.0)
            s[3] = 0.0
        s[1] = 1.0
    if gradient != 0.0:
        c = -step * gradient / s[1]
        for k in range(n_entries(idx, val)):
            j, x = entry(idx, val, k)
            old = A[0, j]
            new = old + c * x
            A[0, j] = new
            s[2] += new * new - old * old
        s[2] = max(s[2], 0.0)
    if params.project:
        norm = abs(s[1]) * math.sqrt(s[2])
        radius = 1.0 / math.sqrt(params.l2)
        if norm > radius:
            s[1] *= radius / norm
    if abs(s[1]) < FOLD_BELOW:
        _fold(A, s, s[1])
        s[1] = 1.0
    return gradient != 0.0


RULE = make_rule("pegasos", predict, update)
