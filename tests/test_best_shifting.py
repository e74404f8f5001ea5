"""The best shifting comparator (at most k switches) against brute force on tiny inputs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from olbench.comparators import make_comparator
from olbench.component import InvalidParameterError
from olbench.streams import make_stream


def brute_force_experts(L: np.ndarray, k: int) -> np.ndarray:
    """min over all N^t expert sequences with at most k switches, for every prefix t."""
    T, N = L.shape
    best = np.full(T, np.inf)
    for path in itertools.product(range(N), repeat=T):
        path = np.array(path)
        switches = np.cumsum(np.r_[0, path[1:] != path[:-1]])
        prefix = np.cumsum(L[np.arange(T), path])
        best = np.where(switches <= k, np.minimum(best, prefix), best)
    return best


@pytest.mark.parametrize("k", [0, 1, 2, 4])
def test_experts_dynamic_program_equals_brute_force(k):
    rng = np.random.default_rng(k)
    L = np.where(rng.random((7, 3)) < 0.5, rng.random((7, 3)), 0.0)
    fit = make_comparator("best_shifting", k=k, loss="suffered").fit(
        L, np.zeros(7), checkpoints=np.arange(1, 8), cache=None)
    np.testing.assert_allclose(fit.prefix_loss, brute_force_experts(L, k), rtol=0, atol=1e-12)
    path = np.array(fit.info["experts"])     # the sequence it reports achieves the optimum
    assert (path[1:] != path[:-1]).sum() <= k
    assert L[np.arange(7), path].sum() == pytest.approx(fit.prefix_loss[-1], abs=1e-12)
    np.testing.assert_array_equal(fit.losses, L[np.arange(7), path])


def least_squares_loss(X, y) -> float:
    """(1/2) sum of squared residuals of the least-squares fit (numpy, not olbench's solver)."""
    u = np.linalg.lstsq(X, y, rcond=None)[0]
    return 0.5 * float(((X @ u - y) ** 2).sum())


@pytest.mark.parametrize("k", [0, 1, 2])
def test_segments_at_checkpoints_equal_brute_force_over_boundary_subsets(k):
    rng = np.random.default_rng(10 + k)
    X = rng.normal(size=(40, 2))
    y = np.r_[X[:15] @ [1.0, -1.0], X[15:40] @ [-2.0, 0.5]] + 0.1 * rng.normal(size=40)
    ks = np.array([5, 10, 15, 22, 30, 40])
    fit = make_comparator("best_shifting", k=k, loss="squared", segments="checkpoints").fit(
        X, y, checkpoints=ks, cache=None)
    for T, got in zip(ks, fit.prefix_loss):
        inner = [b for b in ks if b < T]
        best = min(sum(least_squares_loss(X[a:b], y[a:b])
                       for a, b in zip((0, *cut), (*cut, T)))
                   for m in range(k + 1) for cut in itertools.combinations(inner, m))
        assert got == pytest.approx(best, rel=1e-7, abs=1e-9)
    assert fit.gap is not None and -1e-9 <= fit.gap <= 1e-6 * max(1.0, fit.objective)
    assert fit.losses.sum() == pytest.approx(fit.objective, rel=1e-9)


def test_declared_switches_on_a_drifting_stream():
    """drift switches its concept at round 300: one switch there makes the stream separable
    in each segment (hinge loss 0), while the best fixed u of the whole stream pays for it;
    with k = 0 it is prefix_best."""
    stream = make_stream("drift", n=600, d=5, mode="switch", switch_at=[300], seed=0)
    X, y = stream.materialize()
    ks = np.array([50, 300, 450, 600])
    shifting = make_comparator("best_shifting", loss="hinge").fit(X, y, stream.meta,
                                                                  checkpoints=ks, cache=None)
    static = make_comparator("prefix_best", loss="hinge").fit(X, y, stream.meta,
                                                              checkpoints=ks, cache=None)
    assert shifting.info["k"] == 1 and shifting.info["boundaries_from"] == "declared"
    assert [s[:2] for s in shifting.info["segments"]] == [(1, 300), (301, 600)]
    np.testing.assert_allclose(shifting.prefix_loss, 0.0, atol=1e-6)
    assert static.prefix_loss[-1] > 50            # no fixed u fits both concepts
    zero = make_comparator("best_shifting", k=0, loss="hinge").fit(X, y, stream.meta,
                                                                   checkpoints=ks, cache=None)
    np.testing.assert_allclose(zero.prefix_loss, static.prefix_loss, rtol=1e-6, atol=1e-6)


def test_rows_that_are_not_expert_losses_are_a_skip_with_the_reason():
    stream = make_stream("linear_losses", n=50, d=3, seed=0)       # gradients, signed
    fit = make_comparator("best_shifting", k=1, loss="suffered").fit(
        *stream.materialize(), stream.meta, checkpoints=[50], cache=None)
    assert not fit.ok and "loss vectors in [0, 1]" in fit.skip_reason


def test_bad_parameters_are_named():
    with pytest.raises(InvalidParameterError, match="k"):
        make_comparator("best_shifting", k=-1).validate()
    with pytest.raises(InvalidParameterError, match="segments"):
        make_comparator("best_shifting", segments="rounds").validate()
