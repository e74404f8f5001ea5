"""FTL's follow-the-leader/be-the-leader bound on linear losses and the weighted majority's
mistake bound: they hold on real runs and fail on corrupted ones."""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pytest

import olbench
from olbench.bounds import (
    FTL_LINEAR,
    WEIGHTED_MAJORITY_MISTAKES,
    BoundViolation,
    RunRecord,
    weighted_majority_mistakes,
)
from olbench.comparators import make_comparator
from olbench.streams import make_stream


def _record(learner, stream, checkpoints, fit_params):
    X, y = stream.materialize()
    trace = olbench.run(learner, X, y)
    fit = make_comparator("best_point", **fit_params).fit(X, y, stream.meta,
                                                          checkpoints=checkpoints, cache=None)
    return RunRecord.of(trace, learner, checkpoints=checkpoints, R=stream.meta.radius,
                        fits={fit.comparator: fit})


def _checks(theorem, record):
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoundViolation)
        return [c for _, c in theorem.checks(record)]


def test_ftl_linear_on_the_alternating_sequence_is_2T_minus_3_halves():
    """On g = 1/2, -1, +1, ... over [-1, 1], FTL plays 0 then -sign(S_{t-1}): f_t(w_t) = 0,
    1, 1, ... and f_t(w_{t+1}) = -1/2, -1, -1, ..., so the lemma's sum is 2T - 3/2 while the
    regret is T - 1/2 (Shalev-Shwartz 2012, Example 2.2)."""
    ks = np.array([1, 2, 10, 1000])
    rec = _record(olbench.make_learner("ftl", domain="box"), make_stream("alternating", n=1000),
                  ks, {"loss": "linear", "domain": "box", "radius": 1.0})
    checks = _checks(FTL_LINEAR, rec)
    np.testing.assert_allclose([c.bound for c in checks], 2 * ks - 1.5)
    np.testing.assert_allclose([c.observed for c in checks], ks - 0.5)


@pytest.mark.parametrize("domain", ["ball", "box", "simplex", "l1"])
def test_ftl_linear_holds_on_random_linear_losses_and_fails_when_corrupted(domain):
    ks = np.array([5, 50, 400])
    for seed in range(3):
        stream = make_stream("linear_losses", n=400, d=4, seed=seed)
        learner = olbench.make_learner("ftl", domain=domain, radius=1.5)
        rec = _record(learner, stream, ks, {"loss": "linear", "domain": domain, "radius": 1.5})
        checks = _checks(FTL_LINEAR, rec)
        assert all(c.holds for c in checks) and len(checks) == len(ks)
        # a learner that suffers 0.05 more per round than FTL is no longer covered
        worse = dataclasses.replace(rec, margins=rec.margins + 0.05 + (
            np.array([c.bound - c.observed for c in checks]).max() / ks[0]))
        with pytest.warns(BoundViolation, match="ftl_linear"):
            assert not all(c.holds for _, c in FTL_LINEAR.checks(worse))


@pytest.mark.parametrize("mode", ["stochastic", "adversarial", "switching"])
@pytest.mark.parametrize("beta", [0.2, 0.5, 0.9])
def test_weighted_majority_mistake_bound_holds_on_random_runs(mode, beta):
    ks = np.array([10, 100, 600])
    for seed, N in [(0, 2), (1, 7), (2, 30)]:
        stream = make_stream("experts", n=600, N=N, mode=mode, seed=seed)
        learner = olbench.make_learner("weighted_majority", beta=beta)
        rec = _record(learner, stream, ks, {"loss": "linear", "domain": "simplex"})
        checks = _checks(WEIGHTED_MAJORITY_MISTAKES, rec)
        assert all(c.holds for c in checks)
        X = stream.materialize()[0]
        best = X.cumsum(0).min(1)[ks - 1]                  # the best expert's mistakes
        np.testing.assert_allclose([c.bound for c in checks],
                                   [weighted_majority_mistakes(N, m, beta) for m in best])


def test_weighted_majority_counts_ties_as_mistakes_and_a_corrupted_run_fails():
    """Two experts, the first always wrong: round 1 is a tie (a mistake), then the second
    expert leads and WM never errs again; the bound with m = 0 is ln 2 / ln(2/(1 + beta))."""
    X = np.tile([1.0, 0.0], (50, 1))
    trace = olbench.run(olbench.make_learner("weighted_majority", beta=0.5), X, np.zeros(50))
    assert trace.margins[0] == 1.0 and trace.margins[1:].sum() == 0
    assert weighted_majority_mistakes(2, 0, 0.5) == pytest.approx(math.log(2) / math.log(4 / 3))
    stream = make_stream("experts", n=300, N=5, seed=3)
    rec = _record(olbench.make_learner("weighted_majority"), stream, np.array([300]),
                  {"loss": "linear", "domain": "simplex"})
    bad = dataclasses.replace(rec, margins=np.ones(300))      # a mistake on every round
    with pytest.warns(BoundViolation, match="weighted_majority"):
        assert not all(c.holds for _, c in WEIGHTED_MAJORITY_MISTAKES.checks(bad))
