"""Batch solvers behind the comparators: min_u sum_t loss(u.x_t, y_t) (+ ridge, or ||u|| <= U).

One entry point, :func:`solve`, chooses a solver per case and returns the solution together
with a *certified lower bound* on the optimum (weak duality), so every fit reports its own
optimality gap. No path can hang or take the process down: each runs under a wall-clock
budget (:class:`Limits`), falls back to the next solver when it fails or runs out of time,
and a problem that no solver certifies within the limits raises :class:`NotCertified`
(the comparator becomes a skip with that reason, never cached), or :class:`TimedOut` when it
was the time that ran out (a transient failure: the skip says "time-out" and a re-run tries
again). The shared pieces (limits, solution, dual objectives) are in :mod:`._duality`:

=====================  ==========================  =====================================
loss                   no ridge                    ridge lam > 0
=====================  ==========================  =====================================
hinge, absolute,       HiGHS on the dual LP (d     d <= 300: Newton on the smoothed primal
epsilon_insensitive    rows, :mod:`._lp`, time-    (:mod:`._newton`); then Clarabel
                       limited); bound = its value (:mod:`._qp`) / dual coordinate descent +
                                                   active-set polishing (:mod:`._dcd`);
                                                   bound = D(alpha)
squared                least squares (``lstsq``    normal equations / ``lsqr(damp)``;
                       / ``lsqr``), exact           bound = dual value
logistic,              L-BFGS; no bound (and no     L-BFGS; bound = dual value at
squared_hinge          minimiser for logistic on    alpha = -loss'(Xu)
                       separable data)
=====================  ==========================  =====================================

The ball constraint ||u|| <= U: for the piecewise-linear losses Clarabel solves it directly as
a second-order cone program; otherwise (and as the fallback) by its Lagrangian: if the
unconstrained solution lies outside the ball, the multiplier mu with ||u(ridge + mu)|| = U is
found by Brent's method on log mu. Either way the certificate is the Lagrange dual
g(alpha) = max_{mu >= 0} D_{ridge+mu}(alpha) - mu U^2 / 2, maximised over mu in closed form
(:func:`ball_dual_value`).

Fenchel dual used throughout (P(u) = sum_t phi_t(x_t.u) + lam/2 ||u||^2):
D(alpha) = sum_t h_t(alpha_t) - ||X^T alpha||^2 / (2 lam), h_t(a) = -phi_t^*(-a), and
u(alpha) = X^T alpha / lam; D(alpha) <= P(u) for every alpha in the domain of h.

The hard margin (:func:`max_margin`) is a nearest-point problem solved exactly by an
active-set NNLS on a working set of rounds (:mod:`._hard_margin`), certified both ways.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.sparse as sp
from scipy.optimize import brentq, minimize
from scipy.sparse.linalg import lsqr

from olbench.comparators import _dcd, _hard_margin, _newton, _qp
from olbench.comparators._duality import (  # noqa: F401  (the solvers' names, re-exported)
    Limits,
    NoMinimizer,
    NotCertified,
    Solution,
    TimedOut,
    dual_value,
    h_value,
    matvec,
    objective,
    rmatvec,
    time_limit,
    total_loss,
)
from olbench.comparators._lp import dual_lp, separable
from olbench.features import row_norms
from olbench.losses import get_loss

PIECEWISE = ("hinge", "absolute", "epsilon_insensitive")
SMOOTH = ("squared_hinge", "logistic", "squared")
SUPPORTED = PIECEWISE + SMOOTH
CLASSIFICATION = ("hinge", "squared_hinge", "logistic")

_LBFGS = dict(maxiter=50_000, maxfun=100_000, ftol=1e-15, gtol=1e-11, maxcor=30)


def _check(loss: str) -> None:
    if loss not in SUPPORTED:
        raise ValueError(f"best-fixed comparator: unsupported loss {loss!r}; supported: "
                         + ", ".join(SUPPORTED))


# --------------------------------------------------------------------------- QP
#: below this many flops per interior-point iteration (nnz(X) d), Clarabel goes first
SMALL_WORK = 2e8


def _remaining(deadline: float) -> float:
    return deadline - time.monotonic()


def ball_dual_value(X, y, alpha, loss: str, epsilon: float, lam: float,
                    radius: float | None) -> tuple[float, float]:
    """(g, mu): the Lagrange dual of the ball-constrained problem at alpha, maximised over mu.

    g(alpha, mu) = D_{lam+mu}(alpha) - mu radius^2 / 2 is concave in mu >= 0 with maximiser
    mu = max(0, ||X^T alpha|| / radius - lam); radius None means mu = 0 (plain D).
    """
    v = rmatvec(X, alpha)
    vn = float(np.linalg.norm(v))
    h = h_value(loss, alpha, y, epsilon)
    mu = 0.0 if radius is None else _qp.ball_mu(vn, lam, radius)
    if mu > 0:
        return h - vn * vn / (2 * (lam + mu)) - mu * radius**2 / 2, mu
    if lam > 0:
        return h - vn * vn / (2 * lam), mu
    return (h if vn == 0 else -math.inf), mu


def _score(X, y, alpha, loss: str, epsilon: float, lam: float, radius: float | None):
    """(u, P(u), lower bound) for dual variables alpha: u = X^T alpha / (lam + mu), in the ball."""
    lower, mu = ball_dual_value(X, y, alpha, loss, epsilon, lam, radius)
    if lam + mu > 0:
        u = rmatvec(X, alpha) / (lam + mu)
    else:
        u = np.zeros(X.shape[1])
    if radius is not None:
        nrm = float(np.linalg.norm(u))
        if nrm > radius:
            u *= radius / nrm
    return u, objective(X, y, u, loss, epsilon, lam), lower


def _best(X, y, loss, epsilon, lam, radius, candidates, info) -> Solution:
    """The best certified Solution from candidate (u, alpha) pairs: lowest objective among
    the feasible u's and u(alpha)'s, highest lower bound among the alphas."""
    best_u, best_obj, best_low, best_alpha = None, math.inf, -math.inf, None
    for u, alpha in candidates:
        if alpha is not None:
            ua, pa, low = _score(X, y, alpha, loss, epsilon, lam, radius)
            if low > best_low:
                best_low, best_alpha = low, alpha
            if pa < best_obj:
                best_u, best_obj = ua, pa
        if u is not None and (radius is None or np.linalg.norm(u) <= radius * (1 + 1e-12)):
            pu = objective(X, y, u, loss, epsilon, lam)
            if pu < best_obj:
                best_u, best_obj = u, pu
    low = None if not math.isfinite(best_low) else min(best_low, best_obj)
    return Solution(best_u, best_obj, low, info, best_alpha)


def _piecewise(X, y, loss: str, epsilon: float, lam: float, radius: float | None,
               warm: Solution | None, deadline: float, limits: Limits) -> Solution:
    """Piecewise-linear loss with lam > 0 or a ball: the fallback chain, best certified result.

    No ball: with few features (d <= :data:`._newton.MAX_D`), Newton on the smoothed
    primal with half the time; then Clarabel and dual coordinate descent + polishing
    (warm-started) on small problems, a short DCD and working-set steps on large ones.
    Ball: Clarabel's cone program, then the Lagrange multiplier search over the first chain.
    Each attempt's failure reason is kept in ``info["attempts"]``.
    """
    attempts: list[str] = []
    sols: list[Solution] = []

    def done(s: Solution) -> bool:
        sols.append(s)
        return limits.certified(s, "target")

    def score(a):
        return _score(X, y, a, loss, epsilon, lam, None)

    def iterative(res, solver: str, unit: str) -> Solution | None:
        """A DCD or Newton result: certified, or its gap noted among the attempts."""
        s = Solution(res.u, res.primal, min(res.dual, res.primal),
                     {"solver": solver, unit: res.epochs, "polished": res.polished}, res.alpha)
        if done(s):
            return s
        attempts.append(f"{solver}: gap {s.gap:.3g} after {res.epochs} {unit}, "
                        f"{res.seconds:.1f} s")
        return None

    def dcd(max_epochs: int = 20_000) -> Solution | None:
        alpha0 = min(sols, key=lambda s: s.gap).alpha if sols else \
            None if warm is None else warm.alpha
        res = _dcd.solve_dcd(X, y, loss, epsilon, lam, alpha0=alpha0, tol=limits.target,
                             deadline=time.monotonic() + 0.6 * _remaining(deadline),
                             max_epochs=max_epochs, primal_dual=score)
        return iterative(res, "dcd", "epochs")

    def short_dcd() -> Solution | None:
        return dcd(max_epochs=64)

    def newton() -> Solution | None:
        res = _newton.solve_newton(X, y, loss, epsilon, lam, tol=limits.target,
                                   u0=None if warm is None else warm.u, primal_dual=score,
                                   deadline=time.monotonic() + 0.5 * _remaining(deadline))
        return iterative(res, "newton", "steps")

    def conic() -> Solution | None:
        try:
            u, alpha, status = _qp.solve_conic(X, y, loss, epsilon, lam, radius,
                                               time_limit=_remaining(deadline))
        except _qp.QPUnavailable as e:
            attempts.append(str(e))
            return None
        cands = [(u, alpha)]
        # polish at the multiplier the duals imply (mu = 0 without a ball)
        mu = 0.0 if radius is None else _qp.ball_mu(float(np.linalg.norm(rmatvec(X, alpha))),
                                                     lam, radius)
        if lam + mu > 0:
            lo_, hi_ = _dcd.box(loss, y)
            eps = epsilon if loss == "epsilon_insensitive" else 0.0
            pol = _dcd.polish(X, y, alpha, eps, lo_, hi_, lam + mu)
            if pol is not None:
                cands.append((None, pol))
        s = _best(X, y, loss, epsilon, lam, radius, cands, {"solver": "clarabel", "status": status})
        if done(s):
            return s
        attempts.append(f"clarabel: {status}, gap {s.gap:.3g}")
        return None

    def shrunk() -> Solution | None:
        """Exact block steps of dual ascent on working sets (:func:`._qp.working_set`) from
        the best dual point so far, until certified: each step solves a conic program over
        the rounds violating optimality most, the rest held fixed (D never decreases)."""
        size = min(n, max(2000, 40 * d))
        while sols and _remaining(deadline) > 0:
            prev = min(sols, key=lambda s: s.gap)
            try:
                alpha, status = _qp.working_set(X, y, prev.alpha, loss, epsilon, lam,
                                                _remaining(deadline), size)
            except _qp.QPUnavailable as e:
                attempts.append(f"working set: {e}")
                return None
            lo_, hi_ = _dcd.box(loss, y)
            eps = epsilon if loss == "epsilon_insensitive" else 0.0
            cands = [(None, alpha), (None, _dcd.polish(X, y, alpha, eps, lo_, hi_, lam))]
            s = _best(X, y, loss, epsilon, lam, None, [c for c in cands if c[1] is not None],
                      {"solver": "dcd+working-set", "status": status, "size": size})
            if done(s):
                return s
            if s.gap >= prev.gap * (1 - 1e-3):
                attempts.append(f"working set of {size}: {status}, gap {s.gap:.3g} (stalled)")
                return None
        attempts.append("working set: no time left")
        return None

    n, d = X.shape
    work = (X.nnz if sp.issparse(X) else n * d) * float(d)
    if radius is not None:
        chain = [conic]
    elif work <= SMALL_WORK:
        chain = [conic, dcd]
    else:                         # a short DCD finds which rounds are settled; then exact
        chain = [short_dcd, shrunk, dcd, conic]
    if radius is None and d <= _newton.MAX_D:   # few features: Newton in the primal first
        chain.insert(0, newton)
    for attempt in chain:
        try:
            s = attempt()
        except np.linalg.LinAlgError as error:   # one solver's numerics: the next one tries
            attempts.append(f"{getattr(attempt, '__name__', 'solver')}: {error}")
            continue
        if s is not None:
            s.info["attempts"] = attempts
            return s
    if radius is not None:
        try:
            s = _ball_lagrange(X, y, loss, epsilon, lam, radius, warm, deadline, limits)
            if done(s):
                s.info["attempts"] = attempts
                return s
            attempts.append(f"multiplier search: gap {s.gap:.3g}")
        except NotCertified as e:
            attempts.append(f"multiplier search: {e}")
    ok = [s for s in sols if limits.certified(s)]
    if ok:
        s = min(ok, key=lambda s: s.gap)
        s.info["attempts"] = attempts
        return s
    tried = "; ".join(attempts)
    if _remaining(deadline) <= 0:
        raise limits.timed_out("the chain of solvers", tried)
    raise NotCertified("no solver certified the optimum within the limits "
                       f"({limits.time:g} s, relative gap {limits.accept:g}): {tried}")


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


def _least_norm(X, y, loss: str, s: Solution, deadline: float, limits: Limits) -> Solution:
    """``s``, or the least-norm minimiser where the hinge loss's minimisers are many.

    Where the hinge loss reaches 0 (separable data with a margin) every u with
    y_t u.x_t >= 1 for all t is a minimiser, and the LP returns a vertex of that set whose
    norm can be several times the least (33.6 against 4.88 on a separable stream of 400
    rounds, 5.13 by the epigraph LP), which loosens every bound measured with the
    comparator's u. The least-norm minimiser is the hard-margin SVM (:func:`max_margin`,
    canonical: min_t y_t u.x_t = 1), also the limit of the ridge solutions as the ridge goes
    to 0; it is returned when it certifies in the time left, else ``s`` is.
    """
    if loss != "hinge" or s.objective > limits.target:
        return s
    try:
        u, _ = max_margin(X, y, Limits(time=max(_remaining(deadline), 0.0),
                                       target=limits.target, accept=limits.accept))
    except NotCertified:
        return s
    if u is None:
        return s
    obj = objective(X, y, u, loss, 0.0, 0.0)
    if obj > s.objective + limits.target:
        return s
    return Solution(u, obj, min(s.lower_bound, obj),
                    {**s.info, "solver": s.info["solver"] + "+least-norm"}, s.alpha)


def _solve_reg(X, y, loss: str, epsilon: float, lam: float, warm: Solution | None = None,
               check_logistic: bool = True, deadline: float = math.inf,
               limits: Limits | None = None) -> Solution:
    limits = limits or Limits.default()
    if loss == "squared":
        return _least_squares(X, y, lam)
    if loss in PIECEWISE:
        if lam == 0:
            return _least_norm(X, y, loss, dual_lp(X, y, loss, epsilon, deadline, limits),
                               deadline, limits)
        return _piecewise(X, y, loss, epsilon, lam, None, warm, deadline, limits)
    if loss == "logistic" and lam == 0 and check_logistic and separable(X, y, deadline, limits)[0]:
        raise NoMinimizer("the logistic loss has no minimiser on linearly separable data "
                          "(its infimum 0 is approached as ||u|| -> inf); set ridge > 0 or a "
                          "radius")
    return _lbfgs(X, y, loss, epsilon, lam, None if warm is None else warm.u)


# --------------------------------------------------------------------------- entry point
def solve(X, y, loss: str, *, epsilon: float = 0.1, ridge: float = 0.0,
          radius: float | None = None, warm: Solution | None = None,
          limits: Limits | None = None) -> Solution:
    """argmin_u sum_t loss(u.x_t, y_t) + ridge/2 ||u||^2, optionally subject to ||u|| <= radius.

    Raises :class:`NotCertified` when no solver certifies the optimum within ``limits``.
    """
    _check(loss)
    y = np.asarray(y, float)
    limits = limits or Limits.default()
    deadline = time.monotonic() + limits.time
    if radius is None:
        return _solve_reg(X, y, loss, epsilon, ridge, warm, deadline=deadline, limits=limits)
    if loss in PIECEWISE:
        return _piecewise(X, y, loss, epsilon, ridge, radius, warm, deadline, limits)
    return _ball_lagrange(X, y, loss, epsilon, ridge, radius, warm, deadline, limits)


def _ball_lagrange(X, y, loss: str, epsilon: float, ridge: float, radius: float,
                   warm: Solution | None, deadline: float, limits: Limits) -> Solution:
    """The ball by its Lagrange multiplier: Brent's method on log mu."""
    kw = dict(deadline=deadline, limits=limits)
    try:
        base = _solve_reg(X, y, loss, epsilon, ridge, warm, **kw)
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
        if logmu in sols:
            return math.log(max(np.linalg.norm(sols[logmu].u), 1e-300)) - math.log(radius)
        if _remaining(deadline) <= 0:
            raise limits.timed_out("the multiplier search")
        s = _solve_reg(X, y, loss, epsilon, ridge + math.exp(logmu), state["warm"], **kw)
        state["warm"] = sols[logmu] = s
        return math.log(max(np.linalg.norm(s.u), 1e-300)) - math.log(radius)

    # bracket from above: mu_hi, mu_hi/10, ... (warm-started; small mu is the slow end)
    step, top = math.log(10), math.log(mu_hi)
    for k in range(1, 11):
        lo = math.log(mu_hi) - k * step
        if g(lo) > 0:
            break
        top = lo
    else:
        lo = None                                    # inside the ball down to mu_hi 1e-10
    if lo is None:
        logmu = top
    else:
        while g(top) > 0:                            # only by round-off: widen the bracket
            top += math.log(4.0)
        logmu = brentq(g, lo, top, xtol=1e-12, rtol=1e-12)
        g(logmu)
    s, mu = sols[logmu], math.exp(logmu)
    u = s.u
    nrm = np.linalg.norm(u)
    if nrm > radius:
        u = u * (radius / nrm)                       # project: the returned u is always feasible
    obj = objective(X, y, u, loss, epsilon, ridge)
    lower = None
    if s.alpha is not None:
        lower = min(ball_dual_value(X, y, s.alpha, loss, epsilon, ridge, radius)[0], obj)
    info = {**s.info, "multiplier": mu, "solver": s.info.get("solver", "") + "+multiplier-search"}
    return Solution(u, obj, lower, info, s.alpha)


# --------------------------------------------------------------------------- hard margin
def max_margin(X, y, limits: Limits | None = None) -> tuple[np.ndarray | None, dict]:
    """Hard-margin SVM through the origin: min ||u||^2 s.t. y_t u.x_t >= 1 (None if infeasible).

    The nearest point of conv{y_t x_t} to the origin (:mod:`._hard_margin`). Returns the
    canonical u (min margin 1, so ||u|| = 1/gamma) and info with the realised margin
    ``gamma`` = min_t y_t u.x_t/||u|| and ``gamma_upper``, a certified upper bound on the best
    possible margin (the norm of a point of the hull). Not separable (to working precision:
    the hull comes within 1e-12 max_t ||x_t|| of the origin): (None, info). Raises
    :class:`NotCertified` when the relative gap stays above ``limits.accept``.
    """
    limits = limits or Limits.default()
    y = np.asarray(y, float)
    Z = (sp.diags(y) @ X).tocsr() if sp.issparse(X) else X * y[:, None]
    deadline = time.monotonic() + limits.time
    r = _hard_margin.nearest_point(Z, tol=limits.target, deadline=deadline)
    late = not r["converged"] and _remaining(deadline) <= 0
    info = {"gamma": float(r["gamma"]), "gamma_upper": float(r["gamma_upper"]),
            "n_support": len(r["idx"]), "rounds": r["rounds"],
            "solver": f"{r['solver']}-working-set"}
    if r["gamma"] <= 0:
        scale = float(row_norms(X).max(initial=0.0))
        if r["converged"] or r["gamma_upper"] <= 1e-12 * scale:
            return None, info
        why = (f"max margin: separability undecided (a point of the hull at distance "
               f"{r['gamma_upper']:.3g}, no separating direction found yet)")
        raise (limits.timed_out("the max-margin working set", why) if late else
               NotCertified(why + " within the limits"))
    gap = (r["gamma_upper"] - r["gamma"]) / r["gamma_upper"]
    if gap > limits.accept:
        why = f"max margin: relative gap {gap:.3g} after {r['rounds']} rounds"
        raise (limits.timed_out("the max-margin working set", why) if late else
               NotCertified(f"{why} ({limits.time:g} s limit)"))
    p = r["p"]
    u = p / (np.linalg.norm(p) * r["gamma"])         # canonical scaling: min_t y u.x = 1
    m = y * matvec(X, u)
    u = u / m.min()                                  # exact to round-off
    info["gamma"] = float(1.0 / np.linalg.norm(u))
    return u, info
