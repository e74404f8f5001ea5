"""Metrics bookkeeping: regret = cumulative loss - comparator loss, exactly."""

from __future__ import annotations

import numpy as np
import pytest

import olbench
from olbench.checkpoints import log_checkpoints
from olbench.comparators import BestFixed, PrefixBest
from olbench.losses import get_loss
from olbench.metrics import curve, metrics_table
from olbench.streams import make_stream


def test_log_checkpoints():
    for n in (1, 2, 10, 999, 10**6):
        ks = log_checkpoints(n)
        assert ks[0] == 1 and ks[-1] == n and np.all(np.diff(ks) > 0)


def test_regret_bookkeeping_exact():
    s = make_stream("noisy", n=500, d=5, gamma=0.05, flip_rate=0.1, seed=0)
    X, y = s.materialize()
    trace = olbench.run(olbench.make_learner("pa", C=1.0, variant="pa1"), X, y)
    ks = log_checkpoints(len(y))
    fixed = BestFixed(loss="hinge").fit(X, y, cache=None)
    prefix = PrefixBest(loss="hinge").fit(X, y, checkpoints=ks, cache=None)
    learner_cum = np.cumsum(get_loss("hinge")(trace.margins, y))[ks - 1]
    for fit, comp in ((fixed, np.cumsum(fixed.losses)[ks - 1]), (prefix, prefix.prefix_loss)):
        df = curve(trace, comparator=fit, checkpoints=ks)
        np.testing.assert_array_equal(df.cum_loss, learner_cum)
        np.testing.assert_array_equal(df.comparator_loss, comp)
        np.testing.assert_array_equal(df.regret, learner_cum - comp)
    # final round: the trace's own total and the comparator's total
    df = curve(trace, comparator=fixed, checkpoints=[len(y)])
    assert df.regret.iloc[0] == pytest.approx(trace.cumulative_loss - fixed.cum_loss, rel=1e-12)
    # a "learner" that outputs the comparator's margins has zero regret everywhere
    df = curve(fixed.margins, y, comparator=fixed, checkpoints=ks)
    assert (df.regret == 0).all()
    # true regret (prefix) >= regret against the final comparator
    assert (curve(trace, comparator=prefix, checkpoints=ks).regret.values
            >= curve(trace, comparator=fixed, checkpoints=ks).regret.values - 1e-9).all()


def test_curve_counts_and_clean_labels():
    m = np.array([1.0, -1.0, 0.0, 2.0, -0.5])
    y = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    clean = np.array([1.0, -1.0, -1.0, 1.0, -1.0])
    upd = np.array([False, True, True, True, False])
    df = curve(m, y, upd, loss="zero_one", clean_y=clean, checkpoints=[5])
    row = df.iloc[0]
    assert (row.mistakes, row.updates, row.clean_mistakes) == (3, 3, 1)
    assert row.cum_loss == 3 and row.mistake_rate == pytest.approx(0.6)
    libol = curve(m, y, loss="hinge", tie="libol", checkpoints=[5]).iloc[0]
    assert libol.mistakes == 3          # p = 0 predicts +1: wrong for y = -1


def test_any_loss_after_the_fact():
    s = make_stream("noisy", n=300, d=4, gamma=0.05, flip_rate=0.1, seed=1)
    X, y = s.materialize()
    trace = olbench.run(olbench.make_learner("perceptron"), X, y)
    fit = BestFixed(loss="hinge").fit(X, y, cache=None)
    df = curve(trace, loss="logistic", comparator=fit, checkpoints=[300])
    expected = (get_loss("logistic")(trace.margins, y).sum()
                - get_loss("logistic")(fit.margins, y).sum())
    assert df.regret.iloc[0] == pytest.approx(expected, rel=1e-12)


def test_evaluate_table_with_bounds():
    s = make_stream("separable", n=400, d=5, gamma=0.1, seed=2)
    X, y = s.materialize()
    learner = olbench.make_learner("perceptron")
    trace = olbench.run(learner, X, y)
    fits = {"max_margin": olbench.comparators.make_comparator("max_margin").fit(X, y, cache=None),
            "best": BestFixed(loss="hinge").fit(X, y, cache=None)}
    df = metrics_table(trace, learner=learner, meta=s.meta, fits=fits)
    assert {"t", "cum_loss", "mistakes", "updates", "regret", "comparator_loss", "bound",
            "bound_holds", "bound_name", "skip_reason"} <= set(df.columns)
    assert set(df.bound_name) == {"novikoff", "freund_schapire"}
    assert df.bound_holds.all()


def test_test_part_of_train_then_test_is_measured_from_the_boundary():
    """Rounds 1-4 train, 5-6 test: hinge losses 1, 0.5, 2, 0 | 3, 0 by hand, mistakes
    (y p <= 0) at rounds 1, 3 | 5; the test part's numbers are those of rounds 5-6 only."""
    m = np.array([0.0, 0.5, -1.0, 2.0, -2.0, 1.5])
    y = np.ones(6)
    df = curve(m, y, checkpoints=[2, 4, 5, 6], test_start=4)
    assert df["mistakes"].tolist() == [1, 2, 3, 3]
    assert np.isnan(df["test_mistakes"].iloc[:2]).all()        # up to the boundary: empty
    assert df["test_mistakes"].iloc[2:].tolist() == [1, 1]
    assert df["test_mistake_rate"].iloc[2:].tolist() == [1.0, 0.5]
    assert df["test_avg_loss"].iloc[2:].tolist() == [3.0, 1.5]
    assert "test_mistakes" not in curve(m, y, checkpoints=[6])
