"""What every solver of :mod:`olbench.comparators._solvers` shares: the solution with its
certificate, the limits (time, gap) and the exceptions (and the skip reason a comparator
gives for one), and the primal and Fenchel dual objectives.

P(u) = sum_t phi_t(x_t.u) + lam/2 ||u||^2; D(alpha) = sum_t h_t(alpha_t) -
||X^T alpha||^2 / (2 lam) with h_t(a) = -phi_t^*(-a); D(alpha) <= P(u) for every alpha in the
domain of h (weak duality), so a dual point certifies a primal one.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from olbench.losses import get_loss
from olbench.schema import TIMED_OUT


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


class NotCertified(RuntimeError):
    """No solver reached a certified optimum within the limits (the message says why)."""


class TimedOut(NotCertified):
    """The solver time limit (:attr:`Limits.time`) ran out before a certified optimum: a
    *transient* failure (a less loaded machine or a larger ``run.solver_time_limit`` may
    succeed), unlike a gap that stalls with time left."""


def skip_reason(error: NotCertified) -> str:
    """A solver's failure as a comparator's skip reason: ``time-out: ...`` when its time ran
    out (:class:`TimedOut`: transient, so the runs are recomputed on re-run),
    else ``not certified: ...``.

    >>> skip_reason(TimedOut("HiGHS LP: Time limit reached"))
    'time-out: HiGHS LP: Time limit reached'
    """
    return f"{TIMED_OUT if isinstance(error, TimedOut) else 'not certified'}: {error}"


#: the time limit set for the calls made inside :func:`time_limit` (a grid task's
#: ``run.solver_time_limit``); a context variable, so that threads do not share it
_TIME_LIMIT: ContextVar[float | None] = ContextVar("olbench_solver_time_limit", default=None)

#: the time limit when neither :func:`time_limit` nor ``$OLBENCH_SOLVER_TIME_LIMIT`` sets one
DEFAULT_TIME_LIMIT = 120.0


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Solve under a ``seconds`` wall-clock limit per :func:`~._solvers.solve` call (None:
    the default of :meth:`Limits.default`). The grid wraps each task in it, so that
    ``run.solver_time_limit`` reaches the solvers in every worker process (loky or Dask).

    >>> with time_limit(7.5):
    ...     Limits.default().time
    7.5
    """
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds >= 0):
        raise ValueError(f"solver time limit must be a number of seconds >= 0, got {seconds!r}")
    token = _TIME_LIMIT.set(None if seconds is None else float(seconds))
    try:
        yield
    finally:
        _TIME_LIMIT.reset(token)


@dataclass(frozen=True)
class Limits:
    """Budgets of one :func:`~._solvers.solve` call.

    ``time``: wall-clock seconds for the whole call, all fallbacks included (default: the
    grid's ``run.solver_time_limit`` (:func:`time_limit`), else ``$OLBENCH_SOLVER_TIME_LIMIT``,
    else :data:`DEFAULT_TIME_LIMIT`); running out of it is a :class:`TimedOut`; ``target``:
    the relative gap (P - D) / max(1, |P|) a solver aims at before the next one is tried;
    ``accept``: the largest relative gap that is still returned (beyond it:
    :class:`NotCertified`).
    """

    time: float = DEFAULT_TIME_LIMIT
    target: float = 1e-10
    accept: float = 1e-6

    @classmethod
    def default(cls) -> Limits:
        chosen = _TIME_LIMIT.get()
        if chosen is not None:
            return cls(time=chosen)
        env = os.environ.get("OLBENCH_SOLVER_TIME_LIMIT")
        return cls(time=float(env)) if env else cls()

    def certified(self, s: Solution, level: str = "accept") -> bool:
        tol = self.target if level == "target" else self.accept
        return s.lower_bound is not None and s.gap <= tol * max(1.0, abs(s.objective))

    def timed_out(self, where: str, detail: str = "") -> TimedOut:
        """The :class:`TimedOut` of a solve that ran out of time ``where`` (what it had
        tried: ``detail``), naming the limit.

        >>> str(Limits(time=0.5).timed_out("the HiGHS dual LP"))
        'the solver time limit of 0.5 s (run.solver_time_limit) ran out in the HiGHS dual LP'
        """
        return TimedOut(f"the solver time limit of {self.time:g} s (run.solver_time_limit) "
                        f"ran out in {where}" + (f" ({detail})" if detail else ""))


@dataclass(frozen=True, eq=False)
class Problem:
    """One fit: min_u sum_t loss(u.x_t, y_t) + lam/2 ||u||^2, subject to ||u|| <= radius when
    a radius is given; with the warm start, and the wall-clock deadline and the limits of the
    :func:`~._solvers.solve` call it belongs to."""

    X: Any
    y: np.ndarray
    loss: str
    epsilon: float
    lam: float
    radius: float | None
    warm: Solution | None
    deadline: float
    limits: Limits

    def remaining(self) -> float:
        """Seconds left before the deadline (negative once it has passed)."""
        return self.deadline - time.monotonic()


# --------------------------------------------------------------------------- helpers
def matvec(X, u: np.ndarray) -> np.ndarray:
    return np.asarray(X @ u, dtype=float).ravel()


def rmatvec(X, a: np.ndarray) -> np.ndarray:
    return np.asarray(X.T @ a, dtype=float).ravel()


def total_loss(X, y, u, loss: str, epsilon: float) -> float:
    return float(get_loss(loss, epsilon=epsilon)(matvec(X, u), y).sum())


def objective(X, y, u, loss: str, epsilon: float, lam: float) -> float:
    return total_loss(X, y, u, loss, epsilon) + 0.5 * lam * float(u @ u)


def h_value(loss: str, alpha: np.ndarray, y: np.ndarray, epsilon: float) -> float:
    """sum_t -phi_t^*(-alpha_t): the separable part of the Fenchel dual (-inf outside domain)."""
    b = alpha * y
    tol = 1e-12
    if loss == "hinge":
        feasible = b.min(initial=0) >= -tol and b.max(initial=0) <= 1 + tol
        return float(b.sum()) if feasible else -math.inf
    if loss == "squared_hinge":
        return float((b - b * b / 4).sum()) if b.min(initial=0) >= -tol else -math.inf
    if loss == "logistic":
        if b.min(initial=0) < -tol or b.max(initial=0) > 1 + tol:
            return -math.inf
        b = np.clip(b, 0.0, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ent = -(np.where(b > 0, b * np.log(b), 0.0)
                    + np.where(b < 1, (1 - b) * np.log1p(-b), 0.0))
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
    return h_value(loss, alpha, y, epsilon) - float(v @ v) / (2 * lam)
