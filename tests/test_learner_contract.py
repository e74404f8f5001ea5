"""Checks every registered learner passes, found through the registry (no hand list)."""

from __future__ import annotations

import os
import tracemalloc

import naive
import numpy as np
import pytest
import scipy.sparse as sp
from conftest import learner_data, make_data

from olbench import make_learner, run
from olbench.component import InvalidParameterError
from olbench.learners import Learner
from olbench.learning_task import UNLABELLED_TASKS
from olbench.resources import RECORD_BYTES_PER_ROUND

KEYS = Learner.registry.keys()


def _learner(key, **params):
    """make_learner, with a multiclass learner's classes (1..4, make_data's) declared, so
    that a run on a few of the rows has the same classes as one on all of them."""
    if Learner.registry.get(key).task == "multiclass":
        params.setdefault("classes", 4)
    return make_learner(key, **params)


def _data(learner, seed=0, **kw):
    return learner_data(learner, seed, n=120, d=5, **kw)


@pytest.mark.parametrize("key", KEYS)
def test_no_look_ahead(key, as_format):
    """p_t must not depend on y_t: flipping (or moving) y_t leaves p_1..p_t unchanged. In
    online convex optimisation the row is the loss and p_t = f_t(w_t) is the loss suffered:
    changing row t must leave p_1..p_{t-1} unchanged, and y is ignored altogether."""
    learner = _learner(key)
    X, y = _data(learner)
    first = run(learner, as_format(X), y)
    base = first.margins
    if learner.task in UNLABELLED_TASKS:   # OCO, online PCA: the row is all there is
        # y is unused: left out (None) it is the same run (labels in it are refused)
        np.testing.assert_array_equal(run(learner.clone(), as_format(X)).margins, base)
        discrete = np.isin(base, (0.0, 1.0)).all()    # a mistake indicator (weighted majority)
        for t in (0, 1, 37, 118):
            X2 = X.copy()
            # one coordinate: a shift of all of them moves no Hedge (within [0, 1] for it)
            X2[t, 0] = (X2[t, 0] <= 0.5) if learner.loss_range else X2[t, 0] + 1.0
            trace = run(learner.clone(), as_format(X2), y)
            np.testing.assert_array_equal(trace.margins[:t], base[:t])
            # it learns from row t: the later losses change, or for a 0/1 output (which a
            # small change of the weights may leave as it is) the weights do
            assert not np.array_equal(trace.margins[t + 1:], base[t + 1:]) or (
                discrete and not np.array_equal(trace.state["w"], first.state["w"]))
        return
    if learner.task == "multiclass":
        # what is played before y_t is the class predicted; the margin recorded at round t
        # is measured against y_t, so it is the rounds before t that must not change
        for t in (0, 1, 37, 119):
            y2 = y.copy()
            y2[t] = 1.0 + y2[t] % 4
            trace = run(learner.clone(), as_format(X), y2)
            np.testing.assert_array_equal(trace.predicted[: t + 1], first.predicted[: t + 1])
            np.testing.assert_array_equal(trace.margins[:t], base[:t])
            if t < 119:
                assert not np.array_equal(trace.margins[t + 1:], base[t + 1:])
        return
    for t in (0, 1, 37, 119):
        y2 = y.copy()
        y2[t] = -y2[t] if learner.task == "classification" else y2[t] + 5.0
        margins = run(learner.clone(), as_format(X), y2).margins
        np.testing.assert_array_equal(margins[: t + 1], base[: t + 1])
        if t < 119:   # it learns from y_t: a later prediction changes
            assert not np.array_equal(margins[t + 1:], base[t + 1:])


@pytest.mark.parametrize("key", KEYS)
def test_deterministic_and_inputs_not_mutated(key, as_format):
    learner = _learner(key)
    X, y = _data(learner, seed=1)
    Xf, y_copy = as_format(X), y.copy()
    before = Xf.copy()
    first, second = run(learner, Xf, y), run(learner, Xf, y)
    np.testing.assert_array_equal(first.margins, second.margins)
    for name in first.state:
        np.testing.assert_array_equal(first.state[name], second.state[name])
    np.testing.assert_array_equal(y, y_copy)
    if sp.issparse(Xf):
        assert (Xf != before).nnz == 0
    else:
        np.testing.assert_array_equal(Xf, before)


@pytest.mark.parametrize("key", KEYS)
def test_zero_vectors_are_handled(key, as_format):
    """At its defaults and at each setting of its exactness cases (tests/naive.py)."""
    for params in [{}, *naive.SETTINGS.get(key, [])]:
        learner = _learner(key, **params)
        X, y = _data(learner, seed=2)
        X[::3] = 0.0
        trace = run(learner, as_format(X), y)
        assert np.isfinite(trace.margins).all()
        assert all(np.isfinite(v).all() for v in trace.state.values())
        # a zero row predicts 0 and leaves the weights where they were, unless the learner
        # declares that it may not (olbench.learners.traits: moves_on_zero_rows)
        if learner.moves_on_zero_rows:
            continue
        w_before = run(learner.clone(), as_format(X[:3]), y[:3]).state["w"]
        w_after = run(learner.clone(), as_format(X[:4]), y[:4]).state["w"]  # row 3 is zero
        np.testing.assert_array_equal(w_before, w_after, err_msg=f"{key} {params}")


@pytest.mark.parametrize("key", KEYS)
def test_clone_round_trip_and_name(key):
    learner = _learner(key)
    X, y = _data(learner)
    run(learner, X, y)
    twin = learner.clone()
    assert twin.get_params() == learner.get_params()
    assert twin.name == learner.name == repr(learner)
    assert twin.name.startswith(type(learner).__name__ + "[")
    assert not twin.is_initialised and learner.is_initialised
    assert type(Learner.registry.get(key)) is type(type(learner))


@pytest.mark.parametrize("key", KEYS)
def test_single_steps_equal_run(key, as_format):
    learner = _learner(key)
    X, y = _data(learner, seed=3)
    trace = run(learner.clone(), as_format(X), y)
    stepper = learner.clone()
    margins = []
    for t in range(X.shape[0]):
        row = as_format(X[t:t + 1]) if sp.issparse(as_format(X[:1])) else X[t]
        if not stepper.is_initialised:         # the initial state (w_1 = 0, or uniform)
            stepper.reset(X.shape[1])
        margins.append(stepper.predict_one(row))
        stepper.learn_one(row, y[t])
    # (a multiclass learner's predict_one is the class it predicts)
    np.testing.assert_array_equal(
        margins, trace.predictions if learner.task == "multiclass" else trace.margins)
    np.testing.assert_array_equal(stepper.state_.w, trace.state["w"])


@pytest.mark.parametrize("key", KEYS)
def test_fresh_predict_one_is_the_initial_state_and_changes_nothing(key, as_format):
    """predict-then-learn from the first example: a fresh learner predicts what it would
    after reset(d) (w = 0: margin 0; OCO: f_1(w_1) at w_1 = P_K(0)), and stays fresh, so
    learn_one and run after it are what they are without it."""
    learner = _learner(key)
    X, y = _data(learner, seed=5)
    rows = [as_format(X[t:t + 1]) if sp.issparse(as_format(X[:1])) else X[t] for t in (0, 1)]
    initial = learner.clone().reset(X.shape[1])
    fresh = learner.predict_one(rows[0])
    assert fresh == initial.predict_one(rows[0])
    if learner.task == "multiclass":
        assert fresh == 1.0                      # W = 0: every score ties, the first class
    elif learner.task not in UNLABELLED_TASKS:
        assert fresh == 0.0                      # w = 0, no support vector yet
    assert not learner.is_initialised
    stepped = learner.learn_one(rows[0], y[0]).predict_one(rows[1])
    assert stepped == learner.clone().learn_one(rows[0], y[0]).predict_one(rows[1])
    after_predict = learner.clone()
    after_predict.predict_one(rows[1])
    trace, untouched = run(after_predict, as_format(X), y), run(learner.clone(), as_format(X), y)
    np.testing.assert_array_equal(trace.margins, untouched.margins)
    np.testing.assert_array_equal(trace.state["w"], untouched.state["w"])


@pytest.mark.parametrize("key", KEYS)
def test_chunked_run_equals_whole_run(key):
    learner = _learner(key)
    X, y = _data(learner, seed=4)
    whole = run(learner.clone(), X, y)
    chunked = run(learner.clone(), X, y, chunk_size=17)
    np.testing.assert_array_equal(whole.margins, chunked.margins)
    np.testing.assert_array_equal(whole.state["w"], chunked.state["w"])
    # and continuing with reset=False is the same as one run
    part = learner.clone()
    run(part, X[:50], y[:50])
    rest = run(part, X[50:], y[50:], reset=False)
    np.testing.assert_array_equal(rest.margins, whole.margins[50:])


@pytest.mark.parametrize("key", KEYS)
def test_every_constraint_rejects_a_bad_value(key):
    cls = Learner.registry.get(key)
    X, y = _data(cls())
    for param, constraint in cls.constraints.items():
        bad = next(v for v in (-1.0, float("nan"), "nonsense", None, 0.0)
                   if not constraint.check(v))
        with pytest.raises(InvalidParameterError, match=rf"invalid {param}=.*{param} must be"):
            run(cls(**{param: bad}), X, y)


def test_constraint_message_names_parameter_and_range():
    with pytest.raises(InvalidParameterError) as info:
        run(make_learner("pa", C=-2.0), np.ones((2, 2)), np.ones(2))
    assert str(info.value) == "PA: invalid C=-2.0; C must be a number in (0, inf)"


def test_unknown_learner_lists_known_ones():
    with pytest.raises(KeyError, match=r"unknown learner 'nope'; known learners: .*perceptron"):
        make_learner("nope")


def test_trace_bookkeeping():
    X, y = make_data("classification", 9, n=200)
    trace = run(make_learner("perceptron"), X, y)
    assert trace.n == 200 and trace.n_features == X.shape[1]
    assert trace.n_mistakes == int((y * trace.margins <= 0).sum()) == trace.n_updates
    np.testing.assert_allclose(trace.losses, np.maximum(0, 1 - y * trace.margins))
    np.testing.assert_allclose(trace.loss("logistic"), np.logaddexp(0, -y * trace.margins))
    assert trace.cumulative_loss == pytest.approx(trace.losses.sum())
    assert trace.time_s > 0


def test_tie_rules_differ_exactly_on_zero_margins():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
    y = np.array([1.0, 1.0, -1.0])
    novikoff = run(make_learner("perceptron"), X, y)
    libol = run(make_learner("perceptron", libol=True), X, y)
    # p = 0 on every round: always a mistake for Novikoff; for LIBOL sign(0) = +1 is right
    # when y = +1 (rounds 0 and 1, so w stays 0) and wrong when y = -1 (round 2)
    assert novikoff.updated.tolist() == [True, True, True]
    assert libol.updated.tolist() == [False, False, True]
    assert novikoff.n_mistakes == 3 and libol.n_mistakes == 1
    assert run(make_learner("perceptron"), X, y, tie="libol").n_mistakes == 1


def _footprint_data(learner, fmt):
    """300 rows: 150 dense features, or 6 non-zeros among 400 (values in [0, 1], which are
    losses too)."""
    if fmt == "dense":
        X, y = make_data(learner.task, 0, n=300, d=150)
        if learner.task == "oco":
            X = np.abs(X) / (1.0 + np.abs(X))
        return X, y, None
    rng = np.random.default_rng(0)
    cols = np.concatenate([np.sort(rng.choice(400, 6, replace=False)) for _ in range(300)])
    X = sp.csr_matrix((rng.random(300 * 6), (np.repeat(np.arange(300), 6), cols)),
                      shape=(300, 400))
    u = rng.standard_normal(400)
    y = (np.where(X @ u >= 0, 1.0, -1.0) if learner.task == "classification" else
         1.0 + np.digitize(X @ u, [-0.5, 0.0, 0.5]) if learner.task == "multiclass" else
         np.zeros(300) if learner.task in UNLABELLED_TASKS else X @ u)   # y unused, 0
    return X, y, 6


#: Python objects a run allocates besides arrays (the trace, chunk bookkeeping)
FOOTPRINT_SLACK = 64 * 2**10


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1",
                    reason="measures the compiled loops' allocations (without JIT, the rules "
                           "run as Python and allocate otherwise)")
@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("key", KEYS)
def test_declared_footprint_covers_what_a_run_allocates(key, fmt):
    """Each learner's footprint (olbench.resources: what olbench.run compares with the
    memory free before allocating) against the peak of what its run allocates, traced by
    tracemalloc (numpy and numba's runtime both report to it): never below it, or a run
    that fits by its declaration would not in fact; and at most 2.5 times it (a kernel
    learner's growing state is declared with room to move to larger arrays), or runs
    that fit would be refused."""
    learner = _learner(key)
    X, y, nnz = _footprint_data(learner, fmt)
    run(learner.clone(), X[:5], y[:5])              # compiled before the measurement
    tracemalloc.start()
    try:
        run(learner.clone(), X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    n, d = X.shape
    declared = learner.footprint(n, d, nnz).nbytes + RECORD_BYTES_PER_ROUND * n
    assert peak <= declared + FOOTPRINT_SLACK, (peak, declared)
    assert declared <= 2.5 * peak + FOOTPRINT_SLACK, (peak, declared)
