"""The best fixed comparator's solves (hinge, absolute and epsilon-insensitive losses, with a
ridge, a ball or neither): the issue's cases that used to hang or abort, a randomised sweep
against an independent SLSQP solve, the dual LP against the epigraph LP, the least-norm fit
of separable data, and certified prefix fits."""

from __future__ import annotations

import numpy as np
import pytest
from solver_references import P, assert_certified, issue_data, slsqp_reference

from olbench.comparators import BestFixed, MaxMargin, PrefixBest, _solvers
from olbench.streams import make_stream


# --------------------------------------------------------------------------- the issue's cases
@pytest.mark.parametrize("n,d,optimum", [(500, 30, 56.754206345926), (800, 20, 102.075441121053)])
def test_issue_hinge_ridge_cases(n, d, optimum):
    """HiGHS's QP hung (500 x 30) and aborted with a double free (800 x 20) here."""
    X, y = issue_data(n, d)
    fit = BestFixed(loss="hinge", ridge=1.0).fit(X, y, cache=None)
    assert_certified(fit, 1e-10)
    assert fit.objective == pytest.approx(optimum, rel=1e-11)
    assert fit.lower_bound <= optimum * (1 + 1e-12)


@pytest.mark.parametrize("n,d", [(300, 10), (500, 30), (800, 20)])
def test_issue_radius_hinge_cases(n, d):
    """The ball-constrained hinge comparator (OGD's) hung on the same data."""
    X, y = issue_data(n, d, seed=1)
    for radius in (0.3, 2.0):
        fit = BestFixed(loss="hinge", radius=radius).fit(X, y, cache=None)
        assert_certified(fit, 1e-8)
        assert np.linalg.norm(fit.u) <= radius * (1 + 1e-12)


# --------------------------------------------------------------------------- randomised sweep
def _sweep_cases(count=24, seed=2024):
    rng = np.random.default_rng(seed)
    for k in range(count):
        loss = ["hinge", "hinge", "absolute", "epsilon_insensitive"][k % 4]
        n, d = int(rng.integers(8, 60)), int(rng.integers(1, 7))
        lam = float(10 ** rng.uniform(-2, 1))
        radius = None if k % 3 == 0 else float(10 ** rng.uniform(-1.5, 0.5))
        if k % 3 == 2:
            lam = 0.0                    # the ball alone (OGD's comparator)
        noise = float(rng.choice([0.0, 0.3, 1.5]))
        yield pytest.param(k, loss, n, d, lam, radius, noise,
                           id=f"{k}-{loss}-n{n}-d{d}-lam{lam:.3g}-r{radius}-noise{noise}")


@pytest.mark.parametrize("k,loss,n,d,lam,radius,noise", list(_sweep_cases()))
def test_sweep_against_independent_solve(k, loss, n, d, lam, radius, noise):
    X, y = issue_data(n, d, seed=100 + k, noise=noise)
    if loss != "hinge":
        y = X @ np.linspace(1, -1, d) + noise * np.random.default_rng(k).normal(size=n)
    fit = BestFixed(loss=loss, ridge=lam, radius=radius).fit(X, y, cache=None)
    assert_certified(fit, 1e-9)
    if radius is not None:
        assert np.linalg.norm(fit.u) <= radius * (1 + 1e-12)
    ref = slsqp_reference(X, y, loss, lam, radius)
    scale = max(1.0, abs(ref))
    assert fit.lower_bound <= ref + 1e-9 * scale          # weak duality against another method
    assert fit.objective == pytest.approx(ref, rel=1e-8, abs=1e-8)


@pytest.mark.parametrize("loss", ["hinge", "absolute", "epsilon_insensitive"])
@pytest.mark.parametrize("sparse", [False, True])
def test_the_dual_lp_without_ridge_against_the_epigraph_lp_and_slsqp(loss, sparse):
    """No ridge, no ball: a linear program, solved by its dual (d rows); the same certified
    optimum as the epigraph LP (n rows, the former path) and an independent SLSQP solve."""
    import math

    import scipy.sparse as sp

    from olbench.comparators import _lp

    X, y = issue_data(80, 4, seed=7, noise=1.5)        # not separable: hinge loss > 0
    if loss != "hinge":
        y = X @ np.linspace(1, -1, 4) + 0.5 * np.random.default_rng(7).normal(size=80)
    data = sp.csr_matrix(X) if sparse else X
    fit = BestFixed(loss=loss).fit(data, y, cache=None)
    assert fit.info["solver"] == "highs-dual-lp" and fit.info["dual_residual"] < 1e-9
    assert_certified(fit, 1e-9)
    limits = _solvers.Limits()
    old = _lp.epigraph_lp(data, y, loss, 0.1, math.inf, limits)
    ref = slsqp_reference(X, y, loss, 0.0)
    assert fit.objective == pytest.approx(old.objective, rel=1e-9)
    assert fit.objective == pytest.approx(ref, rel=1e-7, abs=1e-7)
    assert fit.lower_bound <= ref + 1e-9 * max(1.0, abs(ref))
    assert P(X, y, fit.u, loss) == pytest.approx(fit.objective, rel=1e-12)


def test_a_separable_hinge_fit_is_the_least_norm_minimiser():
    """Separable with a margin: every u with all margins >= 1 has hinge loss 0; the fit is
    the one of least norm (the hard-margin SVM, MaxMargin's u), not the LP's vertex."""
    import math

    from olbench.comparators import _lp

    X, y = make_stream("separable", n=400, d=5, gamma=0.2, R=1.0, seed=0).materialize()
    fit = BestFixed(loss="hinge").fit(X, y, cache=None)
    assert fit.info["solver"] == "highs-dual-lp+least-norm" and fit.cum_loss <= 1e-12
    assert_certified(fit, 1e-12)
    np.testing.assert_allclose(fit.u, MaxMargin().fit(X, y, cache=None).u, rtol=1e-9)
    vertex = _lp.dual_lp(X, y, "hinge", 0.1, math.inf, _solvers.Limits())
    assert np.linalg.norm(fit.u) < np.linalg.norm(vertex.u)
    assert np.linalg.norm(fit.u) <= 1 / 0.2 * (1 + 1e-9)   # the stream's own u has margin 0.2


def test_prefix_fits_are_certified():
    X, y = issue_data(400, 8, seed=3)
    fit = PrefixBest(loss="hinge", ridge=0.5).fit(X, y, checkpoints=[10, 50, 200, 400],
                                                   cache=None)
    assert_certified(fit, 1e-9)
    assert np.all(np.isfinite(fit.info["prefix_lower_bound"]))
