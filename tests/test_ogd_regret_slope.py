"""OGD's regret grows like sqrt(T) on the standard lower-bound instance (Zinkevich 2003;
Hazan 2016, Sec. 3.2): one feature x_t = 1, labels y_t = +-1 at random, hinge loss on the ball
|w| <= 1. There the hinge loss is linear, f_t(w) = 1 - y_t w, the best fixed point in
hindsight has loss T - |sum y_t|, and OGD's expected loss is T, so the expected regret is
E|sum_{t<=T} y_t| = sqrt(2T/pi) (1 + o(1)): a log-log slope of exactly 1/2."""

from __future__ import annotations

import numpy as np
import pytest

import olbench
from olbench.checkpoints import log_checkpoints
from olbench.comparators import make_comparator


def _rademacher(seed: int, n: int):
    y = np.where(np.random.default_rng(seed).random(n) < 0.5, -1.0, 1.0)
    return np.ones((n, 1)), y


def test_prefix_best_is_the_closed_form_on_the_instance():
    X, y = _rademacher(0, 500)
    ks = log_checkpoints(500, 10)
    fit = make_comparator("prefix_best", loss="hinge", radius=1.0).fit(X, y, checkpoints=ks,
                                                                        cache=None)
    np.testing.assert_allclose(fit.cum_loss_at(ks), ks - np.abs(np.cumsum(y)[ks - 1]),
                               atol=1e-6)


def test_ogd_regret_slope_is_one_half_and_under_the_bound():
    n, seeds = 8192, 400
    ks = log_checkpoints(n, 16)
    regrets = []
    for seed in range(seeds):
        X, y = _rademacher(seed, n)
        # eta_t = D / (G sqrt t) with D = 2 (the ball [-1, 1]) and G = |x| = 1
        trace = olbench.run(olbench.make_learner("ogd", loss="hinge", eta=2.0, schedule="sqrt",
                                                 radius=1.0), X, y)
        learner_loss = np.cumsum(trace.losses)[ks - 1]
        best = ks - np.abs(np.cumsum(y)[ks - 1])
        regret = learner_loss - best
        assert (regret <= 1.5 * 1.0 * 2.0 * np.sqrt(ks) + 1e-9).all()  # Zinkevich's bound
        regrets.append(regret)
    mean = np.mean(regrets, axis=0)
    tail = ks >= 64
    slope = np.polyfit(np.log(ks[tail]), np.log(mean[tail]), 1)[0]
    assert slope == pytest.approx(0.5, abs=0.08), slope
    # and the level: E|S_T| = sqrt(2T/pi) within sampling error (400 seeds)
    assert mean[-1] == pytest.approx(np.sqrt(2 * n / np.pi), rel=0.1)
