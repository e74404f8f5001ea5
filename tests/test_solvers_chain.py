"""The chain of solvers behind a comparator: each path (Newton, dual coordinate descent with
working-set steps, Clarabel) certifies alone and they agree; limits turn into skips that are
not cached; a numerical failure of one solver (collinear one-hot rows, as a9a's) hands over
to the next."""

from __future__ import annotations

import numpy as np
import pytest
from solver_references import P, assert_certified, issue_data, slsqp_reference

from olbench.comparators import BestFixed, _solvers


# --------------------------------------------------------------------------- the paths of the chain
def test_working_set_steps_ascend_to_the_optimum(monkeypatch):
    """Exact block steps over the most violating rounds (the rest fixed), from a few epochs of
    dual coordinate descent, do not lower the dual (beyond the interior point's accuracy) and
    reach the optimum of Clarabel's whole-problem solve, certified."""
    from olbench.comparators import _certify, _dcd, _newton, _qp

    X, y = issue_data(3000, 10, seed=3)
    lam = 1.0
    monkeypatch.setattr(_newton, "MAX_D", 0)          # Clarabel's whole-problem solve
    ref = _solvers.solve(X, y, "hinge", ridge=lam)
    assert ref.info["solver"] == "clarabel"

    def score(a):
        return _certify.score(X, y, a, "hinge", 0.0, lam, None)

    start = _dcd.solve_dcd(X, y, "hinge", 0.0, lam, primal_dual=score, max_epochs=16)
    alpha, duals = start.alpha, [start.dual]
    for _ in range(10):
        alpha, _status = _qp.working_set(X, y, alpha, "hinge", 0.0, lam, 60.0, 300)
        u, primal, dual = score(alpha)
        duals.append(dual)
        if primal - dual <= 1e-10 * primal:
            break
    assert all(b >= a - 1e-8 * abs(a) for a, b in zip(duals, duals[1:]))
    assert primal - dual <= 1e-10 * primal and len(duals) > 2      # it took block steps
    assert primal == pytest.approx(ref.objective, rel=1e-9)
    assert P(X, y, u, "hinge", lam) == pytest.approx(primal, rel=1e-12)


@pytest.mark.parametrize("loss", ["hinge", "epsilon_insensitive"])
def test_newton_dcd_and_clarabel_paths_each_certify(monkeypatch, loss):
    """Each path of the chain alone reaches a certified optimum (the fallbacks are real),
    and they agree; Newton also on CSR input."""
    import scipy.sparse as sp

    from olbench.comparators import _newton, _piecewise

    X, y = issue_data(200, 6, seed=5)
    if loss != "hinge":
        y = X @ np.linspace(1, -1, 6) + 0.3 * np.random.default_rng(5).normal(size=200)
    lim = _solvers.Limits()
    res = {}
    for first, small_work, max_d in [("newton", np.inf, 6), ("dcd", -1.0, 0),
                                     ("conic", np.inf, 0), ("newton-csr", np.inf, 6)]:
        monkeypatch.setattr(_piecewise, "SMALL_WORK", small_work)
        monkeypatch.setattr(_newton, "MAX_D", max_d)
        data = sp.csr_matrix(X) if first.endswith("csr") else X
        s = _solvers.solve(data, y, loss, ridge=0.3, limits=lim)
        assert lim.certified(s, "target"), s.info
        res[first] = s
    assert res["newton"].info["solver"] == res["newton-csr"].info["solver"] == "newton"
    assert res["dcd"].info["solver"] in ("dcd", "dcd+working-set")
    assert res["conic"].info["solver"] == "clarabel"
    for other in ("dcd", "conic", "newton-csr"):
        assert res["newton"].objective == pytest.approx(res[other].objective, rel=1e-9)


def test_newton_at_many_rounds_against_clarabel(monkeypatch):
    """The case Newton is for (n >> d): certified to the target, and equal to Clarabel's
    interior-point solve of the whole problem (another method), both certified."""
    from olbench.comparators import _newton

    X, y = issue_data(6000, 20, seed=7)
    fit = _solvers.solve(X, y, "hinge", ridge=1.0)
    assert fit.info["solver"] == "newton"
    assert fit.gap <= 1e-10 * fit.objective
    monkeypatch.setattr(_newton, "MAX_D", 0)
    ref = _solvers.solve(X, y, "hinge", ridge=1.0)
    assert ref.info["solver"] == "clarabel"
    assert fit.objective == pytest.approx(ref.objective, rel=1e-10)
    assert fit.lower_bound <= ref.objective * (1 + 1e-12)
    assert ref.lower_bound <= fit.objective * (1 + 1e-12)


# --------------------------------------------------------------------------- limits and skips
def test_no_time_left_is_a_skip_with_reason_and_not_cached(tmp_path, monkeypatch):
    X, y = issue_data(300, 10)
    monkeypatch.setenv("OLBENCH_SOLVER_TIME_LIMIT", "0")
    fit = BestFixed(loss="hinge", ridge=0.01).fit(X, y, cache=tmp_path)
    assert not fit.ok and fit.skip_reason.startswith("time-out: the solver time limit of 0 s")
    assert "dcd" in fit.skip_reason or "clarabel" in fit.skip_reason
    monkeypatch.delenv("OLBENCH_SOLVER_TIME_LIMIT")
    again = BestFixed(loss="hinge", ridge=0.01).fit(X, y, cache=tmp_path)
    assert again.ok                      # the skip was not cached


def test_the_lp_under_no_time_is_a_time_out(tmp_path):
    """A 0 s limit: TimedOut (a NotCertified) from the LP, a skip saying time-out."""
    from olbench.comparators._duality import TimedOut, time_limit

    X, y = issue_data(50, 3)
    with pytest.raises(TimedOut, match=r"time limit of 0 s \(run.solver_time_limit\) ran out"):
        _solvers.solve(X, y, "hinge", limits=_solvers.Limits(time=0.0))
    with time_limit(0):
        fit = BestFixed(loss="hinge").fit(X, y, cache=tmp_path)
    assert fit.skip_reason.startswith("time-out: the solver time limit of 0 s")
    assert BestFixed(loss="hinge").fit(X, y, cache=tmp_path).ok    # not cached: retried


# --------------------------------------------------------------------------- collinear features
def one_hot_rows(k: int, seed: int = 0) -> np.ndarray:
    """k rows of two one-hot groups (3 and 4 levels), as a9a's categorical features: each
    group's columns sum to 1, so the columns are collinear and X^T X is singular."""
    rng = np.random.default_rng(seed)
    return np.hstack([np.eye(3)[rng.integers(0, 3, k)], np.eye(4)[rng.integers(0, 4, k)]])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_newton_direction_on_collinear_rows_at_tiny_smoothing(seed):
    """The Newton system lam I + X_Q^T X_Q / delta at delta = 1e-14 with collinear columns:
    Cholesky of the formed matrix raised "singular matrix" (lam = 1 lost beside entries of
    order 1e16), which ended a9a's hinge + ridge fits as error rows. Reference, independent:
    the SVD of X_Q, p = -V diag(1 / (s^2 / delta + lam)) V^T g."""
    from olbench.comparators import _newton

    XQ = one_hot_rows(400, seed)
    g = np.random.default_rng(seed + 10).normal(size=7)
    lam, delta = 1.0, 1e-14
    p = _newton.newton_direction(XQ, np.ones(400, bool), g, lam, delta)
    _, s, Vt = np.linalg.svd(XQ, full_matrices=True)
    expected = -Vt.T @ ((Vt @ g) / (s**2 / delta + lam))
    np.testing.assert_allclose(p, expected, rtol=0, atol=1e-9 * np.abs(expected).max())
    assert np.abs(p).max() > 0.1           # the null direction keeps its 1/lam part


def test_hinge_with_ridge_on_a9a_is_certified():
    """The issue's case: ``best_fixed loss=hinge ridge=1.0`` on a9a raised "singular matrix"
    from the Newton solver (its first solver for d <= 300) and every run became an error row.
    Now certified, and checked here independently: the objective recomputed from u, and no
    worse than liblinear's dual coordinate descent (LinearSVC, C = 1/ridge, no intercept)."""
    from local_data import skip_unless_local
    from sklearn.datasets import load_svmlight_file
    from sklearn.svm import LinearSVC

    from olbench.paths import shared_data_dir

    path = shared_data_dir() / "libsvm" / "a9a"
    skip_unless_local({"_target_": "olbench.streams.Svmlight", "path": str(path)})
    X, y = load_svmlight_file(str(path), n_features=123)
    fit = BestFixed(loss="hinge", ridge=1.0).fit(X, y, cache=None)
    assert_certified(fit, rel=1e-6)
    assert fit.objective == pytest.approx(P(X, y, fit.u, "hinge", lam=1.0), rel=1e-12)
    svc = LinearSVC(C=1.0, loss="hinge", fit_intercept=False, dual=True, tol=1e-8,
                    max_iter=200_000).fit(X.toarray(), y)
    reference = P(X, y, svc.coef_.ravel(), "hinge", lam=1.0)
    assert fit.objective <= reference * (1 + 1e-12)
    assert fit.objective == pytest.approx(reference, rel=1e-4)


def test_a_solver_failing_numerically_hands_over_to_the_next(monkeypatch):
    """A LinAlgError inside one solver of the chain (as Newton's Cholesky raised on a9a) is
    noted among the attempts and the next solver certifies the fit; it used to escape and
    fail the run."""
    from olbench.comparators import _newton

    def singular(*args, **kwargs):
        raise np.linalg.LinAlgError("A singular matrix detected")

    monkeypatch.setattr(_newton, "solve_newton", singular)
    X, y = issue_data(300, 8, seed=3)
    s = _solvers.solve(X, y, "hinge", ridge=1.0)
    assert _solvers.Limits().certified(s, "target"), s.info
    assert s.info["solver"] != "newton"
    assert s.info["attempts"] == ["newton: A singular matrix detected"]
    assert s.objective == pytest.approx(slsqp_reference(X, y, "hinge", 1.0), rel=1e-7)
