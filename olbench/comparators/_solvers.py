"""Batch solvers behind the comparators: min_u sum_t loss(u.x_t, y_t) (+ ridge, or ||u|| <= U).

One entry point, :func:`solve`, chooses a well-kept solver per case and returns the solution
together with a *certified lower bound* on the optimum (weak duality), so every fit reports its
own optimality gap:

=====================  ==========================  =====================================
loss                   no ridge                    ridge lam > 0
=====================  ==========================  =====================================
hinge, absolute,       HiGHS LP (``linprog``);     HiGHS QP (same epigraph program +
epsilon_insensitive    bound = LP dual value       lam/2 ||u||^2); bound = dual value
squared                least squares (``lstsq``    normal equations / ``lsqr(damp)``;
                       / ``lsqr``), exact           bound = dual value
logistic,              L-BFGS; no bound (and no     L-BFGS; bound = dual value at
squared_hinge          minimiser for logistic on    alpha = -loss'(Xu)
                       separable data)
=====================  ==========================  =====================================

The ball constraint ||u|| <= U is handled by its Lagrangian: if the unconstrained solution lies
outside the ball, the multiplier mu with ||u(ridge + mu)|| = U is found by Brent's method on
log mu, and g(mu) = D_{ridge+mu}(alpha) - mu U^2 / 2 is the certified lower bound.

Fenchel dual used throughout (P(u) = sum_t phi_t(x_t.u) + lam/2 ||u||^2):
D(alpha) = sum_t h_t(alpha_t) - ||X^T alpha||^2 / (2 lam), h_t(a) = -phi_t^*(-a), and
u(alpha) = X^T alpha / lam; D(alpha) <= P(u) for every alpha in the domain of h.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.optimize import brentq, linprog, minimize
from scipy.sparse.linalg import lsqr

from olbench.losses import get_loss

PIECEWISE = ("hinge", "absolute", "epsilon_insensitive")
SMOOTH = ("squared_hinge", "logistic", "squared")
SUPPORTED = PIECEWISE + SMOOTH
CLASSIFICATION = ("hinge", "squared_hinge", "logistic")

_LBFGS = dict(maxiter=50_000, maxfun=100_000, ftol=1e-15, gtol=1e-11, maxcor=30)
_HIGHS = dict(primal_feasibility_tolerance=1e-10, dual_feasibility_tolerance=1e-10)


@dataclass
class Solution:
    """A solved problem: u, the objective at u, and a certified lower bound on the optimum."""

    u: np.ndarray
    objective: float                  # sum_t loss + ridge/2 ||u||^2 at u
    lower_bound: float | None         # <= the optimal objective (None: no certificate)
    info: dict = field(default_factory=dict)
    alpha: np.ndarray | None = None   # dual variables (warm start)

    @property
    def gap(self) -> float | None:
        return None if self.lower_bound is None else self.objective - self.lower_bound


class NoMinimizer(ValueError):
    """The infimum is not attained (e.g. unregularised logistic loss on separable data)."""


# --------------------------------------------------------------------------- helpers
def matvec(X, u: np.ndarray) -> np.ndarray:
    return np.asarray(X @ u, dtype=float).ravel()


def rmatvec(X, a: np.ndarray) -> np.ndarray:
    return np.asarray(X.T @ a, dtype=float).ravel()


def total_loss(X, y, u, loss: str, epsilon: float) -> float:
    return float(get_loss(loss, epsilon=epsilon)(matvec(X, u), y).sum())


def objective(X, y, u, loss: str, epsilon: float, lam: float) -> float:
    return total_loss(X, y, u, loss, epsilon) + 0.5 * lam * float(u @ u)


def _h(loss: str, alpha: np.ndarray, y: np.ndarray, epsilon: float) -> float:
    """sum_t -phi_t^*(-alpha_t): the separable part of the Fenchel dual (-inf outside domain)."""
    b = alpha * y
    tol = 1e-12
    if loss == "hinge":
        return float(b.sum()) if b.min(initial=0) >= -tol and b.max(initial=0) <= 1 + tol else -math.inf
    if loss == "squared_hinge":
        return float((b - b * b / 4).sum()) if b.min(initial=0) >= -tol else -math.inf
    if loss == "logistic":
        if b.min(initial=0) < -tol or b.max(initial=0) > 1 + tol:
            return -math.inf
        b = np.clip(b, 0.0, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ent = -(np.where(b > 0, b * np.log(b), 0.0) + np.where(b < 1, (1 - b) * np.log1p(-b), 0.0))
        return float(ent.sum())
    if loss == "squared":
        return float((alpha * y - alpha * alpha / 2).sum())
    if np.abs(alpha).max(initial=0) > 1 + tol:
        return -math.inf
    if loss == "absolute":
        return float((alpha * y).sum())
    if loss == "epsilon_insensitive":
        return float((alpha * y - epsilon * np.abs(alpha)).sum())
    raise ValueError(loss)


def dual_value(X, y, alpha, loss: str, epsilon: float, lam: float) -> float:
    """D(alpha) = sum h(alpha) - ||X^T alpha||^2/(2 lam): a lower bound on min P (lam > 0)."""
    v = rmatvec(X, alpha)
    return _h(loss, alpha, y, epsilon) - float(v @ v) / (2 * lam)


def _check(loss: str) -> None:
    if loss not in SUPPORTED:
        raise ValueError(f"best-fixed comparator: unsupported loss {loss!r}; supported: "
                         + ", ".join(SUPPORTED))


# --------------------------------------------------------------------------- LP / QP
def _lp_data(X, y, loss: str, epsilon: float):
    """min sum xi s.t. A [u; xi] <= b, xi >= 0: the epigraph LP of a piecewise-linear loss."""
    n, d = X.shape
    Xs = sp.csr_matrix(X)
    eye = sp.eye(n, format="csr")
    if loss == "hinge":          # -y x.u - xi <= -1
        A = sp.hstack([sp.diags(-y) @ Xs, -eye])
        b = -np.ones(n)
    else:                        # +-(x.u - y) - xi <= eps
        eps = epsilon if loss == "epsilon_insensitive" else 0.0
        A = sp.vstack([sp.hstack([Xs, -eye]), sp.hstack([-Xs, -eye])])
        b = np.concatenate([y + eps, -y + eps])
    c = np.concatenate([np.zeros(d), np.ones(n)])
    return A, b, c


def _alpha_from_row_duals(loss: str, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Fenchel dual variables from the (<= 0) row duals of the epigraph program."""
    n = len(y)
    if loss == "hinge":
        return y * np.clip(-r, 0.0, 1.0)
    return np.clip(r[:n] - r[n:], -1.0, 1.0)


def _lp(X, y, loss: str, epsilon: float) -> Solution:
    d = X.shape[1]
    A, b, c = _lp_data(X, y, loss, epsilon)
    bounds = [(None, None)] * d + [(0, None)] * (len(c) - d)
    res = linprog(c, A_ub=A.tocsr(), b_ub=b, bounds=bounds, method="highs", options=_HIGHS)
    if res.status != 0:
        raise RuntimeError(f"HiGHS LP failed: {res.message}")
    u = res.x[:d].copy()
    lower = float(b @ res.ineqlin.marginals)     # LP dual objective (marginals <= 0)
    obj = objective(X, y, u, loss, epsilon, 0.0)
    return Solution(u, obj, min(lower, obj), {"solver": "highs-lp"})


def _highs_qp(A, row_upper, cost, col_lower, d: int, lam: float):
    """min cost.z + lam/2 ||z[:d]||^2 s.t. A z <= row_upper, z >= col_lower, by HiGHS's QP solver.

    HiGHS's own Python bindings (``highspy``) give its QP solver; scipy ships the same solver
    but only behind a private module. Returns (status, solution or None).
    """
    import highspy as hc

    A = sp.csc_matrix(A)
    m, N = A.shape
    h = hc.Highs()
    h.setOptionValue("output_flag", False)
    lp = hc.HighsLp()
    lp.num_col_, lp.num_row_ = N, m
    lp.col_cost_ = np.asarray(cost, float)
    lp.col_lower_ = np.where(np.isinf(col_lower), -hc.kHighsInf, col_lower)
    lp.col_upper_ = np.full(N, hc.kHighsInf)
    lp.row_lower_ = np.full(m, -hc.kHighsInf)
    lp.row_upper_ = np.asarray(row_upper, float)
    mat = lp.a_matrix_
    mat.format_ = hc.MatrixFormat.kColwise
    mat.num_col_, mat.num_row_ = N, m
    mat.start_, mat.index_, mat.value_ = A.indptr, A.indices, A.data
    h.passModel(lp)
    H = hc.HighsHessian()                            # lam on the first d columns, 0 elsewhere
    H.dim_, H.format_ = N, hc.HessianFormat.kTriangular
    H.start_ = np.concatenate([np.arange(d + 1), np.full(N - d, d)])
    H.index_, H.value_ = np.arange(d), np.full(d, float(lam))
    h.passHessian(H)
    h.run()
    status = h.getModelStatus()
    if status != hc.HighsModelStatus.kOptimal:
        return status, None
    return status, h.getSolution()


def _qp(X, y, loss: str, epsilon: float, lam: float) -> Solution:
    """Piecewise-linear loss + ridge: the epigraph LP plus lam/2 ||u||^2, by HiGHS's QP solver.

    Solved by HiGHS's QP solver (``highspy``). Certificate: the Fenchel dual value at the
    alpha read off the row duals.
    """
    d = X.shape[1]
    A, b, c = _lp_data(X, y, loss, epsilon)
    N = A.shape[1]
    lower = np.concatenate([np.full(d, -np.inf), np.zeros(N - d)])
    status, sol = _highs_qp(A, b, c, lower, d, lam)
    if sol is None:
        return _liblinear(X, y, loss, epsilon, lam, f"HiGHS QP: {status}")
    u = np.array(sol.col_value[:d])
    alpha = _alpha_from_row_duals(loss, y, np.array(sol.row_dual))
    obj = objective(X, y, u, loss, epsilon, lam)
    lower = dual_value(X, y, alpha, loss, epsilon, lam)
    return Solution(u, obj, min(lower, obj), {"solver": "highs-qp"}, alpha)


def separable(X, y) -> tuple[bool, np.ndarray | None]:
    """Is there u with y_t u.x_t >= 1 for all t (strict linear separability through 0)? LP."""
    n, d = X.shape
    A = -(sp.diags(y) @ sp.csr_matrix(X))
    res = linprog(np.zeros(d), A_ub=A.tocsr(), b_ub=-np.ones(n), bounds=[(None, None)] * d,
                  method="highs", options=_HIGHS)
    if res.status == 0:
        return True, res.x
    if res.status == 2:
        return False, None
    raise RuntimeError(f"HiGHS separability LP failed: {res.message}")


def _liblinear(X, y, loss: str, epsilon: float, lam: float, why: str) -> Solution:
    """Fallback for piecewise-linear + ridge: liblinear (dual coordinate descent).

    Certificate from alpha = -loss'(Xu) (a valid but looser lower bound than the QP's duals).
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC, LinearSVR

    if loss == "hinge":
        model = LinearSVC(loss="hinge", fit_intercept=False, C=1 / lam, tol=1e-10,
                          max_iter=100_000)
    else:
        model = LinearSVR(loss="epsilon_insensitive", fit_intercept=False, C=1 / lam, tol=1e-10,
                          epsilon=epsilon if loss == "epsilon_insensitive" else 0.0,
                          max_iter=100_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    u = np.asarray(model.coef_, dtype=float).ravel()
    alpha = -get_loss(loss, epsilon=epsilon).derivative(matvec(X, u), y)
    obj = objective(X, y, u, loss, epsilon, lam)
    lower = dual_value(X, y, alpha, loss, epsilon, lam)
    return Solution(u, obj, min(lower, obj), {"solver": "liblinear", "fallback_reason": why},
                    alpha)


# --------------------------------------------------------------------------- smooth losses
def _lbfgs(X, y, loss: str, epsilon: float, lam: float, u0=None) -> Solution:
    L = get_loss(loss, epsilon=epsilon)

    def f(u):
        p = matvec(X, u)
        return (float(L.value(p, y).sum()) + 0.5 * lam * float(u @ u),
                rmatvec(X, L.derivative(p, y)) + lam * u)

    u0 = np.zeros(X.shape[1]) if u0 is None else np.asarray(u0, float)
    res = minimize(f, u0, jac=True, method="L-BFGS-B", options=_LBFGS)
    u = res.x
    obj = objective(X, y, u, loss, epsilon, lam)
    info = {"solver": "lbfgs", "nit": int(res.nit), "grad_norm": float(np.linalg.norm(res.jac))}
    if lam > 0:
        alpha = -L.derivative(matvec(X, u), y)
        return Solution(u, obj, min(dual_value(X, y, alpha, loss, epsilon, lam), obj), info, alpha)
    return Solution(u, obj, None, info)


def _least_squares(X, y, lam: float) -> Solution:
    d = X.shape[1]
    if sp.issparse(X):
        r = lsqr(X, y, damp=math.sqrt(lam), atol=1e-15, btol=1e-15, conlim=1e15,
                 iter_lim=100 * d + 1000)
        u, solver = r[0], "lsqr"
    elif lam == 0:
        u, solver = np.linalg.lstsq(X, y, rcond=None)[0], "lstsq"
    else:
        u = np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ y)
        solver = "normal-equations"
    obj = objective(X, y, u, "squared", 0.0, lam)
    if lam > 0:
        alpha = y - matvec(X, u)
        return Solution(u, obj, min(dual_value(X, y, alpha, "squared", 0.0, lam), obj),
                        {"solver": solver}, alpha)
    return Solution(u, obj, obj, {"solver": solver})   # exact solver: certificate = value


def _solve_reg(X, y, loss: str, epsilon: float, lam: float, warm: Solution | None = None,
               check_logistic: bool = True) -> Solution:
    if loss == "squared":
        return _least_squares(X, y, lam)
    if loss in PIECEWISE:
        if lam == 0:
            return _lp(X, y, loss, epsilon)
        return _qp(X, y, loss, epsilon, lam)
    if loss == "logistic" and lam == 0 and check_logistic and separable(X, y)[0]:
        raise NoMinimizer("the logistic loss has no minimiser on linearly separable data "
                          "(its infimum 0 is approached as ||u|| -> inf); set ridge > 0 or a "
                          "radius")
    return _lbfgs(X, y, loss, epsilon, lam, None if warm is None else warm.u)


# --------------------------------------------------------------------------- entry point
def solve(X, y, loss: str, *, epsilon: float = 0.1, ridge: float = 0.0,
          radius: float | None = None, warm: Solution | None = None) -> Solution:
    """argmin_u sum_t loss(u.x_t, y_t) + ridge/2 ||u||^2, optionally subject to ||u|| <= radius."""
    _check(loss)
    y = np.asarray(y, float)
    if radius is None:
        return _solve_reg(X, y, loss, epsilon, ridge, warm)
    try:
        base = _solve_reg(X, y, loss, epsilon, ridge, warm)
    except NoMinimizer:
        base = None
    if base is not None and np.linalg.norm(base.u) <= radius * (1 + 1e-12):
        base.info["multiplier"] = 0.0
        return base
    # The constraint is active: find mu > 0 with ||u(ridge + mu)|| = radius.
    f0 = total_loss(X, y, np.zeros(X.shape[1]), loss, epsilon)
    mu_hi = max(2 * f0 / radius**2, 1e-300)          # then ||u|| <= sqrt(2 f0 / mu) <= radius
    state = {"warm": warm if warm is not None and warm.alpha is not None else base}
    sols: dict[float, Solution] = {}

    def g(logmu: float) -> float:
        s = _solve_reg(X, y, loss, epsilon, ridge + math.exp(logmu), state["warm"])
        state["warm"] = sols[logmu] = s
        return math.log(max(np.linalg.norm(s.u), 1e-300)) - math.log(radius)

    lo, hi = math.log(mu_hi) - 10 * math.log(10), math.log(mu_hi)
    if g(lo) <= 0:
        logmu = lo
    else:
        while g(hi) > 0:                             # only by round-off: widen the bracket
            hi += math.log(4.0)
        logmu = brentq(g, lo, hi, xtol=1e-12, rtol=1e-12)
        if logmu not in sols:
            g(logmu)
    s, mu = sols[logmu], math.exp(logmu)
    u = s.u
    nrm = np.linalg.norm(u)
    if nrm > radius:
        u = u * (radius / nrm)                       # project: the returned u is always feasible
    obj = objective(X, y, u, loss, epsilon, ridge)
    lower = None
    if s.alpha is not None:
        lower = min(dual_value(X, y, s.alpha, loss, epsilon, ridge + mu) - mu * radius**2 / 2, obj)
    info = {**s.info, "multiplier": mu}
    return Solution(u, obj, lower, info, s.alpha)


# --------------------------------------------------------------------------- hard margin
def max_margin(X, y) -> tuple[np.ndarray | None, dict]:
    """Hard-margin SVM through the origin: min ||u||^2 s.t. y_t u.x_t >= 1 (None if infeasible).

    A QP with d variables and n constraints, by HiGHS (fallback: the separability LP's u).
    Returns the canonical u (min margin 1, so ||u|| = 1/gamma) and info with the realised
    margin ``gamma`` = min_t y_t u.x_t/||u|| and ``gamma_upper`` = 1/sqrt(2 D(alpha)), a
    certified upper bound on the best possible margin.
    """
    y = np.asarray(y, float)
    ok, _ = separable(X, y)
    if not ok:
        return None, {}
    d = X.shape[1]
    A = -(sp.diags(y) @ sp.csr_matrix(X))           # y x.u >= 1
    status, sol = _highs_qp(A, -np.ones(X.shape[0]), np.zeros(d), np.full(d, -np.inf), d, 1.0)
    candidates = [] if sol is None else [np.array(sol.col_value[:d])]
    dual = -math.inf
    if sol is not None:                              # Lagrange dual: sum b - ||X^T(y b)||^2/2
        bdual = np.clip(-np.array(sol.row_dual), 0.0, None)
        v = rmatvec(X, y * bdual)
        dual = float(bdual.sum() - 0.5 * v @ v)
    if not candidates:
        candidates.append(separable(X, y)[1])
    support = np.flatnonzero(np.abs(y * matvec(X, candidates[0]) - 1) < 1e-7)

    def margin(u):
        nu = np.linalg.norm(u)
        return (y * matvec(X, u)).min() / nu if nu > 0 else -math.inf

    u = max(candidates, key=margin)
    gamma = margin(u)
    u = u / (gamma * np.linalg.norm(u))              # canonical scaling: min_t y u.x = 1
    info = {"gamma": float(gamma), "gamma_upper": 1 / math.sqrt(2 * dual) if dual > 0 else math.inf,
            "n_support": int(len(support)), "solver": "highs-qp" if sol is not None else "lp"}
    return u, info
