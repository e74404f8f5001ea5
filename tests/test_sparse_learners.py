"""The sparse learners of issue 27 (truncated gradient, FOBOS, RDA, AdaGrad, Pegasos) beyond
what every learner is held to (its naive twin on dense and CSR rows, the registry-wide
contract, which includes chunked and single-step runs bit-identical to a whole run): their
lazy steps equal the eager rules when most coordinates sit untouched for hundreds of rounds,
a row touches only its own columns' state, the L1 strength buys exact zeros, river's AdaGrad
is the same rule, and bad parameters are refused by name."""

from __future__ import annotations

import naive
import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, run

#: one L1-regularised setting per lazy learner (Pegasos: its L2 shrink and projection)
LAZY = {
    "truncated_gradient": {"eta": 0.3, "gravity": 0.02, "theta": 0.5, "period": 3},
    "fobos": {"eta": 0.5, "l1": 0.01, "l2": 0.05},
    "rda": {"eta": 0.2, "l1": 0.01, "enhancement": 0.2},
    "adagrad": {"eta": 0.5, "l1": 0.01},
    "adagrad_dual": {"eta": 0.5, "l1": 0.01, "composite": "dual_averaging"},
    "pegasos": {"l2": 0.05},
}


def _key(name):
    return "adagrad" if name == "adagrad_dual" else name


def _sparse_stream(n=400, d=3000, per_row=5, seed=0):
    """n rows of ``per_row`` non-zeros among d columns, labels from a planted sparse u:
    most columns go hundreds of rounds between two rows that touch them."""
    rng = np.random.default_rng(seed)
    cols = np.concatenate([np.sort(rng.choice(d, per_row, replace=False)) for _ in range(n)])
    X = sp.csr_matrix((rng.standard_normal(n * per_row),
                       (np.repeat(np.arange(n), per_row), cols)), shape=(n, d))
    u, active = np.zeros(d), min(50, d // 2)
    u[rng.choice(d, active, replace=False)] = rng.standard_normal(active)
    y = np.where(X @ u >= 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("name", LAZY)
def test_lazy_steps_equal_the_eager_rule_on_rows_hundreds_of_rounds_apart(name):
    X, y = _sparse_stream()
    params = LAZY[name]
    trace = run(make_learner(_key(name), **params), X, y)
    margins, updated, state = naive.TWINS[_key(name)](X.toarray(), y, **params)
    np.testing.assert_allclose(trace.margins, margins, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(trace.updated, updated)
    np.testing.assert_allclose(trace.state["w"], state["w"], rtol=1e-12, atol=1e-12)
    assert trace.updated.sum() > 100


@pytest.mark.parametrize("name", LAZY)
def test_a_row_touches_only_its_own_columns_state(name):
    """The columns no row has keep their initial per-coordinate state (nothing was written
    there by any round: the rounds cost O(non-zeros)), and read 0 at the end."""
    X, y = _sparse_stream(n=200, d=500)
    X = X.tolil()
    X[:, 7] = 0.0
    X[:, 300] = 0.0
    X = X.tocsr()
    X.eliminate_zeros()
    learner = make_learner(_key(name), **LAZY[name])
    fresh = learner.clone().reset(X.shape[1]).state_.A.copy()
    trace = run(learner, X, y)
    for j in (7, 300):
        np.testing.assert_array_equal(trace.state["A"][:, j], fresh[:, j])
        assert trace.state["w"][j] == 0.0


@pytest.mark.parametrize("key,strength", [("truncated_gradient", "gravity"), ("fobos", "l1"),
                                          ("rda", "l1"), ("adagrad", "l1")])
def test_a_stronger_l1_gives_more_exact_zeros(key, strength):
    X, y = _sparse_stream(n=600, d=400, per_row=20, seed=3)
    zeros = []
    for value in (0.0, 0.005, 0.05, 1e3):
        w = run(make_learner(key, **{strength: value}), X, y).state["w"]
        zeros.append(int(np.sum(w == 0.0)))
    assert zeros == sorted(zeros) and zeros[0] < zeros[-1] == X.shape[1]


def test_rounding_zeroes_the_small_weights_every_period_only():
    """Langford et al.'s coefficient rounding: between two truncation rounds weights below
    theta survive; on a truncation round every one of them is 0."""
    X, y = _sparse_stream(n=60, d=40, per_row=8, seed=5)
    learner = make_learner("truncated_gradient", eta=0.3, theta=0.2, period=10,
                           truncation="rounding")
    for rows in (55, 60):
        w = run(learner.clone(), X[:rows], y[:rows]).state["w"]
        small = (w != 0.0) & (np.abs(w) <= 0.2)
        assert small.any() if rows == 55 else not small.any()


def test_fobos_and_truncated_gradient_keep_a_given_w0_shrinking_until_touched():
    w0 = np.array([0.9, -0.05, 0.3, 0.0])
    X = sp.csr_matrix(np.array([[0.0, 0.0, 0.0, 1.0]] * 4))
    y = np.array([1.0, -1.0, 1.0, -1.0])
    fobos = run(make_learner("fobos", eta=0.5, schedule="constant", l1=0.1, l2=0.2, init=w0),
                X, y).state["w"]
    eager = w0[:3].copy()
    for _ in range(4):
        eager = np.sign(eager) * np.maximum(0.0, np.abs(eager) - 0.05) / 1.1
    np.testing.assert_allclose(fobos[:3], eager, rtol=1e-14)
    tg = run(make_learner("truncated_gradient", eta=0.5, gravity=0.1, theta=0.5, period=2,
                          init=w0), X, y).state["w"]
    # two truncations (rounds 2 and 4) of eta K gravity = 0.1; 0.9 > theta is left alone
    np.testing.assert_allclose(tg[:3], [0.9, 0.0, 0.1], rtol=1e-14)


@pytest.mark.parametrize("key,params", [("rda", {}),
                                        ("adagrad", {"composite": "dual_averaging"})])
def test_dual_averaging_refuses_a_given_w0(key, params):
    learner = make_learner(key, init=[1.0, 0.0], **params)
    with pytest.raises(ValueError, match=r"does not apply: a dual-averaging rule's first point"):
        run(learner, np.eye(2), np.array([1.0, -1.0]))


def test_pegasos_stays_in_the_ball_where_the_svm_optimum_lies():
    X, y = _sparse_stream(n=500, d=200, per_row=10, seed=7)
    for l2 in (1e-3, 1e-4):
        w = run(make_learner("pegasos", l2=l2), X, y).state["w"]
        assert np.linalg.norm(w) <= 1.0 / np.sqrt(l2) * (1 + 1e-12)
        free = run(make_learner("pegasos", l2=l2, project=False), X, y).state["w"]
        assert np.linalg.norm(free) > 1.5 / np.sqrt(l2)   # the projection did something


@pytest.mark.parametrize("loss", ["squared", "logistic"])
def test_river_adagrad_is_the_same_rule(loss):
    """river's AdaGrad optimiser (lr / sqrt(sum g^2 + eps)) on a linear model without
    intercept is diagonal AdaGrad's mirror descent with delta = eps = 0 and no L1 (on rows
    without zeros, where river's 0/0 never arises); river's losses differ from ours by a
    constant factor in the gradient, which AdaGrad's step cancels."""
    river = pytest.importorskip("river")
    from conftest import make_data
    from river import linear_model, optim

    task = "regression" if loss == "squared" else "classification"
    X, y = make_data(task, 11, n=300)
    assert np.all(X != 0.0)
    model_class = linear_model.LinearRegression if loss == "squared" else \
        linear_model.LogisticRegression
    model = model_class(optimizer=optim.AdaGrad(lr=0.3, eps=0.0), intercept_lr=0.0, l2=0.0)
    for x, label in zip(X, y):
        model.learn_one({j: float(v) for j, v in enumerate(x)},
                        float(label) if loss == "squared" else bool(label > 0))
    theirs = np.array([model.weights.get(j, 0.0) for j in range(X.shape[1])])
    ours = run(make_learner("adagrad", loss=loss, eta=0.3, delta=0.0), X, y).state["w"]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
    assert river.__version__


@pytest.mark.parametrize("key,bad", [
    ("truncated_gradient", {"gravity": -0.1}), ("truncated_gradient", {"theta": float("nan")}),
    ("truncated_gradient", {"period": 0}), ("truncated_gradient", {"period": 2.5}),
    ("truncated_gradient", {"eta": 0.0}), ("truncated_gradient", {"truncation": "round"}),
    ("fobos", {"l1": -1.0}), ("fobos", {"l2": float("inf")}), ("fobos", {"eta": float("nan")}),
    ("rda", {"enhancement": -0.5}), ("rda", {"l1": float("nan")}),
    ("adagrad", {"delta": -1.0}), ("adagrad", {"composite": "fobos"}),
    ("pegasos", {"l2": 0.0}), ("pegasos", {"project": "yes"})])
def test_bad_parameters_are_refused_by_name(key, bad):
    (name, value), = bad.items()
    with pytest.raises(ValueError, match=rf"invalid {name}="):
        make_learner(key, **bad).validate()


def test_nonzero_weights_at_a_checkpoint_are_those_of_the_run_stopped_there():
    X, y = _sparse_stream(n=300, d=600, per_row=6, seed=9)
    learner = make_learner("fobos", eta=0.5, l1=0.02)
    trace = run(learner.clone(), X, y, checkpoints=[40, 120, 300], chunk_size=100)
    counts = [np.count_nonzero(run(learner.clone(), X[:k], y[:k]).state["w"])
              for k in (40, 120, 300)]
    assert trace.nonzero_at([40, 120, 300]).tolist() == counts
    assert counts[0] < counts[-1] < X.shape[1]   # grows, and l1 keeps some at 0
    kernel = run(make_learner("kernel_perceptron"), X[:20].toarray(), y[:20], checkpoints=[10])
    assert np.isnan(kernel.nonzero_at(10))        # its w holds coefficients, not weights


def test_the_results_table_has_the_nonzero_weights_of_every_checkpoint(tmp_path):
    import olbench
    from olbench import schema as col

    results = olbench.run_experiment(learner="rda", stream="separable", seeds=[0],
                                     output_dir=tmp_path, figures=False, n_jobs=1, quiet=True,
                                     comparators=False, bounds=False,
                                     **{"stream.n": 400, "stream.d": 30, "learner.l1": 0.05,
                                        "run.checkpoints": 5})
    table = results.table.sort_values(col.T)
    assert table[col.T].tolist() == [1, 4, 20, 89, 400]
    from olbench.streams import make_stream

    seed = int(table[col.STREAM].iloc[0].split("seed=")[1].split(",")[0])   # the run's child
    X, y = make_stream("separable", n=400, d=30, seed=seed).materialize()
    expected = [np.count_nonzero(run(make_learner("rda", l1=0.05), X[:k], y[:k]).state["w"])
                for k in table[col.T]]
    assert table[col.NONZERO_WEIGHTS].tolist() == expected


def test_pegasos_forgets_a_given_w0_after_its_first_prediction():
    """The first step shrinks w_1 by 1 - eta_1 l2 = 0: from a given w0, only the first
    margin differs from a run from 0 (the rule clears v then, which a run from 0 skips)."""
    X, y = _sparse_stream(n=200, d=50, per_row=5, seed=11)
    w0 = np.linspace(-1.0, 1.0, 50)
    given = run(make_learner("pegasos", l2=0.1, init=w0), X, y)
    zero = run(make_learner("pegasos", l2=0.1), X, y)
    assert given.margins[0] == pytest.approx(X[0].toarray().ravel() @ w0, rel=1e-15)
    np.testing.assert_array_equal(given.margins[1:], zero.margins[1:])
    np.testing.assert_array_equal(given.state["w"], zero.state["w"])
