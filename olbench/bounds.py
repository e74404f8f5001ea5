"""Theory: mistake and regret bounds, and the checks that hold runs to them.

Each bound is a small pure function of numbers (its docstring gives the source, the exact
assumptions and an example). :func:`check` compares a bound with the observed value and warns
loudly (:class:`BoundViolation`) when a bound whose assumptions hold is exceeded -- that means a
bug, in a learner, a comparator or a bound. :func:`bound_table` evaluates every bound that
applies to a learner at each checkpoint, and says why the others were skipped.

All bounds below assume w_1 = 0, R = max_t ||x_t|| (the realised radius of the whole stream,
hence valid for every prefix), labels in {-1, +1} and a linear predictor p_t = w_t.x_t.

Not included: the AROW mistake bound (Crammer, Kulesza & Dredze 2009, Theorem 2) -- its exact
statement could not be checked against the paper text here, so it is left out rather than
guessed.

>>> round(novikoff(R=1.0, gamma=0.1), 6)
100.0
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from olbench.losses import get_loss, mistakes as _mistakes

SOURCES = {
    "novikoff": "Novikoff (1962), On convergence proofs for perceptrons; Block (1962)",
    "freund_schapire": "Freund & Schapire (1999), Large margin classification using the "
                       "perceptron algorithm, Machine Learning 37, Theorem 2",
    "pa_separable": "Crammer et al. (2006), Online Passive-Aggressive Algorithms, JMLR 7, "
                    "Theorem 2",
    "pa1_mistakes": "Crammer et al. (2006), Online Passive-Aggressive Algorithms, JMLR 7, "
                    "Theorem 4",
    "pa2_squared_loss": "Crammer et al. (2006), Online Passive-Aggressive Algorithms, JMLR 7, "
                        "Theorem 5",
    "ogd_regret": "Zinkevich (2003), ICML, Theorem 1; Hazan (2016), Introduction to Online "
                  "Convex Optimization, Theorem 3.1",
    "arow_mistakes": "Crammer, Kulesza & Dredze (2009), Adaptive Regularization of Weight "
                     "Vectors, NIPS, Theorem 2 (derived in olbench.bounds.arow_mistakes)",
}


class BoundViolation(UserWarning):
    """A bound whose assumptions hold was exceeded: a bug somewhere. Never silence it."""


# --------------------------------------------------------------------------- the bounds
def novikoff(R: float, gamma: float) -> float:
    """Perceptron mistakes <= (R / gamma)^2.

    Source: Novikoff (1962). Assumptions: some unit u has y_t u.x_t >= gamma > 0 for all t
    (separable with margin gamma), ||x_t|| <= R, w_1 = 0, update w += eta y x exactly on the
    counted mistakes (y_t p_t <= 0). Any eta > 0 (it only rescales w).

    >>> novikoff(R=2.0, gamma=0.5)
    16.0
    """
    return (R / gamma) ** 2


def deviation(u_margins: np.ndarray, gamma: float) -> float:
    """D_gamma = sqrt(sum_t max(0, gamma - y_t u.x_t)^2), with ``u_margins`` = y_t u.x_t, ||u|| = 1.

    >>> deviation(np.array([2.0, 0.5, -1.0]), gamma=1.0)
    2.0615528128088303
    """
    return float(np.sqrt(np.sum(np.maximum(0.0, gamma - np.asarray(u_margins)) ** 2)))


def freund_schapire(R: float, gamma: float, D: float) -> float:
    """Perceptron mistakes <= ((R + D_gamma) / gamma)^2 on any (non-separable) sequence.

    Source: Freund & Schapire (1999), Theorem 2. Assumptions: ||x_t|| <= R, any unit u and any
    gamma > 0, D_gamma = :func:`deviation` of u's margins; Perceptron with w_1 = 0 updating on
    the counted mistakes. With D = 0 it is Novikoff's bound.

    >>> freund_schapire(R=1.0, gamma=0.5, D=1.0)
    16.0
    """
    return ((R + D) / gamma) ** 2


def freund_schapire_tightest(u_margins: np.ndarray, R: float) -> tuple[float, float]:
    """min over gamma > 0 of :func:`freund_schapire` for a fixed unit u: (bound, gamma).

    Any gamma gives a valid bound, so the minimum found (a grid over the sorted margins,
    refined by a bounded scalar search) is valid even if not the exact minimum.

    >>> m = np.array([0.5] * 20 + [-0.1])   # gamma = 0.5 would give ((1 + 0.6)/0.5)^2 = 10.24
    >>> b, g = freund_schapire_tightest(m, R=1.0)
    >>> round(b, 3), round(g, 3)
    (9.294, 0.585)
    """
    from scipy.optimize import minimize_scalar

    m = np.sort(np.asarray(u_margins, dtype=float))
    s1 = np.concatenate([[0.0], np.cumsum(m)])
    s2 = np.concatenate([[0.0], np.cumsum(m * m)])

    def f(g):
        g = np.atleast_1d(np.asarray(g, dtype=float))
        k = np.searchsorted(m, g)                    # rounds with margin < gamma
        q = np.maximum(k * g * g - 2 * g * s1[k] + s2[k], 0.0)
        return ((R + np.sqrt(q)) / g) ** 2

    hi = max(float(np.abs(m).max(initial=0.0)), R) * 4 + 1e-12
    grid = np.unique(np.concatenate([np.geomspace(hi * 1e-9, hi, 400), m[m > 0]]))
    vals = f(grid)
    i = int(np.argmin(vals))
    best_g, best = float(grid[i]), float(vals[i])
    lo_b, hi_b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    if hi_b > lo_b:
        r = minimize_scalar(lambda g: float(f(g)[0]), bounds=(lo_b, hi_b), method="bounded",
                            options={"xatol": 1e-12 * hi})
        if r.fun < best:
            best_g, best = float(r.x), float(r.fun)
    return best, best_g


def pa_separable(R: float, u_norm: float) -> float:
    """PA (no C): sum_t loss_t^2 <= ||u||^2 R^2, loss_t = hinge loss of the learner at round t.

    Source: Crammer et al. (2006), Theorem 2. Assumptions: some u has y_t u.x_t >= 1 for all t
    (so ||u|| >= 1/gamma; the smallest is the max-margin u, ||u|| = 1/gamma), ||x_t|| <= R,
    w_1 = 0, the basic PA step tau_t = loss_t / ||x_t||^2.

    >>> pa_separable(R=1.0, u_norm=10.0)
    100.0
    """
    return u_norm ** 2 * R ** 2


def pa1_mistakes(R: float, C: float, u_norm: float, hinge_sum: float) -> float:
    """PA-I prediction mistakes <= max(R^2, 1/C) (||u||^2 + 2 C sum_t loss_t(u)).

    Source: Crammer et al. (2006), Theorem 4. Assumptions: any u; loss_t(u) = max(0, 1 - y_t
    u.x_t) (hinge, ``hinge_sum`` over the same rounds); ||x_t|| <= R; w_1 = 0; step
    tau_t = min(C, loss_t/||x_t||^2). A mistake is y_t p_t <= 0 (so loss_t >= 1). The tightest
    u minimises ||u||^2 + 2C sum hinge: the ridge-regularised hinge comparator with ridge = 1/C.

    >>> pa1_mistakes(R=1.0, C=0.5, u_norm=2.0, hinge_sum=3.0)
    14.0
    """
    return max(R ** 2, 1.0 / C) * (u_norm ** 2 + 2 * C * hinge_sum)


def pa2_squared_loss(R: float, C: float, u_norm: float, sq_hinge_sum: float) -> float:
    """PA-II: sum_t loss_t^2 <= (R^2 + 1/(2C)) (||u||^2 + 2 C sum_t loss_t(u)^2).

    Source: Crammer et al. (2006), Theorem 5. Assumptions: any u; loss_t the hinge loss (of the
    learner on the left, of u on the right, ``sq_hinge_sum`` = sum of its squares); ||x_t|| <= R;
    w_1 = 0; step tau_t = loss_t / (||x_t||^2 + 1/(2C)). Tightest u: squared-hinge comparator
    with ridge = 1/C.

    >>> pa2_squared_loss(R=1.0, C=0.5, u_norm=2.0, sq_hinge_sum=3.0)
    14.0
    """
    return (R ** 2 + 1.0 / (2 * C)) * (u_norm ** 2 + 2 * C * sq_hinge_sum)


def arow_mistakes(*, r: float, a: float, u_norm2: float, u_sq_margins: float, logdet: float,
                  margin_updates: int, hinge_sum: float) -> float:
    """AROW's mistakes M <= sqrt(r ||u||^2 / a + u'X_A u) sqrt(log det(I + a X_A / r) + U)
    + sum_{t in M u U} g_t(u) - U, for any u.

    Source: Crammer, Kulesza & Dredze (2009), Theorem 2 (there with a = 1). M: mistakes
    (y_t p_t <= 0); U: updates without a mistake (0 < y_t p_t < 1); X_A = sum of x_t x_t' over
    the update rounds M u U; g_t(u) = max(0, 1 - y_t u.x_t). Assumptions: full-covariance AROW
    from mu = 0, Sigma = a I, parameter r.

    Derivation (checked here, since the paper's text was not at hand): with A_t = Sigma_t^-1,
    an update gives A_t = A_{t-1} + x x'/r and A_t mu_t = A_{t-1} mu_{t-1} + y x / r, so
    u'A_T mu_T = (1/r) sum y_t u.x_t >= (M + U - sum g_t)/r. Sherman-Morrison gives
    mu_t'A_t mu_t - mu_{t-1}'A_{t-1} mu_{t-1} = (1 - (1 - y m)^2 + v/r)/(r + v) with
    v = x'Sigma_{t-1}x, which is <= (v/r)/(r + v) on a mistake and adds at most 1/r more on a
    margin update; and (v/r)/(r + v) <= (1/r) log(det A_t / det A_{t-1}). Cauchy-Schwarz in
    the A_T norm then gives the bound. ``logdet`` = log det(I + a X_A / r)
    = d log a - log det Sigma_T, ``u_sq_margins`` = u'X_A u = sum over M u U of (u.x_t)^2.

    >>> round(arow_mistakes(r=1.0, a=1.0, u_norm2=4.0, u_sq_margins=5.0, logdet=2.0,
    ...                     margin_updates=2, hinge_sum=1.0), 6)
    5.0
    """
    return (math.sqrt(r * u_norm2 / a + u_sq_margins) * math.sqrt(logdet + margin_updates)
            + hinge_sum - margin_updates)


def ogd_regret(T: float, D: float, G: float, eta: float | None = None,
               schedule: str = "sqrt") -> float:
    """Projected OGD regret against any u in K: sum_t f_t(w_t) - f_t(u) <= this.

    Source: Zinkevich (2003); Hazan (2016), Theorem 3.1. Assumptions: convex losses, K convex
    with diameter D containing w_1 and u, projection onto K after every step, gradient norms
    <= G. From the proof: regret <= D^2 / (2 eta_T) + (G^2 / 2) sum_t eta_t, so
    ``schedule="sqrt"`` (eta_t = eta / sqrt(t)): D^2 sqrt(T) / (2 eta) + G^2 eta (2 sqrt(T) - 1)/2,
    which for eta = D/G (the default) is <= 1.5 G D sqrt(T); ``"constant"``:
    D^2 / (2 eta) + G^2 eta T / 2.

    >>> round(ogd_regret(T=100, D=2.0, G=1.0), 6)   # eta = D/G: 0.5*2*10 + 2*(20-1)/2
    29.0
    >>> 1.5 * 1.0 * 2.0 * 100 ** 0.5
    30.0
    """
    eta = D / G if eta is None else eta
    if schedule == "sqrt":
        return D ** 2 * math.sqrt(T) / (2 * eta) + G ** 2 * eta * (2 * math.sqrt(T) - 1) / 2
    if schedule == "constant":
        return D ** 2 / (2 * eta) + G ** 2 * eta * T / 2
    raise ValueError(f"unknown schedule {schedule!r}")


def ogd_gradient_bound(loss: str, R: float, radius: float, y_max: float = 1.0) -> float | None:
    """G = max ||gradient|| of the loss over ||w|| <= radius, ||x|| <= R (None if unbounded).

    >>> ogd_gradient_bound("hinge", R=2.0, radius=1.0), ogd_gradient_bound("squared", 2.0, 1.0)
    (2.0, 6.0)
    """
    if loss in ("hinge", "logistic", "absolute", "epsilon_insensitive"):
        return R
    if loss == "squared":
        return (radius * R + y_max) * R
    if loss == "squared_hinge":
        return 2 * (1 + radius * R) * R
    return None


# --------------------------------------------------------------------------- checks
@dataclass
class BoundCheck:
    """One bound at one horizon: its value, what was observed, and whether it held."""

    bound_name: str
    quantity: str                  # what is bounded: "mistakes", "sum_sq_hinge", "regret"
    bound: float | None
    observed: float | None
    holds: bool | None
    skip_reason: str | None = None

    @property
    def ratio(self) -> float | None:
        if self.bound is None or self.observed is None or self.bound == 0:
            return None
        return self.observed / self.bound


def check(bound_name: str, quantity: str, bound: float, observed: float, *,
          rtol: float = 1e-9, atol: float = 1e-9, context: str = "") -> BoundCheck:
    """Compare; a violation emits a :class:`BoundViolation` warning (loud: it means a bug).

    >>> check("novikoff", "mistakes", 4.0, 3).holds
    True
    """
    holds = bool(observed <= bound * (1 + rtol) + atol)
    if not holds:
        warnings.warn(f"BOUND VIOLATED{' (' + context + ')' if context else ''}: {bound_name} "
                      f"bounds {quantity} by {bound:.6g} but {observed:.6g} was observed; its "
                      f"assumptions hold, so this is a bug ({SOURCES.get(bound_name, '')})",
                      BoundViolation, stacklevel=2)
    return BoundCheck(bound_name, quantity, float(bound), float(observed), holds)


def skipped(bound_name: str, quantity: str, reason: str) -> BoundCheck:
    return BoundCheck(bound_name, quantity, None, None, None, reason)


# --------------------------------------------------------------------------- the table
def _arow_checks(learner, margins, y, updated, cands, ctx: str, T: int) -> list[BoundCheck]:
    """The AROW bound at the final round T (it needs Sigma_T, the learner's final state)."""
    name, quantity = "arow_mistakes", "mistakes"
    if learner.diagonal:
        return [skipped(name, quantity, "the bound is for full-covariance AROW (diagonal=True)")]
    if updated is None or not getattr(learner, "is_initialised", False):
        return [skipped(name, quantity, "needs the learner's update flags and final Sigma")]
    if T != len(y):
        return [skipped(name, quantity, "needs Sigma at round T: only the final round has it")]
    if not cands:
        return [skipped(name, quantity, "no comparator with a u")]
    sign, logdet_sigma = np.linalg.slogdet(learner.covariance_)
    d = learner.covariance_.shape[0]
    logdet = d * math.log(float(learner.a)) - logdet_sigma
    mistaken = _mistakes(margins, y, "novikoff")
    on_update = np.asarray(updated, bool)
    margin_updates = int((on_update & ~mistaken).sum())
    values = []
    for fit in cands:
        z = fit.margins[on_update]
        values.append(arow_mistakes(
            r=float(learner.r), a=float(learner.a), u_norm2=float(fit.u @ fit.u),
            u_sq_margins=float(z @ z), logdet=logdet, margin_updates=margin_updates,
            hinge_sum=float(np.maximum(0.0, 1.0 - y[on_update] * z).sum())))
    return [check(name, quantity, min(values), int(mistaken.sum()), context=f"{ctx} T={T}")]


def _fits_with_u(fits) -> list:
    return [f for f in (fits or {}).values() if getattr(f, "ok", False) and f.u is not None]


def _separable_fit(fits):
    for f in (fits or {}).values():
        if getattr(f, "info", {}).get("gamma") is not None or (
                getattr(f, "comparator", "").startswith("MaxMargin")):
            return f
    return None


def bound_table(learner, margins, y, updated=None, *, R: float | None, checkpoints,
                fits: dict | None = None, comparator_loss=None, learner_loss=None,
                context: str = "") -> pd.DataFrame:
    """Every bound that applies to ``learner`` at every checkpoint (long form).

    ``learner``: the learner object (its ``key`` and hyper-parameters decide which bounds
    apply: perceptron -> Novikoff, Freund-Schapire; pa -> PA / PA-I / PA-II by variant;
    arow -> the AROW bound, at the final round, from the learner's final Sigma; ogd -> OGD
    regret). ``fits``: comparator fits by name; a ``max_margin`` fit supplies gamma
    and the separable-case u, every fit with a ``u`` is a candidate for the data-dependent
    bounds (the smallest bound is reported: each is valid). ``comparator_loss`` and
    ``learner_loss``: cumulative losses at the checkpoints, for the regret bound (the comparator
    must be a ball-constrained fit with the learner's radius). Rows: ``t``, ``bound_name``,
    ``quantity``, ``bound``, ``observed``, ``ratio``, ``bound_holds``, ``skip_reason``.
    """
    margins, y = np.asarray(margins, float), np.asarray(y, float)
    ks = np.asarray(checkpoints, dtype=np.int64)
    key = getattr(learner, "key", None)
    fits = fits or {}
    rows: list[tuple[int, BoundCheck]] = []

    def every(fn):
        for T in ks:
            rows.append((int(T), fn(int(T))))

    mm = _separable_fit(fits)
    separable = mm is not None and mm.ok
    gamma = mm.info.get("gamma") if separable else None
    cands = _fits_with_u(fits)
    ctx = f"{context} {getattr(learner, 'name', learner)}".strip()

    if key == "perceptron":
        n_mis = np.cumsum(_mistakes(margins, y, getattr(learner, "tie", "novikoff")))
        if R is None:
            every(lambda T: skipped("novikoff", "mistakes", "R (stream radius) unknown"))
        elif not separable:
            reason = mm.skip_reason if mm is not None else "no max_margin comparator fit given"
            every(lambda T: skipped("novikoff", "mistakes", reason))
        else:
            b = novikoff(R, gamma)
            every(lambda T: check("novikoff", "mistakes", b, n_mis[T - 1], context=f"{ctx} T={T}"))
        if R is None or not cands:
            every(lambda T: skipped("freund_schapire", "mistakes",
                                    "R unknown" if R is None else "no comparator with a u"))
        else:
            unit = [(y * f.margins) / np.linalg.norm(f.u) for f in cands if np.linalg.norm(f.u) > 0]
            every(lambda T: check("freund_schapire", "mistakes",
                                  min(freund_schapire_tightest(m[:T], R)[0] for m in unit),
                                  n_mis[T - 1], context=f"{ctx} T={T}"))
    elif key == "pa":
        variant, C = learner.variant, float(learner.C)
        hinge = get_loss("hinge")(margins, y)
        if variant == "pa":
            obs = np.cumsum(hinge ** 2)
            if R is None or not separable:
                reason = "R unknown" if R is None else (
                    mm.skip_reason if mm is not None else "no max_margin comparator fit given")
                every(lambda T: skipped("pa_separable", "sum_sq_hinge", reason))
            else:
                b = pa_separable(R, float(np.linalg.norm(mm.u)))
                every(lambda T: check("pa_separable", "sum_sq_hinge", b, obs[T - 1],
                                      context=f"{ctx} T={T}"))
        else:
            name, quantity, f_loss, fn = (
                ("pa1_mistakes", "mistakes", "hinge", pa1_mistakes) if variant == "pa1" else
                ("pa2_squared_loss", "sum_sq_hinge", "squared_hinge", pa2_squared_loss))
            obs = np.cumsum(_mistakes(margins, y, "novikoff") if variant == "pa1" else hinge ** 2)
            if R is None or not cands:
                every(lambda T: skipped(name, quantity,
                                        "R unknown" if R is None else "no comparator with a u"))
            else:
                cums = [(float(np.linalg.norm(f.u)), np.cumsum(get_loss(f_loss)(f.margins, y)))
                        for f in cands]
                every(lambda T: check(name, quantity,
                                      min(fn(R, C, un, c[T - 1]) for un, c in cums),
                                      obs[T - 1], context=f"{ctx} T={T}"))
    elif key == "arow":
        rows += [(int(ks[-1]), c) for c in _arow_checks(learner, margins, y, updated, cands,
                                                         ctx, int(ks[-1]))]
    elif key == "ogd":
        radius = getattr(learner, "radius", None)
        reason = None
        if radius is None:
            reason = "OGD without projection (radius=None): the bound needs a bounded set K"
        elif R is None:
            reason = "R (stream radius) unknown"
        elif comparator_loss is None or learner_loss is None:
            reason = "no comparator loss given"
        if reason is not None:
            every(lambda T: skipped("ogd_regret", "regret", reason))
        else:
            G = ogd_gradient_bound(learner.loss, R, radius, float(np.abs(y).max(initial=1.0)))
            regret = np.asarray(learner_loss, float) - np.asarray(comparator_loss, float)
            for i, T in enumerate(ks):
                b = ogd_regret(int(T), 2 * radius, G, float(learner.eta), learner.schedule)
                rows.append((int(T), check("ogd_regret", "regret", b, regret[i],
                                           context=f"{ctx} T={T}")))
    cols = ["t", "bound_name", "quantity", "bound", "observed", "ratio", "bound_holds",
            "skip_reason"]
    return pd.DataFrame([(T, c.bound_name, c.quantity, c.bound, c.observed, c.ratio, c.holds,
                          c.skip_reason) for T, c in rows], columns=cols)
