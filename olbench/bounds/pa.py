"""The Passive-Aggressive bounds of Crammer et al. (2006), JMLR 7: Theorems 2, 4 and 5.

All assume w_1 = 0, R = max_t ||x_t||, labels in {-1, +1}; loss_t is the hinge loss
max(0, 1 - y_t p_t).

>>> pa_separable(R=1.0, u_norm=10.0)
100.0
"""

from __future__ import annotations

import numpy as np

from olbench.bounds.core import RunRecord, max_margin, theorem
from olbench.losses import get_loss

_SOURCE = "Crammer et al. (2006), Online Passive-Aggressive Algorithms, JMLR 7, "


def pa_separable(R: float, u_norm: float) -> float:
    """PA (no C): sum_t loss_t^2 <= ||u||^2 R^2, loss_t = hinge loss of the learner at round t.

    Source: Crammer et al. (2006), Theorem 2. Assumptions: some u has y_t u.x_t >= 1 for all t
    (so ||u|| >= 1/gamma; the smallest is the max-margin u, ||u|| = 1/gamma), ||x_t|| <= R,
    w_1 = 0, the basic PA step tau_t = loss_t / ||x_t||^2.

    >>> pa_separable(R=1.0, u_norm=10.0)
    100.0
    """
    return u_norm ** 2 * R ** 2


def pa1_mistakes(R: float, C: float, u_norm: float, hinge_sum: float) -> float:
    """PA-I prediction mistakes <= max(R^2, 1/C) (||u||^2 + 2 C sum_t loss_t(u)).

    Source: Crammer et al. (2006), Theorem 4. Assumptions: any u; loss_t(u) = max(0, 1 - y_t
    u.x_t) (hinge, ``hinge_sum`` over the same rounds); ||x_t|| <= R; w_1 = 0; step
    tau_t = min(C, loss_t/||x_t||^2). A mistake is y_t p_t <= 0 (so loss_t >= 1). The tightest
    u minimises ||u||^2 + 2C sum hinge: the ridge-regularised hinge comparator with ridge = 1/C.

    >>> pa1_mistakes(R=1.0, C=0.5, u_norm=2.0, hinge_sum=3.0)
    14.0
    """
    return max(R ** 2, 1.0 / C) * (u_norm ** 2 + 2 * C * hinge_sum)


def pa2_squared_loss(R: float, C: float, u_norm: float, sq_hinge_sum: float) -> float:
    """PA-II: sum_t loss_t^2 <= (R^2 + 1/(2C)) (||u||^2 + 2 C sum_t loss_t(u)^2).

    Source: Crammer et al. (2006), Theorem 5. Assumptions: any u; loss_t the hinge loss (of the
    learner on the left, of u on the right, ``sq_hinge_sum`` = sum of its squares); ||x_t|| <= R;
    w_1 = 0; step tau_t = loss_t / (||x_t||^2 + 1/(2C)). Tightest u: squared-hinge comparator
    with ridge = 1/C.

    >>> pa2_squared_loss(R=1.0, C=0.5, u_norm=2.0, sq_hinge_sum=3.0)
    14.0
    """
    return (R ** 2 + 1.0 / (2 * C)) * (u_norm ** 2 + 2 * C * sq_hinge_sum)


def _sum_sq_hinge(rec: RunRecord) -> np.ndarray:
    return np.cumsum(get_loss("hinge")(rec.margins, rec.y) ** 2)


@theorem("pa_separable", "sum_sq_hinge", needs=max_margin, formula="R² ‖u‖²",
         source=_SOURCE + "Theorem 2")
def PA_SEPARABLE(rec: RunRecord):
    R = rec.require_radius()
    bound = pa_separable(R, float(np.linalg.norm(rec.separable_fit().u)))
    observed = _sum_sq_hinge(rec)
    return [(T, bound, observed[T - 1]) for T in rec.checkpoints]


def _data_dependent(rec: RunRecord, bound, comparator_loss: str, observed: np.ndarray):
    """min over the comparators' u of ``bound(R, C, ||u||, loss of u up to T)`` at each T."""
    R, C = rec.require_radius(), float(rec.params["C"])
    cums = [(float(np.linalg.norm(f.u)), np.cumsum(get_loss(comparator_loss)(f.margins, rec.y)))
            for f in rec.fits_with_u()]
    return [(T, min(bound(R, C, un, c[T - 1]) for un, c in cums), observed[T - 1])
            for T in rec.checkpoints]


def _ridge_comparator(loss: str):
    """The u that makes the data-dependent bound tightest: ``loss`` with ridge 1/C."""
    return lambda p: [{"key": "best_fixed", "loss": loss, "ridge": 1.0 / float(p["C"])}]


@theorem("pa1_mistakes", "mistakes", needs=_ridge_comparator("hinge"),
         formula="max(R², 1/C) (‖u‖² + 2C Σ ℓ_t(u))",
         source=_SOURCE + "Theorem 4")
def PA1_MISTAKES(rec: RunRecord):
    return _data_dependent(rec, pa1_mistakes, "hinge", rec.cum_mistakes("novikoff"))


@theorem("pa2_squared_loss", "sum_sq_hinge", needs=_ridge_comparator("squared_hinge"),
         formula="(R² + 1/(2C)) (‖u‖² + 2C Σ ℓ_t(u)²)",
         source=_SOURCE + "Theorem 5")
def PA2_SQUARED_LOSS(rec: RunRecord):
    return _data_dependent(rec, pa2_squared_loss, "squared_hinge", _sum_sq_hinge(rec))
