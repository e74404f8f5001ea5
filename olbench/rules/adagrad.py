"""Diagonal AdaGrad with an L1 term (Duchi, Hazan & Singer, "Adaptive subgradient methods for
online learning and stochastic optimization", JMLR 12, 2011): its composite mirror descent
and its primal-dual (dual averaging) forms, per coordinate, with
H_{t,jj} = delta + sqrt(n_j), n_j = sum_{s<=t} g_{s,j}^2 the squared gradients so far.

Composite mirror descent (``A`` = [n, anchor, round of the anchor])::

    v = w_{t,j} - eta g_{t,j} / H_{t,jj}
    w_{t+1,j} = sgn(v) max(0, |v| - eta l1 / H_{t,jj})

Dual averaging (``A`` = [n, G], G_j = sum_{s<=t} g_{s,j}, gbar = G / t)::

    w_{t+1,j} = -sgn(gbar_j) (eta t / H_{t,jj}) max(0, |gbar_j| - l1)

Lazily (:mod:`olbench.rules.lazy`): between two rows that touch coordinate j its H_jj is
constant, so mirror descent shrinks it by eta l1 / H_jj a round: after the anchor of round
tau it is shrink(anchor, (t - tau) eta l1 / H_jj); dual averaging is a closed form of
(n_j, G_j, t). A coordinate no gradient ever reached with delta = 0 has H = 0: it is 0 (the
proximal step of an L1 term with no quadratic to hold it). ``s[0]`` = rounds seen; ``s[1]``
= the largest |w_j| any update has set (mirror descent; the lazy steps only shrink): with it
the regret theorem bounds max_t ||u - w_t||_inf (:mod:`olbench.bounds.sparse`).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.lazy import lazy_rules, next_round, shrink
from olbench.rules.loop import make_rule
from olbench.rules.rows import entry, n_entries

Params = namedtuple("Params", ["loss", "eta", "delta", "l1"])


@inline
def _scale(params, n):
    """H_jj = delta + sqrt(n_j)."""
    return params.delta + math.sqrt(n)


@inline
def current_mirror(params, j, A, s):
    rounds = s[0] - A[2, j]
    if rounds == 0.0 or params.l1 == 0.0:
        return A[1, j]
    scale = _scale(params, A[0, j])
    if scale == 0.0:
        return 0.0
    return shrink(A[1, j], rounds * (params.eta * params.l1 / scale))


@inline
def current_dual(params, j, A, s):
    t = s[0]
    scale = _scale(params, A[0, j])
    if t == 0.0 or scale == 0.0:
        return 0.0
    average = A[1, j] / t
    return -math.copysign(params.eta * t / scale * max(0.0, abs(average) - params.l1),
                          average)


predict_mirror, catch_up_mirror = lazy_rules("adagrad.mirror_descent", current_mirror)
predict_dual, catch_up_dual = lazy_rules("adagrad.dual_averaging", current_dual)


@inline
def _update(params, idx, val, y, margin, w, A, s, mirror):
    gradient = next_round(params, y, margin, s)
    if gradient == 0.0:
        return False
    for k in range(n_entries(idx, val)):
        j, x = entry(idx, val, k)
        g = gradient * x
        if g == 0.0:
            continue            # n_j, G_j and H_jj unchanged: the lazy closed form holds
        A[0, j] += g * g
        if mirror:
            scale = _scale(params, A[0, j])
            value = shrink(w[j] - params.eta * g / scale, params.eta * params.l1 / scale)
            w[j] = value
            A[1, j] = value
            A[2, j] = s[0]
            s[1] = max(s[1], abs(value))
        else:
            A[1, j] += g
    return True


@inline
def update_mirror(params, idx, val, y, margin, w, A, s):
    return _update(params, idx, val, y, margin, w, A, s, True)


@inline
def update_dual(params, idx, val, y, margin, w, A, s):
    return _update(params, idx, val, y, margin, w, A, s, False)


RULES = {"mirror_descent": (make_rule("adagrad.mirror_descent", predict_mirror, update_mirror),
                            catch_up_mirror),
         "dual_averaging": (make_rule("adagrad.dual_averaging", predict_dual, update_dual),
                            catch_up_dual)}
