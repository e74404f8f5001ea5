"""Second-order Perceptron (Cesa-Bianchi, Conconi, Gentile, SIAM J. Comput. 34(3), 2005).

The paper predicts with w_t = (a I + S S' + x_t x_t')^-1 v, where S holds the examples of the
mistaken rounds so far and v = sum of y_s x_s over them; on a mistake v <- v + y x and x
joins S. Kept here as Sigma = (a I + S S')^-1 (``A[:d]``, kept as AROW's, from I / a) and
w = Sigma v (the ``w`` slot). With Sigma x, r = x' Sigma x and Sherman-Morrison,
w_t.x = (w.x) / (1 + r), and a round that adds x to S does::

    w <- w + (e - w.x) / (1 + r) Sigma x,   Sigma <- Sigma - Sigma x x' Sigma / (1 + r)

with e = y on a mistake (v grows) and e = 0 otherwise. The paper adds x to S on mistakes
only; ``every_round=True`` (LIBOL's ``SOP.m``) adds every x, so Sigma is the inverse of
a I + all x x' seen.

``predict`` leaves Sigma x in the scratch row ``A[d]``; ``update``, which the loops always call
right after ``predict`` on the same row, reuses it (one d x d product per round, not two).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import positive_form, rank_one_downdate, symmetric_matvec
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, dot, is_mistake

Params = namedtuple("Params", ["every_round", "libol_tie"])


@inline
def predict(params, idx, val, w, A, s):
    sigma_x = A[w.shape[0]]
    symmetric_matvec(A, idx, val, sigma_x)
    return dot(w, idx, val) / (1.0 + positive_form(dot(sigma_x, idx, val), val))


@inline
def update(params, idx, val, y, margin, w, A, s):
    mistake = is_mistake(y, margin, params.libol_tie)
    if not (mistake or params.every_round):
        return False
    sigma_x = A[w.shape[0]]                  # Sigma x, left by predict for this row
    beta = 1.0 / (1.0 + dot(sigma_x, idx, val))
    e = y if mistake else 0.0
    axpy(w, (e - dot(w, idx, val)) * beta, None, sigma_x)
    rank_one_downdate(A, beta, sigma_x)
    return mistake


RULE = make_rule("sop", predict, update)
