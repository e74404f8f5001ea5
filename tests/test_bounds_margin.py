"""ROMMA's, ALMA_2's and the second-order Perceptron's bounds (olbench.bounds.romma, .alma,
.sop) hold on many random streams, like Novikoff's: zero violations."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from test_bounds import separable_batch

import olbench
from olbench import bounds
from olbench.bounds import BoundViolation, bound_table
from olbench.bounds.sop import tightest_scale
from olbench.comparators import make_comparator
from olbench.streams import make_stream


@pytest.mark.parametrize("key", ["romma", "aromma"])
def test_romma_bound_holds_on_300_separable_streams(key):
    learner = olbench.make_learner(key)
    ratios = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for X, y, u in separable_batch(300, seed=5):
            trace = olbench.run(learner, X, y)
            R = np.linalg.norm(X, axis=1).max()
            gamma = (y * (X @ u)).min()
            c = bounds.check("romma_separable", "mistakes", bounds.romma_separable(R, gamma),
                             trace.n_mistakes)
            ratios.append(c.ratio)
    assert 0 < max(ratios) <= 1.0


def _normalised_margin(X, y, u):
    return (y * (X @ u) / np.linalg.norm(X, axis=1)).min()


@pytest.mark.parametrize("params", [{}, {"alpha": 0.5}, {"alpha": 1.0, "eta": 0.5},
                                    {"alpha": 0.7, "B": 3.0, "eta": 2.0}])
def test_alma_corrections_bound_holds_on_200_separable_streams(params):
    """Paper rule: gamma = the normalised margin of the generating u; LIBOL's rule: the raw
    margin with ||x||^2 <= R^2 in the bound."""
    paper = olbench.make_learner("alma", **params)
    libol = olbench.make_learner("alma", libol=True, **params)
    kw = dict(alpha=paper.alpha, B=1 / paper.alpha if paper.B is None else paper.B, C=paper.eta)
    ratios = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for X, y, u in separable_batch(200, seed=6, gamma=0.1):
            R = np.linalg.norm(X, axis=1).max()
            for learner, bound in (
                    (paper, bounds.alma2_corrections(gamma=_normalised_margin(X, y, u), **kw)),
                    (libol, bounds.alma2_corrections(gamma=(y * (X @ u)).min(), X2=R * R,
                                                     **kw))):
                trace = olbench.run(learner, X, y)
                if learner is paper:
                    assert trace.n_mistakes <= trace.n_updates   # a mistake always corrects
                ratios.append(bounds.check("alma2_corrections", "updates", bound,
                                           trace.n_updates).ratio)
    assert 0 < max(ratios) <= 1.0


def test_alma_corrections_bound_scan_agrees_with_its_inequality():
    b = bounds.alma2_corrections(gamma=0.05, alpha=0.8, B=1.25, C=1.0)
    m = np.arange(1, int(b) + 2, dtype=float)
    f = 2 * 0.05 * np.cumsum(m ** -0.5) - (2 * 1.25 * 0.2 + 1.0) * np.cumsum(1 / m) - 1
    assert (f[:-1] <= 0).all() and f[-1] > 0


@pytest.mark.parametrize("params", [{}, {"ridge": 0.2}, {"ridge": 5.0}, {"libol": True},
                                    {"ridge": 0.2, "libol": True}])
def test_sop_bound_holds_on_random_streams(params):
    """Separable and label-noise streams; u = the generating direction at its best scale, and
    the comparators' fits through bound_table: zero violations."""
    learner = olbench.make_learner("sop", **params)
    a = learner.ridge      # the paper's a
    ratios = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        for seed in range(40):
            key, kw = (("separable", {}), ("noisy", {"flip_rate": 0.1}))[seed % 2]
            stream = make_stream(key, n=300, d=4, gamma=0.05, R=1.0, seed=seed, **kw)
            X, y = stream.materialize()
            trace = olbench.run(learner, X, y)
            u = stream.meta.u
            M = trace.updated
            S = np.ones(len(y), bool) if params.get("libol") else M
            logdet = np.linalg.slogdet(np.eye(4) + X[S].T @ X[S] / a)[1]
            Q = np.sqrt((a * u @ u + ((X[S] @ u) ** 2).sum()) * logdet)
            bound = tightest_scale(y[M] * (X[M] @ u), Q)
            ratios.append(bounds.check("sop_mistakes", "mistakes", bound,
                                       trace.n_mistakes).ratio)
            if seed < 6:
                fits = {c.name: c.fit(X, y, stream.meta, cache=None)
                        for c in (make_comparator("best_fixed", loss="hinge"),)}
                rows = bound_table(learner, trace, R=1.0, checkpoints=[trace.n], fits=fits)
                assert rows["bound_holds"].iloc[0] == True  # noqa: E712 (numpy bool)
                assert rows["observed"].iloc[0] == trace.n_mistakes
    assert 0 < max(ratios) <= 1.0


def test_sop_logdet_from_final_sigma_equals_the_data_term():
    stream = make_stream("noisy", n=200, d=5, gamma=0.05, R=1.0, flip_rate=0.1, seed=3)
    X, y = stream.materialize()
    for libol in (False, True):
        trace = olbench.run(olbench.make_learner("sop", ridge=2.0, libol=libol), X, y)
        S = np.ones(len(y), bool) if libol else trace.updated
        direct = np.linalg.slogdet(np.eye(5) + X[S].T @ X[S] / 2.0)[1]
        from_state = -np.linalg.slogdet(trace.state["A"])[1] - 5 * np.log(2.0)
        assert from_state == pytest.approx(direct, rel=1e-9)


def test_tightest_scale_is_the_minimum_over_scales():
    rng = np.random.default_rng(0)
    z, Q = rng.normal(size=30), 3.0
    grid = np.concatenate([[0.0], np.geomspace(1e-3, 1e3, 20001)])
    brute = min(np.maximum(0, 1 - c * z).sum() + c * Q for c in grid)
    assert tightest_scale(z, Q) <= brute + 1e-12
    assert tightest_scale(z, Q) >= brute - 1e-2
