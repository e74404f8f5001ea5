"""AROW (Crammer, Kulesza, Dredze, NIPS 2009, Fig. 1) and its regression form, RLS.

Classification, on y m < 1 with m = mu.x, v = x' Sigma x::

    beta = 1 / (v + r),  alpha = max(0, 1 - y m) beta
    mu <- mu + alpha y Sigma x,  Sigma <- Sigma - beta Sigma x x' Sigma

Regression (AROW for regression, Vaits & Crammer, ALT 2011; = recursive least squares with
P_0 = a I and noise variance r), on every round::

    mu <- mu + (y - m) Sigma x / (v + r),  Sigma <- Sigma - Sigma x x' Sigma / (v + r)

Both are mu += e beta Sigma x, Sigma -= beta Sigma x x' Sigma with e = (1 - y m) y or y - m,
so one step serves both tasks. Full covariance: ``A[:d]`` = Sigma (d x d; from 96 features
on its lower triangle only, see :mod:`olbench.rules.rows`) and ``A[d]`` is scratch for
Sigma x. Diagonal: ``A`` = one row holding diag(Sigma), downdated on its diagonal only (the
paper's diagonal approximation), and ``s[0]`` scratch for x' Sigma x, which the diagonal
form's ``predict`` takes in the same pass as mu.x.
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import diag_step, full_sigma_x, full_step, positive_form
from olbench.rules.loop import make_rule
from olbench.rules.rows import dot_and_diag_quad, linear_predict

Params = namedtuple("Params", ["r"])


@inline
def _step_full(params, idx, val, e, w, A):
    # Sigma x goes to the scratch row after Sigma (allocating costs 20% at d = 20)
    sigma_x, v = full_sigma_x(A, idx, val)
    if v <= 0.0:
        return
    beta = 1.0 / (v + params.r)
    full_step(w, A, sigma_x, e * beta, beta)


@inline
def predict_diag(params, idx, val, w, A, s):
    """w . x, and x' Sigma x in the same pass over the row, left in s[0] for ``update``
    (which the loops call right after ``predict`` on the same row; 82 % of AROW's rounds
    update on the benchmark stream, so reading x once for both pays)."""
    margin, quad = dot_and_diag_quad(w, A[0], idx, val)
    s[0] = quad
    return margin


@inline
def _step_diag(params, idx, val, e, w, A, s):
    diag = A[0]
    v = positive_form(s[0], val)    # x' Sigma x, left by predict_diag for this row
    if v <= 0.0:
        return
    beta = 1.0 / (v + params.r)
    diag_step(w, diag, e * beta, beta, idx, val)


@inline
def update_full(params, idx, val, y, margin, w, A, s):
    if y * margin >= 1.0:
        return False
    _step_full(params, idx, val, (1.0 - y * margin) * y, w, A)
    return True


@inline
def update_diag(params, idx, val, y, margin, w, A, s):
    if y * margin >= 1.0:
        return False
    _step_diag(params, idx, val, (1.0 - y * margin) * y, w, A, s)
    return True


@inline
def update_regression_full(params, idx, val, y, margin, w, A, s):
    _step_full(params, idx, val, y - margin, w, A)
    return True


@inline
def update_regression_diag(params, idx, val, y, margin, w, A, s):
    _step_diag(params, idx, val, y - margin, w, A, s)
    return True


CLASSIFICATION = {
    False: make_rule("arow.full", linear_predict, update_full),
    True: make_rule("arow.diag", predict_diag, update_diag),
}
REGRESSION = {
    False: make_rule("arow.regression_full", linear_predict, update_regression_full),
    True: make_rule("arow.regression_diag", predict_diag, update_regression_diag),
}
