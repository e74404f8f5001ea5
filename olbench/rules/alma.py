"""ALMA_2, the Approximate Large Margin Algorithm with p = 2 (Gentile, JMLR 2, 2001).

k counts corrections (k = 1 before the first); ``s[0]`` holds k. With x^ = x / ||x||::

    gamma_k = B / sqrt(k),  eta_k = eta / sqrt(k)   (the paper's C is eta here)
    if y w.x^ <= (1 - alpha) gamma_k:
        w <- w + eta_k y x^,  w <- w / max(1, ||w||),  k <- k + 1

``libol=True`` is LIBOL's ``ALMA.m`` (and river's ``ALMAClassifier``): x is not normalised and
the test is strict, y w.x < (1 - alpha) gamma_k. A zero row cannot be normalised and gives no
correction (LIBOL's test passes on it: k grows, w stays). LIBOL's p enters as
``root`` = sqrt(p - 1): gamma_k = B root / sqrt(k), eta_k = eta / (root sqrt(k)) (root = 1
for p = 2, the only p without ``libol``; 1.0 leaves every product and quotient unchanged).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, linear_predict, project_l2_ball, sqnorm

Params = namedtuple("Params", ["alpha", "B", "eta", "root", "libol"])


@inline
def update(params, idx, val, y, margin, w, A, s):
    k = s[0]
    threshold = (1.0 - params.alpha) * params.B * params.root / math.sqrt(k)
    if params.libol:
        scale = 1.0
        if not y * margin < threshold:
            return False
    else:
        sq = sqnorm(val)
        if sq == 0.0:
            return False
        scale = 1.0 / math.sqrt(sq)
        if not y * margin * scale <= threshold:
            return False
    axpy(w, params.eta / (params.root * math.sqrt(k)) * y * scale, idx, val)
    project_l2_ball(w, 1.0)
    s[0] = k + 1.0
    return True


RULE = make_rule("alma", linear_predict, update)
