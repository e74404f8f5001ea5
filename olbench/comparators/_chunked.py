"""Comparator fits over a stream read chunk by chunk (an out-of-core file): no row is kept.

A stream larger than memory (:mod:`olbench.harness.streamed`) cannot be handed to the in-memory
solvers of :mod:`._solvers`. What can be fitted honestly from passes over its chunks is
fitted here, in memory independent of n (d x d matrices and one chunk at a time):

* **Smooth losses by Newton's method** with a backtracking line search (Boyd & Vandenberghe,
  *Convex Optimization*, 2004, sec. 9.5): squared (any ridge >= 0), logistic and squared
  hinge with ridge lam > 0. Each pass at u accumulates over the chunks the objective
  P(u) = sum_t loss(x_t.u, y_t) + lam/2 ||u||^2, its gradient and its Hessian
  X^T diag(loss''(Xu)) X + lam I (the squared hinge's generalised one: Mangasarian, "A
  finite Newton method for classification", Optim. Methods Softw. 17(5), 2002);
  the step is a backtracking (Armijo) line search whose trial points u + t p,
  t = 1, 1/2, ..., 2^-30, are all evaluated in one pass, which also accumulates the
  statistics at the full step, so that an accepted full step (every step of the squared
  loss, the last ones of the others) costs one pass. The squared loss is thus solved by its
  normal equations (X^T X + lam I) u = X^T y accumulated over the chunks, then certified.
* **The certificate**, from the same pass as the objective: with lam > 0 the Fenchel dual
  value at alpha = -loss'(Xu) (as :mod:`._duality`: D(alpha) = sum_t h_t(alpha_t) -
  ||X^T alpha||^2 / (2 lam), with X^T alpha read off the accumulated gradient), a lower
  bound on the optimum by weak duality; for the squared loss without ridge, where P is a
  quadratic with Hessian H = X^T X, min P = P(u) - g^T H^+ g / 2 exactly (the gradient g =
  X^T (Xu - y) lies in the range of H), computed with H's eigenvalues below
  :data:`RCOND` times the largest taken as zero (collinear features).
* **The fit's losses and mistakes at the run's checkpoints**, accumulated in the pass at the
  returned u (:class:`olbench.checkpoints.RunningSums`), which is all regret and mistake
  regret need: a streamed fit keeps no per-round margin.

Piecewise-linear losses are not fitted here: without ridge they are linear programs with one
column per round (:mod:`._lp`), with ridge their solvers keep one dual variable per round
(:mod:`._dcd`) or need the rows of a working set; nor is the max-margin direction. Those
comparators refuse an out-of-core stream (:meth:`.base.Comparator.streamed_problem`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from olbench.checkpoints import RunningSums
from olbench.comparators._duality import Limits, NotCertified, Solution, h_value
from olbench.losses import TIE_RULES, get_loss, mistakes

#: the losses fitted here
NEWTON_LOSSES = ("squared", "logistic", "squared_hinge")
#: ... those of them that need a ridge > 0 (without it the logistic loss has no minimiser on
#: separable data, and neither has a certificate)
NEED_RIDGE = ("logistic", "squared_hinge")
#: the most features a chunked fit takes: its d x d Hessian (32 MB at 2,000) is
#: eigendecomposed at every step
MAX_D = 2000
#: eigenvalues of the Hessian below this fraction of the largest are taken as zero
RCOND = 1e-12
#: the trial steps of the line search, all evaluated in one pass
LADDER = 2.0 ** -np.arange(31)
ARMIJO = 1e-4
#: a relative gap at which another Newton step has nothing left to gain
ROUND_OFF = 1e-13
MAX_STEPS = 100

Chunks = Callable[[], Iterable[tuple]]


def streamed_problem(loss: str, ridge: float, radius) -> str | None:
    """Why ``min_u sum loss + ridge/2 ||u||^2 (||u|| <= radius)`` is not fitted over chunks
    (None: it is).

    >>> streamed_problem("squared", 0.0, None) is None, streamed_problem("logistic", 1.0, None)
    (True, None)
    >>> streamed_problem("hinge", 0.0, None)
    'the hinge loss without ridge is a linear program with one column per round'
    """
    if radius is not None:
        return "a ball constraint (radius) is solved on the rows held in memory"
    if loss not in NEWTON_LOSSES:
        if ridge > 0:
            return (f"the {loss} loss with ridge is solved with one dual variable per round "
                    "(dual coordinate descent) or on working sets of rows held in memory")
        return f"the {loss} loss without ridge is a linear program with one column per round"
    if loss in NEED_RIDGE and not ridge > 0:
        return (f"the {loss} loss without ridge has no certificate (and, on separable data, "
                "no minimiser); set ridge > 0")
    return None


def _curvature(loss: str, m: np.ndarray, y: np.ndarray) -> np.ndarray:
    """loss''(m) per round (the squared hinge's generalised second derivative)."""
    if loss == "squared":
        return np.ones_like(m)
    if loss == "logistic":
        s = get_loss("logistic").derivative(m, y) * -y      # sigmoid(-y m)
        return s * (1.0 - s)
    return 2.0 * (y * m < 1.0)


@dataclass
class _Pass:
    """What one pass accumulates at a point u (see the module docs)."""

    loss: str
    lam: float
    u: np.ndarray
    sums: RunningSums
    curvature: bool = True
    epsilon: float = 0.1
    loss_gradient: np.ndarray = field(init=False)     # X^T loss'(Xu)
    hessian: np.ndarray | None = field(init=False)    # X^T diag(loss''(Xu)) X
    h_sum: float = 0.0                                # sum_t h_t(-loss'(x_t.u))

    def __post_init__(self):
        d = len(self.u)
        self.loss_gradient = np.zeros(d)
        self.hessian = np.zeros((d, d)) if self.curvature else None

    def add(self, X, y: np.ndarray, m: np.ndarray) -> None:
        L = get_loss(self.loss, epsilon=self.epsilon)
        values, slope = L.value(m, y), L.derivative(m, y)
        counts = {f"mistakes_{tie}": mistakes(m, y, tie) for tie in TIE_RULES} \
            if L.task == "classification" else {}
        self.sums.add(loss=values, **counts)
        self.loss_gradient += np.asarray(X.T @ slope, float).ravel()
        if self.lam > 0:
            self.h_sum += h_value(self.loss, -slope, y, self.epsilon)
        if self.hessian is not None:
            w = _curvature(self.loss, m, y)
            weighted = X.multiply(w[:, None]).tocsr() if sp.issparse(X) else X * w[:, None]
            block = X.T @ weighted
            self.hessian += block.toarray() if sp.issparse(block) else block

    @property
    def objective(self) -> float:
        return float(self.sums.total("loss")) + 0.5 * self.lam * float(self.u @ self.u)

    @property
    def gradient(self) -> np.ndarray:
        return self.loss_gradient + self.lam * self.u

    def eigen(self) -> tuple[np.ndarray, np.ndarray]:
        """(eigenvalues kept, their eigenvectors) of the Hessian + lam I (:data:`RCOND`)."""
        H = self.hessian.copy()
        H[np.diag_indices_from(H)] += self.lam
        values, vectors = sla.eigh(H, check_finite=False)
        keep = values > RCOND * max(values.max(initial=0.0), 0.0)
        return values[keep], vectors[:, keep]

    def lower_bound(self) -> float:
        """A certified lower bound on min P (module docs)."""
        if self.lam > 0:
            return self.h_sum - float(self.loss_gradient @ self.loss_gradient) / (2 * self.lam)
        values, vectors = self.eigen()       # the squared loss: a quadratic
        along = vectors.T @ self.gradient
        return self.objective - 0.5 * float(along @ (along / values))


class _Sweeper:
    """Passes over the chunks under the solver's deadline, counted."""

    def __init__(self, chunks: Chunks, loss: str, lam: float, checkpoints, limits: Limits,
                 epsilon: float = 0.1):
        self.chunks, self.loss, self.lam, self.epsilon = chunks, loss, lam, epsilon
        self.checkpoints, self.limits = checkpoints, limits
        self.deadline = time.monotonic() + limits.time
        self.passes = 0

    def _new(self, u: np.ndarray, curvature: bool) -> _Pass:
        return _Pass(self.loss, self.lam, u, RunningSums(self.checkpoints), curvature,
                     self.epsilon)

    def _each_chunk(self):
        self.passes += 1
        started = time.monotonic()
        for X, y in self.chunks():
            if time.monotonic() > self.deadline:
                raise self.limits.timed_out("a chunked fit", self._spent())
            yield X, np.asarray(y, float)
        self.pass_seconds = time.monotonic() - started

    def _spent(self) -> str:
        """How far the fit got, and what a pass costs: what the time limit must allow."""
        done = f"pass {self.passes} over the stream"
        seconds = getattr(self, "pass_seconds", None)
        return done if seconds is None else f"{done}; a pass takes {seconds:.3g} s"

    def at(self, u: np.ndarray, curvature: bool = True) -> _Pass:
        """The statistics at u."""
        here = self._new(u, curvature)
        for X, y in self._each_chunk():
            here.add(X, y, np.asarray(X @ u, float).ravel())
        return here

    def along(self, u: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, _Pass]:
        """P(u + t p) for t in :data:`LADDER`, and the statistics at u + p."""
        L = get_loss(self.loss)
        step = self._new(u + p, True)
        trials = np.zeros(len(LADDER))
        for X, y in self._each_chunk():
            m, q = np.asarray(X @ u, float).ravel(), np.asarray(X @ p, float).ravel()
            trials += L.value(m[None, :] + LADDER[:, None] * q[None, :], y[None, :]).sum(axis=1)
            step.add(X, y, m + q)
        trials += 0.5 * self.lam * np.array([float((u + t * p) @ (u + t * p)) for t in LADDER])
        return trials, step


def newton(chunks: Chunks, d: int, loss: str, lam: float, checkpoints,
           limits: Limits | None = None) -> tuple[Solution, RunningSums]:
    """min_u sum_t loss(x_t.u, y_t) + lam/2 ||u||^2 over ``chunks()`` (a fresh iterator of
    (X, y) chunks per call), certified (module docs); returns the solution and the fit's
    cumulative losses and mistakes (``mistakes_<tie rule>``) at ``checkpoints``. Raises
    :class:`~._duality.NotCertified` (``TimedOut`` when the time ran out) when the gap stays
    above ``limits.accept``."""
    problem = streamed_problem(loss, lam, None)
    if problem:
        raise ValueError(problem)
    if d > MAX_D:
        raise NotCertified(f"a chunked fit takes at most {MAX_D:,} features (a d x d Hessian "
                           f"eigendecomposed at every step); this stream has {d:,}")
    limits = limits or Limits.default()
    with threadpool_limits(1, user_api="blas"):   # the grid owns the cores
        return _newton(_Sweeper(chunks, loss, lam, checkpoints, limits), d, limits)


def _newton(sweep: _Sweeper, d: int, limits: Limits) -> tuple[Solution, RunningSums]:
    cur = sweep.at(np.zeros(d))
    best, best_lower = cur, cur.lower_bound()
    steps = 0

    def certified(level: str) -> bool:
        solution = Solution(best.u, best.objective, min(best_lower, best.objective))
        return limits.certified(solution, level)

    polished = False
    while steps < MAX_STEPS:
        if certified("target"):
            # one more step once certified: Newton's convergence is quadratic, so it takes
            # the gap (and u: the loss part of P, which regret reads, moves with u) to
            # round-off for one more pass
            if polished or best.objective - best_lower <= ROUND_OFF * max(1.0, best.objective):
                break
            polished = True
        values, vectors = cur.eigen()
        g = cur.gradient
        p = -vectors @ ((vectors.T @ g) / values)
        slope = float(g @ p)
        if not slope < 0:                  # no descent left at working precision
            break
        trials, full = sweep.along(cur.u, p)
        accepted = trials <= cur.objective + ARMIJO * LADDER * slope
        if not accepted.any():
            break
        t = LADDER[int(np.argmax(accepted))]
        steps += 1
        cur = full if t == 1.0 else sweep.at(cur.u + t * p)
        lower = cur.lower_bound()
        if cur.objective - lower < best.objective - best_lower:
            best, best_lower = cur, lower
    info = {"solver": "chunked-newton", "steps": steps, "passes": sweep.passes}
    solution = Solution(best.u, best.objective, min(best_lower, best.objective), info)
    if not limits.certified(solution):
        raise NotCertified(f"chunked Newton: relative gap {solution.gap:.3g} after {steps} "
                           f"steps ({sweep.passes} passes over the stream)")
    return solution, best.sums


def evaluate(chunks: Chunks, u: np.ndarray, loss: str, checkpoints, epsilon: float = 0.1,
             limits: Limits | None = None) -> RunningSums:
    """The cumulative losses and mistakes of a given u at ``checkpoints``, in one pass."""
    sweep = _Sweeper(chunks, loss, 0.0, checkpoints, limits or Limits.default(), epsilon)
    return sweep.at(np.asarray(u, float), curvature=False).sums
