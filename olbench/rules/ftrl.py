"""Follow the Regularised Leader on linearised losses (Orabona 2019, "A Modern Introduction
to Online Learning", Sec. 7; Shalev-Shwartz 2012, Sec. 2.3; lazy projection / dual averaging).

w_{t+1} = argmin_{w in K} <G_t, w> + psi(w)/a_{t+1}, with G_t = sum_{s<=t} g_s the gradients
g_s = grad f_s(w_s) at the points played (``A[0]``), and a_t = eta (``sqrt_schedule`` false)
or eta/sqrt(t). Closed forms:

* quadratic regulariser psi(w) = (1/2)||w||^2: w_{t+1} = P_K(-a_{t+1} G_t) (the "lazy
  projection" of Zinkevich's OGD);
* entropic regulariser psi(w) = sum_i w_i ln w_i on the simplex: w_{t+1,i} proportional to
  exp(-a_{t+1} G_{t,i}).

w_1 = P_K(0) (uniform on the simplex). ``A[1]`` and ``A[2]`` are scratch for the projection;
``s[0]`` counts rounds.
"""

import math
from collections import namedtuple

from olbench._jit import inline, inline_allocating
from olbench.rules.loop import make_rule
from olbench.rules.oco import add_gradient, exponential_weights, oco_predict
from olbench.rules.sets import project

Params = namedtuple("Params", ["loss", "set_code", "radius", "eta", "sqrt_schedule",
                               "entropic"])


@inline
def rate(params, t):
    """a_t, the regulariser's weight 1/a_t at round t (1-based)."""
    return params.eta / math.sqrt(t) if params.sqrt_schedule else params.eta


@inline_allocating
def update(params, idx, val, y, margin, w, A, s):
    G = A[0]
    add_gradient(G, 1.0, params.loss, idx, val, w)
    s[0] += 1.0
    a = rate(params, s[0] + 1.0)
    if params.entropic:
        exponential_weights(G, a, w)
    else:
        target = A[1]
        for j in range(G.shape[0]):
            target[j] = -a * G[j]
        project(target, params.set_code, params.radius, w, A[2])
    return True


RULE = make_rule("ftrl", oco_predict, update, allocates=True)  # sorts
