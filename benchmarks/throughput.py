"""Throughput of olbench's compiled protocol against hand-written and third-party peers.

For each (learner, d) the same dense stream (seeded Gaussian X, float64, C-contiguous;
labels sign(X u) with a fraction of them flipped so that updates keep happening) is fed to

* ``olbench run``   the whole :func:`olbench.run` call (input checks, label mapping, loop,
                    trace with per-round losses), wall time;
* ``olbench loop``  ``trace.time_s``: the compiled loop alone;
* ``hand loop``     a plain ``@numba.njit(cache=True, fastmath=False)`` loop written by hand
                    for the same rule (below, no olbench code), doing the same work per round
                    (record the margin and the update flag, update in place); its final state
                    is asserted equal to olbench's;
* ``numpy loop``    a per-example Python loop of NumPy operations (``w @ x``, ``w += a * x``;
                    full covariances through BLAS's in-place ``dsymv``/``dsyr``, one BLAS
                    thread as olbench uses one core),
                    timed on the first ``--numpy-rows`` rows and scaled to ns/example;
* ``river``         ``learn_one`` over dict rows (the dicts are built before timing), on the
                    first ``--river-rows`` rows; Perceptron with its intercept learning rate
                    set to 0, ``PAClassifier(C=1, mode=1, learn_intercept=False)``, OGD as
                    ``LogisticRegression(optimizer=SGD(0.1), loss=Hinge(threshold=1), l2=0,
                    intercept_lr=0)``;
* ``sklearn``       one-pass ``fit`` on all n rows: ``Perceptron(fit_intercept=False,
                    shuffle=False, eta0=1, max_iter=1, tol=None)`` and ``SGDClassifier(
                    loss="hinge", penalty=None, learning_rate="pa1", eta0=1, ...)``; OGD
                    (hinge, constant step 0.1) as ``SGDClassifier(loss="hinge",
                    penalty=None, learning_rate="constant", eta0=0.1, ...)``.

Kernel PA-I (Gaussian kernel, h = sqrt(d) so that k(x, x') is about e^-1 between two rows)
runs on the first ``--kernel-n`` rows (default 20,000: its cost per round grows with the
support vectors, so the whole stream is O(n^2 d)) and for d <= ``--kernel-max-d``; its hand
loop and NumPy loop keep the support vectors in a preallocated n x d array. Neither river nor
scikit-learn has an online kernel Perceptron or PA (river's and scikit-learn's kernel tools
are batch SVMs or random-feature approximations, another computation): those cells are n/a.

The final weights of every peer are compared with olbench's on the same rows (``match``).
Times are medians over repeats, after one warm-up call (JIT compile or cache load).
Targets (from the issue): olbench loop <= 1.1x the hand loop; olbench run >= 300x faster
than river and >= 3x faster than scikit-learn's one-pass fit.

Run ``python benchmarks/throughput.py --help``. Not part of the pytest suite.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
import warnings
from dataclasses import dataclass, field

import numba
import numpy as np
from scipy.linalg.blas import dsymv, dsyr
from threadpoolctl import threadpool_limits

import olbench

RULES = ("perceptron", "pa1", "ogd", "arow_diag", "arow_full", "scw_full", "sop_full", "kernel_pa1")
LABEL = {"perceptron": "Perceptron", "pa1": "PA-I (C=1)",
         "ogd": "OGD (hinge, eta=0.1 constant)", "arow_diag": "AROW diag (r=1)",
         "arow_full": "AROW full (r=1)", "scw_full": "SCW-I full (C=1, eta=0.75)",
         "sop_full": "SOP full (a=1)", "kernel_pa1": "Kernel PA-I (C=1, Gaussian h=sqrt(d))"}
FULL = ("arow_full", "scw_full", "sop_full")   # O(d^2) per round: run up to --full-max-d only
KERNEL = ("kernel_pa1",)   # O(n d) per round: on --kernel-n rows, up to --kernel-max-d only
TARGET_HAND = 1.1     # olbench loop / hand loop <= 1.1
TARGET_RIVER = 300.0  # river / olbench run >= 300
TARGET_SKLEARN = 3.0  # sklearn / olbench run >= 3
TARGET_CHAIN = 0.6    # olbench run / 1-chain loop (olbench before blocked sums), d >= 100
TARGET_FLOOR = 1.5    # olbench run / memory-bandwidth floor <= 1.5 at d = 1000
TARGET_BLAS = 1.3     # full covariances: olbench run / BLAS-based numpy loop <= 1.3
CHAIN = ("perceptron", "pa1", "ogd", "arow_diag")   # the rules the 1-chain target is judged on
ETA, C, R, A0 = 1.0, 1.0, 1.0, 1.0
OGD_ETA = 0.1         # OGD's constant step on the hinge loss
SCW_ETA = 0.75
PHI = float(__import__("statistics").NormalDist().inv_cdf(SCW_ETA))   # SCW's phi = Phi^-1(eta)


# ----------------------------------------------------------------------------- the stream
def make_stream(n: int, d: int, seed: int = 0, flip: float = 0.1):
    """Gaussian X (n x d, float64, C order); y = sign(X u) in {-1, +1}, a fraction flipped."""
    rng = np.random.default_rng([seed, d])
    X = rng.standard_normal((n, d))
    u = rng.standard_normal(d)
    y = np.where(X @ u >= 0.0, 1.0, -1.0)
    y[rng.random(n) < flip] *= -1.0
    return np.ascontiguousarray(X), y


def kernel_width(d: int) -> float:
    """h = sqrt(d): two standard normal rows are about 2 d apart in squared distance, so
    k(x, x') = exp(-||x - x'||^2 / (2 h^2)) is about e^-1, neither 0 nor 1."""
    return math.sqrt(d)


def make_olbench(rule: str, d: int = 1):
    if rule == "kernel_pa1":
        return olbench.make_learner("kernel_pa", C=C, variant="pa1", h=kernel_width(d))
    if rule == "perceptron":
        return olbench.make_learner("perceptron", eta=ETA)
    if rule == "pa1":
        return olbench.make_learner("pa", C=C, variant="pa1")
    if rule == "ogd":
        return olbench.make_learner("ogd", loss="hinge", eta=OGD_ETA, schedule="constant")
    if rule == "scw_full":
        return olbench.make_learner("scw", C=C, confidence=SCW_ETA, a=A0)
    if rule == "sop_full":
        return olbench.make_learner("sop", ridge=A0)
    return olbench.make_learner("arow", r=R, a=A0, diagonal=(rule == "arow_diag"))


# ----------------------------------------------------------------------------- hand loops
# Written by hand for one rule each: no olbench code. Same arithmetic in the same order as
# the rule's definition, so the final state is comparable to olbench's at tight tolerance.
@numba.njit(inline="always", cache=True, fastmath=False)
def _term(a, b, x, j):
    return a[j] * x[j] if b is None else a[j] * x[j] * b[j]


@numba.njit(inline="always", cache=True, fastmath=False)
def hdot(a, b, x, blocked):
    """sum_j a[j] x[j] (times b[j] when b is given). ``blocked``: in eight partial sums
    combined in a fixed order, as olbench sums (olbench/rules/rows.py); otherwise one term
    at a time, as olbench summed before the sums were blocked (the "1-chain" column)."""
    n = x.shape[0]
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    k = 0
    while blocked and k + 8 <= n:
        s0 += _term(a, b, x, k)
        s1 += _term(a, b, x, k + 1)
        s2 += _term(a, b, x, k + 2)
        s3 += _term(a, b, x, k + 3)
        s4 += _term(a, b, x, k + 4)
        s5 += _term(a, b, x, k + 5)
        s6 += _term(a, b, x, k + 6)
        s7 += _term(a, b, x, k + 7)
        k += 8
    rest = 0.0
    while k < n:
        rest += _term(a, b, x, k)
        k += 1
    return (((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))) + rest


@numba.njit(cache=True, fastmath=False)
def dot_pass(X, w, margins):
    """The least work any linear rule does per round: read the row, take w.x (blocked), record
    it; no update, so no round waits for the previous one. Its time is what reading X at the
    machine's speed costs in practice (the "dot pass" column), a floor for every rule here."""
    for t in range(X.shape[0]):
        margins[t] = hdot(w, None, X[t], True)


def run_dot_pass(X) -> float:
    w, margins = np.ones(X.shape[1]), np.empty(X.shape[0])
    start = time.perf_counter()
    dot_pass(X, w, margins)
    return time.perf_counter() - start


@numba.njit(cache=True, fastmath=False)
def hand_perceptron(X, y, eta, w, margins, updated, blocked=True, hinge=False):
    """w += eta y x on a mistake (y w.x <= 0); with ``hinge``, where y w.x < 1: OGD on the
    hinge loss with a constant step."""
    n, d = X.shape
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        if (y[t] * m < 1.0) if hinge else (y[t] * m <= 0.0):
            a = eta * y[t]
            for j in range(d):
                w[j] += a * X[t, j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_pa1(X, y, C, w, margins, updated, blocked=True):
    n, d = X.shape
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        loss = 1.0 - y[t] * m
        if loss > 0.0:
            sq = hdot(X[t], None, X[t], blocked)
            if sq > 0.0:
                a = y[t] * min(C, loss / sq)
                for j in range(d):
                    w[j] += a * X[t, j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_arow_diag(X, y, r, w, diag, margins, updated, blocked=True):
    n, d = X.shape
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        if y[t] * m < 1.0:
            v = hdot(diag, X[t], X[t], blocked)
            if v > 0.0:
                beta = 1.0 / (v + r)
                a = (1.0 - y[t] * m) * y[t] * beta
                for j in range(d):
                    w[j] += a * diag[j] * X[t, j]
                for j in range(d):
                    dx = diag[j] * X[t, j]
                    diag[j] -= beta * dx * dx
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_arow_full(X, y, r, w, S, margins, updated, blocked=True):
    n, d = X.shape
    sx = np.empty(d)  # scratch, allocated once
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        if y[t] * m < 1.0:
            # sx = S x, accumulated row by row (S is symmetric)
            for j in range(d):
                sx[j] = 0.0
            for i in range(d):
                xi = X[t, i]
                if xi != 0.0:
                    for j in range(d):
                        sx[j] += xi * S[i, j]
            v = hdot(sx, None, X[t], blocked)
            if v > 0.0:
                beta = 1.0 / (v + r)
                a = (1.0 - y[t] * m) * y[t] * beta
                for j in range(d):
                    w[j] += a * sx[j]
                for i in range(d):
                    bi = beta * sx[i]
                    for j in range(d):
                        S[i, j] -= bi * sx[j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_scw_full(X, y, C, phi, w, S, margins, updated, blocked=True):
    """SCW-I (Wang, Zhao, Hoi 2012) with a full covariance, as its paper writes it."""
    n, d = X.shape
    sx = np.empty(d)
    psi, xi = 1.0 + phi * phi / 2.0, 1.0 + phi * phi
    for t in range(n):
        m = hdot(w, None, X[t], blocked)
        margins[t] = m
        for j in range(d):
            sx[j] = 0.0
        for i in range(d):
            xi_t = X[t, i]
            if xi_t != 0.0:
                for j in range(d):
                    sx[j] += xi_t * S[i, j]
        v = hdot(sx, None, X[t], blocked)
        ym = y[t] * m
        if phi * np.sqrt(v) - ym > 0.0:
            alpha = (-ym * psi + np.sqrt(ym * ym * phi ** 4 / 4.0 + v * phi * phi * xi)) / (v * xi)
            alpha = min(C, max(0.0, alpha))
            sqrt_u = 0.5 * (-alpha * v * phi + np.sqrt(alpha * alpha * v * v * phi * phi + 4 * v))
            beta = alpha * phi / (sqrt_u + v * alpha * phi)
            for j in range(d):
                w[j] += alpha * y[t] * sx[j]
            for i in range(d):
                bi = beta * sx[i]
                for j in range(d):
                    S[i, j] -= bi * sx[j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_sop_full(X, y, w, S, margins, updated, blocked=True):
    """Second-order Perceptron: S = (a I + sum over mistakes x x')^-1, w = S v."""
    n, d = X.shape
    sx = np.empty(d)
    for t in range(n):
        for j in range(d):
            sx[j] = 0.0
        for i in range(d):
            xi = X[t, i]
            if xi != 0.0:
                for j in range(d):
                    sx[j] += xi * S[i, j]
        wx, v = hdot(w, None, X[t], blocked), hdot(sx, None, X[t], blocked)
        m = wx / (1.0 + v)
        margins[t] = m
        if y[t] * m <= 0.0:
            beta = 1.0 / (1.0 + v)
            a = (y[t] - wx) * beta
            for j in range(d):
                w[j] += a * sx[j]
            for i in range(d):
                bi = beta * sx[i]
                for j in range(d):
                    S[i, j] -= bi * sx[j]
            updated[t] = True
        else:
            updated[t] = False


@numba.njit(cache=True, fastmath=False)
def hand_kernel_pa1(X, y, C, two_h2, coef, S, margins, updated):
    """Gaussian-kernel PA-I; support vectors in S[:n_sv], coefficients in coef[:n_sv]."""
    n_sv = 0
    for t in range(X.shape[0]):
        x = X[t]
        f = 0.0
        for i in range(n_sv):
            dist = 0.0
            for j in range(x.shape[0]):
                diff = x[j] - S[i, j]
                dist += diff * diff
            f += coef[i] * math.exp(-dist / two_h2)
        margins[t] = f
        loss = 1.0 - y[t] * f
        if loss > 0.0:
            S[n_sv, :] = x
            coef[n_sv] = y[t] * min(C, loss)      # k(x, x) = 1
            n_sv += 1
            updated[t] = True
        else:
            updated[t] = False
    return n_sv


def run_hand(rule: str, X, y, blocked: bool = True):
    """Run the hand loop; returns (seconds of the compiled call alone, w, aux state).
    ``blocked=False``: the same rule summing one term at a time (olbench before its sums were
    blocked), for the "1-chain" column."""
    n, d = X.shape
    w, margins, updated = np.zeros(d), np.empty(n), np.empty(n, dtype=np.bool_)
    if rule == "kernel_pa1":
        coef, S = np.zeros(n), np.zeros((n, d))
        start = time.perf_counter()
        n_sv = hand_kernel_pa1(X, y, C, 2.0 * kernel_width(d) ** 2, coef, S, margins, updated)
        return time.perf_counter() - start, coef[:n_sv], S[:n_sv]
    if rule == "perceptron":
        start = time.perf_counter()
        hand_perceptron(X, y, ETA, w, margins, updated, blocked)
        return time.perf_counter() - start, w, None
    if rule == "pa1":
        start = time.perf_counter()
        hand_pa1(X, y, C, w, margins, updated, blocked)
        return time.perf_counter() - start, w, None
    if rule == "ogd":
        start = time.perf_counter()
        hand_perceptron(X, y, OGD_ETA, w, margins, updated, blocked, hinge=True)
        return time.perf_counter() - start, w, None
    if rule == "arow_diag":
        diag = np.full(d, A0)
        start = time.perf_counter()
        hand_arow_diag(X, y, R, w, diag, margins, updated, blocked)
        return time.perf_counter() - start, w, diag
    if rule == "sop_full":
        S = np.eye(d) / A0
        start = time.perf_counter()
        hand_sop_full(X, y, w, S, margins, updated, blocked)
        return time.perf_counter() - start, w, S
    S = A0 * np.eye(d)
    start = time.perf_counter()
    if rule == "scw_full":
        hand_scw_full(X, y, C, PHI, w, S, margins, updated, blocked)
    else:
        hand_arow_full(X, y, R, w, S, margins, updated, blocked)
    return time.perf_counter() - start, w, S


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


# ----------------------------------------------------------------------------- driver
@dataclass
class Row:
    rule: str
    d: int
    n: int
    ns: dict[str, float | None] = field(default_factory=dict)   # ns/example by competitor
    rows: dict[str, int] = field(default_factory=dict)          # rows each was timed on
    match: dict[str, str] = field(default_factory=dict)         # final weights vs olbench
    updates: float = 0.0                                        # fraction of rounds updated

    def ratio(self, num: str, den: str) -> float | None:
        a, b = self.ns.get(num), self.ns.get(den)
        return None if a is None or b is None or b == 0 else a / b


def _median_time(fn, repeats: int) -> float:
    return statistics.median(fn() for _ in range(repeats))


def _close(a, b, rtol=1e-9, atol=1e-9) -> bool:
    return bool(np.allclose(a, b, rtol=rtol, atol=atol))


def bench_one(rule: str, X, y, args) -> Row:
    n, d = X.shape
    row = Row(rule, d, n)
    ns = lambda seconds, rows: 1e9 * seconds / rows  # noqa: E731

    # olbench and the hand-written compiled loop (which must compute exactly the same thing):
    # warm up (compile or load from cache), then alternate the two so that a change in the
    # machine's load hits both alike
    olbench.run(make_olbench(rule, d), X[:64], y[:64])
    run_hand(rule, X[:64], y[:64])
    run_dot_pass(X[:64])
    traces, walls, hand, chain, passes = [], [], [], [], []
    for _ in range(args.repeats):
        learner = make_olbench(rule, d)
        start = time.perf_counter()
        trace = olbench.run(learner, X, y)
        walls.append(time.perf_counter() - start)
        traces.append(trace)
        del trace
        hand.append(run_hand(rule, X, y))
        if rule in CHAIN:
            chain.append(run_hand(rule, X, y, blocked=False)[0])
        passes.append(run_dot_pass(X))
    trace = traces[-1]
    row.ns["olbench_run"] = ns(statistics.median(walls), n)
    row.ns["olbench_loop"] = ns(statistics.median(t.time_s for t in traces), n)
    row.ns["hand"] = ns(statistics.median(h[0] for h in hand), n)
    row.ns["chain"] = ns(statistics.median(chain), n) if chain else None
    row.ns["floor"] = ns(8.0 * d / args.bandwidth, 1)  # bytes of X per example / bandwidth
    row.ns["dot_pass"] = ns(statistics.median(passes), n)
    row.rows["olbench_run"] = row.rows["olbench_loop"] = row.rows["hand"] = n
    row.updates = trace.n_updates / n
    w_ol, A_ol = trace.state["w"], trace.state["A"]
    del traces
    _, w_hand, aux_hand = hand[-1]
    assert _close(w_hand, w_ol, 1e-12, 1e-12), f"hand loop != olbench ({rule}, d={d}): w"
    if aux_hand is not None:
        assert _close(aux_hand.reshape(A_ol.shape), A_ol, 1e-12, 1e-12), \
            f"hand loop != olbench ({rule}, d={d}): covariance"
    row.match["hand"] = "yes (1e-12)"

    # plain Python + NumPy loop, on a prefix
    m = min(n, args.numpy_rows)
    ref = olbench.run(make_olbench(rule, d), X[:m], y[:m]).state["w"]
    timings = []
    with threadpool_limits(1):
        for _ in range(args.slow_repeats):
            seconds, w_np = run_numpy(rule, X[:m], y[:m])
            timings.append(seconds)
    row.ns["numpy"] = ns(statistics.median(timings), m)
    row.rows["numpy"] = m
    row.match["numpy"] = "yes" if _close(w_np, ref) else "NO"

    # river, learn_one over dicts built before timing, on a prefix
    if make_river(rule) is None:
        row.ns["river"] = None
        row.match["river"] = "n/a"
    else:
        m = min(n, args.river_rows)
        rows = [dict(enumerate(r)) for r in X[:m].tolist()]
        labels = (y[:m] > 0).tolist()
        ref = olbench.run(make_olbench(rule, d), X[:m], y[:m]).state["w"]
        timings = []
        for _ in range(args.slow_repeats):
            model = make_river(rule)
            timings.append(run_river(model, rows, labels))
        row.ns["river"] = ns(statistics.median(timings), m)
        row.rows["river"] = m
        w_river, b_river = river_weights(model, d)
        row.match["river"] = "yes" if _close(w_river, ref) and b_river == 0.0 else "NO"

    # scikit-learn one-pass fit on all n rows
    if make_sklearn(rule) is None:
        row.ns["sklearn"] = None
        row.match["sklearn"] = "n/a"
    else:
        run_sklearn(make_sklearn(rule), X[:64], y[:64])
        timings = []
        for _ in range(args.sklearn_repeats):
            model = make_sklearn(rule)
            timings.append(run_sklearn(model, X, y))
        row.ns["sklearn"] = ns(statistics.median(timings), n)
        row.rows["sklearn"] = n
        row.match["sklearn"] = "yes" if _close(model.coef_.ravel(), w_ol) else "NO"
    return row


def _fmt(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "n/a"
    if value >= 1e5:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def _verdict(value: float | None, target: float, at_most: bool) -> str:
    if value is None:
        return "n/a"
    ok = value <= target if at_most else value >= target
    return "PASS" if ok else "MISS"


COLUMNS = ("olbench_run", "olbench_loop", "hand", "chain", "floor", "dot_pass", "numpy", "river",
           "sklearn")


def feasible(r: Row) -> str:
    """Whether the river and 1-chain targets can be met at all on this machine: each asks for a
    time below which no rule that reads its row and takes w.x can go (the dot pass)."""
    floor = r.ns.get("dot_pass")
    notes = []
    if r.ns.get("river") is not None and r.ns["river"] / TARGET_RIVER < floor:
        notes.append(f"river/{TARGET_RIVER:.0f} = {_fmt(r.ns['river'] / TARGET_RIVER)} < pass")
    if r.ns.get("chain") is not None and r.d >= 100 and TARGET_CHAIN * r.ns["chain"] < floor:
        notes.append(f"{TARGET_CHAIN}x 1-chain = {_fmt(TARGET_CHAIN * r.ns['chain'])} < pass")
    return "; ".join(notes) or "-"


def format_table(rows: list[Row]) -> str:
    """A Markdown table: ns/example, ratios, verdicts."""
    head = ("| learner | d | upd % | olbench run | olbench loop | hand loop | 1-chain loop |"
            " bandwidth floor | dot pass | numpy loop | river |"
            " sklearn | loop/hand | run/1-chain | run/floor | numpy/run | river/run | sklearn/run |"
            " river/loop | sklearn/loop | <=1.1x hand | <=0.6x 1-chain (d>=100) |"
            " <=1.5x floor (d=1000) | full: <=1.3x numpy+BLAS | >=300x river | >=3x sklearn |"
            " below the dot pass (unreachable) |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        loop_hand = r.ratio("olbench_loop", "hand")
        run_chain = r.ratio("olbench_run", "chain") if r.d >= 100 else None
        run_floor = r.ratio("olbench_run", "floor")
        numpy_run = r.ratio("numpy", "olbench_run")
        river_run = r.ratio("river", "olbench_run")
        sk_run = r.ratio("sklearn", "olbench_run")
        river_loop = r.ratio("river", "olbench_loop")
        sk_loop = r.ratio("sklearn", "olbench_loop")
        cells = [LABEL[r.rule], str(r.d), f"{100 * r.updates:.0f}",
                 *(_fmt(r.ns.get(c)) for c in COLUMNS),
                 _fmt(loop_hand, 2) + "x" if loop_hand else "n/a",
                 _fmt(run_chain, 2) + "x" if run_chain else "n/a",
                 _fmt(run_floor, 1) + "x" if run_floor else "n/a",
                 _fmt(numpy_run) + "x" if numpy_run else "n/a",
                 _fmt(river_run) + "x" if river_run else "n/a",
                 _fmt(sk_run, 2) + "x" if sk_run else "n/a",
                 _fmt(river_loop) + "x" if river_loop else "n/a",
                 _fmt(sk_loop, 2) + "x" if sk_loop else "n/a",
                 _verdict(loop_hand, TARGET_HAND, True),
                 _verdict(run_chain, TARGET_CHAIN, True),
                 _verdict(run_floor if r.d == 1000 else None, TARGET_FLOOR, True),
                 _verdict(1 / numpy_run if numpy_run and r.rule in FULL else None, TARGET_BLAS,
                          True),
                 _verdict(river_run, TARGET_RIVER, False),
                 _verdict(sk_run, TARGET_SKLEARN, False),
                 feasible(r)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def format_checks(rows: list[Row]) -> str:
    lines = ["| learner | d | hand = olbench | numpy = olbench | river = olbench |"
             " sklearn = olbench | numpy rows | river rows | sklearn rows |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {LABEL[r.rule]} | {r.d} | {r.match['hand']} | {r.match['numpy']} | "
                     f"{r.match['river']} | {r.match['sklearn']} | {r.rows.get('numpy', '-')} | "
                     f"{r.rows.get('river', '-')} | {r.rows.get('sklearn', '-')} |")
    return "\n".join(lines)


def environment() -> str:
    import river
    import sklearn

    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    env = {k: os.environ[k] for k in sorted(os.environ)
           if k.startswith(("OPENBLAS_", "OMP_", "MKL_", "NUMBA_"))}
    return (f"date {time.strftime('%Y-%m-%d %H:%M %Z')}; CPU {cpu}, nproc {os.cpu_count()}; "
            f"{platform.system()} {platform.release()}\n"
            f"python {platform.python_version()}, numpy {np.__version__}, numba "
            f"{numba.__version__}, river {river.__version__}, scikit-learn {sklearn.__version__}, "
            f"olbench {olbench.__version__}\n"
            f"env: {env if env else 'no OPENBLAS_/OMP_/MKL_/NUMBA_ variables set'}; "
            f"load average {_loadavg()}")


def _loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def copy_bandwidth(megabytes: int = 256, repeats: int = 5) -> float:
    """Bytes per second of a large array copy (read + write counted as the bytes read, as a
    pass over X reads them): the floor below which no pass over dense X can go."""
    src = np.ones(megabytes * 2**20 // 8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    best = min(_timed_copy(dst, src) for _ in range(repeats))
    return src.nbytes / best


def _timed_copy(dst, src) -> float:
    start = time.perf_counter()
    np.copyto(dst, src)
    return time.perf_counter() - start


def draw(rows: list[Row], path: str) -> None:
    """ns/example against d, log-log: one panel per learner (four to a row), one line per
    implementation in a colour and marker of its own, the memory-bandwidth floor dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    rules = list(dict.fromkeys(r.rule for r in rows))
    styles = {"olbench_run": ("olbench run", "o", "-", "#0072B2"),
              "hand": ("hand loop", "s", "--", "#E69F00"),
              "chain": ("1-chain loop", "^", ":", "#009E73"),
              "dot_pass": ("dot pass (no updates)", "x", ":", "#555555"),
              "numpy": ("numpy loop", "v", "-.", "#CC79A7"),
              "river": ("river", "D", "-", "#D55E00"),
              "sklearn": ("scikit-learn fit", "P", "--", "#56B4E9")}
    ncols = min(4, len(rules))
    nrows = -(-len(rules) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 2.9 * nrows + 0.8),
                             squeeze=False)
    for ax, rule in zip(axes.flat, rules):
        mine = sorted((r for r in rows if r.rule == rule), key=lambda r: r.d)
        dims = [r.d for r in mine]
        for key, (label, marker, line, colour) in styles.items():
            values = [r.ns.get(key) for r in mine]
            if any(v is not None for v in values):
                ax.plot(dims, [float("nan") if v is None else v for v in values], marker=marker,
                        linestyle=line, color=colour, label=label)
        ax.plot(dims, [r.ns["floor"] for r in mine], color="0.6", linestyle=(0, (1, 1)),
                label="bandwidth floor (copy)")
        ax.set(xscale="log", yscale="log", xlabel="d (features)", title=LABEL[rule])
        ax.set_xticks(dims)
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_locator(LogLocator(numticks=8))
        ax.title.set_fontsize(9)
    for ax in axes.flat[len(rules):]:
        ax.set_visible(False)
    for row in axes:
        row[0].set_ylabel("ns per example (median)")
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(list(handles.values()), list(handles), loc="upper center", ncol=4, fontsize=8,
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.7 / (2.9 * nrows + 0.8)))
    fig.savefig(path, dpi=150)
    plt.close(fig)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="ns/example of olbench.run vs a hand-written numba loop, a Python+NumPy "
                    "loop, river and scikit-learn, on the same dense stream.",
        epilog="Targets: olbench loop <= 1.1x hand loop; river >= 300x and scikit-learn >= 3x "
               "slower than olbench run. AROW and SOP full run only for d <= --full-max-d.")
    parser.add_argument("--n", type=int, default=200_000, help="stream length (default 200000)")
    parser.add_argument("--dims", type=int, nargs="+", default=[20, 100, 1000],
                        help="feature dimensions d (default: 20 100 1000)")
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES,
                        help="learners to run (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: n=5000, 1 repeat, small subsets (timings meaningless)")
    parser.add_argument("--repeats", type=int, default=7,
                        help="repeats for olbench and the hand loop, alternated (default 7)")
    parser.add_argument("--sklearn-repeats", type=int, default=5,
                        help="repeats for scikit-learn's fit (default 5)")
    parser.add_argument("--slow-repeats", type=int, default=3,
                        help="repeats for the numpy loop and river (default 3)")
    parser.add_argument("--numpy-rows", type=int, default=20_000,
                        help="rows the numpy loop is timed on (default 20000)")
    parser.add_argument("--river-rows", type=int, default=10_000,
                        help="rows river is timed on (default 10000)")
    parser.add_argument("--full-max-d", type=int, default=100,
                        help="largest d for full-matrix AROW and SOP (default 100)")
    parser.add_argument("--kernel-n", type=int, default=20_000,
                        help="rows the kernel learner runs on (default 20000)")
    parser.add_argument("--kernel-max-d", type=int, default=20,
                        help="largest d for the kernel learner (default 20)")
    parser.add_argument("--flip", type=float, default=0.1, help="label noise (default 0.1)")
    parser.add_argument("--seed", type=int, default=0, help="stream seed (default 0)")
    parser.add_argument("--figure", default=None,
                        help="also draw ns/example against d (log-log) into this PNG")
    args = parser.parse_args(argv)
    if args.quick:
        args.n = min(args.n, 5000)
        args.repeats = args.sklearn_repeats = args.slow_repeats = 1
        args.numpy_rows, args.river_rows = min(args.numpy_rows, 500), min(args.river_rows, 500)
    return args


def main(argv=None) -> list[Row]:
    args = parse_args(argv)
    args.bandwidth = copy_bandwidth(16 if args.quick else 256)
    print(environment())
    print(f"copy bandwidth {args.bandwidth / 1e9:.2f} GB/s (np.copyto, best of 5): the floor "
          f"of a pass over dense X is 8 d bytes / bandwidth per example")
    print(f"n = {args.n}, dims = {args.dims}, label noise {args.flip}, seed {args.seed}; "
          f"medians of {args.repeats} (olbench, hand), {args.sklearn_repeats} (sklearn), "
          f"{args.slow_repeats} (numpy, river)")
    print(f"numpy loop timed on the first {min(args.n, args.numpy_rows)} rows and river on the "
          f"first {min(args.n, args.river_rows)} rows, scaled to ns/example; everything else on "
          f"all {args.n} rows (the kernel learner: on the first {min(args.n, args.kernel_n)})",
          flush=True)
    rows = []
    for d in args.dims:
        X, y = make_stream(args.n, d, args.seed, args.flip)
        for rule in args.rules:
            if rule in FULL and d > args.full_max_d or rule in KERNEL and d > args.kernel_max_d:
                continue
            rows_used = args.kernel_n if rule in KERNEL else args.n
            start = time.perf_counter()
            rows.append(bench_one(rule, X[:rows_used], y[:rows_used], args))
            print(f"  {LABEL[rule]}, d={d}: {time.perf_counter() - start:.1f} s", file=sys.stderr,
                  flush=True)
        del X, y
    print(f"\nload average at the end: {_loadavg()}")
    print("\nns/example (medians). Targets are judged on loop/hand (<= 1.1x) and on the whole "
          "olbench run call (river/run >= 300x, sklearn/run >= 3x); river/loop and "
          "sklearn/loop compare with the compiled loop alone\n")
    print(format_table(rows))
    print("\nfinal weights equal to olbench's on the same rows (allclose rtol=atol=1e-9 unless "
          "noted)\n")
    print(format_checks(rows))
    if args.figure:
        draw(rows, args.figure)
        print(f"\nfigure: {args.figure}")
    return rows


if __name__ == "__main__":
    # Run the module under its own name, never as __main__: numba's on-disk cache records the
    # module of each compiled loop, so one name must serve the script and the smoke test.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import throughput

    throughput.main()
