"""Normal Herding, NHERD (Crammer & Lee, "Learning via Gaussian Herding", NIPS 2010).

On y m < 1 with m = mu.x and v = x' Sigma x (the paper's full-covariance update)::

    mu <- mu + max(0, 1 - y m) / (v + 1/C) y Sigma x
    Sigma <- Sigma - (C^2 v + 2 C) / (1 + C v)^2 Sigma x x' Sigma

i.e. Sigma^-1 <- Sigma^-1 + (C^2 v + 2 C) x x'. The paper's three diagonal forms, with
S = diag(Sigma): ``drop`` keeps the diagonal of the full update,
S_r <- S_r - (C^2 v + 2C)/(1 + C v)^2 S_r^2 x_r^2; ``project`` updates the inverse and keeps
its diagonal, S_r <- 1 / (1/S_r + (C^2 v + 2C) x_r^2); ``exact`` runs the herding dynamics
per coordinate, S_r <- S_r / (1 + C S_r x_r^2)^2. ``A`` as in :mod:`olbench.rules.arow`.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import (
    diag_axpy,
    diag_downdate,
    diag_project,
    full_sigma_x,
    full_step,
    positive_form,
)
from olbench.rules.loop import make_rule
from olbench.rules.rows import diag_quad, linear_predict

Params = namedtuple("Params", ["C"])


@inline
def update_full(params, idx, val, y, margin, w, A, s):
    if y * margin >= 1.0:
        return False
    sigma_x, v = full_sigma_x(A, idx, val)
    C = params.C
    full_step(w, A, sigma_x, (1.0 - y * margin) * y / (v + 1.0 / C),
              (C * C * v + 2.0 * C) / ((1.0 + C * v) * (1.0 + C * v)))
    return True


_DROP, _PROJECT, _EXACT = 0, 1, 2


@inline
def _update_diag(params, idx, val, y, margin, w, A, how):
    if y * margin >= 1.0:
        return False
    C, diag = params.C, A[0]
    v = positive_form(diag_quad(diag, idx, val), val)
    diag_axpy(w, (1.0 - y * margin) * y / (v + 1.0 / C), diag, idx, val)
    if how == _DROP:
        diag_downdate(diag, (C * C * v + 2.0 * C) / ((1.0 + C * v) * (1.0 + C * v)), idx, val)
    elif how == _PROJECT:
        diag_project(diag, C * C * v + 2.0 * C, False, idx, val)
    else:
        diag_project(diag, C, True, idx, val)
    return True


@inline
def update_drop(params, idx, val, y, margin, w, A, s):
    return _update_diag(params, idx, val, y, margin, w, A, _DROP)


@inline
def update_project(params, idx, val, y, margin, w, A, s):
    return _update_diag(params, idx, val, y, margin, w, A, _PROJECT)


@inline
def update_exact(params, idx, val, y, margin, w, A, s):
    return _update_diag(params, idx, val, y, margin, w, A, _EXACT)


RULES = {"full": make_rule("nherd.full", linear_predict, update_full),
           "drop": make_rule("nherd.drop", linear_predict, update_drop),
           "project": make_rule("nherd.project", linear_predict, update_project),
           "exact": make_rule("nherd.exact", linear_predict, update_exact)}
