"""Bounds hold where their assumptions hold (and are attained where they should be)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import olbench
from olbench import bounds
from olbench import schema as col
from olbench.bounds import BoundViolation
from olbench.checkpoints import log_checkpoints
from olbench.comparators import BestFixed, MaxMargin, PrefixBest
from olbench.metrics import metrics_table
from olbench.streams import make_stream


def separable_batch(n_streams, n=200, d=5, gamma=0.05, seed=0):
    """Plain-numpy separable streams: x uniform-ish in the unit ball, |u.x| >= gamma."""
    rng = np.random.default_rng(seed)
    for _ in range(n_streams):
        u = rng.normal(size=d)
        u /= np.linalg.norm(u)
        X = rng.normal(size=(4 * n, d)) * rng.uniform(0, 1, size=(4 * n, 1)) ** (1 / d)
        X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
        X = X[np.abs(X @ u) >= gamma][:n]
        yield X, np.sign(X @ u), u


def test_novikoff_holds_on_1000_separable_streams():
    perceptron = olbench.make_learner("perceptron")
    ratios = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for X, y, u in separable_batch(1000):
            trace = olbench.run(perceptron, X, y)
            R = np.linalg.norm(X, axis=1).max()
            gamma = (y * (X @ u)).min()                  # the generating u's margin
            c = bounds.check("novikoff", "mistakes", bounds.novikoff(R, gamma), trace.n_mistakes)
            ratios.append(c.ratio)
    assert max(ratios) <= 1.0
    print(f"Novikoff over 1000 streams: max ratio {max(ratios):.3f}, mean {np.mean(ratios):.3f}")


def test_novikoff_with_max_margin_is_tighter_and_holds():
    for X, y, u in separable_batch(30, seed=1):
        fit = MaxMargin().fit(X, y, cache=None)
        R = np.linalg.norm(X, axis=1).max()
        assert fit.info["gamma"] >= (y * (X @ u)).min() - 1e-12
        trace = olbench.run(olbench.make_learner("perceptron"), X, y)
        assert trace.n_mistakes <= bounds.novikoff(R, fit.info["gamma"])


@pytest.mark.parametrize("k", [1, 7, 50])
def test_novikoff_attained_exactly(k):
    X, y = make_stream("novikoff_tight", k=k, R=2.0, seed=3).materialize()
    X = np.asarray(X.todense()) if hasattr(X, "todense") else X
    fit = MaxMargin().fit(X, y, cache=None)
    trace = olbench.run(olbench.make_learner("perceptron"), X, y)
    R = np.linalg.norm(X, axis=1).max()
    assert fit.info["gamma"] == pytest.approx(R / np.sqrt(k), rel=1e-9)
    assert trace.n_mistakes == k == pytest.approx(bounds.novikoff(R, fit.info["gamma"]), rel=1e-9)


def noisy_batch(n_streams, n=200, d=5, flip=0.1, seed=0):
    for i in range(n_streams):
        s = make_stream("noisy", n=n, d=d, gamma=0.05, flip_rate=flip, seed=seed + i)
        X, y = s.materialize()
        yield X, y, s.meta


def test_freund_schapire_holds_on_noisy_streams():
    worst = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for X, y, meta in noisy_batch(40):
            fits = {"gen": BestFixed(loss="hinge").fit(X, y, cache=None)}
            fits["generating"] = olbench.comparators.make_comparator("generating").fit(X, y, meta)
            trace = olbench.run(olbench.make_learner("perceptron"), X, y)
            df = bounds.bound_table(trace_learner("perceptron"), trace, R=meta.radius,
                                    checkpoints=log_checkpoints(len(y)), fits=fits)
            fs = df[df.bound_name == "freund_schapire"]
            assert fs.bound_holds.all()
            worst = max(worst, fs.ratio.max())
    assert worst <= 1.0


def trace_learner(key, **kw):
    return olbench.make_learner(key, **kw)


@pytest.mark.parametrize("variant,C", [("pa1", 0.1), ("pa1", 1.0), ("pa2", 0.1), ("pa2", 1.0)])
def test_pa1_pa2_hold_on_noisy_streams(variant, C):
    learner = trace_learner("pa", C=C, variant=variant)
    loss = "hinge" if variant == "pa1" else "squared_hinge"
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for X, y, meta in noisy_batch(15, seed=100):
            fits = {"ridge": BestFixed(loss=loss, ridge=1.0 / C).fit(X, y, cache=None),
                    "gen": olbench.comparators.make_comparator(
                        "generating", scale="unit_margin").fit(X, y, meta)}
            trace = olbench.run(learner, X, y)
            df = bounds.bound_table(learner, trace, R=meta.radius,
                                    checkpoints=log_checkpoints(len(y)), fits=fits)
            assert len(df) and df.bound_holds.all()


def test_pa_separable_holds():
    learner = trace_learner("pa", variant="pa")
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for X, y, _ in separable_batch(30, seed=5):
            fits = {"mm": MaxMargin().fit(X, y, cache=None)}
            trace = olbench.run(learner, X, y)
            df = bounds.bound_table(learner, trace, R=np.linalg.norm(X, axis=1).max(),
                                    checkpoints=[len(y)], fits=fits)
            assert df.bound_holds.all() and (df.bound_name == "pa_separable").all()


def test_skips_say_why():
    X, y, meta = next(noisy_batch(1, seed=7))
    fits = {"mm": MaxMargin().fit(X, y, cache=None)}
    trace = olbench.run(olbench.make_learner("perceptron"), X, y)
    df = bounds.bound_table(trace_learner("perceptron"), trace, R=meta.radius,
                            checkpoints=[len(y)], fits=fits)
    row = df[df.bound_name == "novikoff"].iloc[0]
    assert row.bound_holds is None and row.skip_reason.startswith(
        "the stream is not linearly separable (max-margin fit: no u with")
    ogd = trace_learner("ogd", radius=None)
    df = bounds.bound_table(ogd, trace, R=1.0, checkpoints=[len(y)])
    assert "radius=None" in df.skip_reason.iloc[0]


def test_violation_is_loud():
    with pytest.warns(BoundViolation, match="BOUND VIOLATED"):
        c = bounds.check("novikoff", "mistakes", 3.0, 4)
    assert c.holds is False


def test_ogd_regret_bound_and_slope():
    n, d, U = 4000, 5, 1.0
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, d))
    X /= np.maximum(1, np.linalg.norm(X, axis=1))[:, None]
    u = rng.normal(size=d)
    y = np.where(rng.random(n) < 0.1, -1.0, 1.0) * np.sign(X @ u)
    R = np.linalg.norm(X, axis=1).max()
    G = bounds.ogd_gradient_bound("logistic", R, U)
    learner = olbench.make_learner("ogd", loss="logistic", eta=2 * U / G, schedule="sqrt",
                                   radius=U)
    trace = olbench.run(learner, X, y)
    ks = log_checkpoints(n, 16)
    fit = PrefixBest(loss="logistic", radius=U).fit(X, y, checkpoints=ks, cache=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        df = metrics_table(trace, learner=learner, fits={"prefix": fit}, loss="logistic",
                      checkpoints=ks, R=R)
    assert df.bound_holds.all()
    assert (df.bound <= 1.5 * G * 2 * U * np.sqrt(df.t) + 1e-9).all()
    sel = df.t >= 100
    slope = np.polyfit(np.log(df.t[sel]), np.log(df.regret[sel]), 1)[0]
    print(f"OGD logistic regret log-log slope: {slope:.3f}")
    assert 0.3 <= slope <= 0.7


def test_a_random_start_skips_the_theorems_stated_for_w1_zero():
    """Novikoff's bound is for w_1 = 0: from a random w_1 of the wrong sign and |w_1| > R,
    the Perceptron errs more than (R/gamma)^2 times, so the checks are skipped, with the
    reason, rather than reported as violations."""
    from olbench.learners.base import initial_weights

    X, y = make_stream("novikoff_tight", k=1, R=1.0, passes=4, seed=0).materialize()
    X = np.asarray(X.todense()) if hasattr(X, "todense") else np.asarray(X)
    seed = next(s for s in range(1000) if initial_weights("randn", s, 1)[0] * y[0] < -1.5)
    learner = olbench.make_learner("perceptron", init="randn", init_seed=seed)
    trace = olbench.run(learner, X, y)
    assert trace.n_mistakes > bounds.novikoff(1.0, 1.0) == 1
    table = bounds.bound_table(learner, trace, checkpoints=[4], R=1.0, fits={})
    assert len(table) and table[col.BOUND_HOLDS].isna().all()
    assert set(table[col.SKIP_REASON]) == {"the theorem assumes w_1 = 0; this run started at "
                                           "init=randn"}
