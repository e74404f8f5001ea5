"""Piecewise-linear loss + ridge, optionally in a ball, as one conic program solved by Clarabel.

Clarabel (an interior-point solver for quadratic objectives over convex cones, written in
Rust: memory safe, with a wall-clock ``time_limit`` and an iteration limit) is the fallback of
the dual coordinate descent in :mod:`olbench.comparators._dcd` and the first solver of the
ball-constrained problem, which it takes directly as a second-order cone -- no search over
the Lagrange multiplier. The program, in z = (u, xi)::

    min  1.xi + lam/2 ||u||^2
    s.t. xi_t >= loss-specific affine pieces of x_t.u,  xi >= 0,  ||u|| <= radius

This module only builds and solves it and reads the dual variables ``alpha`` off the
constraint multipliers (same convention as the Fenchel dual: u = X^T alpha / lam); the
caller certifies the result with its own duality gap.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

#: problems whose interior-point factorisation (about n d^2 flops with dense rows) would
#: take minutes are not attempted
MAX_WORK = 3e10
MAX_NNZ = 5e7


class QPUnavailable(RuntimeError):
    """The conic program was not attempted or not solved (the message says why)."""


def _rows(X, y, loss: str, epsilon: float):
    """(A, b) of A z <= b for the loss pieces and xi >= 0, z = (u, xi)."""
    n = X.shape[0]
    Xs = sp.csr_matrix(X)
    eye = sp.eye(n, format="csr")
    zero = sp.csr_matrix((n, X.shape[1]))
    if loss == "hinge":                      # 1 - y x.u <= xi
        A = sp.vstack([sp.hstack([sp.diags(-y) @ Xs, -eye]), sp.hstack([zero, -eye])])
        b = np.concatenate([-np.ones(n), np.zeros(n)])
    else:                                    # |x.u - y| - eps <= xi
        eps = epsilon if loss == "epsilon_insensitive" else 0.0
        A = sp.vstack([sp.hstack([Xs, -eye]), sp.hstack([-Xs, -eye]), sp.hstack([zero, -eye])])
        b = np.concatenate([y + eps, -y + eps, np.zeros(n)])
    return A, b


def clarabel_solve(P, q, A, b, cones, time_limit: float, *, max_iter: int = 500,
                   tol: float = 1e-10) -> tuple[np.ndarray, np.ndarray, str]:
    """Clarabel on min q.x + x'Px/2 s.t. A x + s = b, s in ``cones``: (x, z the cones'
    multipliers, "<status> (<iterations> iterations)"), or :class:`QPUnavailable` saying
    why not (not solved, a failure of the solver)."""
    import clarabel

    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.time_limit = float(time_limit)
    settings.max_iter = int(max_iter)
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = tol
    settings.tol_ktratio = 1e-8
    try:
        sol = clarabel.DefaultSolver(sp.csc_matrix(P), q, sp.csc_matrix(A), b, cones,
                                     settings).solve()
    except BaseException as e:               # a Rust panic surfaces as a BaseException
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        raise QPUnavailable(f"clarabel failed: {type(e).__name__}: {e}") from None
    status = str(sol.status)
    if "Solved" not in status or "Infeasible" in status:
        raise QPUnavailable(f"clarabel: {status} after {sol.iterations} iterations, "
                            f"{sol.solve_time:.2f} s")
    return np.asarray(sol.x), np.asarray(sol.z), f"{status} ({sol.iterations} iterations)"


def solve_conic(X, y, loss: str, epsilon: float, lam: float, radius: float | None,
                time_limit: float, max_iter: int = 500, tol: float = 1e-10, linear=None):
    """(u, alpha, status string) or :class:`QPUnavailable`.

    ``linear``: a vector c adding -c.u to the objective (the rounds held fixed by
    :func:`working_set`).
    """
    n, d = X.shape
    nnz = X.nnz if sp.issparse(X) else n * d
    if nnz > MAX_NNZ or float(nnz) * d > MAX_WORK:
        raise QPUnavailable(f"interior point not attempted: n={n}, d={d} is too large "
                            f"(about {float(nnz) * d:.1e} flops per iteration)")
    if time_limit <= 0:
        raise QPUnavailable("no time left")
    try:
        import clarabel
    except ImportError as e:                 # pragma: no cover - a declared dependency
        raise QPUnavailable(f"clarabel is not installed ({e})") from e
    A, b = _rows(X, y, loss, epsilon)
    cones = [clarabel.NonnegativeConeT(A.shape[0])]
    if radius is not None:                   # (radius, u) in the second-order cone
        soc = sp.hstack([sp.vstack([sp.csr_matrix((1, d)), -sp.eye(d)]),
                         sp.csr_matrix((d + 1, n))])
        A = sp.vstack([A, soc])
        b = np.concatenate([b, [float(radius)], np.zeros(d)])
        cones.append(clarabel.SecondOrderConeT(d + 1))
    N = d + n
    P = sp.diags(np.concatenate([np.full(d, float(lam)), np.zeros(n)])).tocsc()
    q = np.concatenate([np.zeros(d) if linear is None else -np.asarray(linear, float),
                        np.ones(n)])
    x, z, status = clarabel_solve(P, q, A, b, cones, time_limit, max_iter=max_iter, tol=tol)
    if not (np.all(np.isfinite(x[:N])) and np.all(np.isfinite(z))):
        raise QPUnavailable(f"clarabel: {status} with non-finite values")
    u = x[:d].copy()
    if loss == "hinge":
        alpha = y * np.clip(z[:n], 0.0, 1.0)
    else:
        alpha = np.clip(z[n:2 * n] - z[:n], -1.0, 1.0)
    return u, alpha, status


def working_set(X, y, alpha, loss: str, epsilon: float, lam: float, time_limit: float,
                size: int):
    """The dual optimum over the ``size`` rounds that violate optimality most, the others
    held at alpha: one exact block step of dual ascent (so D never decreases).

    With B the fixed rounds and c = X_B^T alpha_B, the block is the conic program min over u
    of sum_{t in U} phi_t(x_t.u) - c.u + lam/2 ||u||^2, whose dual is the full dual with
    alpha_B fixed. U: the largest violations of the dual's optimality conditions (the
    steepest feasible ascent direction of each coordinate, as in SVMlight's working sets,
    Joachims 1999). Returns (full alpha, status) -- the caller certifies it on all rounds --
    or raises :class:`QPUnavailable`.
    """
    u = np.asarray(X.T @ alpha, float).ravel() / lam
    resid = y - np.asarray(X @ u, float).ravel()      # dD/dalpha_t apart from the eps term
    eps = epsilon if loss == "epsilon_insensitive" else 0.0
    lo = np.minimum(y, 0.0) if loss == "hinge" else -np.ones_like(y)
    hi = np.maximum(y, 0.0) if loss == "hinge" else np.ones_like(y)
    up = np.where(alpha >= 0, resid - eps, resid + eps)
    down = np.where(alpha > 0, eps - resid, -eps - resid)
    viol = np.maximum(np.where(alpha < hi, up, 0.0), np.where(alpha > lo, down, 0.0))
    U = np.sort(np.argsort(-viol, kind="stable")[:size])
    rest = alpha.copy()
    rest[U] = 0.0
    c = np.asarray(X.T @ rest, float).ravel()
    _, aU, status = solve_conic(X[U], y[U], loss, epsilon, lam, None, time_limit, linear=c)
    rest[U] = aU
    return rest, status


def ball_mu(v_norm: float, lam: float, radius: float) -> float:
    """The multiplier of ||u|| <= radius that maximises the Lagrange dual for fixed alpha."""
    return max(0.0, v_norm / radius - lam) if math.isfinite(v_norm) else 0.0
