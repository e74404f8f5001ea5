"""The regret bound of online PCA by gradient descent on the capped spectrahedron.

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
"""

from __future__ import annotations

import numpy as np

from olbench.bounds.core import RunRecord, Skip, theorem


def pca_gd_regret(T: int, R: float, d: int, k: int, eta: float) -> float:
    """m (d - m) / (2 eta d) + eta T R^4 / 2, m = d - k (module docs)."""
    m = d - k
    return m * (d - m) / (2.0 * eta * d) + eta * T * R ** 4 / 2.0


def _best_subspace(params) -> list[dict]:
    return [{"key": "best_subspace", "k": params.get("k", 1)}]


@theorem("pca_gd_regret", "regret", needs=_best_subspace, formula="m(d−m)/(2ηd) + ηTR⁴/2",
         source="Zinkevich (2003), Theorem 1, on the capped spectrahedron of Warmuth & "
                "Kuzmin (2008), Sec. 3; Nie, Kotlowski & Warmuth (2016), Sec. 3")
def PCA_GD_REGRET(rec: RunRecord):
    R = rec.require_radius()
    fits = [f for f in rec.fits.values() if str(getattr(f, "comparator", "")).startswith(
        "BestSubspace") and getattr(f, "ok", False)]
    if not fits:
        raise Skip(rec.why_no_fit() or "no best_subspace fit (the best rank-k projection)")
    if "w" not in rec.state:
        raise Skip("the final state (the dimension d) is unknown")
    d, k, eta = int(np.asarray(rec.state["w"]).shape[0]), int(rec.params["k"]), \
        float(rec.params["eta"])
    regret = np.cumsum(rec.margins)[rec.checkpoints - 1] - fits[0].cum_loss_at(rec.checkpoints)
    return [(T, pca_gd_regret(int(T), R, d, k, eta), r) for T, r in zip(rec.checkpoints,
                                                                          regret)]
