"""FOBOS, forward-backward splitting (Duchi & Singer, "Efficient online and batch learning
using forward backward splitting", JMLR 10, 2009), with the elastic-net regulariser
r(w) = l1 ||w||_1 + (l2/2) ||w||^2 (l1 alone, l2 alone, or both).

Round t, with g = l'(p_t) and eta_t = eta or eta/sqrt(t)::

    v = w_t - eta_t g x_t                                    (the forward step)
    w_{t+1} = argmin_w (1/2)||w - v||^2 + eta_t r(w)         (the backward step)
            = sgn(v) max(0, |v| - eta_t l1) / (1 + eta_t l2)  per coordinate

(the regulariser's step eta_{t+1/2} taken equal to eta_t). Lazily (:mod:`olbench.rules.lazy`):
over rounds no row touches, a coordinate's magnitude follows
m_s = max(0, m_{s-1} - a_s) / (1 + b_s) (a_s = eta_s l1, b_s = eta_s l2), so with the running
product P_t = prod (1 + b_s) and total C_t = sum a_s P_{s-1} (``s[2]``, ``s[1]``),
P_t m_t = P_tau m_tau - (C_t - C_tau): each coordinate keeps one number, its potential
``A[0]`` = sgn(w_tau) (P_tau |w_tau| + C_tau), and is max(0, |A[0]| - C_t) / P_t now. When P
passes 1e100 all potentials, P and C are divided by P (an O(d) pass, every
ln(1e100)/ln(1 + eta l2) rounds at the least), so nothing overflows. ``s[0]`` = rounds seen.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.lazy import lazy_rules, next_round, shrink
from olbench.rules.loop import make_rule
from olbench.rules.rows import entry, n_entries

Params = namedtuple("Params", ["loss", "eta", "sqrt_schedule", "l1", "l2"])

#: P beyond which the potentials are rescaled (P and C back to 1 and C / P)
RESCALE_AT = 1e100


@inline
def current(params, j, A, s):
    magnitude = abs(A[0, j]) - s[1]
    if magnitude <= 0.0:
        return 0.0
    return math.copysign(magnitude / s[2], A[0, j])


predict, catch_up = lazy_rules("fobos", current)


@inline
def update(params, idx, val, y, margin, w, A, s):
    gradient = next_round(params, y, margin, s)
    eta = params.eta / math.sqrt(s[0]) if params.sqrt_schedule else params.eta
    shrinkage, decay = eta * params.l1, 1.0 + eta * params.l2
    s[1] += shrinkage * s[2]
    s[2] *= decay
    if gradient != 0.0:
        for k in range(n_entries(idx, val)):
            j, x = entry(idx, val, k)
            v = w[j] - eta * gradient * x                 # w[j] brought up to date by predict
            value = shrink(v, shrinkage) / decay
            w[j] = value
            A[0, j] = math.copysign(s[2] * abs(value) + s[1], v)
    if s[2] > RESCALE_AT:
        for j in range(A.shape[1]):
            A[0, j] /= s[2]
        s[1] /= s[2]
        s[2] = 1.0
    return gradient != 0.0


RULE = make_rule("fobos", predict, update)
