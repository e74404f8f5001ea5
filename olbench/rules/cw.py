"""Confidence-weighted rules: CW (both forms) and soft CW (SCW-I, SCW-II).

All keep a Gaussian N(mu, Sigma) over weight vectors and, with m = y mu.x and
v = x' Sigma x, take the same step when the confidence constraint is violated::

    mu <- mu + alpha y Sigma x,    Sigma^-1 <- Sigma^-1 + c x x'

i.e. Sigma <- Sigma - beta Sigma x x' Sigma with beta = c / (1 + c v). Only (alpha, c) and the
constraint differ; phi = Phi^-1(confidence), the papers' eta:

* CW, stdev form (Crammer, Dredze, Pereira, NIPS 2008, "exact convex CW"): fires on
  m < phi sqrt(v); psi = 1 + phi^2/2, xi = 1 + phi^2,
  alpha = max(0, (-m psi + sqrt(m^2 phi^4 / 4 + v phi^2 xi)) / (v xi)),
  sqrt(u) = (-alpha v phi + sqrt(alpha^2 v^2 phi^2 + 4 v)) / 2, c = alpha phi / sqrt(u)
  (so beta = alpha phi / (sqrt(u) + v alpha phi), the paper's form).
* CW, variance form (Dredze, Crammer, Pereira, ICML 2008, Alg. 1): fires on m < phi v;
  alpha = max(0, (-(1 + 2 phi m) + sqrt((1 + 2 phi m)^2 - 8 phi (m - phi v))) / (4 phi v)),
  c = 2 alpha phi.
* SCW-I (Wang, Zhao, Hoi, ICML 2012): the stdev form with alpha capped at C (CW is C = inf).
* SCW-II: fires on m < phi sqrt(v); n = v + 1/(2C),
  gamma = phi sqrt(phi^2 m^2 v^2 + 4 n v (n + v phi^2)),
  alpha = max(0, (-(2 m n + phi^2 m v) + gamma) / (2 (n^2 + n v phi^2))); sqrt(u), c as CW.
  ``libol``: LIBOL's SCW2.m computes gamma as sqrt(phi^4 m^2 v 2 + 4 n v phi^2 (n + 2 v phi)).

Full covariance: ``A[:d]`` = Sigma (as AROW keeps it), ``A[d]`` scratch for Sigma x (as
AROW). Diagonal: ``A[0]`` = diag(Sigma), updated by the papers' diagonal rule, the inverse
update projected on the diagonal: Sigma_rr^-1 <- Sigma_rr^-1 + c x_r^2.
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.covariance import diag_axpy, diag_project, full_sigma_x, full_step, positive_form
from olbench.rules.loop import make_rule
from olbench.rules.rows import diag_quad, linear_predict

#: phi = Phi^-1(confidence); C: SCW's cap (inf for CW); variance: ICML 2008 form; soft2: SCW-II
Params = namedtuple("Params", ["phi", "C", "variance", "soft2", "libol"])


@inline
def violated(params, m, v):
    """The confidence constraint fails: m < phi v (variance form) or m < phi sqrt(v). Written
    as "not satisfied" so that a NaN v (covariance.positive_form) takes the step and reaches the
    output, instead of passing for a satisfied constraint."""
    if params.variance:
        return not params.phi * v - m <= 0.0
    return not params.phi * math.sqrt(v) - m <= 0.0


@inline
def nonnegative_part(x):
    """max(0, x), but NaN stays NaN: max(0.0, NaN) is 0.0, which turned an overflowed step
    into no step at all (the loop then stops at the NaN, olbench.breakdown names the cause)."""
    return 0.0 if x < 0.0 else x


@inline
def usable(x):
    """A step coefficient the rule can use as computed: finite and positive."""
    return 0.0 < x < math.inf


@inline
def coefficients(params, m, v):
    """(alpha, c) of the step mu += alpha y Sigma x, Sigma^-1 += c x x' (see the module).

    Each coefficient is computed as the papers and LIBOL's code write it, so that olbench's
    rounds stay those of LIBOL's own code bit for bit (its parameter selection compares
    mistake counts that one rounding can move); only where that arithmetic fails -- a
    cancellation to exactly 0, an overflow of n^2 or n v -- is the same quantity recomputed
    in a form without the failure (issue 31: a = 1e-20, C = 1e-200, a = 1e200 froze mu at 0)."""
    phi = params.phi
    if params.variance:
        b = 1.0 + 2.0 * phi * m
        c = 8.0 * phi * (phi * v - m)
        root = math.sqrt(b * b + c)
        alpha = (root - b) / (4.0 * phi * v)
        if not usable(alpha) and b > 0.0:
            # -b + root as c / (root + b): no cancellation once c < 1e-16 b^2
            alpha = c / (root + b) / (4.0 * phi * v)
        alpha = nonnegative_part(alpha)
        return alpha, 2.0 * alpha * phi
    phi2 = phi * phi
    if params.soft2:
        n = v + 1.0 / (2.0 * params.C)
        if params.libol:
            gamma = math.sqrt(phi2 * phi2 * m * m * v * 2.0
                              + 4.0 * n * v * phi2 * (n + v * phi * 2.0))
        else:
            gamma = phi * math.sqrt(phi2 * m * m * v * v + 4.0 * n * v * (n + v * phi2))
        alpha = (-(2.0 * m * n + phi2 * m * v) + gamma) / (2.0 * (n * n + n * v * phi2))
        if not usable(alpha):
            # divided through by n (gamma by n), r = v / n in (0, 1]: n^2 and n v overflow
            # once n or v passes 1e154 (C = 1e-200: n = 5e199), and gamma / n^2 was inf / inf
            r = v / n
            if params.libol:
                gamma_n = math.sqrt(phi2 * phi2 * m * m * r * 2.0 / n
                                    + 4.0 * v * phi2 * (1.0 + r * phi * 2.0))
            else:
                gamma_n = phi * math.sqrt(phi2 * m * m * r * r + 4.0 * v * (1.0 + r * phi2))
            alpha = (gamma_n - m * (2.0 + phi2 * r)) / (2.0 * n * (1.0 + r * phi2))
        alpha = nonnegative_part(alpha)
    else:
        psi, xi = 1.0 + phi2 / 2.0, 1.0 + phi2
        alpha = nonnegative_part((-m * psi + math.sqrt(m * m * phi2 * phi2 / 4.0 + v * phi2 * xi))
                                 / (v * xi))
        alpha = min(params.C, alpha)
    sqrt_u = 0.5 * (-alpha * v * phi + math.sqrt(alpha * alpha * v * v * phi2 + 4.0 * v))
    if not usable(sqrt_u):
        # without the subtraction, which cancelled to 0 once alpha^2 v phi^2 >> 4, and with
        # alpha v formed first (alpha alone grows like 1/v)
        alpha_v = alpha * v
        sqrt_u = 2.0 * v / (alpha_v * phi + math.sqrt(alpha_v * alpha_v * phi2 + 4.0 * v))
    return alpha, alpha * phi / sqrt_u


@inline
def update_full(params, idx, val, y, margin, w, A, s):
    sigma_x, v = full_sigma_x(A, idx, val)
    m = y * margin
    if not violated(params, m, v):
        return False
    alpha, c = coefficients(params, m, v)
    full_step(w, A, sigma_x, alpha * y, c / (1.0 + c * v))
    return True


@inline
def update_diag(params, idx, val, y, margin, w, A, s):
    diag = A[0]
    v = positive_form(diag_quad(diag, idx, val), val)
    m = y * margin
    if not violated(params, m, v):
        return False
    alpha, c = coefficients(params, m, v)
    diag_axpy(w, alpha * y, diag, idx, val)
    diag_project(diag, c, False, idx, val)
    return True


RULES = {False: make_rule("cw.full", linear_predict, update_full),
           True: make_rule("cw.diag", linear_predict, update_diag)}
