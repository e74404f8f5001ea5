"""The multiclass second-order rules as LIBOL writes them (``M_AROW.m``, ``M_CW.m``,
``M_SCW1.m``, ``M_SCW2.m``): one covariance Sigma (d x d, shared by the k rows of W, or its
diagonal), the runner-up r and margin m = s_y - s_r, v = x' Sigma x, and the step::

    W_y <- W_y + alpha Sigma x,   W_r <- W_r - alpha Sigma x,
    Sigma <- Sigma - beta Sigma x x' Sigma

* AROW (Crammer, Kulesza, Dredze, NIPS 2009; LIBOL's multiclass form), on m < 1:
  beta = 1 / (v + r), alpha = (1 - m) beta.
* CW / SCW-I / SCW-II (Crammer, Dredze, Pereira, NIPS 2008; Wang, Zhao, Hoi, ICML 2012 --
  the coefficients of LIBOL's multiclass code, not the binary papers' with v doubled), with
  phi = Phi^-1(confidence), psi = 1 + phi^2/2, on m < phi sqrt(v)::

      SCW-I:  alpha = min(C, max(0, (-m psi + sqrt(m^2 psi^2 - m^2 psi
                                                   + 2 v phi^2 psi)) / (2 v psi)))
      CW:     the same without the cap C (LIBOL's ``M_CW.m``)
      SCW-II: n = 2 v + 1/(2C),
              alpha = max(0, (-(2 m n + phi^2 m v)
                              + sqrt(phi^4 m^2 v^2 + 8 n v phi^2 (n + v phi^2)))
                             / (2 (n^2 + n v phi^2)))
      u = (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 8 v))^2 / 8,
      beta = alpha phi / (sqrt(2 u) + alpha phi v)

Without SCW-I's cap, CW's Sigma can lose positive definiteness on real data (LIBOL's glass
within about 200 rounds at confidence 0.75): v <= 0 on a nonzero row is then NaN
(:func:`olbench.rules.covariance.positive_form`), which reaches the output, where the run
stops with an error naming it, never continuing on NaN.

Full Sigma as :mod:`olbench.rules.arow` keeps it (``A[:d]``, a scratch row ``A[d]`` for
Sigma x); diagonal: ``A[0]`` = diag(Sigma), downdated on its diagonal only.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import (
    diag_axpy,
    diag_downdate,
    full_sigma_x,
    positive_form,
    rank_one_downdate,
)
from olbench.rules.cw import nonnegative_part
from olbench.rules.loop import make_rule
from olbench.rules.multiclass import score_predict, scored_runner_up
from olbench.rules.reductions import diag_quad
from olbench.rules.rows import axpy

#: kind: 0 AROW, 1 CW, 2 SCW-I, 3 SCW-II; r: AROW's; phi = Phi^-1(confidence); C: SCW's
Params = namedtuple("Params", ["kind", "r", "phi", "C"])
AROW, CW, SCW1, SCW2 = 0, 1, 2, 3


@inline
def coefficients(params, m, v):
    """(fires, alpha, beta) of the round: fires when its constraint fails (an update, as
    LIBOL counts it, even if alpha is 0). Tests are written as "not satisfied", so that a
    NaN v takes the step and reaches the output."""
    if params.kind == AROW:
        if not m < 1.0:
            return False, 0.0, 0.0
        beta = 1.0 / (v + params.r)
        return True, (1.0 - m) * beta, beta
    phi = params.phi
    if phi * math.sqrt(v) - m <= 0.0:
        return False, 0.0, 0.0
    if params.kind == SCW2:
        n = 2.0 * v + 1.0 / (2.0 * params.C)
        root = math.sqrt(phi ** 4 * m * m * v * v + 8.0 * n * v * phi * phi * (n + v * phi * phi))
        alpha = nonnegative_part((-(2.0 * m * n + phi * phi * m * v) + root)
                                 / (2.0 * (n * n + n * v * phi * phi)))
    else:
        psi = 1.0 + phi * phi / 2.0
        alpha = nonnegative_part((-m * psi + math.sqrt(m * m * psi * psi - m * m * psi
                                                       + 2.0 * v * phi * phi * psi))
                                 / (2.0 * v * psi))
        if params.kind == SCW1:
            alpha = min(alpha, params.C)
    u = (-alpha * v * phi + math.sqrt(alpha * alpha * v * v * phi * phi + 8.0 * v)) ** 2 / 8.0
    return True, alpha, alpha * phi / (math.sqrt(2.0 * u) + alpha * phi * v)


@inline
def update_full(params, idx, val, y, predicted, margin, w, A, s):
    sigma_x, v = full_sigma_x(A, idx, val)
    fires, alpha, beta = coefficients(params, margin, v)
    if not fires:
        return False
    rival = scored_runner_up(w, s, y)
    axpy(w[y], alpha, None, sigma_x)
    axpy(w[rival], -alpha, None, sigma_x)
    rank_one_downdate(A, beta, sigma_x)
    return True


@inline
def update_diag(params, idx, val, y, predicted, margin, w, A, s):
    diag = A[0]
    v = positive_form(diag_quad(diag, idx, val), val)
    fires, alpha, beta = coefficients(params, margin, v)
    if not fires:
        return False
    rival = scored_runner_up(w, s, y)
    diag_axpy(w[y], alpha, diag, idx, val)
    diag_axpy(w[rival], -alpha, diag, idx, val)
    diag_downdate(diag, beta, idx, val)
    return True


FULL = make_rule("multiclass_covariance.full", score_predict, update_full, multiclass=True)
DIAGONAL = make_rule("multiclass_covariance.diag", score_predict, update_diag, multiclass=True)
