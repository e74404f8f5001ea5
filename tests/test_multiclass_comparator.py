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
