"""The second-order Perceptron's mistake bound (Cesa-Bianchi, Conconi & Gentile 2005, Thm. 1).

>>> sop_mistakes(a=1.0, u_norm2=4.0, u_sq_margins=5.0, logdet=1.0, hinge_sum=0.5)
3.5
"""

from __future__ import annotations

import math

import numpy as np

from olbench.bounds.core import RunRecord, Skip, any_u, theorem
from olbench.losses import mistakes


def sop_mistakes(*, a: float, u_norm2: float, u_sq_margins: float, logdet: float,
                 hinge_sum: float) -> float:
    """SOP's mistakes m <= sum_{t in M} max(0, 1 - y_t u.x_t)
    + sqrt((a ||u||^2 + sum_{t in S} (u.x_t)^2) sum_i ln(1 + lambda_i / a)), for every u.

    Source: Cesa-Bianchi, Conconi & Gentile (2005), A second-order Perceptron algorithm, SIAM
    J. Comput. 34(3), Theorem 1, there as m <= D_gamma(u)/gamma + (1/gamma) sqrt((a ||u||^2 +
    u' X X' u) sum_i ln(1 + lambda_i/a)) with D_gamma(u) = sum over M of max(0, gamma -
    y_t u.x_t); u -> u / gamma gives this form. M: the mistaken rounds (where SOP updates);
    S: the rounds whose x_t entered the matrix (S = M in the paper; every round for LIBOL's
    variant); lambda_i: the eigenvalues of sum_{t in S} x_t x_t', so that
    sum_i ln(1 + lambda_i/a) = ln det(A_T / a) with A_T = a I + sum_S x x' = Sigma_T^-1.

    Derivation (re-done here for both variants): on a mistake at round t, with A_t the matrix
    including x_t and v the sum of y x over earlier mistakes, the mistake means
    y v'A_t^-1 x <= 0, so (v + y x)'A_t^-1 (v + y x) <= v'A_t^-1 v + x'A_t^-1 x; v'A^-1 v
    does not grow when A grows; and x'A_t^-1 x = 1 - det A_{t-1}/det A_t <= ln(det A_t /
    det A_{t-1}). Hence v_T'A_T^-1 v_T <= ln det(A_T/a). With u'v_T = sum_M y u.x >= m -
    sum_M max(0, 1 - y u.x) and Cauchy-Schwarz, u'v <= sqrt(u'A_T u) sqrt(v'A_T^-1 v).

    >>> round(sop_mistakes(a=1.0, u_norm2=1.0, u_sq_margins=0.0, logdet=4.0, hinge_sum=0.0), 6)
    2.0
    """
    return hinge_sum + math.sqrt((a * u_norm2 + u_sq_margins) * logdet)


def tightest_scale(z_mistakes: np.ndarray, Q: float) -> float:
    """min over c >= 0 of sum_t max(0, 1 - c z_t) + c Q: the bound of :func:`sop_mistakes` for
    u scaled by c (every scale gives a valid bound), with Q = sqrt((a||u||^2 + u'X_S u) L).
    Convex and piecewise linear in c, so its minimum is at c = 0 or at a kink c = 1/z_t.

    >>> tightest_scale(np.array([1.0, 2.0, -1.0]), Q=0.5)   # c = 1/2: 0.5 + 0 + 1.5 + 0.25
    2.25
    """
    z = np.sort(np.asarray(z_mistakes, dtype=float))
    best = float(z.size)                                   # c = 0
    prefix = np.concatenate([[0.0], np.cumsum(z)])
    j = np.flatnonzero(z > 0)
    if j.size:
        # at c = 1/z_j the terms with z_t < z_j contribute 1 - z_t / z_j (ties contribute 0)
        k = np.searchsorted(z, z[j], side="left")
        values = k - prefix[k] / z[j] + Q / z[j]
        best = min(best, float(values.min()))
    return best


@theorem("sop_mistakes", "mistakes", final_only=True, needs=any_u,
         source="Cesa-Bianchi, Conconi & Gentile (2005), A second-order Perceptron algorithm, "
                "SIAM J. Comput. 34(3):640-668, Theorem 1 (derived in "
                "olbench.bounds.sop.sop_mistakes)")
def SOP_MISTAKES(rec: RunRecord):
    """At the final round T only (it needs Sigma_T); the smallest bound over the comparators'
    u and their scalings."""
    if rec.updated is None or "A" not in rec.state:
        raise Skip("needs the learner's update flags and final Sigma")
    T = int(rec.checkpoints[-1])
    if T != rec.n:
        raise Skip("needs Sigma at round T: only the final round has it")
    a = float(rec.params["ridge"])   # the paper's a
    sigma = rec.state["A"]
    logdet = -np.linalg.slogdet(sigma)[1] - sigma.shape[0] * math.log(a)
    M = np.asarray(rec.updated, bool)
    S = np.ones(rec.n, bool) if rec.params.get("libol") else M
    values = []
    for fit in rec.fits_with_u():
        Q = math.sqrt(max(0.0, (a * float(fit.u @ fit.u) + float(fit.margins[S] @ fit.margins[S]))
                          * logdet))
        values.append(tightest_scale(rec.y[M] * fit.margins[M], Q))
    observed = int(mistakes(rec.margins, rec.y, rec.tie).sum())
    return [(T, min(values), observed)]
