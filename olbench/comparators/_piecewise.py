"""The piecewise-linear losses (hinge, absolute, epsilon-insensitive) with a ridge or a ball:
a chain of solvers, each given part of the time left, and the best certified result.

No ball: with few features (d <= :data:`._newton.MAX_D`), Newton on the smoothed primal
first, with half the time; then Clarabel and dual coordinate descent + polishing
(warm-started) on small problems (:data:`SMALL_WORK`), a short DCD and working-set steps on
large ones. Ball: Clarabel's cone program, then the fallback the caller gives (the Lagrange
multiplier search, :mod:`._ball`). Each attempt that fails says why in ``info["attempts"]``.

Every attempt is a function of the problem and the :class:`Log` of the attempts so far
(which holds their solutions, so that the next one can start from the best dual point);
:func:`chain` picks the attempts from the table :data:`CHAINS`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from olbench.comparators import _dcd, _newton, _qp
from olbench.comparators._certify import best_of, score
from olbench.comparators._duality import NotCertified, Problem, Solution, rmatvec

#: below this many flops per interior-point iteration (nnz(X) d), Clarabel goes first
SMALL_WORK = 2e8


class Log:
    """The solutions the attempts found so far, and the reason of each attempt that failed."""

    def __init__(self):
        self.solutions: list[Solution] = []
        self.notes: list[str] = []

    def certifies(self, s: Solution, p: Problem) -> bool:
        """Keep ``s``; is it certified to the target gap?"""
        self.solutions.append(s)
        return p.limits.certified(s, "target")

    def best(self) -> Solution:
        """The solution of smallest gap so far."""
        return min(self.solutions, key=lambda s: s.gap)

    def finished(self, s: Solution) -> Solution:
        s.info["attempts"] = self.notes
        return s


# --------------------------------------------------------------------------- the attempts
def _iterative(p: Problem, log: Log, res, solver: str, unit: str) -> Solution | None:
    """A DCD or Newton result: certified, or its gap noted among the attempts."""
    s = Solution(res.u, res.primal, min(res.dual, res.primal),
                 {"solver": solver, unit: res.epochs, "polished": res.polished}, res.alpha)
    if log.certifies(s, p):
        return s
    log.notes.append(f"{solver}: gap {s.gap:.3g} after {res.epochs} {unit}, "
                     f"{res.seconds:.1f} s")
    return None


def _unconstrained_score(p: Problem):
    def primal_dual(alpha):
        return score(p.X, p.y, alpha, p.loss, p.epsilon, p.lam, None)
    return primal_dual


def dcd(p: Problem, log: Log, max_epochs: int = 20_000) -> Solution | None:
    """Dual coordinate descent with polishing, from the best dual point so far (or the warm
    start), with 60% of the time left."""
    alpha0 = log.best().alpha if log.solutions else None if p.warm is None else p.warm.alpha
    res = _dcd.solve_dcd(p.X, p.y, p.loss, p.epsilon, p.lam, alpha0=alpha0,
                         tol=p.limits.target, deadline=time.monotonic() + 0.6 * p.remaining(),
                         max_epochs=max_epochs, primal_dual=_unconstrained_score(p))
    return _iterative(p, log, res, "dcd", "epochs")


def short_dcd(p: Problem, log: Log) -> Solution | None:
    """A few epochs of DCD: enough to tell which rounds are settled."""
    return dcd(p, log, max_epochs=64)


def newton(p: Problem, log: Log) -> Solution | None:
    """Newton on the smoothed primal, with half the time left."""
    res = _newton.solve_newton(p.X, p.y, p.loss, p.epsilon, p.lam, tol=p.limits.target,
                               u0=None if p.warm is None else p.warm.u,
                               primal_dual=_unconstrained_score(p),
                               deadline=time.monotonic() + 0.5 * p.remaining())
    return _iterative(p, log, res, "newton", "steps")


def polished(p: Problem, alpha: np.ndarray, lam: float) -> np.ndarray | None:
    """The active-set polish of dual point ``alpha`` at ridge ``lam`` (None: none found)."""
    lo, hi = _dcd.box(p.loss, p.y)
    eps = p.epsilon if p.loss == "epsilon_insensitive" else 0.0
    return _dcd.polish(p.X, p.y, alpha, eps, lo, hi, lam)


def conic(p: Problem, log: Log) -> Solution | None:
    """Clarabel on the whole problem (the cone program with a ball), polished at the
    multiplier its duals imply (mu = 0 without a ball)."""
    try:
        u, alpha, status = _qp.solve_conic(p.X, p.y, p.loss, p.epsilon, p.lam, p.radius,
                                           time_limit=p.remaining())
    except _qp.QPUnavailable as e:
        log.notes.append(str(e))
        return None
    candidates = [(u, alpha)]
    mu = 0.0 if p.radius is None else _qp.ball_mu(float(np.linalg.norm(rmatvec(p.X, alpha))),
                                                   p.lam, p.radius)
    if p.lam + mu > 0:
        alpha_polished = polished(p, alpha, p.lam + mu)
        if alpha_polished is not None:
            candidates.append((None, alpha_polished))
    s = best_of(p.X, p.y, p.loss, p.epsilon, p.lam, p.radius, candidates,
                {"solver": "clarabel", "status": status})
    if log.certifies(s, p):
        return s
    log.notes.append(f"clarabel: {status}, gap {s.gap:.3g}")
    return None


def shrunk(p: Problem, log: Log) -> Solution | None:
    """Exact block steps of dual ascent on working sets (:func:`._qp.working_set`) from
    the best dual point so far, until certified: each step solves a conic program over
    the rounds violating optimality most, the rest held fixed (D never decreases)."""
    n, d = p.X.shape
    size = min(n, max(2000, 40 * d))
    while log.solutions and p.remaining() > 0:
        prev = log.best()
        try:
            alpha, status = _qp.working_set(p.X, p.y, prev.alpha, p.loss, p.epsilon, p.lam,
                                            p.remaining(), size)
        except _qp.QPUnavailable as e:
            log.notes.append(f"working set: {e}")
            return None
        candidates = [(None, a) for a in (alpha, polished(p, alpha, p.lam)) if a is not None]
        s = best_of(p.X, p.y, p.loss, p.epsilon, p.lam, None, candidates,
                    {"solver": "dcd+working-set", "status": status, "size": size})
        if log.certifies(s, p):
            return s
        if s.gap >= prev.gap * (1 - 1e-3):
            log.notes.append(f"working set of {size}: {status}, gap {s.gap:.3g} (stalled)")
            return None
    log.notes.append("working set: no time left")
    return None


# --------------------------------------------------------------------------- the chain
Attempt = Callable[[Problem, Log], "Solution | None"]

#: the attempts in order, by the kind of problem (:func:`kind`); a short DCD finds which
#: rounds are settled on a large problem, then exact steps follow
CHAINS: dict[str, tuple[Attempt, ...]] = {"ball": (conic,), "small": (conic, dcd),
                                           "large": (short_dcd, shrunk, dcd, conic)}


def kind(p: Problem) -> str:
    """``"ball"``, or ``"small"`` / ``"large"`` by the work of an interior-point iteration."""
    if p.radius is not None:
        return "ball"
    n, d = p.X.shape
    work = (p.X.nnz if sp.issparse(p.X) else n * d) * float(d)
    return "small" if work <= SMALL_WORK else "large"


def chain(p: Problem) -> tuple[Attempt, ...]:
    """The attempts for ``p``: its kind's chain, after Newton in the primal when there are
    few features and no ball."""
    if p.radius is None and p.X.shape[1] <= _newton.MAX_D:
        return (newton, *CHAINS[kind(p)])
    return CHAINS[kind(p)]


def _try_fallback(p: Problem, log: Log, fallback: Callable[[Problem], Solution]) -> Solution | None:
    try:
        s = fallback(p)
    except NotCertified as e:
        log.notes.append(f"multiplier search: {e}")
        return None
    if log.certifies(s, p):
        return s
    log.notes.append(f"multiplier search: gap {s.gap:.3g}")
    return None


def _best_certified(p: Problem, log: Log) -> Solution:
    """The best solution certified to the accepted gap, else the reason none is."""
    ok = [s for s in log.solutions if p.limits.certified(s)]
    if ok:
        return min(ok, key=lambda s: s.gap)
    tried = "; ".join(log.notes)
    if p.remaining() <= 0:
        raise p.limits.timed_out("the chain of solvers", tried)
    raise NotCertified("no solver certified the optimum within the limits "
                       f"({p.limits.time:g} s, relative gap {p.limits.accept:g}): {tried}")


def solve_chain(p: Problem, fallback: Callable[[Problem], Solution] | None = None) -> Solution:
    """The first attempt of :func:`chain` certified to the target gap; else ``fallback``'s
    solution (given for a ball) if certified so; else the best certified to the accepted
    gap. Raises :class:`~._duality.NotCertified` (or ``TimedOut``) when none is."""
    log = Log()
    for attempt in chain(p):
        try:
            s = attempt(p, log)
        except np.linalg.LinAlgError as error:   # one solver's numerics: the next one tries
            log.notes.append(f"{attempt.__name__}: {error}")
            continue
        if s is not None:
            return log.finished(s)
    s = None if fallback is None else _try_fallback(p, log, fallback)
    return log.finished(s if s is not None else _best_certified(p, log))


__all__ = ["CHAINS", "SMALL_WORK", "chain", "kind", "solve_chain"]
