"""AROW's mistake bound (Crammer, Kulesza & Dredze 2009, Theorem 2), from the final Sigma.

>>> round(arow_mistakes(r=1.0, a=1.0, u_norm2=4.0, u_sq_margins=5.0, logdet=2.0,
...                     margin_updates=2, hinge_sum=1.0), 6)
5.0
"""

from __future__ import annotations

import math

import numpy as np

from olbench.bounds.core import RunRecord, Skip, any_u, theorem
from olbench.losses import mistakes


def arow_mistakes(*, r: float, a: float, u_norm2: float, u_sq_margins: float, logdet: float,
                  margin_updates: int, hinge_sum: float) -> float:
    """AROW's mistakes M <= sqrt(r ||u||^2 / a + u'X_A u) sqrt(log det(I + a X_A / r) + U)
    + sum_{t in M u U} g_t(u) - U, for any u.

    Source: Crammer, Kulesza & Dredze (2009), Theorem 2 (there with a = 1). M: mistakes
    (y_t p_t <= 0); U: updates without a mistake (0 < y_t p_t < 1); X_A = sum of x_t x_t' over
    the update rounds M u U; g_t(u) = max(0, 1 - y_t u.x_t). Assumptions: full-covariance AROW
    from mu = 0, Sigma = a I, parameter r.

    Derivation (checked here, since the paper's text was not at hand): with A_t = Sigma_t^-1,
    an update gives A_t = A_{t-1} + x x'/r and A_t mu_t = A_{t-1} mu_{t-1} + y x / r, so
    u'A_T mu_T = (1/r) sum y_t u.x_t >= (M + U - sum g_t)/r. Sherman-Morrison gives
    mu_t'A_t mu_t - mu_{t-1}'A_{t-1} mu_{t-1} = (1 - (1 - y m)^2 + v/r)/(r + v) with
    v = x'Sigma_{t-1}x, which is <= (v/r)/(r + v) on a mistake and adds at most 1/r more on a
    margin update; and (v/r)/(r + v) <= (1/r) log(det A_t / det A_{t-1}). Cauchy-Schwarz in
    the A_T norm then gives the bound. ``logdet`` = log det(I + a X_A / r)
    = d log a - log det Sigma_T, ``u_sq_margins`` = u'X_A u = sum over M u U of (u.x_t)^2.

    >>> round(arow_mistakes(r=1.0, a=1.0, u_norm2=4.0, u_sq_margins=5.0, logdet=2.0,
    ...                     margin_updates=2, hinge_sum=1.0), 6)
    5.0
    """
    return (math.sqrt(r * u_norm2 / a + u_sq_margins) * math.sqrt(logdet + margin_updates)
            + hinge_sum - margin_updates)


@theorem("arow_mistakes", "mistakes", final_only=True, needs=any_u,
         source="Crammer, Kulesza & Dredze (2009), Adaptive Regularization of Weight Vectors, "
                "NIPS, Theorem 2 (derived in olbench.bounds.arow.arow_mistakes)")
def AROW_MISTAKES(rec: RunRecord):
    """At the final round T only: it needs Sigma_T (``state["A"]``) and the update flags."""
    if rec.params.get("diagonal"):
        raise Skip("the bound is for full-covariance AROW (diagonal=True)")
    if rec.updated is None or "A" not in rec.state:
        raise Skip("needs the learner's update flags and final Sigma")
    T = int(rec.checkpoints[-1])
    if T != rec.n:
        raise Skip("needs Sigma at round T: only the final round has it")
    cands = rec.fits_with_u()
    r, a = float(rec.params["r"]), float(rec.params["a"])
    sigma = rec.state["A"]
    logdet = sigma.shape[0] * math.log(a) - np.linalg.slogdet(sigma)[1]
    mistaken = mistakes(rec.margins, rec.y, "novikoff")
    on_update = np.asarray(rec.updated, bool)
    margin_updates = int((on_update & ~mistaken).sum())
    values = []
    for fit in cands:
        z = fit.margins[on_update]
        values.append(arow_mistakes(
            r=r, a=a, u_norm2=float(fit.u @ fit.u), u_sq_margins=float(z @ z), logdet=logdet,
            margin_updates=margin_updates,
            hinge_sum=float(np.maximum(0.0, 1.0 - rec.y[on_update] * z).sum())))
    return [(T, min(values), int(mistaken.sum()))]
