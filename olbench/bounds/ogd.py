"""Zinkevich's regret bound for projected online gradient descent.

>>> round(ogd_regret(T=100, D=2.0, G=1.0), 6)
29.0
"""

from __future__ import annotations

import math

import numpy as np

from olbench.bounds.core import RunRecord, Skip, most_regret, theorem


def ogd_regret(T: float, D: float, G: float, eta: float | None = None,
               schedule: str = "sqrt") -> float:
    """Projected OGD regret against any u in K: sum_t f_t(w_t) - f_t(u) <= this.

    Source: Zinkevich (2003); Hazan (2016), Theorem 3.1. Assumptions: convex losses, K convex
    with diameter D containing w_1 and u, projection onto K after every step, gradient norms
    <= G. From the proof: regret <= D^2 / (2 eta_T) + (G^2 / 2) sum_t eta_t, so
    ``schedule="sqrt"`` (eta_t = eta / sqrt(t)): D^2 sqrt(T) / (2 eta) + G^2 eta (2 sqrt(T) - 1)/2,
    which for eta = D/G (the default) is <= 1.5 G D sqrt(T); ``"constant"``:
    D^2 / (2 eta) + G^2 eta T / 2.

    >>> round(ogd_regret(T=100, D=2.0, G=1.0), 6)   # eta = D/G: 0.5*2*10 + 2*(20-1)/2
    29.0
    >>> 1.5 * 1.0 * 2.0 * 100 ** 0.5
    30.0
    """
    eta = D / G if eta is None else eta
    if schedule == "sqrt":
        return D ** 2 * math.sqrt(T) / (2 * eta) + G ** 2 * eta * (2 * math.sqrt(T) - 1) / 2
    if schedule == "constant":
        return D ** 2 / (2 * eta) + G ** 2 * eta * T / 2
    raise ValueError(f"unknown schedule {schedule!r}")


def ogd_gradient_bound(loss: str, R: float, radius: float, y_max: float = 1.0) -> float | None:
    """G = max ||gradient|| of the loss over ||w|| <= radius, ||x|| <= R (None if unbounded).

    >>> ogd_gradient_bound("hinge", R=2.0, radius=1.0), ogd_gradient_bound("squared", 2.0, 1.0)
    (2.0, 6.0)
    """
    if loss in ("hinge", "logistic", "absolute", "epsilon_insensitive", "linear"):
        return R
    if loss == "quadratic":              # grad = w - x_t
        return radius + R
    if loss == "squared":
        return (radius * R + y_max) * R
    if loss == "squared_hinge":
        return 2 * (1 + radius * R) * R
    return None


def ball_comparator(rec: RunRecord):
    """The fit the bound is measured against: OGD's loss on OGD's ball, no ridge."""
    loss, radius = rec.params["loss"], rec.params["radius"]
    for f in rec.fits.values():
        p = getattr(f, "params", {})
        if (getattr(f, "ok", False) and p.get("key") in ("best_fixed", "prefix_best",
                                                         "best_point")
                and p.get("loss") == loss and p.get("radius") == radius and not p.get("ridge")
                and p.get("domain", "ball") == "ball"):
            return f
    raise Skip("no comparator loss given")


def ogd_needs(p) -> list[dict]:
    """The best fixed point of OGD's ball under OGD's loss (``best_point`` for OCO losses)."""
    if p["loss"] in ("linear", "quadratic"):
        return [{"key": "best_point", "loss": p["loss"], "domain": "ball",
                 "radius": 1.0 if p["radius"] is None else p["radius"]}]
    return [{"key": "best_fixed", "loss": p["loss"], "radius": p["radius"]}]


@theorem("ogd_regret", "regret", needs=ogd_needs, formula="D²/(2η_T) + (G²/2) Σ η_t",
         source="Zinkevich (2003), ICML, Theorem 1; Hazan (2016), Introduction to Online Convex "
                "Optimization, Theorem 3.1")
def OGD_REGRET(rec: RunRecord):
    """Regret against the best fixed point of OGD's ball, with OGD's own loss."""
    p = rec.params
    if p["radius"] is None:
        raise Skip("OGD without projection (radius=None): the bound needs a bounded set K")
    R = rec.require_radius()
    fit = ball_comparator(rec)
    ks = rec.checkpoints
    loss = "suffered" if fit.loss == "suffered" else p["loss"]
    regret = rec.cum_loss(loss)[ks - 1] - fit.cum_loss_at(ks)
    G = ogd_gradient_bound(p["loss"], R, p["radius"], float(np.abs(rec.y).max(initial=1.0)))
    D = 2 * p["radius"]
    return [(T, ogd_regret(int(T), D, G, float(p["eta"]), p["schedule"]), r,
             most_regret(int(T), G, D)) for T, r in zip(ks, regret)]
