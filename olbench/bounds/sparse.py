"""Regret bounds of the regularised (sparse) learners: L1-RDA, FOBOS with a constant step,
diagonal AdaGrad (composite mirror descent) and Pegasos, each against the best fixed
predictor of the learner's own objective.

The regret these theorems bound is the composite one,
R_T(u) = sum_{t<=T} [f_t(w_t) + r(w_t)] - sum_{t<=T} [f_t(u) + r(u)], with f_t the loss the
learner descends and r its regulariser (L1-RDA, FOBOS, AdaGrad: r = l1 ||w||_1; Pegasos:
f_t(w) = (l2/2) ||w||^2 + loss_t(w)). A run records the losses f_t(w_t) but not r(w_t) (d
numbers a round), so the observed quantity is
sum_{t<=T} loss_t(w_t) - sum_{t<=T} [f_t(u) + r(u)] <= R_T(u), r >= 0: the check can never
fire on a correct run, and it is as sharp as the theorem wherever r(w_t) is small beside
the losses. u is the comparator of the objective (:class:`~olbench.comparators.BestFixed`
with ``l1``, per round, or in the ball of Pegasos's projection); every bound here holds for
every u, so any fixed u gives a valid check.

G bounds the losses' gradients: ||l'(p) x|| <= R for hinge and logistic (R = max ||x_t||).
The squared loss has none without a bounded domain: those runs are skipped.

>>> round(rda_regret(T=100, eta=0.5, G=1.0, u_sq=4.0, u_l1=2.0, rho=0.0), 6)
44.872401
"""

from __future__ import annotations

import math

import numpy as np

from olbench.bounds.core import RunRecord, Skip, theorem
from olbench.losses import get_loss

#: losses with ||gradient|| <= R = max ||x_t|| whatever w is
BOUNDED_GRADIENT = ("hinge", "logistic")


def _gradient_bound(rec: RunRecord) -> float:
    loss = rec.params["loss"]
    if loss not in BOUNDED_GRADIENT:
        raise Skip(f"loss={loss!r}: its gradient l'(p) x is not bounded without a bounded "
                   f"domain (the theorem needs ||g_t|| <= G)")
    return rec.require_radius()


def _fit(rec: RunRecord, **wanted):
    """The comparator fit of ``wanted`` (``best_fixed``, same loss, l1 / radius)."""
    for f in rec.fits.values():
        p = getattr(f, "params", {})
        if getattr(f, "ok", False) and p.get("key") == "best_fixed" and all(
                p.get(k, 0.0 if k == "l1" else None) == v for k, v in wanted.items()):
            return f
    raise Skip(rec.why_no_fit() or f"no best_fixed comparator with {wanted}")


def rda_regret(T: int, eta: float, G: float, u_sq: float, u_l1: float, rho: float) -> float:
    """L1-RDA's regret bound against u after T rounds, h(w) = ||w||^2/2 + rho ||w||_1,
    beta_t = gamma sqrt(t) with gamma = 1/eta, beta_0 = beta_1 (Xiao 2010, Theorem 1):
    beta_T h(u) + (G^2/2) sum_{tau=0}^{T-1} 1/beta_tau
    = (sqrt(T)/eta)(u_sq/2 + rho u_l1) + (eta G^2/2)(1 + sum_{tau=1}^{T-1} tau^(-1/2)).

    >>> round(rda_regret(T=1, eta=1.0, G=1.0, u_sq=0.0, u_l1=0.0, rho=0.0), 6)   # 1 round
    0.5
    """
    steps = 1.0 + float(np.sum(1.0 / np.sqrt(np.arange(1, T))))
    return math.sqrt(T) / eta * (u_sq / 2 + rho * u_l1) + eta * G * G / 2 * steps


def _l1_needs(p) -> list[dict]:
    return [{"key": "best_fixed", "loss": p["loss"], "l1": p["l1"]}]


def _l1_observed(rec: RunRecord, fit, l1: float) -> np.ndarray:
    """sum_{t<=T} loss_t(w_t) - sum_{t<=T} [loss_t(u) + l1 ||u||_1] at the checkpoints."""
    ks = rec.checkpoints
    penalty = l1 * float(np.abs(fit.u).sum())
    return rec.cum_loss(rec.params["loss"])[ks - 1] - (fit.cum_loss_at(ks) + ks * penalty)


@theorem("rda_regret", "regret", needs=_l1_needs,
         formula="(√T/η)(‖u‖²/2 + ρ‖u‖₁) + (ηG²/2)(1 + Σ_{τ<T} τ^-1/2)",
         source="Xiao (2010), JMLR 11, Theorem 1 with h = ‖w‖²/2 (+ ρ‖w‖₁, enhanced), "
                "β_t = γ√t, γ = 1/η")
def RDA_REGRET(rec: RunRecord):
    """Against the best fixed predictor of sum loss + l1 ||u||_1 (the module docs)."""
    p = rec.params
    G = _gradient_bound(rec)
    fit = _fit(rec, loss=p["loss"], l1=p["l1"])
    u = np.asarray(fit.u, float)
    observed = _l1_observed(rec, fit, float(p["l1"]))
    return [(T, rda_regret(int(T), float(p["eta"]), G, float(u @ u), float(np.abs(u).sum()),
                           float(p["enhancement"])), r)
            for T, r in zip(rec.checkpoints, observed)]


@theorem("fobos_regret", "regret", needs=_l1_needs, formula="‖u‖²/(2η) + ηG²T/2",
         source="Duchi & Singer (2009), JMLR 10 (the forward-backward step's inequality, "
                "summed with a constant step); w_1 = 0, r(w_1) = 0")
def FOBOS_REGRET(rec: RunRecord):
    """FOBOS with a constant step eta: eta (f_t(w_t) + r(w_{t+1}) - f_t(u) - r(u)) <=
    (||u - w_t||^2 - ||u - w_{t+1}||^2)/2 + eta^2 ||g_t||^2 / 2, summed over t (no bounded
    domain needed with a constant step)."""
    p = rec.params
    if p["l2"]:
        raise Skip(f"l2={p['l2']!r}: the comparator of l1 ||u||_1 + (l2/2) ||u||^2 (elastic "
                   f"net) is not implemented; the bound is checked for l2 = 0")
    G = _gradient_bound(rec)
    fit = _fit(rec, loss=p["loss"], l1=p["l1"])
    u = np.asarray(fit.u, float)
    eta = float(p["eta"])
    observed = _l1_observed(rec, fit, float(p["l1"]))
    return [(T, float(u @ u) / (2 * eta) + eta * G * G * int(T) / 2, r)
            for T, r in zip(rec.checkpoints, observed)]


def adagrad_regret(eta: float, delta: float, d: int, root_sums: float, reach: float) -> float:
    """Diagonal AdaGrad's regret bound (composite mirror descent, w_1 = 0) against u:
    (reach^2 / (2 eta)) (d delta + sum_i ||g_{1:T,i}||_2) + eta sum_i ||g_{1:T,i}||_2, with
    ``root_sums`` = sum_i ||g_{1:T,i}||_2 and ``reach`` >= max_t ||u - w_t||_inf. From the
    proof of Duchi, Hazan & Singer (2011), Theorem 5: the composite step's inequality in
    the H_t norm, summed; the H_t increments telescope to sum_i H_{T,ii} max_t
    (u_i - w_{t,i})^2; and sum_t g_{t,i}^2 / H_{t,ii} <= 2 ||g_{1:T,i}||_2.

    >>> adagrad_regret(eta=0.5, delta=1.0, d=2, root_sums=3.0, reach=1.0)
    6.5
    """
    return reach * reach / (2 * eta) * (d * delta + root_sums) + eta * root_sums


@theorem("adagrad_regret", "regret", needs=_l1_needs, final_only=True,
         formula="(D∞²/(2η))(dδ + Σ_i‖g_{1:T,i}‖) + η Σ_i‖g_{1:T,i}‖",
         source="Duchi, Hazan & Singer (2011), JMLR 12, Theorem 5 (diagonal, composite mirror "
                "descent), with the δ term kept: D∞ = ‖u‖∞ + max_t ‖w_t‖∞")
def ADAGRAD_REGRET(rec: RunRecord):
    """At the final round T only: sum_i ||g_{1:T,i}|| is the final state's sqrt(n_i), and
    max_t ||w_t||_inf the largest weight any update set (``state["s"][1]``). The bound holds
    for every u: it is checked at the comparator's u and at u = 0 (= w_1, where the reach is
    max_t ||w_t||_inf alone), and the stricter of the two is reported."""
    p = rec.params
    T = int(rec.checkpoints[-1])
    if T != rec.n:
        raise Skip("needs the gradient sums at round T: only the final round has them")
    if "A" not in rec.state or "s" not in rec.state:
        raise Skip("needs the learner's final state (gradient sums, largest weight)")
    fit = _fit(rec, loss=p["loss"], l1=p["l1"])
    u = np.asarray(fit.u, float)
    root_sums = float(np.sqrt(np.asarray(rec.state["A"][0], float)).sum())
    largest = float(rec.state["s"][1])
    learner = rec.cum_loss(p["loss"])[T - 1]
    at_zero = float(get_loss(p["loss"])(np.zeros(T), rec.y[:T]).sum())   # r(0) = 0
    candidates = [
        (adagrad_regret(float(p["eta"]), float(p["delta"]), u.size, root_sums,
                        float(np.abs(u).max(initial=0.0)) + largest),
         float(_l1_observed(rec, fit, float(p["l1"]))[-1])),
        (adagrad_regret(float(p["eta"]), float(p["delta"]), u.size, root_sums, largest),
         learner - at_zero)]
    bound, observed = max(candidates, key=lambda c: c[1] / c[0])
    return [(T, bound, observed)]


def _pegasos_needs(p) -> list[dict]:
    return [{"key": "best_fixed", "loss": p["loss"], "radius": 1.0 / math.sqrt(p["l2"])}]


@theorem("pegasos_regret", "regret", needs=_pegasos_needs, formula="(√λ + R)²(1 + ln T)/(2λ)",
         source="Shalev-Shwartz, Singer & Srebro (2007), ICML, Lemma 1 (online gradient "
                "descent on λ-strongly convex losses, η_t = 1/(λt), projected)")
def PEGASOS_REGRET(rec: RunRecord):
    """f_t(w) = (l2/2)||w||^2 + loss_t(w) on the ball of radius 1/sqrt(l2), where its
    gradients are at most sqrt(l2) + R; u the best fixed predictor of the loss in that ball."""
    p = rec.params
    R = _gradient_bound(rec)
    lam = float(p["l2"])
    fit = _fit(rec, loss=p["loss"], radius=1.0 / math.sqrt(lam))
    u = np.asarray(fit.u, float)
    ks = rec.checkpoints
    observed = rec.cum_loss(p["loss"])[ks - 1] - (fit.cum_loss_at(ks) + ks * lam / 2 * (u @ u))
    G = math.sqrt(lam) + R
    return [(T, G * G * (1 + math.log(int(T))) / (2 * lam), r) for T, r in zip(ks, observed)]


__all__ = ["ADAGRAD_REGRET", "FOBOS_REGRET", "PEGASOS_REGRET", "RDA_REGRET", "adagrad_regret",
           "rda_regret"]
