"""Follow the Leader: play a minimiser of the losses seen so far (e.g. Shalev-Shwartz 2012,
"Online Learning and Online Convex Optimization", Sec. 2.2; Hazan 2016, Sec. 5.1).

w_{t+1} = argmin_{w in K} sum_{s<=t} f_s(w), in closed form for the losses of
:mod:`olbench.rules.oco` with S = sum_{s<=t} x_s (kept in ``A[0]``):

* linear: argmin_K <S, w>: on the ball -D S/||S||; on the box -D sign(S_i); on the simplex
  the uniform weights over the coordinates with the smallest S_i (the leaders); on the l1
  ball -D sign(S_i)/k on the k coordinates of largest |S_i|;
* quadratic: sum_s (1/2)||w - x_s||^2 = (t/2)||w - S/t||^2 + const, so w = P_K(S/t).

Before any loss (and for a linear S = 0 on the ball or box) w = P_K(0). ``A[1]`` is scratch
for the simplex projection; ``s[0]`` counts rounds.
"""

import math
from collections import namedtuple

from olbench._jit import inline, inline_allocating
from olbench.rules.loop import make_rule
from olbench.rules.oco import QUADRATIC, oco_predict
from olbench.rules.rows import axpy
from olbench.rules.sets import BALL, BOX, L1, project

Params = namedtuple("Params", ["loss", "set_code", "radius"])


@inline
def _linear_leader(S, set_code, radius, w):
    if set_code == BALL:
        norm = 0.0
        for j in range(S.shape[0]):
            norm += S[j] * S[j]
        norm = math.sqrt(norm)
        for j in range(S.shape[0]):
            w[j] = -radius * S[j] / norm if norm > 0.0 else 0.0
    elif set_code == BOX:
        for j in range(S.shape[0]):
            w[j] = -radius if S[j] > 0.0 else (radius if S[j] < 0.0 else 0.0)
    elif set_code == L1:
        high = 0.0
        for j in range(S.shape[0]):
            high = max(high, abs(S[j]))
        leaders = 0
        for j in range(S.shape[0]):
            leaders += abs(S[j]) == high
        for j in range(S.shape[0]):
            w[j] = -radius * math.copysign(1.0, S[j]) / leaders if (
                abs(S[j]) == high and high > 0.0) else 0.0
    else:
        low = S[0]
        for j in range(S.shape[0]):
            low = min(low, S[j])
        leaders = 0
        for j in range(S.shape[0]):
            leaders += S[j] == low
        for j in range(S.shape[0]):
            w[j] = 1.0 / leaders if S[j] == low else 0.0


@inline_allocating
def update(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    S = A[0]
    axpy(S, 1.0, idx, val)
    if params.loss == QUADRATIC:
        mean = A[1]
        for j in range(S.shape[0]):
            mean[j] = S[j] / s[0]
        project(mean, params.set_code, params.radius, w, A[2])
    else:
        _linear_leader(S, params.set_code, params.radius, w)
    return True


RULE = make_rule("ftl", oco_predict, update, allocates=True)  # sorts
