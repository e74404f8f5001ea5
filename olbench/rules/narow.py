"""NAROW (Orabona & Crammer, "New adaptive algorithms for online classification", NIPS 2010),
as in the first author's implementation (DOGMA's narow_train.m), and LIBOL's NAROW.m.

With chi = x' Sigma x (Sigma = A_{t-1}^-1) and r = chi / (b chi - 1) when b chi > 1, else
r = inf, the paper adds x x' / r to A *before* predicting, so the prediction is
p = x' (A_{t-1} + x x'/r)^-1 theta = mu.x r / (r + chi) = mu.x / max(1, b chi), with
mu = Sigma theta. On y p < 1: theta <- theta + y x and A_t = A_{t-1} + x x' / r, i.e.::

    mu <- mu + (y r - mu.x) / (r + chi) Sigma x        (mu <- mu + y Sigma x when r = inf)
    Sigma <- Sigma - Sigma x x' Sigma / (r + chi)       (no change when r = inf)

where 1/(r + chi) = (b chi - 1) / (b chi^2) and r/(r + chi) = 1/(b chi).

LIBOL (``libol``) predicts with the mean, p = mu.x, and on y p < 1 takes AROW's step with
r = r_t, i.e. theta <- theta + y x / r (no step at all while b chi <= 1)::

    mu <- mu + max(0, 1 - y p) / (chi + r) y Sigma x,   Sigma as above.

``A`` as in :mod:`olbench.rules.arow`. The paper's predict leaves Sigma x in the scratch row,
where its update (always run next, on the same row) finds it.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import full_sigma_x, full_step
from olbench.rules.loop import make_rule
from olbench.rules.rows import axpy, dot, linear_predict

Params = namedtuple("Params", ["b"])


@inline
def predict(params, idx, val, w, A, s):
    _, chi = full_sigma_x(A, idx, val)      # Sigma x stays in the scratch row
    bchi = params.b * chi
    return dot(w, idx, val) / (1.0 if bchi <= 1.0 else bchi)   # max(1, b chi), NaN kept


@inline
def update(params, idx, val, y, margin, w, A, s):
    if y * margin >= 1.0:
        return False
    sigma_x = A[w.shape[0]]      # Sigma x, left there by predict
    chi = dot(sigma_x, idx, val)
    bchi = params.b * chi
    if not bchi <= 1.0:          # NaN chi (covariance.positive_form) steps, and reaches the output
        beta = (bchi - 1.0) / (bchi * chi)
        full_step(w, A, sigma_x, y / bchi - dot(w, idx, val) * beta, beta)
    else:
        axpy(w, y, None, sigma_x)
    return True


@inline
def update_libol(params, idx, val, y, margin, w, A, s):
    if y * margin >= 1.0:
        return False
    sigma_x, chi = full_sigma_x(A, idx, val)
    if not params.b * chi <= 1.0:
        beta = 1.0 / (chi + chi / (params.b * chi - 1.0))
        full_step(w, A, sigma_x, (1.0 - y * margin) * beta * y, beta)
    return True


RULES = {False: make_rule("narow", predict, update),
           True: make_rule("narow.libol", linear_predict, update_libol)}
