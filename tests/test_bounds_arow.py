"""AROW's mistake bound (Crammer, Kulesza & Dredze 2009, Thm. 2): it holds on random streams,
its log-det term equals the one built from the data, and a corrupted run is caught."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

import olbench
from olbench.bounds import BoundViolation, bound_table
from olbench.comparators import make_comparator
from olbench.streams import make_stream


def _run(stream_key, seed, r=1.0, a=1.0, gamma=0.05, **stream_kw):
    stream = make_stream(stream_key, n=300, d=5, gamma=gamma, R=1.0, seed=seed, **stream_kw)
    X, y = stream.materialize()
    learner = olbench.make_learner("arow", r=r, a=a)
    trace = olbench.run(learner, X, y)
    fits = {c.name: c.fit(X, y, stream.meta, cache=None)
            for c in (make_comparator("best_fixed", loss="hinge"), make_comparator("max_margin"))}
    return X, y, learner, trace, fits


def _table(learner, trace, fits):
    return bound_table(learner, trace, R=1.0, checkpoints=[trace.n // 2, trace.n], fits=fits)


@pytest.mark.parametrize("r,a", [(1.0, 1.0), (0.1, 1.0), (2.0, 0.5)])
def test_arow_bound_holds_on_random_streams(r, a):
    ratios = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for seed in range(15):
            for key, kw in (("separable", {}), ("noisy", {"flip_rate": 0.15})):
                _, _, learner, trace, fits = _run(key, seed, r=r, a=a, **kw)
                rows = _table(learner, trace, fits)
                rows = rows[rows["bound_name"] == "arow_mistakes"]
                assert len(rows) == 1 and rows["t"].iloc[0] == trace.n  # final round only
                assert rows["bound_holds"].iloc[0] == True  # noqa: E712 (numpy bool)
                assert rows["observed"].iloc[0] == trace.n_mistakes
                ratios.append(rows["ratio"].iloc[0])
    assert 0 < max(ratios) < 1


def test_arow_bound_is_informative_on_wide_margins():
    """With gamma = 0.3 the bound is far below n: a real constraint, not a vacuous one."""
    for seed in range(5):
        _, _, learner, trace, fits = _run("separable", seed, gamma=0.3)
        rows = _table(learner, trace, fits)
        assert rows["observed"].iloc[0] <= rows["bound"].iloc[0] < trace.n / 2


def test_logdet_from_final_sigma_equals_the_data_term():
    X, y, learner, trace, _ = _run("noisy", 3, r=0.5, a=2.0, flip_rate=0.1)
    XA = X[trace.updated].T @ X[trace.updated]
    direct = np.linalg.slogdet(np.eye(X.shape[1]) + 2.0 * XA / 0.5)[1]
    from_state = X.shape[1] * np.log(2.0) - np.linalg.slogdet(trace.state["A"])[1]
    assert from_state == pytest.approx(direct, rel=1e-9)


def test_a_corrupted_run_is_flagged():
    """Outputs of the wrong sign (a broken mean update would give them) violate the bound."""
    _, y, learner, trace, fits = _run("separable", 1, gamma=0.3)
    with pytest.warns(BoundViolation, match="arow_mistakes"):
        corrupted = dataclasses.replace(trace, margins=-trace.margins,
                                        updated=np.ones(trace.n, bool))
        rows = bound_table(learner, corrupted, R=1.0, checkpoints=[trace.n], fits=fits)
    assert rows["bound_holds"].iloc[0] == False  # noqa: E712


def test_diagonal_arow_is_skipped_with_a_reason():
    stream = make_stream("separable", n=100, d=3, gamma=0.1, R=1.0, seed=0)
    X, y = stream.materialize()
    learner = olbench.make_learner("arow", diagonal=True)
    trace = olbench.run(learner, X, y)
    fits = {"bf": make_comparator("best_fixed").fit(X, y, cache=None)}
    rows = _table(learner, trace, fits)
    assert rows["skip_reason"].iloc[0] == "the bound is for full-covariance AROW (diagonal=True)"
