"""The regret bounds of online PCA: gradient descent on the capped spectrahedron, and the
capped matrix exponentiated gradient.

The learner keeps W_t in {0 <= W <= I, tr W = m} (m = d - k: the relaxed complement of a
rank-k projection) and suffers x_t' W_t x_t, linear in W with gradient x_t x_t' (Frobenius
norm ||x_t||^2). Zinkevich's bound for a fixed step eta against any fixed U of the set,
||W_1 - U||_F^2 / (2 eta) + (eta / 2) sum_t ||x_t x_t'||_F^2, with W_1 = (m/d) I, whose
distance to every rank-m projection U is exactly m (d - m) / d, and ||x_t|| <= R:

    regret_T <= m (d - m) / (2 eta d) + eta T R^4 / 2,

against the best rank-k projection in hindsight (comparator ``best_subspace``: a rank-m
projection of the set, I - P*). Sources: Zinkevich (ICML 2003), Theorem 1; the capped
spectrahedron and its projection: Warmuth & Kuzmin (JMLR 9, 2008), Sec. 3; Nie, Kotlowski &
Warmuth (JMLR 17, 2016), Sec. 3 (GD).

>>> pca_gd_regret(T=100, R=1.0, d=4, k=1, eta=0.1)
8.75

The capped MEG (Warmuth & Kuzmin, JMLR 9, 2008, Sec. 3-4) keeps a density matrix D_t with
eigenvalues at most 1/m and suffers m x_t' D_t x_t. For ||x_t|| <= 1 and any comparator
density U = (I - P)/m (P a rank-k projection), with Delta the quantum relative entropy:
Delta(U, D_t) - Delta(U, D^_{t+1}) = -eta tr(U x x') - ln Z_t, and
Z_t = tr exp(log D_t - eta x x') <= tr(D_t exp(-eta x x')) (Golden-Thompson)
<= 1 - (1 - e^-eta) x' D_t x (exp convex on [0, 1]); the capping is a relative-entropy
projection on a convex set holding U, so it only brings D closer (generalised Pythagoras); and
Delta(U, I/d) = ln(d/m). Summed and times m: (1 - e^-eta) L_alg <= eta L_U + m ln(d/m), the
expert bound of W&K Sec. 3 (Theorem 2 there) with the m-sets of experts turned subspaces. Rows
of norm up to R are rows of norm 1 scaled by R, losses by R^2, and eta x x' = (eta R^2)(x/R)(x/R)':

    regret_T <= (eta R^2 L + m R^2 ln(d/m)) / (1 - exp(-eta R^2)) - L,

L the comparator's loss on the first T rows (any fixed rank-k projection's, so the
best_subspace fit's prefix loss at each checkpoint). Only logarithmic in d; tuned to a loss
budget it is sqrt(2 L m ln(d/m)) R + m R^2 ln(d/m) (W&K), which this form covers at that eta.

>>> round(pca_meg_regret(L=10.0, R=1.0, d=4, k=1, eta=1.0), 6)
7.185086
"""

from __future__ import annotations

import math

import numpy as np

from olbench.bounds.core import RunRecord, Skip, theorem


def pca_gd_regret(T: int, R: float, d: int, k: int, eta: float) -> float:
    """m (d - m) / (2 eta d) + eta T R^4 / 2, m = d - k (module docs)."""
    m = d - k
    return m * (d - m) / (2.0 * eta * d) + eta * T * R ** 4 / 2.0


def pca_meg_regret(L: float, R: float, d: int, k: int, eta: float) -> float:
    """(eta R^2 L + m R^2 ln(d/m)) / (1 - exp(-eta R^2)) - L, m = d - k (module docs)."""
    m, scaled = d - k, eta * R * R
    return (scaled * L + m * R * R * math.log(d / m)) / -math.expm1(-scaled) - L


def _best_subspace(params) -> list[dict]:
    return [{"key": "best_subspace", "k": params.get("k", 1)}]


def _fit(rec: RunRecord):
    """The run's best_subspace fit (the best rank-k projection of the whole stream)."""
    fits = [f for f in rec.fits.values() if str(getattr(f, "comparator", "")).startswith(
        "BestSubspace") and getattr(f, "ok", False)]
    if not fits:
        raise Skip(rec.why_no_fit() or "no best_subspace fit (the best rank-k projection)")
    return fits[0]


def _setting(rec: RunRecord) -> tuple[int, int, float]:
    """(d, k, eta) of the run: d from the final state's d x d W."""
    if "w" not in rec.state:
        raise Skip("the final state (the dimension d) is unknown")
    return (int(np.asarray(rec.state["w"]).shape[0]), int(rec.params["k"]),
            float(rec.params["eta"]))


@theorem("pca_gd_regret", "regret", needs=_best_subspace, formula="m(d−m)/(2ηd) + ηTR⁴/2",
         source="Zinkevich (2003), Theorem 1, on the capped spectrahedron of Warmuth & "
                "Kuzmin (2008), Sec. 3; Nie, Kotlowski & Warmuth (2016), Sec. 3")
def PCA_GD_REGRET(rec: RunRecord):
    R = rec.require_radius()
    fit = _fit(rec)
    d, k, eta = _setting(rec)
    regret = np.cumsum(rec.margins)[rec.checkpoints - 1] - fit.cum_loss_at(rec.checkpoints)
    return [(T, pca_gd_regret(int(T), R, d, k, eta), r) for T, r in zip(rec.checkpoints,
                                                                          regret)]


@theorem("pca_meg_regret", "regret", needs=_best_subspace,
         formula="(ηR²L + mR² ln(d/m)) / (1 − e^(−ηR²)) − L",
         source="Warmuth & Kuzmin (2008), Sec. 3-4 (Theorem 2 lifted to density matrices)")
def PCA_MEG_REGRET(rec: RunRecord):
    R = rec.require_radius()
    fit = _fit(rec)
    d, k, eta = _setting(rec)
    comparator = fit.cum_loss_at(rec.checkpoints)
    regret = np.cumsum(rec.margins)[rec.checkpoints - 1] - comparator
    return [(T, pca_meg_regret(float(L), R, d, k, eta), r)
            for T, L, r in zip(rec.checkpoints, comparator, regret)]
