"""Comparators: optimality proven against independent methods, skips, prefixes, caching."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC, LinearSVR

from olbench.comparators import (
    BestFixed,
    Comparator,
    Generating,
    MaxMargin,
    PrefixBest,
    _solvers,
    make_comparator,
)
from olbench.losses import get_loss
from olbench.streams.base import StreamMeta

LOSSES = ["hinge", "squared_hinge", "logistic", "squared", "absolute", "epsilon_insensitive"]


def noisy(seed, n=150, d=5, noise=0.5):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    u = rng.normal(size=d)
    y = np.sign(X @ u + noise * rng.normal(size=n))
    y[y == 0] = 1.0
    return X, y


def separable_data(seed, n=100, d=4, gamma=0.1):
    rng = np.random.default_rng(seed)
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    X = rng.normal(size=(3 * n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1))[:, None]
    X = X[np.abs(X @ u) >= gamma][:n]
    return X, np.sign(X @ u), u


def P(X, y, u, loss, lam=0.0, eps=0.1):
    return float(get_loss(loss, epsilon=eps)(X @ u, y).sum() + 0.5 * lam * u @ u)


def subgradient_min(X, y, loss, lam=0.0, radius=None, steps=20000, eps=0.1):
    """Independent check: projected subgradient descent, best iterate (plain numpy)."""
    L = get_loss(loss, epsilon=eps)
    u = np.zeros(X.shape[1])
    best = P(X, y, u, loss, lam, eps)
    scale = np.linalg.norm(X, axis=1).sum()
    for k in range(1, steps + 1):
        g = X.T @ L.derivative(X @ u, y) + lam * u
        u = u - g / (scale * np.sqrt(k)) * 20.0
        if radius is not None and np.linalg.norm(u) > radius:
            u *= radius / np.linalg.norm(u)
        best = min(best, P(X, y, u, loss, lam, eps))
    return best


# --------------------------------------------------------------------------- optimality
@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("kw", [{}, {"ridge": 1.0}, {"ridge": 0.01}, {"radius": 0.3},
                                {"radius": 3.0}, {"ridge": 0.5, "radius": 0.2}])
def test_certified_gap_and_feasibility(loss, kw):
    X, y = noisy(0)
    if loss in ("squared", "absolute", "epsilon_insensitive"):
        y = X @ np.arange(1.0, 6.0) + np.random.default_rng(1).normal(size=len(y))
    fit = make_comparator("best_fixed", loss=loss, **kw).fit(X, y, cache=None)
    assert fit.ok, fit.skip_reason
    if kw.get("radius"):
        assert np.linalg.norm(fit.u) <= kw["radius"] * (1 + 1e-12)
    assert fit.objective == pytest.approx(P(X, y, fit.u, loss, kw.get("ridge", 0.0)), rel=1e-12)
    if fit.lower_bound is not None:       # weak duality: a proof of near-optimality
        assert fit.gap <= 1e-6 * (1 + abs(fit.objective)), fit.info
    elif loss != "squared":               # unregularised smooth losses: stationarity
        assert fit.info["grad_norm"] < 1e-5


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("loss", ["hinge", "absolute"])
def test_lp_against_subgradient_descent(seed, loss):
    X, y = noisy(seed, n=80, d=3)
    fit = BestFixed(loss=loss).fit(X, y, cache=None)
    sub = subgradient_min(X, y, loss, steps=5000)
    assert fit.objective <= sub + 1e-9                   # LP at least as good ...
    assert fit.objective >= sub - 0.05 * (1 + sub)       # ... and the slow method gets close


def test_ball_constraint_against_projected_subgradient():
    X, y = noisy(3, n=80, d=3)
    fit = BestFixed(loss="hinge", radius=0.4).fit(X, y, cache=None)
    sub = subgradient_min(X, y, "hinge", radius=0.4, steps=5000)
    assert fit.objective <= sub + 1e-9
    assert fit.objective >= sub - 0.01 * sub
    assert np.linalg.norm(fit.u) == pytest.approx(0.4, rel=1e-9)   # active constraint


@pytest.mark.parametrize("loss", ["hinge", "absolute", "epsilon_insensitive"])
def test_ridge_qp_against_liblinear(loss):
    X, y = noisy(4)
    if loss != "hinge":
        y = X @ np.arange(1.0, 6.0) + np.random.default_rng(2).normal(size=len(y))
    lam = 0.5
    ours = BestFixed(loss=loss, ridge=lam).fit(X, y, cache=None)
    if loss == "hinge":
        ref = LinearSVC(loss="hinge", C=1 / lam, fit_intercept=False, tol=1e-8, max_iter=200_000)
    else:
        ref = LinearSVR(loss="epsilon_insensitive", C=1 / lam, fit_intercept=False, tol=1e-8,
                        epsilon=0.1 if loss == "epsilon_insensitive" else 0.0, max_iter=200_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref.fit(X, y)
    p_ref = P(X, y, ref.coef_.ravel(), loss, lam)
    assert ours.objective <= p_ref + 1e-9
    assert ours.objective == pytest.approx(p_ref, rel=1e-4)


def test_smooth_losses_kkt_and_closed_form():
    X, y = noisy(5)
    lam = 0.3
    for loss in ("logistic", "squared_hinge"):
        u = BestFixed(loss=loss, ridge=lam).fit(X, y, cache=None).u
        L = get_loss(loss)
        grad = X.T @ L.derivative(X @ u, y) + lam * u
        assert np.linalg.norm(grad) < 1e-6
    u = BestFixed(loss="squared", ridge=lam).fit(X, y, cache=None).u
    np.testing.assert_allclose(u, np.linalg.solve(X.T @ X + lam * np.eye(5), X.T @ y), rtol=1e-10)
    # ball: KKT says u = -grad/mu with ||u|| = radius, mu > 0
    u = BestFixed(loss="logistic", radius=0.2).fit(X, y, cache=None).u
    g = X.T @ get_loss("logistic").derivative(X @ u, y)
    cos = -(g @ u) / (np.linalg.norm(g) * np.linalg.norm(u))
    assert np.linalg.norm(u) == pytest.approx(0.2, rel=1e-6) and cos > 1 - 1e-8


def test_sparse_equals_dense():
    X, y = noisy(6)
    X[np.abs(X) < 0.7] = 0.0
    for kw in ({"loss": "hinge"}, {"loss": "squared_hinge", "ridge": 0.1},
               {"loss": "hinge", "radius": 0.5}):
        a = BestFixed(**kw).fit(X, y, cache=None)
        b = BestFixed(**kw).fit(sp.csr_matrix(X), y, cache=None)
        assert a.objective == pytest.approx(b.objective, rel=1e-7)


# --------------------------------------------------------------------------- skips
def test_logistic_without_minimiser_is_a_skip():
    X, y, _ = separable_data(0)
    fit = BestFixed(loss="logistic").fit(X, y, cache=None)
    assert not fit.ok and "separable" in fit.skip_reason
    assert BestFixed(loss="logistic", radius=1.0).fit(X, y, cache=None).ok


def test_max_margin_separable_and_not():
    X, y, u = separable_data(1, gamma=0.05)
    fit = MaxMargin().fit(X, y, cache=None)
    m = y * (X @ fit.u)
    assert m.min() == pytest.approx(1.0, abs=1e-9)          # canonical scaling, all feasible
    gamma = fit.info["gamma"]
    assert gamma >= (y * (X @ u)).min() - 1e-12            # at least the generating margin
    assert gamma <= fit.info["gamma_upper"] * (1 + 1e-9)    # certified by the dual
    assert gamma == pytest.approx(fit.info["gamma_upper"], rel=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        svc = LinearSVC(C=1e6, loss="hinge", fit_intercept=False, tol=1e-10,
                        max_iter=500_000).fit(X, y)
    w = svc.coef_.ravel()
    assert gamma >= (y * (X @ w)).min() / np.linalg.norm(w) - 1e-9
    Xn, yn = noisy(2)
    skip = MaxMargin().fit(Xn, yn, cache=None)
    assert not skip.ok and skip.skip_reason.startswith("not separable")


def test_generating():
    X, y, u = separable_data(2)
    meta = StreamMeta("s", "classification", len(y), 4, u=u, margin=float((y * (X @ u)).min()))
    fit = Generating(scale="unit_margin").fit(X, y, meta)
    assert (y * fit.margins).min() == pytest.approx(1.0) and fit.cum_loss == pytest.approx(0.0)
    assert not Generating().fit(X, y).ok


# --------------------------------------------------------------------------- prefixes
@pytest.mark.parametrize("kw", [{"loss": "hinge"}, {"loss": "logistic", "ridge": 0.1},
                                {"loss": "hinge", "radius": 0.5}])
def test_prefix_best_equals_fresh_fits(kw):
    X, y = noisy(7, n=120)
    ks = [1, 5, 30, 77, 120]
    fit = PrefixBest(**kw).fit(X, y, checkpoints=ks, cache=None)
    for k, T in enumerate(ks):
        fresh = BestFixed(**kw).fit(X[:T], y[:T], cache=None)
        assert fit.prefix_loss[k] == pytest.approx(fresh.cum_loss, rel=1e-6, abs=1e-8)
    np.testing.assert_array_equal(fit.cum_loss_at([5, 120]), fit.prefix_loss[[1, 4]])
    with pytest.raises(ValueError, match="not checkpoints"):
        fit.cum_loss_at([6])
    # without ridge, prefix minima lie below the final comparator's running losses
    last_u = np.cumsum(fit.losses)[np.array(ks) - 1]
    assert kw.get("ridge") or np.all(fit.prefix_loss <= last_u + 1e-9)


# --------------------------------------------------------------------------- cache, registry
def test_disk_cache(tmp_path):
    X, y = noisy(8)
    meta = StreamMeta("s", "classification", len(y), 5, fingerprint="abc123")
    other = StreamMeta("s", "classification", len(y), 5, fingerprint="other")
    c = BestFixed(loss="hinge", ridge=0.1)
    a = c.fit(X, y, meta, cache=tmp_path)
    assert len(list(tmp_path.rglob("output.pkl"))) == 1
    b = c.fit(X, y, other, cache=tmp_path)   # order-invariant: keyed by the data's content
    np.testing.assert_array_equal(a.u, b.u)
    assert len(list(tmp_path.rglob("output.pkl"))) == 1
    e = c.fit(X * 2, y, meta, cache=tmp_path)   # other content, same fingerprint: refitted
    assert not np.allclose(a.u, e.u)
    prefix = PrefixBest(loss="hinge", ridge=0.1)   # order matters: keyed by the fingerprint
    f = prefix.fit(X, y, meta, checkpoints=[10, len(y)], cache=tmp_path)
    g = prefix.fit(X * 0, y, meta, checkpoints=[10, len(y)], cache=tmp_path)
    np.testing.assert_array_equal(f.u, g.u)


def test_registry_and_names():
    assert set(Comparator.registry.keys()) >= {"best_fixed", "prefix_best", "max_margin",
                                               "generating"}
    assert make_comparator("best_fixed", loss="squared").name == \
        "BestFixed[loss=squared,ridge=0.0,radius=None,epsilon=0.1]"
    with pytest.raises(Exception, match="loss"):
        BestFixed(loss="nope").fit(np.eye(2), np.ones(2), cache=None)


def test_solver_dual_value_is_a_lower_bound():
    X, y = noisy(9)
    rng = np.random.default_rng(0)
    for loss in LOSSES:
        lam = 0.7
        best = BestFixed(loss=loss, ridge=lam).fit(X, y, cache=None).objective
        for _ in range(5):          # random dual-feasible points never exceed the optimum
            a = y * rng.uniform(0, 1, len(y)) if loss != "absolute" else rng.uniform(-1, 1, len(y))
            if loss == "squared":
                a = rng.normal(size=len(y))
            if loss == "epsilon_insensitive":
                a = rng.uniform(-1, 1, len(y))
            assert _solvers.dual_value(X, y, a, loss, 0.1, lam) <= best + 1e-9


@pytest.mark.parametrize("loss", ["hinge", "epsilon_insensitive"])
def test_coordinate_ascent_on_csr_rows_takes_the_dense_steps(loss):
    """dcd_csr is dcd_dense read through CSR rows: the same coordinates in the same order,
    so the same dual point and v = X^T alpha (to the round-off of sums over the non-zeros
    only), each coordinate step inside its box."""
    from olbench.comparators._dcd import box, dcd_csr, dcd_dense

    X, y = noisy(7, n=120, d=6)
    X[np.abs(X) < 0.8] = 0.0                       # about 40% non-zeros
    Xc = sp.csr_matrix(X)
    lo, hi = box(loss, y)
    q = np.einsum("ij,ij->i", X, X)
    order = np.random.default_rng(0).permutation(np.flatnonzero(q > 0)).astype(np.int64)
    dense_alpha, csr_alpha = np.zeros(len(y)), np.zeros(len(y))
    dense_v, csr_v = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    eps = 0.1 if loss == "epsilon_insensitive" else 0.0
    dcd_dense(X, y, eps, lo, hi, q, 0.5, dense_alpha, dense_v, order, 3)
    dcd_csr(Xc.data, Xc.indices, Xc.indptr, y, eps, lo, hi, q, 0.5, csr_alpha, csr_v, order, 3)
    np.testing.assert_allclose(csr_alpha, dense_alpha, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(csr_v, X.T @ csr_alpha, rtol=1e-12, atol=1e-12)
    assert (lo <= csr_alpha).all() and (csr_alpha <= hi).all() and np.abs(csr_alpha).sum() > 0
