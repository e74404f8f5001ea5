"""EG and EG+- keep their weights in the log domain: a weight driven below e^-745 comes back
when the losses turn (multiplying w in place, it was 0 for good and the regret bound failed),
and the iterates are those of entropic FTRL (EG) and of EG on the 2d-simplex (EG+-)."""

from __future__ import annotations

import math
import warnings

import naive
import numpy as np
import pytest
from scipy.special import expit

from olbench import make_learner, run
from olbench.bounds import EG_REGRET, BoundViolation, RunRecord
from olbench.comparators import make_comparator
from olbench.streams import make_stream


def _two_phase(first, second, rows_first, rows_second):
    return np.vstack([np.tile(first, (rows_first, 1)), np.tile(second, (rows_second, 1))])


def _eg_regret_check(learner, X, domain, radius):
    """The eg_regret theorem's (observed, bound) at the last round, a violation an error."""
    y, ks = np.zeros(len(X)), np.array([len(X)])
    trace = run(learner, X, y)
    fit = make_comparator("best_point", loss="linear", domain=domain, radius=radius).fit(
        X, y, checkpoints=ks, cache=None)
    record = RunRecord.of(trace, learner, checkpoints=ks, R=1.0, fits={fit.comparator: fit})
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        (_, check), = EG_REGRET.checks(record)
    return trace, check


def test_eg_recovers_a_weight_below_e_minus_745_and_meets_its_bound():
    """e_1 losses for 800 rounds, then e_2 for 3200, eta = 1. Entropic FTRL plays
    w_t = softmax(-G_{t-1}): in phase one G = (k, 0), so round k + 1 costs w_1 = expit(-k);
    in phase two G = (800, j), so round 801 + j costs w_2 = expit(800 - j). The best expert
    (e_1) has loss 800. Multiplying weights in place gave 2400.96 > bound 2000.69."""
    X = _two_phase([1.0, 0.0], [0.0, 1.0], 800, 3200)
    expected_losses = np.concatenate([expit(-np.arange(800.0)), expit(800.0 - np.arange(3200))])
    expected_regret = math.fsum(expected_losses) - 800.0
    assert 1.46 < expected_regret < 1.47           # the independent 1.464

    trace, check = _eg_regret_check(make_learner("eg", eta=1.0), X, "simplex", 1.0)
    np.testing.assert_allclose(trace.margins, expected_losses, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(trace.margins, naive.oco.eg(X, None)[0], rtol=1e-12, atol=1e-15)
    assert check.observed == pytest.approx(expected_regret, abs=1e-10)
    assert check.bound == pytest.approx(math.log(2) + 4000 / 2, rel=1e-15)
    assert check.holds
    np.testing.assert_array_equal(trace.state["A"], [[800.0, 3200.0]])    # G, the log-weights


def test_eg_plus_minus_recovers_and_meets_its_bound():
    """EG+- with eta = U = 1, d = 1, g = +1 for 400 rounds then -1 for 1600: it plays
    w = -tanh(G), G the sum of the gradients so far, so phase one costs -tanh(k) and phase two
    tanh(400 - j); the best u in [-1, 1] (u = 1) has loss -1200. In place: 2401.28 > 1000.69."""
    X = np.concatenate([np.ones(400), -np.ones(1600)])[:, None]
    expected_losses = np.concatenate([-np.tanh(np.arange(400.0)),
                                      np.tanh(400.0 - np.arange(1600))])
    expected_regret = math.fsum(expected_losses) + 1200.0
    assert 2.27 < expected_regret < 2.29           # the independent 2.28

    trace, check = _eg_regret_check(make_learner("egpm", eta=1.0, U=1.0), X, "l1", 1.0)
    np.testing.assert_allclose(trace.margins, expected_losses, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(trace.margins, naive.oco.egpm(X, None)[0], rtol=1e-12, atol=1e-15)
    assert check.observed == pytest.approx(expected_regret, abs=1e-10)
    assert check.bound == pytest.approx(math.log(2) + 2000 / 2, rel=1e-15)
    assert check.holds


def test_eg_on_quadratic_losses_lets_a_vanished_weight_come_back():
    """Quadratic losses pulling towards (10, 0) for 200 rounds drive w_2 below e^-745 (each
    round multiplies w_2/w_1 by about e^-10); pulled towards (0, 10) afterwards, mirror
    descent in the log domain brings w_2 back to ~1, as its log-domain twin does."""
    X = _two_phase([10.0, 0.0], [0.0, 10.0], 200, 400)
    learner = make_learner("eg", loss="quadratic", eta=1.0)
    trace = run(learner, X, np.zeros(len(X)))
    margins, _, state = naive.oco.eg(X, None, loss="quadratic", eta=1.0)
    np.testing.assert_allclose(trace.margins, margins, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(trace.state["w"], state["w"], rtol=1e-12, atol=1e-12)
    assert trace.state["w"][1] > 0.999


def _iterates(learner, X):
    """w_1, ..., w_{T+1}: the points played, one round at a time."""
    learner.reset(X.shape[1])
    points = [learner.coef_.copy()]
    for x in X:
        points.append(learner.learn_one(x, 0.0).coef_.copy())
    return np.array(points)


@pytest.mark.parametrize("eta", [0.3, 1.0])
def test_eg_iterates_are_entropic_ftrl_iterates_on_linear_losses(eta):
    random = make_stream("linear_losses", n=300, d=5, seed=1).materialize()[0]
    for X in (random, _two_phase([1.0, 0.0], [0.0, 1.0], 800, 900)):
        ftrl = make_learner("ftrl", domain="simplex", regularizer="entropic", eta=eta)
        np.testing.assert_allclose(_iterates(make_learner("eg", eta=eta), X),
                                   _iterates(ftrl, X), rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("U,eta", [(1.0, 1.0), (2.5, 0.3)])
def test_eg_plus_minus_is_eg_on_the_2d_simplex(U, eta):
    """Kivinen & Warmuth 1997, Sec. 3.4: EG+- is EG on (w+, w-)/U with gradients U (g, -g);
    so w = U (v[:d] - v[d:]) for the 2d-simplex iterate v, and the losses agree."""
    random = make_stream("linear_losses", n=300, d=3, seed=2).materialize()[0]
    for X in (random, np.concatenate([np.ones(800), -np.ones(1000)])[:, None]):
        d = X.shape[1]
        doubled = U * np.hstack([X, -X])
        signed = _iterates(make_learner("egpm", eta=eta, U=U), X)
        simplex = _iterates(make_learner("eg", eta=eta), doubled)
        np.testing.assert_allclose(signed, U * (simplex[:, :d] - simplex[:, d:]),
                                   rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(run(make_learner("egpm", eta=eta, U=U), X,
                                       np.zeros(len(X))).margins,
                                   run(make_learner("eg", eta=eta), doubled,
                                       np.zeros(len(X))).margins, rtol=1e-12, atol=1e-14)
