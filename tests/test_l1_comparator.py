"""The best fixed predictor of an L1-regularised objective (issue 27: regret against the best
sparse predictor): min_u sum_t [loss(u.x_t, y_t) + l1 ||u||_1] = sum loss + T l1 ||u||_1 (l1
per round, as the learners'), certified by its dual, equal to independent solutions, and
refused where it has no solver."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from olbench.comparators import make_comparator


def _data(n=300, d=20, seed=0, task="classification"):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    scores = X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n)
    return X, (np.where(scores >= 0, 1.0, -1.0) if task == "classification" else scores)


def _fit(loss, total, X, y, key="best_fixed", **kw):
    """The fit of sum loss + total ||u||_1 (l1 = total / n per round)."""
    fit = make_comparator(key, loss=loss, l1=total / X.shape[0]).fit(X, y, cache=None, **kw)
    assert fit.skip_reason is None, fit.skip_reason
    return fit


@pytest.mark.parametrize("l1", [0.3, 3.0])
def test_hinge_l1_is_the_primal_lp_optimum(l1):
    """Against the epigraph LP in (u+, u-, xi), solved here independently."""
    X, y = _data()
    n, d = X.shape
    fit = _fit("hinge", l1, X, y)
    A = sp.hstack([sp.csr_matrix(-(y[:, None] * X)), sp.csr_matrix(y[:, None] * X), -sp.eye(n)])
    c = np.concatenate([np.full(2 * d, l1), np.ones(n)])
    primal = linprog(c, A_ub=A, b_ub=-np.ones(n), bounds=(0, None), method="highs")
    assert fit.objective == pytest.approx(primal.fun, rel=1e-10)
    assert fit.objective - fit.lower_bound <= 1e-9 * fit.objective      # certified
    assert fit.cum_loss == pytest.approx(fit.objective - l1 * np.abs(fit.u).sum(), rel=1e-12)
    per_round = make_comparator("best_fixed", loss="hinge", l1=l1 / n).fit(X, y, cache=None)
    assert per_round.objective == fit.objective          # the same problem, said per round


def test_squared_l1_is_the_soft_threshold_on_an_orthonormal_design():
    """With X = I, sum (1/2)(u_j - y_j)^2 + l1 |u_j| is minimised by sgn(y) max(0, |y| - l1)."""
    rng = np.random.default_rng(1)
    y = rng.standard_normal(30) * 2.0
    fit = _fit("squared", 0.8, np.eye(30), y)
    np.testing.assert_allclose(fit.u, np.sign(y) * np.maximum(0.0, np.abs(y) - 0.8), atol=1e-9)


def test_logistic_l1_is_certified_and_matches_proximal_gradient():
    """Against FISTA run to convergence here (step 1/L, L = ||X||^2 / 4)."""
    X, y = _data(seed=2)
    l1 = 2.0
    fit = _fit("logistic", l1, X, y)
    assert fit.objective - fit.lower_bound <= 1e-6 * fit.objective
    L = np.linalg.norm(X, 2) ** 2 / 4
    u = z = np.zeros(X.shape[1])
    k = 1.0
    for _ in range(20000):
        grad = -X.T @ (y / (1.0 + np.exp(y * (X @ z))))
        v = z - grad / L
        u_new = np.sign(v) * np.maximum(0.0, np.abs(v) - l1 / L)
        k_new = (1 + np.sqrt(1 + 4 * k * k)) / 2
        z = u_new + (k - 1) / k_new * (u_new - u)
        u, k = u_new, k_new
    objective = np.logaddexp(0, -y * (X @ u)).sum() + l1 * np.abs(u).sum()
    assert fit.objective == pytest.approx(objective, rel=1e-8)
    np.testing.assert_allclose(fit.u, u, atol=1e-5)


@pytest.mark.parametrize("loss", ["hinge", "logistic", "squared", "absolute"])
def test_a_larger_l1_gives_a_sparser_comparator_and_zero_beyond_the_dual_threshold(loss):
    task = "regression" if loss in ("squared", "absolute") else "classification"
    X, y = _data(seed=3, task=task)
    counts = [int(np.count_nonzero(np.abs(_fit(loss, l1, X, y).u) > 1e-9))
              for l1 in (0.1, 5.0, 40.0)]
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
    # u = 0 is optimal once l1 >= ||X^T phi'(0)||_inf (the dual point at u = 0 is feasible)
    slopes = {"hinge": -y, "logistic": -y / 2, "squared": -y, "absolute": -np.sign(y)}[loss]
    beyond = 1.01 * np.abs(X.T @ slopes).max()
    assert np.abs(_fit(loss, beyond, X, y).u).max() <= 1e-9


def test_prefix_best_takes_the_l1_objective_of_each_prefix_at_its_length():
    """Per round: the prefix of T rounds is min sum_{t<=T} loss_t + T l1 ||u||_1."""
    X, y = _data(seed=4)
    fit = make_comparator("prefix_best", loss="hinge", l1=0.01).fit(
        X, y, cache=None, checkpoints=[50, 150, 300])
    for k, T in enumerate([50, 150, 300]):
        alone = _fit("hinge", 0.01 * T, X[:T], y[:T])
        assert fit.prefix_loss[k] == pytest.approx(alone.cum_loss, rel=1e-8, abs=1e-9)


@pytest.mark.parametrize("params,message", [
    ({"loss": "squared_hinge", "l1": 0.5}, r"l1 > 0 with loss='squared_hinge': the L1 "
                                           r"comparator has no solver"),
    ({"loss": "hinge", "l1": 0.5, "ridge": 1.0}, r"l1=0.5 with ridge=1.0: the L1 comparator"),
    ({"loss": "hinge", "l1": 0.5, "radius": 2.0}, r"l1=0.5 with radius=2.0"),
    ({"loss": "hinge", "l1": -1.0}, r"invalid l1=-1.0")])
def test_what_the_l1_comparator_cannot_fit_is_refused_by_name(params, message):
    with pytest.raises(ValueError, match=message):
        make_comparator("best_fixed", **params).validate()
