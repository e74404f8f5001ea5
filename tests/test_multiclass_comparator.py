"""The multiclass comparator (olbench.comparators.multiclass): the best fixed W under the
multiclass hinge loss, certified, equal to an independent LP, and the regret it measures."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from olbench import make_learner, run
from olbench.comparators import make_comparator
from olbench.metrics import metrics_table
from olbench.streams import make_stream


def _noisy(seed, n=150, d=4, k=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = 1.0 + np.argmax(X @ rng.standard_normal((k, d)).T + rng.standard_normal((n, k)), 1)
    return X, y


def _primal_lp(X, y, k):
    """min sum xi  s.t.  xi_t >= 1 - (W_y - W_r).x_t (r != y_t), xi >= 0: the epigraph,
    written here from the definition (variables: W row-major, then xi)."""
    n, d = X.shape
    index = (y - 1).astype(int)
    rows, b = [], []
    for t in range(n):
        for r in range(k):
            if r != index[t]:
                row = np.zeros(k * d + n)
                row[index[t] * d:(index[t] + 1) * d] = -X[t]
                row[r * d:(r + 1) * d] = X[t]
                row[k * d + t] = -1.0
                rows.append(row), b.append(-1.0)
    c = np.concatenate([np.zeros(k * d), np.ones(n)])
    res = linprog(c, A_ub=np.array(rows), b_ub=np.array(b),
                  bounds=[(None, None)] * (k * d) + [(0, None)] * n, method="highs")
    assert res.status == 0
    return res.fun


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [2, 3, 5])
def test_the_fit_is_the_minimum_of_an_independent_lp_and_certified(seed, k):
    X, y = _noisy(seed, k=k)
    fit = make_comparator("multiclass_best_fixed").fit(X, y, cache=None)
    assert fit.ok and fit.loss == "multiclass_hinge"
    assert fit.cum_loss == pytest.approx(_primal_lp(X, y, k), rel=1e-7, abs=1e-7)
    assert fit.lower_bound <= fit.objective and fit.gap <= 1e-6 * max(1.0, fit.objective)
    scores = X @ fit.u.T                      # the losses are W's, computed here again
    own = scores[np.arange(len(y)), (y - 1).astype(int)]
    rival = np.where(np.arange(k) == (y - 1)[:, None], -np.inf, scores).max(1)
    np.testing.assert_allclose(fit.losses, np.maximum(0.0, 1.0 - (own - rival)), atol=1e-12)
    np.testing.assert_array_equal(fit.predicted, np.argmax(scores, axis=1))


def test_sparse_rows_give_the_same_fit_and_any_order_the_same_w():
    X, y = _noisy(7)
    dense = make_comparator("multiclass_best_fixed").fit(X, y, cache=None)
    csr = make_comparator("multiclass_best_fixed").fit(sp.csr_matrix(X), y, cache=None)
    assert csr.cum_loss == pytest.approx(dense.cum_loss, rel=1e-9)
    order = np.random.default_rng(0).permutation(len(y))
    shuffled = make_comparator("multiclass_best_fixed").fit(X[order], y[order], cache=None)
    np.testing.assert_array_equal(shuffled.u, dense.u)
    np.testing.assert_array_equal(shuffled.losses, dense.losses[order])
    np.testing.assert_array_equal(shuffled.predicted, dense.predicted[order])


def test_a_separable_stream_costs_it_nothing():
    stream = make_stream("multiclass_separable", n=300, d=5, k=4, gamma=0.05, seed=1)
    X, y = stream.materialize()
    fit = make_comparator("multiclass_best_fixed").fit(X, y, stream.meta, cache=None)
    assert fit.cum_loss == pytest.approx(0.0, abs=1e-6)
    np.testing.assert_array_equal(fit.predicted + 1, y)


@pytest.mark.parametrize("tie", ["novikoff", "libol"])
def test_regret_and_mistake_regret_against_it(tie):
    X, y = _noisy(3, n=400)
    learner = make_learner("multiclass_pa", variant="pa")
    trace = run(learner, X, y, tie=tie)
    fit = make_comparator("multiclass_best_fixed").fit(X, y, cache=None)
    table = metrics_table(trace, fits={"w": fit}, checkpoints=[100, 400], bounds=False)
    final = table[table["t"] == 400].iloc[0]
    assert final["regret"] == pytest.approx(trace.cumulative_loss - fit.cum_loss)
    wrong = fit.margins <= 0 if tie == "novikoff" else fit.predicted != trace.y
    assert final["comparator_mistakes"] == wrong.sum()
    assert final["mistake_regret"] == trace.n_mistakes - wrong.sum()


def test_the_tasks_are_kept_apart_by_name():
    binary = make_stream("separable", n=20)
    with pytest.raises(ValueError, match=r"comparator multiclass_best_fixed measures multiclass "
                                         r"classification runs .* but Separable\[.*\] is a "
                                         r"classification stream"):
        make_comparator("multiclass_best_fixed").fit(*binary.materialize(), binary.meta)
    multi = make_stream("multiclass_separable", n=20)
    with pytest.raises(ValueError, match=r"but MulticlassSeparable\[.*\] is a multiclass "
                                         r"classification stream .*; use "
                                         r"comparator=multiclass_best_fixed"):
        make_comparator("best_fixed").fit(*multi.materialize(), multi.meta)


# ------------------------------------------------------------------ the ridge form (QP)
def _kesler_rows(X, y, k):
    """Each (round, rival) constraint's row of (W_y - W_r).x as a vector over W, row-major,
    written from the definition."""
    n, d = X.shape
    rows = []
    for t in range(n):
        own = int(y[t]) - 1
        for r in range(k):
            if r != own:
                row = np.zeros(k * d)
                row[own * d:(own + 1) * d], row[r * d:(r + 1) * d] = X[t], -X[t]
                rows.append((t, row))
    return rows


def _quadratic_program(H, c, A, lower_bounds, start):
    """min c.z + z'Hz/2 s.t. A z >= 1, z >= lower_bounds, by SciPy's trust-constr (an
    interior point of its own, independent of the comparator's Clarabel and NNLS): its
    objective, to its barrier's accuracy (about 1e-6 relative), and z."""
    from scipy.optimize import Bounds, LinearConstraint, minimize

    res = minimize(lambda z: c @ z + 0.5 * z @ H @ z, start, jac=lambda z: c + H @ z,
                   hess=lambda z: H, method="trust-constr",
                   constraints=[LinearConstraint(A, 1.0, np.inf)],
                   bounds=Bounds(lower_bounds, np.inf),
                   options={"gtol": 1e-12, "xtol": 1e-14, "barrier_tol": 1e-12,
                            "maxiter": 20000})
    assert res.status in (1, 2), res.message
    return res.fun, res.x


def _ridge_primal(X, y, k, lam):
    """min sum xi + lam/2 ||W||^2 s.t. (W_y - W_r).x_t + xi_t >= 1, xi >= 0, written from
    the definition (variables: W row-major, then xi)."""
    n, d = X.shape
    A = np.array([np.concatenate([row, np.eye(n)[t]]) for t, row in _kesler_rows(X, y, k)])
    H = np.diag(np.concatenate([np.full(k * d, lam), np.zeros(n)]))
    objective, z = _quadratic_program(
        H, np.concatenate([np.zeros(k * d), np.ones(n)]), A,
        np.concatenate([np.full(k * d, -np.inf), np.zeros(n)]),
        np.concatenate([np.zeros(k * d), np.full(n, 2.0)]))
    return objective, z[:k * d].reshape(k, d)


@pytest.mark.parametrize("lam", [0.1, 2.0])
@pytest.mark.parametrize("k", [2, 4])
def test_the_ridge_form_is_crammer_singers_svm_solved_and_certified(k, lam):
    X, y = _noisy(1, n=40, d=3, k=k)
    fit = make_comparator("multiclass_best_fixed", ridge=lam).fit(X, y, cache=None)
    objective, W = _ridge_primal(X, y, k, lam)
    # the same optimum; the comparator's is certified, the other is a barrier's approximation
    assert fit.ok and fit.objective == pytest.approx(objective, rel=1e-5)
    assert fit.objective <= objective + 1e-9
    np.testing.assert_allclose(fit.u, W, atol=1e-4)        # strictly convex: one minimiser
    assert fit.lower_bound <= fit.objective and fit.gap <= 1e-6 * fit.objective
    # cum_loss is the hinge part, the ridge is in the objective only
    assert fit.cum_loss == pytest.approx(fit.objective - 0.5 * lam * (fit.u ** 2).sum(),
                                         rel=1e-12)
    plain = make_comparator("multiclass_best_fixed").fit(X, y, cache=None)
    assert plain.cum_loss <= fit.cum_loss + 1e-9 and plain.objective <= fit.objective
    assert make_comparator("multiclass_best_fixed").name == "MulticlassBestFixed[loss=None]"
    assert f"ridge={lam}" in fit.comparator


def test_a_dual_point_is_made_feasible_and_bounds_the_optimum_from_below():
    from olbench.comparators.multiclass import (
        feasible_dual,
        kesler_columns,
        ridge_dual_value,
    )

    X, y = _noisy(2, n=30, d=3, k=3)
    fit = make_comparator("multiclass_best_fixed", ridge=1.0).fit(X, y, cache=None)
    Z = kesler_columns(X, (y - 1).astype(int), 3)
    rng = np.random.default_rng(0)
    for _ in range(20):                          # weak duality at random feasible points
        a = feasible_dual(rng.uniform(-0.5, 1.5, 60), 30, 3)
        assert (a >= 0).all() and (a.reshape(30, 2).sum(1) <= 1 + 1e-15).all()
        assert ridge_dual_value(Z, a, 1.0) <= fit.objective + 1e-9


# ------------------------------------------------------------------ the hard margin
def _hard_margin(X, y, k):
    """min ||W||^2 / 2 s.t. (W_y - W_r).x_t >= 1, written from the definition."""
    A = np.array([row for _, row in _kesler_rows(X, y, k)])
    size = A.shape[1]
    return _quadratic_program(np.eye(size), np.zeros(size), A, np.full(size, -np.inf),
                              np.zeros(size))[1].reshape(k, -1)


@pytest.mark.parametrize("seed", range(3))
def test_the_hard_margin_is_the_least_norm_separating_w(seed):
    stream = make_stream("multiclass_separable", n=60, d=3, k=3, gamma=0.1, seed=seed)
    X, y = stream.materialize()
    fit = make_comparator("multiclass_max_margin").fit(X, y, stream.meta, cache=None)
    W = _hard_margin(X, y, 3)
    assert fit.ok and np.linalg.norm(fit.u) == pytest.approx(np.linalg.norm(W), rel=1e-5)
    assert np.linalg.norm(fit.u) <= np.linalg.norm(W) * (1 + 1e-6)   # the least norm
    np.testing.assert_allclose(fit.u, W, atol=1e-4)
    assert fit.margins.min() == pytest.approx(1.0, abs=1e-9) and (fit.losses == 0).all()
    gamma = fit.info["gamma"]
    assert gamma == pytest.approx(1.0 / np.linalg.norm(fit.u), rel=1e-12)
    # the stream's own W* separates it with its margin: the largest margin is at least that
    assert stream.meta.margin <= gamma + 1e-12 and gamma <= fit.info["gamma_upper"] + 1e-12


def test_data_no_w_separates_are_a_skip():
    X, y = _noisy(0)
    fit = make_comparator("multiclass_max_margin").fit(X, y, cache=None)
    assert not fit.ok and fit.skip_reason.startswith("not separable")


def test_the_bounds_take_the_hard_margin_when_the_stream_does_not_know_its_own():
    from olbench.bounds import bound_table

    stream = make_stream("multiclass_separable", n=400, d=4, k=3, gamma=0.05, seed=3)
    X, y = stream.materialize()
    learner = make_learner("multiclass_perceptron")
    trace = run(learner, X, y)
    fit = make_comparator("multiclass_max_margin").fit(X, y, stream.meta, cache=None)
    R = float(np.linalg.norm(X, axis=1).max())
    table = bound_table(learner, trace, checkpoints=[400], R=R, fits={"mm": fit})
    row = table.iloc[0]
    assert row["bound"] == pytest.approx(2 * (R / fit.info["gamma"]) ** 2, rel=1e-12)
    assert bool(row["bound_holds"]) and row["observed"] == trace.updated.sum()
    # tighter than the stream's own W* gives
    own = bound_table(learner, trace, checkpoints=[400], R=R, margin=stream.meta.margin)
    assert row["bound"] <= own["bound"].iloc[0]
    Xn, yn = _noisy(0)
    noisy = make_comparator("multiclass_max_margin").fit(Xn, yn, cache=None)
    skipped = bound_table(learner, run(learner, Xn, yn), checkpoints=[150], R=1.0,
                          fits={"mm": noisy})
    assert skipped["skip_reason"].iloc[0].startswith("the stream is not separable")
