"""The peers of the throughput benchmark other than the hand loops: a per-example Python loop
of NumPy operations, river's ``learn_one`` and scikit-learn's one-pass ``fit``, each for the
rules it has."""

from __future__ import annotations

import time
import warnings

import numpy as np
from scipy.linalg.blas import dsymv, dsyr
from throughput_cases import A0, ETA, OGD_ETA, PHI, C, R, kernel_width


# ----------------------------------------------------------------------------- numpy loop
def run_numpy(rule: str, X, y):
    """Per-example Python loop of NumPy operations; returns (seconds, w)."""
    n, d = X.shape
    w = np.zeros(d)
    if rule == "kernel_pa1":
        coef, S, n_sv, two_h2 = np.zeros(n), np.zeros((n, d)), 0, 2.0 * kernel_width(d) ** 2
        start = time.perf_counter()
        for t in range(n):
            x, yt = X[t], y[t]
            diff = S[:n_sv] - x
            f = coef[:n_sv] @ np.exp(-np.einsum("ij,ij->i", diff, diff) / two_h2)
            loss = 1.0 - yt * f
            if loss > 0.0:
                S[n_sv] = x
                coef[n_sv] = yt * min(C, loss)
                n_sv += 1
        return time.perf_counter() - start, coef[:n_sv]
    start = time.perf_counter()
    if rule == "perceptron":
        for t in range(n):
            x, yt = X[t], y[t]
            if yt * (w @ x) <= 0.0:
                w += (ETA * yt) * x
    elif rule == "pa1":
        for t in range(n):
            x, yt = X[t], y[t]
            loss = 1.0 - yt * (w @ x)
            if loss > 0.0:
                sq = x @ x
                if sq > 0.0:
                    w += (yt * min(C, loss / sq)) * x
    elif rule == "ogd":
        for t in range(n):
            x, yt = X[t], y[t]
            if yt * (w @ x) < 1.0:
                w += (OGD_ETA * yt) * x
    elif rule == "arow_diag":
        diag = np.full(d, A0)
        for t in range(n):
            x, yt = X[t], y[t]
            m = w @ x
            if yt * m < 1.0:
                dx = diag * x
                v = dx @ x
                if v > 0.0:
                    beta = 1.0 / (v + R)
                    w += ((1.0 - yt * m) * yt * beta) * dx
                    diag -= beta * dx * dx
    # full covariances: BLAS's symmetric mat-vec and rank-one update on one triangle, in
    # place (dsymv, dsyr), the fastest a per-example NumPy loop can do
    elif rule == "scw_full":
        S, psi, xi = np.asfortranarray(A0 * np.eye(d)), 1.0 + PHI ** 2 / 2.0, 1.0 + PHI ** 2
        for t in range(n):
            x, yt = X[t], y[t]
            sx = dsymv(1.0, S, x)
            ym, v = yt * (w @ x), sx @ x
            if PHI * np.sqrt(v) - ym > 0.0:
                alpha = min(C, max(0.0, (-ym * psi + np.sqrt(ym ** 2 * PHI ** 4 / 4
                                                            + v * PHI ** 2 * xi)) / (v * xi)))
                sqrt_u = 0.5 * (-alpha * v * PHI + np.sqrt((alpha * v * PHI) ** 2 + 4 * v))
                w += (alpha * yt) * sx
                S = dsyr(-alpha * PHI / (sqrt_u + v * alpha * PHI), sx, a=S, overwrite_a=1)
    elif rule == "sop_full":
        S = np.asfortranarray(np.eye(d) / A0)
        for t in range(n):
            x, yt = X[t], y[t]
            sx = dsymv(1.0, S, x)
            beta = 1.0 / (1.0 + sx @ x)
            if yt * (w @ x) * beta <= 0.0:
                w += ((yt - w @ x) * beta) * sx
                S = dsyr(-beta, sx, a=S, overwrite_a=1)
    else:
        S = np.asfortranarray(A0 * np.eye(d))
        for t in range(n):
            x, yt = X[t], y[t]
            m = w @ x
            if yt * m < 1.0:
                sx = dsymv(1.0, S, x)
                v = sx @ x
                if v > 0.0:
                    beta = 1.0 / (v + R)
                    w += ((1.0 - yt * m) * yt * beta) * sx
                    S = dsyr(-beta, sx, a=S, overwrite_a=1)
    return time.perf_counter() - start, w


# ----------------------------------------------------------------------------- river
def make_river(rule: str):
    from river import linear_model, optim

    if rule == "perceptron":
        model = linear_model.Perceptron()
        # river's Perceptron has no intercept switch; its GLM base skips the intercept
        # update when intercept_lr is 0 (the constructor hard-codes 1).
        model.intercept_lr = optim.schedulers.Constant(0.0)
        return model
    if rule == "pa1":
        return linear_model.PAClassifier(C=C, mode=1, learn_intercept=False)
    if rule == "ogd":
        # plain SGD on the hinge loss with threshold 1 (river's Perceptron is the same model
        # with threshold 0 and a step of 1)
        return linear_model.LogisticRegression(optimizer=optim.SGD(OGD_ETA),
                                               loss=optim.losses.Hinge(threshold=1.0),
                                               l2=0.0, intercept_lr=0.0)
    return None  # river has no AROW, SOP or online kernel learner


def run_river(model, rows, labels):
    start = time.perf_counter()
    for x, yt in zip(rows, labels):
        model.learn_one(x, yt)
    return time.perf_counter() - start


def river_weights(model, d):
    weights = model.weights
    return np.array([weights.get(j, 0.0) for j in range(d)]), float(model.intercept)


# ----------------------------------------------------------------------------- sklearn
def make_sklearn(rule: str):
    from sklearn.linear_model import Perceptron, SGDClassifier

    if rule == "perceptron":
        return Perceptron(fit_intercept=False, shuffle=False, eta0=ETA, max_iter=1, tol=None)
    if rule == "pa1":
        return SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=C,
                             fit_intercept=False, shuffle=False, max_iter=1, tol=None)
    if rule == "ogd":
        return SGDClassifier(loss="hinge", penalty=None, learning_rate="constant",
                             eta0=OGD_ETA, fit_intercept=False, shuffle=False, max_iter=1,
                             tol=None)
    return None  # no AROW, SOP or online kernel PA in scikit-learn


def run_sklearn(model, X, y):
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X, y)
        return time.perf_counter() - start


__all__ = ["make_river", "make_sklearn", "river_weights", "run_numpy", "run_river", "run_sklearn"]
