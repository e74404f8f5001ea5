"""Mistake bounds of the Perceptron: Novikoff (separable) and Freund-Schapire (any sequence).

All assume w_1 = 0, R = max_t ||x_t|| (the realised radius of the whole stream, hence valid
for every prefix), labels in {-1, +1} and an update on every counted mistake.

>>> round(novikoff(R=1.0, gamma=0.1), 6)
100.0
"""

from __future__ import annotations

import numpy as np

from olbench.bounds.core import RunRecord, any_u, max_margin, theorem


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
            best_g = float(r.x)
    # the value at the gamma chosen, summed directly: the search's running sums lose the
    # small D_gamma to cancellation (k g^2 - 2 g s1 + s2 with every margin near g), and a
    # bound a few 1e-8 below the truth fired on a stream that attains it (the bound atlas)
    return freund_schapire(R, best_g, deviation(m, best_g)), best_g


@theorem("novikoff", "mistakes", needs=max_margin, formula="(R/γ)²",
         source="Novikoff (1962), On convergence proofs for perceptrons; Block (1962)")
def NOVIKOFF(rec: RunRecord):
    """(R/gamma)^2 with gamma the max-margin comparator's margin, at every checkpoint."""
    R = rec.require_radius()
    bound = novikoff(R, rec.separable_fit().info["gamma"])
    mistakes = rec.cum_mistakes()
    return [(T, bound, mistakes[T - 1]) for T in rec.checkpoints]


@theorem("freund_schapire", "mistakes", needs=any_u, formula="((R + D_γ)/γ)²",
         source="Freund & Schapire (1999), Large margin classification using the perceptron "
                "algorithm, Machine Learning 37, Theorem 2")
def FREUND_SCHAPIRE(rec: RunRecord):
    """The tightest gamma for each comparator's unit u on the prefix; the smallest bound."""
    R = rec.require_radius()
    units = [(rec.y * f.margins) / np.linalg.norm(f.u) for f in rec.fits_with_u()
             if np.linalg.norm(f.u) > 0]
    mistakes = rec.cum_mistakes()
    return [(T, min(freund_schapire_tightest(m[:T], R)[0] for m in units), mistakes[T - 1])
            for T in rec.checkpoints]
