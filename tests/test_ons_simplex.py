"""ONS on the simplex: the generalised projection in the A_t norm, exact."""

from __future__ import annotations

import naive
import numpy as np
import pytest

import olbench
from olbench.rules.ons import project_simplex_in_norm


def kkt_residual(M, y, w) -> float:
    """The largest violation of the KKT conditions of min (w - y)'M(w - y) on the simplex:
    infeasibility, a nonzero multiplier on the support, a negative one off it."""
    g = M @ (w - y)
    support = w > 1e-12
    nu = -float(np.mean(g[support]))
    mu = g + nu
    return max(abs(float(w.sum()) - 1.0), max(0.0, -float(w.min())),
               float(np.abs(mu[support]).max()), max(0.0, -float(mu.min())))


@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_projection_in_the_A_norm_onto_the_simplex_is_the_kkt_point(d):
    rng = np.random.default_rng(d)
    for trial in range(40):
        B = rng.normal(size=(d, d))
        M = B @ B.T + (0.01 if trial % 2 else 10.0) * np.eye(d)    # ill- and well-conditioned
        y = rng.normal(scale=2.0, size=d) + (0.0 if trial % 3 else 1.0 / d)
        w = np.empty(d)
        project_simplex_in_norm(M, y, w, np.empty(d))
        assert kkt_residual(M, y, w) <= 1e-9 * (1 + np.abs(M).max() * (1 + np.abs(y).max()))
        # an independent exact solve (enumerating the supports) agrees
        np.testing.assert_allclose(w, naive.oco.project_on_simplex_in_norm(M, y), atol=1e-10)
        points = rng.dirichlet(np.full(d, 0.3), size=500)       # no point of K is closer
        gaps = np.einsum("ij,jk,ik->i", points - y, M, points - y)
        assert (w - y) @ M @ (w - y) <= gaps.min() + 1e-9


def test_ons_on_the_simplex_stays_on_it_and_its_regret_bound_is_checked():
    from olbench.streams import make_stream

    stream = make_stream("linear_losses", n=500, d=4, G=0.5, seed=1)
    X, y = stream.materialize()
    learner = olbench.make_learner("ons", domain="simplex", G=1.5, exp_concavity=1 / 1.5 ** 2)
    trace = olbench.run(learner, X, y, checkpoints=[100, 500])
    w = trace.state["w"]
    assert w.min() >= 0 and w.sum() == pytest.approx(1.0, abs=1e-12)
    table = olbench.bounds.bound_table(learner, trace, checkpoints=[100, 500],
                                       R=stream.meta.radius, fits=_fits(X, y, stream.meta))
    assert table["bound_holds"].tolist() == [True, True]


def _fits(X, y, meta):
    from olbench.comparators import make_comparator

    fit = make_comparator("best_point", loss="quadratic", domain="simplex").fit(
        X, y, meta, checkpoints=[100, 500], cache=None)
    return {fit.comparator: fit}
