"""Kernel learners (issue 13): with the linear kernel each equals its linear twin; budgets
bound memory; the kernel mistake bounds hold on random streams. Exactness against the
plain-numpy twins and the registry-wide contracts run from tests/naive/."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from conftest import make_data

import olbench
from olbench import make_learner, run
from olbench.bounds import BoundViolation, RunRecord
from olbench.bounds.kernel import FORGETRON_MISTAKES, KERNEL_NOVIKOFF
from olbench.comparators import make_comparator
from olbench.component import InvalidParameterError
from olbench.learners import Learner
from olbench.rules import rkhs
from olbench.streams import make_stream

LINEAR_TOL = dict(rtol=1e-10, atol=1e-10)

TWINS = [("kernel_perceptron", {}, "perceptron", {}),
         ("kernel_pa", {"variant": "pa"}, "pa", {"variant": "pa"}),
         ("kernel_pa", {"variant": "pa1", "C": 0.1}, "pa", {"variant": "pa1", "C": 0.1}),
         ("kernel_pa", {"variant": "pa2", "C": 0.5}, "pa", {"variant": "pa2", "C": 0.5}),
         ("kernel_pa_regression", {"variant": "pa2", "C": 2.0, "epsilon": 0.2},
          "pa_regression", {"variant": "pa2", "C": 2.0, "epsilon": 0.2}),
         ("kernel_pa_regression", {"variant": "pa", "epsilon": 0.0},
          "pa_regression", {"variant": "pa", "epsilon": 0.0}),
         ("kernel_rls", {"r": 0.5, "a": 2.0}, "rls", {"r": 0.5, "a": 2.0}),
         ("kernel_rls", {}, "arow_regression", {}),
         ("budget_perceptron", {"budget": 500}, "perceptron", {}),
         ("forgetron", {"budget": 500}, "perceptron", {})]


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("key,params,linear_key,linear_params", TWINS,
                         ids=[f"{k}-{p}" for k, p, _, _ in TWINS])
def test_linear_kernel_equals_the_linear_learner(key, params, linear_key, linear_params, fmt):
    """f(x) = sum_i w_i x_i.x = (sum_i w_i x_i).x: the dual run is the primal run (a budget
    larger than the stream never discards)."""
    kernel_learner = make_learner(key, kernel_type="linear", **params)
    X, y = make_data(kernel_learner.task, 5, n=200, zero_rows=True)
    Xf = sp.csr_matrix(X) if fmt == "csr" else X
    dual = run(kernel_learner, Xf, y)
    primal = run(make_learner(linear_key, **linear_params), Xf, y)
    np.testing.assert_allclose(dual.margins, primal.margins, **LINEAR_TOL)
    np.testing.assert_array_equal(dual.updated, primal.updated)
    w = dual.state["w"] @ dual.state["A"]            # the primal weights sum_i w_i x_i
    np.testing.assert_allclose(w, primal.state["w"], **LINEAR_TOL)
    assert dual.updated.sum() >= 20


def test_gaussian_width_is_the_books():
    """Sugiyama (2015) writes exp(-||x - x'||^2 / (2 h^2)): at distance h the kernel is e^-1/2."""
    params = rkhs.Params(rkhs.GAUSSIAN, 2 * 0.3 ** 2, 2, 1.0)
    K = rkhs.gram(params, np.array([[0.0, 0.0]]), np.array([[0.3, 0.0], [0.0, 0.6]]))
    np.testing.assert_allclose(K, [[math.exp(-0.5), math.exp(-2.0)]], rtol=1e-15)
    poly = rkhs.Params(rkhs.POLYNOMIAL, 1.0, 3, 0.5)
    assert rkhs.gram(poly, np.array([[1.0, 2.0]]), np.array([[3.0, -1.0]]))[0, 0] == 1.5 ** 3


@pytest.mark.parametrize("key,budget", [("budget_perceptron", 12), ("forgetron", 12),
                                        ("norma", 12)])
def test_budget_bounds_the_memory_and_is_reached(key, budget):
    stream = make_stream("noisy", n=3000, d=4, flip_rate=0.2, seed=3)
    learner = make_learner(key, **{Learner.registry.get(key).budget_param: budget})
    trace = run(learner, stream, chunk_size=500)
    slots = budget + (key == "forgetron")
    assert trace.state["w"].shape == (slots,) and trace.state["A"].shape == (slots, 4)
    assert int(trace.state["s"][0]) == budget          # full: the budget was binding
    assert trace.n_updates > 3 * budget


def test_budget_perceptron_seed_reproducible_and_matters():
    X, y = make_data("classification", 6, n=400)
    a, b, c = (run(make_learner("budget_perceptron", budget=10, seed=s), X, y)
               for s in (4, 4, 5))
    np.testing.assert_array_equal(a.margins, b.margins)
    assert not np.array_equal(a.margins, c.margins)


def _first_evicted_slot(seed, budget):
    """The slot the Randomized Budget Perceptron empties at its first eviction: on e_1, e_2,
    ... (linear kernel, all labels +1) every round is a mistake (margin 0), the first B fill
    the slots in order and e_{B+1} replaces the drawn one."""
    X = np.eye(budget + 1)
    trace = run(make_learner("budget_perceptron", budget=budget, seed=seed,
                             kernel_type="linear"), X, np.ones(budget + 1))
    assert trace.updated.all()
    return int(np.flatnonzero(trace.state["A"][:, budget])[0])


def test_budget_perceptron_seeds_draw_unrelated_slots():
    """Seeded with 1 + seed, the Lehmer draws of nearby seeds were multiples of each other:
    with B = 10 (48271 = 1 mod 10) the first evicted slot was seed mod 10 for every seed.
    Seeded through SeedSequence, the first slots of 200 seeds are ~uniform and unrelated to
    the seed (each pattern below holds for ~1 seed in 10 by chance)."""
    budget, seeds = 10, np.arange(200)
    slots = np.array([_first_evicted_slot(int(seed), budget) for seed in seeds])
    assert np.mean(slots == seeds % budget) < 0.25
    assert np.mean(np.diff(slots) % budget == 1) < 0.25
    assert np.bincount(slots, minlength=budget).min() >= 5      # every slot is drawn


def test_unbudgeted_state_grows_to_the_support_vectors_only():
    X, y = make_data("classification", 7, n=300)
    learner = make_learner("kernel_perceptron", h=0.7)
    trace = run(learner, X, y, chunk_size=50)
    assert learner.state_.w.shape == (trace.n_updates,)   # trimmed after the run
    assert trace.state["A"].shape == (trace.n_updates, X.shape[1])
    np.testing.assert_array_equal(trace.state["A"], X[trace.updated])
    np.testing.assert_array_equal(trace.state["w"], y[trace.updated])


def test_norma_decay_must_stay_positive():
    with pytest.raises(InvalidParameterError, match=r"NORMA: invalid eta=2\.0 with lam=0\.5"):
        run(make_learner("norma", eta=2.0, lam=0.5), np.ones((2, 2)), np.ones(2))


def _check(theorem, learner, stream, T):
    X, y = stream.materialize()
    trace = run(learner, X, y)
    fits = {}
    for spec in theorem.needs(learner.get_params()):
        comparator = make_comparator(spec["key"], **{k: v for k, v in spec.items()
                                                     if k != "key"})
        fits[comparator.name] = comparator.fit(X, y, stream.meta, cache=None)
    record = RunRecord.of(trace, learner, checkpoints=T, R=stream.meta.radius, fits=fits)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        return trace, [c for _, c in theorem.checks(record)]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("kernel", [{}, {"h": 0.4}, {"kernel_type": "polynomial", "degree": 3},
                                    {"kernel_type": "linear"}])
def test_kernel_novikoff_holds_on_random_streams(kernel, seed):
    stream = make_stream("separable", n=300, d=3, gamma=0.1, R=1.0, seed=seed)
    _, checks = _check(KERNEL_NOVIKOFF, make_learner("kernel_perceptron", **kernel), stream,
                       [30, 300])
    assert all(c.holds for c in checks) and checks[-1].observed > 0


def test_kernel_novikoff_with_the_linear_kernel_is_novikoff():
    stream = make_stream("separable", n=300, d=3, gamma=0.1, R=1.0, seed=2)
    X, y = stream.materialize()
    _, (check,) = _check(KERNEL_NOVIKOFF, make_learner("kernel_perceptron",
                                                       kernel_type="linear"), stream, [300])
    linear = make_comparator("max_margin").fit(X, y, stream.meta, cache=None)
    R = float(np.linalg.norm(X, axis=1).max())
    assert check.bound == pytest.approx((R / linear.info["gamma"]) ** 2, rel=1e-6)


def test_forgetron_bound_holds_when_the_budget_binds():
    """B = 83 (the theorem's smallest) on noisy data: dozens of removals, no violation."""
    stream = make_stream("noisy", n=300, d=2, flip_rate=0.4, seed=0)
    trace, checks = _check(FORGETRON_MISTAKES, make_learner("forgetron", budget=83, h=0.1),
                           stream, [100, 300])
    assert trace.n_mistakes > 83 + 40 and trace.state["s"][0] == 83   # 40+ removals
    assert all(c.holds for c in checks), [(c.bound, c.observed) for c in checks]


def test_forgetron_bound_skips_outside_its_assumptions():
    stream = make_stream("separable", n=100, d=3, gamma=0.1, R=2.0, seed=0)
    _, checks = _check(FORGETRON_MISTAKES, make_learner("forgetron", budget=90,
                                                        kernel_type="linear"), stream, [100])
    assert checks[0].holds is None and "k(x_t, x_t) <= 1" in checks[0].skip_reason
    _, checks = _check(FORGETRON_MISTAKES, make_learner("forgetron", budget=50), stream, [100])
    assert "B >= 83" in checks[0].skip_reason


def test_kernel_learners_run_from_the_registry_and_name_their_kernel():
    learner = olbench.make_learner("kernel_pa", variant="pa2", C=0.5, h=0.3)
    assert learner.display_name == "Kernel PA-II (C=0.5, kernel_type=gaussian, h=0.3)"
    poly = olbench.make_learner("kernel_perceptron", kernel_type="polynomial", degree=3)
    assert poly.display_name == "Kernel Perceptron (kernel_type=polynomial, degree=3, offset=1)"


def test_kernel_max_margin_refuses_long_streams_with_a_reason():
    X, y = make_data("classification", 8, n=50)
    fit = make_comparator("kernel_max_margin", max_rounds=40).fit(X, y, cache=None)
    assert not fit.ok and "n = 50 rounds > max_rounds = 40" in fit.skip_reason


@pytest.mark.parametrize("key,params", [("kernel_perceptron", {}), ("norma", {"tau": 3})])
def test_random_initial_weights_are_refused(key, params):
    """init=randn draws d weights; a kernel learner's w holds dual coefficients (f_0 = 0),
    even when a budget happens to equal d."""
    with pytest.raises(InvalidParameterError, match=r"invalid init='randn'.*must be 'zeros'"):
        run(make_learner(key, init="randn", **params), np.ones((2, 3)), np.ones(2))


# ------------------------------------------------------------------ sparse rows stay sparse
KERNEL_KEYS = [("kernel_perceptron", {}), ("kernel_pa", {}), ("kernel_pa_regression", {}),
               ("kernel_rls", {}), ("norma", {"tau": 40}), ("forgetron", {"budget": 30}),
               ("budget_perceptron", {"budget": 30}),
               ("kernel_perceptron", {"kernel_type": "polynomial", "degree": 2})]


def _sparse_rows(n, d, k, seed=0):
    """n rows of d features with k non-zeros each (k << d: text-like data)."""
    rng = np.random.default_rng(seed)
    cols = np.concatenate([np.sort(rng.choice(d, k, replace=False)) for _ in range(n)])
    X = sp.csr_matrix((rng.standard_normal(n * k), (np.repeat(np.arange(n), k), cols)),
                      shape=(n, d))
    u = rng.standard_normal(d)
    return X, np.where(X @ u >= 0, 1.0, -1.0), X @ u


@pytest.mark.parametrize("key,params", KERNEL_KEYS, ids=[f"{k}-{p}" for k, p in KERNEL_KEYS])
def test_sparse_rows_are_kept_packed_and_learn_as_dense_rows_do(key, params):
    """Rows of 6 non-zeros among 2,000 features: each support vector keeps its 6 entries
    (14 numbers), not 2,001, and the run is the dense run to round-off (the Gaussian's
    distance is expanded for sparse rows). Read in chunks, so the state grows and moves."""
    X, labels, targets = _sparse_rows(240, 2000, 6)
    learner = make_learner(key, **params)
    y = labels if learner.task == "classification" else targets
    packed, dense = learner.clone(), learner.clone()
    sparse_run = run(packed, X, y, chunk_size=70)
    dense_run = run(dense, X.toarray(), y)
    assert packed.state_.A.shape[1] - (packed.state_.w.shape[0] if learner.quadratic else 0) \
        == 2 * 6 + 2 and dense.state_.A.shape[1] >= 2001
    np.testing.assert_allclose(sparse_run.margins, dense_run.margins, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(sparse_run.updated, dense_run.updated)
    assert sp.issparse(sparse_run.state["A"])
    np.testing.assert_array_equal(sparse_run.state["A"].toarray(), dense_run.state["A"])
    assert sparse_run.updated.sum() >= 10


def test_packed_slots_widen_for_longer_rows_and_take_dense_rows():
    """A later chunk of longer rows widens the packed slots; dense rows given to a packed
    state (a run continued, a prediction) are packed or read as they are: the same numbers
    as a learner that saw every row dense."""
    short, labels_short, _ = _sparse_rows(60, 500, 2, seed=1)
    long, labels_long, _ = _sparse_rows(60, 500, 9, seed=2)
    mixed = make_learner("kernel_perceptron", h=2.0)
    reference = make_learner("kernel_perceptron", h=2.0)
    first = run(mixed, short, labels_short)
    assert mixed.state_.s[2] == 2
    second = run(mixed, long, labels_long, reset=False)
    assert mixed.state_.s[2] == 9 and mixed.state_.A.shape[1] == 20
    third = run(mixed, long[:20].toarray(), labels_long[:20], reset=False)
    dense_runs = [run(reference, short.toarray(), labels_short),
                  run(reference, long.toarray(), labels_long, reset=False),
                  run(reference, long[:20].toarray(), labels_long[:20], reset=False)]
    for got, want in zip((first, second, third), dense_runs):
        np.testing.assert_allclose(got.margins, want.margins, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(olbench.predict(mixed, long.toarray()),
                               olbench.predict(reference, long), rtol=1e-12, atol=1e-12)


def test_dense_rows_of_a_packed_state_turn_it_dense_when_packing_no_longer_saves():
    X, y, _ = _sparse_rows(30, 12, 2, seed=3)          # 2 of 12: packed (6 < 13 columns)
    learner = make_learner("kernel_pa")
    run(learner, X, y)
    assert learner.state_.s[2] == 2
    dense_rows = np.random.default_rng(4).standard_normal((10, 12))
    continued = run(learner, dense_rows, np.ones(10), reset=False)
    assert learner.state_.s[2] == 0 and learner.state_.A.shape[1] == 13
    reference = make_learner("kernel_pa")
    run(reference, X.toarray(), y)
    np.testing.assert_allclose(continued.margins,
                               run(reference, dense_rows, np.ones(10), reset=False).margins,
                               rtol=1e-12, atol=1e-12)
