"""Piecewise-linear loss + ridge in few dimensions: Newton's method on the smoothed primal.

The primal P(u) = sum_t phi_t(x_t.u) + lam/2 ||u||^2 (hinge, absolute, epsilon-insensitive)
lives in d dimensions, however many rounds there are; its only difficulty is the kinks. Adding
delta/2 a^2 to the conjugate (the Moreau envelope of each phi_t, the Huber-smoothed loss of
Chapelle, "Training a support vector machine in the primal", Neural Computation 19(5), 2007,
sec. 5) makes it piecewise quadratic:

    phi_delta(p) = max_{a in [lo, hi]} h(a) - delta a^2 / 2 - a p,
    a_delta(p)   = clip(S_eps(y - p) / delta, lo, hi),      S_eps: soft threshold at eps,

with gradient lam u - X^T a_delta(Xu) and Hessian lam I + X_Q^T X_Q / delta, Q the rounds
whose a_delta is strictly inside its box. Newton's method with an exact line search converges
on a piecewise quadratic in finitely many steps (Keerthi & DeCoste, "A modified finite Newton
method for fast solution of large scale linear SVMs", JMLR 6, 2005, the same argument).

Continuation: delta = 1, 1/10, 1/100, ..., each stage warm-started from the last, its first
step taken on the last stage's quadratic piece (the rounds on the curved part stay there as
delta shrinks; measured at 10,000 x 300, starting on the new piece instead made every step
stop at the first kink it crossed, 60 steps a stage). At the end of
a stage a = a_delta(Xu) is a feasible dual point of the *unsmoothed* problem with
X^T a = lam u, so P(u) - D(a) <= |Q| delta / 4 (hinge): the gap vanishes with delta. As
delta -> 0, Q shrinks to the rounds on the kink at the optimum (at most d of them in general
position), and :func:`olbench.comparators._dcd.polish` -- the exact KKT solve on that set --
then gives the optimum to round-off. Every candidate is scored by the caller's own
certificate (weak duality), so the method can be slow, never wrong.

One stage costs a few Newton steps, each O(n d) for X u plus O(|Q| d min(|Q|, d)) for the
Newton system (Woodbury's form when |Q| < d: the |Q| x |Q| system stays well conditioned as
delta -> 0), which is why it is the solver of choice for large n and small d.
"""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from olbench.comparators._dcd import DCDResult, box, polish

#: above this many features a Newton step (|Q| d^2 flops, and the polishing's bounded least
#: squares in d variables) costs more than the dual methods' passes (measured: 10,000 x 1,000
#: took minutes; 30,000 x 300 five seconds)
MAX_D = 300
#: Newton steps per smoothing stage, and the smallest smoothing tried (relative to delta_0)
MAX_STEPS = 60
MIN_DELTA = 1e-13


def soft(r: np.ndarray, eps: float) -> np.ndarray:
    """S_eps(r) = sign(r) max(|r| - eps, 0) (the identity for eps = 0).

    >>> soft(np.array([-2.0, 0.5, 3.0]), 1.0).tolist()
    [-1.0, 0.0, 2.0]
    """
    return r if eps == 0 else np.sign(r) * np.maximum(np.abs(r) - eps, 0.0)


def smoothed_dual(r: np.ndarray, eps: float, delta: float, lo, hi) -> np.ndarray:
    """a_delta = clip(S_eps(r) / delta, lo, hi), r = y - Xu: the maximiser of the smoothed
    conjugate, i.e. minus the derivative of the Huber-smoothed loss.

    >>> smoothed_dual(np.array([2.0, 0.5, -1.0]), 0.0, 1.0, np.zeros(3), np.ones(3)).tolist()
    [1.0, 0.5, 0.0]
    """
    return np.clip(soft(r, eps) / delta, lo, hi)


def on_piece(r, eps, delta, lo, hi, piece) -> np.ndarray:
    """a_delta extended from one quadratic piece of the smoothed loss (``piece`` as
    :func:`_pattern`): S_eps(r) / delta where it is 0, unclipped, the box's ends at -1 / +1,
    0 in the dead zone; equal to :func:`smoothed_dual` on the piece r lies on."""
    return np.where(piece == 0, soft(r, eps) / delta,
                    np.where(piece == -1, lo, np.where(piece == 1, hi, 0.0)))


def _rows(X, mask):
    XQ = X[mask]
    return XQ.toarray() if sp.issparse(XQ) else np.asarray(XQ)


def newton_direction(X, mask, g: np.ndarray, lam: float, delta: float) -> np.ndarray:
    """-(lam I + X_Q^T X_Q / delta)^{-1} g: by Cholesky (Woodbury's identity when |Q| < d)
    while the system is well conditioned, else by :func:`stable_direction`."""
    XQ = _rows(X, mask)
    k, d = XQ.shape
    if k == 0:
        return -g / lam
    try:
        with warnings.catch_warnings():
            # rcond below round-off: the Cholesky "solution" is noise (or it fails outright)
            warnings.simplefilter("error", sla.LinAlgWarning)
            if k < d:   # (1/lam) (g - X_Q^T (delta lam I + X_Q X_Q^T)^{-1} X_Q g)
                K = XQ @ XQ.T
                K[np.diag_indices(k)] += delta * lam
                z = sla.solve(K, XQ @ g, assume_a="pos", check_finite=False)
                return -(g - XQ.T @ z) / lam
            H = XQ.T @ XQ / delta
            H[np.diag_indices(d)] += lam
            return -sla.solve(H, g, assume_a="pos", check_finite=False)
    except (np.linalg.LinAlgError, sla.LinAlgWarning):
        return stable_direction(XQ, g, lam, delta)


def stable_direction(XQ: np.ndarray, g: np.ndarray, lam: float, delta: float) -> np.ndarray:
    """The Newton direction p = -(lam I + X_Q^T X_Q / delta)^{-1} g as the least-squares
    problem min ||X_Q p||^2 / delta + lam ||p + g / lam||^2 (the same normal equations), solved
    by QR with pivoting on the stacked matrix [X_Q / sqrt(delta); sqrt(lam) I].

    Forming the Hessian squares the condition number and, once delta is small, adds lam to
    entries of order |Q| / delta where it is lost to round-off: with collinear features (a9a's
    one-hot groups sum to 1, so X_Q^T X_Q is singular) the Hessian is then singular to
    working precision and Cholesky fails ("singular matrix": a9a with hinge loss, ridge 1,
    at delta = 1e-14, |Q| = 321, d = 123). Stacked, the ridge keeps rows of its own, and the
    problem's condition number is the square root of the Hessian's.

    Collinear columns: g's part along (1, 1) is divided by 5e14 + 1, its part along the
    null direction (1, -1) by lam alone, so p = -(1/2, -1/2) to round-off:

    >>> XQ = np.array([[1.0, 1.0], [2.0, 2.0]])
    >>> stable_direction(XQ, np.array([1.0, 0.0]), 1.0, 1e-14).round(12).tolist()
    [-0.5, 0.5]
    """
    k, d = XQ.shape
    stacked = np.vstack([XQ / math.sqrt(delta), math.sqrt(lam) * np.eye(d)])
    rhs = np.concatenate([np.zeros(k), -g / math.sqrt(lam)])
    return sla.lstsq(stacked, rhs, lapack_driver="gelsy", check_finite=False)[0]


def line_search(r0, q, u, direction, lam, eps, delta, lo, hi, max_iter: int = 100) -> float:
    """The exact minimiser t >= 0 of F_delta(u + t direction): the root of its derivative
    phi'(t) = lam (u + t dir).dir - a_delta(r0 - t q).q (nondecreasing, piecewise linear),
    by Newton's method on phi' safeguarded by bisection. r0 = y - Xu, q = X dir."""
    ud, dd = float(u @ direction), float(direction @ direction)

    def slope(t):
        r = r0 - t * q
        return lam * (ud + t * dd) - float(smoothed_dual(r, eps, delta, lo, hi) @ q), r

    lo_t, hi_t = 0.0, 1.0
    s, r = slope(1.0)
    while s < 0 and hi_t < 1e12:            # bracket the root
        lo_t, hi_t = hi_t, 2 * hi_t
        s, r = slope(hi_t)
    if s < 0:
        return hi_t
    t = hi_t
    tiny = 1e-15 * (lam * (abs(ud) + dd) + float(np.abs(q).sum()))   # round-off of phi'
    for _ in range(max_iter):
        if abs(s) <= tiny or hi_t - lo_t <= 1e-15 * hi_t:
            return t
        if s > 0:
            hi_t = t
        else:
            lo_t = t
        curved = _pattern(r, eps, delta, lo, hi) == 0
        t_new = t - s / (lam * dd + float(q[curved] @ q[curved]) / delta)
        t = t_new if lo_t < t_new < hi_t else 0.5 * (lo_t + hi_t)
        s, r = slope(t)
    return t


def _pattern(r, eps, delta, lo, hi) -> np.ndarray:
    """Which piece of its smoothed loss each round is on (F_delta is one quadratic per
    pattern): -1 at the lower end of the box, +1 at the upper, 0 curved, 2 dead zone."""
    s = soft(r, eps) / delta
    out = np.where(s <= lo, -1, np.where(s >= hi, 1, 0)).astype(np.int8)
    out[np.abs(r) <= eps] = 2
    return out


def solve_newton(X, y, loss: str, eps: float, lam: float, *, primal_dual, u0=None,
                 tol: float = 1e-10, deadline: float = math.inf) -> DCDResult:
    """Smoothing continuation + Newton + exact polishing until P - D <= tol max(1, |P|).

    ``primal_dual(alpha) -> (u, P, D)`` is the caller's certificate (as in
    :func:`olbench.comparators._dcd.solve_dcd`). Returns the best certified point found by
    ``deadline`` (``converged`` False if the target was not met); ``epochs`` counts Newton
    steps, ``polished`` polishing steps.
    """
    with threadpool_limits(1, user_api="blas"):   # reproducible sums; the grid owns the cores
        return _solve(X, y, loss, eps, lam, primal_dual, u0, tol, deadline)


def _solve(X, y, loss, eps, lam, primal_dual, u0, tol, deadline) -> DCDResult:
    start = time.monotonic()
    n, d = X.shape
    eps = eps if loss == "epsilon_insensitive" else 0.0
    lo, hi = box(loss, y)
    u = np.zeros(d) if u0 is None or len(u0) != d else np.asarray(u0, float).copy()
    delta0 = 1.0 if loss == "hinge" else max(float(np.mean(np.abs(y))), 1e-12)
    delta = delta0
    best = None
    steps = polished = 0

    def consider(alpha):
        nonlocal best
        ua, p, dv = primal_dual(alpha)
        if best is None or p - dv < best[0]:
            best = (p - dv, alpha, ua, p, dv)

    carried = None
    while True:
        previous, full_step = None, False
        for _ in range(MAX_STEPS):                    # Newton on F_delta
            r = y - np.asarray(X @ u, float).ravel()
            pattern = _pattern(r, eps, delta, lo, hi)
            # a full step that stayed on one quadratic piece landed on its minimiser
            if full_step and np.array_equal(pattern, previous):
                break
            # The first step of a stage follows the last stage's piece (continuation: the
            # rounds on the curved part stay there, only delta shrinks); on the new piece
            # the rounds near the kink would all look flat and each step would stop at one.
            piece = pattern if carried is None else carried
            carried = None
            a = on_piece(r, eps, delta, lo, hi, piece)
            g = lam * u - np.asarray(X.T @ a, float).ravel()
            if not np.any(g) or time.monotonic() > deadline:
                break
            direction = newton_direction(X, piece == 0, g, lam, delta)
            q = np.asarray(X @ direction, float).ravel()
            t = line_search(r, q, u, direction, lam, eps, delta, lo, hi)
            steps += 1
            if t == 0.0:
                break
            u = u + t * direction
            previous, full_step = pattern, abs(t - 1.0) <= 1e-9
        r = y - np.asarray(X @ u, float).ravel()
        a = smoothed_dual(r, eps, delta, lo, hi)
        carried = _pattern(r, eps, delta, lo, hi)
        consider(a)
        pol = polish(X, y, a, eps, lo, hi, lam)
        if pol is not None:
            polished += 1
            consider(pol)
        gap, alpha, ua, p, dv = best
        done = gap <= tol * max(1.0, abs(p))
        if done or time.monotonic() > deadline or delta <= MIN_DELTA * delta0:
            return DCDResult(alpha, ua, p, dv, steps, polished, time.monotonic() - start, done)
        delta /= 10.0
