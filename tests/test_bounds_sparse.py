"""The sparse learners' regret theorems (olbench/bounds/sparse.py): they hold on noisy
streams for many settings, the quantity checked is a lower estimate of the composite regret
the theorems bound (computed here exactly, with every w_t, by an eager transcription), and
they say why they skip."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest

import olbench
from olbench.bounds import BoundViolation, bound_table
from olbench.comparators import make_comparator
from olbench.streams import make_stream

CHECKPOINTS = [10, 100, 1000]


def _table(key, params, seed, loss="hinge"):
    stream = make_stream("noisy", n=1000, d=8, gamma=0.05, flip_rate=0.1, seed=seed)
    X, y = stream.materialize()
    learner = olbench.make_learner(key, loss=loss, **params)
    trace = olbench.run(learner, X, y)
    fits = {}
    for theorem in olbench.bounds.declared(learner):
        for spec in theorem.needs(learner.get_params()):
            comparator = make_comparator(spec.pop("key"), **spec)
            fits[comparator.name] = comparator.fit(X, y, checkpoints=CHECKPOINTS, cache=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        table = bound_table(learner, trace, checkpoints=CHECKPOINTS, R=stream.meta.radius,
                            fits=fits)
    return table, X, y, fits


@pytest.mark.parametrize("key,params", [
    ("rda", {"eta": 0.1, "l1": 0.01}), ("rda", {"eta": 1.0, "l1": 0.001, "enhancement": 0.5}),
    ("rda", {"eta": 0.05, "l1": 0.0}), ("fobos", {"eta": 0.05, "schedule": "constant",
                                                  "l1": 0.01}),
    ("fobos", {"eta": 0.5, "schedule": "constant", "l1": 0.0}),
    ("adagrad", {"eta": 0.5, "l1": 0.001}), ("adagrad", {"eta": 0.1, "delta": 0.1, "l1": 0.0}),
    ("pegasos", {"l2": 0.01}), ("pegasos", {"l2": 0.003})])
@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_the_regret_theorems_hold_on_noisy_streams(key, params, loss):
    ratios = []
    for seed in range(4):
        table, *_ = _table(key, params, seed, loss)
        assert table.bound_holds.all() and table.skip_reason.isna().all()
        ratios.append(table.ratio.max())
    assert max(ratios) > 0.01          # informative: the observed regret is not negligible


def _rda_iterates(X, y, eta, l1):
    """Every w_t of L1-RDA (hinge), eagerly: w_{t+1} from the gradient sum."""
    w, total, ws = np.zeros(X.shape[1]), np.zeros(X.shape[1]), []
    for t, (x, label) in enumerate(zip(X, y), start=1):
        ws.append(w)
        g = -label * x if label * (w @ x) < 1 else 0.0 * x
        total = total + g
        average = total / t
        w = np.where(np.abs(average) <= l1, 0.0,
                     -eta * math.sqrt(t) * (average - l1 * np.sign(average)))
    return np.array(ws)


def test_the_checked_quantity_is_below_the_composite_regret_which_is_below_the_bound():
    eta, l1 = 0.1, 0.02
    table, X, y, fits = _table("rda", {"eta": eta, "l1": l1}, seed=7)
    fit, = fits.values()
    ws = _rda_iterates(X, y, eta, l1)
    hinge = lambda margins: np.maximum(0.0, 1.0 - y * margins)   # noqa: E731
    learner = np.cumsum(hinge(np.einsum("td,td->t", ws, X)) + l1 * np.abs(ws).sum(axis=1))
    comparator = np.cumsum(hinge(X @ fit.u) + l1 * np.abs(fit.u).sum())
    for _, row in table.iterrows():
        T = int(row.t)
        composite = learner[T - 1] - comparator[T - 1]
        assert row.observed <= composite + 1e-9 <= row.bound + 1e-9
        assert composite - row.observed == pytest.approx(l1 * np.abs(ws[:T]).sum(), rel=1e-9)


@pytest.mark.parametrize("key,params,reason", [
    ("rda", {"loss": "squared"}, "its gradient l'(p) x is not bounded"),
    ("fobos", {"schedule": "constant", "l2": 0.1}, "elastic net"),
])
def test_the_theorems_say_why_they_skip(key, params, reason):
    stream = make_stream("linear_regression" if params.get("loss") == "squared" else "noisy",
                         n=200, seed=0)
    X, y = stream.materialize()
    learner = olbench.make_learner(key, **params)
    trace = olbench.run(learner, X, y)
    fits = {}
    for theorem in olbench.bounds.declared(learner):
        for spec in theorem.needs(learner.get_params()):
            comparator = make_comparator(spec.pop("key"), **spec)
            fits[comparator.name] = comparator.fit(X, y, checkpoints=[200], cache=None)
    table = bound_table(learner, trace, checkpoints=[200], R=stream.meta.radius, fits=fits)
    assert table.bound_holds.isna().all()
    assert table.skip_reason.str.contains(re.escape(reason)).all(), table.skip_reason.tolist()


def test_fobos_with_a_decreasing_step_and_pegasos_without_projection_declare_no_theorem():
    assert not olbench.bounds.declared(olbench.make_learner("fobos", schedule="sqrt"))
    assert not olbench.bounds.declared(olbench.make_learner("pegasos", project=False))
    assert not olbench.bounds.declared(olbench.make_learner("adagrad",
                                                            composite="dual_averaging"))


def test_adagrad_tracks_the_largest_weight_any_update_set():
    """The bound's max_t ||w_t||_inf: s[1] is the largest |w_j| over every round's w."""
    stream = make_stream("noisy", n=300, d=6, seed=3)
    X, y = stream.materialize()
    learner = olbench.make_learner("adagrad", eta=0.8, l1=0.05)
    largest = 0.0
    for t in range(len(y)):
        learner.learn_one(X[t], y[t])
        largest = max(largest, float(np.abs(learner.state_.w).max()))
    assert learner.state_.s[1] == pytest.approx(largest, rel=1e-15) and largest > 0
